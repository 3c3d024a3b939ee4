#!/usr/bin/env bash
# Production in one command on a fresh Debian server (docs/operations.md, "Deploy"), as root, from
# a checkout the service user can read (for example /srv/nskt/app):
#
#   deploy/install.sh --host nskt.example.org --tls admin@example.org   # a public name, Let's Encrypt
#   deploy/install.sh --host 192.168.1.20 --tls internal                # a venue network without internet
#
# It installs the Debian packages (caddy, postgresql, redis-server, Python 3.11 with venv), makes the
# service user, a virtualenv with only the runtime requirements (requirements.txt), the settings
# file /etc/nskt/nskt.env (mode 600, a generated SECRET_KEY; an existing file is never overwritten,
# only missing variables are added), the database and its role, then migrates, collects the static
# files, runs `check --deploy`, installs and starts the systemd units (deploy/systemd/) and points
# Caddy at deploy/Caddyfile. Running it again is safe: it is also the upgrade (after `git pull`).
#
# Test mode: --destdir DIR writes every file under DIR and prints the system commands instead of
# running them (no root needed); --dry-run alone prints them and writes nothing.
set -euo pipefail

APP_DIR=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
NSKT_USER=${NSKT_USER:-nskt}
HOME_DIR=${NSKT_HOME:-/srv/nskt}
VENV=${NSKT_VENV:-$HOME_DIR/venv}
HOST=${NSKT_HOST:-}
TLS=${NSKT_TLS:-}
DESTDIR=""
DRY=""
LOCAL_DB="postgres://$NSKT_USER@%2Frun%2Fpostgresql/$NSKT_USER"

usage() { sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit "${1:-0}"; }
while [ $# -gt 0 ]; do
  case "$1" in
    --host) HOST=$2; shift 2 ;;
    --tls) TLS=$2; shift 2 ;;
    --destdir) DESTDIR=$(mkdir -p "$2" && cd "$2" && pwd); DRY=1; shift 2 ;;
    --dry-run) DRY=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "unknown argument: $1" >&2; usage 2 ;;
  esac
done
ENV_FILE=/etc/nskt/nskt.env
CADDY_ENV=/etc/nskt/caddy.env
UNIT_DIR=/etc/systemd/system

say() { printf '== %s\n' "$*"; }
# A system command: run it, or in test mode print it (shell-quoted, after "+ ").
run() {
  if [ -n "$DRY" ]; then printf '+'; printf ' %q' "$@"; printf '\n'; else "$@"; fi
}
# Files are written unless --dry-run without --destdir.
writes() { [ -z "$DRY" ] || [ -n "$DESTDIR" ]; }

check_root() {
  if [ -z "$DRY" ] && [ "$(id -u)" != 0 ]; then echo "deploy/install.sh must run as root (or try --destdir DIR)" >&2; exit 1; fi
}

packages() {
  say "Debian packages"
  local want=(caddy postgresql redis-server python3-venv) missing=()
  if apt-cache show python3.11-venv >/dev/null 2>&1; then want+=(python3.11 python3.11-venv); fi
  for p in "${want[@]}"; do dpkg -s "$p" >/dev/null 2>&1 || missing+=("$p"); done
  if [ -n "$DRY" ]; then missing=("${want[@]}"); fi
  if [ ${#missing[@]} -gt 0 ]; then
    run apt-get update -q
    run env DEBIAN_FRONTEND=noninteractive apt-get install -y -q "${missing[@]}"
  fi
  run systemctl enable --now postgresql redis-server
}

python_cmd() {
  if command -v python3.11 >/dev/null 2>&1; then echo python3.11; else echo python3; fi
}

user_and_folders() {
  say "user $NSKT_USER and folders under $HOME_DIR"
  id -u "$NSKT_USER" >/dev/null 2>&1 && [ -z "$DRY" ] || \
    run useradd --system --user-group --home-dir "$HOME_DIR" --shell /usr/sbin/nologin "$NSKT_USER"
  run install -d -m 755 "$HOME_DIR"
  run install -d -m 755 -o "$NSKT_USER" -g "$NSKT_USER" "$HOME_DIR/static"
  local d
  for d in media var backups; do run install -d -m 750 -o "$NSKT_USER" -g "$NSKT_USER" "$HOME_DIR/$d"; done
  run runuser -u "$NSKT_USER" -- test -r "$APP_DIR/manage.py" || {
    echo "the user $NSKT_USER cannot read $APP_DIR: put the checkout in a folder it can read (e.g. $HOME_DIR/app)" >&2
    exit 1
  }
}

virtualenv() {
  say "virtualenv $VENV (runtime requirements only)"
  [ -x "$VENV/bin/python" ] && [ -z "$DRY" ] || run "$(python_cmd)" -m venv "$VENV"
  run "$VENV/bin/pip" install -q --upgrade pip
  run "$VENV/bin/pip" install -q -r "$APP_DIR/requirements.txt"
}

# KEY=VALUE appended to FILE unless FILE sets KEY already (an existing value is never changed).
ensure_var() {
  local file=$1 key=$2 value=$3
  grep -q "^$key=" "$file" || printf '%s=%s\n' "$key" "$value" >>"$file"
}

# The value of KEY in FILE (empty when missing).
file_var() { sed -n "s/^$2=//p" "$1" | tail -n1; }

settings_file() {
  local file=$DESTDIR$ENV_FILE workers
  say "settings $ENV_FILE"
  writes || { echo "(dry run: $ENV_FILE not written)"; return; }
  install -d -m 755 "$(dirname "$file")"
  if [ ! -f "$file" ]; then
    if [ -z "$HOST" ]; then echo "first install: give the site's name or address with --host" >&2; exit 2; fi
    (umask 077; printf '# NSKT production settings (docs/operations.md). Written by deploy/install.sh, which never\n# changes a value here; edit, then: systemctl restart nskt.target (and caddy for NSKT_*).\n' >"$file")
  fi
  chmod 600 "$file"
  if [ -n "$HOST" ] && [ -n "$(file_var "$file" NSKT_HOST)" ] && [ "$(file_var "$file" NSKT_HOST)" != "$HOST" ]; then
    echo "note: $ENV_FILE keeps NSKT_HOST=$(file_var "$file" NSKT_HOST); edit the file to change it" >&2
  fi
  local stored; stored=$(file_var "$file" NSKT_HOST)
  [ -z "$stored" ] || HOST=$stored
  [ -n "$HOST" ] || HOST=$(file_var "$file" ALLOWED_HOSTS | cut -d, -f1)
  workers=$(( $(nproc 2>/dev/null || echo 2) * 2 + 1 ))
  ensure_var "$file" DEBUG 0
  grep -q '^SECRET_KEY=.' "$file" || ensure_var "$file" SECRET_KEY "$(python3 -c 'import secrets; print(secrets.token_urlsafe(50))')"
  ensure_var "$file" DATABASE_URL "$LOCAL_DB"
  ensure_var "$file" REDIS_URL redis://127.0.0.1:6379/0
  ensure_var "$file" ALLOWED_HOSTS "$HOST"
  ensure_var "$file" CSRF_TRUSTED_ORIGINS "https://$HOST"
  ensure_var "$file" TRUSTED_PROXIES "127.0.0.1,::1"
  ensure_var "$file" STATIC_ROOT "$HOME_DIR/static"
  ensure_var "$file" MEDIA_ROOT "$HOME_DIR/media"
  ensure_var "$file" CELERY_BEAT_SCHEDULE "$HOME_DIR/var/celerybeat-schedule"
  ensure_var "$file" WEB_CONCURRENCY "$workers"
  ensure_var "$file" CELERY_CONCURRENCY 2
  ensure_var "$file" BACKUP_DIR "$HOME_DIR/backups"
  ensure_var "$file" BACKUP_KEEP_DAYS 14
  ensure_var "$file" NSKT_HOST "$HOST"
  ensure_var "$file" NSKT_TLS "${TLS:-internal}"
  ensure_var "$file" NSKT_WEB_ADDR 127.0.0.1:8000
  ensure_var "$file" NSKT_EVENTS_ADDR 127.0.0.1:8001
  # Caddy's own environment: only what the Caddyfile reads, never the secrets (Debian's caddy.service
  # prints its environment at start). Rewritten from the settings file at every run.
  {
    echo "# Written by deploy/install.sh from $ENV_FILE at every run; edit that file instead."
    local key
    for key in NSKT_HOST NSKT_TLS NSKT_WEB_ADDR NSKT_EVENTS_ADDR; do echo "$key=$(file_var "$file" "$key")"; done
    echo "NSKT_STATIC_ROOT=$(file_var "$file" STATIC_ROOT)"
  } >"$DESTDIR$CADDY_ENV"
  chmod 644 "$DESTDIR$CADDY_ENV"
}

database() {
  say "database"
  local url=$LOCAL_DB
  [ -f "$DESTDIR$ENV_FILE" ] && url=$(file_var "$DESTDIR$ENV_FILE" DATABASE_URL)
  if [ "$url" != "$LOCAL_DB" ]; then echo "DATABASE_URL is not the local default: its database is not created here"; return; fi
  local psql=(runuser -u postgres -- psql -X -q -tA -c)
  if [ -n "$DRY" ] || [ -z "$("${psql[@]}" "SELECT 1 FROM pg_roles WHERE rolname = '$NSKT_USER'")" ]; then
    run runuser -u postgres -- createuser "$NSKT_USER"
  fi
  if [ -n "$DRY" ] || [ -z "$("${psql[@]}" "SELECT 1 FROM pg_database WHERE datname = '$NSKT_USER'")" ]; then
    run runuser -u postgres -- createdb --owner "$NSKT_USER" "$NSKT_USER"
  fi
}

# manage.py as the service user with the settings file's environment.
manage() {
  if [ -n "$DRY" ]; then run runuser -u "$NSKT_USER" -- "$VENV/bin/python" "$APP_DIR/manage.py" "$@"; return; fi
  (set -a; . "$ENV_FILE"; set +a; cd "$APP_DIR" && runuser -u "$NSKT_USER" -- "$VENV/bin/python" manage.py "$@")
}

django() {
  say "migrate, collectstatic, check --deploy"
  manage migrate --noinput
  manage collectstatic --noinput
  manage check --deploy
}

render() {  # template -> destination, with the @...@ placeholders filled in
  sed -e "s|@APP_DIR@|$APP_DIR|g" -e "s|@VENV@|$VENV|g" -e "s|@USER@|$NSKT_USER|g" \
      -e "s|@ENV_FILE@|$ENV_FILE|g" "$1" >"$2"
}

units() {
  say "systemd units and Caddy"
  if writes; then
    install -d -m 755 "$DESTDIR$UNIT_DIR/caddy.service.d" "$DESTDIR/etc/caddy" "$DESTDIR/usr/local/bin"
    local unit
    for unit in "$APP_DIR"/deploy/systemd/*; do render "$unit" "$DESTDIR$UNIT_DIR/$(basename "$unit")"; done
    printf '# Written by NSKT deploy/install.sh: the Caddyfile reads these (no secrets in them).\n[Service]\nEnvironmentFile=%s\n' \
      "$CADDY_ENV" >"$DESTDIR$UNIT_DIR/caddy.service.d/nskt.conf"
    caddyfile "$DESTDIR/etc/caddy/Caddyfile"
    render "$APP_DIR/deploy/nskt-manage" "$DESTDIR/usr/local/bin/nskt-manage"
    chmod 755 "$DESTDIR/usr/local/bin/nskt-manage"
  fi
  run systemctl daemon-reload
  run systemctl enable nskt.target nskt-web.service nskt-events.service nskt-worker.service nskt-beat.service nskt-backup.timer
  run systemctl restart nskt.target
  run systemctl start nskt-backup.timer
  run systemctl enable caddy
  run systemctl reload-or-restart caddy
}

caddyfile() {  # /etc/caddy/Caddyfile imports the repository's; Debian's own is kept aside once
  local file=$1 line="import $APP_DIR/deploy/Caddyfile"
  if [ -f "$file" ] && grep -qxF "$line" "$file"; then return; fi
  if [ -f "$file" ] && [ ! -f "$file.before-nskt" ]; then mv "$file" "$file.before-nskt"; fi
  printf '# Written by NSKT deploy/install.sh: the site is the repository'"'"'s deploy/Caddyfile.\n%s\n' "$line" >"$file"
}

check_root
packages
user_and_folders
virtualenv
settings_file
database
django
units
say "done: https://${HOST:-(NSKT_HOST)}/  (settings: $ENV_FILE; logs: journalctl -u nskt-web; commands: nskt-manage)"
