"""Seating quality (issue 24 item 3; scoring.draw.seating_core, scoring.draw.seating_bounds): round 1
spreads the seeds (one player of each seeding quarter per table), later rounds avoid every avoidable
repeat over six rounds of 64 players, then same-club pairs, and the lower bounds hold.
docs/tournaments.md "Seating four-player rounds"."""
import random
from contextlib import contextmanager
from itertools import combinations
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw import seating_core
from scoring.draw.seating_bounds import Cost, club_bound, repeat_bound
from scoring.draw.seating_core import (
    ClubPair,
    Entrant,
    count_meetings,
    greedy_seating,
    pair_key,
    seat_first_round,
    seat_players,
)


def quarter_of(n):
    """Seed position (0-based) -> seeding quarter 0..3 of a field of ``n`` (a multiple of 4)."""
    return lambda i: i // (n // 4)


@pytest.mark.parametrize("n", [16, 64, 68])
def test_round_one_puts_one_player_of_each_quarter_at_every_table(n):
    # 68 = 65 players and the 3 substitutes the organiser is asked for (they are last in the
    # seeding order, so they sit in pot 4, at three different tables).
    entrants = [Entrant(id=i) for i in range(n)]  # seeding order: id 0 is seed 1
    result = seat_first_round(entrants, seed=7)
    quarter = quarter_of(n)
    assert len(result.tables) == n // 4
    assert sorted(p for t in result.tables for p in t) == list(range(n))
    for table in result.tables:
        assert sorted(quarter(p) for p in table) == [0, 1, 2, 3]
    top = set(range(n // 4))
    assert all(len(top & set(t)) == 1 for t in result.tables)  # no two of the top quarter together
    assert min(result.tables[0]) == 0  # table 1 holds the top seed
    assert result.cost == Cost() and result.exact


def test_round_one_is_a_seeded_draw_within_the_pots():
    entrants = [Entrant(id=i) for i in range(64)]
    first = seat_first_round(entrants, seed=3)
    assert seat_first_round(entrants, seed=3).tables == first.tables  # same seed, same seating
    other = seat_first_round(entrants, seed=4)
    assert {frozenset(t) for t in other.tables} != {frozenset(t) for t in first.tables}


def test_round_one_repairs_clubs_within_the_pots():
    # Club c = {c, 16 + c, 32 + c, 48 + c}: one member in each pot, so a draw could seat a whole
    # club at one table; the repair (swaps within a pot) separates them all.
    entrants = [Entrant(id=i, club=f"club {i % 16}") for i in range(64)]
    result = seat_first_round(entrants, seed=1)
    assert result.club_pairs == 0 and result.clubs == []
    quarter = quarter_of(64)
    assert all(sorted(quarter(p) for p in t) == [0, 1, 2, 3] for t in result.tables)
    # One club of 20 over 16 tables: at least 4 pairs (4 tables with 2 of them).
    crowded = [Entrant(id=i, club="big" if i % 3 == 0 and i < 60 else "") for i in range(64)]
    result = seat_first_round(crowded, seed=1)
    assert result.lower_bound.club_pairs == club_bound(["big"] * 20, 16) == 4
    assert result.club_pairs == 4


def ag34_rounds(count):
    """``count`` repeat-free rounds of 64 players (the proof that they exist): the players are the
    points of the affine space AG(3, 4) (triples over GF(4)); a round is the 16 parallel lines of
    one direction (each a table of four). Two lines of different directions share at most one
    point, so no pair meets twice; there are (4^3 - 1) / 3 = 21 directions."""
    mul = [[0, 0, 0, 0], [0, 1, 2, 3], [0, 2, 3, 1], [0, 3, 1, 2]]  # GF(4); addition is XOR
    points = [(a, b, c) for a in range(4) for b in range(4) for c in range(4)]
    directions = [d for d in points if d != (0, 0, 0) and d[next(i for i in range(3) if d[i])] == 1]
    assert len(directions) == 21
    rounds = []
    for d in directions[:count]:
        lines = {frozenset(tuple(p[i] ^ mul[t][d[i]] for i in range(3)) for t in range(4)) for p in points}
        rounds.append([[points.index(x) for x in line] for line in lines])
    return rounds


def test_sixty_four_players_have_six_repeat_free_rounds():
    met = count_meetings(t for r in ag34_rounds(6) for t in r)
    assert len(met) == 6 * 16 * 6 and set(met.values()) == {1}  # 576 pairs, each once


def test_six_rounds_of_sixty_four_without_a_repeat():
    """Six rounds of 64 (a repeat-free schedule exists: test above) with random results: the
    seating finds a repeat-free round every time, and the lower bound proves it optimal on repeats
    (and club pairs; none here)."""
    rng = random.Random(24)
    n = 64
    score = dict.fromkeys(range(n), 0)
    history = []
    result = seat_first_round([Entrant(id=i) for i in range(n)], seed=1)
    for rnd in range(1, 7):
        if rnd > 1:
            met = count_meetings(history)
            entrants = [Entrant(id=i, score=score[i], order=i) for i in range(n)]
            result = seat_players(entrants, met, seed=rnd)
        assert result.repeat_count == 0 and result.repeats == []
        assert result.lower_bound.repeats == 0 and result.gap.repeats == 0 and result.gap.club_pairs == 0
        history += result.tables
        for table in result.tables:
            for place, p in enumerate(rng.sample(table, 4)):
                score[p] += (3, 1, -1, -3)[place] + rng.randint(0, 2)
    assert len(count_meetings(history)) == 6 * 16 * 6  # every pair met at most once


def test_later_rounds_avoid_clubs_but_never_at_the_cost_of_a_repeat():
    # 0 and 1 are one club; 2 met both 0 and 1, 3 met 0. Separating 0 and 1 (two tables) puts 2
    # with one of them: a repeat. So the best seating keeps 0 and 1 together (one club pair)
    # and no repeat: {0, 1, 4, 5} and {2, 3, 6, 7}.
    met = count_meetings([[0, 2], [0, 3], [1, 2]])
    entrants = [Entrant(id=i, order=i, club="hmc" if i < 2 else "") for i in range(8)]
    result = seat_players(entrants, met, seed=1)
    assert result.cost.repeats == 0 and result.club_pairs == 1
    assert result.clubs == [ClubPair(table=1, players=(0, 1), club="hmc")]
    assert {frozenset(t) for t in result.tables} == {frozenset({0, 1, 4, 5}), frozenset({2, 3, 6, 7})}


def test_clubs_of_a_standings_group_are_spread():
    # 32 players, the standings' groups of four are each one club: the seating spreads every club
    # (one member per table is possible: 8 tables), with no repeat, and the bound proves it.
    entrants = [Entrant(id=i, order=i, club=f"c{i // 4}") for i in range(32)]
    result = seat_players(entrants, {}, seed=2)
    assert result.cost.club_pairs == 0 and result.gap.club_pairs == 0
    assert all(len({p // 4 for p in t}) == 4 for t in result.tables)
    without = seat_players([Entrant(id=i, order=i) for i in range(32)], {}, seed=2)
    assert without.displacement == 0 and result.displacement > 0  # the price: players moved


def test_repeat_bound_counts_the_lightest_meetings_of_each_player():
    # 8 players who all met (two tables of four in one round and again mixed): each player has
    # 7 others, all met once -> 3 repeats per player -> ceil(8 * 3 / 2) = 12, the true minimum.
    met = count_meetings([list(range(8))])
    adjacency = {a: {b: 1 for b in range(8) if b != a} for a in range(8)}
    assert repeat_bound(list(range(8)), adjacency, 4) == 12
    assert seat_players([Entrant(id=i) for i in range(8)], met, seed=0).repeat_count == 12


def test_sixteen_players_are_searched_to_the_optimum():
    # After three rounds of 16 that exhaust most pairs, the branch and bound finishes: exact.
    rounds = [[[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]],
              [[0, 4, 8, 12], [1, 5, 9, 13], [2, 6, 10, 14], [3, 7, 11, 15]],
              [[0, 5, 10, 15], [1, 4, 11, 14], [2, 7, 8, 13], [3, 6, 9, 12]]]
    met = count_meetings(t for r in rounds for t in r)
    result = seat_players([Entrant(id=i, order=i) for i in range(16)], met, seed=5)
    assert result.exact and result.gap == Cost()
    # a fourth and fifth mutually orthogonal round exist (AG(2, 4) has 5 parallel classes):
    assert result.repeat_count == 0


clubs = st.sampled_from(["", "", "a", "b", "c"])


@contextmanager
def small_budgets():
    with patch.object(seating_core, "BOUND_NODES", 3000), patch.object(seating_core, "PROOF_NODES", 3000):
        yield


@settings(max_examples=25, deadline=None)
@given(n_tables=st.integers(1, 10), data=st.data(), seed=st.integers(0, 10**6))
def test_properties_of_any_later_round(n_tables, data, seed):
    n = 4 * n_tables
    scores = data.draw(st.lists(st.integers(-30, 30), min_size=n, max_size=n))
    club = data.draw(st.lists(clubs, min_size=n, max_size=n))
    pairs = data.draw(st.lists(st.tuples(st.integers(0, n - 1), st.integers(0, n - 1)), max_size=3 * n))
    met: dict = {}
    for a, b in pairs:
        if a != b:
            met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
    entrants = [Entrant(id=i, score=scores[i], club=club[i]) for i in range(n)]
    with small_budgets():  # the properties hold whatever the proofs' budgets; keeps the test fast
        result = seat_players(entrants, met, seed=seed)
        again = seat_players(entrants, met, seed=seed)
    # every present player seated exactly once, at tables of four
    assert all(len(t) == 4 for t in result.tables)
    assert sorted(p for t in result.tables for p in t) == list(range(n))
    # the reported terms are those of the tables, and never worse than the greedy start
    weight = sum(met.get(pair_key(a, b), 0) for t in result.tables for a, b in combinations(t, 2))
    same = sum(1 for t in result.tables for a, b in combinations(t, 2) if club[a] and club[a] == club[b])
    assert (result.repeat_count, result.club_pairs) == (weight, same)
    assert result.cost <= greedy_seating(entrants, met, seed=seed)[1]
    # the lower bound is below the cost, term by term
    gap = result.gap
    assert gap.repeats >= 0 and gap.club_pairs >= 0 and gap.displacement >= 0
    assert again.tables == result.tables  # deterministic


@settings(max_examples=30, deadline=None)
@given(n_tables=st.integers(1, 30), data=st.data(), seed=st.integers(0, 10**6))
def test_properties_of_round_one(n_tables, data, seed):
    n = 4 * n_tables
    club = data.draw(st.lists(clubs, min_size=n, max_size=n))
    result = seat_first_round([Entrant(id=i, club=club[i]) for i in range(n)], seed=seed)
    assert sorted(p for t in result.tables for p in t) == list(range(n))
    assert all(sorted(p // n_tables for p in t) == [0, 1, 2, 3] for t in result.tables)
    assert result.club_pairs >= result.lower_bound.club_pairs
