"""Tai Pan summary scoring: ``score``, ``check-totals`` and ``match`` (docs/engines/taipan.md, NSKT rules).

Expected values are computed by hand from the NSKT rule text: card points as counted, a double
victory 200 (100 under atp) with no card points, a call +100/+200 for the caller who goes out first,
otherwise -100/-200 for the caller's team (nskt) or +100/+200 for the opponents (variant).
"""
import json
from pathlib import Path

import pytest

import engines
from engines.errors import RuleViolation
from tests.conftest import CASES_DIR, load_cases, subset_mismatch

REAL = json.loads((CASES_DIR / "taipan-hands-real.json").read_text(encoding="utf-8"))["hands"]


def run(command, data):
    return engines.run("taipan", command, data)


def fields(command, data):
    with pytest.raises(RuleViolation) as info:
        run(command, data)
    return [v.field for v in info.value.violations]


@pytest.mark.parametrize("case", load_cases("taipan", {"score", "check-totals", "match"}), ids=lambda c: c["id"])
def test_acceptance_case(case):
    if case["expect"].get("errors") is True:
        with pytest.raises(RuleViolation):
            run(case["command"], case["input"])
    else:
        got = run(case["command"], case["input"])
        assert subset_mismatch(case["expect"], got) is None, subset_mismatch(case["expect"], got)


def hand(calls=None, first_out="N", dv=None, ns=50, ew=50):
    return {"calls": calls or {}, "first_out": first_out, "double_victory": dv,
            "card_points": None if dv else {"NS": ns, "EW": ew}}


# --- score -----------------------------------------------------------------------------------

def test_plain_hand_no_calls():
    assert run("score", hand(ns=35, ew=65)) == {
        "NS": {"card_points": 35, "double_victory": 0, "calls": 0, "total": 35},
        "EW": {"card_points": 65, "double_victory": 0, "calls": 0, "total": 65},
    }


def test_first_out_may_be_empty_without_calls():
    assert run("score", hand(first_out=None, ns=100, ew=0))["NS"]["total"] == 100


def test_grand_tai_pan_made_and_failed():
    made = run("score", hand({"W": "grand_tai_pan"}, first_out="W", ns=20, ew=80))
    assert made["EW"]["total"] == 80 + 200 and made["NS"]["total"] == 20
    failed = run("score", hand({"W": "grand_tai_pan"}, first_out="N", ns=20, ew=80))
    assert failed["EW"] == {"card_points": 80, "double_victory": 0, "calls": -200, "total": -120}


def test_variant_failed_grand_goes_to_opponents():
    data = {**hand({"W": "grand_tai_pan"}, first_out="N", ns=20, ew=80), "rules": "variant"}
    out = run("score", data)
    assert out["NS"]["total"] == 220 and out["EW"]["total"] == 80


def test_atp_double_victory_is_100():
    out = run("score", {**hand(dv="EW", first_out="W"), "rules": {"preset": "atp"}})
    assert out["EW"]["total"] == 100 and out["NS"]["total"] == 0


def test_rules_overrides():
    out = run("score", {**hand(dv="NS"), "rules": {"preset": "nskt", "double_victory_points": 300}})
    assert out["NS"]["total"] == 300
    assert fields("score", {**hand(), "rules": {"preset": "nskt", "grand_allowed": "yes"}}) == ["rules.grand_allowed"]
    assert fields("score", {**hand(), "rules": {"preset": "nskt", "bogus": 1}}) == ["rules.bogus"]
    assert fields("score", {**hand(), "rules": "nope"}) == ["rules.preset"]
    assert fields("score", {**hand(), "rules": {"preset": "nskt", "failed_call": "nobody"}}) == ["rules.failed_call"]
    with pytest.raises(RuleViolation):
        run("score", {**hand({"N": "grand_tai_pan"}), "rules": {"preset": "nskt", "grand_allowed": False}})


def test_every_violation_listed_with_field_paths():
    data = {"calls": {"N": "tai_pan", "X": "tai_pan", "E": "big"}, "first_out": None, "double_victory": None,
            "card_points": {"NS": 72, "EW": 130}}
    got = fields("score", data)
    # 72 is not a multiple of 5; 130 is above 125; the sum check waits until both are valid
    assert sorted(got) == ["calls.E", "calls.X", "card_points.EW", "card_points.NS", "first_out"]


def test_card_points_sum():
    assert fields("score", hand(ns=55, ew=55)) == ["card_points"]


def test_card_points_needed_and_forbidden():
    assert fields("score", {"calls": {}, "first_out": "N", "double_victory": None}) == ["card_points"]
    assert fields("score", {"calls": {}, "first_out": "N", "double_victory": "NS", "card_points": {"NS": 100, "EW": 0}}) == ["card_points"]


def test_double_victory_for_team_not_out_first():
    assert fields("score", hand(dv="EW", first_out="S")) == ["double_victory"]


def test_call_needs_first_out():
    assert fields("score", hand({"S": "tai_pan"}, first_out=None)) == ["first_out"]


def test_unknown_first_out_and_double_victory():
    assert set(fields("score", {**hand(), "first_out": "Q", "double_victory": "NE"})) == {"first_out", "double_victory"}


def test_cli_prints_errors(tmp_path):
    import subprocess
    import sys
    path = tmp_path / "hand.json"
    path.write_text(json.dumps(hand(ns=72, ew=28)))
    proc = subprocess.run([sys.executable, "-m", "engines", "taipan", "score", str(path)], capture_output=True, text=True,
                          cwd=Path(__file__).resolve().parents[2])
    assert proc.returncode == 1
    errors = json.loads(proc.stdout)["errors"]
    assert {e["field"] for e in errors} == {"card_points.NS", "card_points.EW"}


# --- check-totals ----------------------------------------------------------------------------

@pytest.mark.parametrize("index", range(len(REAL)))
def test_real_hand_accepted_and_off_by_five_rejected(index):
    real = REAL[index]
    out = run("check-totals", {"calls": real["calls"], "totals": real["totals"]})
    assert out["valid"] is True and out["explanations"]
    for explanation in out["explanations"]:  # every explanation really scores to the totals
        scored = run("score", {"calls": real["calls"], **explanation})
        assert {t: scored[t]["total"] for t in ("NS", "EW")} == real["totals"]
    ns, ew = real["totals"]["NS"], real["totals"]["EW"]
    with pytest.raises(RuleViolation) as info:
        run("check-totals", {"calls": real["calls"], "totals": {"NS": ns + 5, "EW": ew}})
    assert [v.field for v in info.value.violations] == ["totals"]
    with pytest.raises(RuleViolation):
        run("check-totals", {"calls": real["calls"], "totals": {"NS": ns, "EW": ew - 5}})


def test_check_totals_no_calls_lists_every_first_out():
    out = run("check-totals", {"calls": {}, "totals": {"NS": 40, "EW": 60}})
    assert [e["first_out"] for e in out["explanations"]] == ["N", "E", "S", "W"]
    assert all(e["card_points"] == {"NS": 40, "EW": 60} and e["double_victory"] is None for e in out["explanations"])


def test_check_totals_double_victory_and_failed_grand():
    # E grand fails, N and S out 1-2: NS 200, EW -200 -> first out N or S
    out = run("check-totals", {"calls": {"E": "grand_tai_pan"}, "totals": {"NS": 200, "EW": -200}})
    assert [(e["first_out"], e["double_victory"]) for e in out["explanations"]] == [("N", "NS"), ("S", "NS")]


def test_check_totals_bad_fields():
    assert set(fields("check-totals", {"calls": {"N": "x"}, "totals": {"NS": 3}})) == {"calls.N", "totals.NS", "totals.EW"}


# --- match -----------------------------------------------------------------------------------

def test_match_running_totals_and_finish_at_800():
    hands = [hand({"N": "grand_tai_pan"}, dv="NS"), hand({"N": "grand_tai_pan"}, dv="NS")]  # 400 each
    out = run("match", {"hands": hands})
    assert [h["running"] for h in out["hands"]] == [{"NS": 400, "EW": 0}, {"NS": 800, "EW": 0}]
    assert out["finished"] is True and out["winner"] == "NS" and out["totals"] == {"NS": 800, "EW": 0}
    assert out["hands"][0]["NS"]["total"] == 400 and out["hands"][0]["EW"]["total"] == 0


def test_match_not_finished_below_target_and_tie_plays_on():
    out = run("match", {"hands": [hand(ns=50, ew=50)]})
    assert out == {"hands": [{"NS": {"card_points": 50, "double_victory": 0, "calls": 0, "total": 50},
                              "EW": {"card_points": 50, "double_victory": 0, "calls": 0, "total": 50},
                              "running": {"NS": 50, "EW": 50}}],
                   "totals": {"NS": 50, "EW": 50}, "finished": False, "winner": None, "finished_after": None}
    # 400:0, 400:400, 700:400, 700:700, then N's Tai Pan made with cards 0:100 -> 800:800,
    # a tie at the target: play on; then 55:45 -> 855:845, NS win
    hands = [hand({"N": "grand_tai_pan"}, dv="NS"), hand({"E": "grand_tai_pan"}, first_out="E", dv="EW"),
             hand({"N": "tai_pan"}, dv="NS"), hand({"E": "tai_pan"}, first_out="E", dv="EW"),
             hand({"N": "tai_pan"}, ns=0, ew=100)]
    out = run("match", {"hands": hands})
    assert out["totals"] == {"NS": 800, "EW": 800} and out["finished"] is False and out["winner"] is None
    out = run("match", {"hands": hands + [hand(ns=55, ew=45)]})
    assert out["totals"] == {"NS": 855, "EW": 845} and out["finished"] is True and out["winner"] == "NS"


def test_match_hand_after_finish_and_bad_hand_fields():
    hands = [hand({"N": "grand_tai_pan"}, dv="NS")] * 2 + [hand(ns=72, ew=28), hand()]
    got = fields("match", {"hands": hands})
    assert got == ["hands[2]", "hands[2].card_points.NS", "hands[2].card_points.EW", "hands[3]"]


def test_match_rules_preset_target():
    hands = [hand({"N": "grand_tai_pan"}, dv="NS")] * 2
    assert run("match", {"hands": hands, "rules": "standard"})["finished"] is False


def test_check_totals_follows_the_rules_preset():
    # variant: N's failed Tai Pan gives EW 100; cards 60:40 -> 60:140 (first out E, S or W)
    out = run("check-totals", {"calls": {"N": "tai_pan"}, "totals": {"NS": 60, "EW": 140}, "rules": "variant"})
    assert [e["first_out"] for e in out["explanations"]] == ["E", "S", "W"]
    assert all(e["card_points"] == {"NS": 60, "EW": 40} for e in out["explanations"])
    with pytest.raises(RuleViolation):  # under nskt those totals are impossible (sum 200 needs N out first)
        run("check-totals", {"calls": {"N": "tai_pan"}, "totals": {"NS": 60, "EW": 140}})
    # atp: a double victory is worth 100
    out = run("check-totals", {"calls": {}, "totals": {"NS": 0, "EW": 100}, "rules": "atp"})
    assert {(e["first_out"], e["double_victory"]) for e in out["explanations"] if e["double_victory"]} == {("E", "EW"), ("W", "EW")}
