"""Tien Gow engine speed: the ``check`` command (is a play legal, does it beat the current high
group) on every follower's play of freshly generated deals, next to a minimal plain-Python
comparison of the same plays. (Before issue 13 it printed deal, settle and check rates without a
baseline; ``make bench`` prints every figure next to its baseline, so only the comparison is left.)

Run: ``.venv/bin/python benchmarks/bench_tiengow.py [--deals N] [--seed S]``

The deals come from the random legal player (:mod:`engines.tiengow.simulate`; not timed). For every trick, each follower's tiles are checked against the high group
in force when they play (the lead, or the last group that beat it), as the entry form's rules
check asks the engine. Times are process CPU times, best of 3 interleaved runs
(``benchmarks/_common.py``), the baseline measured in the same run on the same inputs.

- ours: ``engines.run("tiengow", "check", ...)``: rules resolved, every tile code validated and
  normalised, copies counted, both groups identified (:func:`engines.tiengow.groups.identify`),
  compared (:func:`engines.tiengow.groups.beats`), the answer as JSON with the reason.
- baseline: :func:`plain_check`, the same comparison written straight: canonical codes looked up
  in plain dicts (no validation, no options, no reasons, a tuple per group). It gives the same
  ``legal`` and ``beats`` on every input (checked before timing), so ours / baseline says what
  validation, options and the readable answer cost.
"""
from __future__ import annotations

import argparse
import random
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from _common import compare, fmt, report  # noqa: E402
from readme_tables import Table  # noqa: E402

from engines import run  # noqa: E402
from engines.tiengow.groups import GroupKind, beats, identify  # noqa: E402
from engines.tiengow.simulate import random_deal  # noqa: E402
from engines.tiengow.tiles import CIVIL_ORDER, MILITARY_ORDER, MILITARY_TOTALS, TILES  # noqa: E402

# --------------------------------------------------------------------------- the baseline

#: Civil tiles: rank (1 = strongest, the rule text's order); military tiles: rank by total.
CIVIL_RANK = {code: i + 1 for i, code in enumerate(CIVIL_ORDER)}
TOTAL = {code: int(code[0]) + int(code[2]) for code in (*CIVIL_ORDER, *MILITARY_ORDER)}
MILITARY_RANK = {code: MILITARY_TOTALS.index(TOTAL[code]) + 1 for code in MILITARY_ORDER}
#: Families of mixed groups (Heaven 1 .. Goose 4): by civil tile, by military total.
FAMILY_OF_CIVIL = {"6-6": 1, "1-1": 2, "4-4": 3, "1-3": 4}
FAMILY_OF_TOTAL = {9: 1, 8: 2, 7: 3, 5: 4}


def plain_group(codes: list[str]) -> tuple | None:
    """``(kind, civil, military, rank)`` of the group ``codes`` form, ``None`` if none."""
    n = len(codes)
    if not 1 <= n <= 4:
        return None
    civil = [c for c in codes if c in CIVIL_RANK]
    military = [c for c in codes if c not in CIVIL_RANK]
    nc, nm = len(civil), len(military)
    if n == 1:
        return ("single", nc, nm, CIVIL_RANK[codes[0]] if nc else MILITARY_RANK[codes[0]])
    if n == 2 and {codes[0], codes[1]} == {"2-4", "1-2"}:
        return ("supreme", 0, 2, 0)
    if n == 2 and nc == 2:
        return ("pair", 2, 0, CIVIL_RANK[civil[0]]) if civil[0] == civil[1] else None
    if n == 2 and nm == 2:
        return ("pair", 0, 2, MILITARY_RANK[military[0]]) if TOTAL[military[0]] == TOTAL[military[1]] else None
    if nc not in (1, 2) or nm not in (1, 2):
        return None
    families = {FAMILY_OF_CIVIL.get(c) for c in civil} | {FAMILY_OF_TOTAL.get(TOTAL[m]) for m in military}
    if len(families) != 1 or None in families:
        return None
    return ("mixed", nc, nm, families.pop())


def plain_check(current: list[str], play: list[str]) -> tuple[bool, bool]:
    """``(legal, beats)`` of ``play`` against the high group ``current`` (a follower's play)."""
    if len(play) != len(current):
        return False, False
    ours, theirs = plain_group(play), plain_group(current)
    if ours is None or theirs is None or ours[0] == "supreme" or theirs[0] == "supreme":
        return True, False
    return True, ours[:3] == theirs[:3] and ours[3] < theirs[3]


# --------------------------------------------------------------------------- inputs


def follower_checks(deals) -> list[dict]:
    """``{"current", "play"}`` for every follower's play of ``deals``: the high group in force
    when the follower plays and the tiles they play (face up or down)."""
    out = []
    for sim in deals:
        for trick in sim.record["tricks"]:
            lead, *follow = trick["plays"]
            current = list(lead["tiles"])
            for p in follow:
                out.append({"current": current, "play": list(p["tiles"])})
                group, _ = identify([TILES[c] for c in p["tiles"]])
                high, _ = identify([TILES[c] for c in current])
                if group is not None and group.kind is not GroupKind.SUPREME and beats(group, high)[0]:
                    current = list(p["tiles"])
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--deals", type=int, default=500)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    deals = [random_deal(rng) for _ in range(args.deals)]
    checks = follower_checks(deals)

    answers = [run("tiengow", "check", c) for c in checks]
    same = sum((a["legal"], a["beats"]) == plain_check(c["current"], c["play"]) for a, c in zip(answers, checks, strict=True))
    beating = sum(a["beats"] for a in answers)
    print(f"Tien Gow: {args.deals} fresh deals (seed {args.seed}), {len(checks)} follower plays checked, "
          f"{beating} of them beat; same legal/beats answer as the baseline on {same} of {len(checks)}")
    if same != len(checks):
        print("FAIL: the engine and the baseline disagree")
        return 1

    def ours():
        for c in checks:
            run("tiengow", "check", c)

    def plain():
        for c in checks:
            plain_check(c["current"], c["play"])

    mine, base = compare(ours, plain)
    report(f"check command, {len(checks)} follower plays", mine, base, "minimal plain comparison")
    print(f"  = {len(checks) / mine:,.0f} checks/s against {len(checks) / base:,.0f} checks/s")
    table = Table("tiengow", ["figure", "ours", "baseline", "ratio", "same legal/beats answer"])
    table.row(f"`check`, {len(checks):,} follower plays of {args.deals} deals",
              f"{fmt(mine)} ({len(checks) / mine:,.0f} checks/s)", f"{fmt(base)} ({len(checks) / base:,.0f} checks/s)",
              f"{mine / base:.2f}x", f"{same:,} of {len(checks):,}")
    table.print()

    return 0


if __name__ == "__main__":
    sys.exit(main())
