"""Seating players four to a table for one round of a four-player tournament (pure, no Django).

Rule source: issue 6 item 4, issue 24 item 3 and docs/tournaments.md ("Seating four-player
rounds"). The caller (:mod:`scoring.draw.seating`) seats round 1 by :func:`seat_first_round` and
every later round by :func:`seat_players`.

**Round 1: a pot draw.** The field, in its seeding order (seed number, rating or a seeded random
draw, :mod:`scoring.draw.pairing_seeding`), is cut into four pots of ``T = n / 4`` players (pot 1:
the top quarter). Each table takes one player of each pot, drawn at random within the pot (seeded,
so reproducible). So no two players of one quarter ever sit together: the spread is always
achieved, since a field of whole tables has exactly ``T`` players per quarter. Then same-club
tables are repaired by swapping two players *of the same pot* between tables (the spread stays).

**Later rounds: by standings.** The players, in the standings' order (or by ``score`` then
``order``), form groups of four down that order: the ``p``-th (0-based) belongs at table ``p // 4``.
The search minimises a cost compared *lexicographically* (:class:`Cost`):

1. ``repeats``: earlier meetings between players seated together (a pair that met twice counts 2);
2. ``club_pairs``: pairs of one club (:attr:`Entrant.club`, non-empty) seated together;
3. ``displacement``: ``|p // 4 - table|`` summed over the players (0-based table index).

A seating with fewer repeats is better whatever its other terms; between equal repeats, fewer
same-club pairs; then the smaller displacement. (Internally one pair weighs ``met * CLUB_UNIT +
same club``, so one integer carries the first two terms.)

The search starts from a Swiss-style greedy seating down the order (each table takes the
best-ranked players who add no repeat or club pair to it), then swaps two players of different
tables (for each player the best swap; a player with a repeat or club pair at their table may go
to any table, others only to tables within ``NEAR`` of theirs or of their group) and re-splits the
eight players of two close tables in the best way, until nothing helps; then repeats from seeded
perturbations (until ``STALE_RESTARTS`` in a row bring nothing) and keeps the best. Fields of up
to ``EXACT_TABLES`` tables are searched exhaustively, up to ``BOUNDED_TABLES`` by a branch and
bound (within ``BOUND_NODES``): the optimum over the splits into tables, each table numbered by
its best-ranked player. Larger fields get a proof of quality instead: a lower bound of each term
(:mod:`scoring.draw.seating_bounds`; for repeats and club pairs a search that proves their
minimum, within ``PROOF_NODES``, when the simple bound does not) is reported beside the cost
found (``lower_bound``, ``gap``); a zero gap on a term proves it optimal. The same input and seed
always give the same seating; the result is never worse than the greedy start. Speed and gaps:
``benchmarks/bench_seating.py``. Seat order inside a table (0..3; East, South, West, North in
mahjong) is a seeded random draw.
"""
from __future__ import annotations

import random
from collections.abc import Hashable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import combinations

from scoring.draw import seating_bounds
from scoring.draw.seating_bounds import Cost

TABLE_SIZE = 4
NEAR = 2  # a player without a repeat is swapped only with tables this close (see _descend)
STALE_RESTARTS = 4  # stop after this many restarts in a row without improvement
EXACT_TABLES = 3  # fields of up to this many tables are searched exhaustively
BOUNDED_TABLES = 4  # fields of up to this many tables get a branch and bound after the local search
BOUND_NODES = 100_000  # ... that gives up (keeping the local search's seating) after this many tables tried
PROOF_NODES = 50_000  # players placed by the search that proves the fewest repeats and club pairs
CLUB_UNIT = 10**6  # one repeat outweighs any number of same-club pairs (see the module doc)

PlayerId = Hashable


@dataclass(frozen=True)
class Entrant:
    """One present player: ``id`` (any hashable, e.g. a database id), ``score`` (higher seats
    higher), ``order`` (the next sort key, lower first: the standings position or the seed) and
    ``club`` (normalised club name, :func:`scoring.draw.pairing_clubs.normalise`; ``""``: none, or
    club avoidance off). Equal ``score`` and ``order`` are broken by a seeded random draw."""

    id: PlayerId
    score: float = 0
    order: int = 0
    club: str = ""


@dataclass(frozen=True)
class Repeat:
    """Two players seated together again: ``table`` (1-based), ``players`` (the two ids, in rank
    order) and ``times`` (how often they met before)."""

    table: int
    players: tuple[PlayerId, PlayerId]
    times: int


@dataclass(frozen=True)
class ClubPair:
    """Two players of one club at one table: ``table`` (1-based), ``players`` (rank order) and
    ``club`` (the normalised name)."""

    table: int
    players: tuple[PlayerId, PlayerId]
    club: str


@dataclass
class SeatingResult:
    """The seating: ``tables`` (table 1 first; each a list of 4 player ids in seat order 0..3),
    ``repeats`` and ``clubs`` (the repeat meetings and same-club pairs left), ``repeat_count``,
    ``club_pairs`` and ``displacement`` (the three cost terms), ``lower_bound`` (a :class:`Cost`
    no seating can beat term by term, or ``None``), ``exact`` (searched exhaustively: optimal) and
    ``seed``."""

    tables: list[list[PlayerId]]
    repeats: list[Repeat] = field(default_factory=list)
    repeat_count: int = 0
    displacement: int = 0
    seed: int = 0
    club_pairs: int = 0
    clubs: list[ClubPair] = field(default_factory=list)
    lower_bound: Cost | None = None
    exact: bool = False

    @property
    def cost(self) -> Cost:
        """The three cost terms as one :class:`Cost`."""
        return Cost(self.repeat_count, self.club_pairs, self.displacement)

    @property
    def gap(self) -> Cost | None:
        """``cost - lower_bound`` term by term (0 everywhere: proven optimal), or ``None``."""
        return None if self.lower_bound is None else self.cost.minus(self.lower_bound)


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


def _check(entrants: Sequence[Entrant]) -> None:
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("an entrant appears twice")
    if len(entrants) % TABLE_SIZE:
        raise ValueError(f"{len(entrants)} players do not fill tables of four; {substitutes_needed(len(entrants))} substitutes needed")


class _Field:
    """The ranked field of one seating: ``ranked`` ids (best first), ``rank`` and ``home`` (the
    table of the player's group of four) per id, ``met`` (``{a: {b: times}}``), ``club`` per id
    and ``adj`` (``{a: {b: met * CLUB_UNIT + same club}}``, only non-zero pairs)."""

    def __init__(self, entrants: Sequence[Entrant], met: Mapping[frozenset, int], rng: random.Random):
        draw = {e.id: rng.random() for e in entrants}
        ordered = sorted(entrants, key=lambda e: (-e.score, e.order, draw[e.id]))
        self.ranked = [e.id for e in ordered]
        self.rank = {pid: i for i, pid in enumerate(self.ranked)}
        self.home = {pid: r // TABLE_SIZE for pid, r in self.rank.items()}
        self.n_tables = len(ordered) // TABLE_SIZE
        self.club = {e.id: e.club for e in entrants}
        self.met = _adjacency(met, self.rank)
        adj = {pid: {q: t * CLUB_UNIT for q, t in row.items()} for pid, row in self.met.items()}
        members: dict[str, list[PlayerId]] = {}
        for e in entrants:
            if e.club:
                members.setdefault(e.club, []).append(e.id)
        for group in members.values():
            for a, b in combinations(group, 2):
                adj.setdefault(a, {})[b] = adj.get(a, {}).get(b, 0) + 1
                adj.setdefault(b, {})[a] = adj[a][b]
        self.adj = adj

    def conflicts(self):
        """``conflicts(p, others)``: the pair weights of ``p`` with ``others`` (a closure, not a
        method: the search calls it millions of times)."""
        adj, empty = self.adj, {}

        def conflicts(p: PlayerId, others: list[PlayerId]) -> int:
            row = adj.get(p, empty)
            return sum(row.get(x, 0) for x in others) if row else 0

        return conflicts

    def cost(self, tables: list[list[PlayerId]]) -> Cost:
        """The :class:`Cost` of ``tables`` (table index = position in the list)."""
        empty: dict = {}
        pair = sum(self.adj.get(a, empty).get(b, 0) for t in tables for a, b in combinations(t, 2))
        disp = sum(abs(self.home[p] - ti) for ti, t in enumerate(tables) for p in t)
        return Cost(pair // CLUB_UNIT, pair % CLUB_UNIT, disp)


def _adjacency(met: Mapping[frozenset, int], present: Mapping) -> dict[PlayerId, dict[PlayerId, int]]:
    """``met`` as ``{a: {b: times}}`` both ways, only the pairs of ``present`` ids that met
    (``times`` not 0; a key that is not a pair of two ids is ignored)."""
    adjacency: dict[PlayerId, dict[PlayerId, int]] = {}
    for key, times in met.items():
        if times and len(key) == 2:
            a, b = tuple(key)
            if a in present and b in present:
                adjacency.setdefault(a, {})[b] = times
                adjacency.setdefault(b, {})[a] = times
    return adjacency


def greedy_seating(entrants: Sequence[Entrant], met: Mapping[frozenset, int] | None = None, *,
                   seed: int = 0) -> tuple[list[list[PlayerId]], Cost]:
    """The start of :func:`seat_players` on its own (the benchmark's baseline): ``(tables, cost)``,
    tables in search order (no seat draw). Same errors as :func:`seat_players`."""
    _check(entrants)
    rng = random.Random(seed)
    f = _Field(entrants, met or {}, rng)
    tables = _greedy_start(list(f.ranked), f.conflicts())
    return tables, f.cost(tables)


def seat_players(
    entrants: Sequence[Entrant],
    met: Mapping[frozenset, int] | None = None,
    *,
    seed: int = 0,
    restarts: int = 12,
) -> SeatingResult:
    """Seat ``entrants`` four to a table by rank (see the module doc for the cost and the method).

    ``met``: pair key (:func:`pair_key`) -> number of earlier meetings. ``seed``: makes the search
    and the seat draw deterministic. Raises ``ValueError`` when the number of entrants is not a
    multiple of four (use :func:`substitutes_needed` to tell the organiser how many substitutes
    are missing) or when an id appears twice.
    """
    _check(entrants)
    if not entrants:
        return SeatingResult(tables=[], seed=seed, lower_bound=Cost(), exact=True)
    rng = random.Random(seed)
    f = _Field(entrants, met or {}, rng)
    conflicts = f.conflicts()
    if f.n_tables <= EXACT_TABLES:
        # Small fields: every partition into tables (at most 5,775 for 12 players), so the result
        # is the true minimum, not a local one.
        best = _exact_partition(list(f.ranked), f.cost)
        return _finish(best, f, rng, seed, exact=True)
    best = _greedy_start(list(f.ranked), conflicts)
    _descend(best, random.Random(rng.random()), f, conflicts)
    _regroup(best, f)
    best = _restart(best, rng, restarts, f, conflicts)
    best, pairs = _prove_pairs(best, f, random.Random(rng.random()), conflicts)
    exact = False
    if f.n_tables <= BOUNDED_TABLES and f.cost(best) != Cost():
        best, exact = _branch_and_bound(f, best, BOUND_NODES)
    return _finish(best, f, rng, seed, exact=exact, pairs=pairs)


def _prove_pairs(best: list[list[PlayerId]], f: _Field, local: random.Random,
                 conflicts) -> tuple[list[list[PlayerId]], tuple[int, int] | None]:
    """``(tables, pairs)``: ``best``, or a seating with fewer repeats or club pairs when
    :func:`scoring.draw.seating_bounds.pair_minimum` finds one (then improved by
    :func:`_descend`), and the proven ``(repeats, club_pairs)`` of the optimum (``None`` when
    the search ran out of its ``PROOF_NODES``). Nothing to prove when the pair weight found
    equals its simple bound (:func:`scoring.draw.seating_bounds.repeat_bound` of the weights)."""
    cost = f.cost(best)
    weight = cost.repeats * CLUB_UNIT + cost.club_pairs
    if weight <= seating_bounds.repeat_bound(f.ranked, f.adj, TABLE_SIZE):
        return best, (cost.repeats, cost.club_pairs)
    proof = seating_bounds.pair_minimum(f.ranked, f.adj, TABLE_SIZE, upper=weight, budget=PROOF_NODES)
    if proof is None:
        return best, None
    weight, tables = proof
    if tables is not None:
        best = tables
        _descend(best, local, f, conflicts)
    return best, divmod(weight, CLUB_UNIT)


def _greedy_start(ranked: list[PlayerId], conflicts) -> list[list[PlayerId]]:
    """The Swiss-style start of the search: down the ranking (``ranked``, best first), each table
    takes the best-ranked players who add no repeat or club pair to it (the lowest pair weight
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


def _descend(tables: list[list[PlayerId]], local: random.Random, f: _Field, conflicts) -> None:
    """Swaps of two players of different tables, in place, until none lowers the :class:`Cost`:
    for each player in turn the best swap (the lowest pair weight, then displacement) is taken. A
    player without a repeat or club pair at their table is only swapped with tables near theirs or
    near their own group (``NEAR``), a player with one with every table. ``local`` shuffles the
    order of the tables each pass."""
    n_tables, home = f.n_tables, f.home
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
                if p_here:
                    targets = order
                else:  # near this table, and near the player's own group (to bring them back)
                    h = home[p]
                    targets = sorted({*range(max(0, a - NEAR), min(n_tables, a + NEAR + 1)),
                                      *range(max(0, h - NEAR), min(n_tables, h + NEAR + 1))})
                move, where = (0, 0), None
                for b in targets:
                    if b == a:
                        continue
                    for j in range(TABLE_SIZE):
                        q = tables[b][j]
                        rest_b = [x for k, x in enumerate(tables[b]) if k != j]
                        d_pair = conflicts(q, rest_a) + conflicts(p, rest_b) - p_here - conflicts(q, rest_b)
                        if d_pair > move[0]:
                            continue
                        d_disp = (abs(home[q] - a) + abs(home[p] - b)) - (abs(home[p] - a) + abs(home[q] - b))
                        if (d_pair, d_disp) < move:
                            move, where = (d_pair, d_disp), (b, j)
                if where is not None:
                    b, j = where
                    tables[a][i], tables[b][j] = tables[b][j], p
                    improved = True


def _regroup(tables: list[list[PlayerId]], f: _Field) -> bool:
    """Re-split the eight players of two tables in the best way (all 35 splits, either way round),
    for every two tables that are close (``NEAR``) or where one holds a player whose group is the
    other, in place, until nothing improves. True when something changed."""
    adj, home, empty = f.adj, f.home, {}

    def table_cost(t: list[PlayerId], index: int) -> tuple[int, int]:
        return (sum(adj.get(x, empty).get(y, 0) for x, y in combinations(t, 2)),
                sum(abs(home[x] - index) for x in t))

    changed = any_change = True
    while changed:
        changed = False
        for a in range(f.n_tables):
            partners = {home[x] for x in tables[a]} | set(range(a + 1, min(f.n_tables, a + NEAR + 1)))
            for b in sorted(partners):
                if b <= a:
                    continue
                eight = tables[a] + tables[b]
                ca, cb = table_cost(tables[a], a), table_cost(tables[b], b)
                now = (ca[0] + cb[0], ca[1] + cb[1])
                best, split = now, None
                for others in combinations(eight[1:], TABLE_SIZE - 1):
                    one = [eight[0], *others]
                    two = [x for x in eight if x not in one]
                    for ta, tb in ((one, two), (two, one)):
                        xa, xb = table_cost(ta, a), table_cost(tb, b)
                        c = (xa[0] + xb[0], xa[1] + xb[1])
                        if c < best:
                            best, split = c, (ta, tb)
                if split:
                    tables[a], tables[b] = list(split[0]), list(split[1])
                    changed = any_change = True
    return any_change


def _restart(best: list[list[PlayerId]], rng: random.Random, restarts: int, f: _Field, conflicts) -> list[list[PlayerId]]:
    """The best seating found from ``best`` (a local minimum of :func:`_descend`) and up to
    ``restarts`` perturbations of the best so far (swaps of players of neighbouring tables, each
    followed by :func:`_descend`); stops at cost zero or after ``STALE_RESTARTS`` in a row bring
    nothing. Each restart draws its generator from ``rng``."""
    n_tables = f.n_tables
    best_cost = f.cost(best)
    stale = 0
    for _ in range(restarts if n_tables > 1 else 0):
        if best_cost == Cost() or stale >= STALE_RESTARTS:
            break
        trial = [list(t) for t in best]
        local = random.Random(rng.random())
        for _kick in range(max(2, n_tables)):  # perturb: swap players of neighbouring tables
            a = local.randrange(n_tables - 1)
            b = min(n_tables - 1, a + local.randint(1, 2))
            i, j = local.randrange(TABLE_SIZE), local.randrange(TABLE_SIZE)
            trial[a][i], trial[b][j] = trial[b][j], trial[a][i]
        _descend(trial, local, f, conflicts)
        _regroup(trial, f)
        trial_cost = f.cost(trial)
        if trial_cost < best_cost:
            best, best_cost, stale = trial, trial_cost, 0
        else:
            stale += 1
    return best


def _exact_partition(players: list[PlayerId], cost) -> list[list[PlayerId]]:
    """The partition of ``players`` (in rank order) into tables of four with the lowest ``cost``
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


def _branch_and_bound(f: _Field, upper: list[list[PlayerId]], budget: int) -> tuple[list[list[PlayerId]], bool]:
    """Every partition of the field into tables (each table numbered by its best-ranked player)
    that could beat ``upper``, pruned as soon as the tables so far plus a bound of the rest cost
    as much as the best known (the rest: half the sum of each player's ``TABLE_SIZE - 1`` lightest
    pair weights, and how far each player lies above the next table). ``(best, True)`` when the
    search ended (``best`` is then optimal), ``(upper, False)`` when it tried more than ``budget``
    tables."""
    adj, home, empty, ranked = f.adj, f.home, {}, f.ranked
    lightest = {p: sum(sorted(adj.get(p, empty).get(q, 0) for q in ranked if q != p)[:TABLE_SIZE - 1]) for p in ranked}
    ub = f.cost(upper)
    best: list = [(ub.repeats * CLUB_UNIT + ub.club_pairs, ub.displacement), upper]
    nodes = [0]

    def walk(rest: list[PlayerId], tables: list[list[PlayerId]], pair: int, disp: int) -> bool:
        if not rest:
            if (pair, disp) < best[0]:
                best[0], best[1] = (pair, disp), [list(t) for t in tables]
            return True
        index = len(tables)
        head, tail = rest[0], rest[1:]
        for others in combinations(tail, TABLE_SIZE - 1):
            nodes[0] += 1
            if nodes[0] > budget:
                return False
            table = [head, *others]
            p = pair + sum(adj.get(a, empty).get(b, 0) for a, b in combinations(table, 2))
            d = disp + sum(abs(home[x] - index) for x in table)
            left = [x for x in tail if x not in others]
            more_p = (sum(lightest[x] for x in left) + 1) // 2
            more_d = sum(max(0, index + 1 - home[x]) for x in left)
            if (p + more_p, d + more_d) >= best[0]:
                continue
            tables.append(table)
            done = walk(left, tables, p, d)
            tables.pop()
            if not done:
                return False
        return True

    if walk(list(ranked), [], 0, 0):
        return best[1], True
    return upper, False


def _report(tables: list[list[PlayerId]], f: _Field) -> tuple[list[Repeat], list[ClubPair]]:
    """The repeats and same-club pairs of ``tables`` (players of a table in rank order)."""
    repeats, clubs = [], []
    for ti, t in enumerate(tables, start=1):
        for a, b in combinations(t, 2):
            times = f.met.get(a, {}).get(b, 0)
            if times:
                repeats.append(Repeat(table=ti, players=(a, b), times=times))
            if f.club[a] and f.club[a] == f.club[b]:
                clubs.append(ClubPair(table=ti, players=(a, b), club=f.club[a]))
    return repeats, clubs


def _finish(best, f: _Field, rng: random.Random, seed: int, *, exact: bool,
            pairs: tuple[int, int] | None = None) -> SeatingResult:
    """Order the tables by strength (unless that raises the displacement), report the repeats and
    club pairs, bound the cost from below and draw the seats."""
    best = [sorted(t, key=f.rank.__getitem__) for t in best]
    by_strength = sorted(best, key=lambda t: sum(f.rank[p] for p in t))
    if f.cost(by_strength) <= f.cost(best):
        best = by_strength
    cost = f.cost(best)
    repeats, clubs = _report(best, f)
    if exact:
        bound = cost
    else:
        bound = seating_bounds.lower_bound(f.ranked, f.met, f.club, TABLE_SIZE, found=cost, pairs=pairs)
    seated = []
    for t in best:
        order = list(t)
        rng.shuffle(order)
        seated.append(order)
    return SeatingResult(tables=seated, repeats=repeats, repeat_count=cost.repeats, displacement=cost.displacement,
                         seed=seed, club_pairs=cost.club_pairs, clubs=clubs, lower_bound=bound, exact=exact)


def seat_first_round(entrants: Sequence[Entrant], *, seed: int = 0, passes: int = 50) -> SeatingResult:
    """Round 1 by a pot draw (module doc): ``entrants`` in seeding order (best first; ``score``
    and ``order`` are not used) cut into four pots of ``n / 4``; table ``t`` takes the ``t``-th
    player of each pot after a seeded shuffle of every pot; then same-club pairs are removed by
    swapping players of one pot between tables while that lowers their number (at most ``passes``
    passes). Tables are numbered by their pot-1 player (table 1: the best seed); the cost has no
    repeats or displacement. Same errors as :func:`seat_players`."""
    _check(entrants)
    n_tables = len(entrants) // TABLE_SIZE
    rng = random.Random(seed)
    pots = [list(entrants[k * n_tables:(k + 1) * n_tables]) for k in range(TABLE_SIZE)]
    for pot in pots:
        rng.shuffle(pot)
    pots[0].sort(key=list(entrants).index)  # table 1 holds the top seed, table 2 the second, ...
    tables = [[pots[k][t] for k in range(TABLE_SIZE)] for t in range(n_tables)]
    _repair_clubs(tables, random.Random(rng.random()), passes)
    rank = {e.id: i for i, e in enumerate(entrants)}
    f = _Field([Entrant(id=e.id, order=rank[e.id], club=e.club) for e in entrants], {}, random.Random(0))
    best = [[e.id for e in t] for t in tables]
    cost = f.cost(best)
    _repeats, clubs = _report([sorted(t, key=rank.__getitem__) for t in best], f)
    bound = Cost(0, seating_bounds.club_bound(f.club.values(), n_tables), 0)
    seated = []
    for t in best:
        rng.shuffle(t)
        seated.append(t)
    return SeatingResult(tables=seated, seed=seed, club_pairs=cost.club_pairs, clubs=clubs, lower_bound=bound,
                         exact=n_tables <= 1 or cost.club_pairs == bound.club_pairs)


def _repair_clubs(tables: list[list[Entrant]], local: random.Random, passes: int) -> None:
    """Swap players of one pot (the same seat index ``k`` of ``tables``) between two tables while
    that lowers the number of same-club pairs, in place."""
    def clash(e: Entrant, table: list[Entrant], skip: int) -> int:
        return sum(1 for k, x in enumerate(table) if k != skip and e.club and x.club == e.club)

    order = list(range(len(tables)))
    for _ in range(passes):
        improved = False
        local.shuffle(order)
        for a in order:
            for k in range(TABLE_SIZE):
                p = tables[a][k]
                here = clash(p, tables[a], k)
                if not here:
                    continue
                for b in order:
                    q = tables[b][k]
                    if b == a:
                        continue
                    before = here + clash(q, tables[b], k)
                    after = clash(q, tables[a], k) + clash(p, tables[b], k)
                    if after < before:
                        tables[a][k], tables[b][k] = q, p
                        improved = True
                        break
        if not improved:
            return
