"""Placement points per table (issue 24 item 2; scoring.standings.placement): hand-worked examples
from the published rules of each preset, ties included, and the table sum as a property.

Sources (docs/tournaments.md "Placement points"):
- EMA MCR table points 4/2/1/0, equal scores share the places' table points (EMA / WMO
  Mahjong Competition Rules, tournament section; as given in issue 24).
- EMA Riichi uma 15/5/-5/-15 (thousands), ties split: MahjongPantheon Common/rulesets/ema.php
  (equalizeUma true), split as in Common/rulesets/Ruleset.php ``_equalizeUma``.
- Tenhou-style uma 15/5/-5/-15 with oka 20 (start 25,000, return 30,000), ties by seat order:
  MahjongPantheon Common/rulesets/tenhounet.php (equalizeUma false), Ruleset.php ``oka`` (first
  +3/4 of the oka, the others -1/4) and Mimir SessionResults ``_sort`` (equal scores keep the
  seating order); mjstars.net "Rules for 4-player Ranking Match" (equal points: dealer order).
"""
from fractions import Fraction as F

import pytest
from hypothesis import given
from hypothesis import strategies as st

from scoring.standings.placement import PRESETS, SEAT, SHARE, Placement, PlacementError, parse, render, table_points


def points(preset, totals):
    return [(r.place, r.points) for r in table_points(PRESETS[preset] if isinstance(preset, str) else preset, totals)]


def test_ema_table_points_without_ties():
    """EMA MCR: places 1-4 get 4, 2, 1, 0 table points; seat order does not matter."""
    assert points("ema", [-15, 30, -25, 10]) == [(3, 1), (1, 4), (4, 0), (2, 2)]


def test_ema_two_tied_for_first_share_four_and_two():
    """EMA MCR, equal scores share: two players tied for first get (4 + 2) / 2 = 3 each, the
    next player is third (1), the last fourth (0)."""
    assert points("ema", [10, 10, -5, -15]) == [(1, 3), (1, 3), (3, 1), (4, 0)]


def test_ema_tie_for_second_and_three_way_tie():
    """EMA MCR: tied for second share (2 + 1) / 2 = 1.5; three tied for first share
    (4 + 2 + 1) / 3 = 7/3, shown 2.33; four equal share 7/4 = 1.75."""
    assert points("ema", [20, 0, 0, -20]) == [(1, 4), (2, F(3, 2)), (2, F(3, 2)), (4, 0)]
    assert points("ema", [5, 5, 5, -15]) == [(1, F(7, 3))] * 3 + [(4, 0)]
    assert render(F(7, 3)) == "2.33" and render(F(3, 2)) == "1.5" and render(F(8)) == "8"
    assert points("ema", [0, 0, 0, 0]) == [(1, F(7, 4))] * 4


def test_ema_riichi_uma_split_on_ties():
    """EMA Riichi uma +15/+5/-5/-15: two tied for first (15 + 5) / 2 = 10 each; three tied for
    first (15 + 5 - 5) / 3 = 5 each, the last -15 (Pantheon _equalizeUma's cases)."""
    assert points("ema_riichi", [300, -100, 300, -500]) == [(1, 10), (3, -5), (1, 10), (4, -15)]
    assert points("ema_riichi", [1, 1, 1, -3]) == [(1, 5), (1, 5), (1, 5), (4, -15)]


def test_tenhou_style_uma_and_oka():
    """Tenhou-style (start 25,000, return 30,000, uma 15/5/-5/-15, oka 20,000): a player ending on
    45,000 gets (45,000 - 30,000) / 1000 + 15 + 20 = 50 by the usual formula. Counted from the
    starting points that is +20 of score and 30 placement points (15 uma + 3/4 x 20 oka); second
    on 30,000: 5 = +5 score, 0 placement points (5 - 20/4); third -10, fourth -20."""
    assert points("pantheon", [20, 5, -10, -15]) == [(1, 30), (2, 0), (3, -10), (4, -20)]
    assert 20 + 30 == (45_000 - 30_000) // 1000 + 15 + 20


def test_tenhou_style_ties_go_by_seat_order():
    """Ties by seat order (East, South, West, North): South and North both on 20, South ranks first."""
    assert points("pantheon", [-10, 20, -30, 20]) == [(3, -10), (1, 30), (4, -20), (2, 0)]


def test_none_gives_places_but_no_points():
    assert not PRESETS["none"].enabled
    assert points("none", [3, 1, 2, 0]) == [(1, 0), (3, 0), (2, 0), (4, 0)]


def test_parse_presets_and_custom_round_trip():
    assert parse({}) is PRESETS["none"] and parse(None) is PRESETS["none"]
    assert parse({"preset": "ema"}) is PRESETS["ema"]
    custom = parse({"preset": "custom", "uma": [30, "10", -10.5, "-29.5"], "oka": 8, "ties": "seat"})
    assert custom.uma == (30, 10, F(-21, 2), F(-59, 2)) and custom.oka == 8 and custom.ties == SEAT
    assert parse(custom.as_json()) == custom
    assert custom.as_json() == {"preset": "custom", "uma": [30, 10, "-10.5", "-29.5"], "oka": 8, "ties": "seat"}
    assert PRESETS["ema"].as_json() == {"preset": "ema"} and PRESETS["none"].as_json() == {}


@pytest.mark.parametrize("bad, fields", [
    ({"preset": "wrc"}, {"preset"}),
    ({"preset": "ema", "uma": [1, 2, 3, 4]}, {"uma"}),
    ({"preset": "custom", "uma": [1, 2, 3]}, {"uma"}),
    ({"preset": "custom", "uma": [1, 2, "x", 4], "oka": 5000, "ties": "coin", "umma": 1}, {"uma", "oka", "ties", "umma"}),
    ({"preset": "custom", "uma": [1, 2, True, 4]}, {"uma"}),
    ({"preset": "custom", "uma": [15, 5, -5, -15], "oka": -3}, {"oka"}),  # a pot is never negative
])
def test_parse_names_every_problem(bad, fields):
    with pytest.raises(PlacementError) as info:
        parse(bad)
    assert {f for f, _m in info.value.problems} == fields


umas = st.lists(st.fractions(min_value=-100, max_value=100, max_denominator=4), min_size=4, max_size=4)
tables = st.lists(st.integers(-5, 5), min_size=4, max_size=4)


@given(uma=umas, oka=st.integers(0, 40), ties=st.sampled_from([SHARE, SEAT]), totals=tables)
def test_table_sum_is_the_uma_sum_whatever_the_ties(uma, oka, ties, totals):
    """The placement points of a table always add up to the uma's sum (the oka moves points
    between places, sharing only splits them): zero for a zero-sum uma; higher totals never get
    fewer points; equal totals under the share rule get equal points."""
    rule = Placement("custom", tuple(sorted(uma, reverse=True)), F(oka), ties)
    results = table_points(rule, totals)
    assert sum(r.points for r in results) == sum(uma)
    for a in range(4):
        for b in range(4):
            if totals[a] > totals[b]:
                assert results[a].points >= results[b].points and results[a].place < results[b].place
            if ties == SHARE and totals[a] == totals[b]:
                assert results[a] == results[b]
