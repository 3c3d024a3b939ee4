"""A Celery worker killed with ``kill -9`` in the middle of a round pack (issue 12 item 4), on the
real services: PostgreSQL (the committed test database) and Redis. The test starts its own worker
on a Redis database of its own (``REDIS_URL``'s database + 1, or ``KILL_TEST_REDIS_DB``), so the
suite's worker never takes its task, with a visibility timeout of 3 seconds.

What a killed worker leaves behind: the job's state at ``running`` with the tables done so far,
and its message unacknowledged in Redis (``acks_late``). A second worker gets the message back
after the visibility timeout and builds the pack from the start: the job ends ``done`` with every
table, the PDF is there, and building again is a no-op. Had nobody taken it over, the progress
page would show it failed after ``TASK_STALE_SECONDS`` and offer "build again"
(``tests/ops/test_redis_down.py``)."""
from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
import redis
from django.conf import settings
from django.db import connection

from nskt.celery import app
from scoring import files, tasks
from scoring.models import TaskState
from tests.factories import MatchFactory, RoundFactory, TournamentFactory

pytestmark = [pytest.mark.services, pytest.mark.slow, pytest.mark.django_db(transaction=True)]

ROOT = Path(__file__).resolve().parent.parent.parent
TABLES = 300  # a few ms to 70 ms per score sheet: seconds of work to interrupt on a fast machine too


def own_redis_url() -> str:
    parts = urlsplit(settings.REDIS_URL)
    db = int(os.environ.get("KILL_TEST_REDIS_DB", (int((parts.path or "/0").lstrip("/") or 0) + 1) % 16))
    return urlunsplit((parts.scheme, parts.netloc, f"/{db}", "", ""))


def database_url() -> str:
    s = connection.settings_dict
    auth = s["USER"] + (f":{s['PASSWORD']}" if s.get("PASSWORD") else "")
    return f"postgres://{auth}@{s['HOST'] or '127.0.0.1'}:{s['PORT'] or 5432}/{s['NAME']}"


def start_worker(name: str, broker: str, log: Path) -> subprocess.Popen:
    env = dict(os.environ, DATABASE_URL=database_url(), REDIS_URL=broker, MEDIA_ROOT=str(settings.MEDIA_ROOT), DEBUG="1",
               CELERY_VISIBILITY_TIMEOUT="3", CELERY_RESTORE_INTERVAL="1", CELERY_RESTORE_THROTTLE="1")
    return subprocess.Popen(
        [sys.executable, "-m", "celery", "-A", "nskt", "worker", "--pool=solo", "--concurrency=1", "--loglevel=INFO",
         "--without-gossip", "--without-mingle", "--without-heartbeat", "-n", f"{name}-{os.getpid()}@%h"],
        cwd=ROOT, env=env, stdout=log.open("ab"), stderr=subprocess.STDOUT)


def stop(proc: subprocess.Popen | None) -> None:
    if proc is not None and proc.poll() is None:
        proc.kill()
        proc.wait(timeout=10)


def wait(predicate, timeout: float, what: str):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = predicate()
        if value:
            return value
        time.sleep(0.05)
    pytest.fail(f"timed out after {timeout} s waiting for {what}")


@pytest.fixture
def own_broker():
    url = own_redis_url()
    client = redis.Redis.from_url(url)
    client.delete("celery", "unacked", "unacked_index", "unacked_mutex")  # this test's own database
    old = app.conf.broker_url
    app.conf.broker_url = url
    app._pool = None
    app.amqp._producer_pool = None
    yield url
    app.conf.broker_url = old
    app._pool = None
    app.amqp._producer_pool = None
    client.delete("celery", "unacked", "unacked_index", "unacked_mutex")


def test_a_killed_worker_leaves_a_running_job_that_another_worker_completes(own_broker, tmp_path):
    t = TournamentFactory(slug="killed-worker")
    rnd = RoundFactory(tournament=t, number=1)
    for table in range(1, TABLES + 1):
        MatchFactory(round=rnd, table=table)
    first = second = None
    log = tmp_path / "workers.log"
    try:
        first = start_worker("doomed", own_broker, log)
        state = tasks.start_round_pack(rnd, base_url="http://testserver/")
        key = state.key
        # mid-task: some tables done, not all
        running = wait(lambda: TaskState.objects.filter(key=key, status="running", progress__gte=5).first(), 120,
                       "the first worker to start the pack")
        os.kill(first.pid, signal.SIGKILL)
        first.wait(timeout=10)
        left = TaskState.objects.get(key=key)
        print(f"\nkilled worker left: status={left.status} progress={left.progress}/{left.total}")
        # Progress is written at most once a second (the last step always): a fast worker may have
        # laid out every sheet and be joining the parts when it is killed; the job is still running.
        assert left.status == "running" and 0 < left.progress <= TABLES and left.total == TABLES
        assert running.progress <= TABLES
        assert redis.Redis.from_url(own_broker).hlen("unacked") == 1  # the message was never acknowledged
        # A new worker takes the message over after the visibility timeout and builds the pack.
        second = start_worker("rescuer", own_broker, log)
        done = wait(lambda: TaskState.objects.filter(key=key, status="done").first(), 180,
                    "the second worker to finish the re-delivered pack")
        assert (done.progress, done.total, done.error) == (TABLES, TABLES, "")
        assert files.read(done.result_path).startswith(b"%PDF")  # the storage the worker shares (MEDIA_ROOT here)
        # building again is a no-op: the pack of this round state is done
        assert tasks.start_round_pack(rnd).pk == done.pk and TaskState.objects.filter(key=key).count() == 1
    except BaseException:
        print(log.read_text(errors="replace")[-5000:] if log.exists() else "(no worker log)")
        raise
    finally:
        stop(first)
        stop(second)
