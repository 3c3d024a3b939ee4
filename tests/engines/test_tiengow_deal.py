"""The Tien Gow ``deal`` command: a hand-built record checked against the rules, and rejections with
their field paths. Expected values computed by hand from the Tien Gow rule text and docs/engines/tiengow.md."""
import copy

import pytest

from engines import run
from engines.errors import RuleViolation


def P(seat, tiles, face_up):
    return {"seat": seat, "tiles": tiles, "face_up": face_up}


# Banker 0. Trick 0: P0 leads the Heaven quartet (immediate quartet, banker: 8 from each).
# Trick 1: P0 leads the pair 1-5 (lowest civil), P1 beats with 1-6 1-6. Trick 2: P1 leads 4-6,
# P2 beats with 5-6 (Axe > Partition). Trick 3 (last, single): P2 leads 1-2, P3 has no column
# (early death: face down), P0 wins with the Big Six 2-4: the catch.
CATCH = {
    "banker": 0,
    "hands": [
        ["6-6", "6-6", "4-5", "3-6", "1-5", "1-5", "3-3", "2-4"],
        ["1-1", "1-1", "4-4", "4-4", "1-6", "1-6", "4-6", "3-3"],
        ["1-3", "1-3", "5-5", "5-5", "2-2", "2-2", "5-6", "1-2"],
        ["5-6", "4-6", "3-5", "2-6", "3-4", "2-5", "1-4", "2-3"],
    ],
    "tricks": [
        {"leader": 0, "plays": [P(0, ["6-6", "6-6", "4-5", "3-6"], True), P(1, ["1-1", "1-1", "4-4", "4-4"], False),
                                P(2, ["1-3", "1-3", "5-5", "5-5"], False), P(3, ["5-6", "4-6", "3-5", "2-6"], False)]},
        {"leader": 0, "plays": [P(0, ["1-5", "1-5"], True), P(1, ["1-6", "1-6"], True),
                                P(2, ["2-2", "2-2"], False), P(3, ["3-4", "2-5"], False)]},
        {"leader": 1, "plays": [P(1, ["4-6"], True), P(2, ["5-6"], True), P(3, ["1-4"], False), P(0, ["3-3"], False)]},
        {"leader": 2, "plays": [P(2, ["1-2"], True), P(3, ["2-3"], False), P(0, ["2-4"], True), P(1, ["3-3"], False)]},
    ],
}


def deal(record):
    return run("tiengow", "deal", record)


def fields(record):
    with pytest.raises(RuleViolation) as exc:
        deal(record)
    return [v.field for v in exc.value.violations], exc.value


def test_catch_deal():
    out = deal(CATCH)
    assert [t["winner"] for t in out["tricks"]] == [0, 1, 2, 0]
    assert out["columns"] == [5, 2, 1, 0]
    assert out["tricks"][3]["early_death"] == [3]
    # immediate: P0's quartet, banker doubled: 4 x 2 from each opponent
    assert out["immediate"] == [{"winner": 0, "group": "quartet", "trick": 0, "net": [24, -8, -8, -8]}]
    # final, winner P0 (the banker, so every payment doubles): P1 owes (4-2)x2 = 4, P2 (4-1)x2 = 6,
    # P3 5x2 = 10; the catch: P2 led the 1-2 and also pays P1's 4 and P3's 10 -> P2 pays 20.
    assert out["final"]["net"] == [20, 0, -20, 0]
    assert out["final"]["catch"] is True
    assert out["net"] == [44, -8, -28, -8]
    assert out["next_banker"] == 0
    assert out["last_trick"] == {"winner": 0, "group": "ordinary", "leader": 2, "led_with": "1-2", "won_with": "2-4"}
    # the derived settlement-level input settles to the same net
    assert run("tiengow", "settle", out["settlement"])["net"] == out["net"]


def test_little_three_wins_the_last_trick_when_nobody_beats_it():
    record = copy.deepcopy(CATCH)
    record["tricks"][3]["plays"][2]["face_up"] = False  # P0 keeps the 2-4 face down (allowed)
    out = deal(record)
    assert out["columns"] == [4, 2, 2, 0]
    assert out["last_trick"]["group"] == "little_three"
    # winner P2, x2 for the singleton Little Three: P0 (banker, 4 columns) pays 0, P1 2x2 = 4, P3 5x2 = 10
    assert out["final"]["net"] == [0, -4, 14, -10]
    assert out["net"] == [24, -12, 6, -18]
    assert out["next_banker"] == 2


def test_without_hands_the_same_result():
    record = copy.deepcopy(CATCH)
    del record["hands"]
    assert deal(record)["net"] == [44, -8, -28, -8]


def test_early_death_face_up_is_rejected():
    record = copy.deepcopy(CATCH)
    record["tricks"][3]["plays"][1]["face_up"] = True  # P3, no column, plays 2-3 open on the last single
    names, exc = fields(record)
    assert names == ["tricks[3].plays[1].face_up"]
    assert "Early death" in exc.violations[0].message
    # with early death switched off the 2-3 beats the 1-2, then the 2-4 beats the 2-3
    record["rules"] = {"preset": "standard", "early_death": "off"}
    out = deal(record)
    assert out["tricks"][3]["early_death"] == []
    assert out["tricks"][3]["winner"] == 0 and out["final"]["catch"] is True


def test_early_death_only_on_a_single_last_trick_by_default():
    # E-02: P2 without a column wins the last pair trick; with early_death "last_trick" that is rejected
    record = {"banker": 0, "tricks": [
        {"leader": 0, "plays": [P(0, ["2-4", "1-2"], True), P(1, ["5-6", "5-6"], False), P(2, ["4-5", "3-6"], False), P(3, ["6-6", "3-4"], False)]},
        {"leader": 0, "plays": [P(0, ["1-5"], True), P(1, ["6-6"], True), P(2, ["1-4"], False), P(3, ["4-4"], False)]},
        {"leader": 1, "plays": [P(1, ["1-1"], True), P(2, ["2-3"], False), P(3, ["4-4"], False), P(0, ["1-5"], False)]},
        {"leader": 1, "plays": [P(1, ["3-3", "3-3"], True), P(2, ["3-5", "2-6"], False), P(3, ["1-3", "2-5"], False), P(0, ["4-6", "4-6"], False)]},
        {"leader": 1, "plays": [P(1, ["2-2", "2-2"], True), P(2, ["5-5", "5-5"], True), P(3, ["1-1", "1-3"], False), P(0, ["1-6", "1-6"], False)]},
    ]}
    out = deal(record)
    assert out["columns"] == [2, 4, 2, 0] and out["next_banker"] == 2
    # immediate Supreme by the banker: 2x2 from each; final winner P2: P0 (banker) 2x2 = 4, P1 0, P3 5
    assert out["net"] == [12 - 4, -4, -4 + 9, -4 - 5]
    record["rules"] = {"preset": "standard", "early_death": "last_trick"}
    names, _ = fields(record)
    assert names == ["tricks[4].plays[1].face_up"]


def test_face_up_play_that_does_not_beat_is_rejected():
    record = copy.deepcopy(CATCH)
    record["tricks"][2]["plays"][2]["face_up"] = True  # P3's military 1-4 cannot beat the civil 5-6
    names, exc = fields(record)
    assert names == ["tricks[2].plays[2].face_up"]
    assert "does not beat" in exc.violations[0].message


def test_face_up_non_group_is_rejected():
    record = copy.deepcopy(CATCH)
    record["tricks"][1]["plays"][3]["face_up"] = True  # 3-4 + 2-5 is a military pair of sevens, not a civil pair
    names, _ = fields(record)
    assert names == ["tricks[1].plays[3].face_up"]
    record = copy.deepcopy(CATCH)
    record["tricks"][0]["plays"][1]["face_up"] = True  # 1-1 1-1 4-4 4-4 is no group
    names, exc = fields(record)
    assert names == ["tricks[0].plays[1].face_up"]
    assert "not a group" in exc.violations[0].message


def test_a_claimed_winner_must_be_right():
    record = copy.deepcopy(CATCH)
    record["tricks"][2]["winner"] = 1
    names, _ = fields(record)
    assert names == ["tricks[2].winner"]
    record["tricks"][2]["winner"] = 2
    assert deal(record)["columns"] == [5, 2, 1, 0]


def test_wrong_leader():
    record = copy.deepcopy(CATCH)
    record["tricks"][0]["leader"] = 1
    names, _ = fields(record)
    assert "tricks[0].leader" in names
    record = copy.deepcopy(CATCH)
    record["tricks"][2]["leader"] = 0
    names, exc = fields(record)
    assert names[0] == "tricks[2].leader"
    assert "Seat 1 won the previous trick" in exc.violations[0].message


def test_plays_out_of_order():
    record = copy.deepcopy(CATCH)
    plays = record["tricks"][1]["plays"]
    plays[1], plays[2] = plays[2], plays[1]
    names, _ = fields(record)
    assert names == ["tricks[1].plays[1].seat", "tricks[1].plays[2].seat"]


def test_wrong_tile_count():
    record = copy.deepcopy(CATCH)
    record["tricks"][1]["plays"][2]["tiles"] = ["2-2"]
    names, exc = fields(record)
    assert "tricks[1].plays[2].tiles" in names
    assert "as many tiles as the leader" in exc.violations[names.index("tricks[1].plays[2].tiles")].message


def test_tile_not_in_hand_or_played_twice():
    record = copy.deepcopy(CATCH)
    record["tricks"][3]["plays"][1]["tiles"] = ["1-4"]  # P3 already played his 1-4 in trick 2
    names, exc = fields(record)
    assert names == ["tricks[3].plays[1].tiles[0]"]
    assert "does not hold 1-4" in exc.violations[0].message
    del record["hands"]
    names, exc = fields(record)
    assert names == ["tricks[3].plays[1].tiles[0]"]
    assert "played more often" in exc.violations[0].message


def test_hands_must_be_the_32_tile_set():
    record = copy.deepcopy(CATCH)
    record["hands"][3][7] = "6-6"
    names, _ = fields(record)
    assert names == ["hands[3][7]"]
    record["hands"][3] = record["hands"][3][:7]
    names, _ = fields(record)
    assert names == ["hands[3]"]


def test_leader_must_lead_a_group_face_up():
    record = copy.deepcopy(CATCH)
    record["tricks"][0]["plays"][0]["face_up"] = False
    names, _ = fields(record)
    assert names == ["tricks[0].plays[0].face_up"]
    record = copy.deepcopy(CATCH)
    record["tricks"][1]["plays"][0]["tiles"] = ["1-5", "3-3"]
    record["tricks"][2]["plays"][3]["tiles"] = ["1-5"]
    names, _ = fields(record)
    assert "tricks[1].plays[0].tiles" in names


def test_incomplete_and_partial_records():
    record = copy.deepcopy(CATCH)
    record["tricks"] = record["tricks"][:3]
    names, _ = fields(record)
    assert names == ["tricks"]
    record["partial"] = True
    out = deal(record)
    # no last trick yet, so the banker (seat 0) stays the banker
    assert out["complete"] is False and out["final"] is None and out["next_banker"] == record["banker"] == 0
    assert out["next_leader"] == 2 and out["tiles_left"] == 1
    assert out["columns"] == [4, 2, 1, 0]
    assert out["net"] == [24, -8, -8, -8]  # only the immediate quartet so far


def test_too_many_tricks():
    record = copy.deepcopy(CATCH)
    record["tricks"].append(copy.deepcopy(record["tricks"][3]))
    names, _ = fields(record)
    assert names == ["tricks[4]"]


def test_quartet_immediate_not_paid_on_last_trick_when_switched_off():
    # a deal of two quartet tricks: P0 (banker) leads Heaven, then Earth
    record = {"banker": 0, "tricks": [
        {"leader": 0, "plays": [P(0, ["6-6", "6-6", "4-5", "3-6"], True), P(1, ["4-4", "4-4", "3-4", "2-5"], False),
                                P(2, ["5-5", "5-5", "3-3", "3-3"], False), P(3, ["2-2", "2-2", "5-6", "5-6"], False)]},
        {"leader": 0, "plays": [P(0, ["1-1", "1-1", "3-5", "2-6"], True), P(1, ["1-3", "1-3", "1-4", "2-3"], False),
                                P(2, ["4-6", "4-6", "1-6", "1-6"], False), P(3, ["1-5", "1-5", "2-4", "1-2"], False)]},
    ]}
    out = deal(record)
    # P0 sweeps with two quartets:
    # immediate 2 x (4 x 2) x 3 = 48; final 5 x 2 (banker) x 2 (last quartet) x 2 (sweep) = 40 each
    assert out["columns"] == [8, 0, 0, 0]
    assert out["net"] == [48 + 120, -56, -56, -56]
    record["rules"] = {"preset": "standard", "immediate_on_last_trick": False}
    assert deal(record)["net"] == [24 + 120, -48, -48, -48]


def test_leader_may_be_left_out():
    record = copy.deepcopy(CATCH)
    for trick in record["tricks"]:
        del trick["leader"]
        del trick["plays"][0]["face_up"]
    assert deal(record)["net"] == [44, -8, -28, -8]
