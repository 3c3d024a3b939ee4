"""Mahjong tiles in MPSZ notation, shared by the Sichuan and Taiwanese engines (docs/engines/sichuan.md and taiwanese.md).

``1m``..``9m`` characters, ``1p``..``9p`` dots, ``1s``..``9s`` bamboo and, where the game has
them, ``1z``..``7z`` honours (East, South, West, North, White, Green, Red). A hand string groups
tiles: ``"123m 456m 55p"``; ``"11223344556677m"`` and ``"123m456p"`` are also accepted.

Every tile kind has an ``index`` 0..33 (m 0-8, p 9-17, s 18-26, z 27-33) used for count arrays.
"""
from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from engines.errors import Collector, RuleViolation, Violation
from engines.i18n import _

__all__ = [
    "HONOUR_NAMES",
    "KIND_COUNT",
    "SUIT_OFFSET",
    "Suit",
    "TILE_KINDS",
    "TILES",
    "Tile",
    "format_tiles",
    "parse_tile",
    "parse_tiles",
]


class Suit(StrEnum):
    """A tile suit: ``m`` characters, ``p`` dots, ``s`` bamboo, ``z`` honours."""

    m = "m"
    p = "p"
    s = "s"
    z = "z"

    @property
    def is_honour(self) -> bool:
        """True for the honour suit ``z``."""
        return self is Suit.z

    @property
    def size(self) -> int:
        """Number of tile kinds in the suit (9, or 7 for honours)."""
        return 7 if self is Suit.z else 9

    def __str__(self) -> str:
        return self.value


SUIT_OFFSET: dict[Suit, int] = {Suit.m: 0, Suit.p: 9, Suit.s: 18, Suit.z: 27}
"""Index of the suit's tile ``1`` in a 34-long count array."""

KIND_COUNT = 34
"""Number of tile kinds with honours (27 without)."""

HONOUR_NAMES = {1: "East", 2: "South", 3: "West", 4: "North", 5: "White", 6: "Green", 7: "Red"}
"""English names of the honour tiles ``1z``..``7z``."""


@dataclass(frozen=True, eq=False, slots=True, repr=False)
class Tile:
    """One tile kind: ``suit`` and ``number`` (1-9; 1-7 for honours). ``str(Tile(Suit.p, 5)) == "5p"``.

    ``index`` is the tile's position 0..33 in a count array. Tiles compare in the order
    m, p, s, z, then number (that is, by ``index``; equality and hashing go by ``index`` too).
    Raises ``ValueError`` for an impossible suit/number (a programming error; user input goes
    through :func:`parse_tiles`, which raises ``RuleViolation``).
    """

    suit: Suit
    number: int
    index: int = field(init=False, compare=False, repr=False, hash=False)
    text: str = field(init=False, compare=False, repr=False, hash=False)

    def __post_init__(self) -> None:
        suit = Suit(self.suit)
        if not isinstance(self.number, int) or not 1 <= self.number <= suit.size:
            raise ValueError(f"no tile {self.number}{suit.value}")
        object.__setattr__(self, "suit", suit)
        object.__setattr__(self, "index", SUIT_OFFSET[suit] + self.number - 1)
        object.__setattr__(self, "text", f"{self.number}{suit.value}")

    def __str__(self) -> str:
        return self.text

    def __repr__(self) -> str:
        return f"Tile({self.text})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, Tile):
            return self.index == other.index
        return NotImplemented

    def __hash__(self) -> int:
        return self.index

    def __lt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.index < other.index
        return NotImplemented

    def __le__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.index <= other.index
        return NotImplemented

    def __gt__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.index > other.index
        return NotImplemented

    def __ge__(self, other: Tile) -> bool:
        if isinstance(other, Tile):
            return self.index >= other.index
        return NotImplemented

    @property
    def is_honour(self) -> bool:
        """True for ``1z``..``7z``."""
        return self.index >= 27

    @property
    def is_terminal(self) -> bool:
        """True for a 1 or 9 of a numbered suit."""
        return self.index < 27 and self.number in (1, 9)

    @property
    def is_terminal_or_honour(self) -> bool:
        """True for a 1, a 9 or an honour."""
        return self.index >= 27 or self.number in (1, 9)

    @staticmethod
    def from_index(index: int) -> Tile:
        """The tile kind at ``index`` 0..33."""
        return TILES[index]


TILES: tuple[Tile, ...] = tuple(Tile(suit, n) for suit in Suit for n in range(1, suit.size + 1))
"""All 34 tile kinds in index order."""

_BY_TEXT: dict[str, Tile] = {str(t): t for t in TILES}


def TILE_KINDS(honours: bool) -> list[Tile]:  # noqa: N802 - agreed public name
    """Every tile kind of the game in index order: 27 numbered kinds, plus 7 honours if ``honours``."""
    return list(TILES if honours else TILES[:27])


_GROUP = re.compile(r"(\d+)([a-z])")
_TOKEN = re.compile(r"^(?:\d+[a-z])+$")
_SPLIT = re.compile(r"[\s,;]+")


def parse_tiles(text: str, field: str, *, honours: bool) -> list[Tile]:
    """Parse an MPSZ tile string into tiles, in written order.

    ``text``: groups of digits followed by a suit letter, separated by spaces or commas
    (``"123m 456m 55p"``, ``"11223344556677m"``, ``"5p"``); upper case is accepted. ``field``: the
    input field path used in violations. ``honours``: whether ``1z``..``7z`` are allowed.
    Raises :class:`RuleViolation` listing every unknown tile / honour not allowed.
    """
    errors = Collector()
    if not isinstance(text, str):
        errors.add(field, _("Tiles must be written as text, e.g. \"123m 456p 55s\"."))
        errors.raise_if_any()
    tiles: list[Tile] = []
    cache = _PARSED[honours]
    for token in _SPLIT.split(text.strip().lower()):
        if not token:
            continue
        known = cache.get(token)
        if known is None:
            known = _well_formed(token, honours)
            if known is not None and len(cache) < _PARSED_LIMIT:
                cache[token] = known
        if known is not None:
            tiles += known
            continue
        if not _TOKEN.match(token):
            errors.add(field, _("Unknown tile {tile!r}: write tiles as digits followed by a suit letter, e.g. 123m 5p (m characters, p dots, s bamboo)."), tile=token)
            continue
        parsed: list[Tile] = []
        for digits, suit in _GROUP.findall(token):
            for digit in digits:
                name = digit + suit
                tile = _BY_TEXT.get(name)
                if tile is None:
                    if suit == "z" and not honours:
                        errors.add(field, _("Unknown tile {tile!r}: this game has no honour tiles."), tile=name)
                    else:
                        errors.add(field, _("Unknown tile {tile!r}."), tile=name)
                elif tile.is_honour and not honours:
                    errors.add(field, _("Honour tiles are not allowed in this game: {tile}."), tile=name)
                else:
                    parsed.append(tile)
        tiles += parsed
    errors.raise_if_any()
    return tiles


# Memo of well-formed tokens ("123m" -> tiles), one per honours setting.
_PARSED: tuple[dict[str, tuple[Tile, ...]], dict[str, tuple[Tile, ...]]] = ({}, {})
_PARSED_LIMIT = 4096

# Digit -> tile, per suit letter (no "0", no honours 8 and 9).
_DIGITS: dict[str, dict[str, Tile]] = {
    suit.value: {str(t.number): t for t in TILES if t.suit is suit} for suit in Suit
}


def _well_formed(token: str, honours: bool) -> tuple[Tile, ...] | None:
    """The tiles of a token such as ``"1123m456p"`` when every tile in it exists (and honours are
    allowed if present); None otherwise (the caller then reports what is wrong)."""
    if not _TOKEN.match(token):
        return None
    out: list[Tile] = []
    for digits, suit in _GROUP.findall(token):
        if suit == "z" and not honours:
            return None
        table = _DIGITS.get(suit)
        if table is None:
            return None
        try:
            out += [table[d] for d in digits]
        except KeyError:
            return None
    return tuple(out)


def parse_tile(text: str, field: str, *, honours: bool) -> Tile:
    """Parse exactly one tile (``"5p"``); raises :class:`RuleViolation` otherwise."""
    if isinstance(text, str):
        tile = _BY_TEXT.get(text.strip().lower())
        if tile is not None and (honours or not tile.is_honour):
            return tile
    tiles = parse_tiles(text, field, honours=honours)
    if len(tiles) != 1:
        raise RuleViolation([Violation(field, _("Give exactly one tile here, e.g. 5p; got {text!r}."), {"text": text})])
    return tiles[0]


def format_tiles(tiles: Iterable[Tile], *, sort: bool = False) -> str:
    """MPSZ text of ``tiles``: runs of one suit share the suit letter (``[1m, 2m, 3m, 5p]`` ->
    ``"123m 5p"``). ``sort=True`` sorts first (one group per suit)."""
    items = sorted(tiles, key=_by_index) if sort else tiles
    out: list[str] = []
    digits = ""
    letter = ""
    for tile in items:
        text = tile.text
        if text[1] != letter:
            if digits:
                out.append(digits + letter)
            digits = ""
            letter = text[1]
        digits += text[0]
    if digits:
        out.append(digits + letter)
    return " ".join(out)


def _by_index(tile: Tile) -> int:
    return tile.index
