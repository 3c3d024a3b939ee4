"""Combinations: classification, beating and generating the plays a hand can make.

Rule source: NSKT rules, Tai Pan section ("Kaartencombinaties", "Bommen", "Speciale kaarten") and
the decisions of docs/engines/taipan.md: four same-suit cards + Phoenix form an ordinary straight (never a
bomb); 3333+Phoenix is not a full house; KKK+Phoenix is nothing; a sequence bomb cannot be declared
a plain straight; the Phoenix never stands for the Mahjong; A-2-3-4-5 is not a straight.

``length`` of a combination is its number of cards. ``rank``: the single's rank (Phoenix single:
rank beaten + 0.5, 1.5 when led), the pair/triple/four's rank, the triple's rank in a full house,
the highest card of a straight, stairs or straight flush. ``phoenix_as``: what the Phoenix stands
for (a rank 2..14 in a combination, the single's rank as a single).
"""
from __future__ import annotations

import enum
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from engines.taipan.cards import ACE_RANK, DECK, DRAGON_RANK, MAHJONG_RANK, PHOENIX, Card, Kind


class CombinationType(enum.StrEnum):
    """Combination types with their docs/engines/taipan.md identifiers."""

    SINGLE = "single"
    PAIR = "pair"
    TRIPLE = "triple"
    FULL_HOUSE = "full_house"
    STRAIGHT = "straight"
    STAIRS = "stairs"
    FOUR_OF_A_KIND = "four_of_a_kind"
    STRAIGHT_FLUSH = "straight_flush"
    DOG = "dog"


BOMBS = frozenset({CombinationType.FOUR_OF_A_KIND, CombinationType.STRAIGHT_FLUSH})
_DOG = CombinationType.DOG
_SINGLE = CombinationType.SINGLE


@dataclass(frozen=True, slots=True)
class Combination:
    """One reading of a set of cards as a combination (see the module docstring for the fields).
    ``is_bomb``: four of a kind or straight flush (computed once)."""

    type: CombinationType
    length: int
    rank: float
    cards: tuple[Card, ...] = field(compare=False)
    phoenix_as: float | None = None
    is_bomb: bool = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_bomb", self.type in BOMBS)

    def has_rank(self, rank: int) -> bool:
        """Whether a natural (suited) card of ``rank`` is in the combination (the Phoenix does not
        count for the wish)."""
        return any(c.is_normal and c.rank == rank for c in self.cards)

    def to_json(self) -> dict:
        """``{"type", "length", "rank", "phoenix_as", "bomb", "cards"}`` (rank an int when whole)."""
        return {
            "type": self.type.value,
            "length": self.length,
            "rank": _num(self.rank),
            "phoenix_as": _num(self.phoenix_as),
            "bomb": self.is_bomb,
            "cards": [c.code for c in self.cards],
        }


def _num(value: float | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if float(value).is_integer() else value


def phoenix_single_rank(current: Combination | None) -> float:
    """Rank of the Phoenix as a single: 1.5 when led, otherwise the single beaten + 0.5."""
    if current is None or current.type is not CombinationType.SINGLE:
        return 1.5
    return current.rank + 0.5


def _classify_natural(ranked: list[tuple[int, str]], has_phoenix: bool) -> tuple[CombinationType, float] | None:
    """Classify cards given as (rank, suit) pairs, the Phoenix already replaced by its rank with
    suit ``"*"``. Only multi-card combinations; Mahjong has rank 1 and suit ``""``."""
    n = len(ranked)
    ranks = sorted([r for r, _s in ranked])
    low, top = ranks[0], ranks[-1]
    if low == top:  # all of one rank: pair, triple, four of a kind
        if low == MAHJONG_RANK or n > 4:
            return None
        if n == 4:
            # the Phoenix cannot be part of a bomb
            return None if has_phoenix else (CombinationType.FOUR_OF_A_KIND, low)
        return (CombinationType.PAIR if n == 2 else CombinationType.TRIPLE), low
    if low == MAHJONG_RANK and n < 5:  # the Mahjong (rank 1) only in a straight
        return None
    distinct = len(set(ranks))
    if n == 5 and distinct == 2 and ranks[0] == ranks[1] and ranks[3] == ranks[4]:
        return CombinationType.FULL_HOUSE, ranks[2]  # the middle card belongs to the triple
    if n >= 5 and distinct == n and top - low == n - 1:
        if not has_phoenix and low != MAHJONG_RANK and len({s for _r, s in ranked}) == 1:
            return CombinationType.STRAIGHT_FLUSH, top
        return CombinationType.STRAIGHT, top
    if (n >= 4 and not n % 2 and distinct * 2 == n and low >= 2 and top - low == distinct - 1
            and ranks[0::2] == ranks[1::2]):
        return CombinationType.STAIRS, top
    return None


def _single_reading(card: Card) -> Combination:
    if card.kind is Kind.DOG:
        return Combination(CombinationType.DOG, 1, 0, (card,))
    return Combination(CombinationType.SINGLE, 1, card.rank, (card,))


# The one reading of each card played alone (the Phoenix's depends on the table: _PHOENIX_SINGLES).
_SINGLES: dict[Card, Combination] = {c: _single_reading(c) for c in DECK if c is not PHOENIX}
_PHOENIX_SINGLES: dict[float, Combination] = {}


def _phoenix_single(value: float) -> Combination:
    combo = _PHOENIX_SINGLES.get(value)
    if combo is None:
        combo = _PHOENIX_SINGLES[value] = Combination(CombinationType.SINGLE, 1, value, (PHOENIX,), value)
    return combo


def readings(cards: list[Card] | tuple[Card, ...], current: Combination | None = None) -> list[Combination]:
    """Every way ``cards`` can be read as a combination, highest rank first (empty list: no
    combination). ``current`` (the combination on the table) only sets a Phoenix single's rank.

    The Dog is a combination only alone (type ``dog``); the Dragon only as a single; the Phoenix
    stands for any rank 2..14 in a non-bomb combination of two or more cards. A single card's
    reading is one shared (immutable) object per card.
    """
    n = len(cards)
    if n == 1:
        c = cards[0]
        if c is PHOENIX:
            return [_phoenix_single(phoenix_single_rank(current))]
        return [_SINGLES[c]]
    if n == 0:
        return []
    return list(_group_readings(tuple(cards)))


@lru_cache(maxsize=1 << 14)
def _group_readings(cards: tuple[Card, ...]) -> tuple[Combination, ...]:
    """:func:`readings` of two or more cards (they do not depend on the table), memoised: pairs,
    triples and the like recur from hand to hand (there are 78 pairs without the Phoenix)."""
    n = len(cards)
    naturals = []
    for c in cards:
        kind = c.kind
        if kind is Kind.NORMAL or kind is Kind.MAHJONG:
            naturals.append((c.rank, c.suit))
        elif kind is not Kind.PHOENIX:  # the Dog and the Dragon are never part of a combination
            return ()
    if len(naturals) == n:
        found = _classify_natural(naturals, False)
        return (Combination(found[0], n, found[1], cards),) if found else ()
    if n - len(naturals) > 1:
        return ()
    out: dict[tuple, Combination] = {}
    for value in range(2, ACE_RANK + 1):
        found = _classify_natural(naturals + [(value, "*")], True)
        if found:
            key = (found[0], found[1])
            # keep one reading per (type, rank); the lowest Phoenix value is as good as any other
            out.setdefault(key, Combination(found[0], n, found[1], cards, value))
    return tuple(sorted(out.values(), key=lambda c: -c.rank))


def reading_with_phoenix(cards: list[Card] | tuple[Card, ...], phoenix_as: float) -> list[Combination]:
    """The readings of two or more ``cards`` with the Phoenix standing for ``phoenix_as``: the
    members of :func:`readings` whose ``phoenix_as`` is that value (at most one), found with one
    classification instead of one per rank. Without the Phoenix: :func:`readings`."""
    cards = tuple(cards)
    n = len(cards)
    if n < 2 or PHOENIX not in cards:
        return [r for r in readings(cards) if r.phoenix_as == phoenix_as]
    if not (isinstance(phoenix_as, int) or float(phoenix_as).is_integer()) or not 2 <= phoenix_as <= ACE_RANK:
        return []
    if any(c.kind is Kind.DOG or c.kind is Kind.DRAGON for c in cards):
        return []
    naturals = [(c.rank, c.suit) for c in cards if c is not PHOENIX]
    if n - len(naturals) > 1:
        return []
    value = int(phoenix_as)
    found = _classify_natural(naturals + [(value, "*")], True)
    if not found:
        return []
    # readings() keeps, per (type, rank), the lowest Phoenix value; no two values give the same
    # (type, rank) (the Phoenix fills a fixed place of a pair, triple, full house, straight or
    # stairs), so this reading is the one readings() lists for this value.
    return [Combination(found[0], n, found[1], cards, value)]


def beats(play: Combination, current: Combination | None) -> bool:
    """Whether ``play`` may be played on ``current`` (``None``: a lead, anything goes).

    Same type and length with a strictly higher rank; any bomb beats any non-bomb; a straight flush
    beats a four of a kind, a longer straight flush a shorter one, else the higher rank. Nothing
    beats the Dog; the Dog only leads; the Phoenix single never beats the Dragon.
    """
    if current is None:
        return True
    kind = play.type
    if kind is _DOG or current.type is _DOG:
        return False
    bomb = play.is_bomb
    if bomb is not current.is_bomb:
        return bomb  # any bomb beats any non-bomb; a non-bomb never beats a bomb
    if bomb:
        if kind is not current.type:
            return kind is CombinationType.STRAIGHT_FLUSH
        if kind is CombinationType.STRAIGHT_FLUSH and play.length != current.length:
            return play.length > current.length
        return play.rank > current.rank
    if kind is not current.type or play.length != current.length:
        return False
    if kind is _SINGLE and current.rank >= DRAGON_RANK and play.cards[0] is PHOENIX:
        return False
    return play.rank > current.rank


# --- generating the plays of a hand ---------------------------------------------------------

class HandIndex:
    """A hand sorted for generating plays: suited cards by rank, and the specials held."""

    def __init__(self, hand: list[Card] | tuple[Card, ...] | set[Card] | frozenset[Card]):
        self.cards = sorted(hand)
        self.by_rank: dict[int, list[Card]] = {}
        self.specials: dict[Kind, Card] = {}
        for c in self.cards:
            if c.is_normal:
                self.by_rank.setdefault(c.rank, []).append(c)
            else:
                self.specials[c.kind] = c
        self.phoenix = self.specials.get(Kind.PHOENIX)
        self.mahjong = self.specials.get(Kind.MAHJONG)

    def count(self, rank: int) -> int:
        """How many suited cards of ``rank`` the hand holds."""
        return len(self.by_rank.get(rank, ()))


def _groups(index: HandIndex, size: int, phoenix_ok: bool = True) -> Iterator[tuple[int, tuple[Card, ...], bool]]:
    """(rank, cards, uses_phoenix) for every rank's group of ``size`` (one canonical choice of
    suits per rank, plus the Phoenix-filled group)."""
    for rank in sorted(index.by_rank):
        have = index.by_rank[rank]
        if len(have) >= size:
            yield rank, tuple(have[:size]), False
        if phoenix_ok and index.phoenix and size >= 2 and len(have) >= size - 1:
            yield rank, tuple(have[: size - 1]) + (index.phoenix,), True


def _straight_windows(index: HandIndex, length: int) -> Iterator[Combination]:
    for top in range(length, ACE_RANK + 1):
        low = top - length + 1
        missing = []
        for r in range(low, top + 1):
            if r == MAHJONG_RANK:
                if not index.mahjong:
                    missing.append(r)
            elif not index.by_rank.get(r):
                missing.append(r)
        if len(missing) > 1:
            continue
        if not missing:
            chosen = _pick_straight(index, low, top)
            if chosen is not None:
                yield Combination(CombinationType.STRAIGHT, length, top, chosen)
            elif index.phoenix:  # one suit only: a bomb, but the Phoenix for the top card makes a straight
                natural = tuple(index.by_rank[r][0] for r in range(low, top))
                yield Combination(CombinationType.STRAIGHT, length, top, natural + (index.phoenix,), top)
        elif index.phoenix and missing[0] != MAHJONG_RANK:
            chosen_list: list[Card] = []
            for r in range(low, top + 1):
                if r == missing[0]:
                    chosen_list.append(index.phoenix)
                elif r == MAHJONG_RANK:
                    chosen_list.append(index.mahjong)
                else:
                    chosen_list.append(index.by_rank[r][0])
            yield Combination(CombinationType.STRAIGHT, length, top, tuple(chosen_list), missing[0])


def _pick_straight(index: HandIndex, low: int, top: int) -> tuple[Card, ...] | None:
    """Cards for a plain straight low..top, avoiding an all-one-suit choice (that is a bomb)."""
    chosen = [index.mahjong if r == MAHJONG_RANK else index.by_rank[r][0] for r in range(low, top + 1)]
    if low == MAHJONG_RANK:
        return tuple(chosen)
    if len({c.suit for c in chosen}) > 1:
        return tuple(chosen)
    for i, r in enumerate(range(low, top + 1)):
        for other in index.by_rank[r][1:]:
            if other.suit != chosen[i].suit:
                chosen[i] = other
                return tuple(chosen)
    return None


def _stairs(index: HandIndex, pairs: int) -> Iterator[Combination]:
    for top in range(1 + pairs, ACE_RANK + 1):
        low = top - pairs + 1
        short = [r for r in range(low, top + 1) if index.count(r) < 2]
        if len(short) > 1 or (short and (not index.phoenix or index.count(short[0]) < 1)):
            continue
        chosen: list[Card] = []
        for r in range(low, top + 1):
            if short and r == short[0]:
                chosen += [index.by_rank[r][0], index.phoenix]
            else:
                chosen += index.by_rank[r][:2]
        yield Combination(CombinationType.STAIRS, 2 * pairs, top, tuple(chosen), short[0] if short else None)


def bombs(index: HandIndex) -> Iterator[Combination]:
    """Every bomb in the hand: each four of a kind and every straight flush (all lengths >= 5)."""
    for rank, have in sorted(index.by_rank.items()):
        if len(have) == 4:
            yield Combination(CombinationType.FOUR_OF_A_KIND, 4, rank, tuple(have))
    by_suit: dict[str, set[int]] = {}
    for c in index.cards:
        if c.is_normal:
            by_suit.setdefault(c.suit, set()).add(c.rank)
    for suit, ranks in by_suit.items():
        for low in range(2, ACE_RANK - 3):
            if low not in ranks:
                continue
            top = low
            while top + 1 in ranks:
                top += 1
                if top - low + 1 >= 5:
                    chosen = tuple(next(c for c in index.by_rank[r] if c.suit == suit) for r in range(low, top + 1))
                    yield Combination(CombinationType.STRAIGHT_FLUSH, top - low + 1, top, chosen)


def _of_type(index: HandIndex, ctype: CombinationType, length: int | None, current: Combination | None) -> Iterator[Combination]:
    if ctype is CombinationType.SINGLE:
        for c in index.cards:
            if c.kind is Kind.DOG:
                continue
            yield readings((c,), current)[0]
    elif ctype is CombinationType.PAIR:
        for rank, chosen, ph in _groups(index, 2):
            yield Combination(ctype, 2, rank, chosen, rank if ph else None)
    elif ctype is CombinationType.TRIPLE:
        for rank, chosen, ph in _groups(index, 3):
            yield Combination(ctype, 3, rank, chosen, rank if ph else None)
    elif ctype is CombinationType.FULL_HOUSE:
        triples = list(_groups(index, 3))
        pairs = list(_groups(index, 2))
        for trank, tcards, tph in triples:
            for prank, pcards, pph in pairs:
                if prank == trank or (tph and pph):
                    continue
                yield Combination(ctype, 5, trank, tcards + pcards, trank if tph else prank if pph else None)
    elif ctype is CombinationType.STRAIGHT:
        lengths = [length] if length else range(5, len(index.cards) + 1)
        for n in lengths:
            yield from _straight_windows(index, n)
    elif ctype is CombinationType.STAIRS:
        lengths = [length] if length else range(4, len(index.cards) + 1, 2)
        for n in lengths:
            yield from _stairs(index, n // 2)


def plays(hand, current: Combination | None = None, *, lead_types: tuple[CombinationType, ...] | None = None) -> Iterator[Combination]:
    """Plays the hand can legally make on ``current`` (``None``: every lead, including the Dog),
    bombs included. Suits are chosen canonically (one play per rank pattern), except that every
    single card and every bomb is listed. Source: NSKT rules ("overbieden"), docs/engines/taipan.md.
    """
    index = hand if isinstance(hand, HandIndex) else HandIndex(hand)
    if current is not None and current.type is CombinationType.DOG:
        return
    if current is None:
        if Kind.DOG in index.specials:
            yield Combination(CombinationType.DOG, 1, 0, (index.specials[Kind.DOG],))
        types = lead_types or (CombinationType.SINGLE, CombinationType.PAIR, CombinationType.TRIPLE,
                               CombinationType.FULL_HOUSE, CombinationType.STRAIGHT, CombinationType.STAIRS)
        for ctype in types:
            yield from _of_type(index, ctype, None, None)
        yield from bombs(index)
        return
    if not current.is_bomb:
        for combo in _of_type(index, current.type, current.length, current):
            if beats(combo, current):
                yield combo
    for combo in bombs(index):
        if beats(combo, current):
            yield combo


def can_fulfil_wish(hand, current: Combination | None, wish: int) -> bool:
    """Whether the hand can legally play a combination containing a suited card of the wished
    rank on ``current`` (bombs included); the Phoenix is not the wished rank (NSKT rules, Mahjong)."""
    if isinstance(hand, HandIndex):
        index = hand
        if not index.by_rank.get(wish):
            return False
    else:
        if not any(c.rank == wish and c.is_normal for c in hand):
            return False
        if current is None:
            return True
        index = HandIndex(hand)
    if current is None:
        return True
    return any(combo.has_rank(wish) for combo in plays(index, current))
