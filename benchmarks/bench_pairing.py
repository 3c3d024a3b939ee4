"""Swiss pairing speed (issue 4 item 1 and acceptance). Run:
``.venv/bin/python benchmarks/bench_pairing.py [--sizes 100 500 1000] [--seed S] [--repeat R]``

For each field size: 8 rounds are paired with :func:`scoring.draw.pairing_core.pair_round` and given
seeded random results (45 % NS win, 45 % EW win, 10 % draw; byes a win), then round 9 is paired
and timed (best and mean of ``--repeat`` runs). Prints one line per size with the time, the
number of tables, floats and whether any rematch or second bye occurred (never).
"""
from __future__ import annotations

import argparse
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.draw.pairing_core import Entrant, Reason, pair_round  # noqa: E402

ROUNDS_BEFORE = 8


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


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[100, 500, 1000])
    parser.add_argument("--seed", type=int, default=2024)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    print(f"Swiss pairing, round 9 after 8 simulated rounds (Python {platform.python_version()}, {platform.machine()})")
    for n in args.sizes:
        field = simulate(n, args.seed)
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            tables = pair_round(field, ROUNDS_BEFORE + 1, seed=args.seed)
            times.append(time.perf_counter() - start)
        by_id = {e.id: e for e in field}
        rematches = sum(1 for t in tables if t.ew is not None and t.ew in by_id[t.ns].opponents)
        second_byes = sum(1 for t in tables if t.ew is None and by_id[t.ns].had_bye)
        floats = sum(1 for t in tables if t.reason == Reason.FLOATED)
        print(f"{n:>5} teams: best {min(times):6.2f} s, mean {statistics.mean(times):6.2f} s "
              f"({len(tables)} tables, {floats} floated, rematches {rematches}, second byes {second_byes})")


if __name__ == "__main__":
    main()
