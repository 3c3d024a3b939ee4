"""Speed of the Tien Gow engine: random legal deals generated, validated (``deal``) and settled.

Run: ``.venv/bin/python benchmarks/bench_tiengow.py [N]``; prints figures, asserts nothing.
"""
from __future__ import annotations

import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import run  # noqa: E402
from engines.tiengow.simulate import random_deal  # noqa: E402


def main(n: int = 500) -> None:
    """Time ``n`` simulated deals, their ``deal`` validation, ``settle`` and ``check`` calls."""
    rng = random.Random(1)
    t0 = time.perf_counter()
    sims = [random_deal(rng) for _ in range(n)]
    t1 = time.perf_counter()
    for sim in sims:
        run("tiengow", "deal", sim.record)
    t2 = time.perf_counter()
    for sim in sims:
        run("tiengow", "settle", sim.settle_input)
    t3 = time.perf_counter()
    for _ in range(n):
        run("tiengow", "check", {"current": ["1-1", "1-1", "3-5"], "play": ["6-6", "6-6", "4-5"]})
    t4 = time.perf_counter()
    print(f"simulate: {n / (t1 - t0):8.0f} deals/s")
    print(f"deal:     {n / (t2 - t1):8.0f} records/s ({(t2 - t1) / n * 1000:.2f} ms each)")
    print(f"settle:   {n / (t3 - t2):8.0f} calls/s")
    print(f"check:    {n / (t4 - t3):8.0f} calls/s")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 500)
