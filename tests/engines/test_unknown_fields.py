"""Every engine refuses a field its input does not have, at any depth, on that field's path
(docs/engines/*.md "Validation"; docs/tournament-json.md: an import keeps nothing it does not
understand). Each case adds one invented field to a valid input."""
import copy

import pytest

from engines import run
from engines.errors import RuleViolation
from tests.engines.test_tiengow_deal import CATCH

TAIPAN_HAND = {"calls": {"N": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 60, "EW": 40}}
SICHUAN_WIN = {"type": "win", "player": "E",
               "hand": {"void": "s", "melds": [], "concealed": "123m 456m 789m 123p 55p",
                        "win": {"tile": "5p", "how": "self", "after_kong": False, "last_tile": False}}}
SICHUAN_DEAL = {"players": ["E", "S", "W", "N"], "events": [SICHUAN_WIN], "exhaustion": None}
TIENGOW_SETTLE = run("tiengow", "deal", CATCH)["settlement"]


def _with(data: dict, path: list, key: str = "evil") -> dict:
    out = copy.deepcopy(data)
    target = out
    for part in path:
        target = target[part]
    target[key] = {"blob": "x"}
    return out


CASES = [
    ("taipan", "score", TAIPAN_HAND, [], "evil"),
    ("taipan", "match", {"hands": [TAIPAN_HAND]}, ["hands", 0], "hands[0].evil"),
    ("sichuan", "settle", SICHUAN_DEAL, [], "evil"),
    ("sichuan", "settle", SICHUAN_DEAL, ["events", 0], "events[0].evil"),
    ("sichuan", "settle", SICHUAN_DEAL, ["events", 0, "hand"], "events[0].hand.evil"),
    ("sichuan", "settle", SICHUAN_DEAL, ["events", 0, "hand", "win"], "events[0].hand.win.evil"),
    ("sichuan", "score-hand", SICHUAN_WIN["hand"], [], "evil"),
    ("tiengow", "deal", CATCH, [], "evil"),
    ("tiengow", "deal", CATCH, ["tricks", 1], "tricks[1].evil"),
    ("tiengow", "deal", CATCH, ["tricks", 1, "plays", 2], "tricks[1].plays[2].evil"),
    ("tiengow", "settle", TIENGOW_SETTLE, [], "evil"),
    ("tiengow", "settle", TIENGOW_SETTLE, ["last_trick"], "last_trick.evil"),
    ("tiengow", "settle", TIENGOW_SETTLE, ["immediate", 0], "immediate[0].evil"),
]


@pytest.mark.parametrize(("game", "command", "data", "path", "field"), CASES, ids=[f"{c[0]}-{c[1]}-{c[4]}" for c in CASES])
def test_an_unknown_field_is_refused_on_its_path(game, command, data, path, field):
    run(game, command, copy.deepcopy(data))  # the input itself is valid
    with pytest.raises(RuleViolation) as refused:
        run(game, command, _with(data, path))
    assert [(v.field, v.message) for v in refused.value.violations] == [(field, "Unknown field 'evil'.")]


def test_rules_are_a_field_of_the_top_level_input_only():
    assert run("taipan", "score", {**TAIPAN_HAND, "rules": "nskt"})["NS"]["total"] == 160
    with pytest.raises(RuleViolation) as refused:
        run("taipan", "match", {"hands": [{**TAIPAN_HAND, "rules": "nskt"}]})
    assert [v.field for v in refused.value.violations] == ["hands[0].rules"]
