"""Set-up and verification of the load scenario (issue 5 item 6), run by ``run_load.sh``.

    python benchmarks/load/loadctl.py setup PLAN.json [--matches 50] [--referees 50]
    python benchmarks/load/loadctl.py verify PLAN.json EVENTS.jsonl STATS_PREFIX
    python benchmarks/load/loadctl.py cost PLAN.json

``setup`` builds, with the ORM in the database of ``DATABASE_URL``, a running Tai Pan tournament
(NSKT rules) with ``2 * matches`` teams, round 1 published with ``matches`` matches and
``referees`` users with the per-tournament role referee (``scoring.models.Membership``), and
writes the plan (slug, match ids, credentials) the locustfile reads.

``verify`` reads the hands the referees were acknowledged (``EVENTS.jsonl``, written by the
locustfile), compares them with the ``Hand`` rows (:func:`loadkit.verify_hands`), prints
``lost hands: N, duplicated hands: N`` and the per-endpoint latency table from locust's
``STATS_PREFIX_stats.csv``, and exits 1 when a hand is lost or duplicated (or nothing was
acknowledged at all).

``cost`` measures the CPU time per request of each endpoint with one in-process client (a figure
that does not depend on how busy the machine is) after the run.
"""
from __future__ import annotations

import argparse
import json
import os
import secrets
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
for p in (str(ROOT), str(HERE)):
    if p not in sys.path:
        sys.path.insert(0, p)

import hallkit  # noqa: E402
import loadkit  # noqa: E402

SLUG = "load-taipan"


def _django() -> None:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nskt.settings")
    import django

    django.setup()


def build_tournament(*, matches: int = 50, referees: int = 50, slug: str = SLUG, password: str | None = None,
                     teams: int | None = None, confirmers: int = 0) -> dict:
    """Create the load tournament (Django must be set up) and return the plan.

    ``teams`` (default ``2 * matches``) teams play round 1 at ``teams // 2`` tables. The first
    ``matches`` tables are the referees' (referee ``i`` enters the hands of table ``i %
    matches``; their hands cancel out, so they never finish). Every other table is finished at
    set-up (two hands entered by a scorer account, then ended at the time limit), waiting for a
    confirmation: the run's ``confirmers`` (referee accounts that entered nothing) confirm them,
    which changes the standings (issue 25 item 4).

    The plan: ``{"slug", "round": 1, "matches": [referees' match pk, ...], "all_matches": [every
    match pk], "teams": [team pk, ...], "referees": [{"username", "password", "match"}],
    "confirmers": [{"username", "password"}], "to_confirm": [{"match", "totals": [ns, ew]}]}``.
    One password hash is computed and shared by every account (hashing 50 times would take most
    of a minute)."""
    from django.contrib.auth import get_user_model
    from django.contrib.auth.hashers import make_password
    from django.db import transaction

    from scoring.models import Match, Membership, Player, Round, Team, Tournament
    from scoring.participants import persons

    teams = 2 * matches if teams is None else teams
    if teams < 2 * matches:
        raise ValueError(f"{teams} teams cannot fill the referees' {matches} tables")
    password = password or secrets.token_urlsafe(12)
    hashed = make_password(password)
    User = get_user_model()
    with transaction.atomic():
        t = Tournament.objects.create(
            name="Load test Tai Pan", slug=slug, game="taipan", rules={}, status=Tournament.Status.RUNNING
        )
        players = Player.objects.bulk_create(persons.attach(
            [Player(tournament=t, name=f"Player {i:03d}", affiliation=f"Club {i % 10}") for i in range(2 * teams)])
        )
        team_rows = Team.objects.bulk_create(
            [Team(tournament=t, name=f"Team {i:03d}", affiliation=f"Club {i % 10}", first_player=players[2 * i],
                  second_player=players[2 * i + 1], seed=i + 1) for i in range(teams)]
        )
        rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
        ms = Match.objects.bulk_create(
            [Match(round=rnd, table=i + 1, team_ns=team_rows[2 * i], team_ew=team_rows[2 * i + 1], pairing_note="")
             for i in range(teams // 2)]
        )
        names = [f"{slug}-ref{i:03d}" for i in range(referees)] + [f"{slug}-conf{i:02d}" for i in range(confirmers)]
        if len(ms) > matches:  # the scorer who entered the finished tables (confirms none)
            names.append(f"{slug}-scorer")
        users = User.objects.bulk_create([User(username=n, password=hashed, is_active=True) for n in names])
        Membership.objects.bulk_create(
            [Membership(tournament=t, user=u, role=Membership.Role.REFEREE) for u in users]
        )
    to_confirm = _finish(ms[matches:], users[-1]) if len(ms) > matches else []
    match_ids = [m.pk for m in ms[:matches]]
    return {
        "slug": slug,
        "round": 1,
        "matches": match_ids,
        "all_matches": [m.pk for m in ms],
        "teams": [tm.pk for tm in team_rows],
        "referees": [
            {"username": u.username, "password": password, "match": match_ids[i % len(match_ids)]}
            for i, u in enumerate(users[:referees])
        ],
        "confirmers": [{"username": u.username, "password": password} for u in users[referees:referees + confirmers]],
        "to_confirm": to_confirm,
    }


def _finish(matches: list, scorer) -> list[dict]:
    """Enter two hands in each of ``matches`` as ``scorer`` and end it at the time limit (the
    result sheet's own services); ``[{"match", "totals": [ns, ew]}]`` in table order."""
    from scoring.results import sheet

    out = []
    for k, m in enumerate(matches):
        for index in (2 * (k % 21), 2 * ((7 * k + 3) % 21) + 1):
            sheet.add_record(m, loadkit.hand_record(index), scorer)
        sheet.end_at_time(m, scorer, reason="time")
        m.refresh_from_db()
        out.append({"match": m.pk, "totals": [m.total_ns, m.total_ew]})
    return out


def read_events(path: str | Path) -> tuple[list[dict], list[dict], list[dict]]:
    """(acks, uncertain, others) from the locustfile's JSON-lines event file.

    ``uncertain``: submissions answered by a network error or 5xx, plus every ``sent`` submission
    without any answer (still in flight when the run stopped): the server may have stored them.
    ``others``: ``stale`` (409) and ``refused`` submissions, which stored nothing."""
    acks, uncertain, others = [], [], []
    sent: dict[str, dict] = {}
    answered: set[str] = set()
    p = Path(path)
    if not p.exists():
        return acks, uncertain, others
    for line in p.read_text(encoding="utf-8").splitlines():
        if not line.strip():
            continue
        event = json.loads(line)
        kind = event.get("kind")
        if kind == "sent":
            sent[event["id"]] = event
            continue
        if "id" in event:
            answered.add(event["id"])
        {"ack": acks, "uncertain": uncertain}.get(kind, others).append(event)
    uncertain.extend({**e, "kind": "unanswered"} for sid, e in sent.items() if sid not in answered)
    return acks, uncertain, others


def stored_hands(slug: str = SLUG) -> dict[int, list[tuple[int, dict]]]:
    """Match pk -> ``[(number, record)]`` of every hand of the load tournament (Django set up)."""
    from scoring.models import Hand

    out: dict[int, list[tuple[int, dict]]] = {}
    for match_id, number, record in (
        Hand.objects.filter(match__round__tournament__slug=slug).order_by("match_id", "number").values_list("match_id", "number", "record")
    ):
        out.setdefault(match_id, []).append((number, record))
    return out


def cmd_setup(args) -> int:
    _django()
    plan = build_tournament(matches=args.matches, referees=args.referees, teams=args.teams, confirmers=args.confirmers)
    Path(args.plan).write_text(json.dumps(plan), encoding="utf-8")
    print(f"tournament {plan['slug']}: {len(plan['teams'])} teams at {len(plan['all_matches'])} tables: "
          f"{len(plan['referees'])} referees entering hands at {len(plan['matches'])}, "
          f"{len(plan['to_confirm'])} finished waiting for {len(plan['confirmers'])} confirmers")
    return 0


def _print_cpu(args, total, polls: dict, phones: dict) -> None:
    """The CPU lines of the measured part: gunicorn, the event server and Caddy, locust, the
    phones' process and the whole machine."""
    if args.server_cpu is not None and total.requests:
        print(f"gunicorn CPU during the run: {args.server_cpu:.1f} s"
              + (f" ({100 * args.server_cpu / args.duration:.0f}% of one core over the {args.duration:.0f} s"
                 f" measured{f', {args.wall - args.duration:.0f} s of stopping included' if args.wall else ''})"
                 if args.duration else "")
              + f", {1000 * args.server_cpu / total.requests:.1f} ms per request on average")
    others = [float(x) for x in (args.other_cpu or "").split(",") if x.strip()]
    for label, seconds in zip(("event server (uvicorn)", "caddy"), others, strict=False):
        if seconds and args.duration:
            print(f"{label} CPU during the run: {seconds:.1f} s ({100 * seconds / args.duration:.0f}% of one core)")
    if "locust_cpu" in polls and args.duration:
        print(f"locust CPU during the measured part: {polls['locust_cpu']:.1f} s"
              f" ({100 * polls['locust_cpu'] / args.duration:.0f}% of one core)")
    if "cpu" in phones and args.duration:
        print(f"phones' process CPU during the measured part: {phones['cpu']:.1f} s"
              f" ({100 * phones['cpu'] / args.duration:.0f}% of one core)")
    if args.machine_busy is not None:
        print(f"whole machine CPU busy during the measured part: {args.machine_busy:.0f}% of {os.cpu_count()} CPUs")


def _read_json(path: str | None) -> dict:
    return json.loads(Path(path).read_text(encoding="utf-8")) if path and Path(path).exists() else {}


def _print_measured(args) -> None:
    """The measured part: latency per endpoint (locust users and phones), p95 over every request,
    CPU, the phones' bytes per minute and the confirmations."""
    stats_path = Path(f"{args.stats_prefix}_stats.csv")
    if not stats_path.exists():
        return
    polls, phones = _read_json(args.polls), _read_json(args.phones)
    rows = loadkit.read_stats_csv(stats_path)
    locust_total = next((r for r in rows if r.name == "Aggregated"), None)
    seconds = phones.get("seconds") or args.duration or 0
    total = hallkit.merged_total(polls.get("total") or {}, locust_total.failures if locust_total else 0, phones, seconds)
    table = [r for r in rows if r.name != "Aggregated"] + hallkit.phone_rows(phones, seconds) + [total]
    print(f"\nMeasured, {args.duration or 0:.0f} s after the warm-up (locust users and phones):\n")
    print(loadkit.stats_table(table))
    print(f"\nrequests: {total.requests}, errors: {total.failures}; p95 over every request: {total.p95:.0f} ms"
          f" ({phones.get('mode', 'no')} phones: {sum((phones.get('phones') or {}).values())})")
    _print_cpu(args, total, polls, phones)
    if phones:
        print("bytes on the wire per phone and minute (KB = 1,000 bytes; request and answer lines, headers, "
              "bodies; no TCP/TLS framing):")
        for line in hallkit.bytes_lines(phones):
            print("  " + line)
        if phones.get("mode") == "push":
            print(f"  pushed events received: {phones.get('events', 0)}, stream or request errors: {phones.get('errors', 0)}, "
                  f"refreshes dropped while one was in flight (htmx's default): {phones.get('dropped', 0)}")
        for kind, count in sorted((phones.get("error_kinds") or {}).items(), key=lambda kv: -kv[1]):
            print(f"  {count} x {kind}")
        if phones.get("ready", 0) < sum((phones.get("phones") or {}).values()):
            print(f"  only {phones.get('ready', 0)} phones had their page and stream or first poll")
    if polls.get("confirm"):
        c = polls["confirm"]
        print(f"results confirmed during the measured part: {c.get('ok', 0)} (refused or failed: {c.get('failed', 0)})")


def cmd_verify(args) -> int:
    _django()
    plan = json.loads(Path(args.plan).read_text(encoding="utf-8"))
    acks, uncertain, others = read_events(args.events)
    stale = sum(1 for e in others if e.get("kind") == "stale")
    unanswered = sum(1 for e in uncertain if e.get("kind") == "unanswered")
    # The referees' tables only: the finished tables' hands were entered at set-up.
    referees_tables = set(plan["matches"])
    stored = {pk: rows for pk, rows in stored_hands(plan["slug"]).items() if pk in referees_tables}
    verdict = loadkit.verify_hands(acks, stored, uncertain)
    if args.warmup_stats and Path(args.warmup_stats).exists():
        print(f"\nWarm-up, first {args.warmup or 0:.0f} s (referees logging in, phones arriving; locust users only):\n")
        print(loadkit.stats_table(loadkit.read_stats_csv(args.warmup_stats)))
    _print_measured(args)
    failures = loadkit.read_failures_csv(Path(f"{args.stats_prefix}_failures.csv"))
    if failures:
        print("errors by kind:")
        for (method, name, error), count in failures.most_common(20):
            print(f"  {count} x {method} {name}: {error}")
    print()
    print(f"hands acknowledged: {verdict.acknowledged}, stored: {verdict.stored}, "
          f"uncertain submissions: {verdict.uncertain} ({unanswered} in flight at the end), "
          f"stale (409) submissions: {stale}, "
          f"refused submissions: {len(others) - stale}, "
          f"matches with number gaps: {verdict.gaps}")
    for line in verdict.details[:20]:
        print("  " + line)
    print(f"lost hands: {verdict.lost}, duplicated hands: {verdict.duplicated}")
    if verdict.acknowledged == 0:
        print("FAIL: no hand was acknowledged; the scenario did not run")
        return 1
    return 0 if verdict.ok else 1


def measure_cpu(plan: dict, repeats: int = 10) -> list[tuple[str, float]]:
    """CPU milliseconds (this process: Django and the engine, not PostgreSQL) per request of each
    endpoint of the scenario, median of ``repeats``, one client in-process (Django test client),
    so the figures do not depend on how busy the machine is. Adds hands to the first match of the
    plan (run it after :func:`cmd_verify`). Django must be set up."""
    import statistics
    import time

    from django.test import Client

    slug, match = plan["slug"], plan["matches"][0]
    ref = plan["referees"][0]
    reader, referee = Client(), Client()
    out: list[tuple[str, float]] = []

    def cpu(label: str, call, n: int = repeats) -> None:
        call()  # warm caches (templates, translations)
        samples = []
        for _ in range(n):
            start = time.process_time()
            call()
            samples.append(time.process_time() - start)
        out.append((label, 1000 * statistics.median(samples)))

    def login():
        referee.logout()
        resp = referee.post("/accounts/login/", {"username": ref["username"], "password": ref["password"], "next": ""})
        assert resp.status_code == 302, resp.status_code

    cpu("POST /accounts/login/ (password check)", login, n=3)
    cpu("GET standings/", lambda: reader.get(f"/t/{slug}/standings/"))
    cpu("GET round/<n>/ (pairings)", lambda: reader.get(f"/t/{slug}/round/{plan.get('round', 1)}/"))
    cpu("GET match/<pk>/ (anonymous)", lambda: reader.get(f"/t/{slug}/match/{match}/"))

    def poll_304(url: str):
        """A phone's htmx poll of ``url`` that finds nothing changed (loads the page and polls it
        once first, as the phones do: that poll renders, its htmx headers give another ETag)."""
        page = loadkit.LivePage(url)
        first = reader.get(url)
        page.answered(first.status_code, first.get("ETag"), first.content.decode())
        again = reader.get(url, headers=page.poll_headers("http://testserver"))
        page.answered(again.status_code, again.get("ETag"))

        def call():
            resp = reader.get(url, headers=page.poll_headers("http://testserver"))
            assert resp.status_code == 304, resp.status_code

        return call

    def poll_shared(url: str):
        """Another phone's htmx poll of ``url`` after the page changed: its region was rendered
        for a first phone and is taken from the cache (:mod:`scoring.web.conditional`)."""
        first, other = loadkit.LivePage(url), Client()
        reader.get(url, headers=first.poll_headers("http://testserver"))
        other.get(url)

        def call():
            resp = other.get(url, headers=first.poll_headers("http://testserver"))
            assert resp.status_code == 200, resp.status_code

        return call

    cpu("GET poll round/<n>/ (200, region rendered for another phone)", poll_shared(f"/t/{slug}/round/{plan.get('round', 1)}/"))
    cpu("GET poll standings/ (304)", poll_304(f"/t/{slug}/standings/"))
    teams = iter(plan["teams"] * 2)

    def own_team_region():
        """A standings phone's refresh of its own team's view (``?team=``) after a change: each
        team's region is its own, so none is found rendered for another phone."""
        url = f"/t/{slug}/standings/?team={next(teams)}"
        resp = reader.get(url, headers=loadkit.LivePage(url).poll_headers("http://testserver"))
        assert resp.status_code == 200, resp.status_code

    cpu("GET poll standings/?team= (200, the phone's own region)", own_team_region)
    cpu("GET poll round/<n>/ (304)", poll_304(f"/t/{slug}/round/{plan.get('round', 1)}/"))
    cpu("GET poll match/<pk>/ (304)", poll_304(f"/t/{slug}/match/{match}/"))
    enter = f"/t/{slug}/match/{match}/enter/"
    cpu("GET match/<pk>/enter/ (entry page)", lambda: referee.get(enter))

    def page():
        return loadkit.parse_match_page(referee.get(enter).content.decode())

    def preview():
        p = page()
        record = loadkit.hand_record(p.next_number - 1)
        referee.post(f"/t/{slug}/match/{match}/preview/", loadkit.form_data(record, p.version, p.csrf_token), HTTP_HX_REQUEST="true")

    def save():
        p = page()
        record = loadkit.hand_record(p.next_number - 1)
        resp = referee.post(enter, loadkit.form_data(record, p.version, p.csrf_token))
        assert resp.status_code == 302, resp.status_code

    page_ms = dict(out)["GET match/<pk>/enter/ (entry page)"]
    for label, call in (("POST match/<pk>/preview/ (htmx)", preview), ("POST match/<pk>/enter/ (save hand)", save)):
        cpu(label, call)
        out[-1] = (label, max(0.0, out[-1][1] - page_ms))  # without the page load before it
    return out


def cmd_cost(args) -> int:
    _django()
    plan = json.loads(Path(args.plan).read_text(encoding="utf-8"))
    print("\nCPU per request, one client, in-process (ms, median; PostgreSQL's own CPU not included):\n")
    print("| endpoint | CPU ms |\n|---|---:|")
    for label, ms in measure_cpu(plan, repeats=args.repeats):
        print(f"| {label} | {ms:.0f} |")
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="cmd", required=True)
    s = sub.add_parser("setup")
    s.add_argument("plan")
    s.add_argument("--matches", type=int, default=50)
    s.add_argument("--referees", type=int, default=50)
    s.add_argument("--teams", type=int, default=None, help="teams (default: 2 per referees' match)")
    s.add_argument("--confirmers", type=int, default=0)
    v = sub.add_parser("verify")
    v.add_argument("plan")
    v.add_argument("events")
    v.add_argument("stats_prefix")
    v.add_argument("--server-cpu", type=float, default=None, help="CPU seconds gunicorn used during the run")
    v.add_argument("--duration", type=float, default=None, help="measured run time in seconds")
    v.add_argument("--wall", type=float, default=None, help="wall-clock seconds the server CPU was measured over")
    v.add_argument("--warmup-stats", default=None, help="CSV of the warm-up figures (locustfile)")
    v.add_argument("--warmup", type=float, default=None, help="warm-up seconds")
    v.add_argument("--polls", default=None, help="JSON of locust's latency histograms, confirmations and CPU (locustfile)")
    v.add_argument("--phones", default=None, help="JSON of the phones' figures (phones.py)")
    v.add_argument("--other-cpu", default=None, help="CPU seconds of the event server and caddy, comma-separated")
    v.add_argument("--machine-busy", type=float, default=None, help="percent of the machine's CPU busy")
    c = sub.add_parser("cost")
    c.add_argument("plan")
    c.add_argument("--repeats", type=int, default=10)
    args = parser.parse_args(argv)
    return {"setup": cmd_setup, "verify": cmd_verify, "cost": cmd_cost}[args.cmd](args)


if __name__ == "__main__":
    sys.exit(main())
