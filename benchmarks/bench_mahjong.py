"""Mahjong engines against the ``mahjong`` PyPI package, on the same fresh hands (issue "Close to the
libraries' limits", item 5).

Run: ``.venv/bin/python benchmarks/bench_mahjong.py [--hands N] [--rounds R] [--seed S]``

The package is a benchmark-only tool, not a project requirement (``.venv/bin/pip install mahjong``);
without it our figures are printed alone, with a note.

Workloads (seeded, freshly generated; every hand is compact MPSZ text such as ``"123m456p11z"``,
which both sides parse, each with its own parser):

- ``score``: full Sichuan scoring of a winning 14-tile hand (no honours, one void suit, a discard
  win). Ours: ``engines.run("sichuan", "score-hand", ...)`` (parse, validation, every reading, fan,
  base, waits). Package: ``TilesConverter.one_line_string_to_136_array`` plus the winning tile's 136
  index, then ``HandCalculator.estimate_hand_value`` (ron, default config).
- ``check14-random`` / ``check14-winning``: is this a winning hand? 14 random tiles of the Sichuan set
  (108 numbered tiles) / winning 14-tile hands. Ours: ``parse_tiles`` + ``is_winning_counts`` (4 sets
  and a pair) or seven pairs. Package: ``one_line_string_to_34_array`` + ``Agari.is_agari``.
- ``check17-random`` / ``check17-winning``: the same for Taiwanese 17-tile hands from the 136 tiles
  with honours. Ours: 5 sets and a pair. Package: ``Agari.is_agari`` (it accepts any 3n+2 tiles).
- ``counts14-*`` / ``counts17-*``: the same checks from a 34-long count array (the same list given to
  both sides, built before timing), so without either parser: ours ``is_winning_counts`` (and seven
  pairs for 14 tiles), the package ``Agari.is_agari``.

How it is timed (CPU time of the process, ``time.process_time``, so that other work on a shared
machine does not count; the same number of hands on both sides):

- warm: in this process, a first pass over one set of hands, then the timed pass over a set of NEW
  hands (never a repeat), once per round, a new set each round; the best round is printed;
- cold: a fresh Python process (subprocess) per side and workload, which imports, reads a set of new
  hands and times its first pass over them (the import is not timed); the best of the rounds.

Each line: ours, the package, and the ratio ours / package (above 1: ours is faster). The agreement
line counts hands on which both checks give the same answer (the package also accepts thirteen
orphans, and seven pairs only as seven different pairs; 17-tile Taiwanese hands never count seven pairs).
"""
from __future__ import annotations

import argparse
import json
import platform
import random
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from readme_tables import Table  # noqa: E402  (benchmarks/, the script's own folder)

LABELS = {
    "score": "Sichuan score-hand, winning 14 tiles",
    "check14-random": "14-tile check from text, random tiles",
    "check14-winning": "14-tile check from text, winning tiles",
    "check17-random": "17-tile check from text, random tiles",
    "check17-winning": "17-tile check from text, winning tiles",
    "counts14-random": "14-tile check from counts, random",
    "counts14-winning": "14-tile check from counts, winning",
    "counts17-random": "17-tile check from counts, random",
    "counts17-winning": "17-tile check from counts, winning",
}
WORKLOADS = tuple(LABELS)


# ---------------------------------------------------------------------------------------------
# hands (text only, so that both sides start from the same input)

NUMBERED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONOURS = [f"{n}z" for n in range(1, 8)]


def compact(tiles: Sequence[str]) -> str:
    """Sorted compact MPSZ text: ``["1m", "2m", "5p"]`` -> ``"12m5p"``."""
    order = {t: i for i, t in enumerate(NUMBERED + HONOURS)}
    out, digits, suit = [], "", ""
    for tile in sorted(tiles, key=order.__getitem__):
        if tile[1] != suit and digits:
            out.append(digits + suit)
            digits = ""
        digits, suit = digits + tile[0], tile[1]
    return "".join(out) + digits + suit


def winning_tiles(rnd: random.Random, sets: int, kinds: Sequence[str]) -> list[str]:
    """A random winning hand: ``sets`` chows (60 %) or pungs plus a pair, at most four copies."""
    while True:
        tiles: list[str] = []
        for _ in range(sets):
            start = rnd.choice(kinds)
            n, s = int(start[0]), start[1]
            if s != "z" and n <= 7 and f"{n + 2}{s}" in kinds and rnd.random() < 0.6:
                tiles += [f"{n}{s}", f"{n + 1}{s}", f"{n + 2}{s}"]
            else:
                tiles += [start] * 3
        tiles += [rnd.choice(kinds)] * 2
        if max(tiles.count(t) for t in set(tiles)) <= 4:
            return tiles


def random_tiles(rnd: random.Random, size: int, kinds: Sequence[str]) -> list[str]:
    return rnd.sample([t for t in kinds for _ in range(4)], size)


def counts34(text: str) -> list[int]:
    """The 34-long count array of a compact MPSZ text (m 0-8, p 9-17, s 18-26, z 27-33)."""
    counts = [0] * 34
    offset = {"m": 0, "p": 9, "s": 18, "z": 27}
    digits = ""
    for ch in text:
        if ch.isdigit():
            digits += ch
        else:
            for d in digits:
                counts[offset[ch] + int(d) - 1] += 1
            digits = ""
    return counts


def make_set(workload: str, rnd: random.Random, n: int) -> list[Any]:
    """``n`` fresh hands of ``workload``: texts, or for ``score`` (text, winning tile, void suit)."""
    items: list[Any] = []
    while len(items) < n:
        if workload == "score":
            void = rnd.choice("mps")
            tiles = winning_tiles(rnd, 4, [t for t in NUMBERED if t[1] != void])
            items.append((compact(tiles), rnd.choice(tiles), void))
        elif workload.startswith("counts"):
            items.extend(counts34(text) for text in make_set("check" + workload[6:], rnd, n - len(items)))
        elif workload == "check14-random":
            void = rnd.choice("mps")
            items.append(compact(random_tiles(rnd, 14, [t for t in NUMBERED if t[1] != void])))
        elif workload == "check14-winning":
            items.append(compact(winning_tiles(rnd, 4, NUMBERED)))
        elif workload == "check17-random":
            items.append(compact(random_tiles(rnd, 17, NUMBERED + HONOURS)))
        else:
            items.append(compact(winning_tiles(rnd, 5, NUMBERED + HONOURS)))
    return items


# ---------------------------------------------------------------------------------------------
# the two sides (imports inside, so that a cold child process imports only its own side)

def ours(workload: str) -> Callable[[Any], object]:
    """Our function for ``workload``."""
    from engines import commands, run
    from engines.mahjong.hand import is_seven_pairs_counts, is_winning_counts
    from engines.mahjong.tiles import KIND_COUNT, parse_tiles

    if workload == "score":
        commands("sichuan")  # import the engine now, not in the first timed call
        def score(item: tuple[str, str, str]) -> object:
            text, tile, void = item
            return run("sichuan", "score-hand", {"void": void, "melds": [], "concealed": text,
                                                  "win": {"tile": tile, "how": "discard"}})
        return score
    sets = 4 if "14" in workload else 5
    if workload.startswith("counts"):
        def check_counts(counts: list[int]) -> bool:
            return is_winning_counts(counts, sets) or (sets == 4 and is_seven_pairs_counts(counts))
        return check_counts

    def check(text: str) -> bool:
        counts = [0] * KIND_COUNT
        for tile in parse_tiles(text, "tiles", honours=True):
            counts[tile.index] += 1
        return is_winning_counts(counts, sets) or (sets == 4 and is_seven_pairs_counts(counts))
    return check


def package(workload: str) -> Callable[[Any], object]:
    """The ``mahjong`` package's function for ``workload`` (ImportError when not installed)."""
    from mahjong.agari import Agari
    from mahjong.hand_calculating.hand import HandCalculator
    from mahjong.tile import TilesConverter

    if workload == "score":
        def score(item: tuple[str, str, str]) -> object:
            text, tile, _void = item
            tiles = TilesConverter.one_line_string_to_136_array(text)
            win = TilesConverter.find_34_tile_in_136_array(TilesConverter.one_line_string_to_34_array(tile).index(1), tiles)
            return HandCalculator.estimate_hand_value(tiles, win)
        return score

    if workload.startswith("counts"):
        return Agari.is_agari

    def check(text: str) -> bool:
        return Agari.is_agari(TilesConverter.one_line_string_to_34_array(text))
    return check


def rate(fn: Callable[[Any], object], items: Sequence[Any]) -> float:
    """Items per CPU second of one pass."""
    start = time.process_time()
    for item in items:
        fn(item)
    return len(items) / (time.process_time() - start)


def child(side: str, workload: str, path: str) -> int:
    """Cold run in a fresh process: import, read the hands, time the first pass; print the rate."""
    fn = ours(workload) if side == "ours" else package(workload)
    items = json.loads(Path(path).read_text())
    print(rate(fn, items))
    return 0


def cold(side: str, workload: str, items: list[Any], tmp: Path) -> float:
    path = tmp / f"{side}-{workload}.json"
    path.write_text(json.dumps(items))
    out = subprocess.run([sys.executable, __file__, "--child", side, workload, str(path)],
                         capture_output=True, text=True, check=True, cwd=ROOT)
    return float(out.stdout.strip())


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=2000,
                        help="hands per set, the same on both sides (default 2000; ten times as many for the checks)")
    parser.add_argument("--rounds", type=int, default=3, help="timed warm passes and cold processes per side (default 3)")
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--only", default=",".join(WORKLOADS), help="comma-separated workloads")
    parser.add_argument("--child", nargs=3, metavar=("SIDE", "WORKLOAD", "FILE"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.child:
        return child(*args.child)
    try:
        from importlib.metadata import version

        package("score")
        pkg = f"mahjong {version('mahjong')}"
    except ImportError:
        pkg = None
    rnd = random.Random(args.seed)
    n, rounds = args.hands, args.rounds
    print(f"Python {platform.python_version()} on {platform.machine()}; fresh hands per set, the same on both sides: "
          f"{n} to score, {10 * n} to check; warm: best of {rounds} passes over new hands after a first pass; "
          f"cold: best of {rounds} fresh processes")
    print(f"baseline: {pkg} (PyPI)" if pkg else
          "baseline: the mahjong package is not installed, package side skipped (.venv/bin/pip install mahjong; "
          "it is not a project requirement)")
    theirs = pkg or "package"
    table = Table("mahjong", ["figure", f"warm: ours / {theirs}", "ratio", f"cold: ours / {theirs}", "ratio",
                              "same answer"])
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        for workload in args.only.split(","):
            size = n if workload == "score" else 10 * n  # a check takes microseconds: more hands per pass
            warm_up = make_set(workload, rnd, size)
            warm_sets = [make_set(workload, rnd, size) for _ in range(rounds)]
            cold_sets = [make_set(workload, rnd, size) for _ in range(rounds)]
            sides = {"ours": ours(workload)}
            if pkg:
                sides["package"] = package(workload)
            for fn in sides.values():
                for item in warm_up:
                    fn(item)
            warm = {side: 0.0 for side in sides}
            for items in warm_sets:
                for side, fn in sides.items():
                    warm[side] = max(warm[side], rate(fn, items))
            cold_rate = {side: 0.0 for side in sides}
            for items in cold_sets:
                for side in sides:
                    cold_rate[side] = max(cold_rate[side], cold(side, workload, items, tmp))
            for label, figures in (("warm", warm), ("cold", cold_rate)):
                line = f"  {LABELS[workload]:<38} {label}  ours {figures['ours']:>10,.0f} /s"
                if pkg:
                    line += f"   package {figures['package']:>10,.0f} /s   ratio {figures['ours'] / figures['package']:5.2f}"
                print(line)
            agreed = "not compared (different scoring rules)" if workload == "score" else "no package"
            if pkg and workload != "score":
                same = sum(sides["ours"](t) == sides["package"](t) for t in warm_sets[0])
                winning = sum(bool(sides["ours"](t)) for t in warm_sets[0])
                print(f"  {'':<38}       same answer on {same} of {size} hands (ours: {winning} winning)")
                agreed = f"{same:,} of {size:,}"
            cells = []
            for figures in (warm, cold_rate):
                if pkg:
                    cells += [f"{figures['ours']:,.0f} / {figures['package']:,.0f} per s",
                              f"{figures['ours'] / figures['package']:.2f}"]
                else:
                    cells += [f"{figures['ours']:,.0f} per s / not installed", "-"]
            table.row(f"{LABELS[workload]} ({size:,} a set, best of {rounds})", *cells, agreed)
    table.print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
