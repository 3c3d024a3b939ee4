"""Quick entry in the engines (issue 24 item 1): a Sichuan win given by its fan, a Taiwanese win
given by its hand tai, paid exactly as a hand of that value.

Hand-worked values:
- Sichuan (the rule text section 5, docs/engines/sichuan.md): base = 2^min(fan, 5);
  a discard or a robbed kong is paid by one player (the base), a self-draw by each opponent still
  in (base + 1, 33 at the cap); winners leave and pay nothing later; a concealed kong 2 from each
  opponent still in, an exposed kong 2 from its supplier; at wall exhaustion a not-ready player
  refunds its kong income, a flower pig pays 32 to each non-pig still in, and a not-ready player
  pays each ready player 2^min(fan, 5) of that player's best wait.
- Taiwanese (the rule text "Betalen: basis plus tai", docs/engines/taiwanese.md):
  each payer pays base 3 + 2 per tai; the dealer tai 1 + 2N counts only in a payment between
  the dealer and the winner.

Properties (hypothesis): a quick win of the fan (tai) a full hand scores pays what that hand pays;
payments balance; a quick deal's payments follow the formulas above for any fan.
"""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import run
from engines.errors import RuleViolation
from tests.conftest import load_cases
from tests.engines.test_taiwanese_properties import winning_hands

P = ["E", "S", "W", "N"]
PROPS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def settle(events, exhaustion=None, rules=None):
    data = {"players": P, "events": events, "exhaustion": exhaustion}
    if rules is not None:
        data["rules"] = rules
    return run("sichuan", "settle", data)


def fields(exc: RuleViolation) -> list[str]:
    return [v.field for v in exc.violations]


# --------------------------------------------------------------------------- Sichuan, hand-worked


def test_sichuan_quick_discard_win_pays_the_base():
    # 2 fan on South's discard: base 2^2 = 4 from South alone.
    out = settle([{"type": "win", "player": "E", "discarder": "S", "fan": 2}])
    assert out["net"] == {"E": 4, "S": -4, "W": 0, "N": 0}
    assert out["wins"][0]["fan"] == 2 and out["wins"][0]["each"] == 4 and out["ended"] is False


def test_sichuan_quick_self_draw_capped_and_a_later_robbed_kong():
    # West's concealed kong: 2 from E, S, N (+6). East self-draws 7 fan -> capped at 5, base 32,
    # each of S, W, N pays 33 (W: -33 + 6 = -27). North then robs South's added kong with 1 fan:
    # base 2 from South; East has left and pays nothing more.
    out = settle([{"type": "kong", "player": "W", "kind": "concealed"},
                  {"type": "win", "player": "E", "fan": 7},
                  {"type": "win", "player": "N", "robbed": "S", "fan": 1}])
    assert out["net"] == {"E": 99 - 2, "S": -2 - 33 - 2, "W": 6 - 33, "N": -2 - 33 + 2}
    assert out["wins"][0]["fan_raw"] == 7 and out["wins"][0]["fan"] == 5 and out["wins"][0]["each"] == 33
    assert out["kongs"][0]["tile"] is None


def test_sichuan_several_winners_on_one_discard_then_deal_ends():
    # South discards; East (1 fan) and West (3 fan) both win: South pays 2 + 8. North self-draws
    # 0 fan: only South is still in and pays 1 + 1 = 2. Three winners: the deal has ended.
    out = settle([{"type": "win", "player": "E", "discarder": "S", "fan": 1},
                  {"type": "win", "player": "W", "discarder": "S", "fan": 3},
                  {"type": "win", "player": "N", "fan": 0}])
    assert out["net"] == {"E": 2, "S": -12, "W": 8, "N": 2} and out["ended"] is True


def test_sichuan_quick_exhaustion():
    # West's exposed kong from North (+2). East self-draws 1 fan: 3 from S, W, N. The wall runs
    # out: South ready with 2 fan, West not ready (refunds 2 to North), North a flower pig (32 to
    # South and to West); West pays South 4.
    out = settle([{"type": "kong", "player": "W", "kind": "exposed", "supplier": "N"},
                  {"type": "win", "player": "E", "fan": 1}],
                 {"S": {"ready_fan": 2}, "W": {}, "N": {"flower_pig": True}})
    assert out["net"] == {"E": 9, "S": -3 + 32 + 4, "W": 2 - 3 - 2 + 32 - 4, "N": -2 - 3 + 2 - 64}
    assert sum(out["net"].values()) == 0
    assert out["exhaustion"]["S"] == {"flower_pig": False, "ready": True, "waits": [], "value": 4}


def test_sichuan_quick_checks_what_it_can():
    with pytest.raises(RuleViolation) as exc:
        settle([{"type": "win", "player": "E", "discarder": "E", "fan": 2},
                {"type": "win", "player": "S", "discarder": "W", "fan": 21},
                {"type": "win", "player": "W", "discarder": "N", "fan": 1, "hand": {}}])
    assert fields(exc.value) == ["events[0].discarder", "events[1].fan", "events[2].fan"]
    with pytest.raises(RuleViolation) as exc:
        settle([{"type": "win", "player": "W", "fan": "3"}, {"type": "win", "player": "N", "fan": True}])
    assert fields(exc.value) == ["events[0].fan", "events[1].fan"]
    with pytest.raises(RuleViolation) as exc:
        settle([{"type": "win", "player": "E", "discarder": "S", "fan": 1},
                {"type": "win", "player": "S", "discarder": "E", "fan": 1}])
    assert fields(exc.value) == ["events[1].discarder"]  # East has won and left
    with pytest.raises(RuleViolation) as exc:
        settle([{"type": "win", "player": "E", "fan": 1, "fna": 2}], {"S": {"ready": 2}, "W": {"flower_pig": True, "ready_fan": 1}})
    assert fields(exc.value) == ["events[0].fna", "exhaustion.S.ready", "exhaustion.W.ready_fan", "exhaustion"]


def test_sichuan_tileless_kong_only_in_a_quick_deal():
    hand = {"void": "s", "melds": [], "concealed": "123m 456m 789p 234p 55p", "win": {"tile": "5p", "how": "discard"}}
    with pytest.raises(RuleViolation) as exc:
        settle([{"type": "kong", "player": "W", "kind": "concealed"}, {"type": "win", "player": "E", "discarder": "S", "hand": hand}])
    assert fields(exc.value) == ["events[0].tile"]


# --------------------------------------------------------------------------- Sichuan, properties


def _quick_of(case_input: dict, output: dict) -> dict:
    """A shared settle case with every win given by its fan and every exhaustion hand by what the
    engine found (pig, ready value 2^fan -> fan, not ready)."""
    wins = iter(output["wins"])
    events = []
    for ev in case_input["events"]:
        if ev["type"] == "win":
            quick = {k: v for k, v in ev.items() if k != "hand"}
            quick["fan"] = next(wins)["fan_raw"]
            events.append(quick)
        else:
            events.append(ev)
    ex = None
    if output["exhaustion"] is not None:
        ex = {}
        for name, row in output["exhaustion"].items():
            ex[name] = ({"flower_pig": True} if row["flower_pig"] else
                        {"ready_fan": row["value"].bit_length() - 1} if row["ready"] else {})
    return {**case_input, "events": events, "exhaustion": ex}


SETTLE_CASES = [c for c in load_cases("sichuan", {"settle"}) if "net" in c["expect"]]


@pytest.mark.parametrize("case", SETTLE_CASES, ids=lambda c: c["id"])
def test_sichuan_quick_form_of_every_settle_case_pays_the_same(case):
    full = run("sichuan", "settle", case["input"])
    quick = run("sichuan", "settle", _quick_of(case["input"], full))
    assert quick["net"] == full["net"] == case["expect"]["net"]
    assert [(p["from"], p["to"], p["amount"], p["reason"]) for p in quick["payments"]] == \
           [(p["from"], p["to"], p["amount"], p["reason"]) for p in full["payments"]]


SICHUAN_HANDS = [  # (hand without win, winning tile): fan from the rule text's table
    ("123m 456m 789p 234p 55p", "5p"),  # basic, 0
    ("111m 444m 777p 222p 55p", "5p"),  # all pungs, 1
    ("11m 22m 33m 44m 55m 66m 77m", "7m"),  # seven pairs + full flush, 4
    ("123m 123m 789m 789m 99m", "9m"),  # outside hand + full flush, 4
]


@PROPS
@given(st.sampled_from(SICHUAN_HANDS), st.sampled_from(P), st.sampled_from(P), st.booleans())
def test_sichuan_quick_win_pays_what_the_hand_pays(hand, winner, discarder, self_draw):
    concealed, tile = hand
    how = "self" if self_draw or discarder == winner else "discard"
    ev = {"type": "win", "player": winner}
    if how == "discard":
        ev["discarder"] = discarder
    full_hand = {"void": "s", "melds": [], "concealed": concealed, "win": {"tile": tile, "how": how}}
    full = settle([{**ev, "hand": full_hand}])
    quick = settle([{**ev, "fan": full["wins"][0]["fan_raw"]}])
    assert quick["net"] == full["net"] and sum(quick["net"].values()) == 0


@PROPS
@given(st.lists(st.tuples(st.sampled_from(P), st.sampled_from(P + [None]), st.integers(0, 20)), min_size=1, max_size=3))
def test_sichuan_quick_deal_payments_follow_the_formula(wins):
    events, active, expected = [], list(P), {p: 0 for p in P}
    for player, source, fan in wins:
        if player not in active or (source is not None and (source == player or source not in active)):
            continue
        base = 2 ** min(fan, 5)
        ev = {"type": "win", "player": player, "fan": fan}
        if source is None:
            for other in active:
                if other != player:
                    expected[other] -= base + 1
                    expected[player] += base + 1
        else:
            ev["discarder"] = source
            expected[source] -= base
            expected[player] += base
        events.append(ev)
        active.remove(player)
    if events:
        out = settle(events)
        assert out["net"] == expected and sum(out["net"].values()) == 0


# --------------------------------------------------------------------------- Taiwanese


def score(**kw):
    return run("taiwanese", "score", {"round_wind": "E", "dealer": "E", "streak": 0, **kw})


def test_taiwanese_quick_self_draw_with_dealer_tai():
    # South self-draws 3 tai, dealer East, N = 0 (dealer tai 1): West, North 3 + 2*3 = 9, East 3 + 2*4 = 11.
    out = score(seat="S", tai=3, win={"how": "self"})
    assert out["pay"] == {"W": 9, "N": 9, "E": 11} and out["winner_total"] == 29
    assert out["net"] == {"E": -11, "S": 29, "W": -9, "N": -9} and out["tai"] == 3 and out["dealer_tai"] == 1


def test_taiwanese_quick_discard_dealer_wins_with_a_streak_and_the_cap():
    # Dealer East wins on North's discard after staying twice (N = 2: dealer tai 5) with 20 tai
    # under the 16-tai cap (preset cap16): North pays 3 + 2 * (16 + 5) = 45.
    out = score(seat="E", streak=2, tai=20, win={"how": "discard", "discarder": "N"}, rules="cap16")
    assert out["pay"] == {"N": 45} and out["tai_raw"] == 20 and out["tai"] == 16
    # A payment not involving the dealer has no dealer tai: West wins on South's discard, 2 tai: 3 + 4 = 7.
    assert score(seat="W", tai=2, win={"how": "discard", "discarder": "S"})["pay"] == {"S": 7}


def test_taiwanese_quick_checks_what_it_can():
    with pytest.raises(RuleViolation) as exc:
        score(seat="S", tai=-1, concealed="123m", win={"how": "discard", "discarder": "S", "tile": "1m"})
    assert fields(exc.value) == ["tai", "tai", "win.tile", "win.discarder"]
    with pytest.raises(RuleViolation) as exc:
        score(seat="X", tai=2, win={"how": "self", "discarder": "N"}, taii=1)
    assert fields(exc.value) == ["taii", "seat", "win.discarder"]


@PROPS
@given(winning_hands())
def test_taiwanese_quick_win_pays_what_the_hand_pays(data):
    full = run("taiwanese", "score", data)
    win = {k: v for k, v in data["win"].items() if k in ("how", "discarder", "robbed")}
    quick = run("taiwanese", "score", {"round_wind": data["round_wind"], "dealer": data["dealer"], "streak": data["streak"],
                                       "seat": data["seat"], "tai": full["tai_raw"], "win": win})
    assert quick["pay"] == full["pay"] and quick["net"] == full["net"]
    assert sum(quick["net"].values()) == 0
