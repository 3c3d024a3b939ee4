"""Standings at 1,000 teams after 9 rounds (issue 13 item 2). Run:
``.venv/bin/python benchmarks/bench_standings.py [--teams 1000] [--rounds 9] [--repeat 5]``

On the benchmark tournament (:mod:`build_tournament`), prints three figures, each next to a
baseline measured in the same run (interleaved, best of ``--repeat``, CPU time):

- the standings service (:func:`scoring.standings.teams.standings`, uncached) against a minimal
  ranking over the same two reads (teams with their players' names, counted matches as value
  lists): match points, point difference, Buchholz, points scored summed in plain dicts and one
  sort (target <= 2x);
- the team breakdown (:func:`scoring.standings.teams.team_breakdown`) of the median team against
  the whole standings service (what it computed before: it now reads one team's rows and what its
  rank and tie-breaks need);
- the public standings page, full table (``GET /t/<slug>/standings/?all=1`` through the test
  client), once with the cache cleared before every request (the standings computed inside it)
  and once with the standings cached (the page's own rendering), against the floor: a plain
  Django template rendering the same number of rows and cells, precomputed (target <= 4x);
- the bytes of that page (raw, per row of its table, gzip) next to the plain template's, and the
  phone's compact view (``?team=`` the median team: the top 10 and its neighbourhood) next to the
  full page at 1,000 teams and, in a second process on the 300-team benchmark tournament
  (``--small``, 0 to leave it out), at 300 teams;
- polls that find nothing changed (anonymous ``GET`` with ``If-None-Match``: 304, nothing
  rendered) against the same page rendered (standings from the cache; round 9's 500 tables).

It also checks that the service and the minimal ranking agree on the order (they differ only
when head-to-head decides, which the minimal ranking leaves out; the line says how many teams).
"""
from __future__ import annotations

import argparse
import gzip
import json
import subprocess
import sys
from collections import defaultdict
from pathlib import Path

from _common import FIGURE_COLUMNS, compare, figure_table, report
from build_tournament import open_tournament
from readme_tables import Table


def minimal_ranking(tournament) -> list[tuple]:
    """The floor: the same reads as the service, ranked with plain dicts and one sort."""
    from scoring.models import Match, Round, Team

    teams = list(Team.objects.filter(tournament=tournament).values_list(
        "pk", "name", "affiliation", "first_player__name", "second_player__name", "withdrawn_after_round"))
    rows = Match.objects.filter(round__tournament=tournament, status__in=(Match.Status.FINISHED, Match.Status.CONFIRMED)) \
        .exclude(round__status=Round.Status.DRAFT).values_list(
            "round__number", "team_ns_id", "team_ew_id", "total_ns", "total_ew", "points_ns", "points_ew", "winner_id")
    mp: dict = defaultdict(int)
    pd: dict = defaultdict(int)
    ps: dict = defaultdict(int)
    opponents: dict = defaultdict(list)
    for _rnd, ns, ew, tns, tew, pns, pew, _winner in rows:
        mp[ns] += pns
        pd[ns] += tns - tew
        ps[ns] += tns
        if ew is not None:
            mp[ew] += pew
            pd[ew] += tew - tns
            ps[ew] += tew
            opponents[ns].append(ew)
            opponents[ew].append(ns)
    buchholz = {pk: sum(mp[o] for o in opponents[pk]) for pk, *_ in teams}
    key = {pk: (-mp[pk], -pd[pk], -buchholz[pk], -ps[pk]) for pk, *_ in teams}
    ordered = sorted(teams, key=lambda t: (key[t[0]], t[1].lower(), t[0]))
    out, previous, rank = [], None, 0
    for i, (pk, name, affiliation, first, second, _gone) in enumerate(ordered, start=1):
        if key[pk] != previous:
            rank, previous = i, key[pk]
        out.append((rank, pk, name, f"{first} & {second}", affiliation, mp[pk], pd[pk], ps[pk], buchholz[pk]))
    return out


FLOOR = """<table class="standings"><thead><tr>{% for h in headers %}<th>{{ h }}</th>{% endfor %}</tr></thead>
<tbody>{% for row in rows %}<tr>{% for cell in row %}<td>{{ cell }}</td>{% endfor %}</tr>{% endfor %}</tbody></table>"""


def page_bytes(client, tournament) -> dict:
    """The bytes of the full standings page and of the phone's compact view (the median team's
    neighbourhood), raw and gzip (level 6, as a proxy compresses), and the number of rows."""
    from django.urls import reverse

    from scoring.standings.teams import standings

    rows = standings(tournament)
    url = reverse("scoring:standings", args=[tournament.slug])
    full = client.get(url + "?all=1").content
    phone = client.get(f"{url}?team={rows[len(rows) // 2].team_id}").content
    assert b"standings lean" not in phone and b'class="standings listing compact"' in phone
    return {"rows": len(rows), "full": len(full), "full_gzip": len(gzip.compress(full, 6)),
            "phone": len(phone), "phone_gzip": len(gzip.compress(phone, 6))}


def small_field_bytes(teams: int, rounds: int) -> dict:
    """:func:`page_bytes` on the ``teams``-team benchmark tournament, in a second process (a
    process opens one benchmark database)."""
    out = subprocess.run([sys.executable, str(Path(__file__)), "--teams", str(teams), "--rounds", str(rounds), "--bytes-only"],
                         check=True, capture_output=True, text=True).stdout
    return json.loads(out.strip().splitlines()[-1])


def kb(n: int) -> str:
    return f"{n / 1000:,.1f} KB"


def bytes_table(ours: dict, plain: bytes, plain_rows: int, table_html: bytes, small: dict | None):
    """Print the byte figures and return their README table (``standings-bytes``)."""
    table = Table("standings-bytes", FIGURE_COLUMNS, "lrlrr")
    n = ours["rows"]
    plain_gzip = len(gzip.compress(plain, 6))
    plain_body = plain[plain.index(b"<tbody"):plain.index(b"</tbody>")]
    lines = [
        (f"full standings page, HTML ({n:,} rows)", f"{kb(ours['full'])}, {len(table_html) / n:.0f} B a row",
         f"the plain template: {kb(len(plain))}, {len(plain_body) / plain_rows:.0f} B a row", ours["full"] / len(plain)),
        (f"full standings page, gzip ({n:,} rows)", kb(ours["full_gzip"]), f"the plain template: {kb(plain_gzip)}",
         ours["full_gzip"] / plain_gzip),
        (f"phone's compact view, {n:,} teams (raw / gzip)", f"{kb(ours['phone'])} / {kb(ours['phone_gzip'])}",
         f"the full page: {kb(ours['full'])} / {kb(ours['full_gzip'])}", ours["phone_gzip"] / ours["full_gzip"]),
    ]
    if small:
        m = small["rows"]
        lines.append((f"phone's compact view, {m:,} teams (raw / gzip)", f"{kb(small['phone'])} / {kb(small['phone_gzip'])}",
                      f"the full page: {kb(small['full'])} / {kb(small['full_gzip'])}", small["phone_gzip"] / small["full_gzip"]))
    for label, value, baseline, ratio in lines:
        print(f"{label}: {value} | baseline ({baseline}) | ratio {ratio:.2f}x", flush=True)
        table.row(label, value, baseline, f"{ratio:.2f}x", "")
    return table


def page_figures(client, tournament, rows, repeat: int, table, small: dict | None):
    """The full standings page (cache miss, standings cached) against the plain template with
    the same rows and cells, added to ``table``; returns the bytes table
    (:func:`bytes_table`)."""
    from django.core.cache import cache
    from django.template import Context, Template
    from django.urls import reverse

    full_url = reverse("scoring:standings", args=[tournament.slug]) + "?all=1"  # a desktop's, the projector's view

    def page():
        cache.clear()
        return cached_page()

    def cached_page():
        response = client.get(full_url)
        assert response.status_code == 200, response.status_code
        return response

    html = page().content.decode()
    body = html[html.index("<tbody"):html.index("</tbody>")]
    cells_per_row = body.count("<td") // max(1, len(rows))
    headers = [f"Column {i}" for i in range(cells_per_row)]
    url_of = [reverse("scoring:team_breakdown", args=[tournament.slug, r.team_id]) for r in rows]
    plain_rows = [[r.rank, f'<a href="{u}">{r.name}</a>', r.players, r.played, r.won, r.drawn, r.lost, r.match_points,
                   r.point_difference, r.points_scored, r.buchholz, *list(r.tiebreaks.values())][:cells_per_row]
                  for r, u in zip(rows, url_of, strict=True)]
    template = Template(FLOOR)

    def plain():
        return template.render(Context({"headers": headers, "rows": plain_rows}))

    for label, measured in (("cache miss", page), ("standings cached", cached_page)):
        cached_page()
        ours, base = compare(measured, plain, repeat)
        report(f"standings page, {label} ({len(rows)} rows x {cells_per_row} cells)", ours, base,
               "plain template, same rows and cells", target=4, table=table,
               row=f"public standings page, full table, {label} ({len(rows):,} rows x {cells_per_row} cells)",
               row_baseline="a plain Django template with the same rows and cells")
    return bytes_table(page_bytes(client, tournament), plain().encode(), len(plain_rows), body.encode(), small)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--small", type=int, default=300, help="teams of the second field whose bytes are printed (0: none)")
    parser.add_argument("--bytes-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    small = small_field_bytes(args.small, args.rounds) if args.small and not args.bytes_only else None
    tournament = open_tournament(args.teams, args.rounds, quiet=args.bytes_only)
    if args.bytes_only:
        from django.test import Client

        print(json.dumps(page_bytes(Client(), tournament)))
        return

    from django.test import Client
    from django.urls import reverse

    from scoring.models import Team
    from scoring.standings.teams import standings, team_breakdown

    print(f"Standings: {args.teams} teams after {args.rounds} rounds (CPU time, best of {args.repeat}, interleaved)")
    rows = standings(tournament)
    floor = minimal_ranking(tournament)
    differ = sum(1 for r, f in zip(rows, floor, strict=True) if r.team_id != f[1])
    print(f"same order as the minimal ranking: {len(rows) - differ} of {len(rows)} teams "
          f"(the rest only where head-to-head decides)")
    ours, base = compare(lambda: standings(tournament), lambda: minimal_ranking(tournament), args.repeat)
    table = figure_table("standings")
    report("standings service", ours, base, "minimal ranking, same reads", target=2, table=table,
           row="standings service (`scoring.standings.teams.standings`)",
           row_baseline="a minimal ranking over the same two reads")

    median = Team.objects.get(pk=rows[len(rows) // 2].team_id)
    ours, base = compare(lambda: team_breakdown(tournament, median), lambda: standings(tournament), args.repeat)
    report("team breakdown (one team)", ours, base, "the whole standings service", table=table,
           row="team page's tie-break numbers, one team (`team_breakdown`)")

    client = Client()
    sizes = page_figures(client, tournament, rows, args.repeat, table, small)
    full_url = reverse("scoring:standings", args=[tournament.slug]) + "?all=1"

    for label, target_url in (("the standings", full_url), ("round 9's tables", reverse("scoring:round_pairings", args=[tournament.slug, 9]))):
        first = client.get(target_url)
        etag = first["ETag"]

        def unchanged(u=target_url, e=etag):
            response = client.get(u, HTTP_IF_NONE_MATCH=e)
            assert response.status_code == 304, response.status_code

        def rendered(u=target_url):
            assert client.get(u).status_code == 200

        ours, base = compare(unchanged, rendered, args.repeat)
        report(f"poll of {label} page, nothing changed (304)", ours, base, "the page rendered (200)",
               table=table, row=f"poll of {label} page, nothing changed (304)")
    table.print()
    sizes.print()


if __name__ == "__main__":
    main()
