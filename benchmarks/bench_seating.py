"""Speed and quality of the four-player seating search (scoring.draw.seating_core.seat_players).
Run: ``.venv/bin/python benchmarks/bench_seating.py``.

Per field size, one round is seated after five random earlier rounds, against the baseline
measured in the same run: the plain seating down the score order, four at a time (what the search
starts from before it avoids repeats). Prints both CPU times (interleaved, best of 3), the ratio
(what the search costs), and the repeat meetings and displacement each leaves.
"""
from __future__ import annotations

import random

from _common import compare, fmt, report
from readme_tables import Table

from scoring.draw.seating_core import Entrant, count_meetings, seat_players


def plain_seating(entrants: list[Entrant]) -> list[list]:
    """Four at a time down the score order (best first), no repeat avoided."""
    order = sorted(entrants, key=lambda e: (-e.score, e.id))
    return [[e.id for e in order[i:i + 4]] for i in range(0, len(order), 4)]


def repeats(tables: list[list], met: dict) -> int:
    return sum(met.get(frozenset((a, b)), 0) for table in tables for i, a in enumerate(table) for b in table[i + 1:])


def main() -> None:
    print("Four-player seating, one round after five random rounds (CPU time, best of 3, interleaved)")
    table = Table("seating", ["players", "search", "plain seating", "ratio", "repeats left (search / plain)"])
    for n in (16, 40, 100, 200, 400):
        rng = random.Random(n)
        ids = list(range(n))
        history = []
        for _ in range(5):
            rng.shuffle(ids)
            history += [ids[i:i + 4] for i in range(0, n, 4)]
        entrants = [Entrant(id=i, score=rng.randint(-100, 100)) for i in range(n)]
        met = count_meetings(history)
        ours, base = compare(lambda e=entrants, m=met: seat_players(e, m, seed=1), lambda e=entrants: plain_seating(e))
        result = seat_players(entrants, met, seed=1)
        report(f"{n:>4} players", ours, base, "plain seating by score")
        plain_repeats = repeats(plain_seating(entrants), met)
        print(f"      repeats left: search {result.repeat_count}, plain {plain_repeats}; "
              f"displacement: search {result.displacement}, plain 0")
        table.row(f"{n:,}", fmt(ours), fmt(base), f"{ours / base:,.0f}x", f"{result.repeat_count} / {plain_repeats}")
    table.print()


if __name__ == "__main__":
    main()
