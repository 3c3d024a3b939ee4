"""Tie-breaks and ranking (scoring.standings.tiebreaks), pure data. Every expected number and rank below is
worked out by hand from docs/tournaments.md (win 2 / draw 1 / loss 0, a bye is a win with 0:0) and the
definitions in the registry (Buchholz = sum of opponents' match points, byes add nothing, a
withdrawn team counts with the points it had).

Scenario A (5 teams A-E = ids 1-5; D withdraws after round 2):
  R1: A-B 800:300, C-D 700:800, E bye
  R2: A-D 500:800, B-E 800:600, C bye
  R3: A-E 800:400, B-C 800:750
Points: A 4 (W L W), B 4 (L W W), D 4 (W W), C 2 (L bye L), E 2 (bye L L).
Point difference: A +500-300+400 = 600; B -500+200+50 = -250; D +100+300 = 400;
  C -100+0-50 = -150; E 0-200-400 = -600.
Buchholz: A = B4 + D4 + E2 = 10; B = A4 + E2 + C2 = 8; C = D4 + B4 = 8; D = C2 + A4 = 6;
  E = B4 + A4 = 8.
Median Buchholz (drop highest and lowest with 3+ opponents): A [2,4,4] -> 4; B [2,2,4] -> 2;
  C 8, D 6, E 8 (two opponents: nothing dropped).
Sonneborn-Berger (opponent's points x points earned / 2): A = (4*2 + 2*2)/2 = 6; B = (2*2 + 2*2)/2
  = 4; D = (2*2 + 4*2)/2 = 6; C 0; E 0.
Points scored: A 2100, B 1900, C 1450, D 1600, E 1000. Wins (bye = win): A 2, B 2, C 1, D 2, E 1.

Scenario B (head-to-head between exactly two tied teams; 4 teams A-D = ids 1-4):
  R1: A-B 800:700, C-D 600:800;  R2: C-A 800:700, B-D 800:700.
Everyone has 2 points. PD: D +100, A 0, B 0, C -100. A and B: Buchholz 4 and 4, points scored
1500 and 1500; A beat B, so head-to-head puts A second and B third.
"""
from __future__ import annotations

import pytest

from scoring.standings.teams import build_context
from scoring.standings.tiebreaks import NSKT_DEFAULT, REGISTRY, rank_teams

A, B, C, D, E = 1, 2, 3, 4, 5


def row(rnd, ns, ew, tns=0, tew=0):
    """A finished match row as the standings query returns it (match points from the totals)."""
    if ew is None:
        return (rnd, ns, None, 0, 0, 2, 0, ns)
    if tns == tew:
        return (rnd, ns, ew, tns, tew, 1, 1, None)
    return (rnd, ns, ew, tns, tew, 2 if tns > tew else 0, 2 if tew > tns else 0, ns if tns > tew else ew)


SCENARIO_A = [
    row(1, A, B, 800, 300), row(1, C, D, 700, 800), row(1, E, None),
    row(2, A, D, 500, 800), row(2, B, E, 800, 600), row(2, C, None),
    row(3, A, E, 800, 400), row(3, B, C, 800, 750),
]
SCENARIO_B = [
    row(1, A, B, 800, 700), row(1, C, D, 600, 800),
    row(2, C, A, 800, 700), row(2, B, D, 800, 700),
]


@pytest.fixture
def ctx_a():
    return build_context([A, B, C, D, E], SCENARIO_A, {D: True})


def ranks(ctx, keys):
    return {tid: rank for rank, tid, _ in rank_teams(ctx, keys)}


def test_values_scenario_a(ctx_a):
    expected = {
        "point_difference": {A: 600, B: -250, C: -150, D: 400, E: -600},
        "buchholz": {A: 10, B: 8, C: 8, D: 6, E: 8},
        "median_buchholz": {A: 4, B: 2, C: 8, D: 6, E: 8},
        "sonneborn_berger": {A: 6, B: 4, C: 0, D: 6, E: 0},
        "points_scored": {A: 2100, B: 1900, C: 1450, D: 1600, E: 1000},
        "wins": {A: 2, B: 2, C: 1, D: 2, E: 1},
    }
    for key, values in expected.items():
        tb = REGISTRY[key]()
        got = {tid: tb.value(ctx_a.teams[tid], ctx_a, frozenset()) for tid in values}
        assert got == values, key
    assert {tid: t.match_points for tid, t in ctx_a.teams.items()} == {A: 4, B: 4, C: 2, D: 4, E: 2}


def test_nskt_default_order_scenario_a(ctx_a):
    assert NSKT_DEFAULT == ["point_difference", "buchholz", "points_scored", "head_to_head"]
    # 4 points: A (PD 600), D (400, withdrawn, results kept), B (-250); 2 points: C (-150), E (-600)
    assert ranks(ctx_a, None) == {A: 1, D: 2, B: 3, C: 4, E: 5}


def test_buchholz_first_bye_adds_nothing(ctx_a):
    # 4 points: A 10, B 8, D 6; 2 points: C 8 and E 8 tie on Buchholz (their byes add nothing),
    # point difference then puts C (-150) before E (-600)
    assert ranks(ctx_a, ["buchholz", "point_difference"]) == {A: 1, B: 2, D: 3, C: 4, E: 5}


def test_median_buchholz_and_shared_ranks(ctx_a):
    # 4 points: D 6, A 4, B 2; 2 points: C 8 = E 8 -> shared rank 4
    assert ranks(ctx_a, ["median_buchholz"]) == {D: 1, A: 2, B: 3, C: 4, E: 4}


def test_sonneborn_berger(ctx_a):
    # 4 points: A 6 = D 6 (shared 1), B 4 (3); 2 points: C 0 = E 0 (shared 4)
    assert ranks(ctx_a, ["sonneborn_berger"]) == {A: 1, D: 1, B: 3, C: 4, E: 4}


def test_wins_bye_counts_as_a_win(ctx_a):
    assert ranks(ctx_a, ["wins"]) == {A: 1, B: 1, D: 1, C: 4, E: 4}


def test_head_to_head_between_two_tied_teams():
    ctx = build_context([A, B, C, D], SCENARIO_B)
    assert ranks(ctx, None) == {D: 1, A: 2, B: 3, C: 4}
    values = {tid: v for _, tid, v in rank_teams(ctx, None)}
    assert values[A]["buchholz"] == values[B]["buchholz"] == 4
    assert values[A]["points_scored"] == values[B]["points_scored"] == 1500
    assert (values[A]["head_to_head"], values[B]["head_to_head"]) == (2, 0)
    # without head-to-head A and B share second place
    assert ranks(ctx, ["point_difference", "buchholz", "points_scored"]) == {D: 1, A: 2, B: 2, C: 4}


def test_head_to_head_needs_all_tied_teams_to_have_met():
    # all four tied on points only: not every two have met -> head-to-head separates nobody
    ctx = build_context([A, B, C, D], SCENARIO_B)
    assert ranks(ctx, ["head_to_head"]) == {A: 1, B: 1, C: 1, D: 1}


def test_every_tiebreak_documents_labels_and_byes():
    assert set(REGISTRY) >= {"point_difference", "buchholz", "median_buchholz", "sonneborn_berger",
                             "points_scored", "head_to_head", "wins"}
    for key, cls in REGISTRY.items():
        assert cls.key == key and str(cls.label) and str(cls.byes_and_withdrawals)


def test_breakdown_parts_add_up(ctx_a):
    for key, cls in REGISTRY.items():
        tb = cls()
        for tid, team in ctx_a.teams.items():
            parts = tb.explain(team, ctx_a)
            if parts:
                assert sum(p["value"] for p in parts) == tb.value(team, ctx_a, frozenset()), (key, tid)
    # median Buchholz of A: opponents B 4 (R1), D 4 (R2), E 2 (R3): the lowest (E) and the later of the highest (D) dropped
    assert REGISTRY["median_buchholz"]().explain(ctx_a.teams[A], ctx_a) == [{"round": 1, "value": 4}]
