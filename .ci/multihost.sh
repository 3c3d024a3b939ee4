#!/usr/bin/env bash
# More than one machine (issue 25 item 6): two gunicorn web processes and one Celery worker, each
# with its OWN empty local folders (MEDIA_ROOT and TMPDIR, made here), share one PostgreSQL
# database (made and dropped here), Redis db 13 (broker and cache; flushed) and one S3-compatible
# store (moto's server on a free port, a bucket made here). tests/ops/test_multihost.py then
# checks over HTTP: a round pack started through web A is built by the worker and downloaded
# through web B and web A (the same PDF); an import uploaded through B (logged in through A) is
# processed by the worker; no process's local folders hold a pack or import file. Everything
# started here is stopped on exit (trap). Needs PostgreSQL and Redis (.ci/run starts them).
set -euo pipefail
cd "$(dirname "$0")/.."
PY=.venv/bin/python
PGHOST=${PGHOST:-127.0.0.1}; PGPORT=${PGPORT:-5432}; PGUSER=${PGUSER:-postgres}
DB="nskt_multihost_$$"
WORK="$(mktemp -d -t nskt-multihost-XXXXXX)"
PIDS=()

free_port() { $PY -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
S3_PORT=$(free_port); A_PORT=$(free_port); B_PORT=$(free_port)

# What every process shares (and nothing else).
export DATABASE_URL="postgres://${PGUSER}@${PGHOST}:${PGPORT}/${DB}"
export REDIS_URL="${MULTIHOST_REDIS_URL:-redis://127.0.0.1:6379/13}"
export DEBUG=1 SECRET_KEY="multihost-ci-only" ALLOWED_HOSTS="127.0.0.1,localhost" IMPORT_INLINE_ROWS=5
export STORAGE_S3_BUCKET="nskt-multihost" STORAGE_S3_ENDPOINT_URL="http://127.0.0.1:${S3_PORT}" STORAGE_S3_REGION="us-east-1"
export AWS_ACCESS_KEY_ID="multihost" AWS_SECRET_ACCESS_KEY="multihost"

cleanup() {
  local code=$?
  for pid in "${PIDS[@]}"; do kill -TERM "$pid" 2>/dev/null || true; done
  for pid in "${PIDS[@]}"; do
    for _ in $(seq 1 20); do kill -0 "$pid" 2>/dev/null || break; sleep 0.25; done
    kill -KILL "$pid" 2>/dev/null || true
  done
  if [ "$code" != 0 ]; then
    for log in "$WORK"/*.log; do [ -f "$log" ] && { echo "== $log"; tail -n 40 "$log"; }; done
  fi
  $PY - <<PYEOF || true
import psycopg, redis
with psycopg.connect(host="$PGHOST", port="$PGPORT", user="$PGUSER", dbname="postgres", autocommit=True) as c:
    c.execute('DROP DATABASE IF EXISTS "$DB" WITH (FORCE)')
redis.Redis.from_url("$REDIS_URL").flushdb()
PYEOF
  rm -rf "$WORK"
}
trap cleanup EXIT
trap 'exit 143' INT TERM

# Each process's own local folders: media (must stay empty) and temporary files.
for who in setup web-a web-b worker; do mkdir -p "$WORK/$who/media" "$WORK/$who/tmp"; done
local_env() { echo "MEDIA_ROOT=$WORK/$1/media TMPDIR=$WORK/$1/tmp"; }

wait_port() {  # wait_port PORT PID NAME
  for _ in $(seq 1 120); do
    (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null && return 0
    kill -0 "$2" 2>/dev/null || { echo "$3 died"; return 1; }
    sleep 0.5
  done
  echo "$3 did not open port $1"; return 1
}

.venv/bin/moto_server -H 127.0.0.1 -p "$S3_PORT" > "$WORK/moto.log" 2>&1 &
PIDS+=($!); wait_port "$S3_PORT" "${PIDS[-1]}" "moto_server"

$PY - <<PYEOF
import boto3, psycopg, redis
with psycopg.connect(host="$PGHOST", port="$PGPORT", user="$PGUSER", dbname="postgres", autocommit=True) as c:
    c.execute('DROP DATABASE IF EXISTS "$DB"'); c.execute('CREATE DATABASE "$DB"')
redis.Redis.from_url("$REDIS_URL").flushdb()
boto3.client("s3", endpoint_url="$STORAGE_S3_ENDPOINT_URL", region_name="us-east-1").create_bucket(Bucket="$STORAGE_S3_BUCKET")
print("database, Redis db and bucket ready")
PYEOF
env $(local_env setup) $PY manage.py migrate -v 0
env $(local_env setup) $PY manage.py load_demo > "$WORK/setup.log"

env $(local_env worker) $PY -m celery -A nskt worker --pool=solo --concurrency=1 --loglevel=WARNING \
  --without-gossip --without-mingle --without-heartbeat -n "multihost-$$@%h" > "$WORK/worker.log" 2>&1 &
PIDS+=($!)
for side in a b; do
  port=$A_PORT; [ "$side" = b ] && port=$B_PORT
  env $(local_env "web-$side") $PY -m gunicorn nskt.wsgi -b "127.0.0.1:$port" -w 2 --preload --timeout 120 \
    --no-control-socket --access-logfile - > "$WORK/web-$side.log" 2>&1 &
  PIDS+=($!); wait_port "$port" "${PIDS[-1]}" "web $side"
done
for port in "$A_PORT" "$B_PORT"; do  # both answer a page (the workers have loaded the app)
  for _ in $(seq 1 60); do
    $PY -c "import urllib.request as u; u.urlopen('http://127.0.0.1:$port/', timeout=60)" 2>/dev/null && break
    sleep 1
  done
done
for _ in $(seq 1 60); do
  $PY -m celery -A nskt inspect ping -t 1 >/dev/null 2>&1 && break
  sleep 1
done
echo "moto :$S3_PORT, web A :$A_PORT, web B :$B_PORT, worker up"

MULTIHOST_A_URL="http://127.0.0.1:$A_PORT" MULTIHOST_B_URL="http://127.0.0.1:$B_PORT" \
MULTIHOST_LOCAL_DIRS="$WORK/web-a:$WORK/web-b:$WORK/worker" \
MULTIHOST_SLUG="nskt-demo" MULTIHOST_LOGIN="organiser:nskt-organiser-demo" \
  env -u DATABASE_URL -u REDIS_URL -u DEBUG -u SECRET_KEY \
  $PY -m pytest -q -p no:cacheprovider tests/ops/test_multihost.py
