"""Mahjong engine speed: winning-hand checks and full scorings per second (issue 6 item 5).

Run: ``.venv/bin/python benchmarks/bench_mahjong.py [--hands N] [--seed S]``

Measures, on the same seeded random hands:
- Sichuan: winning-hand check (4 sets + pair or seven pairs) from a 34-count array and from a tile
  list, cold (memo caches cleared) and warm, on winning and on random 14-tile hands; full
  ``score-hand`` (JSON input -> fan, base, waits) through ``engines.run``.
- Taiwanese (if ``engines/taiwanese`` exists): winning-hand check on 17-tile hands (5 sets + pair,
  honours) and full ``score`` through ``engines.run``.
- The ``mahjong`` PyPI package (riichi; only if installed - it is NOT a project requirement:
  ``.venv/bin/pip install mahjong``): ``Agari.is_agari`` on the same 14-tile hands (34-count array)
  and ``HandCalculator.estimate_hand_value`` (136-array, ron on the same winning tile).
Prints one line per figure: operations per second and microseconds per operation.
"""
from __future__ import annotations

import argparse
import importlib.util
import platform
import random
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from engines import RuleViolation, run  # noqa: E402
from engines.mahjong import hand as core  # noqa: E402
from engines.mahjong import tiles as tiles_module  # noqa: E402
from engines.mahjong.tiles import TILES, Tile, format_tiles  # noqa: E402
from engines.sichuan import options as sichuan_options  # noqa: E402


def _clear_caches() -> None:
    """Forget every memo (suit shapes, suit readings, parsed tokens, resolved rules)."""
    core._clear_shape_cache()
    for cache in tiles_module._PARSED:
        cache.clear()
    sichuan_options._RESOLVED.clear()


def random_winning(rnd: random.Random, sets: int, kinds: Sequence[Tile]) -> list[Tile]:
    """A random legal winning hand: ``sets`` random chows/pungs plus a pair from ``kinds``."""
    while True:
        counts = [0] * 34
        tiles: list[Tile] = []
        ok = True
        for _ in range(sets):
            start = rnd.choice(kinds)
            chow = rnd.random() < 0.6 and not start.is_honour and start.number <= 7 and TILES[start.index + 2] in kinds
            group = [TILES[start.index + i] for i in range(3)] if chow else [start] * 3
            for t in group:
                counts[t.index] += 1
            tiles += group
        pair = rnd.choice(kinds)
        counts[pair.index] += 2
        tiles += [pair, pair]
        ok = max(counts) <= 4
        if ok:
            rnd.shuffle(tiles)
            return tiles


def random_tiles(rnd: random.Random, size: int, kinds: Sequence[Tile]) -> list[Tile]:
    """``size`` random tiles from ``kinds`` (at most four copies each)."""
    wall = [t for t in kinds for _ in range(4)]
    return rnd.sample(wall, size)


def counts34(tiles: Sequence[Tile]) -> list[int]:
    return core.count_tiles(tiles)


def timed(label: str, fn: Callable[[object], object], items: Sequence[object], *, rounds: int = 3, cold: bool = False) -> float:
    """Best of ``rounds`` passes over ``items``; prints and returns operations per second."""
    best = float("inf")
    for _ in range(rounds):
        if cold:
            _clear_caches()
        start = time.perf_counter()
        for item in items:
            fn(item)
        best = min(best, time.perf_counter() - start)
    rate = len(items) / best
    print(f"  {label:<62} {rate:>12,.0f} /s  {1e6 / rate:>9.2f} us")
    return rate


def sichuan_input(tiles: list[Tile], rnd: random.Random, void: str) -> dict:
    win = rnd.choice(tiles)
    return {"void": void, "melds": [], "concealed": format_tiles(tiles, sort=True),
            "win": {"tile": str(win), "how": "discard", "after_kong": False, "last_tile": False}}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000, help="distinct random hands per set (default 2000)")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)
    rnd = random.Random(args.seed)
    n = args.hands
    print(f"Python {platform.python_version()} on {platform.machine()}, {n} hands per set, seed {args.seed}")

    # Sichuan: 14-tile hands from two suits (one void suit), no honours.
    sichuan_win: list[list[Tile]] = []
    sichuan_inputs: list[dict] = []
    while len(sichuan_win) < n:
        void = rnd.choice("mps")
        kinds = [t for t in TILES[:27] if t.suit.value != void]
        tiles = random_winning(rnd, 4, kinds)
        data = sichuan_input(tiles, rnd, void)
        try:
            run("sichuan", "score-hand", data)
        except RuleViolation:  # pragma: no cover - a generated hand is always legal
            continue
        sichuan_win.append(tiles)
        sichuan_inputs.append(data)
    sichuan_rand = [random_tiles(rnd, 14, [t for t in TILES[:27] if t.suit.value != rnd.choice("mps")]) for _ in range(n)]
    win_counts = [counts34(t) for t in sichuan_win]
    rand_counts = [counts34(t) for t in sichuan_rand]
    assert all(core.is_winning_counts(c, 4) or core.is_seven_pairs_counts(c) for c in win_counts)

    def check14(counts: list[int]) -> bool:
        return core.is_winning_counts(counts, 4) or core.is_seven_pairs_counts(counts)

    def check14_tiles(tiles: list[Tile]) -> bool:
        counts = core.count_tiles(tiles)
        return core.is_winning_counts(counts, 4) or core.is_seven_pairs_counts(counts)

    print("Sichuan (engines/sichuan, 14-tile hands)")
    timed("winning-hand check, winning hands, count array, cold cache", check14, win_counts, rounds=1, cold=True)
    timed("winning-hand check, winning hands, count array, warm", check14, win_counts)
    timed("winning-hand check, random 14 tiles, count array, warm", check14, rand_counts)
    timed("winning-hand check, winning hands, from tile list, warm", check14_tiles, sichuan_win)
    timed("every decomposition (decompositions()), winning hands", lambda t: core.decompositions(t, 4), sichuan_win)
    timed("full score-hand via engines.run (parse, fan, waits), cold", lambda d: run("sichuan", "score-hand", d),
          sichuan_inputs, rounds=1, cold=True)
    timed("full score-hand via engines.run (parse, fan, waits), warm", lambda d: run("sichuan", "score-hand", d), sichuan_inputs)

    if importlib.util.find_spec("engines.taiwanese") is not None:
        print("Taiwanese (engines/taiwanese, 17-tile hands with honours)")
        tw_win: list[list[Tile]] = []
        tw_inputs: list[dict] = []
        attempts = 0
        while len(tw_win) < n and attempts < 20 * n:
            attempts += 1
            tiles = random_winning(rnd, 5, TILES)
            win = rnd.choice(tiles)
            how = rnd.choice(["discard", "self"])
            data = {"round_wind": "E", "dealer": "E", "streak": 0, "seat": "S", "flowers": [], "melds": [],
                    "concealed": format_tiles(tiles, sort=True), "flags": [],
                    "win": {"tile": str(win), "how": how, **({"discarder": "N"} if how == "discard" else {})}}
            try:
                run("taiwanese", "score", data)
            except RuleViolation:
                continue
            tw_win.append(tiles)
            tw_inputs.append(data)
        tw_counts = [counts34(t) for t in tw_win]
        tw_rand = [counts34(random_tiles(rnd, 17, TILES)) for _ in range(n)]
        timed("winning-hand check, winning hands, count array, cold cache", lambda c: core.is_winning_counts(c, 5),
              tw_counts, rounds=1, cold=True)
        timed("winning-hand check, winning hands, count array, warm", lambda c: core.is_winning_counts(c, 5), tw_counts)
        timed("winning-hand check, random 17 tiles, count array, warm", lambda c: core.is_winning_counts(c, 5), tw_rand)
        timed("full score via engines.run (parse, tai, payments, waits)", lambda d: run("taiwanese", "score", d), tw_inputs)
    else:
        print("Taiwanese: engines/taiwanese not present, skipped")

    try:
        from mahjong.agari import Agari
        from mahjong.hand_calculating.hand import HandCalculator
    except ImportError:
        print("mahjong PyPI package not installed: comparison skipped (.venv/bin/pip install mahjong; not a project requirement)")
        return 0
    from importlib.metadata import version

    print(f"mahjong PyPI package {version('mahjong')} (riichi), the same 14-tile hands")
    timed("Agari.is_agari, winning hands, count array", Agari.is_agari, win_counts)
    timed("Agari.is_agari, random 14 tiles, count array", Agari.is_agari, rand_counts)

    def to136(tiles: list[Tile]) -> list[int]:
        seen = [0] * 34
        out = []
        for t in sorted(tiles):
            out.append(t.index * 4 + seen[t.index])
            seen[t.index] += 1
        return out

    calc_items = []
    for tiles, data in zip(sichuan_win, sichuan_inputs, strict=True):
        win_index = next(t.index for t in TILES if str(t) == data["win"]["tile"])
        calc_items.append((to136(tiles), win_index * 4))
    timed("HandCalculator.estimate_hand_value (ron, default config)",
          lambda item: HandCalculator.estimate_hand_value(item[0], item[1]), calc_items[: max(200, n // 4)])
    return 0


if __name__ == "__main__":
    sys.exit(main())
