"""Tai Pan ``replay``: whole hands checked card by card (NSKT rules, Tai Pan section; docs/engines/taipan.md).

The deals are built so that hands end in a few plays: E holds the Mahjong and a 14-card straight
(Mahjong..A, going out at once), N the stars 2..A (a 13-card straight flush), W the pagodas 2..A,
S the rest. Card points are counted by hand from the rules: 5 = 5, 10 and K = 10, Dragon 25,
Phoenix -25. E's straight holds 5j 10s Kj (25); each 13-card straight flush holds 25.
"""
import copy

import pytest

import engines
from engines.errors import RuleViolation
from engines.taipan.cards import DECK

RANKS = ["2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"]
E_STRAIGHT = ["Mahjong"] + [r + ("s" if i % 2 == 0 else "j") for i, r in enumerate(RANKS)]
STARS = [r + "t" for r in RANKS]
PAGODAS = [r + "p" for r in RANKS]


def deal(n_extra, w_extra):
    """E: the 14-straight; N: stars + n_extra; W: pagodas + w_extra; S: every other card."""
    e, n, w = E_STRAIGHT, STARS + [n_extra], PAGODAS + [w_extra]
    taken = set(e) | set(n) | set(w)
    s = [c.code for c in DECK if c.code not in taken]
    assert len(s) == 14
    return {"N": n, "E": e, "S": s, "W": w}


def ev(seat, action, cards=None, **extra):
    out = {"seat": seat, "action": action}
    if cards is not None:
        out["cards"] = cards.split() if isinstance(cards, str) else cards
    out.update(extra)
    return out


def replay(data):
    return engines.run("taipan", "replay", data)


def violation(data):
    with pytest.raises(RuleViolation) as info:
        replay(data)
    assert len(info.value.violations) == 1
    v = info.value.violations[0]
    return v.field, v.message


OPENING = [ev("E", "play", E_STRAIGHT), ev("N", "pass"), ev("W", "pass"), ev("S", "pass")]


def tailender_hand():
    """E out first; S wins the King; N goes out with the straight flush, W with the Dog; S is the
    tailender holding 5s and 10j (15)."""
    events = OPENING + [
        ev("N", "play", "Phoenix"),      # N leads the Phoenix (1.5)
        ev("W", "pass"),
        ev("S", "play", "Dragon"),
        ev("N", "pass"), ev("W", "pass"),
        ev("S", "gift", to="W"),         # Dragon trick (Phoenix + Dragon = 0) to W
        ev("S", "play", "Ks"),
        ev("N", "pass"), ev("W", "pass"),  # S wins the King (10)
        ev("S", "play", "3s"),
        ev("N", "play", STARS),          # in-turn bomb, N out
        ev("W", "pass"), ev("S", "pass"),  # N's trick: 3s + stars = 25
        ev("W", "play", PAGODAS),        # W leads its straight flush (25)
        ev("S", "pass"),
        ev("W", "play", "Dog"),          # W out: hand over, S tailender
    ]
    return {"deal": deal("Phoenix", "Dog"), "events": events}


def test_tailender_tricks_to_first_out_and_hand_to_opponents():
    data = tailender_hand()
    out = replay(data)
    assert out["first_out"] == "E"
    assert out["out_order"] == ["E", "N", "W", "S"] and out["tailender"] == "S"
    assert out["double_victory"] is None
    # E 25 + S's trick (Ks 10) + W 25 + S's hand (5s, 10j = 15) = 75; N 25
    assert out["card_points"] == {"NS": 25, "EW": 75}
    assert out["score"] == engines.run("taipan", "score", out["summary"])
    assert out["score"]["EW"]["total"] == 75


def test_calls_in_replay_and_score_identical_to_score_command():
    data = tailender_hand()
    data["calls"] = {"E": "tai_pan"}
    data["events"].insert(12, ev("W", "call"))  # W has not played a card yet: allowed
    out = replay(data)
    assert out["calls"] == {"E": "tai_pan", "W": "tai_pan"}
    # E made it (+100), W failed (-100 for EW under nskt): EW 75, NS 25
    assert out["score"]["EW"] == {"card_points": 75, "double_victory": 0, "calls": 0, "total": 75}
    assert out["score"] == engines.run("taipan", "score", out["summary"])


def test_tai_pan_after_the_first_card_is_rejected():
    data = tailender_hand()
    data["events"].insert(5, ev("N", "call"))  # N already played the Phoenix
    field, message = violation(data)
    assert field == "events[5]" and "before the caller plays a first card" in message


def test_grand_tai_pan_only_with_the_deal():
    data = tailender_hand()
    data["events"].insert(0, ev("S", "call", call="grand_tai_pan"))
    assert violation(data)[0] == "events[0]"
    data = tailender_hand()
    data["calls"] = {"S": "grand_tai_pan"}
    assert replay(data)["score"]["NS"]["calls"] == -200


def test_dragon_gift_rules():
    data = tailender_hand()
    data["events"][9]["to"] = "N"  # S's partner
    field, message = violation(data)
    assert field == "events[9]" and "opponent" in message
    data = tailender_hand()
    del data["events"][9]  # gift missing, S plays on
    assert violation(data)[0] == "events[9]"
    data = tailender_hand()
    data["events"][9]["to"] = "E"  # E is out, but still an opponent: allowed, EW gets the 0 points
    assert replay(data)["card_points"] == {"NS": 25, "EW": 75}


def test_bombed_dragon_is_not_given_away():
    data = tailender_hand()
    events = data["events"][:6] + [  # after S's Dragon, W bombs out of turn (N is to play)
        ev("W", "bomb", PAGODAS),
        ev("S", "pass"), ev("N", "pass"),  # W wins the trick: Phoenix + Dragon + pagodas = 25
        ev("S", "gift", to="W"),
    ]
    data["events"] = events
    field, message = violation(data)
    assert field == "events[9]" and "no Dragon trick" in message


def test_dragon_on_the_last_trick_nskt_and_atp():
    # N: stars + Phoenix; W: pagodas + Dragon; W goes out third with the Dragon
    events = OPENING + [
        ev("N", "play", STARS),
        ev("W", "pass"), ev("S", "pass"),   # N's trick 25
        ev("N", "play", "Phoenix"),         # N out (second)
        ev("W", "play", PAGODAS),           # bomb on the Phoenix
        ev("S", "pass"),                    # W's trick: -25 + 25 = 0
        ev("W", "play", "Dragon"),          # W out third: the hand ends
    ]
    base = {"deal": deal("Phoenix", "Dragon"), "events": events}
    # S holds 5s Ks 10j (25) -> to EW. nskt: W must give the Dragon (25) away
    field, message = violation(base)
    assert field == "events" and "give it to an opponent" in message
    nskt = replay({**base, "events": events + [ev("W", "gift", to="N")]})
    assert nskt["out_order"] == ["E", "N", "W", "S"]
    assert nskt["card_points"] == {"NS": 25 + 25, "EW": 25 + 0 + 25}
    # atp: the Dragon stays with W, and no gift event is allowed
    atp = replay({**base, "rules": "atp"})
    assert atp["card_points"] == {"NS": 25, "EW": 25 + 25 + 25}
    assert violation({**base, "rules": "atp", "events": events + [ev("W", "gift", to="N")]})[0] == f"events[{len(events)}]"


def test_dog_with_the_partner_out():
    # E goes out first; W wins a trick and leads the Dog: partner E is out, so the lead goes to the
    # next player still in after E, which is N (order N, W, S, E), not S.
    events = OPENING + [
        ev("N", "play", "3t"),
        ev("W", "play", "Ap"),
        ev("S", "pass"), ev("N", "pass"),
        ev("W", "play", "Dog"),
    ]
    data = {"deal": deal("Phoenix", "Dog"), "events": events + [ev("S", "play", "3s")]}
    field, message = violation(data)
    assert field == f"events[{len(events)}]" and "N's turn" in message
    # N leads, W then goes out with the 12-card straight flush 2p..Kp: E and W out first, double victory
    data["events"] = events + [ev("N", "play", "4t"), ev("W", "play", PAGODAS[:-1])]
    out = replay(data)
    assert out["double_victory"] == "EW" and out["first_out"] == "E" and out["out_order"] == ["E", "W"]
    assert out["card_points"] is None and out["score"]["EW"]["total"] == 200


def test_dog_with_the_partner_in():
    d = deal("Phoenix", "Dragon")  # S holds the Dog now
    events = OPENING + [
        ev("N", "play", "3t"),
        ev("W", "pass"),
        ev("S", "play", "Aj"),
        ev("N", "pass"), ev("W", "pass"),  # S wins, leads the Dog: partner N is in and leads
        ev("S", "play", "Dog"),
    ]
    with pytest.raises(RuleViolation) as info:
        replay({"deal": d, "events": events + [ev("W", "play", "4p")]})
    assert "N's turn" in info.value.violations[0].message
    with pytest.raises(RuleViolation) as info:  # the hand is legal so far, but unfinished
        replay({"deal": d, "events": events + [ev("N", "play", "4t")]})
    assert info.value.violations[0].field == "events"


def test_wish_only_fulfillable_by_a_bomb_in_replay():
    d = deal("Phoenix", "Dog")
    first = ev("E", "play", E_STRAIGHT, wish=3)   # nobody can beat a 14-card straight, except by a bomb
    field, message = violation({"deal": d, "events": [first, ev("N", "pass")]})
    assert field == "events[1]" and "wish" in message  # N holds 3t in its straight flush: must bomb
    # the bomb with the 3 fulfils the wish; afterwards passing is free again (the hand is just unfinished)
    field, message = violation({"deal": d, "events": [first, ev("N", "play", STARS), ev("W", "pass"), ev("S", "pass")]})
    assert field == "events" and "not finished" in message


def test_deal_errors_are_all_listed():
    d = deal("Phoenix", "Dog")
    d["N"] = d["N"][:-1] + ["Kj"]   # Kj is also E's; N loses the Phoenix
    d["S"] = d["S"][:-1] + ["Zz"]
    with pytest.raises(RuleViolation) as info:
        replay({"deal": d, "events": []})
    fields = [v.field for v in info.value.violations]
    assert "deal.E[12]" in fields and "deal.S[13]" in fields
    d = deal("Phoenix", "Dog")
    d["N"] = d["N"][:-1]
    with pytest.raises(RuleViolation) as info:
        replay({"deal": d, "events": []})
    assert [v.field for v in info.value.violations] == ["deal.N"]


def test_exchange_moves_cards_and_the_lead():
    d = deal("Phoenix", "Dog")
    exchange = {"E": {"N": "Mahjong", "S": "2s", "W": "3j"}, "N": {"E": "2t", "S": "3t", "W": "4t"},
                "S": {"E": d["S"][0], "N": d["S"][1], "W": d["S"][2]}, "W": {"E": "2p", "N": "3p", "S": "4p"}}
    data = {"deal": d, "exchange": exchange, "events": [ev("E", "play", "4s")]}
    field, message = violation(data)
    assert field == "events[0]" and "N's turn" in message
    data["events"] = [ev("N", "play", "Mahjong", wish=None)]
    assert violation(data) == ("events", "The hand is not finished: N, E, S, W still hold cards.")
    bad = copy.deepcopy(exchange)
    bad["W"]["N"] = "2p"      # twice
    bad["N"]["S"] = "Dragon"  # not N's
    with pytest.raises(RuleViolation) as info:
        replay({**data, "exchange": bad})
    assert [v.field for v in info.value.violations] == ["exchange.N.S", "exchange.W.E"]  # W gives 2p to N and E
    missing = copy.deepcopy(exchange)
    del missing["N"]["S"]
    with pytest.raises(RuleViolation) as info:
        replay({**data, "exchange": missing})
    assert [(v.field, v.message) for v in info.value.violations] == [("exchange.N.S", "N must give one card to S.")]


def test_illegal_events():
    base = tailender_hand()
    cases = [
        (0, ev("N", "play", "3t"), "E's turn to lead"),            # first lead belongs to the Mahjong
        (1, ev("W", "pass"), "N's turn"),                           # passing out of turn
        (4, ev("N", "pass"), "must play"),                         # passing on the lead
        (5, ev("S", "play", "7s"), "only a bomb"),                 # out-of-turn non-bomb
        (5, ev("W", "bomb", "2p 3p 4p 5p"), "no combination"),     # not a bomb at all
        (5, ev("W", "play", "9t"), "does not hold"),
        (4, ev("N", "play", "Mahjong"), "does not hold"),
        (4, ev("N", "play", "2t", wish=5), "Mahjong"),             # a wish without the Mahjong
    ]
    for index, event, text in cases:
        data = copy.deepcopy(base)
        data["events"].insert(index, event)
        field, message = violation(data)
        assert field == f"events[{index}]", (event, field, message)
        assert text.lower() in message.lower(), (event, message)
    data = copy.deepcopy(base)
    data["events"].append(ev("S", "pass"))
    assert violation(data) == (f"events[{len(base['events'])}]", "The hand is already over.")


def test_replay_and_play_through_the_cli(tmp_path):
    import json
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    good = tmp_path / "hand.json"
    good.write_text(json.dumps(tailender_hand()))
    proc = subprocess.run([sys.executable, "-m", "engines", "taipan", "replay", str(good)], capture_output=True, text=True, cwd=root)
    assert proc.returncode == 0, proc.stderr
    out = json.loads(proc.stdout)
    assert out["card_points"] == {"NS": 25, "EW": 75} and out["out_order"] == ["E", "N", "W", "S"]
    bad_data = tailender_hand()
    bad_data["events"].insert(1, ev("S", "play", "7s"))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(bad_data))
    proc = subprocess.run([sys.executable, "-m", "engines", "taipan", "replay", str(bad)], capture_output=True, text=True, cwd=root)
    assert proc.returncode == 1
    assert [e["field"] for e in json.loads(proc.stdout)["errors"]] == ["events[1]"]
