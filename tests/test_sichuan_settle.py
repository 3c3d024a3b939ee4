"""Sichuan ``settle`` (DESIGN.md 2.2, rules/sichuan-bloody.txt sections 3 and 5): acceptance cases,
settlements worked out by hand, rules options, violations and the zero-sum property."""
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import run
from engines.errors import RuleViolation
from tests.conftest import load_cases, subset_mismatch

PLAYERS = ["A", "B", "C", "D"]


@pytest.mark.parametrize("case", load_cases("sichuan", {"settle"}), ids=lambda c: c["id"])
def test_acceptance_case(case):
    out = run("sichuan", "settle", case["input"])
    assert subset_mismatch(case["expect"], out) is None
    assert sum(out["net"].values()) == 0


# Hands worked out by hand: BASIC 0 fan (base 1), PUNGS all pungs 1 fan (base 2), FLUSH full flush +
# all pungs 3 fan (base 8), SEVEN seven pairs 2 fan (base 4), ROB robbed kong 1 fan (base 2).
def _hand(concealed, tile, how, void="s", melds=()):
    return {"void": void, "melds": list(melds), "concealed": concealed,
            "win": {"tile": tile, "how": how, "after_kong": False, "last_tile": False}}


def BASIC(how):
    return _hand("123m 456m 789p 234p 55p", "5p", how)


def PUNGS(how):
    return _hand("777p 999p 33p", "3p", how, melds=["pung 111m claimed", "pung 555m claimed"])


def FLUSH(how):
    return _hand("666p 888p 99p", "9p", how, void="m", melds=["pung 222p claimed", "pung 444p claimed"])


def SEVEN(how):
    return _hand("11m 33m 55m 77m 22p 44p 66p", "6p", how)


ROB = _hand("123p 456p 789p 234s 99s", "4s", "rob_added_kong", void="m")
READY_A = {"void": "p", "concealed": "123m 456m 789m 11m 45m", "melds": []}        # waits 2m 3m 5m 6m, best 4
NOT_READY = {"void": "s", "concealed": "2m 3m 6m 9m 1p 2p 3p 4p 5p 6p 7p 8p 9p", "melds": []}
PIG = {"void": "s", "concealed": "2p 3p 5p 6p 8p 1p 9s 7m 8m 2m 3m 6m 9m", "melds": []}
READY_FLUSH = {"void": "m", "concealed": "111p 222p 333p 555p 9p", "melds": []}    # single wait 9p: pungs+flush 3 -> 8


def win(player, hand, **source):
    return {"type": "win", "player": player, "hand": hand, **source}


def kong(player, kind, tile, supplier=None):
    ev = {"type": "kong", "player": player, "kind": kind, "tile": tile}
    if supplier:
        ev["supplier"] = supplier
    return ev


def settle(events, exhaustion=None, rules=None):
    data = {"players": PLAYERS, "events": events, "exhaustion": exhaustion}
    if rules is not None:
        data["rules"] = rules
    return run("sichuan", "settle", data)


def errors_of(events, exhaustion=None, players=PLAYERS):
    with pytest.raises(RuleViolation) as err:
        run("sichuan", "settle", {"players": players, "events": events, "exhaustion": exhaustion})
    return err.value.by_field()


def test_discard_win_and_self_draw_after_winners_leave():
    # B wins FLUSH (8) on A's discard; then C self-draws SEVEN (4 + 1 = 5) from A and D only.
    out = settle([win("B", FLUSH("discard"), discarder="A"), win("C", SEVEN("self"))])
    assert out["net"] == {"A": -13, "B": 8, "C": 10, "D": -5}
    assert [w["total"] for w in out["wins"]] == [8, 10]


def test_three_winners_end_the_deal():
    events = [win("A", BASIC("self")), win("B", BASIC("discard"), discarder="C"), win("C", BASIC("discard"), discarder="D")]
    out = settle(events)
    # A: 2 from B, C, D. B: 1 from C. C: 1 from D.
    assert out["net"] == {"A": 6, "B": -2 + 1, "C": -2 - 1 + 1, "D": -2 - 1}
    fields = errors_of(events + [kong("D", "concealed", "9p")])
    assert "events[3]" in fields
    assert "exhaustion" in errors_of(events, exhaustion={"D": NOT_READY})


def test_kong_payments_only_from_active_players():
    # A wins first; B's concealed kong then collects 2 from C and D only; D's exposed kong on C: 2.
    out = settle([win("A", BASIC("discard"), discarder="C"), kong("B", "concealed", "1s"), kong("D", "exposed", "7m", "C")])
    assert out["net"] == {"A": 1, "B": 4, "C": -1 - 2 - 2, "D": -2 + 2}


def test_robbed_kong_without_kong_event_is_accepted():
    out = settle([win("B", ROB, robbed="A")])
    assert out["net"] == {"A": -2, "B": 2, "C": 0, "D": 0}


def test_several_winners_on_one_discard_option():
    events = [win("A", SEVEN("discard"), discarder="D"), win("B", BASIC("discard"), discarder="D")]
    assert settle(events)["net"]["D"] == -5
    with pytest.raises(RuleViolation):
        settle(events, rules={"multiple_winners": False})


def test_exhaustion_two_pigs_ready_and_not_ready():
    # A and B are flower pigs: each pays 32 to C and D (not to each other). C is ready (value 8 from
    # READY_FLUSH: pungs 1 + flush 2), D is not ready and pays C 8.
    out = settle([], exhaustion={"A": PIG, "B": {**PIG}, "C": READY_FLUSH, "D": NOT_READY})
    assert out["net"] == {"A": -64, "B": -64, "C": 64 + 8, "D": 64 - 8}
    assert out["exhaustion"]["C"] == {"flower_pig": False, "ready": True, "waits": ["9p"], "value": 8}


def test_exhaustion_every_not_ready_pays_each_ready():
    out = settle([win("D", BASIC("discard"), discarder="C")], exhaustion={"A": READY_A, "B": NOT_READY, "C": NOT_READY})
    assert out["net"] == {"A": 8, "B": -4, "C": -4 - 1, "D": 1}


def test_ready_player_keeps_kong_income():
    ready = {"void": "p", "concealed": "123m 456m 11m 45m", "melds": ["kong 9999s concealed"]}
    out = settle([kong("A", "concealed", "9s")], exhaustion={"A": ready, "B": NOT_READY, "C": NOT_READY, "D": NOT_READY})
    # Kong +6; waits 3m 6m: root 1 (the kong of 9s) = 1 fan, value 2 from each not-ready player.
    assert out["exhaustion"]["A"]["value"] == 2
    assert out["net"] == {"A": 6 + 6, "B": -4, "C": -4, "D": -4}


def test_refund_to_winners_option():
    events = [kong("C", "concealed", "9p"), win("A", BASIC("discard"), discarder="D"),
              win("D", _hand("123s 456s 789s 234p 77s", "7s", "discard", void="m"), discarder="B")]
    exhaustion = {"B": {"void": "p", "concealed": "1m 4m 7m 9m 2m 2s 5s 8s 9s 3s 6s 1s 4s", "melds": []},
                  "C": {"void": "s", "concealed": "1m 5m 8m 3m 6m 1p 4p 7p 2p 5p", "melds": ["kong 9999p concealed"]}}
    out = settle(events, exhaustion)
    assert out["net"] == {"A": 1, "B": -1, "C": 0, "D": 0}
    out = settle(events, exhaustion, rules={"refund_to_winners": False})
    assert out["net"] == {"A": -1, "B": -1, "C": 4, "D": -2}


def test_winners_pay_later_charges_option():
    events = [win("D", BASIC("discard"), discarder="C"), win("A", PUNGS("self"))]
    assert settle(events)["net"] == {"A": 6, "B": -3, "C": -4, "D": 1}
    assert settle(events, rules={"winners_pay_later_charges": True})["net"] == {"A": 9, "B": -3, "C": -4, "D": -2}


def test_flower_pig_payment_option():
    out = settle([], exhaustion={"A": PIG, "B": NOT_READY, "C": NOT_READY, "D": NOT_READY}, rules={"flower_pig_payment": 16})
    assert out["net"] == {"A": -48, "B": 16, "C": 16, "D": 16}


# ------------------------------------------------------------------ violations

def test_event_violations():
    fields = errors_of([
        kong("A", "exposed", "7p"),                       # no supplier
        kong("B", "hidden", "7p"),                        # unknown kind
        win("C", BASIC("self"), discarder="D"),           # how does not match
        win("E", BASIC("self")),                          # unknown player
        {"type": "pass", "player": "A"},
    ])
    assert {"events[0].supplier", "events[1].kind", "events[2].hand.win.how", "events[3].player", "events[4].type"} <= set(fields)


def test_winner_cannot_act_again():
    fields = errors_of([win("A", BASIC("self")), kong("A", "concealed", "1m"), win("B", BASIC("discard"), discarder="A")])
    assert {"events[1].player", "events[2].discarder"} <= set(fields)


def test_bad_hand_in_event_has_a_prefixed_field():
    bad = _hand("123m 456m 789p 234p 55s", "5s", "discard")
    fields = errors_of([win("A", bad, discarder="B")])
    assert "events[0].hand.concealed" in fields


def test_exhaustion_violations():
    fields = errors_of([win("A", BASIC("self"))], exhaustion={"A": NOT_READY, "B": NOT_READY, "X": NOT_READY})
    assert {"exhaustion.A", "exhaustion.X", "exhaustion"} <= set(fields)
    fields = errors_of([], exhaustion={p: {"void": "s", "concealed": "123m", "melds": []} for p in PLAYERS})
    assert "exhaustion.A.concealed" in fields


def test_players_must_be_four_names():
    assert "players" in errors_of([], players=["A", "B", "C"])
    assert "players" in errors_of([], players=["A", "A", "C", "D"])


# ------------------------------------------------------------------ property: payments sum to zero

WIN_HANDS = {"discard": [BASIC("discard"), PUNGS("discard"), FLUSH("discard"), SEVEN("discard")],
             "self": [BASIC("self"), PUNGS("self"), FLUSH("self"), SEVEN("self")]}
WAITING = [READY_A, NOT_READY, PIG, READY_FLUSH]


@st.composite
def deals(draw):
    events = []
    won: list[str] = []
    for _ in range(draw(st.integers(0, 7))):
        active = [p for p in PLAYERS if p not in won]
        if len(won) >= 3:
            break
        player = draw(st.sampled_from(active))
        others = [p for p in active if p != player]
        choice = draw(st.sampled_from(["kong", "discard", "self", "rob"]))
        if choice == "kong":
            kind = draw(st.sampled_from(["exposed", "added", "concealed"]))
            events.append(kong(player, kind, draw(st.sampled_from(["1m", "4s", "9p"])),
                               draw(st.sampled_from(others)) if kind == "exposed" else None))
        else:
            if choice == "rob":
                events.append(win(player, ROB, robbed=draw(st.sampled_from(others))))
            elif choice == "discard":
                events.append(win(player, draw(st.sampled_from(WIN_HANDS["discard"])), discarder=draw(st.sampled_from(others))))
            else:
                events.append(win(player, draw(st.sampled_from(WIN_HANDS["self"]))))
            won.append(player)
    exhaustion = None
    if len(won) < 3 and draw(st.booleans()):
        exhaustion = {p: draw(st.sampled_from(WAITING)) for p in PLAYERS if p not in won}
    return events, exhaustion, won


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(deals(), st.sampled_from([None, {"winners_pay_later_charges": True}, {"refund_to_winners": False}, {"fan_cap": None}]))
def test_payments_sum_to_zero(deal, rules):
    events, exhaustion, won = deal
    out = settle(events, exhaustion, rules)
    assert sum(out["net"].values()) == 0
    totals = dict.fromkeys(PLAYERS, 0)
    for p in out["payments"]:
        assert p["amount"] > 0 and p["from"] != p["to"]
        totals[p["from"]] -= p["amount"]
        totals[p["to"]] += p["amount"]
    assert totals == out["net"]
    if rules is None:
        # Winners never pay anything after their win (exhaustion charges included).
        win_at = {e["player"]: i for i, e in enumerate(events) if e["type"] == "win"}
        for p in out["payments"]:
            if p["from"] in win_at:
                assert p["event"] is not None and p["event"] <= win_at[p["from"]]
