"""Hand analysis shared by the mahjong engines: tile counts, physical checks, every decomposition
into sets and a pair, seven pairs, and formal waits (docs/engines/sichuan.md and taiwanese.md).

Work is done on count arrays (34 ints, indexed by :attr:`Tile.index`); each suit is decomposed
separately by a memoised recursion on its 9 (7 for honours) counts, so a repeated suit shape
costs one dictionary look-up. Honours form pungs only, never chows.
"""
from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from itertools import product

from engines.errors import Collector
from engines.i18n import _
from engines.mahjong.melds import Meld, MeldKind
from engines.mahjong.tiles import KIND_COUNT, TILES, Tile

__all__ = [
    "Decomposition",
    "check_counts",
    "count_tiles",
    "decompositions",
    "is_seven_pairs",
    "is_seven_pairs_counts",
    "is_winning",
    "is_winning_counts",
    "waits",
]

# (offset, size, honour) of the four suits in a count array.
_SUITS: tuple[tuple[int, int, bool], ...] = ((0, 9, False), (9, 9, False), (18, 9, False), (27, 7, True))
_CHOW, _PUNG = 0, 1
_KIND = {_CHOW: MeldKind.chow, _PUNG: MeldKind.pung}


@dataclass(frozen=True, slots=True)
class Decomposition:
    """One reading of concealed tiles as sets plus one pair.

    ``sets``: tuple of ``(MeldKind.chow|MeldKind.pung, first tile)``, sorted by tile then kind (a
    chow ``(chow, 1m)`` is 1m 2m 3m). ``pair``: the pair's tile.
    """

    sets: tuple[tuple[MeldKind, Tile], ...]
    pair: Tile

    def tiles(self) -> list[Tile]:
        """Every tile of the reading, sorted (re-assembles the decomposed tiles)."""
        out = [self.pair, self.pair]
        for kind, tile in self.sets:
            if kind is MeldKind.chow:
                out += [tile, TILES[tile.index + 1], TILES[tile.index + 2]]
            else:
                out += [tile] * (4 if kind is MeldKind.kong else 3)
        return sorted(out)

    def describe(self) -> list[str]:
        """Human-readable sets, e.g. ``["chow 123m", "pung 555p", "pair 99s"]``."""
        parts = []
        for kind, tile in self.sets:
            n, suit = tile.number, tile.text[1]
            if kind is MeldKind.chow:
                parts.append(f"chow {n}{n + 1}{n + 2}{suit}")
            else:
                parts.append(f"{kind} {n}{n}{n}{suit}")
        pair = self.pair.text
        parts.append(f"pair {pair[0]}{pair}")
        return parts


def count_tiles(tiles: Iterable[Tile], melds: Iterable[Meld] = ()) -> list[int]:
    """A 34-long count array of ``tiles`` plus every tile of ``melds``."""
    counts = [0] * KIND_COUNT
    for tile in tiles:
        counts[tile.index] += 1
    for meld in melds:
        for tile in meld.tiles:
            counts[tile.index] += 1
    return counts


# ---------------------------------------------------------------------------------------------
# Per-suit memoised recursion

@lru_cache(maxsize=1 << 16)
def _suit_sets(vec: tuple[int, ...], honour: bool) -> tuple[tuple[tuple[int, int], ...], ...]:
    """Every way to split one suit's counts into sets only: tuple of readings, each a tuple of
    ``(kind code, position)``. Empty tuple if impossible; ``((),)`` for an empty suit."""
    i = 0
    size = len(vec)
    while i < size and vec[i] == 0:
        i += 1
    if i == size:
        return ((),)
    out: list[tuple[tuple[int, int], ...]] = []
    if vec[i] >= 3:
        sub = list(vec)
        sub[i] -= 3
        out += [((_PUNG, i), *rest) for rest in _suit_sets(tuple(sub), honour)]
    if not honour and i + 2 < size and vec[i + 1] and vec[i + 2]:
        sub = list(vec)
        sub[i] -= 1
        sub[i + 1] -= 1
        sub[i + 2] -= 1
        out += [((_CHOW, i), *rest) for rest in _suit_sets(tuple(sub), honour)]
    return tuple(out)


def _suit_ok(vec: Sequence[int], honour: bool) -> bool:
    """Whether one suit's counts split into sets only (pungs, and chows unless ``honour``).

    Linear, no search: three equal chows are three pungs, so some split (if any) starts fewer than
    three chows at each position; the tiles left at a position after the chows that started at the
    two before it are then pungs plus (that number mod 3) new chows.
    """
    if honour:
        return all(c % 3 == 0 for c in vec)
    started_1 = started_2 = 0  # chows started one and two positions back
    for c in vec:
        c -= started_1 + started_2
        if c < 0:
            return False
        started_2, started_1 = started_1, c % 3
    return started_1 == 0 and started_2 == 0


def _suit_shape(vec: tuple[int, ...], honour: bool) -> int:
    """0: one suit's counts are sets only; 1: sets plus exactly one pair; -1: neither.

    The pair can only be where the counts allow it: in a numbered suit a pung or chow adds 0 modulo
    3 to the sum of (position x count), so the pair's position p has 2p = that sum modulo 3."""
    rest = sum(vec) % 3
    if rest == 0:
        return 0 if _suit_ok(vec, honour) else -1
    if rest == 2:
        sub = list(vec)
        if honour:
            places = range(len(vec))
        else:
            weight = sum([i * c for i, c in enumerate(vec)])
            places = range((2 * weight) % 3, len(vec), 3)
        for i in places:
            c = vec[i]
            if c >= 2:
                sub[i] = c - 2
                if _suit_ok(sub, honour):
                    return 1
                sub[i] = c
    return -1


# Memo of _suit_shape per suit shape (numbered suits, honours); bounded by the number of shapes.
_SHAPES: tuple[dict[tuple[int, ...], int], dict[tuple[int, ...], int]] = ({}, {})
_SHAPES_LIMIT = 1 << 18


def _clear_shape_cache() -> None:
    """Forget every memoised suit shape (for cold-cache benchmarks)."""
    for cache in (*_SHAPES, *_ADDITIONS):
        cache.clear()
    _suit_sets.cache_clear()
    _suit_readings.cache_clear()


def is_winning_counts(counts: Sequence[int], sets_needed: int) -> bool:
    """Whether a 34- (or 27-) long count array is exactly ``sets_needed`` sets plus one pair.

    Fast path for winning-hand checks (no readings built): the counts are first checked cheaply
    (honours are pungs and the pair only, so no honour count of 1 or 4; each suit's total is 0 or,
    for the one suit with the pair, 2 modulo 3), then one memoised look-up per numbered suit shape.
    Seven pairs is not considered here (see :func:`is_seven_pairs_counts`).
    """
    pairs = 0
    if len(counts) > 27:
        honours = counts[27:34]
        if 1 in honours or 4 in honours:
            return False
        for c in honours:
            if c % 3 == 2:
                pairs += 1
            elif c % 3:
                return False
    if sum(counts) != 3 * sets_needed + 2:
        return False
    suits = (counts[0:9], counts[9:18], counts[18:27])
    for vec in suits:
        rest = sum(vec) % 3
        if rest == 1:
            return False
        if rest == 2:
            pairs += 1
    if pairs != 1:
        return False
    for vec in suits:
        if any(vec) and _shape(tuple(vec), False) < 0:
            return False
    return True


@lru_cache(maxsize=1 << 16)
def _suit_readings(off: int, vec: tuple[int, ...], honour: bool) -> tuple[tuple[tuple[MeldKind, Tile], ...], ...]:
    """:func:`_suit_sets` as ``(MeldKind, Tile)`` sets sorted by tile then kind (chow first)."""
    return tuple(
        tuple(sorted(((_KIND[k], TILES[off + pos]) for k, pos in r), key=lambda s: (s[1].index, s[0] is MeldKind.pung)))
        for r in _suit_sets(vec, honour)
    )


def is_winning(tiles: Iterable[Tile], sets_needed: int) -> bool:
    """Whether ``tiles`` are exactly ``sets_needed`` sets plus one pair (seven pairs not included)."""
    return is_winning_counts(count_tiles(tiles), sets_needed)


def decompositions(tiles: Iterable[Tile], sets_needed: int) -> list[Decomposition]:
    """Every reading of ``tiles`` as ``sets_needed`` concealed sets (chows and pungs) plus one pair.

    Returns an empty list when there is none (including a wrong tile count). Order: by pair tile,
    then by the suits' readings; each reading appears once.
    """
    return decompositions_of_counts(count_tiles(tiles), sets_needed)


def decompositions_of_counts(counts: list[int], sets_needed: int) -> list[Decomposition]:
    """:func:`decompositions` of a 34-long count array (changed while working, left as it was)."""
    if sum(counts) != 3 * sets_needed + 2:
        return []
    # The pair lies in the one suit whose count is 2 modulo 3; every other suit is sets only, and
    # its readings do not depend on where the pair is.
    per_suit: list[tuple[tuple[tuple[MeldKind, Tile], ...], ...]] = []
    pair_suit = -1
    for k, (off, size, honour) in enumerate(_SUITS):
        vec = counts[off:off + size]
        rest = sum(vec) % 3
        if rest == 1 or (rest == 2 and pair_suit >= 0):
            return []
        if rest == 2:
            pair_suit = k
            per_suit.append(())
            continue
        readings = _suit_readings(off, tuple(vec), honour) if any(vec) else _NO_SETS
        if not readings:
            return []
        per_suit.append(readings)
    if pair_suit < 0:
        return []
    p_off, p_size, p_honour = _SUITS[pair_suit]
    if p_honour:
        places = range(p_off, p_off + p_size)
    else:  # see _suit_shape: the pair's position p has 2p = sum of (position x count) modulo 3
        weight = sum([i * c for i, c in enumerate(counts[p_off:p_off + p_size])])
        places = range(p_off + (2 * weight) % 3, p_off + p_size, 3)
    out: list[Decomposition] = []
    for pair_index in places:
        if counts[pair_index] < 2:
            continue
        counts[pair_index] -= 2
        readings = _suit_readings(p_off, tuple(counts[p_off:p_off + p_size]), p_honour)
        counts[pair_index] += 2
        if not readings:
            continue
        per_suit[pair_suit] = readings
        pair = TILES[pair_index]
        for combo in product(*per_suit):
            out.append(Decomposition(combo[0] + combo[1] + combo[2] + combo[3], pair))
    return out


_NO_SETS: tuple[tuple[tuple[MeldKind, Tile], ...], ...] = ((),)


def is_seven_pairs_counts(counts: Sequence[int], *, four_as_two_pairs: bool = True) -> bool:
    """Whether the counts (14 tiles) are seven pairs; four equal tiles count as two pairs when
    ``four_as_two_pairs`` (Sichuan rule text), else every pair must be a different tile."""
    if 1 in counts or 3 in counts or sum(counts) != 14:  # the usual quick no
        return False
    allowed = (0, 2, 4) if four_as_two_pairs else (0, 2)
    return all(c in allowed for c in counts)


def is_seven_pairs(tiles: Iterable[Tile], *, four_as_two_pairs: bool = True) -> bool:
    """Whether ``tiles`` (14) are seven pairs; see :func:`is_seven_pairs_counts`."""
    return is_seven_pairs_counts(count_tiles(tiles), four_as_two_pairs=four_as_two_pairs)


def _shape(vec: tuple[int, ...], honour: bool) -> int:
    cache = _SHAPES[honour]
    shape = cache.get(vec)
    if shape is None:
        shape = _suit_shape(vec, honour)
        if len(cache) >= _SHAPES_LIMIT:
            cache.clear()
        cache[vec] = shape
    return shape


_ADDITIONS: tuple[dict[tuple[int, ...], tuple[int, ...]], dict[tuple[int, ...], tuple[int, ...]]] = ({}, {})


def _additions(vec: tuple[int, ...], honour: bool) -> tuple[int, ...]:
    """For each position of one suit: the shape (see :func:`_suit_shape`) after adding that tile.

    A tile with no tile of its suit within two places (an honour: no equal tile) would stay alone,
    in no set and no pair: -1 without a look-up."""
    cache = _ADDITIONS[honour]
    found = cache.get(vec)
    if found is None:
        found = _additions_of(vec, honour)
        if len(cache) >= _SHAPES_LIMIT:
            cache.clear()
        cache[vec] = found
    return found


def _additions_of(vec: tuple[int, ...], honour: bool) -> tuple[int, ...]:
    """:func:`_additions` computed: :func:`_suit_shape` of each vector with one tile more, the sums
    it needs (the total, and the weighted sum that places the pair) taken once for all positions."""
    size = len(vec)
    rest = (sum(vec) + 1) % 3
    if rest == 1:  # one more tile leaves the suit at 1 modulo 3: never sets (and a pair)
        return (-1,) * size
    if honour:
        return tuple(_shape(vec[:i] + (vec[i] + 1,) + vec[i + 1:], True) if vec[i] else -1 for i in range(size))
    shapes = _SHAPES[False]
    weight = sum([i * c for i, c in enumerate(vec)])
    sub = list(vec)
    out = [-1] * size
    for i in range(size):
        if not (vec[i] or any(vec[max(0, i - 2):i + 3])):
            continue
        sub[i] += 1
        key = tuple(sub)
        shape = shapes.get(key)
        if shape is None:
            if rest == 0:
                shape = 0 if _suit_ok(sub, False) else -1
            else:  # the pair's place p: 2p = weight modulo 3 (see _suit_shape)
                shape = -1
                for p in range((2 * (weight + i)) % 3, size, 3):
                    c = sub[p]
                    if c >= 2:
                        sub[p] = c - 2
                        ok = _suit_ok(sub, False)
                        sub[p] = c
                        if ok:
                            shape = 1
                            break
            if len(shapes) >= _SHAPES_LIMIT:
                shapes.clear()
            shapes[key] = shape
        out[i] = shape
        sub[i] -= 1
    return tuple(out)


def waits(
    tiles_without_winner: Iterable[Tile],
    sets_needed: int,
    *,
    seven_pairs: bool,
    honours: bool,
    visible: Iterable[Tile] = (),
    four_as_two_pairs: bool = True,
    include_exhausted: bool = False,
) -> list[Tile]:
    """The formal waits: every tile kind that completes ``tiles_without_winner`` (3n+1 concealed
    tiles) into ``sets_needed`` sets plus a pair, or into seven pairs when ``seven_pairs``.

    A tile of which four copies are already held (in the hand or in ``visible``, e.g. the tiles of
    the melds) is not a wait, there being no fifth copy, unless ``include_exhausted``: then every
    formal wait is listed whatever is visible (Taiwanese single wait, docs/engines/taiwanese.md). ``honours`` says whether honour tiles exist
    (honour waits are only looked for then). Returns tiles sorted (``str`` gives ``"5p"``).

    Works per suit. The suit that takes the winning tile is the one whose count is 1 modulo 3 (every
    other suit then 0), or either of two suits at 2 modulo 3 (the others 0); any other spread of the
    counts has no wait. The other suits' shapes are looked up once, the waited suit's shape after
    each possible added tile is memoised.
    """
    counts = count_tiles(tiles_without_winner)
    found: set[int] = set()
    if sum(counts) == 3 * sets_needed + 1:
        vecs = [tuple(counts[off:off + size]) for off, size, _h in _SUITS]
        rests = [sum(vec) % 3 for vec in vecs]
        ones = [k for k in range(4) if rests[k] == 1]
        twos = [k for k in range(4) if rests[k] == 2]
        if len(ones) == 1 and not twos:
            waited, after = ones, 1  # the suit gets the pair
        elif not ones and len(twos) == 2:
            waited, after = twos, 0  # the suit gets a set, the other one holds the pair
        else:
            waited, after = [], 0
        for k in waited:
            off, _size, honour = _SUITS[k]
            if honour and not honours:
                continue
            if any(_shape(vecs[j], _SUITS[j][2]) < 0 for j in range(4) if j != k and any(vecs[j])):
                continue
            for pos, shape in enumerate(_additions(vecs[k], honour)):
                if shape == after:
                    found.add(off + pos)
    if seven_pairs and sum(counts) == 13:
        odd = [i for i, c in enumerate(counts) if c % 2]
        allowed = (0, 1, 2, 3, 4) if four_as_two_pairs else (0, 1, 2)
        if len(odd) == 1 and all(c in allowed for c in counts) and (counts[odd[0]] == 1 or four_as_two_pairs):
            if odd[0] < 27 or honours:
                found.add(odd[0])
    if include_exhausted or not found:
        return [TILES[i] for i in sorted(found)]
    seen = list(counts)
    for tile in visible:
        seen[tile.index] += 1
    return [TILES[i] for i in sorted(found) if seen[i] < 4]


def check_counts(
    collector: Collector,
    concealed: Sequence[Tile],
    melds: Sequence[Meld],
    *,
    expected_sets: int,
    field_prefix: str = "",
    winning: bool = True,
) -> None:
    """Record physical violations of a hand in ``collector``.

    ``expected_sets``: sets of a complete hand (4 for Sichuan: 14 tiles; 5 for Taiwanese: 17),
    each meld counting as one set (a kong holds one tile more). ``winning``: the hand includes
    the winning tile (3n+2 concealed tiles); ``False`` for a hand waiting (3n+1). Checks: at most
    ``expected_sets`` melds, the concealed tile count, and at most four copies of each tile across
    hand and melds. Fields: ``{field_prefix}concealed`` and ``{field_prefix}melds``.
    """
    if len(melds) > expected_sets:
        collector.add(f"{field_prefix}melds", _("A hand has at most {max} melds, not {count}."),
                      max=expected_sets, count=len(melds))
    else:
        expected = 3 * (expected_sets - len(melds)) + (2 if winning else 1)
        if len(concealed) != expected:
            if winning:
                template = _("The concealed part has {count} tiles; with {melds} meld(s) it must have {expected} (including the winning tile, a kong counts as one set).")
            else:
                template = _("The concealed part has {count} tiles; with {melds} meld(s) a waiting hand has {expected} (a kong counts as one set).")
            collector.add(f"{field_prefix}concealed", template, count=len(concealed), melds=len(melds), expected=expected)
    counts = count_tiles(concealed, melds)
    if max(counts) <= 4:
        return
    for index, count in enumerate(counts):
        if count > 4:
            collector.add(f"{field_prefix}concealed", _("There are {count} copies of {tile} in hand and melds; a set of tiles has only four."),
                          count=count, tile=str(TILES[index]))
