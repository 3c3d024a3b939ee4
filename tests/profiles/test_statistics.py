"""Each game's player statistics (issue 26 item 2): the adapter's ``player_statistics`` over
hand-built records, the expected numbers worked out on paper in the comments (rules: a Tai Pan call
succeeds when the caller goes out first; a deal-in is discarding the winning tile; places by table
totals, equal totals share the better place)."""
from __future__ import annotations

from scoring.games import registry
from scoring.games.statistics import PlayedResult, place_of


def _hand(calls, first_out, dv, cp=None):
    return {"calls": calls, "first_out": first_out, "double_victory": dv, "card_points": cp}


def test_taipan_statistics_by_hand():
    # Match 1: the player sits N (team NS, side 0), finished, 2 match points.
    #   hand 1: N calls Tai Pan and goes out first -> called 1, made 1; NS card points 75
    #   hand 2: N calls Grand Tai Pan, E goes out first -> grand called 1, made 0; NS card points 30
    #   hand 3: the partner S calls (not the player's call); NS double victory -> team DV 1, no card points
    # Match 2: the player sits W (team EW, side 1), unfinished (no match points yet).
    #   hand 4: W calls Tai Pan, W first out, EW double victory -> called 2, made 2; team DV 2
    #   hand 5: no calls, EW card points 45
    #   hand 6: NS double victory: not the team's; no card points for anyone -> left out of the average
    # hands 6; average card points over hands 1, 2, 5: (75 + 30 + 45) / 3 = 50.0; match points 2 over 1 match.
    one = [_hand({"N": "tai_pan"}, "N", None, {"NS": 75, "EW": 25}), _hand({"N": "grand_tai_pan"}, "E", None, {"NS": 30, "EW": 70}),
           _hand({"S": "tai_pan"}, "S", "NS")]
    two = [_hand({"W": "tai_pan"}, "W", "EW"), _hand({}, "N", None, {"NS": 55, "EW": 45}), _hand({}, "N", "NS")]
    results = [PlayedResult(one, [(175, 25), (-170, 70), (300, 0)], 0, "N", (305, 95), 2, True, "R1", "A"),
               PlayedResult(two, [(0, 300), (55, 45), (200, 0)], 1, "W", (255, 345), None, False, "R1", "B")]
    stats = registry.get("taipan").player_statistics(results)
    assert stats.as_dict() == {"hands": 6, "tai_pan_calls": 2, "tai_pan_made": 2, "grand_tai_pan_calls": 1,
                               "grand_tai_pan_made": 0, "double_victories": 2, "average_card_points": 50.0,
                               "matches": 1, "match_points": 2}
    charts = {s.key: s for s in stats.charts}
    assert (charts["match_points"].labels, charts["match_points"].groups, charts["match_points"].values) == (["R1"], ["A"], [2])
    assert charts["calls"].values == [2, 2, 1, 0]


def test_sichuan_statistics_by_hand():
    # The player sits S (side 1).
    # deal 1: S wins self-drawn -> win 1 (self 1)
    # deal 2: E wins on S's discard, W wins on N's discard -> deal-in 1 (only E's win was S's discard)
    # deal 3: S wins on W's discard (and a kong) -> win 2 (discard 1)
    # deal 4: N robs S's added kong: not a discard, so no deal-in
    # Tables: [10, 5, 5, -20] finished -> S is 2nd (one higher total); [-3, -1, 2, 2] finished -> 3rd;
    # an unfinished table is not placed. Average place (2 + 3) / 2 = 2.5.
    deals = [
        {"events": [{"type": "win", "player": "S", "fan": 2}]},
        {"events": [{"type": "win", "player": "E", "discarder": "S", "fan": 1},
                    {"type": "win", "player": "W", "discarder": "N", "fan": 1}]},
        {"events": [{"type": "kong", "player": "S", "kind": "exposed", "tile": "5p", "supplier": "N"},
                    {"type": "win", "player": "S", "discarder": "W", "fan": 3}]},
        {"events": [{"type": "win", "player": "N", "robbed": "S", "hand": {"void": "s", "melds": [], "concealed": "x",
                                                                         "win": {"tile": "5p", "how": "rob_added_kong"}}}]},
    ]
    results = [PlayedResult(deals, [(0, 0, 0, 0)] * 4, 1, "S", (10, 5, 5, -20), None, True),
               PlayedResult([], [], 1, "S", (-3, -1, 2, 2), None, True),
               PlayedResult([], [], 1, "S", (0, 9, 0, -9), None, False)]
    assert registry.get("sichuan").player_statistics(results).as_dict() == {
        "deals": 4, "wins": 2, "wins_self_drawn": 1, "wins_on_discard": 1, "deal_ins": 1,
        "place_1": 0, "place_2": 1, "place_3": 1, "place_4": 0, "tables_placed": 2, "average_place": 2.5}


def test_taiwanese_statistics_by_hand():
    # The player sits E (side 0).
    # deal 1: E wins on S's discard (quick) -> win 1 on a discard
    # deal 2: a draw -> a deal, nothing else
    # deal 3: W wins on E's discard -> deal-in 1
    # deal 4: N self-drawn -> nothing for E
    # deal 5: E self-drawn (full record) -> win 2, self-drawn
    # deal 6: S robs E's added kong -> not a deal-in
    # Table [30, -10, -10, -10] finished: E is 1st; average place 1.0.
    deals = [{"seat": "E", "tai": 3, "win": {"how": "discard", "discarder": "S"}}, {"draw": True},
             {"seat": "W", "tai": 2, "win": {"discarder": "E"}}, {"seat": "N", "tai": 1, "win": {}},
             {"seat": "E", "win": {"tile": "5p", "how": "self"}},
             {"seat": "S", "win": {"tile": "3m", "how": "rob_added_kong", "robbed": "E"}}]
    results = [PlayedResult(deals, [(0, 0, 0, 0)] * 6, 0, "E", (30, -10, -10, -10), None, True)]
    assert registry.get("taiwanese").player_statistics(results).as_dict() == {
        "deals": 6, "wins": 2, "wins_self_drawn": 1, "wins_on_discard": 1, "deal_ins": 1,
        "place_1": 1, "place_2": 0, "place_3": 0, "place_4": 0, "tables_placed": 1, "average_place": 1.0}


def test_tiengow_statistics_by_hand():
    # The player sits at seat 2 (side 2). Banker per stored deal: 0, 2, 2, 1.
    # Deals as banker: deals 2 and 3 -> 2; net as banker: +8 + (-6) = +2.
    # Table totals (the sums per seat): [3, 2, -4, -1], finished -> seat 2 is 4th.
    deals = [{"mode": "settle", "banker": 0}, {"mode": "settle", "banker": 2}, {"mode": "deal", "banker": 2},
             {"mode": "settle", "banker": 1}]
    scores = [(4, -2, -1, -1), (-3, -3, 8, -2), (2, 2, -6, 2), (0, 5, -5, 0)]
    results = [PlayedResult(deals, scores, 2, "2", (3, 2, -4, -1), None, True)]
    stats = registry.get("tiengow").player_statistics(results)
    assert stats.as_dict() == {"deals": 4, "banker_deals": 2, "banker_net": 2, "place_1": 0, "place_2": 0, "place_3": 0,
                               "place_4": 1, "tables_placed": 1, "average_place": 4.0}
    assert {s.key: s.values for s in stats.charts} == {"placements": [0, 0, 0, 1], "banker": [2, 2]}


def test_equal_totals_share_the_better_place():
    assert [place_of([10, 10, -5, -15], i) for i in range(4)] == [1, 1, 3, 4]
    assert [place_of([0, 0, 0, 0], i) for i in range(4)] == [1, 1, 1, 1]
