"""Bytes on the wire of one phone following the live standings during the busiest 10 minutes of a
round (issue 25 item 4). Run: ``.venv/bin/python benchmarks/bench_hall_bytes.py [--teams 300]
[--coalesce 10] [--poll 10]``

A deterministic simulation with Django's test client (no network, no clock: simulated seconds).
The tournament (:mod:`build_tournament`'s generator: ``--teams`` Tai Pan teams, ``--rounds``
Swiss rounds played hand by hand, created through the JSON import) has its last round in
progress with every match finished and none confirmed (a copy of it is used per run, under
``var/bench/``). Over 10 simulated minutes the results of 90 % of its tables are confirmed
(:func:`hallkit.confirmation_times`: one in each equal slice of the window, at a seeded moment),
through the result sheet (``scoring.results.sheet.confirm``) as a referee's confirmation does.
Two phones follow the standings through the same states:

- **baseline**, today's behaviour: the live region polled every ``--poll`` seconds as htmx does
  (``loadkit.LivePage``: the htmx headers, ``If-None-Match`` with the last ETag), the full
  standings region, uncompressed, 304 when nothing changed;
- **new**: refreshes only on a pushed event whose topics include ``standings`` (or
  ``tournament``; the topics the region declares), coalesced to at most one every
  ``--coalesce`` seconds (default: the region's ``data-live-delay``, else 8; :class:`hallkit.Coalescer`), the phone standings view (top of the table and the phone's own
  team's neighbourhood, when the project has one: :func:`phone_view_url`), its body gzip-compressed
  as the reverse proxy sends it (:data:`hallkit.GZIP_LEVEL`), plus the pushed events themselves
  (every event of the tournament, uncompressed, :func:`hallkit.sse_frame`, with the stream's
  retry line and a heartbeat comment every 20 s). The events are the
  ones the project publishes (``scoring.live.push.publish``, recorded); a project that publishes
  none gets one synthesized event per confirmation with the topics the issue names, and the
  output says so.

Bytes are counted as HTTP/1.1 puts them on the wire (request line and headers sent; status line,
headers and body received; no TCP/TLS framing): :func:`hallkit.request_wire_bytes`,
:func:`hallkit.response_wire_bytes`. The figure is KB (1,000 bytes) per minute, sent and received
together (target <= 50 KB).
"""
from __future__ import annotations

import argparse
import contextlib
import shutil
import sys
import time
from pathlib import Path

from _common import VAR, django_setup
from readme_tables import Table

sys.path.insert(0, str(Path(__file__).resolve().parent / "load"))
import hallkit  # noqa: E402
import loadkit  # noqa: E402

VERSION = 1
REFEREE = "bench-referee"
#: Seconds between two heartbeat comments of the event stream (``LIVE_HEARTBEAT_SECONDS``).
HEARTBEAT = 20
HOST = "http://testserver"


def open_tournament(teams: int, rounds: int, seed: int):
    """Set up Django on a fresh copy of the template database (built once, kept under
    ``var/bench/``: last round in progress, every match finished, none confirmed) and return the
    tournament; the copy is what the run confirms results in."""
    template = VAR / f"hall-{teams}t-{rounds}r-s{seed}-v{VERSION}.sqlite3"
    work = VAR / "hall-bytes-run.sqlite3"
    work.unlink(missing_ok=True)
    if template.exists():
        shutil.copyfile(template, work)
    django_setup(work)
    from scoring.models import Tournament

    if template.exists():
        return Tournament.objects.get(slug="hall-bytes")
    print(f"building the hall tournament ({teams} teams, round {rounds} being confirmed) in {template} ...", flush=True)
    start = time.perf_counter()
    from build_tournament import generate
    from django.contrib.auth import get_user_model
    from django.db import connections

    from scoring.io.tournament_json import import_tournament

    data = generate(teams, rounds, seed)
    data["slug"] = "hall-bytes"
    last = data["rounds"][-1]
    last["status"] = "in_progress"
    for m in last["matches"]:
        m["confirmed_by"] = None
    user, _ = get_user_model().objects.get_or_create(username=REFEREE)
    user.set_unusable_password()
    user.save()
    t = import_tournament(data)
    connections.close_all()
    shutil.copyfile(work, template)
    print(f"... built in {time.perf_counter() - start:.0f} s", flush=True)
    return t


@contextlib.contextmanager
def recorded_pushes():
    """Record every ``publish(tournament_id, topics, versions)`` of :mod:`scoring.live` (the
    modules that imported it too) in the yielded list as ``{"topics", "versions"}``."""
    from unittest import mock

    events: list[dict] = []
    try:
        from scoring.live import push
    except ImportError:
        yield events
        return
    original = push.publish

    def record(tournament_id, topics, versions=None):
        events.append({"topics": sorted(topics), "versions": dict(versions or {})})
        return original(tournament_id, topics, versions)

    targets = [m for name, m in list(sys.modules.items())
               if name.startswith("scoring.") and getattr(m, "publish", None) is original]
    with contextlib.ExitStack() as stack:
        for module in targets:
            stack.enter_context(mock.patch.object(module, "publish", record))
        yield events


def phone_view_url(slug: str, team_pk: int) -> str:
    """The URL of a phone's standings following team ``team_pk``: the phone view (the top of
    the table and the team's neighbourhood, ``?team=``) where the project has one; a project
    without it ignores the parameter and answers the full table."""
    return f"/t/{slug}/standings/?team={team_pk}"


class Phone:
    """One phone's live standings: its client, its cached answer (:class:`loadkit.LivePage`) and
    the bytes it sent and received; ``gzip``: bodies counted compressed."""

    def __init__(self, url: str, *, gzip: bool, headers: dict[str, str] | None = None) -> None:
        from django.test import Client

        self.client, self.page, self.gzip = Client(), loadkit.LivePage(url), gzip
        self.headers = headers or {}
        self.sent = self.received = 0
        self.answers = {"200": 0, "304": 0, "error": 0}
        self.body_sizes: list[int] = []

    def load(self) -> str:
        """The full page, before the busy minutes (not counted); returns it."""
        resp = self.client.get(self.page.url, headers=self.headers)
        self.page.answered(resp.status_code, resp.get("ETag"), resp.content.decode())
        return resp.content.decode()

    def refresh(self) -> None:
        """One conditional GET of the live region, counted."""
        headers = {**self.headers, **self.page.poll_headers(HOST)}
        if self.gzip:
            headers["Accept-Encoding"] = "gzip"
        resp = self.client.get(self.page.url, headers=headers)
        body = resp.content
        out_headers = [(k, v) for k, v in resp.items() if k.lower() != "content-length"]
        size = len(body)
        if self.gzip and body:
            size = hallkit.gzip_size(body)
            out_headers.append(("Content-Encoding", "gzip"))
        if body:
            out_headers.append(("Content-Length", str(size)))
            self.body_sizes.append(size)
        self.sent += hallkit.request_wire_bytes("GET", self.page.url, {"Host": "testserver", **headers})
        self.received += hallkit.response_wire_bytes(resp.status_code, out_headers, size)
        outcome = self.page.answered(resp.status_code, resp.get("ETag"), body.decode() or None)
        self.answers[outcome] += 1


def simulate(tournament, args) -> dict:
    """Run the 10 busy minutes; returns the figures of both phones."""
    from django.contrib.auth import get_user_model

    from scoring.models import Match
    from scoring.results import sheet

    referee = get_user_model().objects.get(username=REFEREE)
    rnd = tournament.rounds.order_by("-number").first()
    matches = list(Match.objects.filter(round=rnd, status=Match.Status.FINISHED).order_by("table"))
    times = hallkit.confirmation_times(len(matches), window=hallkit.BUSY_WINDOW, seed=args.seed)
    import random

    random.Random(args.seed).shuffle(matches)
    ranked = sorted(tournament.teams.all(), key=lambda t: t.pk)
    own_team = ranked[len(ranked) // 2]
    # Today's phone: the full table (?all=1 where the project has a phone view; ignored otherwise).
    base = Phone(f"/t/{tournament.slug}/standings/?all=1", gzip=False)
    # A phone's browser says it is one (Sec-CH-UA-Mobile, a client hint Chromium sends by default).
    new = Phone(phone_view_url(tournament.slug, own_team.pk), gzip=True, headers={"Sec-CH-UA-Mobile": "?1"})
    full = base.load()
    # The topics and delay the page's live region declares (data-live-topics, data-live-delay).
    own = new.load()
    new_what = ("the phone view (top and the team's neighbourhood)" if len(own) < len(full) / 2
                else "the full region (no phone view on this commit)")
    declared, delay = hallkit.live_region(own)
    topics = declared or hallkit.page_topics("standings")
    delay = args.coalesce if args.coalesce is not None else hallkit.DEFAULT_DELAYS["standings"] if delay is None else delay
    coalescer = hallkit.Coalescer(delay)
    polls = [args.poll * k for k in range(1, int(hallkit.BUSY_WINDOW // args.poll) + 1)]
    event_bytes, events_seen, synthesized = 0, 0, False
    timeline = sorted([(t, 0, i) for i, t in enumerate(times)] + [(t, 1, None) for t in polls])
    with recorded_pushes() as pushed:
        for t, what, i in timeline:
            while coalescer.due is not None and coalescer.due <= t:
                new.refresh()
                coalescer.fired(coalescer.due)
            if what == 1:
                base.refresh()
                continue
            m = matches[i]
            m.refresh_from_db()
            totals = [m.total_ns, m.total_ew] if tournament.blind_confirmation else None
            before = len(pushed)
            sheet.confirm(m, referee, expected_version=m.version, totals=totals)
            fresh = pushed[before:]
            if not fresh and not any(pushed):
                synthesized = True
                fresh = [{"topics": ["standings", f"round:{rnd.number}", f"result:{m.pk}"], "versions": {}}]
            for event in fresh:
                events_seen += 1
                event_bytes += len(hallkit.sse_frame(event))
                if hallkit.topics_match(topics, event["topics"]):
                    coalescer.event(t)
        if coalescer.due is not None and coalescer.due < hallkit.BUSY_WINDOW:
            new.refresh()
    # The event stream's request and answer head, once (the connection stays open), its retry
    # line and a heartbeat comment every HEARTBEAT seconds.
    stream = hallkit.request_wire_bytes("GET", f"/events/{tournament.slug}/", {"Host": "testserver", "Accept": "text/event-stream"})
    stream_in = hallkit.response_wire_bytes(200, [("Content-Type", "text/event-stream; charset=utf-8"),
                                                  ("Cache-Control", "no-cache, no-transform")], 0)
    event_bytes += len(b"retry: 5000\n\n") + int(hallkit.BUSY_WINDOW // HEARTBEAT) * len(b": beat\n\n")
    new.sent += stream
    new.received += stream_in + event_bytes
    return {"confirmed": len(times), "tables": len(matches), "base": base, "new": new, "new_what": new_what,
            "events": events_seen, "event_bytes": event_bytes, "synthesized": synthesized, "delay": delay}


def _mean_kb(sizes: list[int]) -> float:
    return sum(sizes) / len(sizes) / 1000 if sizes else 0.0


def kb_per_minute(phone: Phone) -> float:
    return (phone.sent + phone.received) / 1000 / (hallkit.BUSY_WINDOW / 60)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--poll", type=float, default=10.0, help="seconds between two polls today (htmx every 10s)")
    parser.add_argument("--coalesce", type=float, default=None,
                        help="at most one pushed refresh per this many seconds (default: the region's data-live-delay, else 8)")
    args = parser.parse_args()
    r = simulate(open_tournament(args.teams, args.rounds, args.seed), args)
    base, new = r["base"], r["new"]
    minutes = hallkit.BUSY_WINDOW / 60
    print(f"{args.teams} teams, {minutes:.0f} busy minutes: {r['confirmed']} of {r['tables']} results confirmed "
          f"(one every {hallkit.BUSY_WINDOW / max(1, r['confirmed']):.1f} s on average)")
    print(f"baseline (poll every {args.poll:g} s, full live region, uncompressed): {sum(base.answers.values())} polls, "
          f"{base.answers['200']} answered 200, {base.answers['304']} 304; {base.sent / 1000:.1f} KB sent, "
          f"{base.received / 1000:.1f} KB received: {kb_per_minute(base):,.1f} KB per minute")
    print(f"new (refresh on pushed events, at most every {r['delay']:g} s, {r['new_what']}, gzip level "
          f"{hallkit.GZIP_LEVEL}): {sum(new.answers.values())} refreshes, {new.answers['200']} answered 200, "
          f"{new.answers['304']} 304; {r['events']} events ({r['event_bytes'] / 1000:.1f} KB"
          f"{', synthesized: scoring.live publishes nothing on this commit' if r['synthesized'] else ''}); "
          f"{new.sent / 1000:.1f} KB sent, {new.received / 1000:.1f} KB received: {kb_per_minute(new):,.1f} KB per minute "
          f"(target <= 50 KB: {'met' if kb_per_minute(new) <= 50 else 'NOT met'})")
    table = Table("hall-bytes", ["figure", "new", "baseline (same run)", "ratio", "target"], "lrlrr")
    ratio = kb_per_minute(new) / kb_per_minute(base) if kb_per_minute(base) else float("inf")
    table.row(f"one phone following the standings, {args.teams} teams, busiest 10 minutes ({r['confirmed']} results "
              f"confirmed): KB on the wire per minute", f"{kb_per_minute(new):,.1f} KB",
              f"poll every {args.poll:g} s, full region, uncompressed: {kb_per_minute(base):,.1f} KB", f"{ratio:.3f}x", "<= 50 KB")
    table.row("answers per minute, 200 / 304", f"{new.answers['200'] / minutes:.1f} / {new.answers['304'] / minutes:.1f}",
              f"{base.answers['200'] / minutes:.1f} / {base.answers['304'] / minutes:.1f}", "", "")
    table.row("body of one changed answer", f"{_mean_kb(new.body_sizes):,.1f} KB ({r['new_what']}, gzip)",
              f"{_mean_kb(base.body_sizes):,.1f} KB", "", "")
    table.row("pushed events per minute (bytes counted uncompressed)",
              f"{r['events'] / minutes:.1f} ({r['event_bytes'] / 1000 / minutes:.1f} KB)"
              + (" synthesized" if r["synthesized"] else ""), "none", "", "")
    table.print()


if __name__ == "__main__":
    main()
