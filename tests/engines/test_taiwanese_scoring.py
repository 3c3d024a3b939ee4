"""Taiwanese 16-tile ``score``: tai table, payments, options and validation.

Every expected value is computed by hand from the Taiwanese rule text (tai table, "Betalen: basis plus
tai", dealer 1 + 2N) and the decisions of docs/engines/taiwanese.md; the comment on each test shows the sum.
"""
import pytest

from engines import run
from engines.errors import RuleViolation
from tests.conftest import load_cases, subset_mismatch


def score(**overrides):
    data = {
        "round_wind": "E", "dealer": "E", "streak": 0, "seat": "S", "flowers": [], "melds": [],
        "concealed": "", "win": {}, "flags": [],
    }
    data.update(overrides)
    return run("taiwanese", "score", data)


def violations(**overrides):
    with pytest.raises(RuleViolation) as exc:
        score(**overrides)
    return exc.value.by_field()


@pytest.mark.parametrize("case", load_cases("taiwanese"), ids=lambda c: c["id"])
def test_acceptance_case_through_python_api(case):
    out = run("taiwanese", case["command"], case["input"])
    assert subset_mismatch(case["expect"], out) is None, subset_mismatch(case["expect"], out)


def test_rule_text_worked_example():
    # "Rekenvoorbeeld": open half flush 4 + dragon pung 1 + self-drawn 1 = 6; each pays 3 + 12 = 15,
    # the dealer 1 tai more: 17.
    out = score(melds=["pung 555z claimed"], concealed="123p 456p 789p 222p 99p", win={"tile": "6p", "how": "self"})
    assert out["tai_items"] == {"dragon_pung": 1, "self_drawn": 1, "half_flush": 4}
    assert out["tai"] == 6
    assert out["pay"] == {"W": 15, "N": 15, "E": 17}
    assert out["winner_total"] == 47
    assert out["net"] == {"E": -17, "S": 47, "W": -15, "N": -15}
    assert sum(out["net"].values()) == 0


def test_discard_completing_a_pung_is_not_a_concealed_pung():
    # 222m 555p 777s concealed, 7s on a discard completes the 777s pung: only 2 concealed pungs -> 0 tai.
    hand = {"melds": ["chow 123m claimed", "chow 456m claimed"], "concealed": "222m 555p 777s 99s"}
    out = score(**hand, win={"tile": "7s", "how": "discard", "discarder": "W"})
    assert out["tai_items"] == {}
    assert out["pay"] == {"W": 3}
    assert out["waits"] == ["7s", "9s"]
    # The same tile self-drawn: three concealed pungs 2 + self-drawn 1 = 3; W, N pay 3 + 6 = 9, E 11.
    out = score(**hand, win={"tile": "7s", "how": "self"})
    assert out["tai_items"] == {"self_drawn": 1, "three_concealed_pungs": 2}
    assert out["pay"] == {"W": 9, "N": 9, "E": 11}


def test_best_decomposition_wins():
    # 111p 222p 333p reads as three pungs or three 123p chows; pungs score more:
    # bu qiu 3 + three concealed pungs 2 = 5 (waits 6s/9s: no single wait).
    out = score(concealed="111p 222p 333p 456s 789s 55m", win={"tile": "9s", "how": "self"})
    assert out["tai_items"] == {"three_concealed_pungs": 2, "bu_qiu": 3}
    assert out["tai"] == 5
    assert out["pay"] == {"W": 13, "N": 13, "E": 15}
    assert out["decomposition"]["pair"] == "55m"
    assert "pung 111p" in out["decomposition"]["sets"]


def test_two_dragon_pungs_without_dragon_pair_count_one_each():
    # dragon pung 1 each: 2; round/seat winds none; 9m is a single (pair) wait: 1. Total 3.
    out = score(melds=["pung 555z claimed", "pung 666z claimed"], concealed="123m 456p 789s 99m",
                win={"tile": "9m", "how": "discard", "discarder": "N"})
    assert out["tai_items"] == {"single_wait": 1, "dragon_pung": 2}
    assert out["pay"] == {"N": 3 + 2 * 3}


def test_four_kongs():
    # four kongs 8 + single wait (pair 7s) 1 = 9; the discarder pays 3 + 18 = 21.
    out = score(melds=["kong 1111m exposed", "kong 2222p exposed", "kong 3333s added", "kong 9999m exposed"],
                concealed="456p 77s", win={"tile": "7s", "how": "discard", "discarder": "W"})
    assert out["tai_items"] == {"single_wait": 1, "four_kongs": 8}
    assert out["pay"] == {"W": 21}


def test_all_honours_and_its_companions():
    # single wait 1 + round wind E 1 + seat wind S 1 + three concealed pungs 2 + all pungs 4
    # + little three dragons 4 + all honours 16 = 29; W pays 3 + 58 = 61.
    out = score(melds=["pung 111z claimed", "pung 555z claimed"], concealed="222z 666z 444z 77z",
                win={"tile": "7z", "how": "discard", "discarder": "W"})
    assert out["tai_items"] == {"single_wait": 1, "round_wind": 1, "seat_wind": 1, "three_concealed_pungs": 2,
                                "all_pungs": 4, "little_three_dragons": 4, "all_honours": 16}
    assert out["tai"] == 29
    assert out["pay"] == {"W": 61}


def test_all_honours_is_an_option():
    out = score(rules={"all_honours": 0}, melds=["pung 111z claimed", "pung 555z claimed"],
                concealed="222z 666z 444z 77z", win={"tile": "7z", "how": "discard", "discarder": "W"})
    assert "all_honours" not in out["tai_items"]
    assert out["tai"] == 13


def test_own_flowers_and_both_flower_kongs():
    # seat S (wind 2 with dealer E): fl2 and se2 are own flowers: 2; a flower kong of fl1-fl4: 2.
    # The hand itself scores nothing (claimed chow, a pung, flowers): 4 in total.
    out = score(flowers=["se2", "fl1", "fl2", "fl3", "fl4"], melds=["chow 234m claimed"],
                concealed="567m 345p 678s 111s 88p", win={"tile": "5p", "how": "discard", "discarder": "W"})
    assert out["tai_items"] == {"own_flower": 2, "flower_kong": 2}
    assert out["pay"] == {"W": 3 + 2 * 4}


def test_flower_kong_without_extra_own_flower_option():
    out = score(rules={"flower_kong_adds_own_flower": False}, seat="W", flowers=["fl1", "fl2", "fl3", "fl4"],
                melds=["chow 234m claimed"], concealed="567m 345p 678s 111s 88p",
                win={"tile": "5p", "how": "discard", "discarder": "S"})
    assert out["tai_items"] == {"flower_kong": 2}


def test_seat_wind_is_counted_from_the_dealer():
    # Dealer S: the dealer is East, seat W is South, seat E is North (docs/engines/taiwanese.md, option seat_wind).
    hand = {"melds": ["pung 222z claimed"], "concealed": "123m 456m 789m 234p 55p",
            "win": {"tile": "4p", "how": "discard", "discarder": "N"}}
    out = score(dealer="S", seat="W", **hand)
    assert out["seat_wind"] == "S"
    assert out["tai_items"] == {"seat_wind": 1}
    # W is not involved with the dealer S: no dealer tai; 3 + 2 = 5.
    assert out["pay"] == {"N": 5}
    assert out["dealer_tai"] == 0
    out = score(dealer="S", seat="S", **hand)
    assert out["seat_wind"] == "E"
    assert out["tai_items"] == {}
    # The dealer S wins: dealer tai 1, N pays 3 + 2 * (0 + 1) = 5.
    assert out["pay"] == {"N": 5}
    out = score(rules={"seat_wind": "seat"}, dealer="S", seat="S", **hand)
    assert out["tai_items"] == {"seat_wind": 1}


def test_dealer_tai_only_between_dealer_and_winner():
    # Non-dealer S wins on W's discard: the dealer E pays nothing, no dealer tai (T02 hand, 5 tai).
    out = score(streak=3, melds=["pung 555z claimed"], concealed="123p 456p 789p 222p 99p",
                win={"tile": "6p", "how": "discard", "discarder": "W"})
    assert out["pay"] == {"W": 13}
    assert out["dealer_tai"] == 0
    # Self-drawn with streak 3: dealer tai 1 + 6 = 7 only for E: 3 + 2 * (6 + 7) = 29.
    out = score(streak=3, melds=["pung 555z claimed"], concealed="123p 456p 789p 222p 99p",
                win={"tile": "6p", "how": "self"})
    assert out["pay"] == {"W": 15, "N": 15, "E": 29}
    assert out["dealer_tai"] == 7
    assert [p["dealer_tai"] for p in out["payments"]] == [0, 0, 7]


def test_dealer_tai_scope_dealer_wins_only():
    # T11 (S wins on the dealer's discard, 5 tai) when the dealer pays no dealer tai: 3 + 10 = 13.
    out = score(rules={"dealer_tai_scope": "dealer_wins_only"}, melds=["pung 555z claimed"],
                concealed="123p 456p 789p 222p 99p", win={"tile": "6p", "how": "discard", "discarder": "E"})
    assert out["pay"] == {"E": 13}


def test_dealer_tai_per_streak_option():
    # T09 hand (ping hu 2, dealer wins, streak 2) with 1 + 1*N: dealer tai 3, W pays 3 + 2 * 5 = 13.
    out = score(rules={"dealer_tai_per_streak": 1}, seat="E", streak=2, melds=["chow 789m claimed"],
                concealed="123m 456p 234s 678s 11p", win={"tile": "4p", "how": "discard", "discarder": "W"})
    assert out["dealer_tai"] == 3
    assert out["pay"] == {"W": 13}


def test_cap_before_or_after_dealer_tai():
    hand = {"seat": "E", "concealed": "123m 555m 678p 234s 789s 22p", "win": {"tile": "9s", "how": "self"},
            "flags": ["heavenly_hand"]}
    out = score(rules={"cap": 16}, **hand)
    assert out["tai_raw"] == 32 and out["tai"] == 16
    assert out["pay"] == {"S": 37, "W": 37, "N": 37}  # 3 + 2 * (16 + 1)
    out = score(rules={"cap": 16, "cap_includes_dealer_tai": True}, **hand)
    assert out["tai"] == 16
    assert out["pay"] == {"S": 35, "W": 35, "N": 35}  # 3 + 2 * 16
    # cap 20 on hand + dealer tai of a non-dealer's self-draw (T28 hand, 21 tai, streak 1):
    # W, N pay 3 + 2 * 20 = 43, the dealer E also 43 (21 + 3 capped at 20).
    t28 = {"melds": ["pung 111z claimed", "pung 222z claimed", "pung 333z claimed", "pung 444z claimed"],
           "concealed": "345m 66m", "win": {"tile": "5m", "how": "self"}}
    out = score(rules={"cap": 20, "cap_includes_dealer_tai": True}, streak=1, **t28)
    assert out["pay"] == {"W": 43, "N": 43, "E": 43}
    out = score(rules={"cap": 20}, streak=1, **t28)
    assert out["pay"] == {"W": 43, "N": 43, "E": 49}  # 3 + 2 * (20 + 3)
    out = score(rules="cap16", **hand)
    assert out["pay"] == {"S": 37, "W": 37, "N": 37}


def test_bu_qiu_and_concealed_options():
    hand = {"seat": "W", "concealed": "123m 555m 678p 234s 789s 22p", "win": {"tile": "9s", "how": "self"}}
    assert score(**hand)["tai_items"] == {"bu_qiu": 3}
    assert score(rules={"bu_qiu_adds_self_drawn": True}, **hand)["tai_items"] == {"self_drawn": 1, "bu_qiu": 3}
    assert score(rules={"concealed_on_self_draw": True}, **hand)["tai_items"] == {"concealed": 1, "bu_qiu": 3}


def test_ping_hu_conditions():
    hand = {"melds": ["chow 789m claimed"], "concealed": "123m 456p 234s 678s 11p"}
    # self-drawn: no ping hu, only self-drawn 1.
    assert score(**hand, win={"tile": "4p", "how": "self"})["tai_items"] == {"self_drawn": 1}
    assert score(rules={"ping_hu_allows_self_draw": True}, **hand, win={"tile": "4p", "how": "self"})["tai_items"] == {
        "self_drawn": 1, "ping_hu": 2}
    # any flower (even another seat's) spoils ping hu.
    out = score(**hand, flowers=["fl4"], win={"tile": "4p", "how": "discard", "discarder": "W"})
    assert out["tai_items"] == {}
    # an honour pair spoils it.
    out = score(melds=["chow 789m claimed"], concealed="123m 456p 234s 678s 77z",
                win={"tile": "4p", "how": "discard", "discarder": "W"})
    assert out["tai_items"] == {}
    # a single wait spoils it (T18) unless the option allows it.
    t18 = {"seat": "W", "concealed": "123m 456m 789p 456s 234p 55m", "win": {"tile": "5s", "how": "discard", "discarder": "N"}}
    assert score(**t18)["tai_items"] == {"concealed": 1, "single_wait": 1}
    assert score(rules={"ping_hu_allows_single_wait": True}, **t18)["tai_items"] == {"concealed": 1, "single_wait": 1, "ping_hu": 2}


def test_all_claimed_needs_a_discard():
    hand = {"seat": "N", "melds": ["chow 234m claimed", "chow 567m claimed", "chow 789p claimed", "pung 333s claimed",
                                   "chow 678s claimed"], "concealed": "55p"}
    out = score(**hand, win={"tile": "5p", "how": "self"})
    assert out["tai_items"] == {"single_wait": 1, "self_drawn": 1}
    out = score(rules={"all_claimed_adds_single_wait": True}, **hand, win={"tile": "5p", "how": "discard", "discarder": "W"})
    assert out["tai_items"] == {"single_wait": 1, "all_claimed": 2}
    # a concealed kong is not claimed: no all claimed, single wait 1 instead.
    hand["melds"][3] = "kong 3333s concealed"
    out = score(**hand, win={"tile": "5p", "how": "discard", "discarder": "W"})
    assert out["tai_items"] == {"single_wait": 1}


def test_single_wait_shape_option():
    # T20: waits 7s/9s, so no formal single wait; by shape the 9s completes the pair: single wait.
    hand = {"melds": ["chow 123m claimed"], "concealed": "222m 555p 888s 678p 99s",
            "win": {"tile": "9s", "how": "discard", "discarder": "W"}}
    assert score(**hand)["tai"] == 2
    out = score(rules={"single_wait": "shape"}, **hand)
    assert out["tai_items"] == {"single_wait": 1, "three_concealed_pungs": 2}


def test_big_patterns_absorb_option():
    hand = {"melds": ["pung 555z claimed", "pung 666z claimed", "pung 777z claimed"], "concealed": "234m 567m 11p",
            "win": {"tile": "7m", "how": "discard", "discarder": "W"}}
    assert score(**hand)["tai_items"] == {"big_three_dragons": 8}
    assert score(rules={"big_patterns_absorb": False}, **hand)["tai_items"] == {"dragon_pung": 3, "big_three_dragons": 8}


def test_earthly_hand_absorbs_win_items():
    # Non-dealer S wins on the first tile: earthly hand 16 (bu qiu absorbed).
    # W, N pay 3 + 32 = 35; the dealer E pays 3 + 2 * (16 + 1) = 37.
    out = score(concealed="123m 555m 678p 234s 789s 22p", win={"tile": "9s", "how": "self"}, flags=["earthly_hand"])
    assert out["tai_items"] == {"earthly_hand": 16}
    assert out["pay"] == {"W": 35, "N": 35, "E": 37}
    out = score(rules={"flag_hands_absorb_win_items": False}, concealed="123m 555m 678p 234s 789s 22p",
                win={"tile": "9s", "how": "self"}, flags=["earthly_hand"])
    assert out["tai_items"] == {"bu_qiu": 3, "earthly_hand": 16}


def test_ready_flags_add_to_the_hand():
    # T18 hand + heavenly ready: concealed 1 + single wait 1 + 16 = 18; N pays 3 + 36 = 39.
    base = {"seat": "W", "concealed": "123m 456m 789p 456s 234p 55m", "win": {"tile": "5s", "how": "discard", "discarder": "N"}}
    out = score(**base, flags=["heavenly_ready"])
    assert out["tai"] == 18 and out["pay"] == {"N": 39}
    out = score(**base, flags=["earthly_ready"])
    assert out["tai"] == 10 and out["pay"] == {"N": 23}


def test_eight_flowers_dealer_wins():
    # The dealer E draws the eighth flower: 8 tai + dealer tai 1 from each payer: 3 + 2 * 9 = 21 each.
    out = score(seat="E", flowers=["fl1", "fl2", "fl3", "fl4", "se1", "se2", "se3", "se4"],
                concealed="1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 4z 5z 6z 7z", win={"tile": "fl3", "how": "eight_flowers"})
    assert out["tai_items"] == {"eight_flowers": 8}
    assert out["pay"] == {"S": 21, "W": 21, "N": 21}
    assert out["winner_total"] == 63


def test_flower_win_without_absorbing_flowers():
    # seat W: own flowers fl3 + se3 = 2, two flower kongs 4, seven rob one 8 = 14; S pays 3 + 28 = 31.
    out = score(rules={"flower_wins_absorb_flowers": False}, seat="W",
                flowers=["fl1", "fl2", "fl3", "fl4", "se1", "se2", "se3", "se4"],
                concealed="1m 4m 7m 2p 5p 8p 3s 6s 9s 1z 2z 3z 4z 5z 6z 7z",
                win={"tile": "fl2", "how": "seven_rob_one", "robbed": "S"})
    assert out["tai_items"] == {"own_flower": 2, "flower_kong": 4, "seven_rob_one": 8}
    assert out["pay"] == {"S": 31}


def test_tile_order_and_grouping_do_not_matter():
    a = score(melds=["pung 555z claimed"], concealed="123p 456p 789p 222p 99p", win={"tile": "6p", "how": "self"})
    b = score(melds=["pung 5z5z5z claimed"], concealed="9p 2p 6p 5p 4p 3p 2p 2p 1p 7p 8p 9p 2p 9p",
              win={"tile": "6p", "how": "self"})
    for key in ("tai_items", "tai", "pay", "winner_total", "waits"):
        assert a[key] == b[key]


# ----------------------------------------------------------------------------- violations

GOOD = {"melds": ["pung 555z claimed"], "concealed": "123p 456p 789p 222p 99p", "win": {"tile": "6p", "how": "self"}}


def bad(**changes):
    data = {**GOOD, **changes}
    return violations(**data)


def test_unknown_tile():
    assert "concealed" in bad(concealed="123p 456p 789p 222p 9x")
    assert "concealed" in bad(concealed="123p 456p 789p 222p 90p")
    assert "melds[0]" in bad(melds=["pung 888z claimed"])
    assert "win.tile" in bad(win={"tile": "10p", "how": "self"})


def test_wrong_count():
    errors = bad(concealed="123p 456p 789p 222p 9p")
    assert any("must have 14" in m for m in errors["concealed"])
    assert "concealed" in bad(concealed="123p 456p 789p 222p 99p 1p")
    assert "concealed" in bad(melds=[], concealed="123p 456p 789p 222p 99p")


def test_fifth_copy():
    errors = bad(melds=["kong 2222p exposed"], concealed="123p 456p 789p 22p 99p")
    assert any("copies of 2p" in m for m in errors["concealed"])


def test_not_a_winning_hand():
    errors = bad(concealed="123p 456p 789p 222p 19p", win={"tile": "9p", "how": "self"})
    assert "five sets and a pair" in errors["concealed"][0]


def test_bad_seats_and_winds():
    errors = bad(seat="X", dealer="east", round_wind="1z", streak=-1)
    assert set(errors) >= {"seat", "dealer", "round_wind", "streak"}
    assert "win.discarder" in bad(win={"tile": "6p", "how": "discard", "discarder": "S"})  # the winner
    assert "win.discarder" in bad(win={"tile": "6p", "how": "discard"})
    assert "win.discarder" in bad(win={"tile": "6p", "how": "self", "discarder": "W"})
    assert "win.how" in bad(win={"tile": "6p", "how": "ron"})


def test_inconsistent_win():
    assert "win.tile" in bad(win={"tile": "5z", "how": "self"})  # not among the concealed tiles
    assert "win.after_kong" in bad(win={"tile": "6p", "how": "self", "after_kong": True})  # no kong
    assert "win.last_discard" in bad(win={"tile": "6p", "how": "self", "last_discard": True})
    assert "win.last_wall_tile" in bad(win={"tile": "6p", "how": "discard", "discarder": "W", "last_wall_tile": True})
    # a robbed kong tile is the fourth copy: the winner can hold no other 2p.
    assert "win.tile" in bad(concealed="123p 456p 789p 222p 99p", win={"tile": "2p", "how": "rob_added_kong", "robbed": "N"})


def test_flowers_and_flags():
    assert "flowers[0]" in bad(flowers=["fl5"])
    assert "flowers[1]" in bad(flowers=["fl1", "fl1"])
    assert "flowers" in bad(flowers=["fl1", "fl2", "fl3", "fl4", "se1", "se2", "se3", "se4"])  # that is eight_flowers
    assert "flowers" in bad(win={"tile": "fl1", "how": "eight_flowers"}, flowers=["fl1"])
    assert "flags[0]" in bad(flags=["lucky"])
    assert "flags" in bad(flags=["heavenly_hand"])  # S is not the dealer, and the hand has a claimed pung
    assert "flags" in bad(seat="E", melds=[], concealed="123m 555m 678p 234s 789s 22p",
                          win={"tile": "9s", "how": "discard", "discarder": "W"}, flags=["heavenly_hand"])
    assert "flags" in bad(seat="E", melds=[], concealed="123m 555m 678p 234s 789s 22p",
                          win={"tile": "9s", "how": "self"}, flags=["earthly_hand"])


def test_every_violation_is_reported_together():
    errors = bad(seat="Q", flowers=["xx"], concealed="123p 456p 789p 222p 9x", rules=None)
    assert set(errors) >= {"seat", "flowers[0]", "concealed"}


def test_rules_violations():
    assert "rules.bonus" in bad(rules={"bonus": 1})
    assert "rules.cap" in bad(rules={"cap": -2})
    assert "rules.single_wait" in bad(rules={"single_wait": "maybe"})
    assert "rules.preset" in bad(rules="hongkong")
    assert "unknown" in bad(unknown=1)


# Who pays is fixed by how the hand was won (rule text "Betalen": a discard win is paid by the
# discarder only, a self-draw by all three; docs/engines/taiwanese.md win fields): every other combination of
# how / discarder / robbed is contradictory and refused at the field that should not (or must) be there.
_PARTY = {"discard": "discarder", "rob_added_kong": "robbed", "seven_rob_one": "robbed", "self": None, "eight_flowers": None}
_EIGHT = ["fl1", "fl2", "fl3", "fl4", "se1", "se2", "se3", "se4"]


@pytest.mark.parametrize("how", list(_PARTY))
@pytest.mark.parametrize("discarder", [None, "N", "S", ""])
@pytest.mark.parametrize("robbed", [None, "N", "S", ""])
def test_win_parties_must_fit_how_the_hand_was_won(how, discarder, robbed):
    if how in ("eight_flowers", "seven_rob_one"):
        hand = {"concealed": "123m 456m 789m 123p 456p 1s", "flowers": _EIGHT, "win": {"tile": "fl2", "how": how}}
    else:  # 9m completes a chow, so it can also be the robbed fourth copy of an added kong
        hand = {"concealed": "123m 456m 789m 123p 456p 11s", "win": {"tile": "9m", "how": how}}
    for key, value in (("discarder", discarder), ("robbed", robbed)):
        if value is not None:
            hand["win"][key] = value
    needed = _PARTY[how]
    given = {"discarder": discarder, "robbed": robbed}
    fine = all(given[k] is None for k in given if k != needed) and (needed is None or given[needed] == "N")
    if fine:
        out = score(**hand)
        assert set(out["pay"]) == ({"N"} if needed else {"E", "W", "N"})
        return
    fields = violations(**hand)
    for key, value in given.items():
        if key != needed and value is not None:
            assert f"win.{key}" in fields  # e.g. a self-draw with a discarder
    if needed and given[needed] != "N":
        assert f"win.{needed}" in fields  # missing, the winner, or not a seat
