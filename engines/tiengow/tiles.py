"""The 32 Tien Gow tiles: civil and military classes, ranks, families, and parsing.

Rule source: the Tien Gow rule text ("Opstelling") and docs/engines/tiengow.md. A tile is written by its pips
``"low-high"`` (``"1-5"``); ``"high-low"`` is accepted and normalised. Civil tiles come in two
identical copies, military tiles in one. Copies are not distinguished: a :class:`Tile` is a kind.

Ranks are positions, 1 = strongest, within the tile's class:

- civil (high to low): 6-6 Heaven, 1-1 Earth, 4-4 Man, 1-3 Goose, 5-5 Plum, 3-3 Long Three,
  2-2 Bench, 5-6 Axe, 4-6 Partition, 1-6 Long Leg Seven, 1-5 Big Head Six ("Grote Kop Zes");
- military by pip total (equal totals are equal): 9s (4-5, 3-6) rank 1, 8s (3-5, 2-6) 2,
  7s (3-4, 2-5) 3, the Big Six 2-4 ("Grote Zes") 4, 5s (1-4, 2-3) 5, the Little Three 1-2 6.

Families (for mixed groups): Heaven-9, Earth-8, Man-7, Goose-5.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from engines.errors import Collector
from engines.i18n import _


class TileClass(StrEnum):
    """Civil (two copies, ranked by name) or military (one copy, ranked by pip total)."""

    CIVIL = "civil"
    MILITARY = "military"


class Family(StrEnum):
    """The four families a mixed group may come from; value order is strength order."""

    HEAVEN = "heaven"
    EARTH = "earth"
    MAN = "man"
    GOOSE = "goose"

    @property
    def rank(self) -> int:
        """1 (Heaven, strongest) .. 4 (Goose)."""
        return list(Family).index(self) + 1


@dataclass(frozen=True)
class Tile:
    """One tile kind.

    ``code``: ``"low-high"``; ``cls``: civil/military; ``rank``: 1 = strongest within the class;
    ``total``: pip total; ``copies``: 2 civil, 1 military; ``family``: the family it belongs to, if any.
    """

    code: str
    low: int
    high: int
    cls: TileClass
    rank: int
    copies: int
    family: Family | None

    @property
    def total(self) -> int:
        """Pip total (e.g. 9 for 4-5)."""
        return self.low + self.high

    @property
    def civil(self) -> bool:
        """True for a civil tile."""
        return self.cls is TileClass.CIVIL

    def __str__(self) -> str:
        return self.code


CIVIL_ORDER: tuple[str, ...] = ("6-6", "1-1", "4-4", "1-3", "5-5", "3-3", "2-2", "5-6", "4-6", "1-6", "1-5")
"""Civil tiles, strongest first (the Tien Gow rule text: Hemel .. Grote Kop Zes)."""

MILITARY_ORDER: tuple[str, ...] = ("4-5", "3-6", "3-5", "2-6", "3-4", "2-5", "2-4", "1-4", "2-3", "1-2")
"""Military tiles, strongest first; equal totals are equal (rank by total)."""

MILITARY_TOTALS: tuple[int, ...] = (9, 8, 7, 6, 5, 3)
"""Military totals, strongest first: the military rank is the position of the total here (1-based)."""

_FAMILY_CIVIL = {"6-6": Family.HEAVEN, "1-1": Family.EARTH, "4-4": Family.MAN, "1-3": Family.GOOSE}
_FAMILY_TOTAL = {9: Family.HEAVEN, 8: Family.EARTH, 7: Family.MAN, 5: Family.GOOSE}

SUPREME: frozenset[str] = frozenset({"2-4", "1-2"})
"""The Supreme pair: Big Six 2-4 + Little Three 1-2."""
BIG_SIX = "2-4"
LITTLE_THREE = "1-2"


def _build() -> dict[str, Tile]:
    table: dict[str, Tile] = {}
    for i, code in enumerate(CIVIL_ORDER):
        low, high = (int(p) for p in code.split("-"))
        table[code] = Tile(code, low, high, TileClass.CIVIL, i + 1, 2, _FAMILY_CIVIL.get(code))
    for code in MILITARY_ORDER:
        low, high = (int(p) for p in code.split("-"))
        total = low + high
        table[code] = Tile(code, low, high, TileClass.MILITARY, MILITARY_TOTALS.index(total) + 1, 1, _FAMILY_TOTAL.get(total))
    return table


TILES: dict[str, Tile] = _build()
"""Every tile kind by code (21 kinds, 32 tiles)."""

FULL_SET: Counter[str] = Counter({code: tile.copies for code, tile in TILES.items()})
"""The 32-tile set as a multiset of codes."""

_PATTERN = re.compile(r"^\s*([0-9])\s*-\s*([0-9])\s*$")


def normalise(code: Any) -> str | None:
    """``"5-1"`` / ``" 1-5 "`` -> ``"1-5"``; ``None`` when ``code`` is not a tile of the set."""
    if not isinstance(code, str):
        return None
    m = _PATTERN.match(code)
    if not m:
        return None
    a, b = sorted((int(m.group(1)), int(m.group(2))))
    key = f"{a}-{b}"
    return key if key in TILES else None


def parse_tile(code: Any, field: str, errors: Collector) -> Tile | None:
    """The :class:`Tile` written as ``code``, or ``None`` after adding a violation of ``field``.

    Rule source: docs/engines/tiengow.md (tiles by pips ``"low-high"``, pips 1..6).
    """
    key = normalise(code)
    if key is None:
        errors.add(field, _("Unknown tile {tile!r}: write a tile by its pips as \"low-high\", each 1 to 6 (e.g. \"1-5\")."), tile=code)
        return None
    return TILES[key]


def parse_tiles(raw: Any, field: str, errors: Collector, *, min_count: int = 1, max_count: int | None = None) -> list[Tile] | None:
    """Parse a JSON list of tile codes at ``field``; ``None`` if anything is wrong (violations added).

    Checks the count bounds and that no tile appears more often than it exists (2 civil, 1 military).
    """
    if not isinstance(raw, list):
        errors.add(field, _("Expected a list of tiles such as [\"6-6\", \"4-5\"]."))
        return None
    ok = True
    if len(raw) < min_count or (max_count is not None and len(raw) > max_count):
        ok = False
        if max_count is None:
            errors.add(field, _("Expected at least {low} tiles, got {count}."), low=min_count, count=len(raw))
        else:
            errors.add(field, _("Expected {low} to {high} tiles, got {count}."), low=min_count, high=max_count, count=len(raw))
    tiles: list[Tile] = []
    for i, code in enumerate(raw):
        tile = parse_tile(code, f"{field}[{i}]", errors)
        if tile is None:
            ok = False
        else:
            tiles.append(tile)
    if ok and not check_copies(tiles, field, errors):
        ok = False
    return tiles if ok else None


def check_copies(tiles: list[Tile], field: str, errors: Collector, *, already: Counter[str] | None = None) -> bool:
    """Add a violation (at ``field[i]`` of the first extra copy) for every tile used more often than it
    exists in the 32-tile set, counting ``already`` used copies too. Returns True when all is fine."""
    seen: Counter[str] = Counter(already or {})
    fine = True
    for i, tile in enumerate(tiles):
        seen[tile.code] += 1
        if seen[tile.code] > tile.copies:
            fine = False
            errors.add(
                f"{field}[{i}]",
                _("Too many copies of {tile}: the set has {copies} of it."),
                tile=tile.code, copies=tile.copies,
            )
    return fine
