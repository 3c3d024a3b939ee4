#!/usr/bin/env bash
# Load scenario (issue 5 item 6, issue 13 item 7 "the hall on a live day", issue 25 item 4 "the
# busiest 10 minutes of a round"): gunicorn + PostgreSQL (+ Redis, + the event server and Caddy
# when there) with a 300-team tournament whose round 1 is being played and confirmed: 50 referees
# entering Tai Pan hands, 2 referees confirming the finished tables at the busy round's rate (90 %
# of the tables within 10 minutes: standings change every ~4.4 s at 300 teams), 100 readers
# opening team pages, match pages, the standings and the round now and then, and 1,000 phones
# keeping a live page open (standings, round 1's tables or a match), polling it every 10 s
# (LOAD_MODE=poll, today) or following pushed events (LOAD_MODE=push).
#
#   bash benchmarks/load/run_load.sh [SECONDS]        (measured seconds, default 60)
#
# The referees, confirmers and readers are locust users (locustfile.py); the phones run in one
# asyncio process (phones.py: httpx, httpx-sse). The run is a warm-up (referees log in within
# LOAD_LOGIN_SPREAD = 30 s, phones arrive within LOAD_ARRIVAL seconds, each loading its page; it
# lasts until every referee and confirmer is logged in and every phone has polled once or opened
# its event stream, plus 5 s, at most LOAD_WARMUP_MAX = 120 s; its figures are printed apart)
# followed by SECONDS measured.
#
# Steps: create a fresh PostgreSQL database (127.0.0.1:5432, user postgres; dropped at the end),
# migrate, collectstatic, build the tournament (loadctl.py setup: the finished tables get their
# hands there), start gunicorn on loopback with production settings (DEBUG=0, random SECRET_KEY,
# SECURE_SSL_REDIRECT=0 and SECURE_COOKIES=0 because the loopback run is plain http); with
# LOAD_MODE=push the ASGI event server (uvicorn nskt.asgi:application); with Caddy (LOAD_CADDY)
# Caddy in front on plain http with the encode line of deploy/Caddyfile; run the phones and
# locust; then check in the database that every hand acknowledged to a referee is stored exactly
# once (loadctl.py verify) and print the latency per endpoint (phones included), p95 over every
# request, the bytes on the wire per phone and minute by page (compressed as Caddy sent them, or
# as gunicorn sent them and with gzip computed on the bodies), the confirmations, the CPU of each
# process and of the whole machine, then the CPU per request of each endpoint with one client
# (loadctl.py cost). Exits 1 if a hand was lost or duplicated.
#
# Variables: LOAD_MODE (poll or push, poll), LOAD_TEAMS (300), LOAD_PORT (8765), LOAD_WORKERS
# (gunicorn workers, 2 per CPU + 1 as a production install has them: 5 on 2 cores), LOAD_REFEREES (50), LOAD_CONFIRMERS (2), LOAD_CONFIRM_SHARE (0.9),
# LOAD_READERS (100), LOAD_PHONES (1000), LOAD_PHONE_WAIT (seconds between two polls, 10),
# LOAD_PHONE_PAGES (which pages the phones keep open, with weights, "standings:1,round:1,match:1"),
# LOAD_PHONE_VIEW (added to a standings phone's URL, {team} replaced by its team's pk; empty),
# LOAD_PUSH_COALESCE (at most one pushed refresh per page every this many seconds, 10),
# LOAD_ARRIVAL (seconds over which the phones arrive, max(LOAD_PHONE_WAIT, phones / 50)),
# LOAD_ASGI_PORT (8766), LOAD_CADDY (1: Caddy in front, 0: not, default 1 when caddy is installed
# and deploy/Caddyfile exists), LOAD_CADDY_PORT (8767), LOAD_MATCHES (the referees' tables, 50;
# fewer than LOAD_REFEREES makes referees share matches and meet 409 "this match changed"
# answers), LOAD_REFEREE_WAIT ("15,30" seconds between two hands), LOAD_READER_WAIT ("15,45"
# seconds between two pages of a reader), LOAD_SPAWN_RATE (users started per second, 50),
# LOAD_LOGIN_SPREAD (30), LOAD_WARMUP_MAX (120), LOAD_COST (0 skips the CPU per request figures),
# LOAD_CLIENT_NICE (the load generators' nice value, -5; 0: as the server), LOAD_OUT (directory to keep the CSV and JSON files and logs in), LOAD_REDIS (a Redis database as
# production has it (REDIS_URL), e.g. redis://127.0.0.1:6379/15: the gunicorn workers then share
# the standings and the rendered live regions, and the event server hears the changes there; the
# database is emptied before and after the run, so give one nothing else uses; unset: each worker
# keeps its own in-process cache, the embedded default), PGHOST/PGPORT/PGUSER.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=.venv/bin/python
DURATION=${1:-60}
PORT=${LOAD_PORT:-8765}
WORKERS=${LOAD_WORKERS:-$(( $(nproc) * 2 + 1 ))}  # as deploy/install.sh sets WEB_CONCURRENCY
REFEREES=${LOAD_REFEREES:-50}
READERS=${LOAD_READERS:-100}
CONFIRMERS=${LOAD_CONFIRMERS:-2}
PHONES=${LOAD_PHONES:-1000}
MATCHES=${LOAD_MATCHES:-50}
TEAMS=${LOAD_TEAMS:-300}
MODE=${LOAD_MODE:-poll}
ASGI_PORT=${LOAD_ASGI_PORT:-8766}
CADDY_PORT=${LOAD_CADDY_PORT:-8767}
if [ -z "${LOAD_CADDY:-}" ]; then
  if command -v caddy >/dev/null && [ -f deploy/Caddyfile ]; then LOAD_CADDY=1; else LOAD_CADDY=0; fi
fi
case "$MODE" in poll|push) ;; *) echo "LOAD_MODE=$MODE: poll or push"; exit 2;; esac
if [ "$MODE" = push ] && [ -z "${LOAD_REDIS:-}" ]; then
  echo "LOAD_MODE=push needs LOAD_REDIS (the web processes reach the event server through Redis pub/sub)"; exit 2
fi
PGHOST=${PGHOST:-127.0.0.1}; PGPORT=${PGPORT:-5432}; PGUSER=${PGUSER:-postgres}
DB="nskt_load_$$"
WORK=$(mktemp -d -t nskt-load.XXXXXX)
GUNICORN_PID=""; ASGI_PID=""; CADDY_PID=""; PHONES_PID=""
export PGHOST PGPORT PGUSER
ulimit -n 65536 2>/dev/null || true

cleanup() {
  set +e
  if [ -n "${LOCUST_PID:-}" ] && kill -0 "$LOCUST_PID" 2>/dev/null; then
    kill -TERM "$LOCUST_PID" 2>/dev/null; sleep 2; kill -KILL "$LOCUST_PID" 2>/dev/null
  fi
  for pid in "$PHONES_PID" "$CADDY_PID" "$ASGI_PID"; do
    if [ -n "$pid" ] && kill -0 "$pid" 2>/dev/null; then kill -TERM "$pid" 2>/dev/null; sleep 1; kill -KILL "$pid" 2>/dev/null; fi
  done
  if [ -n "$GUNICORN_PID" ] && kill -0 "$GUNICORN_PID" 2>/dev/null; then
    kill -TERM "$GUNICORN_PID" 2>/dev/null
    for _ in $(seq 1 20); do kill -0 "$GUNICORN_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$GUNICORN_PID" 2>/dev/null
  fi
  timeout 30 $PY -c "import psycopg; c = psycopg.connect(host='$PGHOST', port='$PGPORT', user='$PGUSER', \
dbname='postgres', autocommit=True, connect_timeout=5); c.execute('DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)')" \
    && echo "database $DB dropped" || echo "could not drop database $DB"
  if [ -n "${LOAD_OUT:-}" ]; then mkdir -p "$LOAD_OUT" && cp "$WORK"/stats_*.csv "$WORK"/*.log "$WORK"/events.jsonl "$WORK"/polls.json "$WORK"/phones.json "$WORK"/Caddyfile "$LOAD_OUT"/ 2>/dev/null; fi
  flush_redis 2>/dev/null
  rm -rf "$WORK"
}
trap cleanup EXIT

# "busy, total" CPU jiffies of the whole machine (/proc/stat), to tell how busy it was.
machine_cpu() {
  awk '/^cpu /{idle=$5+$6; total=0; for(i=2;i<=NF;i++) total+=$i; print total-idle ", " total; exit}' /proc/stat
}

# CPU seconds (user + system) used so far by process $1 and its children (/proc): gunicorn's
# master and workers. (Locust measures its own CPU over the measured part: polls.json.)
process_cpu() {
  $PY - "$1" <<'PYEOF'
import os, sys
root, total = int(sys.argv[1]), 0
for pid in filter(str.isdigit, os.listdir("/proc")):
    try:
        stat = open(f"/proc/{pid}/stat").read()
    except OSError:
        continue
    fields = stat[stat.rindex(")") + 2:].split()
    if int(pid) == root or int(fields[1]) == root:
        total += int(fields[11]) + int(fields[12])
print(f"{total / os.sysconf('SC_CLK_TCK'):.2f}")
PYEOF
}
trap 'exit 130' INT TERM

$PY - <<'PYEOF'
import os, sys, psycopg
try:
    psycopg.connect(host=os.environ["PGHOST"], port=os.environ["PGPORT"], user=os.environ["PGUSER"],
                    dbname="postgres", connect_timeout=5).close()
except Exception as exc:
    sys.exit(f"PostgreSQL unreachable: {exc}")
PYEOF
$PY - "$PORT" "$ASGI_PORT" "$CADDY_PORT" <<'PYEOF'
import socket, sys
for port in sys.argv[1:]:
    if socket.socket().connect_ex(("127.0.0.1", int(port))) == 0:
        sys.exit(f"port {port} is already in use; set LOAD_PORT, LOAD_ASGI_PORT or LOAD_CADDY_PORT")
PYEOF
$PY - "$DB" <<'PYEOF'
import os, sys, psycopg
with psycopg.connect(host=os.environ["PGHOST"], port=os.environ["PGPORT"], user=os.environ["PGUSER"],
                     dbname="postgres", autocommit=True) as c:
    c.execute(f'CREATE DATABASE "{sys.argv[1]}"')
PYEOF
echo "database $DB created"

# Production settings (nskt/settings.py), plain http on loopback only.
export DEBUG=0
SECRET_KEY=$($PY -c 'import secrets; print(secrets.token_urlsafe(50))')
export SECRET_KEY
export ALLOWED_HOSTS=127.0.0.1
export DATABASE_URL="postgres://${PGUSER}@${PGHOST}:${PGPORT}/${DB}"
export SECURE_SSL_REDIRECT=0 SECURE_COOKIES=0 PROXY_COUNT=0
export MEDIA_ROOT="$WORK/media" LOG_LEVEL=WARNING
unset REDIS_URL
flush_redis() {
  [ -n "${LOAD_REDIS:-}" ] || return 0
  $PY -c "import redis, sys; redis.Redis.from_url(sys.argv[1], socket_timeout=5).flushdb()" "$LOAD_REDIS"
}
if [ -n "${LOAD_REDIS:-}" ]; then
  # As production: Redis for Django's cache and Celery's broker (the scenario starts no job).
  flush_redis || { echo "Redis at $LOAD_REDIS unreachable"; exit 1; }
  export REDIS_URL="$LOAD_REDIS"
  echo "cache: Redis $LOAD_REDIS (shared by the workers)"
fi

$PY manage.py migrate --noinput >"$WORK/migrate.log" 2>&1 || { cat "$WORK/migrate.log"; exit 1; }
# collectstatic (STATIC_ROOT = staticfiles/, git-ignored) only when the manifest is missing or older
# than a project static file; its post-processing takes ~20 s.
MANIFEST=staticfiles/staticfiles.json
if [ ! -f "$MANIFEST" ] || [ -n "$(find static -newer "$MANIFEST" -type f | head -1)" ]; then
  $PY manage.py collectstatic --noinput >"$WORK/collectstatic.log" 2>&1 || { cat "$WORK/collectstatic.log"; exit 1; }
fi
$PY benchmarks/load/loadctl.py setup "$WORK/plan.json" --matches "$MATCHES" --referees "$REFEREES" \
  --teams "$TEAMS" --confirmers "$CONFIRMERS"

.venv/bin/gunicorn nskt.wsgi --workers "$WORKERS" --bind "127.0.0.1:$PORT" --timeout 30 --graceful-timeout 5 \
  --worker-tmp-dir /dev/shm --error-logfile "$WORK/gunicorn.log" >"$WORK/gunicorn.out" 2>&1 &
GUNICORN_PID=$!
for _ in $(seq 1 60); do
  if $PY -c "import urllib.request,sys; urllib.request.urlopen('http://127.0.0.1:$PORT/', timeout=2)" 2>/dev/null; then break; fi
  kill -0 "$GUNICORN_PID" 2>/dev/null || { cat "$WORK/gunicorn.log"; echo "gunicorn died"; exit 1; }
  sleep 0.5
done
$PY -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/', timeout=5)" \
  || { cat "$WORK/gunicorn.log"; echo "gunicorn does not answer"; exit 1; }
echo "gunicorn up: $WORKERS workers on 127.0.0.1:$PORT (pid $GUNICORN_PID)"

wait_port() {  # PORT PID NAME LOG: wait until something answers on PORT
  for _ in $(seq 1 60); do
    $PY -c "import socket,sys; sys.exit(socket.socket().connect_ex(('127.0.0.1', $1)) != 0)" && return 0
    kill -0 "$2" 2>/dev/null || { tail -20 "$4"; echo "$3 died"; exit 1; }
    sleep 0.5
  done
  tail -20 "$4"; echo "$3 does not answer on port $1"; exit 1
}
BASE_URL="http://127.0.0.1:$PORT"; EVENTS_BASE="http://127.0.0.1:$ASGI_PORT"; COMPRESSED=0
if [ "$MODE" = push ]; then
  [ -x .venv/bin/uvicorn ] || { echo "LOAD_MODE=push needs uvicorn in .venv (the event server)"; exit 1; }
  .venv/bin/uvicorn nskt.asgi:application --host 127.0.0.1 --port "$ASGI_PORT" --no-access-log \
    --log-level warning --limit-concurrency 10000 --backlog 4096 >"$WORK/asgi.log" 2>&1 &
  ASGI_PID=$!
  wait_port "$ASGI_PORT" "$ASGI_PID" "the event server" "$WORK/asgi.log"
  echo "event server up: uvicorn nskt.asgi:application on 127.0.0.1:$ASGI_PORT (pid $ASGI_PID)"
fi
if [ "$LOAD_CADDY" = 1 ]; then
  # Caddy in front as deploy/Caddyfile has it (its encode line), on plain http on loopback.
  ENCODE=$(grep -m1 -E '^\s*encode\b' deploy/Caddyfile 2>/dev/null | sed 's/{$//' | xargs || true)
  ENCODE=${ENCODE:-encode zstd gzip}
  cat >"$WORK/Caddyfile" <<CADDYEOF
{
  admin off
  auto_https off
}
http://127.0.0.1:$CADDY_PORT {
  $ENCODE
  handle /events/* {
    reverse_proxy 127.0.0.1:$ASGI_PORT {
      flush_interval -1
    }
  }
  handle {
    reverse_proxy 127.0.0.1:$PORT
  }
}
CADDYEOF
  caddy run --config "$WORK/Caddyfile" --adapter caddyfile >"$WORK/caddy.log" 2>&1 &
  CADDY_PID=$!
  wait_port "$CADDY_PORT" "$CADDY_PID" "caddy" "$WORK/caddy.log"
  BASE_URL="http://127.0.0.1:$CADDY_PORT"; EVENTS_BASE="$BASE_URL"; COMPRESSED=1
  echo "caddy up on $BASE_URL ($ENCODE; /events/ to the event server) (pid $CADDY_PID)"
fi

# The load generators stand for 2,000 phones and 150 people with devices of their own; on this
# machine they share the server's cores. They run ahead of the server in the CPU's queue
# (LOAD_CLIENT_NICE, default -5: nice(1); unprivileged, they run at the normal priority) so a
# phone's figure is the server's answer time, not the time the simulator waited for a core.
CLIENT_NICE=""
if [ "${LOAD_CLIENT_NICE:--5}" != 0 ] && nice -n "${LOAD_CLIENT_NICE:--5}" true 2>/dev/null; then
  CLIENT_NICE="nice -n ${LOAD_CLIENT_NICE:--5}"
fi
LOAD_PLAN="$WORK/plan.json" LOAD_MODE="$MODE" LOAD_PHONES="$PHONES" LOAD_BASE_URL="$BASE_URL" \
  LOAD_EVENTS_BASE="$EVENTS_BASE" LOAD_COMPRESSED="$COMPRESSED" LOAD_PHONES_READY="$WORK/phones.ready" \
  LOAD_MEASURE_MARK="$WORK/measure.mark" LOAD_MEASURE="$DURATION" LOAD_PHONES_OUT="$WORK/phones.json" \
  LOAD_WARMUP_MAX="${LOAD_WARMUP_MAX:-120}" \
  timeout -k 10 $((${LOAD_WARMUP_MAX:-120} + DURATION + 150)) $CLIENT_NICE $PY benchmarks/load/phones.py >"$WORK/phones.log" 2>&1 &
PHONES_PID=$!

USERS=$((REFEREES + READERS + CONFIRMERS))
LOGIN_SPREAD=${LOAD_LOGIN_SPREAD:-30}
WARMUP_MAX=${LOAD_WARMUP_MAX:-120}
echo "locust: $REFEREES referees + $CONFIRMERS confirmers + $READERS readers; phones.py: $PHONES phones ($MODE); warm-up" \
  "until every referee is logged in and every phone has its page, then" \
  "${DURATION}s measured; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
set +e
LOAD_PLAN="$WORK/plan.json" LOAD_EVENTS="$WORK/events.jsonl" LOAD_REFEREES="$REFEREES" LOAD_READERS="$READERS" \
  LOAD_CONFIRMERS="$CONFIRMERS" LOAD_PHONES_READY="$WORK/phones.ready" LOAD_POLLS="$WORK/polls.json" \
  LOAD_LOGIN_SPREAD="$LOGIN_SPREAD" LOAD_WARMUP_MAX="$WARMUP_MAX" LOAD_MEASURE="$DURATION" \
  LOAD_WARMUP_STATS="$WORK/warmup_stats.csv" LOAD_MEASURE_MARK="$WORK/measure.mark" \
  timeout -k 10 $((WARMUP_MAX + DURATION + 90)) $CLIENT_NICE .venv/bin/locust -f benchmarks/load/locustfile.py --headless \
  -u "$USERS" -r "${LOAD_SPAWN_RATE:-50}" -t "$((WARMUP_MAX + DURATION + 30))s" --host "$BASE_URL" \
  --csv "$WORK/stats" --only-summary --stop-timeout 10 --loglevel WARNING >"$WORK/locust.log" 2>&1 &
LOCUST_PID=$!
while [ ! -f "$WORK/measure.mark" ] && kill -0 "$LOCUST_PID" 2>/dev/null; do sleep 0.2; done
CPU_MID=$(process_cpu "$GUNICORN_PID"); STAT_MID=$(machine_cpu); T_MID=$(date +%s.%N)
OTHER_MID=$(for pid in "$ASGI_PID" "$CADDY_PID"; do [ -n "$pid" ] && process_cpu "$pid" || echo 0; done | xargs)
wait "$LOCUST_PID"
LOCUST_RC=$?
wait "$PHONES_PID"
PHONES_RC=$?
set -e
CPU_AFTER=$(process_cpu "$GUNICORN_PID"); STAT_AFTER=$(machine_cpu); T_AFTER=$(date +%s.%N)
OTHER_AFTER=$(for pid in "$ASGI_PID" "$CADDY_PID"; do [ -n "$pid" ] && process_cpu "$pid" || echo 0; done | xargs)
[ "$PHONES_RC" = 0 ] || { echo "phones.py exited $PHONES_RC:"; tail -20 "$WORK/phones.log"; }
read -r WARMUP LOGGED_IN READY < "$WORK/measure.mark" || { WARMUP=0; LOGGED_IN=0; READY=0; }
echo "warm-up: ${WARMUP}s, $LOGGED_IN of $((REFEREES + CONFIRMERS)) referees and confirmers logged in," \
  "phones $([ "${READY:-0}" = 1 ] && echo "all ready" || echo "NOT all ready")"
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
if [ ! -f "$WORK/stats_stats.csv" ]; then
  tail -40 "$WORK/locust.log"; echo "locust did not run (exit $LOCUST_RC)"; exit 1
fi
if grep -q "Traceback" "$WORK/locust.log"; then
  echo "locust reported exceptions:"; grep -A12 "Traceback" "$WORK/locust.log" | head -40
fi
if grep -q -E "Traceback|Error" "$WORK/gunicorn.log"; then
  echo "gunicorn error log:"; grep -E -A5 "Traceback|Error" "$WORK/gunicorn.log" | head -40
fi
echo "command: LOAD_MODE=$MODE bash benchmarks/load/run_load.sh $DURATION  (gunicorn $WORKERS workers, $(nproc) CPUs," \
  "$TEAMS teams, $REFEREES referees, $CONFIRMERS confirmers, $READERS readers, $PHONES phones ($MODE)," \
  "caddy $([ "$LOAD_CADDY" = 1 ] && echo on || echo off), redis ${LOAD_REDIS:-off}, commit $(git rev-parse --short HEAD 2>/dev/null))"
set +e
$PY benchmarks/load/loadctl.py verify "$WORK/plan.json" "$WORK/events.jsonl" "$WORK/stats" \
  --warmup-stats "$WORK/warmup_stats.csv" --warmup "$WARMUP" --polls "$WORK/polls.json" --phones "$WORK/phones.json" \
  --other-cpu "$($PY -c "a = [$(echo "$OTHER_MID" | tr ' ' ',')] or [0, 0]; b = [$(echo "$OTHER_AFTER" | tr ' ' ',')] or [0, 0]; print(','.join(str(round(y - x, 2)) for x, y in zip(a, b)))")" \
  --server-cpu "$($PY -c "print(round($CPU_AFTER - $CPU_MID, 2))")" --duration "$DURATION" --wall "$($PY -c "print(round($T_AFTER - $T_MID, 1))")" \
  --machine-busy "$($PY -c "b0, t0 = $STAT_MID; b1, t1 = $STAT_AFTER; print(round(100 * (b1 - b0) / max(1, t1 - t0)))")"
VERIFY_RC=$?
set -e
# CPU per request with one client (independent of how busy the machine is); after the check,
# since it adds hands. LOAD_COST=0 skips it.
if [ "${LOAD_COST:-1}" != 0 ]; then
  ALLOWED_HOSTS=127.0.0.1,testserver timeout 120 $PY benchmarks/load/loadctl.py cost "$WORK/plan.json" \
    || echo "(CPU per request measurement failed)"
fi
exit "$VERIFY_RC"
