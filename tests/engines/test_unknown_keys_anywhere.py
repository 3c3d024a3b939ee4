"""Issue 22 item 7: every command of every engine refuses an unknown or misspelt key wherever it
is put in a valid input (top level, any nested object, any event, trick or record, the rules
overrides), on that key's own path (``events[3].wsh``, ``rules.tiles_per_hand``); a misspelling
must never change a score silently (docs/engines/index.md, "What stays stable").

Valid inputs: every acceptance case of ``tests/cases`` that the engine accepts (each command
of each game has some), random whole Tai Pan hands (``replay``) and Tien Gow deals (``deal``) from
the engines' simulators, and each game's kit record (tests/games/<game>/kit.py) through its
adapter, the way a page or the API scores it."""
from __future__ import annotations

import copy
import json
import random
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import engines
from engines.errors import RuleViolation
from engines.taipan.simulate import random_hand
from engines.tiengow.simulate import random_deal
from scoring.games import registry
from tests.conftest import CASES_DIR
from tests.games import kits

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
#: Names no input has: misspellings of real fields among them (a near miss gets a "did you mean").
strangers = st.sampled_from(["evil", "wsh", "hnd", "call", "rule", "Cards", "playr", "tile ", "x", "1", "ruless"])


def objects(value: Any, path: str = "") -> list[tuple[str, dict]]:
    """Every JSON object in ``value`` with its path (``""`` for the top level)."""
    found: list[tuple[str, dict]] = []
    stack = [(path, value)]
    while stack:
        where, item = stack.pop()
        if isinstance(item, dict):
            found.append((where, item))
            stack.extend((f"{where}.{k}" if where else str(k), v) for k, v in item.items())
        elif isinstance(item, list):
            stack.extend((f"{where}[{i}]", v) for i, v in enumerate(item))
    return found


def valid_inputs() -> list[tuple[str, str, dict]]:
    """(game, command, input) for every acceptance case the engine accepts; objects of rules
    written as a preset name become ``{"preset": name}`` so that they are objects too."""
    out = []
    for game in engines.GAMES:
        path = CASES_DIR / f"{game}.json"
        if not path.is_file():
            continue
        for case in json.loads(path.read_text(encoding="utf-8"))["cases"]:
            data = case["input"]
            if isinstance(data.get("rules"), str):
                data = {**data, "rules": {"preset": data["rules"]}}
            try:
                engines.run(game, case["command"], copy.deepcopy(data))
            except RuleViolation:
                continue
            out.append((game, case["command"], data))
    return out


VALID = valid_inputs()


def refused_on(game: str, command: str, data: dict, where: str, name: str) -> list[str]:
    """The fields of the violations ``command`` reports for ``data`` with ``name`` put into the
    object at ``where``; asserts the input is refused."""
    changed = copy.deepcopy(data)
    dict(objects(changed))[where][name] = 1
    with pytest.raises(RuleViolation) as refused:
        engines.run(game, command, changed)
    return [v.field for v in refused.value.violations]


def expected_field(where: str, name: str, game: str, command: str) -> str:
    """Where the violation must be: the key's own path; Tai Pan ``replay`` names the event
    (``events[3]``, its message names the key)."""
    if game == "taipan" and command == "replay" and where.startswith("events["):
        return where
    return f"{where}.{name}" if where else name


def test_every_command_of_every_engine_has_valid_inputs_here():
    commands = {(g, c) for g, c, _ in VALID} | {("taipan", "replay"), ("tiengow", "deal")}
    assert commands == {(g, c) for g in engines.GAMES for c in engines.commands(g)}


@SETTINGS
@given(pick=st.randoms(use_true_random=False), name=strangers)
def test_an_unknown_key_anywhere_in_any_command_input_is_refused_on_its_path(pick, name):
    game, command, data = pick.choice(VALID)
    where, target = pick.choice(objects(data))
    if name in target:
        return
    assert expected_field(where, name, game, command) in refused_on(game, command, data, where, name)


@pytest.mark.parametrize(("game", "command", "data"), VALID, ids=[f"{g}-{c}-{i}" for i, (g, c, _) in enumerate(VALID)])
def test_every_object_of_every_case_refuses_an_unknown_key(game, command, data):
    for where, _ in objects(data):
        assert expected_field(where, "evil", game, command) in refused_on(game, command, data, where, "evil"), where


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), pick=st.randoms(use_true_random=False), name=strangers)
def test_an_unknown_key_anywhere_in_a_whole_tai_pan_hand_is_refused(seed, pick, name):
    data = random_hand(random.Random(seed)).replay_input
    data = {**data, "rules": {"preset": "nskt"}}
    where, target = pick.choice(objects(data))
    if name in target:
        return
    assert expected_field(where, name, "taipan", "replay") in refused_on("taipan", "replay", data, where, name)


@SETTINGS
@given(seed=st.integers(0, 2**32 - 1), pick=st.randoms(use_true_random=False), name=strangers)
def test_an_unknown_key_anywhere_in_a_whole_tien_gow_deal_is_refused(seed, pick, name):
    data = {**random_deal(random.Random(seed)).record, "rules": {"preset": "standard"}}
    where, target = pick.choice(objects(data))
    if name in target:
        return
    assert expected_field(where, name, "tiengow", "deal") in refused_on("tiengow", "deal", data, where, name)


@pytest.mark.every_game
def test_an_unknown_key_anywhere_in_a_kit_record_is_refused_by_the_adapter(game):
    """The record a page or the API stores goes through the game's adapter to its engine: an
    unknown key anywhere in it is refused there too, on a path that ends with the key."""
    adapter = registry.get(game)
    record = kits.kit(game).record
    tournament = SimpleNamespace(rules=None, round_format="target", hands_per_round=None)
    adapter.evaluate_record(copy.deepcopy(record), adapter.initial_state(), tournament)
    for where, _ in objects(record):
        changed = copy.deepcopy(record)
        dict(objects(changed))[where]["evil"] = 1
        with pytest.raises(RuleViolation) as refused:
            adapter.evaluate_record(changed, adapter.initial_state(), tournament)
        assert any(v.field.endswith("evil") or v.message.startswith("Unknown field 'evil'")
                   for v in refused.value.violations), (where, refused.value.violations)


@pytest.mark.parametrize(("game", "rules", "field", "meant"), [
    ("taipan", {"preset": "nskt", "targt": 1000}, "rules.targt", "target"),
    ("tiengow", {"preset": "standard", "equal_total_civil": True}, "rules.equal_total_civil", "equal_totals_civil"),
    ("sichuan", {"preset": "default", "evil": 1}, "rules.evil", None),
    ("taiwanese", {"preset": "standard", "per_tay": 3}, "rules.per_tay", "per_tai"),
])
def test_a_misspelt_rules_option_is_refused_with_the_option_meant(game, rules, field, meant):
    with pytest.raises(RuleViolation) as refused:
        engines.resolve_rules(game, rules)
    (violation,) = refused.value.violations
    assert violation.field == field
    name = field.split(".")[1]
    assert violation.message == (f"Unknown rules option {name!r}; did you mean {meant!r}?" if meant
                                 else f"Unknown rules option {name!r}.")


def test_a_misspelt_rules_field_of_tien_gow_check_no_longer_judges_by_the_preset():
    """5-5 and 4-6 rank equal only with ``equal_totals_civil``: ``"rule"`` for ``"rules"`` was
    dropped and flipped the ruling; now it is refused and the right spelling still rules."""
    play = {"current": ["4-6"], "play": ["5-5"]}
    right = engines.run("tiengow", "check", {**play, "rules": {"preset": "standard", "equal_totals_civil": True}})
    plain = engines.run("tiengow", "check", play)
    assert right["beats"] != plain["beats"]
    with pytest.raises(RuleViolation) as refused:
        engines.run("tiengow", "check", {**play, "rule": {"preset": "standard", "equal_totals_civil": True}})
    assert [(v.field, v.message) for v in refused.value.violations] == [("rule", "Unknown field 'rule'; did you mean 'rules'?")]
