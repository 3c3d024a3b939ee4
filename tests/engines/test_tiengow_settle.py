"""The Tien Gow ``settle`` command (settlement level) and the acceptance cases through the Python API.
Expected values computed by hand from the Tien Gow rule text ("Puntentelling en einde") and docs/engines/tiengow.md."""
import pytest

from engines import run
from engines.errors import RuleViolation
from tests.conftest import load_cases, subset_mismatch


@pytest.mark.parametrize("case", load_cases("tiengow"), ids=lambda c: c["id"])
def test_acceptance_case_through_the_api(case):
    expect = case["expect"]
    if expect.get("errors") is True:
        with pytest.raises(RuleViolation):
            run("tiengow", case["command"], case["input"])
    else:
        assert subset_mismatch(expect, run("tiengow", case["command"], case["input"])) is None


def settle(**data):
    data.setdefault("immediate", [])
    return run("tiengow", "settle", data)


def fields(**data):
    data.setdefault("immediate", [])
    with pytest.raises(RuleViolation) as exc:
        run("tiengow", "settle", data)
    return [v.field for v in exc.value.violations]


def test_catch_with_an_opponent_over_four():
    # banker 3. Last single trick led 1-2 by P1, won by 2-4 (P2). P0 has 5: the winner pays him 1.
    # P1 owes 4-1 = 3, P3 (banker, 0 columns) 5 x 2 = 10; the catch: P1 also pays P3's 10.
    out = settle(banker=3, columns=[5, 1, 2, 0],
                 last_trick={"winner": 2, "group": "ordinary", "leader": 1, "led_with": "1-2", "won_with": "2-4"})
    assert out["net"] == [1, -13, 12, 0]
    assert out["final"]["catch"] is True
    assert {(t["from"], t["to"], t["amount"], t["on_behalf_of"]) for t in out["final"]["transfers"]} == {
        (2, 0, 1, None), (1, 2, 3, None), (1, 2, 10, 3)}
    assert out["next_banker"] == 2


def test_catch_can_be_switched_off():
    out = settle(banker=3, columns=[5, 1, 2, 0],
                 last_trick={"winner": 2, "group": "ordinary", "leader": 1, "led_with": "1-2", "won_with": "2-4"},
                 rules={"preset": "standard", "little_three_catch": False})
    assert out["net"] == [1, -3, 12, -10]


def test_options_change_the_payments():
    base = {"banker": 0, "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary"}}
    assert settle(**base)["net"] == [-4, 10, -1, -5]  # S-01
    assert settle(**base, rules={"preset": "standard", "banker_double": False})["net"] == [-2, 8, -1, -5]
    assert settle(**base, rules={"preset": "standard", "zero_column_payment": 4})["net"] == [-4, 9, -1, -4]
    # S-04 without the surplus: P0 (6 columns) gets nothing
    surplus = {"banker": 0, "columns": [6, 2, 0, 0], "last_trick": {"winner": 1, "group": "ordinary"}}
    assert settle(**surplus, rules={"preset": "standard", "winner_pays_surplus": False})["net"] == [0, 10, -5, -5]
    # S-12 with a sweep multiplier of 3: P0 5 x 2 x 3, the others 5 x 3
    sweep = {"banker": 0, "columns": [0, 0, 0, 8], "last_trick": {"winner": 3, "group": "ordinary"}}
    assert settle(**sweep, rules={"preset": "standard", "sweep_multiplier": 3})["net"] == [-30, -15, -15, 60]
    # immediate Supreme without banker doubling
    assert settle(banker=0, columns=None, last_trick=None, immediate=[{"winner": 2, "group": "supreme"}],
                  rules={"preset": "standard", "immediate_banker_double": False})["net"] == [-2, -2, 6, -2]


def test_last_trick_supreme_by_a_non_banker():
    # banker 0; P2 leads the Supreme on the last trick: immediate 2 each (banker 4) = 8;
    # final x2 (Supreme): P0 (banker, 3 columns) 1 x 2 x 2 = 4, P1 (1 column) 3 x 2 = 6, P3 (2) 2 x 2 = 4
    out = settle(banker=0, columns=[3, 1, 2, 2], last_trick={"winner": 2, "group": "supreme"},
                 immediate=[{"winner": 2, "group": "supreme"}])
    assert out["immediate_net"] == [-4, -2, 8, -2]
    assert out["final"]["net"] == [-4, -6, 14, -4]
    assert out["net"] == [-8, -8, 22, -6]
    assert sum(out["net"]) == 0


@pytest.mark.parametrize(("data", "expected"), [
    ({"banker": 0, "columns": [2, 3, 3, 1], "last_trick": {"winner": 1}}, ["columns"]),
    ({"banker": 0, "columns": [2, 3, -1, 4], "last_trick": {"winner": 1}}, ["columns"]),
    ({"banker": 4, "columns": [2, 3, 3, 0], "last_trick": {"winner": 1}}, ["banker"]),
    ({"banker": 0, "columns": [2, 3, 3, 0], "last_trick": {"winner": 3}}, ["last_trick.winner"]),
    ({"banker": 0, "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "great"}}, ["last_trick.group"]),
    ({"banker": 0, "columns": [2, 3, 3, 0], "last_trick": None}, ["last_trick"]),
    ({"banker": 0, "columns": None, "last_trick": {"winner": 1}}, ["columns"]),
    # a last quartet needs four columns and an immediate payment
    ({"banker": 0, "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "quartet"}},
     ["last_trick.winner", "immediate"]),
    ({"banker": 0, "columns": [4, 4, 0, 0], "last_trick": {"winner": 1, "group": "quartet"}}, ["immediate"]),
    ({"banker": 0, "columns": None, "last_trick": None,
      "immediate": [{"winner": 1, "group": "supreme"}, {"winner": 2, "group": "supreme"}]}, ["immediate"]),
    ({"banker": 0, "columns": None, "last_trick": None,
      "immediate": [{"winner": 1, "group": "quartet"}, {"winner": 2, "group": "quartet"}, {"winner": 2, "group": "supreme"}]},
     ["immediate"]),
    ({"banker": 0, "columns": [2, 2, 4, 0], "last_trick": {"winner": 2},
      "immediate": [{"winner": 1, "group": "quartet"}]}, ["immediate"]),
    ({"banker": 0, "columns": None, "last_trick": None, "immediate": [{"winner": 1, "group": "pair"}]},
     ["immediate[0].group"]),
    ({"banker": 0, "columns": [2, 3, 3, 0],
      "last_trick": {"winner": 1, "group": "little_three", "leader": 2, "led_with": "1-2", "won_with": "1-2"}},
     ["last_trick.leader", "last_trick.won_with"]),
    ({"banker": 0, "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary", "won_with": "1-2"}},
     ["last_trick.group"]),
    ({"banker": 0, "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "led_with": "1-2", "won_with": "2-4"}},
     ["last_trick.leader"]),
    ({"banker": 0, "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "led_with": "9-9"}}, ["last_trick.led_with"]),
])
def test_impossible_settlements_are_rejected(data, expected):
    assert fields(**data) == expected


def test_multiply_immediate_option():
    # S-13: immediate 2 quartets x 4 x 2 (banker) x 3 = 48 are not multiplied by default ...
    data = {"banker": 0, "columns": [8, 0, 0, 0], "last_trick": {"winner": 0, "group": "quartet"},
            "immediate": [{"winner": 0, "group": "quartet"}, {"winner": 0, "group": "quartet"}]}
    assert run("tiengow", "settle", data)["net"] == [168, -56, -56, -56]
    # ... with the option they are multiplied by the last quartet (x2) and the sweep (x2): 48 x 4 + 120
    data["rules"] = {"preset": "standard", "multiply_immediate": True}
    assert run("tiengow", "settle", data)["net"] == [192 + 120, -104, -104, -104]


@pytest.mark.parametrize("banker", [0, 1, 2, 3])
def test_next_banker_without_a_last_trick_is_the_banker(banker):
    # the Tien Gow rule text: the winner of the last trick becomes the next banker; with immediate
    # payments only there is no last trick, so the banker deals again.
    out = settle(banker=banker, columns=None, last_trick=None, immediate=[{"winner": (banker + 1) % 4, "group": "supreme"}])
    assert out["final"] is None
    assert out["next_banker"] == banker


def test_initial_banker_is_seat_zero():
    from engines.tiengow import INITIAL_BANKER

    assert INITIAL_BANKER == 0
