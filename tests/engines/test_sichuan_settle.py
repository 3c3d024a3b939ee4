"""Sichuan ``settle`` (docs/engines/sichuan.md, the Sichuan rule text sections 3 and 5): acceptance cases,
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
    # B wins FLUSH (8) on A's discard; then C self-draws seven pairs in m and s (2 fan: 4 + 1 = 5)
    # from A and D only.
    seven_ms = _hand("11m 33m 55m 77m 22s 44s 66s", "6s", "self", void="p")
    out = settle([win("B", FLUSH("discard"), discarder="A"), win("C", seven_ms)])
    assert out["net"] == {"A": -13, "B": 8, "C": 10, "D": -5}
    assert [w["total"] for w in out["wins"]] == [8, 10]


def test_three_winners_end_the_deal():
    # Three different basic hands (0 fan, base 1; together no tile more than four times).
    basic_b = _hand("234s 567s 678p 345p 88s", "8s", "discard", void="m")
    basic_c = _hand("345m 678m 123s 789s 99m", "9m", "discard", void="p")
    events = [win("A", BASIC("self")), win("B", basic_b, discarder="C"), win("C", basic_c, discarder="D")]
    out = settle(events)
    assert out["ended"] is True
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
    pig_a = {"void": "s", "concealed": "1m 2m 4m 5m 7m 8m 4p 6p 7p 8p 9s 9s 9s", "melds": []}
    pig_b = {"void": "p", "concealed": "6p 1s 2s 4s 5s 7s 8s 3m 6m 9m 3s 6s 9s", "melds": []}
    out = settle([], exhaustion={"A": pig_a, "B": pig_b, "C": READY_FLUSH, "D": NOT_READY})
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
    events = [kong("C", "concealed", "9p"), win("A", _hand("123m 456m 678p 234p 55p", "5p", "discard"), discarder="D"),
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

# Each player owns tile kinds no other player uses, so any deal drawn below is physically possible
# (docs/engines/sichuan.md settle: at most four copies of a tile, kong events match the final hands): A 1m-7m
# (void s), B 1p-7p (void m), C 1s-7s (void p), D 8m 9m 8p 9p (void s); the flower pigs hold 8s (A)
# and 9s (D). A, B and C can kong their 7; D never kongs.
OWN = {"A": ("m", "s"), "B": ("p", "m"), "C": ("s", "p")}


def _plain_wins(player, how):
    if player == "D":
        return [_hand("88m 88m 99m 99m 88p 88p 99p", "9p", how)]
    x, void = OWN[player]
    return [_hand(f"123{x} 456{x} 777{x} 234{x} 55{x}", f"5{x}", how, void=void),
            _hand(f"11{x} 22{x} 33{x} 44{x} 55{x} 66{x} 77{x}", f"7{x}", how, void=void),
            _hand(f"333{x} 444{x} 55{x}", f"5{x}", how, void=void, melds=[f"pung 111{x} claimed", f"pung 222{x} claimed"])]


def _kong_win(player, how, kind):
    x, void = OWN[player]
    return _hand(f"123{x} 456{x} 234{x} 55{x}", f"5{x}", how, void=void, melds=[f"kong 7777{x} {kind}"])


def _waiting(player):
    if player == "D":
        return [{"void": "s", "concealed": "88m 88m 99m 99m 88p 88p 9p", "melds": []},      # ready (9p)
                {"void": "s", "concealed": "9s 88m 88m 99m 99m 88p 8p 9p", "melds": []}]       # flower pig
    x, void = OWN[player]
    hands = [{"void": void, "concealed": f"123{x} 456{x} 777{x} 234{x} 5{x}", "melds": []}]  # ready
    hands.append({"void": void, "concealed": {"A": "1m 1m 2m 2m 3m 4m 4m 4m 5m 6m 6m 7m 7m",  # not ready
                                              "B": "1p 2p 2p 4p 4p 4p 5p 5p 6p 6p 6p 7p 7p",
                                              "C": "1s 1s 2s 3s 3s 3s 4s 4s 5s 6s 6s 6s 7s"}[player], "melds": []})
    if player == "A":
        hands.append({"void": "s", "concealed": "8s 123m 456m 777m 23m 1m", "melds": []})  # flower pig
    return hands


def _kong_waiting(player, kind):
    x, void = OWN[player]
    return {"void": void, "concealed": f"123{x} 456{x} 234{x} 5{x}", "melds": [f"kong 7777{x} {kind}"]}


@st.composite
def deals(draw):
    events = []
    won: list[str] = []
    konged: dict[str, str] = {}
    for _ in range(draw(st.integers(0, 7))):
        active = [p for p in PLAYERS if p not in won]
        if len(won) >= 3:
            break
        player = draw(st.sampled_from(active))
        others = [p for p in active if p != player]
        choice = draw(st.sampled_from(["kong", "discard", "self"]))
        if choice == "kong":
            if player == "D" or player in konged:
                continue
            kind = draw(st.sampled_from(["exposed", "added", "concealed"]))
            konged[player] = kind
            x = OWN[player][0]
            events.append(kong(player, kind, f"7{x}", draw(st.sampled_from(others)) if kind == "exposed" else None))
        else:
            hand = _kong_win(player, choice, konged[player]) if player in konged else draw(st.sampled_from(_plain_wins(player, choice)))
            source = {"discarder": draw(st.sampled_from(others))} if choice == "discard" else {}
            events.append(win(player, hand, **source))
            won.append(player)
    exhaustion = None
    if len(won) < 3 and draw(st.booleans()):
        exhaustion = {p: _kong_waiting(p, konged[p]) if p in konged else draw(st.sampled_from(_waiting(p)))
                      for p in PLAYERS if p not in won}
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


# ------------------------------------------------------------------ kong events against the hands
# Rule text sections 2-3 (108 physical tiles, four of each; no pung or kong of the void suit) and
# docs/engines/sichuan.md settle (events plus exhaustion); see the engines.sichuan.settle docstring.

SEATS = ["E", "S", "W", "N"]


def errors_seats(events, exhaustion=None, rules=None):
    data = {"players": SEATS, "events": events, "exhaustion": exhaustion}
    if rules is not None:
        data["rules"] = rules
    with pytest.raises(RuleViolation) as err:
        run("sichuan", "settle", data)
    return err.value.by_field()


def test_kong_event_not_in_the_winning_hand_and_six_copies():
    # QA case: S declares a concealed kong of 5s, then wins on E's discard holding 55s and no melds:
    # the hand shows no kong, and 4 + 2 = 6 copies of 5s would be in play.
    hand = _hand("123p 456p 789p 234s 55s", "5s", "discard", void="m")
    fields = errors_seats([kong("S", "concealed", "5s"), win("S", hand, discarder="E")])
    assert "events[0].tile" in fields
    assert any("6 copies of 5s" in m for m in fields["events[1].hand.concealed"])


def test_kong_of_the_void_suit_is_refused():
    # S's void suit is m: a kong of 5m is not allowed (rule text section 2).
    hand = _hand("123p 456p 789p 234s 55s", "5s", "discard", void="m")
    fields = errors_seats([kong("S", "concealed", "5m"), win("S", hand, discarder="E")])
    assert any("void suit" in m for m in fields["events[0].tile"])
    # the same kong at wall exhaustion: the event and the exhaustion meld are both refused
    waiting = {"void": "m", "concealed": "123p 456p 789p 5s", "melds": ["kong 5555m concealed"]}
    others = {"E": NOT_READY, "W": READY_FLUSH, "N": {"void": "m", "concealed": "1s 1s 2s 3s 3s 3s 4s 4s 5s 6s 6s 6s 7s", "melds": []}}
    fields = errors_seats([kong("S", "concealed", "5m")], exhaustion={"S": waiting, **others})
    assert {"events[0].tile", "exhaustion.S.melds[0]"} <= set(fields)
    # a pung of the void suit in an exhaustion hand too
    waiting = {"void": "m", "concealed": "123p 456p 789p 5s", "melds": ["pung 555m claimed"]}
    assert "exhaustion.S.melds[0]" in errors_seats([], exhaustion={"S": waiting, **others})


def test_kong_kind_must_match_the_hand():
    # S13's hand shows a concealed kong of 6m; an exposed kong event of 6m does not match it.
    hand = _hand("123m 456p 789p 22p", "2p", "self", melds=["kong 6666m concealed"])
    hand["win"]["after_kong"] = True
    fields = errors_seats([kong("E", "exposed", "6m", "N"), win("E", hand)])
    assert "events[0].kind" in fields
    # the matching concealed kong: +6, then self-draw 1 root + 1 kong replacement = 2 fan: (4 + 1) * 3
    out = run("sichuan", "settle", {"players": SEATS, "events": [kong("E", "concealed", "6m"), win("E", hand)], "exhaustion": None})
    assert out["net"] == {"E": 21, "S": -7, "W": -7, "N": -7}


def test_kong_in_the_hand_needs_a_kong_event():
    hand = _hand("123m 456p 789p 22p", "2p", "self", melds=["kong 6666m concealed"])
    fields = errors_seats([win("E", hand)])
    assert "events[0].hand.melds[0]" in fields
    waiting = {"void": "s", "concealed": "1m 5m 8m 3m 6m 1p 4p 7p 2p 5p", "melds": ["kong 9999p concealed"]}
    fields = errors_seats([], exhaustion={"E": waiting, "S": NOT_READY, "W": NOT_READY, "N": NOT_READY})
    assert "exhaustion.E.melds[0]" in fields


def test_robbed_kong_leaves_the_pung_in_the_robbed_hand():
    # S21: A's added kong of 4s is robbed by B. At wall exhaustion A's hand must still show the
    # pung of 4s (the added kong never happened): 3 copies with A, the fourth with B.
    events = [kong("A", "added", "4s"), win("B", ROB, robbed="A")]
    a_pung = {"void": "m", "concealed": "123p 456p 78p 99p", "melds": ["pung 444s claimed"]}
    a_kong = {"void": "m", "concealed": "123p 456p 78p 99p", "melds": ["kong 4444s added"]}
    c = {"void": "s", "concealed": "2m 3m 6m 9m 1m 4m 5m 7m 8m 2p 3p 5p 6p", "melds": []}
    d = {"void": "s", "concealed": "1m 1m 2m 2m 3m 4m 4m 4m 5m 6m 6m 7m 7m", "melds": []}
    out = settle(events, {"A": a_pung, "C": c, "D": d})
    assert out["net"]["B"] == 2 and out["kongs"][0]["robbed"] is True
    fields = errors_of(events, {"A": a_kong, "C": c, "D": d})
    assert {"events[0].tile", "exhaustion.A.melds[0]"} <= set(fields)
    # without the kong event, the robbing win itself implies A's pung
    fields = errors_of([win("B", ROB, robbed="A")], {"A": a_kong, "C": c, "D": d})
    assert {"events[0].robbed", "exhaustion.A.melds[0]"} <= set(fields)


def test_winners_on_one_discard_share_the_tile():
    # D's 6p is the winning tile of both A (holding one more 6p) and B (holding two more): 4 copies.
    b = _hand("123m 456m 666p 234p 55p", "6p", "discard")
    out = settle([win("A", SEVEN("discard"), discarder="D"), win("B", b, discarder="D")])
    assert out["net"] == {"A": 4, "B": 1, "C": 0, "D": -5}
    # on two different discards (C's win in between) the two 6p are two tiles: 5 copies in all.
    c = _hand("345s 678s 456m 789m 11s", "1s", "discard", void="p")
    fields = errors_of([win("A", SEVEN("discard"), discarder="D"), win("C", c, discarder="D"), win("B", b, discarder="D")])
    assert any("5 copies of 6p" in m for m in fields["events[2].hand.concealed"])


def test_unfinished_deal():
    # S18: an exposed kong and nothing else; settled as far as it goes by default (ended false).
    events = [kong("A", "exposed", "7p", "D")]
    out = settle(events)
    assert out["net"] == {"A": 2, "B": 0, "C": 0, "D": -2} and out["ended"] is False
    with pytest.raises(RuleViolation) as err:
        settle(events, rules={"require_deal_end": True})
    assert "exhaustion" in err.value.by_field()
    # the same kong with the wall exhausted: A ready with the kong, B C D not ready; ended.
    waiting = {"void": "s", "concealed": "123m 456m 11m 45m", "melds": ["kong 7777p exposed"]}
    others = {"B": {"void": "m", "concealed": "2s 3s 6s 9s 1p 2p 3p 4p 5p 6p 8p 9p 9p", "melds": []},
              "C": {"void": "m", "concealed": "1s 1s 2s 3s 3s 3s 4s 4s 5s 6s 6s 6s 7s", "melds": []},
              "D": {"void": "m", "concealed": "1p 2p 2p 4p 4p 4p 5p 5p 6p 6p 6p 8p 8p", "melds": []}}
    out = settle(events, {"A": waiting, **others}, rules={"require_deal_end": True})
    assert out["ended"] is True
    # A waits on 3m and 6m: root (the four 7p) 1 fan = 2 from each not-ready player; kong 2 from D.
    assert out["net"] == {"A": 2 + 3 * 2, "B": -2, "C": -2, "D": -2 - 2}
