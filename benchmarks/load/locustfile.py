"""Locust scenario (issue 5 item 6): referees entering Tai Pan hands and readers of the public
pages, against gunicorn + PostgreSQL started by ``run_load.sh``.

Environment (set by ``run_load.sh``):

- ``LOAD_PLAN``: plan JSON written by ``loadctl.py setup`` (slug, match ids, referee logins).
- ``LOAD_EVENTS``: JSON-lines file this scenario appends to: ``{"kind": "sent", "id", "match",
  "number"}`` before every hand submission, then its outcome with the same ``id``:
  ``{"kind": "ack", "match", "number", "record"}`` for every hand the server acknowledged (302
  from ``match_enter`` back to the entry page at ``#record-N``, see ``scoring/web/views/results.py``;
  the hand's number is the one after the last hand on the page posted from: the ``version`` check
  guarantees nothing changed in between), ``"uncertain"`` for a submission without a definite answer
  (network error or 5xx), ``"stale"`` for a 409 (another referee of the same match saved first;
  only when matches are shared, ``LOAD_MATCHES`` < ``LOAD_REFEREES``), ``"refused"`` for anything
  else (the form shown again with its errors, 400).

- ``LOAD_WARMUP_STATS``, ``LOAD_MEASURE_MARK``, ``LOAD_MEASURE``: warm-up and measured part (see
  ``WARMUP_MAX`` below).
- ``LOAD_REFEREES``, ``LOAD_READERS``, ``LOAD_CONFIRMERS``, ``LOAD_REFEREE_WAIT``,
  ``LOAD_READER_WAIT``, ``LOAD_CONFIRM_SHARE``, ``LOAD_LOGIN_SPREAD``, ``LOAD_WARMUP_MAX``,
  ``LOAD_SETTLE``, ``LOAD_PREVIEW_SHARE``, ``LOAD_PHONES_READY``: see the constants below.
- ``LOAD_POLLS``: JSON file written at the end of the measured part (below).

Referees (``RefereeUser``, one per plan entry): log in once through ``/accounts/login/`` with the
CSRF token, then loop: load the entry page ``/t/<slug>/match/<pk>/enter/`` (the entry form and
the hands so far, rows ``id="record-N"``), sometimes post the htmx preview, post the next hand
(unprefixed Tai Pan fields) with the entry form's hidden ``version``. Readers (``ReaderUser``, anonymous, no cache), now and then (``LOAD_READER_WAIT``): a team
page (the most opened page after a result), a match page (any table of the round), the
standings, round 1's tables. Confirmers (``ConfirmerUser``, ``LOAD_CONFIRMERS``, issue 25 item
4): referees who entered nothing confirm the finished tables of the plan (``to_confirm``) on the
busy round's schedule (:func:`hallkit.confirmation_times`: 90 % of the round's tables within 10
minutes, ``LOAD_CONFIRM_SHARE``), from the start of the run; each confirmation changes the
standings. The phones keeping live pages open are not locust users: ``phones.py`` (asyncio, one
process) runs them, polling or following pushed events (``LOAD_MODE``); the warm-up waits for
its ``LOAD_PHONES_READY`` file.

At the end of the measured part ``LOAD_POLLS`` gets the latency histograms of every endpoint
(``{"histograms": {name: {ms: count}}, "total": {ms: count}}``, locust's buckets), so the
phones' latencies merge with them, the confirmations (``{"confirm": {"ok", "failed"}}``) and
locust's CPU.
"""
from __future__ import annotations

import csv
import itertools
import json
import os
import random
import resource
import sys
import time
from pathlib import Path

import gevent
from locust import between, events, task
from locust.contrib.fasthttp import FastHttpUser

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hallkit  # noqa: E402
import loadkit  # noqa: E402

PLAN: dict = {}
_EVENTS_FILE = None
_referee_index = itertools.count()

REFEREES = int(os.environ.get("LOAD_REFEREES", "50"))
READERS = int(os.environ.get("LOAD_READERS", "0"))
CONFIRMERS = int(os.environ.get("LOAD_CONFIRMERS", "0"))
CONFIRM_SHARE = float(os.environ.get("LOAD_CONFIRM_SHARE", str(hallkit.BUSY_SHARE)))
#: The phones' process writes this file once every phone has loaded its page (``phones.py``).
PHONES_READY_FILE = os.environ.get("LOAD_PHONES_READY", "")
PREVIEW_SHARE = float(os.environ.get("LOAD_PREVIEW_SHARE", "0.3"))


def _wait(name: str, default: str):
    """``between(min, max)`` from ``name`` (``"min,max"`` seconds)."""
    low, high = (float(v) for v in os.environ.get(name, default).split(","))
    return between(low, high)


#: Think time of a referee between two hands (a real hand takes minutes; this is much faster).
REFEREE_WAIT = _wait("LOAD_REFEREE_WAIT", "15,30")
#: Think time of a reader between two pages: 30 s on average, as the projector standings refresh.
READER_WAIT = _wait("LOAD_READER_WAIT", "15,45")
#: Referees log in at a random moment within this many seconds of their start (a password check
#: costs about half a CPU second: PBKDF2, Django's default), and every user waits a random part of
#: its think time before its first page, so the run does not start with a burst of identical clicks.
LOGIN_SPREAD = float(os.environ.get("LOAD_LOGIN_SPREAD", "30"))
#: Warm-up: at least ``LOGIN_SPREAD + 5`` s, then until every referee is logged in (at most
#: ``LOAD_WARMUP_MAX`` s from the start), then ``LOAD_SETTLE`` s for the queue to drain. Its figures
#: go to ``LOAD_WARMUP_STATS`` and the statistics are reset, so the latency table is the steady
#: state with every referee logged in. Then ``LOAD_MEASURE`` seconds are measured and the run
#: stops (``-t`` is only a safety limit); ``LOAD_MEASURE_MARK`` (a file) is created when the
#: measured part starts.
WARMUP_MAX = float(os.environ.get("LOAD_WARMUP_MAX", "120"))
SETTLE = float(os.environ.get("LOAD_SETTLE", "5"))
MEASURE = float(os.environ.get("LOAD_MEASURE", "0"))
LOGGED_IN: set[str] = set()
CONFIRMS = {"ok": 0, "failed": 0}
#: The confirmation schedule: ``(seconds from the start, {"match", "totals"})``, taken in order.
_schedule = None
_run_start = 0.0


def _load_plan() -> dict:
    global PLAN
    if not PLAN:
        path = os.environ.get("LOAD_PLAN")
        if path:
            PLAN = json.loads(Path(path).read_text(encoding="utf-8"))
    return PLAN


def record_event(event: dict) -> None:
    """Append one event line (flushed at once so a crash loses nothing acknowledged)."""
    global _EVENTS_FILE
    if _EVENTS_FILE is None:
        _EVENTS_FILE = open(os.environ.get("LOAD_EVENTS", "load-events.jsonl"), "a", encoding="utf-8")  # noqa: SIM115
    _EVENTS_FILE.write(json.dumps(event) + "\n")
    _EVENTS_FILE.flush()


def write_stats_csv(stats, path: str) -> None:
    """Write ``stats`` (locust ``RequestStats``) in the columns of locust's ``*_stats.csv`` that
    :func:`loadkit.read_stats_csv` reads."""
    rows = [*sorted(stats.entries.values(), key=lambda e: (e.name, e.method)), stats.total]
    with open(path, "w", encoding="utf-8", newline="") as fh:
        out = csv.writer(fh)
        out.writerow(["Type", "Name", "Request Count", "Failure Count", "Requests/s", "50%", "95%", "99%"])
        for e in rows:
            out.writerow([
                e.method or "", e.name, e.num_requests, e.num_failures, f"{e.total_rps:.2f}",
                e.get_response_time_percentile(0.5) or 0, e.get_response_time_percentile(0.95) or 0,
                e.get_response_time_percentile(0.99) or 0,
            ])


def _warmup_then_measure(environment) -> None:
    """Warm-up (see ``WARMUP_MAX``), keep its figures, reset the statistics, measure ``MEASURE``
    seconds, stop the run."""
    start = time.monotonic()
    gevent.sleep(LOGIN_SPREAD + 5)
    while (len(LOGGED_IN) < REFEREES + CONFIRMERS or not _phones_ready()) and time.monotonic() - start < WARMUP_MAX:
        gevent.sleep(0.5)
    gevent.sleep(SETTLE)
    path = os.environ.get("LOAD_WARMUP_STATS")
    if path:
        write_stats_csv(environment.stats, path)
    environment.stats.reset_all()
    CONFIRMS.update(ok=0, failed=0)
    global _CPU_AT_MEASURE
    _CPU_AT_MEASURE = _own_cpu()
    mark = os.environ.get("LOAD_MEASURE_MARK")
    if mark:
        Path(mark).write_text(f"{time.monotonic() - start:.1f} {len(LOGGED_IN)} {int(_phones_ready())}\n", encoding="utf-8")
    if MEASURE > 0:
        gevent.sleep(MEASURE)
        _write_polls(environment)
        environment.runner.quit()


def _phones_ready() -> bool:
    return not PHONES_READY_FILE or Path(PHONES_READY_FILE).exists()


_CPU_AT_MEASURE = 0.0


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _write_polls(environment) -> None:
    path = os.environ.get("LOAD_POLLS")
    if path:
        stats = environment.stats
        data = {
            "histograms": {e.name: dict(e.response_times) for e in stats.entries.values()},
            "total": dict(stats.total.response_times),
            "confirm": dict(CONFIRMS),
            "locust_cpu": round(_own_cpu() - _CPU_AT_MEASURE, 2),
        }
        Path(path).write_text(json.dumps(data), encoding="utf-8")


@events.test_start.add_listener
def _start_warmup_timer(environment, **_kwargs):
    global _run_start
    _run_start = time.monotonic()
    gevent.spawn(_warmup_then_measure, environment)


@events.test_stop.add_listener
def _close_events(environment, **_kwargs):
    global _EVENTS_FILE
    if MEASURE <= 0:
        _write_polls(environment)
    if _EVENTS_FILE is not None:
        _EVENTS_FILE.close()
        _EVENTS_FILE = None


class RefereeUser(FastHttpUser):
    """A referee on a phone entering the hands of one match."""

    fixed_count = REFEREES
    wait_time = REFEREE_WAIT
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self):
        plan = _load_plan()
        entry = plan["referees"][next(_referee_index) % len(plan["referees"])]
        self.slug = plan["slug"]
        self.match = entry["match"]
        self.enter_url = f"/t/{self.slug}/match/{self.match}/enter/"
        self.preview_url = f"/t/{self.slug}/match/{self.match}/preview/"
        self.logged_in = False
        self.username, self.password = entry["username"], entry["password"]
        self.sent = 0
        gevent.sleep(random.uniform(0, LOGIN_SPREAD))
        self.login(self.username, self.password)

    def login(self, username: str, password: str) -> bool:
        """Log in through the login form with its CSRF token; on failure (e.g. a timeout under
        overload) the next task tries again. Returns whether the user is logged in."""
        with self.client.get("/accounts/login/", name="/accounts/login/", catch_response=True) as page:
            token = loadkit.csrf_from_page(page.text or "") if page.status_code == 200 else None
            if not token:
                page.failure(f"no login form ({page.status_code})")
                return False
        with self.client.post(
            "/accounts/login/",
            data={"csrfmiddlewaretoken": token or "", "username": username, "password": password, "next": ""},
            name="/accounts/login/",
            allow_redirects=False,
            catch_response=True,
        ) as resp:
            if resp.status_code == 302 and "/accounts/login/" not in (resp.headers.get("Location") or ""):
                self.logged_in = True
                LOGGED_IN.add(username)
                resp.success()
            else:
                resp.failure(f"login refused ({resp.status_code})")
        return self.logged_in

    @task
    def enter_hand(self):
        if not self.logged_in:
            self.login(self.username, self.password)
            return
        with self.client.get(self.enter_url, name="match/<pk>/enter/ (entry page)", catch_response=True) as resp:
            page = loadkit.parse_match_page(resp.text or "")
            if resp.status_code != 200 or not page.can_add:
                resp.failure(f"no entry form (status {resp.status_code})")
                return
        number = page.next_number
        record = loadkit.hand_record(number - 1)
        data = loadkit.form_data(record, page.version, page.csrf_token, type_ew=random.random() < 0.5)
        if random.random() < PREVIEW_SHARE:
            with self.client.post(
                self.preview_url, data=data, headers={"HX-Request": "true", "X-CSRFToken": page.csrf_token},
                name="match/<pk>/preview/ (htmx)", catch_response=True,
            ) as resp:
                if resp.status_code != 200 or "errorlist" in (resp.text or ""):
                    resp.failure(f"preview refused ({resp.status_code})")
        # "sent" first: a submission still in flight when the run stops has no answer, so the
        # check counts it as uncertain (the server may have stored it) instead of unexplained.
        self.sent += 1
        sid = f"{self.username}#{self.sent}"
        record_event({"kind": "sent", "id": sid, "match": self.match, "number": number})
        with self.client.post(
            self.enter_url, data=data, name="match/<pk>/enter/ (save hand)", allow_redirects=False, catch_response=True
        ) as resp:
            status = resp.status_code
            location = (resp.headers.get("Location") or "") if resp.headers else ""
            event = {"id": sid, "match": self.match, "number": number, "status": status}
            kind = loadkit.submission_kind(status, location, self.enter_url)
            if kind == "ack":
                record_event({**event, "kind": "ack", "record": record, "version": page.version})
                resp.success()
            elif kind == "stale":
                # Another referee of the same match saved first (only when LOAD_MATCHES <
                # LOAD_REFEREES): the "this match changed, reload" answer, nothing stored.
                record_event({**event, "kind": "stale"})
                resp.success()
            elif kind == "uncertain":
                record_event({**event, "kind": "uncertain"})
                resp.failure(f"no definite answer ({status})")
            else:
                record_event({**event, "kind": "refused"})
                resp.failure(f"hand refused ({status})")


class ReaderUser(FastHttpUser):
    """An anonymous reader opening pages now and then, without a cache: a team page, a match
    page of any table, the standings, round 1's tables."""

    fixed_count = READERS
    wait_time = READER_WAIT
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self):
        plan = _load_plan()
        self.slug = plan["slug"]
        self.round = plan.get("round", 1)
        self.matches = plan.get("all_matches") or plan["matches"]
        self.teams = plan.get("teams") or []
        gevent.sleep(random.uniform(0, self.wait_time()))

    @task(3)
    def team_page(self):
        if self.teams:
            self.client.get(f"/t/{self.slug}/team/{random.choice(self.teams)}/", name="team/<pk>/")

    @task(2)
    def match_page(self):
        self.client.get(f"/t/{self.slug}/match/{random.choice(self.matches)}/", name="match/<pk>/")

    @task(1)
    def standings(self):
        self.client.get(f"/t/{self.slug}/standings/", name="standings/")

    @task(1)
    def pairings(self):
        self.client.get(f"/t/{self.slug}/round/{self.round}/", name="round/<n>/ (pairings)")


def _next_confirmation():
    """The next ``(due, item)`` of the confirmation schedule, or ``None`` when it is done."""
    global _schedule
    if _schedule is None:
        plan = _load_plan()
        times = hallkit.confirmation_times(len(plan.get("all_matches") or plan["matches"]), share=CONFIRM_SHARE)
        _schedule = iter(list(zip(times, plan.get("to_confirm") or [], strict=False)))
    return next(_schedule, None)


class ConfirmerUser(FastHttpUser):
    """A referee confirming finished tables on the busy round's schedule: logs in, then for each
    scheduled table loads its confirmation page and confirms it with the totals typed from the
    score sheet."""

    fixed_count = CONFIRMERS
    network_timeout = 30.0
    connection_timeout = 10.0

    def wait_time(self) -> float:
        return 0.0

    def on_start(self):
        plan = _load_plan()
        self.slug = plan["slug"]
        entry = plan["confirmers"][next(_confirmer_index) % len(plan["confirmers"])]
        self.username, self.password, self.logged_in = entry["username"], entry["password"], False
        while not self.logged_in:
            gevent.sleep(random.uniform(0, LOGIN_SPREAD))
            self.logged_in = RefereeUser.login(self, self.username, self.password)

    @task
    def confirm_next(self):
        slot = _next_confirmation()
        if slot is None:
            gevent.sleep(3600)  # schedule done: idle until the run stops
            return
        due, item = slot
        gevent.sleep(max(0.0, _run_start + due - time.monotonic()))
        url = f"/t/{self.slug}/match/{item['match']}/confirm/"
        with self.client.get(url, name="match/<pk>/confirm/ (page)", catch_response=True) as page:
            csrf, version = hallkit.parse_confirm_page(page.text or "")
            if page.status_code != 200 or csrf is None or version is None:
                page.failure(f"no confirm form ({page.status_code})")
                CONFIRMS["failed"] += 1
                return
        data = {"csrfmiddlewaretoken": csrf, "version": str(version),
                "total_0": str(item["totals"][0]), "total_1": str(item["totals"][1])}
        with self.client.post(url, data=data, name="match/<pk>/confirm/ (confirm)", allow_redirects=False,
                              catch_response=True) as resp:
            if resp.status_code == 302:
                CONFIRMS["ok"] += 1
                resp.success()
            else:
                CONFIRMS["failed"] += 1
                resp.failure(f"confirmation refused ({resp.status_code})")


_confirmer_index = itertools.count()
