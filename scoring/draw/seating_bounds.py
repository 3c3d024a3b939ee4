"""Lower bounds of the seating cost (pure, no Django): what no seating of the field can beat, term
by term, so a seating's distance from the optimum is known (issue 24 item 3; docs/tournaments.md
"Seating four-player rounds"). Used by :mod:`scoring.draw.seating_core`.

The bounds hold for the *lexicographic* optimum (fewest repeats, then same-club pairs, then
displacement), each term on its own:

- **repeats**: every player sits with ``size - 1`` others, so their table holds at least the
  ``size - 1`` lightest of their meeting weights with the other present players (0 for every
  player not met). Each repeated pair is counted by both its players: ``ceil(sum / 2)``.
- **club pairs**: a club of ``c`` present players spread over ``T`` tables as evenly as possible
  (``c mod T`` tables with ``ceil(c / T)`` of them, the rest with ``floor(c / T)``) has the fewest
  pairs at one table that any seating can have; summed over the clubs.
- **displacement**: only when the seating found has no repeat (then the optimum has none either;
  with no club pair too, the optimum has none either), pairs that met (and of one club) cannot sit
  together. A group of four (the players who belong at table ``h``) holding such pairs must lose at
  least its minimum vertex cover ``m_h`` to other tables, each of them displaced by at least 1:
  ``S = sum m_h``; when a single group has to give players up, as many players of the other groups
  take their seats, also displaced: ``2 S``. Otherwise the bound is 0.

A term whose bound equals the cost found is proven optimal; the benchmark prints the gaps.
"""
from __future__ import annotations

from collections import Counter
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from itertools import combinations


@dataclass(frozen=True, order=True)
class Cost:
    """The cost of a seating, compared lexicographically (field order): ``repeats`` (weighted by
    earlier meetings), ``club_pairs`` and ``displacement`` (:mod:`scoring.draw.seating_core`)."""

    repeats: int = 0
    club_pairs: int = 0
    displacement: int = 0

    def minus(self, other: Cost) -> Cost:
        """Term by term difference (``self - other``), e.g. a gap to a lower bound."""
        return Cost(self.repeats - other.repeats, self.club_pairs - other.club_pairs,
                    self.displacement - other.displacement)


def club_bound(clubs: Iterable[str], n_tables: int) -> int:
    """The fewest same-club pairs over ``n_tables`` tables for players of the ``clubs`` (one
    normalised name per player; ``""`` is no club)."""
    if n_tables <= 0:
        return 0
    total = 0
    for c in Counter(x for x in clubs if x).values():
        q, r = divmod(c, n_tables)
        total += r * (q + 1) * q // 2 + (n_tables - r) * q * (q - 1) // 2
    return total


def repeat_bound(ranked: Sequence[Hashable], met: Mapping[Hashable, Mapping[Hashable, int]], size: int) -> int:
    """The fewest repeat meetings (weighted) of any seating of ``ranked`` at tables of ``size``;
    ``met``: ``{a: {b: times}}`` both ways over the present players."""
    n = len(ranked)
    total = 0
    for p in ranked:
        row = met.get(p, {})
        need = (size - 1) - ((n - 1) - len(row))  # tablemates that must come from those met
        if need > 0:
            total += sum(sorted(row.values())[:need])
    return (total + 1) // 2


def _cover(group: Sequence[Hashable], forbidden) -> int:
    """The minimum number of players of ``group`` whose removal leaves no ``forbidden`` pair."""
    for k in range(len(group) + 1):
        for removed in combinations(group, k):
            rest = [p for p in group if p not in removed]
            if not any(forbidden(a, b) for a, b in combinations(rest, 2)):
                return k
    return len(group)


def displacement_bound(ranked: Sequence[Hashable], met: Mapping[Hashable, Mapping[Hashable, int]],
                       club: Mapping[Hashable, str], size: int, *, clubs_forbidden: bool) -> int:
    """The least displacement of a seating of ``ranked`` (best first, groups of ``size``) with no
    repeat (and, with ``clubs_forbidden``, no same-club pair): see the module doc."""
    empty: Mapping = {}

    def forbidden(a, b) -> bool:
        if met.get(a, empty).get(b, 0):
            return True
        return clubs_forbidden and bool(club.get(a)) and club.get(a) == club.get(b)

    covers = [_cover(ranked[i:i + size], forbidden) for i in range(0, len(ranked), size)]
    total = sum(covers)
    return 2 * total if sum(1 for c in covers if c) == 1 else total


def lower_bound(ranked: Sequence[Hashable], met: Mapping[Hashable, Mapping[Hashable, int]],
                club: Mapping[Hashable, str], size: int, *, found: Cost, pairs: tuple[int, int] | None = None) -> Cost:
    """A :class:`Cost` no seating of ``ranked`` beats term by term, given
    ``found`` (the cost of a seating found, which decides what the displacement bound may assume)
    and ``pairs`` (``(repeats, club_pairs)`` of the lexicographic optimum when
    :func:`pair_minimum` proved them). Each term is at most the one of ``found``."""
    n_tables = len(ranked) // size
    repeats = min(found.repeats, repeat_bound(ranked, met, size))
    club_pairs = min(found.club_pairs, club_bound((club.get(p, "") for p in ranked), n_tables))
    if pairs is not None:
        repeats, club_pairs = pairs
    displacement = 0
    if found.repeats == 0:
        displacement = displacement_bound(ranked, met, club, size, clubs_forbidden=found.club_pairs == 0)
    return Cost(repeats, club_pairs, min(found.displacement, displacement))


def pair_minimum(ranked: Sequence[Hashable], adj: Mapping[Hashable, Mapping[Hashable, int]], size: int, *,
                 upper: int, budget: int) -> tuple[int, list[list[Hashable]] | None] | None:
    """Prove the least total pair weight of any seating of ``ranked`` at tables of ``size`` (``adj``:
    ``{a: {b: weight}}`` both ways, missing pairs weigh 0), given a seating of weight ``upper``.

    A depth-first search that seats the most constrained player first (the most partners of
    non-zero weight still unseated), tries their lightest partners first and drops a branch as soon
    as its weight plus a bound of the rest (half the sum of each unseated player's ``size - 1``
    lightest weights) reaches the best known. Returns ``(weight, tables)``: the minimum and a
    seating that reaches it, or ``tables=None`` when ``upper`` is the minimum; ``None`` when more
    than ``budget`` players were placed before the search ended (nothing proven)."""
    empty: Mapping = {}
    lightest = {p: sum(sorted(adj.get(p, empty).get(q, 0) for q in ranked if q != p)[:size - 1]) for p in ranked}
    best: list = [upper, None]
    nodes = [0]

    def walk(rest: list, acc: int, tables: list) -> bool:
        if not rest:
            best[0], best[1] = acc, [list(t) for t in tables]
            return True
        head = max(rest, key=lambda p: sum(1 for q in rest if adj.get(p, empty).get(q, 0)))
        row = adj.get(head, empty)
        others = sorted((q for q in rest if q != head), key=lambda q: row.get(q, 0))

        def extend(table: list, start: int, weight: int) -> bool:
            if len(table) == size:
                left = [x for x in rest if x not in table]
                if acc + weight + (sum(lightest[x] for x in left) + 1) // 2 >= best[0]:
                    return True
                tables.append(table)
                done = walk(left, acc + weight, tables)
                tables.pop()
                return done
            for k in range(start, len(others)):
                q = others[k]
                add = weight + sum(adj.get(q, empty).get(x, 0) for x in table)
                if acc + add >= best[0]:
                    continue
                nodes[0] += 1
                if nodes[0] > budget or not extend([*table, q], k + 1, add):
                    return False
            return True

        return extend([head], 0, 0)

    if not walk(list(ranked), 0, []):
        return None
    return best[0], best[1]
