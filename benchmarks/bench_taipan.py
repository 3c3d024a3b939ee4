"""Tai Pan engine speed: whole hands replayed per second, next to a plain-Python floor.

Run: ``.venv/bin/python benchmarks/bench_taipan.py [--hands N] [--sets K] [--seed S]``

Hands come from the random legal-move player (:mod:`engines.taipan.simulate`; generation is not
timed): K sets of N fresh hands, every hand replayed once per path (no hand is timed twice). Each
figure is the best set in CPU time of the process (``time.process_time``, so that other work on a
shared machine does not count), with the baseline measured in the same run on the same hands and
the ratio ours / baseline.

- ``replay``: the ``replay`` command (deal, exchange and calls validated, every play judged: the
  combination, beating, the wish, bombs out of turn, Dog and Dragon; the card points and the score).
  Baseline: a plain-Python floor that does what any replay must and nothing more: decode the deal
  and the exchange into card objects, walk the events and move each played card out of its hand
  (a card not held is an error). It checks no rule, so ours / floor says what the rules cost.
- ``play``: the ``play`` command on every play and pass of the same hands, with the hand and the
  wish (input validation, the verdict and its English reason). Baseline floor: decoding the same
  inputs' card codes (``current``, ``play``, ``hand``) into card objects.

Every replay result is checked against what the simulator expects (first out, out order, double
victory, card points): the figures are for correct results.
"""
from __future__ import annotations

import argparse
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from readme_tables import Table  # noqa: E402  (benchmarks/, the script's own folder)

from engines.taipan.cards import BY_CODE  # noqa: E402
from engines.taipan.play import play  # noqa: E402
from engines.taipan.replay import replay  # noqa: E402
from engines.taipan.simulate import Simulated, random_hand  # noqa: E402


def floor_replay(data: dict[str, Any]) -> int:
    """The plain-Python floor: decode the deal and exchange, move every played card out of its hand."""
    hands = {seat: {BY_CODE[code] for code in codes} for seat, codes in data["deal"].items()}
    for seat, row in (data.get("exchange") or {}).items():
        for other, code in row.items():
            card = BY_CODE[code]
            hands[seat].discard(card)
            hands[other].add(card)
    count = 0
    for event in data["events"]:
        if event["action"] in ("play", "bomb"):
            cards = [BY_CODE[code] for code in event["cards"]]
            hand = hands[event["seat"]]
            if not hand.issuperset(cards):
                raise ValueError("card not held")
            hand.difference_update(cards)
        count += 1
    return count


def floor_play(data: dict[str, Any]) -> int:
    """The plain-Python floor of a ``play`` command: decode its card codes."""
    current = data.get("current")
    cards = [BY_CODE[code] for code in data["play"]] + [BY_CODE[code] for code in data.get("hand") or ()]
    if current:
        cards += [BY_CODE[code] for code in current["cards"]]
    return len(cards)


def rate(fn: Callable[[Any], object], items: Sequence[Any]) -> float:
    """Items per CPU second of one pass of ``fn`` over ``items``."""
    start = time.process_time()
    for item in items:
        fn(item)
    return len(items) / (time.process_time() - start)


def compare(baseline: Callable[[Any], object], ours: Callable[[Any], object], sets: Sequence[Sequence[Any]]) -> tuple[float, float]:
    """Best rate of the baseline and of ours over ``sets``; each set is run once by each, one after
    the other, so both meet the same machine load."""
    best_base = best_ours = 0.0
    for items in sets:
        best_base = max(best_base, rate(baseline, items))
        best_ours = max(best_ours, rate(ours, items))
    return best_base, best_ours


def line(label: str, unit: str, baseline_name: str, baseline: float, ours: float, table: Table, row: str) -> None:
    print(f"  {label:<34} ours {ours:>11,.0f} {unit}/s   {baseline_name} {baseline:>11,.0f} {unit}/s   "
          f"ratio {ours / baseline:5.2f}")
    table.row(row, f"{ours:,.0f} {unit}/s", f"{baseline:,.0f} {unit}/s", f"{ours / baseline:.2f}")


def check(hand: Simulated, out: dict[str, Any]) -> None:
    """The replay result must be what the simulator played."""
    for key in ("first_out", "out_order", "double_victory", "card_points"):
        if out[key] != hand.expected[key]:
            raise AssertionError(f"replay {key} {out[key]!r} != simulated {hand.expected[key]!r}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300, help="fresh hands per set (default 300)")
    parser.add_argument("--sets", type=int, default=10, help="sets of fresh hands (default 10; the best set counts)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    sims = [[random_hand(rng) for _ in range(args.hands)] for _ in range(args.sets)]
    for group in sims:
        for hand in group:
            check(hand, replay(hand.replay_input))
    inputs = [[h.replay_input for h in group] for group in sims]
    judged = [[ctx for h in group for _i, ctx in h.judged] for group in sims]
    events = sum(len(h["events"]) for group in inputs for h in group) / (args.hands * args.sets)
    print(f"Tai Pan engine, Python {platform.python_version()} on {platform.machine()}: {args.sets} sets of "
          f"{args.hands} fresh random hands ({events:.0f} events per hand), best set, CPU time; "
          f"every replay checked against the simulator")
    table = Table("taipan", ["figure", "ours", "floor", "ratio"])
    floor_hands, ours_hands = compare(floor_replay, replay, inputs)
    line("whole hands replayed (replay)", "hands", "floor", floor_hands, ours_hands, table,
         f"whole hands replayed (`replay`, target >= 5,000 hands/s; best of {args.sets} sets of {args.hands} "
         f"fresh hands, {events:.0f} events per hand)")
    floor_plays, ours_plays = compare(floor_play, play, judged)
    line("plays and passes judged (play)", "calls", "floor", floor_plays, ours_plays, table,
         "plays and passes judged (`play`)")
    table.print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
