"""Pure Swiss pairing (scoring.draw.pairing_core), no database. Expected pairings worked out by hand
from docs/tournaments.md / issue 4 item 1: rematches forbidden, bye to the lowest-ranked team without one,
equal match points first, then the smallest score-group distance, tables by rank."""
from __future__ import annotations

import pytest

from scoring.draw.pairing_core import Entrant, NoPairing, Reason, Warning, check_pairing, pair_round, present

OUTSIDER = 999  # an opponent id not in the field: marks "has played" without blocking anyone


def field(points, *, met=(), byes=(), **extra):
    """Entrants 1..n in ranking order with the given match points; ``met``: pairs already played."""
    opp = {i: {OUTSIDER} for i in range(1, len(points) + 1)}
    for a, b in met:
        opp[a].add(b)
        opp[b].add(a)
    return [Entrant(i, f"T{i}", p, frozenset(opp[i]), i in byes, **extra.get(i, {}))
            for i, p in enumerate(points, start=1)]


def pairs(tables):
    return [(t.ns, t.ew) for t in tables]


def test_round_one_random_is_deterministic_per_seed():
    teams = [Entrant(i, f"T{i}") for i in range(1, 11)]
    a = pair_round(teams, 1, seed=7)
    assert a == pair_round(teams, 1, seed=7)
    assert pairs(a) != pairs(pair_round(teams, 1, seed=8))
    assert sorted(x for t in a for x in (t.ns, t.ew)) == list(range(1, 11))
    assert [t.table for t in a] == [1, 2, 3, 4, 5] and all(t.reason == Reason.SAME_GROUP for t in a)


def test_round_one_by_seed_numbers_top_half_against_bottom_half():
    teams = [Entrant(i, f"T{i}", seed=10 - i) for i in range(1, 10)]  # T9 seed 1 ... T1 seed 9
    tables = pair_round(teams, 1, method="seeded")
    # seeds 1-5, 2-6, 3-7, 4-8; seed 9 (T1) gets the bye
    assert pairs(tables) == [(9, 5), (8, 4), (7, 3), (6, 2), (1, None)]
    assert tables[-1].reason == Reason.BYE


def test_score_groups_paired_by_adjacent_rank():
    tables = pair_round(field([4, 4, 2, 2, 2, 2, 0, 0]), 3)
    assert pairs(tables) == [(1, 2), (3, 4), (5, 6), (7, 8)]
    assert all(t.reason == Reason.SAME_GROUP for t in tables)


def test_odd_group_floats_one_team_down_one_group():
    tables = pair_round(field([4, 4, 4, 2, 2, 2]), 3)
    assert pairs(tables) == [(1, 2), (3, 4), (5, 6)]
    assert [t.reason for t in tables] == [Reason.SAME_GROUP, Reason.FLOATED, Reason.SAME_GROUP]
    assert (tables[1].ns_points, tables[1].ew_points) == (4, 2)


def test_two_short_floats_beat_one_long_float():
    # 4 | 2 2 | 0: pairing 2-3 inside their group would send T1 two groups down to T4;
    # T1-T2 and T3-T4 each float one group (1 + 1 < 2 * 2).
    assert pairs(pair_round(field([4, 2, 2, 0]), 3)) == [(1, 2), (3, 4)]


def test_rematch_never_paired():
    # T1-T2 and T3-T4 met; everyone on 2 points: the only rematch-free pairs cross over.
    tables = pair_round(field([2, 2, 2, 2], met=[(1, 2), (3, 4)]), 2)
    for ns, ew in pairs(tables):
        assert {ns, ew} not in ({1, 2}, {3, 4})
    # the top pair T1-T2 has met: T1 floats/crosses rather than a rematch even across groups
    tables = pair_round(field([4, 4, 0, 0], met=[(1, 2), (3, 4)]), 3)
    # (1-3, 2-4) and (1-4, 2-3) cost the same (two one-group floats, rank distance 4)
    assert pairs(tables) in ([(1, 3), (2, 4)], [(1, 4), (2, 3)])
    assert all(t.reason == Reason.FLOATED for t in tables)


def test_bye_to_lowest_ranked_team_without_a_bye():
    tables = pair_round(field([4, 2, 2, 0, 0]), 3)
    assert (tables[-1].table, tables[-1].reason) == (3, Reason.BYE)
    assert pairs(tables) == [(1, 2), (3, 4), (5, None)]
    tables = pair_round(field([4, 2, 2, 0, 0], byes=[5]), 3)
    # T5 had a bye: T4 gets it; T1 4 | T2 T3 2 | T5 0 -> 1-2 and 3-5 (two one-group floats)
    assert pairs(tables) == [(1, 2), (3, 5), (4, None)]


def test_bye_moves_up_when_the_lowest_cannot_be_left_out():
    # T5 had the bye; T4 would be next, but T5 has met T1-T3 and can only play T4,
    # so the bye moves up to T3 (the lowest-ranked team whose bye leaves a rematch-free pairing).
    tables = pair_round(field([2, 2, 2, 0, 0], met=[(5, 1), (5, 2), (5, 3)], byes=[5]), 3)
    assert pairs(tables) == [(1, 2), (4, 5), (3, None)]


def test_late_entries_and_withdrawals():
    teams = field([4, 4, 2, 2, 0, 0], **{})
    teams[1] = Entrant(2, "T2", 4, frozenset({OUTSIDER}), withdrawn_after_round=2)
    teams[5] = Entrant(6, "T6", 0, frozenset(), joined_round=3)
    teams.append(Entrant(7, "T7", 0, frozenset(), joined_round=4))
    assert [e.id for e in present(teams, 3)] == [1, 3, 4, 5, 6]
    tables = pair_round(teams, 3)
    assert pairs(tables) == [(1, 3), (4, 5), (6, None)]


def test_everyone_met_names_the_blocking_teams():
    met = [(1, 2), (1, 3), (1, 4), (2, 3), (2, 4), (3, 4)]
    with pytest.raises(NoPairing) as err:
        pair_round(field([6, 4, 2, 0], met=met), 4)
    assert err.value.blocking == [1, 2, 3, 4] and err.value.names == ["T1", "T2", "T3", "T4"]


def test_one_team_that_met_everyone_blocks():
    met = [(3, 1), (3, 2), (3, 4)]
    with pytest.raises(NoPairing) as err:
        pair_round(field([2, 2, 2, 2], met=met), 4)
    assert err.value.blocking == [3]


def test_structural_block_found_by_matching():
    # Non-opponent graph: T5 and T6 can only meet T4; T1, T2, T3 can only meet each other (and T4 for T3).
    # Removing T4 leaves three odd groups {1,2,3}, {5}, {6}: no perfect matching. Blocking: all six.
    allowed = {(1, 2), (1, 3), (2, 3), (3, 4), (4, 5), (4, 6)}
    met = [(a, b) for a in range(1, 7) for b in range(a + 1, 7) if (a, b) not in allowed]
    with pytest.raises(NoPairing) as err:
        pair_round(field([2] * 6, met=met), 5)
    assert err.value.blocking == [1, 2, 3, 4, 5, 6]


def test_no_bye_left():
    with pytest.raises(NoPairing) as err:
        pair_round(field([2, 2, 2], byes=[1, 2, 3]), 4)
    assert err.value.no_bye_left and err.value.blocking == [1, 2, 3]


def test_single_team_gets_the_bye():
    assert pairs(pair_round(field([0]), 2)) == [(1, None)]


def test_check_pairing_warnings():
    teams = field([2, 2, 0, 0, 0], met=[(1, 2)], byes=[5])
    warnings = check_pairing(teams, [(1, 2), (3, 3), (5, None)], 3)
    codes = sorted((w.code, w.teams) for w in warnings)
    assert ("rematch", (1, 2)) in codes
    assert ("double_booking", (3,)) in codes
    assert ("second_bye", (5,)) in codes
    assert ("missing", (4,)) in codes
    assert check_pairing(teams, [(1, 3), (2, 4), (5, None)], 3) == [Warning("second_bye", (5,))]
    assert check_pairing(teams, [(1, 3), (2, 5), (4, None)], 3) == []
