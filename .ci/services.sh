#!/usr/bin/env bash
# The whole suite against the real services: PostgreSQL (a database created and dropped for this
# run), Redis as Celery broker and cache, and a real Celery worker started here and stopped at the
# end. A missing service is a failure (REQUIRE_SERVICES=1), never a skip.
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
PGHOST=${PGHOST:-127.0.0.1}; PGPORT=${PGPORT:-5432}; PGUSER=${PGUSER:-postgres}
REDIS_URL=${REDIS_URL:-redis://127.0.0.1:6379/15}
DB="nskt_ci_$$"
export PGHOST PGPORT PGUSER

# pytest-django creates test_<NAME>; the worker must use that same database.
export DATABASE_URL="postgres://${PGUSER}@${PGHOST}:${PGPORT}/${DB}"
WORKER_DATABASE_URL="postgres://${PGUSER}@${PGHOST}:${PGPORT}/test_${DB}"
export REDIS_URL REQUIRE_SERVICES=1 MEDIA_ROOT="$(mktemp -d)"
WORKER_LOG="$(mktemp -t nskt-celery-XXXXXX.log)"

$PY - <<'PYEOF'
import os, sys
import psycopg, redis
try:
    psycopg.connect(host=os.environ["PGHOST"], port=os.environ["PGPORT"], user=os.environ["PGUSER"], dbname="postgres", connect_timeout=5).close()
except Exception as exc:
    sys.exit(f"PostgreSQL unreachable: {exc}")
try:
    redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=5).ping()
except Exception as exc:
    sys.exit(f"Redis unreachable at {os.environ['REDIS_URL']}: {exc}")
print("services reachable: PostgreSQL and Redis")
PYEOF

$PY - <<PYEOF
import psycopg
with psycopg.connect(host="$PGHOST", port="$PGPORT", user="$PGUSER", dbname="postgres", autocommit=True) as c:
    c.execute('DROP DATABASE IF EXISTS "$DB"'); c.execute('CREATE DATABASE "$DB"')
PYEOF

cleanup() {
  if [ -n "${WORKER_PID:-}" ] && kill -0 "$WORKER_PID" 2>/dev/null; then
    kill -TERM "$WORKER_PID" 2>/dev/null || true
    for _ in $(seq 1 20); do kill -0 "$WORKER_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$WORKER_PID" 2>/dev/null || true
  fi
  $PY - <<PYEOF || true
import psycopg
with psycopg.connect(host="$PGHOST", port="$PGPORT", user="$PGUSER", dbname="postgres", autocommit=True) as c:
    for name in ("$DB", "test_$DB"):
        c.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
PYEOF
  rm -rf "$MEDIA_ROOT" "$WORKER_LOG"
}
trap cleanup EXIT

DATABASE_URL="$WORKER_DATABASE_URL" DEBUG=1 $PY -m celery -A nskt worker --pool=solo --concurrency=1 \
  --loglevel=WARNING --without-gossip --without-mingle --without-heartbeat -n "ci-$$@%h" \
  > "$WORKER_LOG" 2>&1 &
WORKER_PID=$!
for _ in $(seq 1 60); do
  if DEBUG=1 $PY -m celery -A nskt inspect ping -t 1 >/dev/null 2>&1; then break; fi
  kill -0 "$WORKER_PID" 2>/dev/null || { cat "$WORKER_LOG"; echo "Celery worker died"; exit 1; }
  sleep 1
done
DEBUG=1 $PY -m celery -A nskt inspect ping -t 2 >/dev/null || { cat "$WORKER_LOG"; echo "Celery worker does not answer"; exit 1; }
echo "Celery worker up (pid $WORKER_PID)"

$PY -m pytest -q -p no:cacheprovider --create-db -m "not browser" "$@"
