"""Tai Pan ``replay`` and ``play`` refuse fields their input does not have (issue 22 item 7, the
part for these two commands): a misspelt field is never silently ignored, since ignoring it
scores or judges the hand without it.

From the NSKT rules (docs/engines/taipan.md): S's failed Grand Tai Pan costs NS 200, so a hand
that read ``"call"`` instead of ``"calls"`` would score 200 points wrong; a wish obliges the next
players, so a ``"wsh"`` ignored judges their plays without it."""
from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.errors import RuleViolation
from engines.taipan.replay import EVENT_FIELDS, INPUT_FIELDS
from engines.taipan.simulate import random_hand

SETTINGS = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
seeds = st.integers(min_value=0, max_value=2**32 - 1)
#: Field names no input of these commands has (misspellings of real ones among them).
strangers = st.sampled_from(["call", "wsh", "phoenix_az", "hnd", "card", "seats", "evil", "Cards", "to "])


def violations(command: str, data) -> list[tuple[str, str]]:
    with pytest.raises(RuleViolation) as exc:
        engines.run("taipan", command, data)
    return [(v.field, v.message) for v in exc.value.violations]


def test_a_misspelt_calls_is_refused_not_scored_without_it():
    sim = random_hand(random.Random(7))
    data = dict(sim.replay_input)
    data["call"] = data.pop("calls", {"S": "grand_tai_pan"})
    assert violations("replay", data) == [("call", "Unknown field 'call'; did you mean 'calls'?")]


@SETTINGS
@given(seed=seeds, pick=st.randoms(use_true_random=False), name=strangers)
def test_any_unknown_field_of_any_event_is_refused_with_the_event_named(seed, pick, name):
    sim = random_hand(random.Random(seed))
    events = [dict(e) for e in sim.replay_input["events"]]
    i = pick.randrange(len(events))
    action = events[i]["action"]
    if name in EVENT_FIELDS[action]:
        return
    events[i][name] = 1
    found = violations("replay", {**sim.replay_input, "events": events})
    assert len(found) == 1 and found[0][0] == f"events[{i}]"
    if action == "pass" and name == "cards":
        assert "A pass carries no cards" in found[0][1]
    elif name == "wsh" and action == "play":
        assert found[0][1] == "Unknown field 'wsh' in a play event; did you mean 'wish'?"
    else:
        assert found[0][1].startswith(f"Unknown field {name!r} in a {action} event")


@SETTINGS
@given(seed=seeds, name=strangers)
def test_any_unknown_top_level_field_of_replay_is_refused(seed, name):
    sim = random_hand(random.Random(seed))
    if name in INPUT_FIELDS:
        return
    (field, message), = violations("replay", {**sim.replay_input, name: None})
    assert field == name and message.startswith(f"Unknown field {name!r}")
    if name == "call":
        assert message == "Unknown field 'call'; did you mean 'calls'?"


def test_a_pass_carrying_cards_is_refused_even_when_it_is_the_player_on_turn():
    sim = random_hand(random.Random(3))
    events = [dict(e) for e in sim.replay_input["events"]]
    i = next(k for k, e in enumerate(events) if e["action"] == "pass")
    events[i]["cards"] = ["4j"]
    (field, message), = violations("replay", {**sim.replay_input, "events": events})
    assert field == f"events[{i}]" and "A pass carries no cards" in message


@pytest.mark.parametrize(("data", "field", "meant"), [
    ({"current": None, "play": ["5s"], "hnd": ["5s", "6s"]}, "hnd", "hand"),
    ({"current": {"cards": ["4j"]}, "play": ["5s"], "wsh": 7}, "wsh", "wish"),
    ({"current": None, "play": ["5s", "Phoenix"], "phoenix_az": 5}, "phoenix_az", "phoenix_as"),
    ({"current": {"cards": ["Phoenix"], "phoenix": 4.5}, "play": ["5s"]}, "current.phoenix", "phoenix_as"),
])
def test_play_refuses_misspelt_fields(data, field, meant):
    name = field.split(".")[-1]
    assert violations("play", data) == [(field, f"Unknown field {name!r}; did you mean {meant!r}?")]


def test_play_still_judges_well_formed_input():
    out = engines.run("taipan", "play", {"current": {"cards": ["4j"]}, "play": ["5s"], "hand": ["5s", "6s"]})
    assert out["legal"] is True
