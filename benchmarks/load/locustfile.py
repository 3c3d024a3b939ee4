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
- ``LOAD_REFEREES``, ``LOAD_READERS``, ``LOAD_PHONES``, ``LOAD_REFEREE_WAIT``, ``LOAD_READER_WAIT``,
  ``LOAD_PHONE_WAIT``, ``LOAD_PHONE_PAGES``, ``LOAD_LOGIN_SPREAD``, ``LOAD_WARMUP_MAX``,
  ``LOAD_SETTLE``, ``LOAD_PREVIEW_SHARE``: see the constants below.
- ``LOAD_POLLS``: JSON file written at the end of the measured part: how the polls were answered
  (``{"polls": {page: {"304": n, "200": n, "error": n}}``, :class:`loadkit.PollCounter`) and the
  CPU seconds this locust process used meanwhile (``"locust_cpu"``, user + system).

Referees (``RefereeUser``, one per plan entry): log in once through ``/accounts/login/`` with the
CSRF token, then loop: load the entry page ``/t/<slug>/match/<pk>/enter/`` (the entry form and
the hands so far, rows ``id="record-N"``), sometimes post the htmx preview, post the next hand
(unprefixed Tai Pan fields) with the entry form's hidden ``version``. Readers (``ReaderUser``,
anonymous, no cache): standings, round 1 pairings, a match page. Phones (``PhoneUser``, the hall
on a live day): each keeps one live page open (the standings, round 1's tables or one match,
:data:`loadkit.PHONE_PAGES`): loads it once, then polls it as its htmx does (the same URL with
the htmx headers, every ``LOAD_PHONE_WAIT`` seconds) with ``If-None-Match`` and the ETag of the
last full answer, as the browser's cache revalidates it (:class:`loadkit.LivePage`); a 304 leaves
the page as it is.
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
import loadkit  # noqa: E402

PLAN: dict = {}
_EVENTS_FILE = None
_referee_index = itertools.count()

REFEREES = int(os.environ.get("LOAD_REFEREES", "50"))
READERS = int(os.environ.get("LOAD_READERS", "0"))
PHONES = int(os.environ.get("LOAD_PHONES", "1000"))
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
#: Seconds between two polls of a phone (htmx ``every 10s``: the match page polls every 10 s; the
#: standings and round pages every ``LIVE_POLL_SECONDS``, 15 s by default). A poll every
#: ``PHONE_WAIT`` seconds from the moment the page loaded, whatever the answer time, as htmx's
#: timer does (:class:`loadkit.PollTimer`, not locust's ``constant_pacing``). Each phone
#: first waits a random part of it, so the polls do not come in step.
PHONE_WAIT = float(os.environ.get("LOAD_PHONE_WAIT", "10"))
#: Which pages the phones keep open, with weights (``loadkit.parse_page_weights``).
PHONE_PAGES = loadkit.parse_page_weights(os.environ.get("LOAD_PHONE_PAGES", "standings:1,round:1,match:1"))
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
#: Phones that have loaded their page and polled it once (so the measured part sees the steady
#: state: the first poll after a full load is a 200, its htmx headers give another ETag).
PHONES_READY: set[int] = set()
POLLS = loadkit.PollCounter()
_phone_index = itertools.count()


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
    while (len(LOGGED_IN) < REFEREES or len(PHONES_READY) < PHONES) and time.monotonic() - start < WARMUP_MAX:
        gevent.sleep(0.5)
    gevent.sleep(SETTLE)
    path = os.environ.get("LOAD_WARMUP_STATS")
    if path:
        write_stats_csv(environment.stats, path)
    environment.stats.reset_all()
    POLLS.reset()
    global _CPU_AT_MEASURE
    _CPU_AT_MEASURE = _own_cpu()
    mark = os.environ.get("LOAD_MEASURE_MARK")
    if mark:
        Path(mark).write_text(f"{time.monotonic() - start:.1f} {len(LOGGED_IN)} {len(PHONES_READY)}\n", encoding="utf-8")
    if MEASURE > 0:
        gevent.sleep(MEASURE)
        _write_polls()
        environment.runner.quit()


_CPU_AT_MEASURE = 0.0


def _own_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _write_polls() -> None:
    path = os.environ.get("LOAD_POLLS")
    if path:
        data = {"polls": POLLS.as_dict(), "locust_cpu": round(_own_cpu() - _CPU_AT_MEASURE, 2)}
        Path(path).write_text(json.dumps(data), encoding="utf-8")


@events.test_start.add_listener
def _start_warmup_timer(environment, **_kwargs):
    gevent.spawn(_warmup_then_measure, environment)


@events.test_stop.add_listener
def _close_events(**_kwargs):
    global _EVENTS_FILE
    if MEASURE <= 0:
        _write_polls()
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

    def login(self, username: str, password: str) -> None:
        """Log in through the login form with its CSRF token; on failure (e.g. a timeout under
        overload) the next task tries again."""
        with self.client.get("/accounts/login/", name="/accounts/login/", catch_response=True) as page:
            token = loadkit.csrf_from_page(page.text or "") if page.status_code == 200 else None
            if not token:
                page.failure(f"no login form ({page.status_code})")
                return
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
    """An anonymous reader (phone or projector) of the standings, the pairings and match pages."""

    fixed_count = READERS
    wait_time = READER_WAIT
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self):
        plan = _load_plan()
        self.slug = plan["slug"]
        self.round = plan.get("round", 1)
        self.matches = plan["matches"]
        gevent.sleep(random.uniform(0, self.wait_time()))

    @task(2)
    def standings(self):
        self.client.get(f"/t/{self.slug}/standings/", name="standings/")

    @task(2)
    def pairings(self):
        self.client.get(f"/t/{self.slug}/round/{self.round}/", name="round/<n>/ (pairings)")

    @task(1)
    def match_page(self):
        self.client.get(f"/t/{self.slug}/match/{random.choice(self.matches)}/", name="match/<pk>/")


def _etag(resp) -> str | None:
    return resp.headers.get("ETag") if resp.headers else None


class PhoneUser(FastHttpUser):
    """A phone in the hall keeping one live page open (:data:`loadkit.PHONE_PAGES`): one full
    load, then an htmx poll every ``PHONE_WAIT`` seconds, revalidating the page it has."""

    fixed_count = PHONES
    network_timeout = 30.0
    connection_timeout = 10.0

    def on_start(self):
        plan = _load_plan()
        self.index = next(_phone_index)
        kinds = list(PHONE_PAGES)
        self.kind = random.choices(kinds, weights=[PHONE_PAGES[k] for k in kinds])[0]
        url = loadkit.page_url(self.kind, plan["slug"], plan.get("round", 1), random.choice(plan["matches"]))
        self.page = loadkit.LivePage(url)
        self.loaded = False
        self.timer = loadkit.PollTimer(PHONE_WAIT)
        gevent.sleep(random.uniform(0, PHONE_WAIT))
        self.load()
        self.timer.start(time.monotonic())
        # htmx's first poll comes one interval after the page load (locust would run the first
        # task at once).
        gevent.sleep(self.timer.wait(time.monotonic()))

    def wait_time(self) -> float:
        return self.timer.wait(time.monotonic())

    def load(self) -> None:
        """The full page, as the browser first loads it (no htmx headers, nothing cached)."""
        with self.client.get(self.page.url, name=loadkit.PAGE_NAMES[self.kind], catch_response=True) as resp:
            ok = resp.status_code == 200
            if self.page.answered(resp.status_code, _etag(resp), resp.text if ok else None) == "200":
                self.loaded = True
            else:
                resp.failure(f"page not shown ({resp.status_code})")

    @task
    def poll(self):
        if not self.loaded:
            self.load()
            return
        with self.client.get(self.page.url, name=loadkit.POLL_NAMES[self.kind], headers=self.page.poll_headers(self.host),
                             catch_response=True) as resp:
            # A 304 has no body; reading .text of a 200 is what htmx does with the answer.
            outcome = self.page.answered(resp.status_code, _etag(resp),
                                         resp.text if resp.status_code == 200 else None)
            POLLS.add(self.kind, outcome)
            if outcome == "error":
                resp.failure(f"poll failed ({resp.status_code})")
            else:
                resp.success()
        PHONES_READY.add(self.index)
