"""Declared melds: ``"pung 111m claimed"``, ``"kong 5555p exposed|concealed|added"``,
``"chow 123m claimed"`` (docs/engines/sichuan.md and taiwanese.md).

A meld is one set whatever its size: a kong holds four tiles but counts as one of the sets of
the hand. Whether a kind of meld is allowed in a game (Sichuan has no chows) is the game
engine's check; this module checks only the physical shape.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from engines.errors import Collector, RuleViolation
from engines.i18n import _
from engines.mahjong.tiles import Tile, format_tiles, parse_tiles

__all__ = ["ALLOWED_EXPOSURES", "Exposure", "Meld", "MeldKind", "parse_meld", "parse_melds"]


class MeldKind(StrEnum):
    """The kind of a set: ``chow`` (three in a row), ``pung`` (three equal), ``kong`` (four equal)."""

    chow = "chow"
    pung = "pung"
    kong = "kong"

    def __str__(self) -> str:
        return self.value


class Exposure(StrEnum):
    """How a meld was made: ``claimed`` (chow/pung on a discard), ``exposed`` (kong on a discard),
    ``concealed`` (kong of four drawn tiles), ``added`` (a drawn fourth tile added to a pung)."""

    claimed = "claimed"
    exposed = "exposed"
    concealed = "concealed"
    added = "added"

    def __str__(self) -> str:
        return self.value


ALLOWED_EXPOSURES: dict[MeldKind, tuple[Exposure, ...]] = {
    MeldKind.chow: (Exposure.claimed,),
    MeldKind.pung: (Exposure.claimed,),
    MeldKind.kong: (Exposure.exposed, Exposure.concealed, Exposure.added),
}
"""Which exposures each meld kind can have."""

_DEFAULT_EXPOSURE = {MeldKind.chow: Exposure.claimed, MeldKind.pung: Exposure.claimed}


@dataclass(frozen=True, slots=True)
class Meld:
    """A declared set: ``kind``, ``tiles`` (sorted tuple of 3 or 4 tiles) and ``exposure``."""

    kind: MeldKind
    tiles: tuple[Tile, ...]
    exposure: Exposure

    @property
    def is_concealed(self) -> bool:
        """True for a concealed kong (the only concealed declared meld)."""
        return self.exposure is Exposure.concealed

    @property
    def tile(self) -> Tile:
        """The lowest tile (the pung/kong tile, or the start of a chow)."""
        return self.tiles[0]

    def __str__(self) -> str:
        return f"{self.kind.value} {format_tiles(self.tiles)} {self.exposure.value}"


def parse_meld(text: str, field: str, *, honours: bool) -> Meld:
    """Parse ``"KIND TILES [EXPOSURE]"``, e.g. ``"pung 111m claimed"``, ``"kong 5555p concealed"``.

    ``KIND``: chow, pung or kong. ``TILES``: MPSZ tiles (``111m``, ``1m 1m 1m``). ``EXPOSURE``:
    claimed for a chow or pung (the default), exposed, concealed or added for a kong (required).
    Checks: a pung is 3 equal tiles, a kong 4, a chow 3 consecutive tiles of one numbered suit.
    Raises :class:`RuleViolation` (field ``field``) listing every problem.
    """
    errors = Collector()
    if not isinstance(text, str) or not text.strip():
        errors.add(field, _("A meld must be written like \"pung 111m claimed\" or \"kong 5555p concealed\"."))
        errors.raise_if_any()
    words = text.strip().lower().split()
    try:
        kind = MeldKind(words[0])
    except ValueError:
        errors.add(field, _("Unknown meld kind {kind!r}: use chow, pung or kong (e.g. \"pung 111m claimed\")."), kind=words[0])
        errors.raise_if_any()
    exposure: Exposure | None = None
    rest = words[1:]
    if rest and rest[-1] in Exposure.__members__:
        exposure = Exposure(rest[-1])
        rest = rest[:-1]
    if exposure is None:
        exposure = _DEFAULT_EXPOSURE.get(kind)
        if exposure is None:
            errors.add(field, _("Say how the kong was made: exposed, concealed or added (e.g. \"kong 5555p concealed\")."))
    elif exposure not in ALLOWED_EXPOSURES[kind]:
        errors.add(field, _("A {kind} cannot be {exposure}; allowed: {allowed}."), kind=kind.value,
                   exposure=exposure.value, allowed=", ".join(e.value for e in ALLOWED_EXPOSURES[kind]))
    tiles: list[Tile] = []
    if not rest:
        errors.add(field, _("The meld {text!r} has no tiles."), text=text)
    else:
        try:
            tiles = parse_tiles(" ".join(rest), field, honours=honours)
        except RuleViolation as exc:
            errors.extend(exc)
    if tiles:
        tiles.sort()
        size = 4 if kind is MeldKind.kong else 3
        if len(tiles) != size:
            errors.add(field, _("A {kind} has {size} tiles, not {count}: {tiles}."), kind=kind.value, size=size,
                       count=len(tiles), tiles=format_tiles(tiles))
        elif kind is MeldKind.chow:
            a, b, c = tiles
            if a.is_honour or not (a.suit is b.suit is c.suit and b.number == a.number + 1 and c.number == a.number + 2):
                errors.add(field, _("A chow is three consecutive tiles of one numbered suit, not {tiles}."),
                           tiles=format_tiles(tiles))
        elif any(t != tiles[0] for t in tiles):
            errors.add(field, _("A {kind} is {size} equal tiles, not {tiles}."), kind=kind.value, size=size,
                       tiles=format_tiles(tiles))
    errors.raise_if_any()
    return Meld(kind, tuple(tiles), exposure)  # type: ignore[arg-type]


def parse_melds(items: object, field: str, *, honours: bool) -> list[Meld]:
    """Parse a list of meld strings (field of item *i* is ``f"{field}[{i}]"``); ``None`` is no melds.

    Raises :class:`RuleViolation` listing every problem of every meld.
    """
    errors = Collector()
    if items is None:
        return []
    if not isinstance(items, list):
        errors.add(field, _("Melds must be a list such as [\"pung 111m claimed\"]."))
        errors.raise_if_any()
    melds: list[Meld] = []
    for i, item in enumerate(items):  # type: ignore[union-attr]
        try:
            melds.append(parse_meld(item, f"{field}[{i}]", honours=honours))
        except RuleViolation as exc:
            errors.extend(exc)
    errors.raise_if_any()
    return melds
