"""Property tests for the Tai Pan engine (issue 3 item 6), with hypothesis.

Random whole hands are dealt and played by a random legal-move player
(:mod:`engines.taipan.simulate`, which keeps its own bookkeeping of tricks and players out). For
every hand: the card points sum to 100 (or it was a double victory), every play and pass it made is
judged legal by ``play``, and ``replay`` gives back the generator's result. Mutated hands (a played
card swapped with another player's card in the deal; a non-bomb played out of turn) are rejected.
"""
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.errors import RuleViolation
from engines.taipan.cards import BY_CODE
from engines.taipan.replay import HandState, IllegalEvent, deal_hands
from engines.taipan.rules import get_rules
from engines.taipan.simulate import random_hand

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
presets = st.sampled_from(["nskt", "atp", "variant"])


@SETTINGS
@given(seed=seeds, preset=presets, exchange=st.booleans())
def test_random_hands_are_legal_and_replay_gives_the_same_result(seed, preset, exchange):
    sim = random_hand(random.Random(seed), preset=preset, exchange=exchange)
    expected = sim.expected
    if expected["double_victory"] is None:
        assert sum(expected["card_points"].values()) == 100
        assert len(expected["out_order"]) == 4
    else:
        assert expected["card_points"] is None and len(expected["out_order"]) == 2
    for _index, context in sim.judged:
        verdict = engines.run("taipan", "play", context)
        assert verdict["legal"], (context, verdict["reason"])
    out = engines.run("taipan", "replay", sim.replay_input)
    assert {key: out[key] for key in expected} == expected
    summary = {"calls": out["calls"], "first_out": out["first_out"], "double_victory": out["double_victory"],
               "card_points": out["card_points"], "rules": preset}
    assert out["score"] == engines.run("taipan", "score", summary)


def _dealt_and_kept(data, seat):
    given_away = set((data.get("exchange") or {}).get(seat, {}).values())
    return [c for c in data["deal"][seat] if c not in given_away]


@SETTINGS
@given(seed=seeds, pick=st.randoms(use_true_random=False))
def test_a_played_card_swapped_with_another_players_card_is_rejected(seed, pick):
    sim = random_hand(random.Random(seed))
    data = sim.replay_input
    played = [(e["seat"], code) for e in data["events"] if e.get("cards") for code in e["cards"]]
    candidates = [(seat, code) for seat, code in played if code in _dealt_and_kept(data, seat)]
    seat, x = pick.choice(candidates)
    other = pick.choice([s for s in "NESW" if s != seat])
    y = pick.choice(_dealt_and_kept(data, other))
    deal = {s: list(cs) for s, cs in data["deal"].items()}
    deal[seat][deal[seat].index(x)] = y
    deal[other][deal[other].index(y)] = x
    with pytest.raises(RuleViolation) as info:
        engines.run("taipan", "replay", {**data, "deal": deal})
    assert info.value.violations[0].field.startswith("events")


@SETTINGS
@given(seed=seeds, pick=st.randoms(use_true_random=False))
def test_a_non_bomb_out_of_turn_is_rejected(seed, pick):
    sim = random_hand(random.Random(seed))
    data = sim.replay_input
    rules = get_rules(data.get("rules"))
    hands, calls = deal_hands(data, rules)
    state = HandState(hands, calls, rules)
    spots = []
    for i, event in enumerate(data["events"]):
        if state.to_move is not None:
            for seat in "NESW":
                if seat != state.to_move and state.still_in(seat):
                    singles = sorted(c.code for c in state.hands[seat] if c.code != "Dog")
                    if singles:
                        spots.append((i, seat, singles))
        state.apply(event)
    index, seat, singles = pick.choice(spots)
    card = pick.choice(singles)
    assert BY_CODE[card]
    events = list(data["events"])
    events.insert(index, {"seat": seat, "action": "play", "cards": [card]})
    with pytest.raises(RuleViolation) as info:
        engines.run("taipan", "replay", {**data, "events": events})
    assert info.value.violations[0].field == f"events[{index}]"


@SETTINGS
@given(seed=seeds)
def test_the_reading_for_a_given_phoenix_value_is_the_one_readings_lists(seed):
    # judge() classifies a Phoenix combination only for the value the play names (phoenix_as); it
    # must find exactly the reading that readings() (every value 2..A) lists for that value.
    from engines.taipan.cards import DECK, PHOENIX
    from engines.taipan.combinations import plays, reading_with_phoenix, readings

    rng = random.Random(seed)
    hand = rng.sample([c for c in DECK if c is not PHOENIX], 13) + [PHOENIX]
    for combo in plays(hand, None):
        if PHOENIX in combo.cards and combo.length > 1:
            every = readings(combo.cards)
            for value in range(2, 15):
                assert reading_with_phoenix(combo.cards, value) == [r for r in every if r.phoenix_as == value]


def test_a_verdict_builds_its_reason_only_when_asked():
    from engines.taipan.cards import cards
    from engines.taipan.combinations import readings
    from engines.taipan.play import judge

    verdict = judge(readings(cards("9s"))[0], cards("Ks"), rules=get_rules(None))
    assert verdict.legal and not isinstance(verdict._params, dict)  # nothing described yet
    assert verdict.reason == "Legal: a single of rank K beats the single of rank 9."


def _copy(state):
    """An independent copy of a hand in play (every container copied)."""
    probe = HandState.__new__(HandState)
    for name in HandState.__slots__:
        value = getattr(state, name)
        if isinstance(value, dict):
            value = {k: (type(v)(v) if isinstance(v, (set, list)) else v) for k, v in value.items()}
        elif isinstance(value, (set, list)):
            value = type(value)(value)
        setattr(probe, name, value)
    return probe


def _left_on_table(state, combination):
    """The combination a play left on the table is ``combination``; or the table was cleared
    because it was the Dog (the lead passes to the partner) or the play ended the hand."""
    if state.table is None:
        return combination.type.value == "dog" or state.finished or state.ending
    return state.table == combination


@SETTINGS
@given(seed=seeds, preset=presets, pick=st.randoms(use_true_random=False))
def test_replay_takes_the_combination_judge_picks_and_refuses_what_judge_refuses(seed, preset, pick):
    # The replay settles an in-turn play without a wish standing or a Phoenix value itself (the
    # first reading that beats the table, HandState._play and apply_all) and asks judge()
    # only otherwise: at every play of a random hand, and for another group of the player's cards
    # played instead, both must give the same verdict and the same combination.
    from engines.taipan.play import judge

    sim = random_hand(random.Random(seed), preset=preset)
    data = sim.replay_input
    rules = get_rules(preset)
    hands, calls = deal_hands(data, rules)
    state = HandState(hands, calls, rules)
    for event in data["events"]:
        if event.get("action") in ("play", "bomb") and event["seat"] == state.to_move:
            seat = event["seat"]
            held = sorted(state.hands[seat], key=lambda c: c.index)
            size = min(len(held), pick.choice([1, 1, 2, 3, 5]))
            other = pick.sample(held, size)
            probe = _copy(state)
            expected = judge(state.table, other, hand=state.hands[seat], wish=state.wish, in_turn=True, rules=rules)
            try:
                probe.apply({"seat": seat, "action": "play", "cards": [c.code for c in other]})
            except IllegalEvent as exc:
                assert not expected.legal, (other, exc.template)
                assert exc.template == expected.template
            else:
                assert expected.legal, (other, expected.reason)
                assert _left_on_table(probe, expected.combination)
            verdict = judge(state.table, [BY_CODE[c] for c in event["cards"]], hand=state.hands[seat],
                            wish=state.wish, in_turn=True, phoenix_as=event.get("phoenix_as"), rules=rules)
            state.apply(event)
            assert verdict.legal and _left_on_table(state, verdict.combination)
        else:
            state.apply(event)
    assert state.finished


def _state_of(state):
    """Everything a hand in play holds, comparable (containers copied, cards as codes)."""
    def plain(value):
        if isinstance(value, dict):
            return {k: plain(v) for k, v in value.items()}
        if isinstance(value, (set, frozenset)):
            return sorted(plain(v) for v in value)
        if isinstance(value, (list, tuple)):
            return [plain(v) for v in value]
        return getattr(value, "code", value)
    return {name: plain(getattr(state, name)) for name in HandState.__slots__ if name != "rules"}


def _corrupt(events, rng, hands, calls, rules):
    """``events`` with one random change a referee's or a program's mistake could make: an event
    dropped, repeated or moved, another seat, another action, other cards (held by someone, or
    not a card at all), a Phoenix value or a wish added, a key added, or something not an event;
    most often (half the time) a play replaced by another group of the cards its player holds at
    that moment."""
    events = [dict(e) for e in events]
    i = rng.randrange(len(events))
    event = events[i]
    every_code = sorted(c.code for cs in hands.values() for c in cs)
    kind = rng.randrange(24)
    if kind >= 12:
        state = HandState(hands, calls, rules)
        plays = []
        for j, e in enumerate(events):
            if e.get("action") == "play" and e["seat"] == state.to_move:
                plays.append((j, sorted(c.code for c in state.hands[e["seat"]])))
            state.apply(e)
        j, held = rng.choice(plays)
        events[j]["cards"] = rng.sample(held, min(len(held), rng.choice([1, 1, 1, 2, 2, 3, 5])))
    elif kind == 0:
        del events[i]
    elif kind == 1:
        events.insert(i, dict(event))
    elif kind == 2:
        events.insert(rng.randrange(len(events)), events.pop(i))
    elif kind == 3:
        event["seat"] = rng.choice(["N", "E", "S", "W", "X", None, 1])
    elif kind == 4:
        event["action"] = rng.choice(["play", "pass", "bomb", "call", "gift", "fold", None])
        event.setdefault("cards", [rng.choice(every_code)])
    elif kind == 5:
        event["cards"] = rng.sample(every_code, rng.choice([1, 1, 2, 3, 5]))
    elif kind == 6:
        event["cards"] = rng.choice([[], ["5x"], [["5s"]], [5], "5s", {"0": "5s"}, None, ["5s", "5s"]])
    elif kind == 7:
        event["phoenix_as"] = rng.choice([2, 7, 13.5, 1.5, None, "A", 16])
    elif kind == 8:
        event["wish"] = rng.choice([2, 9, 14, None, 15, "7", True])
    elif kind == 9:
        event["note"] = "x"
    elif kind == 10:
        events[i] = rng.choice([None, [], "pass", 3, {"seat": event.get("seat")}])
    else:
        event["action"] = "pass"
        event.pop("cards", None)
    return events


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=seeds, preset=presets, corrupt=st.booleans(), pick=st.randoms(use_true_random=False))
def test_apply_all_is_apply_event_by_event(seed, preset, corrupt, pick):
    # apply_all settles the common plays and passes in place (engines.taipan.replay); applying the
    # same events one at a time with apply() must give the same state after every legal hand, and
    # the same first refusal (the same event, rule and parameters) for a corrupted one.
    sim = random_hand(random.Random(seed), preset=preset)
    data = sim.replay_input
    rules = get_rules(preset)
    hands, calls = deal_hands(data, rules)
    events = _corrupt(data["events"], pick, hands, calls, rules) if corrupt else data["events"]
    fast, slow = HandState(hands, calls, rules), HandState(hands, calls, rules)
    try:
        fast.apply_all(events)
        fast_refusal = None
    except RuleViolation as exc:
        fast_refusal = [(v.field, v.template, v.params) for v in exc.violations]
    slow_refusal = None
    for i, event in enumerate(events):
        try:
            slow.apply(event)
        except IllegalEvent as exc:
            slow_refusal = [(f"events[{i}]", exc.template, exc.params)]
            break
    assert fast_refusal == slow_refusal
    assert _state_of(fast) == _state_of(slow)


def test_an_event_that_only_looks_like_a_pass_is_no_event():
    # apply_all compares a pass with the seat's pass event; a mapping that is not a JSON object
    # (here a UserDict equal to the pass) is refused as apply() refuses it, not taken as a pass.
    from collections import UserDict

    sim = random_hand(random.Random(5))
    data = sim.replay_input
    rules = get_rules(data.get("rules"))
    hands, calls = deal_hands(data, rules)
    lead = HandState(hands, calls, rules).to_move
    events = [*data["events"][:1], UserDict({"seat": data["events"][1]["seat"], "action": "pass"})]
    with pytest.raises(RuleViolation) as info:
        engines.run("taipan", "replay", {**data, "events": events})
    assert [(v.field, v.template) for v in info.value.violations] == [
        ("events[1]", "An event must be an object with a seat and an action.")]
    assert lead == data["events"][0]["seat"]
