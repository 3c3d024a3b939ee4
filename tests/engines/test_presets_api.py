"""The uniform rules-presets API (issue "One result lifecycle", item 1; docs/engines/index.md):
every engine package exports ``PRESETS``, ``DEFAULT_PRESET`` and ``resolve_rules(raw)``, and
``engines`` reaches them by game name."""
import pytest

import engines
from engines import RuleViolation, UnknownCommand


@pytest.mark.every_game
def test_every_package_exports_the_same_three_names(game):
    package = engines.package(game)
    assert game in engines.GAMES and callable(package.resolve_rules) and package.COMMANDS
    assert isinstance(package.PRESETS, dict) and package.PRESETS
    assert package.DEFAULT_PRESET in package.PRESETS
    for name, options in package.PRESETS.items():
        assert isinstance(name, str) and isinstance(options, dict)
        # a preset is complete: resolving it gives exactly its options plus the preset name
        assert package.resolve_rules(name) == {**options, "preset": name}
        assert engines.resolve_rules(game, {"preset": name}) == {**options, "preset": name}
    assert engines.presets(game) == package.PRESETS
    assert engines.default_preset(game) == package.DEFAULT_PRESET
    assert engines.resolve_rules(game, None)["preset"] == package.DEFAULT_PRESET


def test_defaults_are_the_ones_design_names():
    # docs/engines/index.md: nskt for Tai Pan (target 800), the rule text's own for the others
    # (Taiwanese: base 3, 2 per tai, no cap; Sichuan: 5 fan cap; Tien Gow: Supreme 2, quartet 4).
    assert engines.resolve_rules("taipan", None)["target"] == 800
    assert engines.resolve_rules("taipan", "standard")["target"] == 1000
    assert engines.resolve_rules("taipan", "variant")["failed_call"] == "opponents_gain"
    atp = engines.resolve_rules("taipan", "atp")
    assert (atp["grand_allowed"], atp["double_victory_points"], atp["dragon_last_trick"]) == (False, 100, False)
    tw = engines.resolve_rules("taiwanese", None)
    assert (tw["base"], tw["per_tai"], tw["cap"]) == (3, 2, None)
    assert engines.resolve_rules("sichuan", None)["fan_cap"] == 5
    tg = engines.resolve_rules("tiengow", None)
    assert (tg["supreme_payment"], tg["quartet_payment"]) == (2, 4)


def test_tiengow_package_level_resolve_is_the_dict_form_of_the_typed_options():
    from engines.tiengow import Options, resolve

    typed = resolve({"preset": "standard", "sweep_multiplier": 3})
    assert isinstance(typed, Options) and typed.sweep_multiplier == 3
    assert engines.resolve_rules("tiengow", {"sweep_multiplier": 3}) == typed.to_json()


@pytest.mark.every_game
def test_overrides_and_violations(game):
    default = engines.default_preset(game)
    with pytest.raises(RuleViolation) as exc:
        engines.resolve_rules(game, "no-such-preset")
    assert [v.field for v in exc.value.violations] == ["rules.preset"]
    with pytest.raises(RuleViolation) as exc:
        engines.resolve_rules(game, {"preset": default, "no_such_option": 1, "other_unknown": True})
    assert {v.field for v in exc.value.violations} == {"rules.no_such_option", "rules.other_unknown"}
    with pytest.raises(RuleViolation) as exc:
        engines.resolve_rules(game, 42)
    assert all(v.field == "rules" or v.field.startswith("rules.") for v in exc.value.violations)
    # a bool option given a number is the wrong type (a game without one: a number option given text)
    options = engines.presets(game)[default].items()
    name, wrong = next(((k, 3) for k, v in options if isinstance(v, bool)), None) or next(
        (k, "3") for k, v in options if isinstance(v, int))
    with pytest.raises(RuleViolation) as exc:
        engines.resolve_rules(game, {name: wrong})
    assert [v.field for v in exc.value.violations] == [f"rules.{name}"]


def test_presets_are_copies():
    table = engines.presets("taipan")
    table["nskt"]["target"] = 5
    assert engines.presets("taipan")["nskt"]["target"] == 800
    assert engines.resolve_rules("taipan", None)["target"] == 800


@pytest.mark.parametrize("call", [engines.presets, engines.default_preset, lambda g: engines.resolve_rules(g, None)])
def test_unknown_game(call):
    with pytest.raises(UnknownCommand):
        call("chess")


def test_the_registered_engines_are_the_registered_games():
    from tests.games.kits import keys

    assert list(engines.GAMES) == keys() == list(engines.games())


def test_names_the_web_app_imports_still_exist():
    from engines.rules import resolve_rules as generic
    from engines.taipan import cards
    from engines.taipan.rules import PRESETS, get_rules
    from engines.taiwanese.dealer import next_dealer_state
    from engines.tiengow.names import TILE_NAMES

    assert cards.DECK and PRESETS["nskt"]["target"] == 800 and get_rules(None)["preset"] == "nskt"
    assert generic(None, PRESETS, "nskt")["target"] == 800
    assert next_dealer_state("E", 0, "S") == ("S", 0)
    assert TILE_NAMES["6-6"][0] == "Heaven"
    assert set(engines.commands("taipan")) == {"score", "check-totals", "match", "play", "replay"}
