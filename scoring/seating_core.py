"""Seating players four to a table for one round of a four-player tournament (pure, no Django).

Rule source: issue 6 item 4 and DESIGN.md 3 ("Other games: individual players, four per table,
seats by wind or 0..3"): each round seats the present players four to a table *by total score*,
*avoiding repeated opponents*, with a seeded search minimising repeat meetings and a report of the
repeats that could not be avoided.

The search minimises, lexicographically:

1. ``repeats``: the number of earlier meetings between players seated together (a pair that met
   twice before counts 2);
2. ``displacement``: how far players sit from their score group (the player ranked ``p``-th,
   0-based, belongs at table ``p // 4``; cost ``|p // 4 - table|`` summed over players).

It starts from the score order (ties in score broken by a seeded random draw), improves by swapping
two players of different tables (first improvement, in a seeded random order) until no swap helps,
then repeats from a few seeded perturbations and keeps the best result. The same input and seed
always give the same seating. Seat order inside a table (0..3; East, South, West, North in
mahjong) is a seeded random draw.
"""
from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

TABLE_SIZE = 4

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

    def weight(a: PlayerId, b: PlayerId) -> int:
        return met.get(pair_key(a, b), 0)

    def cost(tables: list[list[PlayerId]]) -> tuple[int, int]:
        rep = sum(weight(a, b) for t in tables for a, b in combinations(t, 2))
        disp = sum(abs(home[p] - ti) for ti, t in enumerate(tables) for p in t)
        return rep, disp

    def descend(tables: list[list[PlayerId]], local: random.Random) -> None:
        moves = [(a, i, b, j) for a in range(n_tables) for b in range(a + 1, n_tables) for i in range(TABLE_SIZE) for j in range(TABLE_SIZE)]
        improved = True
        while improved:
            improved = False
            local.shuffle(moves)
            for a, i, b, j in moves:
                p, q = tables[a][i], tables[b][j]
                rest_a = [x for k, x in enumerate(tables[a]) if k != i]
                rest_b = [x for k, x in enumerate(tables[b]) if k != j]
                d_rep = (sum(weight(q, x) for x in rest_a) + sum(weight(p, x) for x in rest_b)) - (
                    sum(weight(p, x) for x in rest_a) + sum(weight(q, x) for x in rest_b)
                )
                d_disp = (abs(home[q] - a) + abs(home[p] - b)) - (abs(home[p] - a) + abs(home[q] - b))
                if d_rep < 0 or (d_rep == 0 and d_disp < 0):
                    tables[a][i], tables[b][j] = q, p
                    improved = True

    start = [[e.id for e in ordered[t * TABLE_SIZE:(t + 1) * TABLE_SIZE]] for t in range(n_tables)]
    best = [list(t) for t in start]
    descend(best, random.Random(rng.random()))
    best_cost = cost(best)
    for _ in range(restarts if n_tables > 1 else 0):
        if best_cost[0] == 0 and best_cost[1] == 0:
            break
        trial = [list(t) for t in best]
        local = random.Random(rng.random())
        for _kick in range(max(2, n_tables)):  # perturb: swap players of neighbouring tables
            a = local.randrange(n_tables - 1)
            b = min(n_tables - 1, a + local.randint(1, 2))
            i, j = local.randrange(TABLE_SIZE), local.randrange(TABLE_SIZE)
            trial[a][i], trial[b][j] = trial[b][j], trial[a][i]
        descend(trial, local)
        trial_cost = cost(trial)
        if trial_cost < best_cost:
            best, best_cost = trial, trial_cost

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
