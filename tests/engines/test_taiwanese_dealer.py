"""Dealer rotation helper of the Taiwanese engine (the Taiwanese rule text "De dealer en
doorgeven", docs/engines/taiwanese.md: the dealer stays on a win or a draw, N counts the stays)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.taiwanese import dealer_tai, initial_hand_state, next_dealer_state, next_hand_state

SEATS = ["E", "S", "W", "N"]


def test_dealer_wins_stays_and_streak_grows():
    assert next_dealer_state("E", 0, "E") == ("E", 1)
    assert next_dealer_state("W", 2, "W") == ("W", 3)


def test_draw_keeps_the_dealer_and_increments_n():
    assert next_dealer_state("S", 1, None) == ("S", 2)
    assert next_dealer_state("S", 1, None, draw_keeps_dealer=False) == ("W", 0)


def test_another_winner_passes_the_dealer_on():
    assert next_dealer_state("E", 3, "S") == ("S", 0)
    assert next_dealer_state("S", 0, "E") == ("W", 0)
    assert next_dealer_state("W", 0, "N") == ("N", 0)
    assert next_dealer_state("N", 5, "W") == ("E", 0)


def test_dealer_tai_is_one_plus_two_n():
    # Wikibooks 2N + 1: 1, after one stay 3, after two 5.
    assert [dealer_tai(n) for n in range(4)] == [1, 3, 5, 7]


@pytest.mark.parametrize("args", [("X", 0, None), ("E", -1, None), ("E", 0, "Z"), ("E", True, None)])
def test_bad_input(args):
    with pytest.raises(ValueError):
        next_dealer_state(*args)


@given(st.lists(st.sampled_from(SEATS + [None]), max_size=30))
def test_a_sequence_of_hands(winners):
    dealer, streak = "E", 0
    for winner in winners:
        new_dealer, new_streak = next_dealer_state(dealer, streak, winner)
        if winner in (dealer, None):
            assert (new_dealer, new_streak) == (dealer, streak + 1)
        else:
            assert new_streak == 0 and SEATS.index(new_dealer) == (SEATS.index(dealer) + 1) % 4
        dealer, streak = new_dealer, new_streak


# --- the carried state {"dealer", "streak", "round_wind"} ------------------------------------

def test_initial_state_east_deals_in_the_east_round():
    # the Taiwanese rule text: "wie de eerste dealer (Oost) is"
    assert initial_hand_state() == {"dealer": "E", "streak": 0, "round_wind": "E"}
    assert initial_hand_state() is not initial_hand_state()  # a fresh dict each time


def test_next_hand_state_follows_the_dealer_rotation():
    state = {"dealer": "E", "streak": 0, "round_wind": "E"}
    assert next_hand_state(state, "E") == {"dealer": "E", "streak": 1, "round_wind": "E"}
    assert next_hand_state(state, None) == {"dealer": "E", "streak": 1, "round_wind": "E"}
    assert next_hand_state({"dealer": "S", "streak": 2, "round_wind": "E"}, "N") == {"dealer": "W", "streak": 0, "round_wind": "E"}
    assert state == {"dealer": "E", "streak": 0, "round_wind": "E"}  # not changed in place


def test_round_wind_advances_when_the_deal_passes_from_north_back_to_east():
    assert next_hand_state({"dealer": "N", "streak": 3, "round_wind": "E"}, "W") == {"dealer": "E", "streak": 0, "round_wind": "S"}
    assert next_hand_state({"dealer": "N", "streak": 0, "round_wind": "S"}, "E") == {"dealer": "E", "streak": 0, "round_wind": "W"}
    assert next_hand_state({"dealer": "N", "streak": 0, "round_wind": "W"}, "S") == {"dealer": "E", "streak": 0, "round_wind": "N"}
    # North staying (a win or a draw) does not change the round
    assert next_hand_state({"dealer": "N", "streak": 0, "round_wind": "S"}, "N")["round_wind"] == "S"
    assert next_hand_state({"dealer": "N", "streak": 0, "round_wind": "S"}, None)["round_wind"] == "S"


def test_draw_passing_the_dealer_is_an_option():
    state = {"dealer": "N", "streak": 1, "round_wind": "E"}
    assert next_hand_state(state, None, draw_keeps_dealer=False) == {"dealer": "E", "streak": 0, "round_wind": "S"}


def test_missing_round_wind_is_east():
    assert next_hand_state({"dealer": "N", "streak": 0}, "E") == {"dealer": "E", "streak": 0, "round_wind": "S"}


@pytest.mark.parametrize(("state", "winner"), [
    ({"dealer": "E", "streak": 0, "round_wind": "X"}, None),
    ({"dealer": "Q", "streak": 0, "round_wind": "E"}, None),
    ({"dealer": "E", "streak": -1, "round_wind": "E"}, None),
    ({"dealer": "E", "streak": 0, "round_wind": "E"}, "Z"),
    ({"streak": 0}, None),
    (None, None),
])
def test_next_hand_state_bad_input(state, winner):
    with pytest.raises(ValueError):
        next_hand_state(state, winner)


@given(st.lists(st.sampled_from(SEATS + [None]), max_size=60))
def test_state_over_a_sequence_of_hands(winners):
    # Each time the deal passes on, the next seat deals; after all four seats have dealt (the deal
    # comes back to East), the next round wind starts. So after k passes the dealer is seat k mod 4
    # and the round wind is wind (k div 4) mod 4; the streak counts the hands since the last pass.
    state = initial_hand_state()
    passes = stays = 0
    for winner in winners:
        before = state
        state = next_hand_state(state, winner)
        if winner in (before["dealer"], None):
            stays += 1
        else:
            passes, stays = passes + 1, 0
        assert state == {"dealer": SEATS[passes % 4], "streak": stays, "round_wind": SEATS[(passes // 4) % 4]}
