#!/usr/bin/env bash
# The production stack started from the repository's deploy files and checked over https (issue 25
# item 1): `deploy/serve.sh` (what `make serve` runs), without any test or lint tool: Caddy
# (deploy/Caddyfile, `tls internal` on localhost, free high ports), gunicorn, uvicorn, a Celery worker and beat (deploy/Procfile), on a
# PostgreSQL database made for this run and Redis db 14. tests/ops/test_stack_https.py then checks
# a page, compression, a static file, a login, a hand saved and read back, a round pack built by
# the worker and an imported tournament, verifying Caddy's
# certificate against its own root. Everything is stopped and the database dropped at the end.
# The stack runs from the CI virtualenv with every module of requirements-dev.txt refused at
# import; STACK_FRESH_VENV=1 builds a new virtualenv from requirements.txt alone instead.
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT=$PWD
PY=$ROOT/.venv/bin/python
if ! command -v caddy >/dev/null 2>&1; then
  apt-get install -y -q caddy >/dev/null || { apt-get update -q >/dev/null && apt-get install -y -q caddy >/dev/null; }
fi
WORK=$(mktemp -d -t nskt-stack-XXXXXX)
DB="nskt_stack_$$"
LOG=$WORK/stack.log
free_port() { "$PY" -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }

cleanup() {
  if [ -n "${STACK_PID:-}" ] && kill -0 "$STACK_PID" 2>/dev/null; then
    kill -TERM "$STACK_PID" 2>/dev/null || true
    for _ in $(seq 1 30); do kill -0 "$STACK_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$STACK_PID" 2>/dev/null || true
  fi
  "$PY" - "$DB" <<'PYEOF' || true
import sys, psycopg, redis
with psycopg.connect(host="127.0.0.1", user="postgres", dbname="postgres", autocommit=True) as c:
    c.execute(f'DROP DATABASE IF EXISTS "{sys.argv[1]}" WITH (FORCE)')
redis.Redis.from_url("redis://127.0.0.1:6379/14").flushdb()
PYEOF
  rm -rf "$WORK"
}
trap cleanup EXIT

if [ -n "${STACK_FRESH_VENV:-}" ]; then
  # The full proof (slow where PyPI is far: minutes): a new virtualenv from requirements.txt alone.
  VENV=$WORK/venv
  python3.11 -m venv "$VENV"
  "$VENV/bin/pip" install -q --no-compile --disable-pip-version-check -r requirements.txt 2>&1 | grep -v "is ignored: it is neither" || true
  echo "runtime-only virtualenv built (${SECONDS}s, $(du -sh "$VENV" | cut -f1))"
else
  # The quick one: the CI virtualenv, where every module that only requirements-dev.txt brings is
  # refused at import (a sitecustomize on PYTHONPATH), so each process of the stack runs as if
  # only the runtime requirements were installed.
  VENV=${STACK_VENV:-$ROOT/.venv}
  mkdir -p "$WORK/guard"
  "$VENV/bin/python" - "$WORK/guard/sitecustomize.py" <<'PYEOF'
import re, sys
from importlib import metadata

def names(path):
    return {re.split(r"[\[=<> ]", line.strip())[0].lower() for line in open(path)
            if line.strip() and not line.startswith(("#", "-"))}

dev_only = names("requirements-dev.txt") - names("requirements.txt")
modules = sorted(m for m, dists in metadata.packages_distributions().items() if {d.lower() for d in dists} & dev_only)
open(sys.argv[1], "w").write(f"""# Written by .ci/stack.sh: development tools are refused at import.
import importlib.abc, sys
BLOCKED = {set(modules)!r}
class _DevToolBlock(importlib.abc.MetaPathFinder):
    def find_spec(self, name, path=None, target=None):
        if name.partition(".")[0] in BLOCKED:
            raise ModuleNotFoundError(f"No module named {{name!r}} (a development tool: requirements-dev.txt)")
sys.meta_path.insert(0, _DevToolBlock())
""")
PYEOF
  export PYTHONPATH=$WORK/guard
  if "$VENV/bin/python" -c "import pytest" 2>/dev/null; then echo "the import guard does not work"; exit 1; fi
fi
for tool in pytest playwright hypothesis ruff; do
  if "$VENV/bin/python" -c "import $tool" 2>/dev/null; then echo "$tool is importable by the stack"; exit 1; fi
done

export NSKT_VENV=$VENV SERVE_DIR=$WORK/serve MEDIA_ROOT=$WORK/media
export DATABASE_URL="postgres://postgres@127.0.0.1:5432/$DB" REDIS_URL=redis://127.0.0.1:6379/14
export SERVE_HOST=localhost SERVE_PORT=$(free_port) SERVE_HTTP_PORT=$(free_port)
export NSKT_WEB_ADDR="127.0.0.1:$(free_port)" NSKT_EVENTS_ADDR="127.0.0.1:$(free_port)"
export WEB_CONCURRENCY=2 CELERY_CONCURRENCY=1
URL="https://localhost:$SERVE_PORT"
CA=$SERVE_DIR/caddy-data/caddy/pki/authorities/local/root.crt

bash deploy/serve.sh >"$LOG" 2>&1 &
STACK_PID=$!
for _ in $(seq 1 600); do
  if [ -f "$CA" ] && curl -fs -o /dev/null --cacert "$CA" "$URL/"; then break; fi
  kill -0 "$STACK_PID" 2>/dev/null || { cat "$LOG"; echo "the stack stopped"; exit 1; }
  sleep 1
done
curl -fsS -o /dev/null --cacert "$CA" "$URL/" || { cat "$LOG"; echo "no answer at $URL"; exit 1; }
echo "stack up at $URL (${SECONDS}s)"

# The worker is asked while the demo tournament, an imported one and a token are made (one Django start);
# asked again until it answers (a worker still starting when the web answers first), for up to 2 minutes.
( for _ in $(seq 1 10); do
    bash deploy/serve.sh run "$VENV/bin/celery" -A nskt inspect ping -t 10 >"$WORK/ping.log" 2>&1 && exit 0
    sleep 2
  done; exit 1 ) &
PING_PID=$!
TOKEN=$(bash deploy/serve.sh manage shell -c "from django.core.management import call_command
call_command('load_demo', in_production=True, stdout=open('/dev/null', 'w'))
call_command('import_tournament', 'docs/examples/tournament.json', organiser='organiser', stdout=open('/dev/null', 'w'))
call_command('api_token', 'organiser')" 2>/dev/null | grep -o 'nskt_[0-9a-f]\{64\}' | head -n1)
[ -n "$TOKEN" ] || { echo "no API token"; exit 1; }
wait "$PING_PID" || { cat "$WORK/ping.log" "$LOG"; echo "the Celery worker does not answer"; exit 1; }
echo "demo loaded, Celery worker answers (${SECONDS}s)"

status=0
env -u DATABASE_URL -u REDIS_URL -u MEDIA_ROOT -u PYTHONPATH STACK_URL="$URL" STACK_CA="$CA" \
  STACK_HTTP_URL="http://localhost:$SERVE_HTTP_PORT" STACK_EVENTS_URL="http://$NSKT_EVENTS_ADDR" \
  STACK_TOKEN="$TOKEN" STACK_SLUG=nskt-demo \
  "$PY" -m pytest -q -p no:cacheprovider tests/ops/test_stack_https.py || status=$?
for name in web events worker beat caddy; do
  grep -q "system *| $name\.1 started" "$LOG" || { echo "process $name was not started"; status=1; }
done
if grep -q "system *| .* stopped" "$LOG"; then echo "a process stopped during the checks"; status=1; fi
if [ "$status" != 0 ]; then tail -n 80 "$LOG"; fi
echo "stack checks done (${SECONDS}s)"
exit "$status"
