#!/usr/bin/env bash
# `make serve`: the whole production stack on this machine, for a venue laptop (docs/operations.md,
# "Venue laptop"): Caddy with its own certificate authority (`tls internal`) on SERVE_HOST
# (localhost) port SERVE_PORT (8443), gunicorn, uvicorn for the live events, a Celery worker and
# beat, all from deploy/Procfile under honcho. DEBUG is off. Needs PostgreSQL and Redis running
# here; the database is created when missing.
#
# The settings live in $SERVE_DIR/serve.env (SERVE_DIR: var/serve, ignored by git), written once
# with a generated SECRET_KEY, never overwritten; variables of the real environment win over it.
#
#   deploy/serve.sh                    migrate, collectstatic, check --deploy, then run the stack
#   deploy/serve.sh manage ARGS...     manage.py ARGS with the same settings (createsuperuser, ...)
#   deploy/serve.sh run COMMAND...     any command with the same settings (celery -A nskt inspect ping)
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
ROOT=$PWD
VENV=${NSKT_VENV:-$ROOT/.venv}
SERVE_DIR=${SERVE_DIR:-$ROOT/var/serve}
ENV_FILE=$SERVE_DIR/serve.env
mkdir -p "$SERVE_DIR"
SERVE_DIR=$(cd "$SERVE_DIR" && pwd)

if [ ! -f "$ENV_FILE" ]; then
  (umask 077; "$VENV/bin/python" - "$ENV_FILE" <<'PYEOF'
import secrets, sys
open(sys.argv[1], "x").write(
    "# make serve (deploy/serve.sh): the venue laptop's settings, written once, never overwritten.\n"
    "# Variables set in the real environment win over these. docs/operations.md, 'Venue laptop'.\n"
    f"SECRET_KEY={secrets.token_urlsafe(50)}\n"
    "DATABASE_URL=postgres://%2Frun%2Fpostgresql/nskt\n"
    "REDIS_URL=redis://127.0.0.1:6379/0\n")
PYEOF
  )
  echo "Wrote $ENV_FILE (a generated SECRET_KEY; the database and Redis to use)."
fi
# The file's variables, where the environment does not set them already.
while IFS= read -r line; do
  case "$line" in ''|'#'*) continue ;; esac
  key=${line%%=*}
  [ -n "${!key+x}" ] || export "$key=${line#*=}"
done <"$ENV_FILE"

SERVE_HOST=${SERVE_HOST:-localhost}
SERVE_PORT=${SERVE_PORT:-8443}
origin="https://$SERVE_HOST"; [ "$SERVE_PORT" = 443 ] || origin="$origin:$SERVE_PORT"
export DEBUG=0 NSKT_HOST=$SERVE_HOST NSKT_TLS=internal NSKT_HTTPS_PORT=$SERVE_PORT
export NSKT_HTTP_PORT=${SERVE_HTTP_PORT:-8080} NSKT_CADDY_ADMIN=off
export ALLOWED_HOSTS=${ALLOWED_HOSTS:-$SERVE_HOST,localhost,127.0.0.1}
export CSRF_TRUSTED_ORIGINS=${CSRF_TRUSTED_ORIGINS:-$origin}
export TRUSTED_PROXIES=${TRUSTED_PROXIES:-127.0.0.1,::1}
export STATIC_ROOT=${STATIC_ROOT:-$SERVE_DIR/static} NSKT_VENV=$VENV
export NSKT_STATIC_ROOT=$STATIC_ROOT
export CELERY_BEAT_SCHEDULE=${CELERY_BEAT_SCHEDULE:-$SERVE_DIR/celerybeat-schedule}
# Caddy keeps its certificate authority and certificates here (not in the user's home).
export XDG_DATA_HOME=$SERVE_DIR/caddy-data XDG_CONFIG_HOME=$SERVE_DIR/caddy-config
unset PORT

case "${1:-}" in
  manage) shift; exec "$VENV/bin/python" manage.py "$@" ;;
  run) shift; exec "$@" ;;
  '') ;;
  *) echo "usage: deploy/serve.sh [manage ARGS... | run COMMAND...]" >&2; exit 2 ;;
esac

command -v "${CADDY:-caddy}" >/dev/null || { echo "Caddy is needed: apt-get install caddy" >&2; exit 1; }
"$VENV/bin/python" - <<'PYEOF'
"""PostgreSQL and Redis must answer; the database of DATABASE_URL is created when missing."""
import os, sys
import dj_database_url, psycopg, redis
from psycopg import sql

db = dj_database_url.parse(os.environ["DATABASE_URL"])
if db["ENGINE"] != "django.db.backends.postgresql":
    sys.exit("make serve runs on PostgreSQL: set DATABASE_URL to a postgres:// address")
params = {k: v for k, v in {"host": db["HOST"], "port": db["PORT"], "user": db["USER"],
                            "password": db["PASSWORD"]}.items() if v}
try:
    with psycopg.connect(dbname="postgres", autocommit=True, connect_timeout=5, **params) as conn:
        if not conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [db["NAME"]]).fetchone():
            conn.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(db["NAME"])))
            print(f"Created the database {db['NAME']}.")
except psycopg.Error as exc:
    sys.exit(f"PostgreSQL does not answer or refuses ({exc}). Is it running, and may this user "
             "create databases? (sudo -u postgres createuser --createdb $USER)")
try:
    redis.Redis.from_url(os.environ["REDIS_URL"], socket_connect_timeout=3).ping()
except redis.RedisError as exc:
    sys.exit(f"Redis does not answer at {os.environ['REDIS_URL']} ({exc}).")
PYEOF
"$VENV/bin/python" manage.py migrate --noinput
"$VENV/bin/python" manage.py collectstatic --noinput -v 0
"$VENV/bin/python" manage.py check --deploy
echo "Serving $origin/ (Caddy's root certificate, for phones: $XDG_DATA_HOME/caddy/pki/authorities/local/root.crt)"
exec "$VENV/bin/honcho" --procfile deploy/Procfile --app-root "$ROOT" --env /dev/null start
