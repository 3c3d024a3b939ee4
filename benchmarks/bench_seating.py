"""Speed and quality of the four-player seating search (scoring.draw.seating_core.seat_players).

Prints, per field size, the seconds for seating one round after five random earlier rounds, the
repeat meetings left and the displacement from the score order. Run: ``python benchmarks/bench_seating.py``.
"""
import random
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from scoring.draw.seating_core import Entrant, count_meetings, seat_players  # noqa: E402


def main() -> None:
    print(f"{'players':>8} {'rounds before':>14} {'seconds':>8} {'repeats':>8} {'displacement':>13}")
    for n in (16, 40, 100, 200, 400):
        rng = random.Random(n)
        ids = list(range(n))
        history = []
        for _ in range(5):
            rng.shuffle(ids)
            history += [ids[i:i + 4] for i in range(0, n, 4)]
        entrants = [Entrant(id=i, score=rng.randint(-100, 100)) for i in range(n)]
        start = time.perf_counter()
        result = seat_players(entrants, count_meetings(history), seed=1)
        elapsed = time.perf_counter() - start
        print(f"{n:>8} {5:>14} {elapsed:>8.2f} {result.repeat_count:>8} {result.displacement:>13}")


if __name__ == "__main__":
    main()
