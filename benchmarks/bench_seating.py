"""Speed and quality of the four-player seating (issue 24 item 3; scoring.draw.seating_core).
Run: ``.venv/bin/python benchmarks/bench_seating.py [--sizes 16 64 200 400] [--rounds 5] [--seed S]``.

Per field size, a tournament of ``--rounds`` rounds is simulated through the pure core: round 1 by
the pot draw (:func:`~scoring.draw.seating_core.seat_first_round`), later rounds by
:func:`~scoring.draw.seating_core.seat_players` down the score order, each table given seeded
random results (placement points 3/1/-1/-3 plus 0-2 points); about a third of the players are in
clubs of about six (club avoidance on). Then the next round is seated and timed against the
baseline measured in the same run, the search's own start (the Swiss-style greedy seating down the
score order, :func:`~scoring.draw.seating_core.greedy_seating`), interleaved, best of 3 CPU times.
Printed per size: both times and their ratio, the cost terms of both (repeats, same-club pairs,
displacement; compared lexicographically), the lower bound of each term
(:mod:`scoring.draw.seating_bounds`) and the search's gap to it (0: proven optimal; "exact":
searched to the optimum).
"""
from __future__ import annotations

import argparse
import random

from _common import compare, fmt, report
from readme_tables import Table

from scoring.draw.seating_core import Entrant, count_meetings, greedy_seating, seat_first_round, seat_players


def terms(cost) -> str:
    """``repeats / club pairs / displacement``."""
    return f"{cost.repeats} / {cost.club_pairs} / {cost.displacement}"


def simulate(n: int, rounds: int, seed: int) -> tuple[list[Entrant], dict]:
    """The entrants (scores after ``rounds`` rounds) and the meeting counter, ready for the next."""
    rng = random.Random(seed * 1000 + n)
    clubs = {i: (f"club {rng.randrange(max(1, n // 18))}" if rng.random() < 1 / 3 else "") for i in range(n)}
    score = dict.fromkeys(range(n), 0)
    history: list[list[int]] = []
    for rnd in range(1, rounds + 1):
        entrants = [Entrant(id=i, score=score[i], order=i, club=clubs[i]) for i in range(n)]
        if rnd == 1:
            result = seat_first_round(entrants, seed=seed)
        else:
            result = seat_players(entrants, count_meetings(history), seed=seed + rnd)
        history += result.tables
        for table in result.tables:
            for place, p in enumerate(rng.sample(table, 4)):
                score[p] += (3, 1, -1, -3)[place] + rng.randint(0, 2)
    return [Entrant(id=i, score=score[i], order=i, club=clubs[i]) for i in range(n)], count_meetings(history)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[16, 64, 200, 400])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print(f"Four-player seating of round {args.rounds + 1} after {args.rounds} simulated rounds "
          "(CPU time, best of 3, interleaved); cost = repeats / same-club pairs / displacement")
    table = Table("seating", ["players", "search", "greedy start", "ratio", "cost: search", "cost: greedy",
                              "lower bound", "gap"])
    for n in args.sizes:
        entrants, met = simulate(n, args.rounds, args.seed)
        round_seed = args.seed + args.rounds + 1
        ours, base = compare(lambda e=entrants, m=met, s=round_seed: seat_players(e, m, seed=s),
                             lambda e=entrants, m=met, s=round_seed: greedy_seating(e, m, seed=s))
        result = seat_players(entrants, met, seed=round_seed)
        greedy_cost = greedy_seating(entrants, met, seed=round_seed)[1]
        report(f"{n:>4} players", ours, base, "greedy start")
        gap = "exact" if result.exact else terms(result.gap)
        print(f"      cost: search {terms(result.cost)}, greedy {terms(greedy_cost)}; "
              f"lower bound {terms(result.lower_bound)}; gap {gap}", flush=True)
        table.row(f"{n:,}", fmt(ours), fmt(base), f"{ours / base:,.0f}x", terms(result.cost), terms(greedy_cost),
                  terms(result.lower_bound), gap)
    table.print()


if __name__ == "__main__":
    main()
