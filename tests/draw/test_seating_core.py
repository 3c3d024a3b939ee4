"""Seating four to a table (scoring.draw.seating_core): properties from issue 6 item 4."""
from itertools import combinations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from scoring.draw.seating_core import Entrant, count_meetings, pair_key, seat_players, substitutes_needed


def partitions(items):
    """Every split of ``items`` into groups of four (brute force, for small fields)."""
    if not items:
        yield []
        return
    first, rest = items[0], items[1:]
    for trio in combinations(rest, 3):
        remaining = [x for x in rest if x not in trio]
        for tail in partitions(remaining):
            yield [[first, *trio], *tail]


def repeat_weight(tables, met):
    return sum(met.get(pair_key(a, b), 0) for t in tables for a, b in combinations(t, 2))


history = st.lists(st.tuples(st.integers(0, 11), st.integers(0, 11)).filter(lambda p: p[0] != p[1]), max_size=30)


@settings(max_examples=40, deadline=None)
@given(n_tables=st.integers(1, 6), scores=st.lists(st.integers(-50, 50), min_size=24, max_size=24), pairs=st.lists(st.tuples(st.integers(0, 23), st.integers(0, 23)), max_size=40), seed=st.integers(0, 10**6))
def test_everyone_seated_once_at_tables_of_four_and_deterministic(n_tables, scores, pairs, seed):
    n = n_tables * 4
    entrants = [Entrant(id=i, score=scores[i]) for i in range(n)]
    met = {}
    for a, b in pairs:
        if a != b and a < n and b < n:
            met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
    result = seat_players(entrants, met, seed=seed)
    assert len(result.tables) == n_tables
    assert all(len(t) == 4 for t in result.tables)
    seated = [p for t in result.tables for p in t]
    assert sorted(seated) == list(range(n))
    # the report lists exactly the repeats of the seating
    assert result.repeat_count == repeat_weight(result.tables, met)
    assert sum(r.times for r in result.repeats) == result.repeat_count
    for r in result.repeats:
        assert set(r.players) <= set(result.tables[r.table - 1])
    again = seat_players(entrants, met, seed=seed)
    assert again.tables == result.tables and again.repeats == result.repeats


@settings(max_examples=30, deadline=None)
@given(pairs=history, seed=st.integers(0, 1000))
def test_repeats_minimal_against_brute_force_for_twelve_players(pairs, seed):
    met = {}
    for a, b in pairs:
        met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
    entrants = [Entrant(id=i, score=0) for i in range(12)]
    result = seat_players(entrants, met, seed=seed)
    best = min(repeat_weight(p, met) for p in partitions(list(range(12))))
    assert result.repeat_count == best


def test_second_round_of_sixteen_avoids_every_repeat():
    # Round 1 tables {0-3}, {4-7}, {8-11}, {12-15}: a repeat-free round 2 exists (one of each).
    met = count_meetings([[0, 1, 2, 3], [4, 5, 6, 7], [8, 9, 10, 11], [12, 13, 14, 15]])
    entrants = [Entrant(id=i, score=16 - i) for i in range(16)]
    result = seat_players(entrants, met, seed=7)
    assert result.repeat_count == 0 and result.repeats == []
    for t in result.tables:
        assert sorted(p // 4 for p in t) == [0, 1, 2, 3]


def test_unavoidable_repeats_are_reported():
    # Eight players who all met each other: every seating repeats 6 pairs per table.
    met = count_meetings([list(range(8))])
    result = seat_players([Entrant(id=i) for i in range(8)], met, seed=1)
    assert result.repeat_count == 12
    assert len(result.repeats) == 12 and {r.table for r in result.repeats} == {1, 2}


def test_by_score_without_history():
    entrants = [Entrant(id=f"p{i}", score=100 - 10 * i) for i in range(8)]
    result = seat_players(entrants, {}, seed=3)
    assert sorted(result.tables[0]) == ["p0", "p1", "p2", "p3"]
    assert sorted(result.tables[1]) == ["p4", "p5", "p6", "p7"]
    assert result.displacement == 0


def test_seed_changes_the_seat_draw_only_within_score_groups():
    entrants = [Entrant(id=i, score=-i) for i in range(8)]
    seatings = {tuple(map(tuple, seat_players(entrants, {}, seed=s).tables)) for s in range(10)}
    assert len(seatings) > 1
    for tables in seatings:
        assert sorted(tables[0]) == [0, 1, 2, 3]


@pytest.mark.parametrize("count, needed", [(0, 0), (4, 0), (5, 3), (6, 2), (7, 1), (13, 3)])
def test_substitutes_needed(count, needed):
    assert substitutes_needed(count) == needed


def test_not_a_multiple_of_four_is_refused():
    with pytest.raises(ValueError, match="1 substitutes needed"):
        seat_players([Entrant(id=i) for i in range(7)], seed=0)
    with pytest.raises(ValueError):
        seat_players([Entrant(id=1), Entrant(id=1), Entrant(id=2), Entrant(id=3)])


def test_twelve_players_qa_case_finds_the_repeat_free_seating():
    """Found in QA: the local search stopped at one repeat where a repeat-free seating exists."""
    pairs = [(0, 1), (0, 3), (0, 4), (1, 3), (2, 9), (3, 5), (3, 7), (3, 10), (4, 6), (4, 11), (5, 6), (0, 5), (6, 11)]
    met = {}
    for a, b in pairs:
        met[pair_key(a, b)] = met.get(pair_key(a, b), 0) + 1
    result = seat_players([Entrant(id=i, score=0) for i in range(12)], met, seed=1)
    assert result.repeat_count == 0
