"""Swiss pairing speed (issue 13 item 3). Run:
``.venv/bin/python benchmarks/bench_pairing.py [--sizes 100 500 1000] [--seed S] [--repeat R]``

For each field size: 8 rounds are paired with :func:`scoring.draw.pairing_core.pair_round` and given
seeded random results (45 % NS win, 45 % EW win, 10 % draw; byes a win), then round 9 is paired
and timed against the baseline, the implementation before issue 13 (:func:`baseline_pair_round`,
kept below: one networkx matching over the k nearest non-opponents, k doubled until everyone is
paired), interleaved, best of ``--repeat`` CPU times. One line per size with both times, the ratio
(the 1,000-team line also against the issue's 0.25 s), whether both reach the same weight (the
same optimum), and the tables, floats, rematches and second byes (never) of the new pairing.

Club avoidance (issue 23): for each size the same field with clubs of about six teams, paired with and
without ``avoid_clubs`` (printed only, no README table): its cost next to the pairing without it, the
same-club tables before and after, and whether the floats and the bye stayed the same (they must).

Then the whole service on the benchmark tournament (:mod:`build_tournament`, 1,000 teams after 9
rounds): :func:`scoring.draw.pairing.pair_next_round` drawing round 10 (standings, pairing, saving
the draft), rolled back each time, against the same with the baseline pairing patched in.
"""
from __future__ import annotations

import argparse
import dataclasses
import random
import sys

import networkx as nx
from _common import compare, figure_table, fmt, report
from readme_tables import Table

from scoring.draw import pairing_core
from scoring.draw.pairing_core import Entrant, Reason, pair_round

ROUNDS_BEFORE = 8


def baseline_pair_round(entrants, round_number, *, seed=0, method="random", initial_candidates=4, avoid_clubs=False):
    """The pairing before issue 13 (same weights, same round 1): a maximum-weight matching of the
    ``k`` nearest non-opponents by rank, ``k`` doubled until the matching pairs everyone."""
    field_ = pairing_core.present(entrants, round_number)
    if not field_:
        return []
    if all(not e.opponents and not e.had_bye and e.points == 0 for e in field_):
        return pairing_core._initial(field_, seed=seed, method=method)
    ranked = pairing_core._ranked(field_)
    n = len(ranked)
    odd = n % 2 == 1
    pairing_core._quick_impossible(ranked, odd)
    weights = pairing_core._Weights(ranked)
    k = max(1, initial_candidates)
    while True:
        graph = pairing_core._candidate_graph(ranked, weights, k, odd)
        matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
        if len(matching) == (n + 1) // 2:
            break
        if k >= n:
            raise pairing_core._blocking_error(graph, ranked, odd)
        k = min(n, k * 2)
    return pairing_core._tables(matching, {e.id: e for e in ranked}, weights)


def simulate(n: int, seed: int) -> list[Entrant]:
    """Entrants after ``ROUNDS_BEFORE`` paired rounds of random results, in ranking order."""
    rng = random.Random(seed)
    points = {i: 0 for i in range(1, n + 1)}
    diff = {i: 0 for i in points}
    opponents: dict[int, set[int]] = {i: set() for i in points}
    byes: set[int] = set()

    def entrants() -> list[Entrant]:
        order = sorted(points, key=lambda i: (-points[i], -diff[i], i))
        return [Entrant(i, f"Team {i}", points[i], frozenset(opponents[i]), i in byes) for i in order]

    for rnd in range(1, ROUNDS_BEFORE + 1):
        for table in pair_round(entrants(), rnd, seed=seed):
            if table.ew is None:
                byes.add(table.ns)
                points[table.ns] += 2
                continue
            opponents[table.ns].add(table.ew)
            opponents[table.ew].add(table.ns)
            x = rng.random()
            margin = rng.randrange(5, 60) * 10
            if x < 0.45:
                points[table.ns] += 2
                diff[table.ns] += margin
                diff[table.ew] -= margin
            elif x < 0.9:
                points[table.ew] += 2
                diff[table.ew] += margin
                diff[table.ns] -= margin
            else:
                points[table.ns] += 1
                points[table.ew] += 1
    return entrants()


def weight(field_: list[Entrant], tables) -> int:
    """The pairing's total weight under the pairing's own weights (equal weight = same optimum)."""
    weights = pairing_core._Weights(pairing_core._ranked(field_))
    return sum(weights.bye(t.ns) if t.ew is None else weights.pair(t.ns, t.ew) for t in tables)


def clubs(args, n: int, field: list[Entrant]) -> None:
    """The cost of club avoidance on ``field`` with clubs of about six teams (printed)."""
    groups = max(1, n // 6)
    clubbed = [dataclasses.replace(e, club=f"Club {e.id % groups}") for e in field]
    rnd = ROUNDS_BEFORE + 1
    ours, base = compare(lambda: pair_round(clubbed, rnd, seed=args.seed, avoid_clubs=True),
                         lambda: pair_round(clubbed, rnd, seed=args.seed), args.repeat)
    plain = pair_round(clubbed, rnd, seed=args.seed)
    avoided = pair_round(clubbed, rnd, seed=args.seed, avoid_clubs=True)
    club = {e.id: e.club for e in clubbed}
    points = {e.id: e.points for e in clubbed}

    def clashes(tables):
        return sum(1 for t in tables if t.ew is not None and club[t.ns] == club[t.ew])

    def faced(tables):
        out = {}
        for t in tables:
            out[t.ns] = None if t.ew is None else points[t.ew]
            if t.ew is not None:
                out[t.ew] = points[t.ns]
        return out

    report(f"{n:>5} teams, round 9, club avoidance", ours, base, "the same pairing without it")
    print(f"      same-club tables {clashes(plain)} -> {clashes(avoided)}; floats and bye "
          f"{'unchanged' if faced(plain) == faced(avoided) else 'CHANGED'}")


def service(args) -> None:
    from build_tournament import open_tournament

    tournament = open_tournament(1000, 9)  # sets Django up first
    from django.core.cache import cache
    from django.db import transaction

    from scoring.draw import pairing
    from scoring.policy import SYSTEM

    class Rollback(Exception):
        pass

    def draw(core):
        def run():
            saved = pairing.pair_round
            pairing.pair_round = core
            try:
                with transaction.atomic():
                    rnd = pairing.pair_next_round(tournament, SYSTEM)
                    assert rnd.matches.count() == 500
                    raise Rollback
            except Rollback:
                pass
            finally:
                pairing.pair_round = saved
        return run

    def cold(fn):  # the standings are not cached yet when a round is drawn after the last result
        def run():
            cache.clear()
            fn()
        return run

    ours, base = compare(cold(draw(pair_round)), cold(draw(baseline_pair_round)), args.repeat)
    table = figure_table("pair-next-round")
    report("pair_next_round, 1000 teams, round 10 (standings, pairing, saving)", ours, base,
           "the same with the pre-issue-13 pairing", table=table,
           row="`pair_next_round`, 1,000 teams, round 10 (standings, pairing, saving the draft)",
           row_baseline="the same with the pairing before issue 13")
    table.print()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--no-service", action="store_true", help="skip the pair_next_round figure (no database)")
    args = parser.parse_args()
    print(f"Swiss pairing, round 9 after 8 simulated rounds (Python {sys.version.split()[0]}; CPU time, best of "
          f"{args.repeat}, interleaved with the baseline)")
    table = Table("pairing", ["teams", "ours", "baseline", "ratio", "same optimum", "rematches / second byes"])
    for n in args.sizes:
        field = simulate(n, args.seed)
        ours, base = compare(lambda f=field: pair_round(f, ROUNDS_BEFORE + 1, seed=args.seed),
                             lambda f=field: baseline_pair_round(f, ROUNDS_BEFORE + 1, seed=args.seed), args.repeat)
        tables = pair_round(field, ROUNDS_BEFORE + 1, seed=args.seed)
        old = baseline_pair_round(field, ROUNDS_BEFORE + 1, seed=args.seed)
        by_id = {e.id: e for e in field}
        rematches = sum(1 for t in tables if t.ew is not None and t.ew in by_id[t.ns].opponents)
        second_byes = sum(1 for t in tables if t.ew is None and by_id[t.ns].had_bye)
        floats = sum(1 for t in tables if t.reason == Reason.FLOATED)
        same = "same optimum" if weight(field, tables) == weight(field, old) else "DIFFERENT WEIGHT"
        report(f"{n:>5} teams, round 9", ours, base, "pre-issue-13 pairing")
        print(f"      {same}; {len(tables)} tables, {floats} floated, rematches {rematches}, second byes {second_byes}"
              + (f"; {ours:.3f} s against the issue's 0.25 s: {'met' if ours <= 0.25 else 'NOT met'}" if n == 1000 else ""))
        table.row(f"{n:,}", fmt(ours), fmt(base), f"{ours / base:.2f}x" + (" (target: <= 0.25 s)" if n == 1000 else ""),
                  "yes" if same == "same optimum" else "NO: different weight", f"{rematches} / {second_byes}")
    for n in args.sizes:
        clubs(args, n, simulate(n, args.seed))
    table.print()
    if not args.no_service:
        service(args)


if __name__ == "__main__":
    main()
