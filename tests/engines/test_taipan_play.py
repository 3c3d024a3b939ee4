"""Tai Pan cards, combinations and the ``play`` command (NSKT rules, Tai Pan section; docs/engines/taipan.md).

Each tricky situation of issue 3 has its own test; expected values come from the rule text:
Phoenix single = beaten rank + 0.5 (1.5 led), never over the Dragon; Dragon = 15; bombs beat any
non-bomb; straight flush over four of a kind, longer over shorter; the first player who can play the
wished rank must, with a bomb if only a bomb can; an in-turn bomb may ignore the wish under nskt.
"""
import pytest

import engines
from engines.errors import RuleViolation
from engines.taipan.cards import BY_CODE, DECK, card_points, cards
from engines.taipan.combinations import CombinationType, beats, can_fulfil_wish, plays, readings
from tests.conftest import load_cases, subset_mismatch


def play(**data):
    data.setdefault("current", None)
    data.setdefault("wish", None)
    data.setdefault("in_turn", True)
    return engines.run("taipan", "play", data)


def table(codes, phoenix_as=None):
    out = {"cards": codes.split()}
    if phoenix_as is not None:
        out["phoenix_as"] = phoenix_as
    return out


@pytest.mark.parametrize("case", load_cases("taipan", {"play"}), ids=lambda c: c["id"])
def test_acceptance_case(case):
    got = engines.run("taipan", "play", case["input"])
    assert subset_mismatch(case["expect"], got) is None, subset_mismatch(case["expect"], got)


# --- deck and parsing ------------------------------------------------------------------------

def test_deck_has_56_cards_worth_100_points():
    assert len(DECK) == 56 and len({c.code for c in DECK}) == 56
    assert card_points(DECK) == 100
    assert BY_CODE["10s"].rank == 10 and BY_CODE["Kj"].rank == 13 and BY_CODE["Dragon"].rank == 15


def test_unknown_and_duplicate_cards_are_reported_with_their_index():
    with pytest.raises(RuleViolation) as info:
        play(play=["3x", "Kj", "Kj"], current=table("Qs Qj Zz"))
    assert [v.field for v in info.value.violations] == ["current.cards[2]", "play[0]", "play[2]"]


def test_bad_wish_table_and_hand_are_input_errors():
    with pytest.raises(RuleViolation) as info:
        play(play=["Kj"], wish=15)
    assert [v.field for v in info.value.violations] == ["wish"]
    with pytest.raises(RuleViolation) as info:
        play(play=["Kj"], current=table("3s 4j"))
    assert [v.field for v in info.value.violations] == ["current.cards"]
    with pytest.raises(RuleViolation) as info:
        play(play=["Kj"], hand=["Ks"])
    assert [v.field for v in info.value.violations] == ["play"]


# --- combinations ----------------------------------------------------------------------------

@pytest.mark.parametrize(("codes", "ctype", "length", "rank"), [
    ("7s", "single", 1, 7),
    ("Mahjong", "single", 1, 1),
    ("Dragon", "single", 1, 15),
    ("Dog", "dog", 1, 0),
    ("9s 9j", "pair", 2, 9),
    ("9s Phoenix", "pair", 2, 9),
    ("Qs Qj Qt", "triple", 3, 12),
    ("2s 2j 2t Kp Kt", "full_house", 5, 2),
    ("2s 2j Phoenix Kp Kt", "full_house", 5, 13),  # highest reading first: KKK-22
    ("5s 5j 6s 6j", "stairs", 4, 6),
    ("5s 5j 6s Phoenix 7j 7t", "stairs", 6, 7),
    ("9s 10j Jp Qt Kj Aj", "straight", 6, 14),
    ("Mahjong 2s 3s 4s 5s", "straight", 5, 5),
    ("6s 6j 6p 6t", "four_of_a_kind", 4, 6),
    ("2p 3p 4p 5p 6p 7p", "straight_flush", 6, 7),
])
def test_classification(codes, ctype, length, rank):
    best = readings(cards(codes))[0]
    assert (best.type.value, best.length, best.rank) == (ctype, length, rank)


@pytest.mark.parametrize("codes", [
    "Ks Kj Kp Phoenix",  # KKK+Phoenix is nothing (docs/engines/taipan.md)
    "Dog 2s", "Dragon Phoenix", "Mahjong Phoenix", "Mahjong 2s 3s 4s",
    "As 2s 3j 4p 5t", "3s 4s 5s 6s", "5s 5j 7s 7j", "2s 3j",
])
def test_no_combination(codes):
    assert readings(cards(codes)) == []


def test_bomb_order():
    four9 = readings(cards("9s 9j 9p 9t"))[0]
    four10 = readings(cards("10s 10j 10p 10t"))[0]
    sf5_low = readings(cards("2j 3j 4j 5j 6j"))[0]
    sf5_high = readings(cards("3s 4s 5s 6s 7s"))[0]
    sf6 = readings(cards("2p 3p 4p 5p 6p 7p"))[0]
    single_dragon = readings(cards("Dragon"))[0]
    assert beats(four10, four9) and not beats(four9, four10)
    assert beats(sf5_low, four10) and not beats(four10, sf5_low)
    assert beats(sf5_high, sf5_low) and not beats(sf5_low, sf5_high)
    assert beats(sf6, sf5_high) and not beats(sf5_high, sf6)
    assert beats(four9, single_dragon)


def test_plays_generator_lists_every_bomb_and_only_beating_plays():
    hand = cards("3s 4s 5s 6s 7s 8s 8j 8p 8t Phoenix")
    current = readings(cards("2j 3j 4p 5t 6t"))[0]
    found = list(plays(hand, current))
    assert all(beats(p, current) for p in found)
    kinds = {(p.type.value, p.length, p.rank) for p in found}
    assert ("straight_flush", 5, 7) in kinds and ("straight_flush", 6, 8) in kinds
    assert ("four_of_a_kind", 4, 8) in kinds
    assert ("straight", 5, 7) in kinds and ("straight", 5, 9) in kinds  # 5-9 with the Phoenix as 9


# --- the tricky situations of issue 3 ----------------------------------------------------------

def test_phoenix_over_the_ace_then_the_dragon():
    on_ace = play(current=table("As"), play=["Phoenix"])
    assert on_ace["legal"] and on_ace["combination"]["rank"] == 14.5
    dragon = play(current=table("Phoenix", phoenix_as=14.5), play=["Dragon"])
    assert dragon["legal"] and dragon["combination"]["rank"] == 15
    ace = play(current=table("Phoenix", phoenix_as=14.5), play=["Aj"])
    assert not ace["legal"]


def test_phoenix_on_the_dragon():
    out = play(current=table("Dragon"), play=["Phoenix"])
    assert out["legal"] is False and "Dragon" in out["reason"]
    assert out["reason_template"] == "The Phoenix cannot beat the Dragon."


def test_sequence_bomb_cannot_be_declared_a_straight():
    same_suit = cards("8j 9j 10j Jj Qj")
    assert [r.type for r in readings(same_suit)] == [CombinationType.STRAIGHT_FLUSH]
    # on a plain 6-card straight it is a bomb, so it beats it although it is shorter
    out = play(current=table("2s 3j 4p 5t 6s 7j"), play=["8j", "9j", "10j", "Jj", "Qj"])
    assert out["legal"] and out["combination"]["type"] == "straight_flush" and out["combination"]["bomb"] is True
    # it cannot hide as a straight to dodge a higher straight flush, and a plain straight cannot beat it
    assert play(current=table("9s 10s Js Qs Ks"), play=["8j", "9j", "10j", "Jj", "Qj"])["legal"] is False
    plain = play(current=table("8j 9j 10j Jj Qj"), play=["9s", "10p", "Jt", "Qs", "Ks"])
    assert plain["legal"] is False and plain["reason_template"] == "Only a higher bomb beats a bomb."
    # out of turn it is allowed as a bomb
    assert play(current=table("Ks"), play=["8j", "9j", "10j", "Jj", "Qj"], in_turn=False)["legal"] is True


def test_3333_plus_phoenix_is_not_a_full_house():
    out = play(current=table("2s 2j 2p 4s 4j"), play=["3s", "3j", "3p", "3t", "Phoenix"])
    assert out["legal"] is False and out["combination"] is None
    assert "not a full house" in out["reason"]
    # nor is it a bomb out of turn
    assert play(current=table("Ks"), play=["3s", "3j", "3p", "3t", "Phoenix"], in_turn=False)["legal"] is False


def test_wish_fulfilled_by_a_straight_cut_from_a_longer_run():
    hand = ["3s", "4j", "5p", "6t", "7s", "8j", "9p", "10j", "Jj", "Qs"]
    current = table("2s 3j 4p 5t 6s")
    assert can_fulfil_wish(cards(hand), readings(cards("2s 3j 4p 5t 6s"))[0], 7)
    assert play(current=current, play=[], wish=7, hand=hand)["legal"] is False
    dodge = play(current=current, play=["8j", "9p", "10j", "Jj", "Qs"], wish=7, hand=hand)
    assert dodge["legal"] is False and dodge["reason_params"] == {"wish": "7"}
    for run in (["3s", "4j", "5p", "6t", "7s"], ["5p", "6t", "7s", "8j", "9p"]):
        out = play(current=current, play=run, wish=7, hand=hand)
        assert out["legal"] and out["wish_fulfilled"] and out["wish"] is None


def test_wish_only_fulfillable_by_a_bomb():
    hand = ["7s", "8s", "9s", "10s", "Js", "3j"]
    current = table("Kj Kt")
    assert play(current=current, play=[], wish=7, hand=hand)["legal"] is False
    bomb = play(current=current, play=["7s", "8s", "9s", "10s", "Js"], wish=7, hand=hand)
    assert bomb["legal"] and bomb["combination"]["type"] == "straight_flush" and bomb["wish_fulfilled"]
    # without the 7 in a bomb there is nothing to fulfil with: passing is fine
    assert play(current=current, play=[], wish=7, hand=["7s", "3j"])["legal"] is True


# --- wish details --------------------------------------------------------------------------------

def test_wish_without_hand_is_not_checked():
    out = play(current=table("5s"), play=["9t"], wish=7)
    assert out["legal"] is True and out["wish_checked"] is False and out["wish"] == 7
    out = play(current=table("5s"), play=[], wish=7)
    assert out["legal"] is True and out["wish_checked"] is False
    out = play(current=table("5s"), play=["7t"], wish=7)
    assert out["wish_checked"] is True and out["wish_fulfilled"] is True and out["wish"] is None


def test_phoenix_is_not_the_wished_rank():
    out = play(current=table("5s"), play=["Phoenix"], wish=7, hand=["Phoenix", "3j"])
    assert out["legal"] and out["wish_fulfilled"] is False and out["wish"] == 7
    # a Phoenix in the hand does not oblige a player without the rank
    assert play(current=table("5s"), play=[], wish=7, hand=["Phoenix", "3j"])["legal"] is True


def test_in_turn_bomb_without_wished_rank_depends_on_rule():
    data = {"current": table("5s"), "play": ["Ks", "Kj", "Kp", "Kt"], "wish": 7, "hand": ["7j", "Ks", "Kj", "Kp", "Kt"]}
    nskt = play(**data)
    assert nskt["legal"] and nskt["wish"] == 7 and not nskt["wish_fulfilled"]
    strict = play(**data, rules={"preset": "nskt", "in_turn_bomb_ignores_wish": False})
    assert strict["legal"] is False


def test_wish_on_lead_and_pair_with_phoenix():
    assert play(play=["3j"], wish=8, hand=["8s", "3j"])["legal"] is False
    assert play(play=["8s"], wish=8, hand=["8s", "3j"])["legal"] is True
    # a pair is on the table: 8 + Phoenix fulfils, so a pair of 3s is refused
    assert play(current=table("2s 2j"), play=["3s", "3j"], wish=8, hand=["8s", "Phoenix", "3s", "3j"])["legal"] is False


# --- other play rules ----------------------------------------------------------------------------

def test_phoenix_as_chooses_the_reading():
    current = table("9s 10j Jp Qt Ks")
    assert play(current=current, play=["10s", "Jj", "Qp", "Kt", "Phoenix"])["combination"]["phoenix_as"] == 14
    out = play(current=current, play=["10s", "Jj", "Qp", "Kt", "Phoenix"], phoenix_as=9)
    assert out["legal"] is False  # 9-K does not beat 9-K
    out = play(play=["5s", "5j", "6p", "6t", "Phoenix"], phoenix_as=5)
    assert out["combination"]["rank"] == 5 and out["combination"]["type"] == "full_house"
    out = play(play=["5s", "5j", "6p", "6t", "Phoenix"], phoenix_as=9)
    assert out["legal"] is False


def test_table_with_phoenix_is_read_by_phoenix_as():
    # 3-4-5-6 + Phoenix on the table: as 2-6 (rank 6) a 3-7 beats it, as 3-7 (rank 7) it does not;
    # without phoenix_as the table is read highest (rank 7)
    beat = ["3j", "4j", "5j", "6p", "7p"]
    assert play(current=table("3s 4s 5s 6j Phoenix", phoenix_as=2), play=beat)["legal"] is True
    assert play(current=table("3s 4s 5s 6j Phoenix", phoenix_as=7), play=beat)["legal"] is False
    assert play(current=table("3s 4s 5s 6j Phoenix"), play=beat)["legal"] is False


def test_out_of_turn_rules():
    assert play(current=table("5s"), play=["9t"], in_turn=False)["legal"] is False
    assert play(current=None, play=["9s", "9j", "9p", "9t"], in_turn=False)["legal"] is False
    assert play(current=table("Dog"), play=["9s", "9j", "9p", "9t"], in_turn=False)["legal"] is False
    assert play(current=table("5s"), play=[], in_turn=False)["legal"] is True


def test_passing_on_lead_is_illegal_and_pass_otherwise_fine():
    assert play(play=[])["legal"] is False
    assert play(current=table("5s"), play=[])["legal"] is True


def test_dog_and_dragon_rules():
    assert play(current=table("3s"), play=["Dog"])["legal"] is False
    assert play(current=table("As"), play=["Dragon"])["legal"] is True
    assert play(current=table("As Aj"), play=["Dragon"])["legal"] is False
    assert play(current=table("Dragon"), play=["9s", "9j", "9p", "9t"])["legal"] is True
    out = play(play=["Dragon", "Aj"])
    assert out["legal"] is False and "single" in out["reason"]


def test_lengths_and_types_must_match_with_reasons():
    out = play(current=table("3s 4j 5p 6t 7s 8j"), play=["10s", "Jj", "Qp", "Kt", "As"])
    assert out["legal"] is False and out["reason_params"]["needed"] == 6
    out = play(current=table("5s 5j"), play=["9t"])
    assert out["legal"] is False and out["reason_params"] == {"type": "single", "current": "pair"}
    out = play(current=table("Qs Qj"), play=["Js", "Jj"])
    assert out["legal"] is False and out["reason_params"]["rank"] == "J"


def test_output_shape():
    out = play(current=table("Ks"), play=["Phoenix"])
    assert set(out) >= {"legal", "combination", "reason", "reason_template", "reason_params", "wish_checked",
                        "wish_fulfilled", "wish"}
    assert out["combination"] == {"type": "single", "length": 1, "rank": 13.5, "phoenix_as": 13.5, "bomb": False,
                                  "cards": ["Phoenix"]}
