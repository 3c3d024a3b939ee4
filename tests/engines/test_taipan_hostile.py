"""Hostile input to ``taipan play`` (issue "Hostile input", item 7): anything that cannot occur in
a deal is refused with RuleViolation naming the field, never judged as a play.

Facts used (NSKT rules, Tai Pan section; docs/engines/taipan.md): 56 distinct cards, 14 dealt to each player
and the exchange gives and receives three, so a hand holds at most 14 cards; a card is in one
place only (hand, table); a wish is made by playing the Mahjong; a Phoenix single ranks half above
the single it beats (1.5 when led) and never beats the Dragon.
"""
import pytest
from hypothesis import given
from hypothesis import strategies as st

from engines import RuleViolation, run
from engines.taipan.cards import DECK

CODES = [c.code for c in DECK]


def play(**data):
    data.setdefault("current", None)
    data.setdefault("wish", None)
    data.setdefault("in_turn", True)
    return run("taipan", "play", data)


def refused(**data) -> dict[str, str]:
    with pytest.raises(RuleViolation) as exc:
        play(**data)
    return {v.field: v.message for v in exc.value.violations}


@pytest.mark.parametrize("size", [15, 51, 56])
def test_a_hand_of_more_than_14_cards(size):
    errors = refused(play=["2j"], hand=CODES[:size])
    assert list(errors) == ["hand"]
    assert "at most 14 cards" in errors["hand"] and str(size) in errors["hand"]


def test_fourteen_cards_is_a_whole_hand():
    assert play(play=["2j"], hand=CODES[:14])["legal"] is True


def test_an_empty_hand():
    assert list(refused(play=[], current={"cards": ["5s"]}, hand=[])) == ["hand"]


def test_the_same_card_twice_in_a_hand():
    assert list(refused(play=["2j"], hand=["2j", "3s", "2j"])) == ["hand[2]"]


def test_the_same_card_twice_in_a_play_or_on_the_table():
    assert list(refused(play=["7j", "7j"])) == ["play[1]"]
    assert list(refused(current={"cards": ["5s", "5s"]}, play=["7j", "7s"])) == ["current.cards[1]"]


def test_a_play_not_contained_in_the_hand():
    errors = refused(play=["9t", "9s"], hand=["9s", "3j", "4p"])
    assert list(errors) == ["play"] and "9t" in errors["play"]


def test_a_table_card_in_the_hand_or_in_the_play():
    assert list(refused(current={"cards": ["3s"]}, play=["4s"], hand=["3s", "4s"])) == ["hand"]
    assert "play" in refused(current={"cards": ["3s", "3j"]}, play=["3s", "3j"])


def test_the_mahjong_while_a_wish_stands():
    assert list(refused(current={"cards": ["5s"]}, play=["7j"], hand=["7j", "Mahjong"], wish=7)) == ["hand"]
    assert list(refused(current=None, play=["Mahjong"], wish=7)) == ["play"]
    # the Mahjong on the table with its wish is the ordinary case
    assert play(current={"cards": ["Mahjong"]}, play=["8s"], hand=["8s", "3j"], wish=8)["legal"] is True


@pytest.mark.parametrize("value", [7, 15, 15.5, 1, 0.5])
def test_a_phoenix_single_on_the_table_has_an_impossible_rank(value):
    assert list(refused(current={"cards": ["Phoenix"], "phoenix_as": value}, play=["Aj"])) == ["current.phoenix_as"]


@pytest.mark.parametrize("value", [1.5, 7.5, 14.5])
def test_a_phoenix_single_on_the_table_with_a_possible_rank(value):
    out = play(current={"cards": ["Phoenix"], "phoenix_as": value}, play=["Dragon"])
    assert out["legal"] is True and out["combination"]["rank"] == 15


def test_every_problem_is_reported_at_once():
    hand = CODES[:20]  # every 2, 3, 4, 5 and 6: too many cards, and 3s is also on the table
    with pytest.raises(RuleViolation) as exc:
        play(current={"cards": ["3s"]}, play=["9t"], hand=hand, wish=4)
    found = [(v.field, v.template) for v in exc.value.violations]
    assert [f for f, _t in found] == ["hand", "hand", "play"]  # size, table card, 9t not held


@given(st.lists(st.sampled_from(CODES), min_size=15, max_size=56, unique=True))
def test_no_hand_over_14_cards_is_ever_judged(hand):
    with pytest.raises(RuleViolation) as exc:
        play(play=[hand[0]], hand=hand)
    assert "hand" in {v.field for v in exc.value.violations}
