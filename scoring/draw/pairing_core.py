"""Swiss pairing for team tournaments as pure functions over plain data (no Django).

Source: docs/tournaments.md (Pairing) and issue 4 item 1. The ORM layer is
:mod:`scoring.draw.pairing`; this module only sees :class:`Entrant` values.

Rules implemented:

- **Who is paired**: every entrant *present* in the round: ``joined_round <= round`` (late
  entries) and not withdrawn (``withdrawn_after_round`` is ``None`` or ``>= round``). Withdrawn
  teams are never paired again; their results stay with the caller.
- **Round 1** (nobody has played yet): ``method`` ``random`` (from ``seed``), ``seeded`` or
  ``rating`` (slide: 1 v n/2+1), ``fold`` or ``fold_rating`` (fold: 1 v n); the table of
  :mod:`scoring.draw.pairing_seeding`. With an odd number the last in that order gets the bye.
- **Late entries** (``joined_round > 1``) are ranked below the teams with the same match points
  that played every round (in the caller's order among themselves); :attr:`Table.late` names them
  where that mattered (their score group holds a team that played every round).
- **Club avoidance** (``avoid_clubs=True``): after the pairing, same-club tables are repaired by
  swapping opponents between tables of the same score groups (:mod:`scoring.draw.pairing_clubs`):
  never a rematch, the same floats and the same bye; :attr:`Table.club_swap` and
  :attr:`Table.club_clash` say what happened.
- **Later rounds (Swiss)**: ONE maximum-weight matching (networkx ``max_weight_matching`` with
  ``maxcardinality=True``) over the whole field. Rematches are forbidden outright: a pair that has
  met has no edge at all, so no weight can buy it. With an odd number a ``BYE`` node joins the
  graph with edges only to teams that have not had a bye. Because ``maxcardinality`` first asks
  for the most pairs, everyone present is paired whenever that is possible without a rematch.
  Among those pairings the weights choose lexicographically (each level outweighs every
  combination of the levels below it):

  1. the bye goes to the lowest-ranked eligible team;
  2. equal match points are preferred (a pair in one score group costs nothing), then the smallest
     score-group distance: a float costs the square of the number of score groups it crosses,
     so two one-group floats are preferred to one two-group float (as the Dutch system does);
  3. the smallest total rank distance (1 v 2, 3 v 4 within a group; deterministic).

- **Speed, with the same optimum** (proofs in :func:`_candidates` and :func:`_safe_cuts`): with
  the bye team fixed, a pair of an optimal pairing never spans many teams that neither of them has
  met, and two pairs that both cross a boundary between ranks could be uncrossed into a strictly
  better pairing unless a rematch forbids it. So only a small, provably sufficient set of
  candidate pairs is kept, the ranking splits into short chunks at every boundary no optimal
  pairing can cross, and each chunk is matched on its own (up to 8 teams by trying every perfect
  matching, larger ones by networkx ``max_weight_matching``); the union has the weight of the full
  graph's optimum. The bye goes to the
  lowest-ranked eligible team whose absence leaves every chunk matchable. Whenever that fails
  (no such team among the lowest few, or no pairing at all) the whole graph is matched as before,
  which also names the blocking teams. ``benchmarks/bench_pairing.py`` times it against the
  earlier single matching over the k nearest opponents (which found the same optimum in practice
  but could not prove it) and checks that both reach the same weight;
  ``tests/draw/test_pairing_optimum.py`` compares it with the full graph's optimum.
- **Impossible**: if even the full graph has no perfect matching, :class:`NoPairing` names the
  blocking teams (Gallai-Edmonds: the teams some maximum matching must leave unpaired, plus their
  only possible opponents) and no pairing is made - never a rematch.
- **Tables** by rank (the better team's rank; the bye last), the better-ranked team sits NS.
  Each table gets a reason: same score group, floated down (with the points), or bye.
- **Deterministic**: the same entrants, round and seed always give the same pairing.

Entrants must be passed in ranking order (best first, as the standings rank them); the order is
then only made stable by match points (higher first).
"""
from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

import networkx as nx

from scoring.draw.pairing_blocking import BYE, NoPairing, _blocking_error, _quick_impossible
from scoring.draw.pairing_clubs import avoid_clubs as avoid_clubs_
from scoring.draw.pairing_clubs import normalise, same_club
from scoring.draw.pairing_seeding import METHODS, seeding_order, split

__all__ = ["BYE", "METHODS", "NoPairing", "_blocking_error", "_quick_impossible"]

#: How many of the lowest-ranked teams without a bye are tried for the bye before the whole graph
#: is matched instead (each try is exact; the full graph only costs time).
BYE_TRIES = 4


class Reason(StrEnum):
    """Why a table was paired this way."""

    SAME_GROUP = "same_group"  # both teams have the same match points (round 1: everyone)
    FLOATED = "floated"  # the NS team floated down to a lower score group
    BYE = "bye"  # no opponent this round


@dataclass(frozen=True)
class Entrant:
    """One team as the pairing sees it.

    ``id``: any hashable, sortable key (the ORM uses ``Team.pk``); ``name`` for messages;
    ``points``: match points so far; ``opponents``: ids already met; ``had_bye``; ``seed``
    (``None`` = unseeded); ``joined_round`` (late entry) and ``withdrawn_after_round``;
    ``club`` (the affiliation; ``""`` none) and ``rating`` (``None`` = unrated).
    """

    id: int
    name: str = ""
    points: int = 0
    opponents: frozenset = field(default_factory=frozenset)
    had_bye: bool = False
    seed: int | None = None
    joined_round: int = 1
    withdrawn_after_round: int | None = None
    club: str = ""
    rating: int | None = None

    def present_in(self, round_number: int) -> bool:
        """True if the entrant may be paired in ``round_number`` (late entries, withdrawals)."""
        if self.joined_round > round_number:
            return False
        return self.withdrawn_after_round is None or round_number <= self.withdrawn_after_round


@dataclass(frozen=True)
class Table:
    """One table of a pairing: ``ns`` against ``ew`` (``None``: a bye for ``ns``).

    ``reason`` (:class:`Reason`), ``ns_points``/``ew_points`` (match points before the round);
    ``club_swap``: the opponents were swapped with another table to avoid a same-club meeting;
    ``club_clash``: both teams are of one club and no swap avoided it; ``late``: the ids of late
    entries at this table ranked below equal teams that played every round.
    """

    table: int
    ns: int
    ew: int | None
    reason: Reason
    ns_points: int = 0
    ew_points: int | None = None
    club_swap: bool = False
    club_clash: bool = False
    late: tuple = ()


@dataclass(frozen=True)
class Warning:
    """A problem found in a hand-made pairing (:func:`check_pairing`): ``code`` one of
    ``rematch``, ``double_booking``, ``missing``, ``second_bye``, ``not_present``, ``unknown``;
    ``teams``: the ids concerned."""

    code: str
    teams: tuple


# --------------------------------------------------------------------------- public API


def present(entrants: Iterable[Entrant], round_number: int) -> list[Entrant]:
    """The entrants that may be paired in ``round_number``, in the given order."""
    return [e for e in entrants if e.present_in(round_number)]


def pair_round(
    entrants: Sequence[Entrant],
    round_number: int,
    *,
    seed: int = 0,
    method: str = "random",
    avoid_clubs: bool = False,
) -> list[Table]:
    """Pair ``round_number``. ``entrants``: every team in ranking order (best first); absent ones
    (late entries, withdrawals) are skipped. ``method`` for round 1: one of :data:`METHODS`
    (``ValueError`` otherwise). ``avoid_clubs``: repair same-club tables by swaps that keep the
    score groups, floats and bye (module doc). Returns the tables numbered 1..n by rank, the bye
    last. Raises :class:`NoPairing` if no pairing without a rematch (or a second bye) exists.
    """
    field_ = present(entrants, round_number)
    if not field_:
        return []
    fresh = all(not e.opponents and not e.had_bye and e.points == 0 for e in field_)
    if fresh:
        return _initial(field_, seed=seed, method=method, avoid_clubs=avoid_clubs)
    return _swiss(field_, avoid_clubs=avoid_clubs)


def check_pairing(entrants: Sequence[Entrant], pairs: Sequence[tuple], round_number: int) -> list[Warning]:
    """Warnings for a hand-made pairing ``pairs`` (``[(ns_id, ew_id_or_None), ...]``) of
    ``round_number``: rematches, double bookings, present teams left out, a second bye, withdrawn
    or not-yet-joined teams, unknown ids. An empty list means the pairing is clean."""
    by_id = {e.id: e for e in entrants}
    warnings: list[Warning] = []
    seen: dict = {}
    for ns, ew in pairs:
        for team in (ns, ew):
            if team is None:
                continue
            if team not in by_id:
                warnings.append(Warning("unknown", (team,)))
                continue
            seen[team] = seen.get(team, 0) + 1
            if not by_id[team].present_in(round_number):
                warnings.append(Warning("not_present", (team,)))
        if ew is None:
            if ns in by_id and by_id[ns].had_bye:
                warnings.append(Warning("second_bye", (ns,)))
        elif ns in by_id and ew in by_id and (ew in by_id[ns].opponents or ns in by_id[ew].opponents):
            warnings.append(Warning("rematch", (ns, ew)))
        if ns == ew:
            warnings.append(Warning("double_booking", (ns,)))
    for team, count in seen.items():
        if count > 1:
            warnings.append(Warning("double_booking", (team,)))
    for e in present(entrants, round_number):
        if e.id not in seen:
            warnings.append(Warning("missing", (e.id,)))
    return warnings


# --------------------------------------------------------------------------- round 1


def _initial(field_: list[Entrant], *, seed: int, method: str, avoid_clubs: bool = False) -> list[Table]:
    order = seeding_order(field_, seed=seed, method=method)
    rank = {e.id: i for i, e in enumerate(order)}
    pairs, bye = split(order, method)
    by_id = {e.id: e for e in field_}
    return _build(field_, [(a.id, b.id) for a, b in pairs], bye.id if bye is not None else None, rank,
                  by_id, avoid_clubs=avoid_clubs, late=False)


# --------------------------------------------------------------------------- Swiss


def _ranked(field_: list[Entrant]) -> list[Entrant]:
    """Stable order by match points (higher first), late entries (``joined_round > 1``) below
    the teams with the same points that played every round, else the caller's ranking."""
    return sorted(field_, key=lambda e: (-e.points, e.joined_round > 1))


def _met(a: Entrant, b: Entrant) -> bool:
    return b.id in a.opponents or a.id in b.opponents


class _Weights:
    """Integer edge weights giving the lexicographic preferences described in the module doc:
    a pair costs ``group_distance ** 2`` (0 for equal match points; two one-group floats beat one
    two-group float) times a unit larger than every possible sum of rank distances, plus its rank
    distance; the bye edge of rank ``r`` (0 = top) weighs ``(r + 1)`` times a unit larger than
    every possible sum of pair weights, so the lowest-ranked eligible team gets it."""

    def __init__(self, ranked: list[Entrant]):
        n = len(ranked)
        levels = sorted({e.points for e in ranked}, reverse=True)
        index = {p: i for i, p in enumerate(levels)}
        self.group = {e.id: index[e.points] for e in ranked}
        self.points = {e.id: e.points for e in ranked}
        self.rank = {e.id: i for i, e in enumerate(ranked)}
        spread = max(len(levels) - 1, 0)
        self.w_group = n * n + 1  # beats any sum of rank distances
        self.base = self.w_group * (spread * spread + 1) + n + 1  # keeps every pair weight positive
        self.w_bye = (n // 2 + 1) * self.base + 1  # beats any sum of pair weights

    def pair(self, a, b) -> int:
        """Weight of the edge a-b (higher is better)."""
        distance = self.group[a] - self.group[b]
        return self.base - self.w_group * distance * distance - abs(self.rank[a] - self.rank[b])

    def bye(self, a) -> int:
        """Weight of the bye edge of ``a`` (higher for lower-ranked teams)."""
        return self.w_bye * (self.rank[a] + 1)


def _candidate_graph(ranked: list[Entrant], weights: _Weights, k: int, odd: bool) -> nx.Graph:
    """The k-nearest-non-opponent graph (all edges when ``k >= n``), plus the bye node."""
    n = len(ranked)
    g = nx.Graph()
    g.add_nodes_from(e.id for e in ranked)
    edges: set[tuple[int, int]] = set()
    for i, a in enumerate(ranked):
        found = 0
        for dist in range(1, n):
            for j in (i - dist, i + dist):
                if 0 <= j < n and not _met(a, ranked[j]):
                    edges.add((min(i, j), max(i, j)))
                    found += 1
            if found >= k:
                break
    for i, j in sorted(edges):
        a, b = ranked[i].id, ranked[j].id
        g.add_edge(a, b, weight=weights.pair(a, b))
    if odd:
        g.add_node(BYE)
        eligible = [e for e in reversed(ranked) if not e.had_bye]
        for e in eligible[: max(k, 1)] if k < n else eligible:
            g.add_edge(BYE, e.id, weight=weights.bye(e.id))
    return g


def _swiss(field_: list[Entrant], *, avoid_clubs: bool = False) -> list[Table]:
    ranked = _ranked(field_)
    n = len(ranked)
    odd = n % 2 == 1
    by_id = {e.id: e for e in ranked}
    _quick_impossible(ranked, odd)
    weights = _Weights(ranked)
    matching = _chunked_optimum(ranked, weights, odd)
    if matching is None:  # no pairing at all, or the bye is unusually high up: the whole graph
        graph = _candidate_graph(ranked, weights, n, odd)
        matching = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
        if len(matching) != (n + 1) // 2:
            raise _blocking_error(graph, ranked, odd)
    return _tables(matching, by_id, weights, ranked=ranked, avoid_clubs=avoid_clubs)


def _met_positions(ranked: list[Entrant]) -> list[set[int]]:
    """For each position in ``ranked``: the positions of the teams present that it has met."""
    pos = {e.id: i for i, e in enumerate(ranked)}
    met: list[set[int]] = [set() for _ in ranked]
    for i, e in enumerate(ranked):
        for opp in e.opponents:
            j = pos.get(opp)
            if j is not None and j != i:
                met[i].add(j)
                met[j].add(i)
    return met


def _candidates(met: list[set[int]], odd: bool) -> list[list[int]]:
    """``cand[a]``: the positions ``d > a`` that ``a`` may meet in SOME optimal pairing (a superset:
    every pair of every optimal pairing is kept; others may be kept too).

    Positions are ranks (0 = best); score groups never decrease along them. Fix the bye team ``t``
    (``None`` for an even field) and an optimal pairing ``M`` of the others; write ``p(x)`` for
    ``x``'s opponent in ``M`` and ``F`` for the pairs that have met.

    Exchange lemma: if ``(a, d)`` is in ``M`` (``a < d``) and ``x`` lies strictly between them
    (``x != t``), then ``x`` or ``p(x)`` has met ``a`` or ``d``. Otherwise the two pairs
    ``(a, d)`` and ``(x, p(x))`` nest or cross, and re-pairing the four teams as the two lowest
    and the two highest of them (``(a, x), (d, p(x))``, ``(p(x), a), (x, d)`` or, nested,
    ``(a, b), (c, d)`` with ``b < c`` the inner two) is allowed, lowers the rank distance by
    twice a positive gap and never raises the sum of squared score-group distances (with
    group gaps ``u, v, w >= 0`` along the line: ``(u+v)² + (v+w)² >= u² + w²`` and
    ``(u+v+w)² + v² >= u² + w²``), a strictly better pairing.

    Consequences used here, each only removing pairs that no optimal pairing contains:

    1. ``x`` maps to a team of ``N = F(a) | F(d)`` (itself or its opponent) and each team of
       ``N`` is hit at most twice, so ``d - a <= 2 * |N| + 1`` (``+ 1`` when ``t`` lies between).
    2. The inner teams outside ``N`` (``U``) need distinct opponents in ``N`` within reach
       (a pair is never longer than ``L = 4 * max|F| + 1 (+1)``, by 1), so ``|U| <= |N near| (+1)``.
    3. Repeatedly: those opponents must be candidates of ``x`` themselves; at most one ``x``
       (the bye team) may have none, and ``|U|`` is at most the number of such opponents (+1).
    """
    extra = 1 if odd else 0
    fmax = max((len(m) for m in met), default=0)
    reach = 4 * fmax + 1 + extra
    cand = _count_filter(met, reach, extra)
    for _ in range(2):  # (3) twice (each pass is sound; more drop few pairs, rarely worth their time)
        if not _opponent_filter(cand, met, extra):
            break
    return cand


def _count_filter(met: list[set[int]], reach: int, extra: int) -> list[list[int]]:
    """Steps (1) and (2) of :func:`_candidates`, no pair being longer than ``reach``."""
    n = len(met)
    # The teams each team has met that can matter: within twice the reach (sorted).
    near = [sorted(p for p in met[i] if abs(p - i) <= 2 * reach) for i in range(n)]
    near_max = max((len(s) for s in near), default=0)
    out: list[list[int]] = [[] for _ in range(n)]
    for a in range(n):
        met_a, near_a = met[a], near[a]
        low_a, past_a = bisect_left(near_a, a - reach), bisect_right(near_a, a)
        longest = 2 * (len(near_a) + near_max) + extra  # (2) fails beyond, whatever ``d`` met
        for d in range(a + 1, min(n, a + reach + 1)):
            inner = d - a - 1
            if inner > longest:
                break
            if d in met_a or inner > 2 * (len(met_a) + len(met[d])) + extra:
                continue  # a rematch, or (1)
            near_d = near[d]
            # |N near| and |N between a and d| counted per side: a team both have met counts twice,
            # which only keeps more pairs (never drops one that (2) keeps).
            n_near = bisect_right(near_a, d + reach) - low_a
            between = bisect_left(near_a, d) - past_a
            if near_d:
                n_near += bisect_right(near_d, d + reach) - bisect_left(near_d, a - reach)
                between += bisect_left(near_d, d) - bisect_right(near_d, a)
            if inner - between <= n_near + extra:
                out[a].append(d)
    return out


def _opponent_filter(cand: list[list[int]], met: list[set[int]], extra: int) -> bool:
    """One pass of step (3) of :func:`_candidates` over ``cand`` (in place): ``d`` stays a candidate
    of ``a`` only if every inner team that neither has met (at most ``extra`` aside) has a
    candidate opponent among the teams they have met, and those opponents are at least as many as
    such inner teams (less ``extra``). True when a pair was dropped."""
    n = len(met)
    adj: list[set[int]] = [set() for _ in range(n)]
    for a in range(n):
        for d in cand[a]:
            adj[a].add(d)
            adj[d].add(a)
    changed = False
    for a in range(n):
        kept = []
        met_a = met[a]
        for d in cand[a]:
            if d - a - 1 <= extra:
                kept.append(d)  # at most the bye team between them: (3) cannot fail
                continue
            both = met_a | met[d]
            hit: set[int] = set()
            lonely = count = 0
            for x in range(a + 1, d):
                if x in both:
                    continue
                count += 1
                found = adj[x] & both
                if found:
                    hit |= found
                else:
                    lonely += 1
                    if lonely > extra:
                        break
            if lonely <= extra and count <= len(hit) + extra:
                kept.append(d)
        changed = changed or len(kept) != len(cand[a])
        cand[a] = kept
    return changed


#: Chunks of at most this many teams are matched by trying every perfect matching (at most 105).
SMALL_CHUNK = 8


def _best_perfect(members: list[int], edges: dict[tuple[int, int], int]) -> set | None:
    """The heaviest perfect matching of a few ``members`` over ``edges`` (``(a, d): weight``,
    ``a < d``), by trying them all (the first found wins a tie); ``None`` if there is none."""
    best: list = [None, None]

    def extend(rest: list[int], chosen: list, total: int) -> None:
        if not rest:
            if best[0] is None or total > best[0]:
                best[0], best[1] = total, list(chosen)
            return
        a, others = rest[0], rest[1:]
        for i, d in enumerate(others):
            w = edges.get((a, d))
            if w is not None:
                chosen.append((a, d))
                extend(others[:i] + others[i + 1:], chosen, total + w)
                chosen.pop()

    extend(sorted(members), [], 0)
    return None if best[1] is None else set(best[1])


def _safe_cuts(cand: list[list[int]], met: list[set[int]], bye: int | None) -> list[int]:
    """Boundaries ``s`` (between positions ``s - 1`` and ``s``) that no optimal pairing of the
    teams other than ``bye`` crosses. Crossing lemma: two pairs ``(a, c)`` and ``(b, d)`` crossing
    ``s`` (``a, b < s <= c, d``) can be re-paired ``(a, b), (c, d)`` strictly better (as in
    :func:`_candidates`) unless ``a, b`` or ``c, d`` have met. So when no two teams on either side
    that have a candidate pair across ``s`` have met, an optimal pairing crosses ``s`` at most once;
    with an even number of teams (bye left out) before ``s`` it crosses it not at all."""
    n = len(cand)
    longest = max((d - a for a in range(n) for d in cand[a]), default=0)
    cuts = []
    for s in range(1, n):
        before = s - (1 if bye is not None and bye < s else 0)
        if before % 2:
            continue
        left: set[int] = set()
        right: set[int] = set()
        for a in range(max(0, s - longest), s):
            if a == bye:
                continue
            for d in cand[a]:
                if d >= s and d != bye:
                    left.add(a)
                    right.add(d)
        if any(met[a] & left for a in left) or any(met[d] & right for d in right):
            continue
        cuts.append(s)
    return cuts


def _chunked_optimum(ranked: list[Entrant], weights: _Weights, odd: bool) -> set | None:
    """The maximum-weight pairing (as a set of id pairs, the bye as ``(BYE, id)``) computed chunk
    by chunk over the candidate pairs; ``None`` when no pairing was found this way (then there is
    none at all, or the bye would go to a team above the :data:`BYE_TRIES` lowest eligible ones).

    Exact: with the bye team fixed, every optimal pairing uses only candidate pairs and crosses no
    safe cut, so each chunk has a perfect matching and the chunks' optima add up to the optimum.
    If a chunk has none, no pairing leaves that bye team out, and the next one up is tried (the
    bye goes to the lowest-ranked team that can take it, as its weight outranks all else)."""
    n = len(ranked)
    ids = [e.id for e in ranked]
    met = _met_positions(ranked)
    cand = _candidates(met, odd)
    byes: list[int | None] = [i for i in range(n - 1, -1, -1) if not ranked[i].had_bye][:BYE_TRIES] if odd else [None]
    for bye in byes:
        bounds = [0, *_safe_cuts(cand, met, bye), n]
        pairs: set = set()
        for lo, hi in zip(bounds, bounds[1:], strict=False):
            members = [i for i in range(lo, hi) if i != bye]
            if not members:
                continue
            edges = {(a, d): weights.pair(ids[a], ids[d]) for a in members for d in cand[a] if d < hi and d != bye}
            if len(members) <= SMALL_CHUNK:
                chunk = _best_perfect(members, edges)
            else:
                graph = nx.Graph()
                graph.add_nodes_from(members)
                graph.add_weighted_edges_from((a, d, w) for (a, d), w in edges.items())
                chunk = nx.max_weight_matching(graph, maxcardinality=True, weight="weight")
            if chunk is None or 2 * len(chunk) != len(members):
                break
            pairs |= {(ids[a], ids[d]) for a, d in chunk}
        else:
            if bye is not None:
                pairs.add((BYE, ids[bye]))
            return pairs
    return None


def _tables(matching, by_id: dict, weights: _Weights, *, ranked: list[Entrant] | None = None,
            avoid_clubs: bool = False) -> list[Table]:
    """The tables of a Swiss ``matching`` (id pairs, the bye as ``(BYE, id)``)."""
    pairs = []
    bye = None
    for a, b in matching:
        if a == BYE or b == BYE:
            bye = b if a == BYE else a
            continue
        top, bottom = (a, b) if weights.rank[a] < weights.rank[b] else (b, a)
        pairs.append((top, bottom))
    pairs.sort(key=lambda p: weights.rank[p[0]])
    return _build(ranked or list(by_id.values()), pairs, bye, weights.rank, by_id, avoid_clubs=avoid_clubs, late=True)


def _build(field_: list[Entrant], pairs: list[tuple], bye, rank: dict, by_id: dict, *, avoid_clubs: bool,
           late: bool) -> list[Table]:
    """Number the tables by the rank of their better team (NS), the bye last; club avoidance and
    the late-entry flags (Swiss rounds) on the way."""
    club = {e.id: normalise(e.club) for e in field_}
    moved: set = set()
    if avoid_clubs and any(club.values()):
        levels = {p: i for i, p in enumerate(sorted({e.points for e in field_}, reverse=True))}
        group = {e.id: levels[e.points] for e in field_}
        pairs, moved = avoid_clubs_(pairs, group=group, rank=rank, club=club,
                                    met=lambda a, b: _met(by_id[a], by_id[b]))
        pairs.sort(key=lambda p: rank[p[0]])
    mixed = {e.points for e in field_ if e.joined_round == 1}
    tables = []
    for number, (top, bottom) in enumerate(pairs, start=1):
        t, b = by_id[top], by_id[bottom]
        reason = Reason.SAME_GROUP if t.points == b.points else Reason.FLOATED
        tables.append(Table(number, top, bottom, reason, t.points, b.points, club_swap=top in moved,
                            club_clash=avoid_clubs and same_club(club, top, bottom),
                            late=_late((t, b), mixed) if late else ()))
    if bye is not None:
        tables.append(Table(len(tables) + 1, bye, None, Reason.BYE, by_id[bye].points, None,
                            late=_late((by_id[bye],), mixed) if late else ()))
    return tables


def _late(entrants, mixed: set) -> tuple:
    """Ids of the late entries among ``entrants`` whose score group (``mixed``: the points of
    teams that played every round) made the late-entry rule matter."""
    return tuple(e.id for e in entrants if e.joined_round > 1 and e.points in mixed)
