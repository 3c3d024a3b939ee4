"""Seating players four to a table for one round of a four-player tournament (pure, no Django).

Rule source: issue 6 item 4 and docs/tournaments.md ("Other games: individual players, four per table,
seats by wind or 0..3"): each round seats the present players four to a table *by total score*,
*avoiding repeated opponents*, with a seeded search minimising repeat meetings and a report of the
repeats that could not be avoided.

The search minimises, lexicographically:

1. ``repeats``: the number of earlier meetings between players seated together (a pair that met
   twice before counts 2);
2. ``displacement``: how far players sit from their score group (the player ranked ``p``-th,
   0-based, belongs at table ``p // 4``; cost ``|p // 4 - table|`` summed over players).

It starts from a Swiss-style greedy seating down the score order (ties in score broken by a seeded
random draw; each table takes the best-ranked players who have not met anyone already at it),
improves by swapping two players of different tables (first improvement, in a seeded random order;
a player with a repeat may go to any table, others only to tables within ``NEAR``) until no swap
helps, then repeats from seeded perturbations (until ``STALE_RESTARTS`` in a row bring nothing)
and keeps the best result; fields of up to ``EXACT_TABLES`` tables are searched exhaustively, so
they always get the true minimum. The same input and seed always give the same seating. Speed:
``benchmarks/bench_seating.py`` (200 players with 5 earlier rounds: about half a second). Seat order inside a table (0..3; East, South, West, North in
mahjong) is a seeded random draw.
"""
from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

TABLE_SIZE = 4
NEAR = 2  # a player without a repeat is swapped only with tables this close (see _descend)
STALE_RESTARTS = 4  # stop after this many restarts in a row without improvement
EXACT_TABLES = 3  # fields of up to this many tables are searched exhaustively

PlayerId = Hashable


@dataclass(frozen=True)
class Entrant:
    """One present player: ``id`` (any hashable, e.g. a database id), ``score`` (total points so
    far; higher seats higher) and ``order`` (a secondary sort key used before the random draw for
    equal scores, e.g. the registration seed; lower first)."""

    id: PlayerId
    score: float = 0
    order: int = 0


@dataclass(frozen=True)
class Repeat:
    """Two players seated together again: ``table`` (1-based), ``players`` (the two ids, in score
    order) and ``times`` (how often they met before)."""

    table: int
    players: tuple[PlayerId, PlayerId]
    times: int


@dataclass
class SeatingResult:
    """The seating: ``tables`` (table 1 first; each a list of 4 player ids in seat order 0..3),
    ``repeats`` (meetings that could not be avoided), ``repeat_count`` (their total weight),
    ``displacement`` (secondary cost, see the module doc) and ``seed``."""

    tables: list[list[PlayerId]]
    repeats: list[Repeat] = field(default_factory=list)
    repeat_count: int = 0
    displacement: int = 0
    seed: int = 0


def substitutes_needed(count: int) -> int:
    """How many substitutes make ``count`` players fill whole tables of four (0 when it fits)."""
    return (-count) % TABLE_SIZE


def pair_key(a: PlayerId, b: PlayerId) -> frozenset:
    """The key of the meeting counter for players ``a`` and ``b`` (order-free)."""
    return frozenset((a, b))


def count_meetings(tables: Iterable[Iterable[PlayerId]]) -> dict[frozenset, int]:
    """Meeting counter from earlier tables (each an iterable of player ids): pair key -> times."""
    met: dict[frozenset, int] = {}
    for table in tables:
        for a, b in combinations(list(table), 2):
            key = pair_key(a, b)
            met[key] = met.get(key, 0) + 1
    return met


def seat_players(
    entrants: Sequence[Entrant],
    met: Mapping[frozenset, int] | None = None,
    *,
    seed: int = 0,
    restarts: int = 12,
) -> SeatingResult:
    """Seat ``entrants`` four to a table (see the module doc for the method).

    ``met``: pair key (:func:`pair_key`) -> number of earlier meetings. ``seed``: makes the search
    and the seat draw deterministic. Raises ``ValueError`` when the number of entrants is not a
    multiple of four (use :func:`substitutes_needed` to tell the organiser how many substitutes
    are missing) or when an id appears twice.
    """
    met = dict(met or {})
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant appears twice")
    if len(entrants) % TABLE_SIZE:
        raise ValueError(f"{len(entrants)} players do not fill tables of four; {substitutes_needed(len(entrants))} substitutes needed")
    if not entrants:
        return SeatingResult(tables=[], seed=seed)

    rng = random.Random(seed)
    draw = {e.id: rng.random() for e in entrants}
    ordered = sorted(entrants, key=lambda e: (-e.score, e.order, draw[e.id]))
    rank = {e.id: i for i, e in enumerate(ordered)}
    home = {pid: r // TABLE_SIZE for pid, r in rank.items()}
    n_tables = len(ordered) // TABLE_SIZE
    weight, cost, conflicts = _measures(_adjacency(met), home)

    if n_tables <= EXACT_TABLES:
        # Small fields: every partition into tables (at most 5,775 for 12 players), so the result
        # is the true minimum, not a local one.
        best = _exact_partition([e.id for e in ordered], cost)
        return _finish(best, rank, weight, cost, rng, seed)

    best = _greedy_start([e.id for e in ordered], conflicts)
    _descend(best, random.Random(rng.random()), n_tables, home, conflicts)
    best = _restart(best, rng, restarts, n_tables, home, conflicts, cost)
    return _finish(best, rank, weight, cost, rng, seed)


def _adjacency(met: Mapping[frozenset, int]) -> dict[PlayerId, dict[PlayerId, int]]:
    """``met`` as ``{a: {b: times}}`` both ways, only the pairs that met (``times`` not 0; a key
    that is not a pair of two ids is ignored)."""
    adjacency: dict[PlayerId, dict[PlayerId, int]] = {}
    for key, times in met.items():
        if times and len(key) == 2:
            a, b = tuple(key)
            adjacency.setdefault(a, {})[b] = times
            adjacency.setdefault(b, {})[a] = times
    return adjacency


def _measures(adjacency: dict[PlayerId, dict[PlayerId, int]], home: dict[PlayerId, int]):
    """``(weight, cost, conflicts)`` over ``adjacency`` (:func:`_adjacency`) and ``home`` (player ->
    the table of their score group): ``weight(a, b)``, how often two players met; ``cost(tables)``,
    ``(repeats, displacement)`` of a seating (the two costs of the module doc, compared as a
    tuple); ``conflicts(p, others)``, how often ``p`` met the players ``others``. Closures, not
    methods: the search calls ``conflicts`` millions of times."""
    empty: dict[PlayerId, int] = {}

    def weight(a: PlayerId, b: PlayerId) -> int:
        return adjacency.get(a, empty).get(b, 0)

    def cost(tables: list[list[PlayerId]]) -> tuple[int, int]:
        rep = sum(weight(a, b) for t in tables for a, b in combinations(t, 2))
        disp = sum(abs(home[p] - ti) for ti, t in enumerate(tables) for p in t)
        return rep, disp

    def conflicts(p: PlayerId, others: list[PlayerId]) -> int:
        row = adjacency.get(p, empty)
        return sum(row.get(x, 0) for x in others) if row else 0

    return weight, cost, conflicts


def _greedy_start(ranked: list[PlayerId], conflicts) -> list[list[PlayerId]]:
    """The Swiss-style start of the search: down the ranking (``ranked``, best first), each table
    takes the best-ranked players who have not met anyone already at it (the fewest meetings
    when nobody fits). ``ranked`` is emptied."""
    remaining = ranked
    start: list[list[PlayerId]] = []
    while remaining:
        table = [remaining.pop(0)]
        while len(table) < TABLE_SIZE:
            best_k, best_c = 0, None
            for k, cand in enumerate(remaining):
                c = conflicts(cand, table)
                if best_c is None or c < best_c:
                    best_k, best_c = k, c
                    if c == 0:
                        break
            table.append(remaining.pop(best_k))
        start.append(table)
    return start


def _descend(tables: list[list[PlayerId]], local: random.Random, n_tables: int, home: dict[PlayerId, int],
             conflicts) -> None:
    """First-improvement swaps, in place, until none lowers ``(repeats, displacement)``. A player
    without a repeat at their table is only swapped with the neighbouring tables (``NEAR``), a
    player with one with every table. ``local`` shuffles the order of the tables each pass."""
    order = list(range(n_tables))
    improved = True
    while improved:
        improved = False
        local.shuffle(order)
        for a in order:
            for i in range(TABLE_SIZE):
                p = tables[a][i]
                rest_a = [x for k, x in enumerate(tables[a]) if k != i]
                p_here = conflicts(p, rest_a)
                targets = range(n_tables) if p_here else range(max(0, a - NEAR), min(n_tables, a + NEAR + 1))
                for b in targets:
                    if b == a:
                        continue
                    for j in range(TABLE_SIZE):
                        q = tables[b][j]
                        rest_b = [x for k, x in enumerate(tables[b]) if k != j]
                        d_rep = conflicts(q, rest_a) + conflicts(p, rest_b) - p_here - conflicts(q, rest_b)
                        if d_rep > 0:
                            continue
                        d_disp = (abs(home[q] - a) + abs(home[p] - b)) - (abs(home[p] - a) + abs(home[q] - b))
                        if d_rep < 0 or d_disp < 0:
                            tables[a][i], tables[b][j] = q, p
                            p = q
                            rest_a = [x for k, x in enumerate(tables[a]) if k != i]
                            p_here = conflicts(p, rest_a)
                            improved = True


def _restart(best: list[list[PlayerId]], rng: random.Random, restarts: int, n_tables: int,
             home: dict[PlayerId, int], conflicts, cost) -> list[list[PlayerId]]:
    """The best seating found from ``best`` (a local minimum of :func:`_descend`) and up to
    ``restarts`` perturbations of the best so far (swaps of players of neighbouring tables, each
    followed by :func:`_descend`); stops at cost ``(0, 0)`` or after ``STALE_RESTARTS`` in a row
    bring nothing. Each restart draws its generator from ``rng``."""
    best_cost = cost(best)
    stale = 0
    for _ in range(restarts if n_tables > 1 else 0):
        if best_cost[0] == 0 and best_cost[1] == 0 or stale >= STALE_RESTARTS:
            break
        trial = [list(t) for t in best]
        local = random.Random(rng.random())
        for _kick in range(max(2, n_tables)):  # perturb: swap players of neighbouring tables
            a = local.randrange(n_tables - 1)
            b = min(n_tables - 1, a + local.randint(1, 2))
            i, j = local.randrange(TABLE_SIZE), local.randrange(TABLE_SIZE)
            trial[a][i], trial[b][j] = trial[b][j], trial[a][i]
        _descend(trial, local, n_tables, home, conflicts)
        trial_cost = cost(trial)
        if trial_cost < best_cost:
            best, best_cost, stale = trial, trial_cost, 0
        else:
            stale += 1
    return best


def _exact_partition(players: list[PlayerId], cost) -> list[list[PlayerId]]:
    """The partition of ``players`` (in score order) into tables of four with the lowest ``cost``
    (first found on ties, so the result is deterministic)."""
    best: list = [None, None]

    def walk(rest: list[PlayerId], tables: list[list[PlayerId]]) -> None:
        if not rest:
            c = cost(tables)
            if best[0] is None or c < best[0]:
                best[0], best[1] = c, [list(t) for t in tables]
            return
        head, tail = rest[0], rest[1:]
        for others in combinations(tail, TABLE_SIZE - 1):
            left = [x for x in tail if x not in others]
            tables.append([head, *others])
            walk(left, tables)
            tables.pop()

    walk(players, [])
    return best[1]


def _finish(best, rank, weight, cost, rng, seed) -> SeatingResult:
    """Order the tables by strength, report the repeats and draw the seats."""
    # Tables ordered by strength (the table holding the best-ranked player first), players of a
    # table by rank, then the seat draw.
    best = [sorted(t, key=rank.__getitem__) for t in best]
    best.sort(key=lambda t: sum(rank[p] for p in t))
    best_cost = cost(best)
    repeats = [
        Repeat(table=ti + 1, players=(a, b), times=weight(a, b))
        for ti, t in enumerate(best)
        for a, b in combinations(t, 2)
        if weight(a, b)
    ]
    seated = []
    for t in best:
        order = list(t)
        rng.shuffle(order)
        seated.append(order)
    return SeatingResult(tables=seated, repeats=repeats, repeat_count=best_cost[0], displacement=best_cost[1], seed=seed)
