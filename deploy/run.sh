#!/usr/bin/env bash
# One process of the production stack, by name: the single definition of each command, used by
# the systemd units (deploy/systemd/), the venue laptop's Procfile (deploy/Procfile, `make serve`)
# and CI (.ci/stack.sh). Settings come from the environment (docs/operations.md).
#
#   deploy/run.sh web      gunicorn, nskt.wsgi at NSKT_WEB_ADDR (127.0.0.1:8000), WEB_CONCURRENCY workers (4)
#   deploy/run.sh events   uvicorn, nskt.asgi at NSKT_EVENTS_ADDR (127.0.0.1:8001): the /events/ streams
#   deploy/run.sh worker   a Celery worker, CELERY_CONCURRENCY processes (2)
#   deploy/run.sh beat     Celery beat (periodic tasks), its schedule in CELERY_BEAT_SCHEDULE
#   deploy/run.sh caddy    Caddy with deploy/Caddyfile (a server uses Debian's caddy.service instead)
#
# NSKT_VENV is the virtualenv (default: .venv of the project folder). With NSKT_PRINT=1 the command
# is printed (one shell-quoted line) instead of run.
set -euo pipefail
APP_DIR=${NSKT_APP_DIR:-$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}
VENV=${NSKT_VENV:-$APP_DIR/.venv}
PROXIES=${TRUSTED_PROXIES:-127.0.0.1,::1}
cd "$APP_DIR"

case "${1:-}" in
  web)
    cmd=("$VENV/bin/gunicorn" nskt.wsgi --bind "${NSKT_WEB_ADDR:-127.0.0.1:8000}"
         --workers "${WEB_CONCURRENCY:-4}" --timeout "${WEB_TIMEOUT:-60}"
         --forwarded-allow-ips "$PROXIES" --access-logfile - --error-logfile -
         --no-control-socket) ;;  # gunicorn 27's control socket is one per user: two stacks would share it
  events)
    addr=${NSKT_EVENTS_ADDR:-127.0.0.1:8001}
    # No proxy headers at uvicorn: Django reads them from TRUSTED_PROXIES, as behind gunicorn.
    cmd=("$VENV/bin/uvicorn" nskt.asgi:application --host "${addr%:*}" --port "${addr##*:}"
         --no-proxy-headers --timeout-graceful-shutdown 5 --log-level warning) ;;
  worker)
    cmd=("$VENV/bin/celery" -A nskt worker --loglevel=INFO --concurrency "${CELERY_CONCURRENCY:-2}"
         --hostname "nskt@%h") ;;
  beat)
    schedule=${CELERY_BEAT_SCHEDULE:-$APP_DIR/var/celerybeat-schedule}
    [ -n "${NSKT_PRINT:-}" ] || mkdir -p "$(dirname "$schedule")"
    cmd=("$VENV/bin/celery" -A nskt beat --loglevel=INFO --schedule "$schedule") ;;
  caddy)
    cmd=("${CADDY:-caddy}" run --adapter caddyfile --config "$APP_DIR/deploy/Caddyfile") ;;
  *)
    echo "usage: deploy/run.sh web|events|worker|beat|caddy" >&2
    exit 2 ;;
esac

if [ -n "${NSKT_PRINT:-}" ]; then
  printf '%q ' "${cmd[@]}"; echo
else
  exec "${cmd[@]}"
fi
