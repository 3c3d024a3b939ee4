"""Tai Pan engine speed (issue 3 item 7). Run: ``.venv/bin/python benchmarks/bench_taipan.py``.

Prints three figures on this machine: combinations classified per second (``readings`` on plays
taken from random hands), ``play`` judgements per second (the command function, with hand and
wish), and whole random hands replayed per second (``replay`` on hands from the random legal-move
player; generation is not timed).
"""
from __future__ import annotations

import os
import random
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from engines.taipan.cards import BY_CODE  # noqa: E402
from engines.taipan.combinations import readings  # noqa: E402
from engines.taipan.play import play  # noqa: E402
from engines.taipan.replay import replay  # noqa: E402
from engines.taipan.simulate import random_hand  # noqa: E402


def timed(label: str, unit: str, items: list, fn) -> None:
    start = time.perf_counter()
    for item in items:
        fn(item)
    elapsed = time.perf_counter() - start
    print(f"{label:<40} {len(items) / elapsed:>12,.0f} {unit}/s  ({len(items)} in {elapsed:.2f} s)")


def main() -> None:
    rng = random.Random(2026)
    hands = [random_hand(rng) for _ in range(200)]
    combos = [[BY_CODE[c] for c in e["cards"]] for h in hands for e in h.replay_input["events"] if e.get("cards")]
    judgements = [ctx for h in hands for _i, ctx in h.judged]
    print(f"Tai Pan engine benchmark (Python {sys.version.split()[0]}, {len(hands)} random hands)")
    timed("combinations classified", "combinations", combos * 5, readings)
    timed("play judgements (command)", "judgements", judgements, play)
    timed("whole hands replayed (command)", "hands", [h.replay_input for h in hands], replay)


if __name__ == "__main__":
    main()
