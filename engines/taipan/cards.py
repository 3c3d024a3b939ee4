"""The 56-card Tai Pan deck in docs/engines/taipan.md notation, and card parsing.

Codes: rank ``2``..``10``, ``J``, ``Q``, ``K``, ``A`` followed by a suit letter ``j`` (jade),
``s`` (swords), ``p`` (pagodas), ``t`` (stars), e.g. ``10s``, ``Kj``; specials ``Mahjong``,
``Dog``, ``Phoenix``, ``Dragon``. Ranks are numbers: Mahjong 1, 2..10, J 11, Q 12, K 13, A 14,
Dragon 15. Card points (NSKT rules, "Punten"): every 5 is worth 5, every 10 and King 10, the Dragon
25, the Phoenix -25; the deck totals 100.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Any

from engines.errors import Collector
from engines.i18n import _

SUITS: tuple[str, ...] = ("j", "s", "p", "t")
RANK_NAMES: dict[int, str] = {**{r: str(r) for r in range(2, 11)}, 11: "J", 12: "Q", 13: "K", 14: "A"}
NAME_RANKS: dict[str, int] = {name: rank for rank, name in RANK_NAMES.items()}
MAHJONG_RANK = 1
DRAGON_RANK = 15
ACE_RANK = 14


class Kind(enum.Enum):
    """What sort of card: an ordinary suited card or one of the four specials."""

    NORMAL = "normal"
    MAHJONG = "Mahjong"
    DOG = "Dog"
    PHOENIX = "Phoenix"
    DRAGON = "Dragon"


@dataclass(frozen=True, eq=False, slots=True)
class Card:
    """One card. ``rank``: 2..14 for suited cards, 1 Mahjong, 15 Dragon, 0 Dog and Phoenix (the
    Phoenix's value depends on the play). ``suit``: one of :data:`SUITS`, or ``""`` for a special card.
    ``index``: position in :data:`DECK` (cards sort by rank, then suit; specials after).
    ``is_normal``: a suited card (2..A). ``points``: card points (NSKT rules, "Punten": 5 -> 5,
    10 and K -> 10, Dragon 25, Phoenix -25, others 0). Both are computed once, as plain attributes.

    There is exactly one object per card (:data:`DECK`), so equality and hashing are by identity.
    """

    rank: int
    suit: str
    code: str
    kind: Kind
    index: int = 0
    is_normal: bool = field(init=False)
    points: int = field(init=False)

    def __post_init__(self) -> None:
        normal = self.kind is Kind.NORMAL
        object.__setattr__(self, "is_normal", normal)
        object.__setattr__(self, "points", _card_points(self.kind, self.rank))

    def __lt__(self, other: Card) -> bool:
        return self.index < other.index

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Card({self.code})"


def _card_points(kind: Kind, rank: int) -> int:
    """Card points of a card of ``kind`` and ``rank`` (NSKT rules, "Punten")."""
    if kind is Kind.DRAGON:
        return 25
    if kind is Kind.PHOENIX:
        return -25
    if kind is Kind.NORMAL and rank == 5:
        return 5
    if kind is Kind.NORMAL and rank in (10, 13):
        return 10
    return 0


def _build_deck() -> tuple[Card, ...]:
    specs = [(rank, suit, RANK_NAMES[rank] + suit, Kind.NORMAL) for rank in range(2, 15) for suit in SUITS]
    specs += [
        (MAHJONG_RANK, "", "Mahjong", Kind.MAHJONG),
        (0, "", "Dog", Kind.DOG),
        (0, "", "Phoenix", Kind.PHOENIX),
        (DRAGON_RANK, "", "Dragon", Kind.DRAGON),
    ]
    return tuple(Card(*spec, index=i) for i, spec in enumerate(specs))


DECK: tuple[Card, ...] = _build_deck()
BY_CODE: dict[str, Card] = {card.code: card for card in DECK}
MAHJONG = BY_CODE["Mahjong"]
DOG = BY_CODE["Dog"]
PHOENIX = BY_CODE["Phoenix"]
DRAGON = BY_CODE["Dragon"]


def card(code: str) -> Card:
    """The card with ``code``; raises KeyError for an unknown code (use :func:`parse_cards` on input)."""
    return BY_CODE[code]


def cards(codes: str | list[str]) -> list[Card]:
    """Convenience for code and tests: ``cards("3s 4j Phoenix")`` -> list of cards (KeyError if unknown)."""
    if isinstance(codes, str):
        codes = codes.split()
    return [BY_CODE[c] for c in codes]


def parse_cards(raw: Any, field: str, errors: Collector, *, allow_empty: bool = True) -> list[Card] | None:
    """Parse a JSON list of card codes into cards, recording problems in ``errors``.

    Unknown codes are reported as ``{field}[i]``, a duplicate card as ``{field}[i]`` too, a
    non-list as ``{field}``. Returns the cards, or ``None`` when anything was wrong.
    """
    if not isinstance(raw, list):
        errors.add(field, _("Cards must be a list of card codes such as \"10s\", \"Kj\" or \"Phoenix\"."))
        return None
    out: list[Card] = []
    seen: set[str] = set()
    ok = True
    for i, code in enumerate(raw):
        if not isinstance(code, str) or code not in BY_CODE:
            errors.add(f"{field}[{i}]", _("Unknown card {code!r}."), code=code)
            ok = False
            continue
        if code in seen:
            errors.add(f"{field}[{i}]", _("The card {code} appears twice."), code=code)
            ok = False
            continue
        seen.add(code)
        out.append(BY_CODE[code])
    if not out and not allow_empty and ok:
        errors.add(field, _("At least one card is needed."))
        ok = False
    return out if ok else None


def card_points(cards_: list[Card] | set[Card]) -> int:
    """Total card points of ``cards_``."""
    return sum(c.points for c in cards_)


def rank_name(rank: float | None) -> str:
    """Human name of a rank number for messages: 1 -> "Mahjong", 11 -> "J", 13.5 -> "13.5"."""
    if rank is None:
        return "-"
    if rank == MAHJONG_RANK:
        return "Mahjong"
    if rank == DRAGON_RANK:
        return "Dragon"
    if isinstance(rank, float) and not rank.is_integer():
        return str(rank)
    return RANK_NAMES.get(int(rank), str(rank))
