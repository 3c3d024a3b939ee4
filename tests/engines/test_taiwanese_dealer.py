"""Dealer rotation helper of the Taiwanese engine (rules/taiwanese-16.txt "De dealer en
doorgeven", DESIGN.md 2.3: the dealer stays on a win or a draw, N counts the stays)."""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines.taiwanese import dealer_tai, next_dealer_state

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
