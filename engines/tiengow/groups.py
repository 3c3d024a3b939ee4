"""Tien Gow groups (what may be led) and their comparison (what beats what).

Rule source: the Tien Gow rule text ("Een beurt spelen") and docs/engines/tiengow.md:

- a single tile;
- a pair: two identical civil tiles (``civil`` 2) or two military tiles of equal total (``military`` 2);
- the Supreme: 2-4 + 1-2 (wins only when led; never beats and is never beaten);
- a mixed group of one family (Heaven-9, Earth-8, Man-7, Goose-5): one or two civil tiles of the
  family plus one or two military tiles of its total, two to four tiles in all (a four-tile one is a
  quartet).

A group beats the current high group when it has the same kind and the same civil/military counts
and a strictly better rank (equal rank loses). Ranks are 1 = strongest within the kind and counts.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from itertools import combinations
from typing import Any

from engines.i18n import _
from engines.tiengow.options import DEFAULT_OPTIONS, Options
from engines.tiengow.tiles import SUPREME, TILES, Family, Tile


class GroupKind(StrEnum):
    """What kind of group a play is."""

    SINGLE = "single"
    PAIR = "pair"
    SUPREME = "supreme"
    MIXED = "mixed"


@dataclass(frozen=True)
class Group:
    """A legal group.

    ``tiles``: tile codes as played; ``civil``/``military``: how many of each class; ``rank``: 1 =
    strongest among groups of the same kind and counts (``None`` for the Supreme, which is never
    compared); ``family``: for mixed groups.
    """

    kind: GroupKind
    tiles: tuple[str, ...]
    civil: int
    military: int
    rank: int | None
    family: Family | None = None

    @property
    def size(self) -> int:
        """Number of tiles (= columns won with it)."""
        return len(self.tiles)

    @property
    def is_quartet(self) -> bool:
        """A four-tile group (only a mixed 2 civil + 2 military group can have four tiles)."""
        return self.size == 4

    def to_json(self) -> dict[str, Any]:
        """``{"kind", "civil", "military", "rank", "family", "tiles"}``."""
        return {
            "kind": self.kind.value,
            "civil": self.civil,
            "military": self.military,
            "rank": self.rank,
            "family": self.family.value if self.family else None,
            "tiles": list(self.tiles),
        }


def tile_rank(tile: Tile, options: Options = DEFAULT_OPTIONS) -> int:
    """The tile's rank within its class (1 = strongest).

    Military tiles of equal total share a rank. Civil tiles of equal total share the better rank only
    with the rules option ``equal_totals_civil`` (default off: docs/engines/tiengow.md).
    """
    if tile.civil and options.equal_totals_civil:
        return min(t.rank for t in TILES.values() if t.civil and t.total == tile.total)
    return tile.rank


def identify(tiles: Sequence[Tile], options: Options = DEFAULT_OPTIONS) -> tuple[Group | None, str]:
    """The group ``tiles`` form, or ``(None, reason)`` with an English reason template (marked for
    translation, placeholders ``{count}``) when they form no group. Rule source: see module docstring.
    """
    codes = tuple(t.code for t in tiles)
    n = len(tiles)
    if n < 1 or n > 4:
        return None, _("A group has one to four tiles.")
    civil = [t for t in tiles if t.civil]
    military = [t for t in tiles if not t.civil]
    nc, nm = len(civil), len(military)
    if n == 1:
        return Group(GroupKind.SINGLE, codes, nc, nm, tile_rank(tiles[0], options)), ""
    if n == 2 and set(codes) == SUPREME:
        return Group(GroupKind.SUPREME, codes, 0, 2, None), ""
    if n == 2 and nc == 2:
        if civil[0].code == civil[1].code:
            return Group(GroupKind.PAIR, codes, 2, 0, tile_rank(civil[0], options)), ""
        return None, _("A civil pair needs two identical civil tiles.")
    if n == 2 and nm == 2:
        if military[0].total == military[1].total:
            return Group(GroupKind.PAIR, codes, 0, 2, tile_rank(military[0], options)), ""
        return None, _("A military pair needs two military tiles of the same total.")
    # mixed: one or two of each class, all of one family
    if nc not in (1, 2) or nm not in (1, 2):
        return None, _("A mixed group has one or two civil and one or two military tiles of one family.")
    families = {t.family for t in tiles}
    if len(families) != 1 or None in families:
        return None, _("A mixed group must be all of one family: Heaven-9, Earth-8, Man-7 or Goose-5.")
    family = families.pop()
    assert family is not None
    return Group(GroupKind.MIXED, codes, nc, nm, family.rank, family), ""


def beats(play: Group, current: Group) -> tuple[bool, str]:
    """Whether ``play`` beats the current high group ``current`` and, if not, why (reason template).

    Same kind, same civil and military counts, strictly better rank; the Supreme neither beats nor is
    beaten. Rule source: the Tien Gow rule text, docs/engines/tiengow.md.
    """
    if current.kind is GroupKind.SUPREME:
        return False, _("A led Supreme is never beaten.")
    if play.kind is GroupKind.SUPREME:
        return False, _("The Supreme only wins when led; it never beats another group.")
    if play.kind is not current.kind or play.civil != current.civil or play.military != current.military:
        return False, _("Only a group of the same kind with the same numbers of civil and military tiles can beat.")
    assert play.rank is not None and current.rank is not None
    if play.rank < current.rank:
        return True, ""
    if play.rank == current.rank:
        return False, _("An equal rank does not beat.")
    return False, _("The group ranks lower than the current high group.")


def legal_groups(hand: Sequence[Tile], size: int | None = None, options: Options = DEFAULT_OPTIONS) -> list[Group]:
    """Every distinct legal group in ``hand`` (optionally only of ``size`` tiles); used by the
    simulator and any hint UI. Tiles are taken as a multiset (two identical civil tiles are one choice)."""
    found: dict[tuple[str, ...], Group] = {}
    sizes = [size] if size is not None else [1, 2, 3, 4]
    for k in sizes:
        for combo in combinations(hand, k):
            key = tuple(sorted(t.code for t in combo))
            if key in found:
                continue
            group, _reason = identify(combo, options)
            if group is not None:
                found[key] = group
    return list(found.values())
