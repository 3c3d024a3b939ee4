#!/usr/bin/env bash
# Load scenario (issue 5 item 6, issue 13 item 7 "the hall on a live day"): gunicorn + PostgreSQL
# under 1,000 phones keeping the self-updating public pages open (standings, round 1's tables or a
# match page; each polls its page every 10 s as its htmx does, revalidating it with If-None-Match)
# and 50 referees entering Tai Pan hands, about 110 requests/s, for a fixed time.
#
#   bash benchmarks/load/run_load.sh [SECONDS]        (measured seconds, default 60)
#
# The locust run is a warm-up (the referees log in at random moments within LOAD_LOGIN_SPREAD = 30
# seconds while the phones arrive, each loading its page at a random moment within its first
# poll interval; it lasts until every referee is logged in and every phone has polled once, plus
# 5 s, at most LOAD_WARMUP_MAX = 120 s; its figures are printed apart) followed by SECONDS
# measured. The whole run takes about SECONDS + 80 s on an idle machine.
#
# Steps: create a fresh PostgreSQL database (127.0.0.1:5432, user postgres; dropped at the end),
# migrate, collectstatic, build the tournament (loadctl.py setup), start gunicorn on loopback with
# production settings (DEBUG=0, random SECRET_KEY, SECURE_SSL_REDIRECT=0 and SECURE_COOKIES=0
# because the loopback run is plain http), run locust headless, then check in the database that
# every hand acknowledged to a referee is stored exactly once (loadctl.py verify) and print the
# p50/p95/p99 latency per endpoint, the share of polls answered 304 (nothing changed, nothing
# rendered), gunicorn's and locust's CPU and the whole machine's CPU busy figure, then the CPU per
# request of each endpoint with one client (loadctl.py cost). Exits 1 if a hand was lost or
# duplicated.
#
# Variables: LOAD_PORT (8765), LOAD_WORKERS (gunicorn workers, 4), LOAD_REFEREES (50),
# LOAD_PHONES (phones polling a live page, 1000), LOAD_PHONE_WAIT (seconds between two polls of a
# phone, 10), LOAD_PHONE_PAGES (which pages the phones keep open, with weights,
# "standings:1,round:1,match:1"), LOAD_READERS (anonymous readers loading whole pages without a
# cache, 0), LOAD_MATCHES (50; fewer than LOAD_REFEREES makes referees share matches and meet 409
# "this match changed" answers), LOAD_REFEREE_WAIT ("15,30" seconds between two hands),
# LOAD_READER_WAIT ("15,45" seconds between two pages of a reader), LOAD_SPAWN_RATE (users started
# per second, 50), LOAD_LOGIN_SPREAD (30), LOAD_WARMUP_MAX (120), LOAD_COST (0 skips the CPU per
# request figures), LOAD_OUT (directory to keep the locust CSV files and logs in),
# LOAD_REDIS (a Redis database as production has it (REDIS_URL), e.g.
# redis://127.0.0.1:6379/15: the gunicorn workers then share the standings and the rendered live
# regions; the database is emptied before and after the run, so give one nothing else uses; unset:
# each worker keeps its own in-process cache, the embedded default), PGHOST/PGPORT/PGUSER.
set -euo pipefail
cd "$(dirname "$0")/../.."
PY=.venv/bin/python
DURATION=${1:-60}
PORT=${LOAD_PORT:-8765}
WORKERS=${LOAD_WORKERS:-4}
REFEREES=${LOAD_REFEREES:-50}
READERS=${LOAD_READERS:-0}
PHONES=${LOAD_PHONES:-1000}
MATCHES=${LOAD_MATCHES:-50}
PGHOST=${PGHOST:-127.0.0.1}; PGPORT=${PGPORT:-5432}; PGUSER=${PGUSER:-postgres}
DB="nskt_load_$$"
WORK=$(mktemp -d -t nskt-load.XXXXXX)
GUNICORN_PID=""
export PGHOST PGPORT PGUSER

cleanup() {
  set +e
  if [ -n "${LOCUST_PID:-}" ] && kill -0 "$LOCUST_PID" 2>/dev/null; then
    kill -TERM "$LOCUST_PID" 2>/dev/null; sleep 2; kill -KILL "$LOCUST_PID" 2>/dev/null
  fi
  if [ -n "$GUNICORN_PID" ] && kill -0 "$GUNICORN_PID" 2>/dev/null; then
    kill -TERM "$GUNICORN_PID" 2>/dev/null
    for _ in $(seq 1 20); do kill -0 "$GUNICORN_PID" 2>/dev/null || break; sleep 0.5; done
    kill -KILL "$GUNICORN_PID" 2>/dev/null
  fi
  timeout 30 $PY -c "import psycopg; c = psycopg.connect(host='$PGHOST', port='$PGPORT', user='$PGUSER', \
dbname='postgres', autocommit=True, connect_timeout=5); c.execute('DROP DATABASE IF EXISTS \"$DB\" WITH (FORCE)')" \
    && echo "database $DB dropped" || echo "could not drop database $DB"
  if [ -n "${LOAD_OUT:-}" ]; then mkdir -p "$LOAD_OUT" && cp "$WORK"/stats_*.csv "$WORK"/*.log "$WORK"/events.jsonl "$WORK"/polls.json "$LOAD_OUT"/ 2>/dev/null; fi
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
$PY - "$PORT" <<'PYEOF'
import socket, sys
s = socket.socket()
if s.connect_ex(("127.0.0.1", int(sys.argv[1]))) == 0:
    sys.exit(f"port {sys.argv[1]} is already in use; set LOAD_PORT")
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
$PY benchmarks/load/loadctl.py setup "$WORK/plan.json" --matches "$MATCHES" --referees "$REFEREES"

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

USERS=$((REFEREES + READERS + PHONES))
LOGIN_SPREAD=${LOAD_LOGIN_SPREAD:-30}
WARMUP_MAX=${LOAD_WARMUP_MAX:-120}
echo "locust: $REFEREES referees + $PHONES phones polling every ${LOAD_PHONE_WAIT:-10}s + $READERS readers; warm-up" \
  "until every referee is logged in and every phone has polled once, then" \
  "${DURATION}s measured; load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
set +e
LOAD_PLAN="$WORK/plan.json" LOAD_EVENTS="$WORK/events.jsonl" LOAD_REFEREES="$REFEREES" LOAD_READERS="$READERS" \
  LOAD_PHONES="$PHONES" LOAD_POLLS="$WORK/polls.json" \
  LOAD_LOGIN_SPREAD="$LOGIN_SPREAD" LOAD_WARMUP_MAX="$WARMUP_MAX" LOAD_MEASURE="$DURATION" \
  LOAD_WARMUP_STATS="$WORK/warmup_stats.csv" LOAD_MEASURE_MARK="$WORK/measure.mark" \
  timeout -k 10 $((WARMUP_MAX + DURATION + 90)) .venv/bin/locust -f benchmarks/load/locustfile.py --headless \
  -u "$USERS" -r "${LOAD_SPAWN_RATE:-50}" -t "$((WARMUP_MAX + DURATION + 30))s" --host "http://127.0.0.1:$PORT" \
  --csv "$WORK/stats" --only-summary --stop-timeout 10 --loglevel WARNING >"$WORK/locust.log" 2>&1 &
LOCUST_PID=$!
while [ ! -f "$WORK/measure.mark" ] && kill -0 "$LOCUST_PID" 2>/dev/null; do sleep 0.2; done
CPU_MID=$(process_cpu "$GUNICORN_PID"); STAT_MID=$(machine_cpu); T_MID=$(date +%s.%N)
wait "$LOCUST_PID"
LOCUST_RC=$?
set -e
CPU_AFTER=$(process_cpu "$GUNICORN_PID"); STAT_AFTER=$(machine_cpu); T_AFTER=$(date +%s.%N)
read -r WARMUP LOGGED_IN READY < "$WORK/measure.mark" || { WARMUP=0; LOGGED_IN=0; READY=0; }
echo "warm-up: ${WARMUP}s, $LOGGED_IN of $REFEREES referees logged in, ${READY:-0} of $PHONES phones polling"
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
echo "command: bash benchmarks/load/run_load.sh $DURATION  (gunicorn $WORKERS workers, $(nproc) CPUs," \
  "$REFEREES referees, $PHONES phones every ${LOAD_PHONE_WAIT:-10}s, $READERS readers)"
set +e
$PY benchmarks/load/loadctl.py verify "$WORK/plan.json" "$WORK/events.jsonl" "$WORK/stats" \
  --warmup-stats "$WORK/warmup_stats.csv" --warmup "$WARMUP" --polls "$WORK/polls.json" \
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
