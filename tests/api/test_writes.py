"""Result writes through the API with a token (``docs/api.md``): entering, editing and deleting
records, ending at the time limit and resuming, confirming and reopening, through the result
sheet with the version the client read; refusals as JSON errors next to their field, the same
messages the entry pages show; CSRF only for session-authenticated writes.

Scores come from the rules (the NSKT rule text, docs/engines/): a plain hand with 75 : 25
card points is NS 75, EW 25; a Tai Pan made by N adds 100 (NS 175); a Grand Tai Pan with a double
victory is 400 : 0, two of them reach the NSKT target 800; a Sichuan self-drawn win of East with
no fan items is +6 / -2 / -2 / -2."""
from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.draw import rounds
from scoring.games.entry import split_path
from scoring.games.taipan.forms import violation_field
from scoring.models import AuditEntry, Confirmation, Deal, Hand, Match, Round, Table
from scoring.policy import SYSTEM
from scoring.results import sheet
from tests.api.conftest import api_url, db_state
from tests.factories import (
    GRAND_DOUBLE_VICTORY_NS,
    PLAIN_HAND,
    SICHUAN_SELF_DRAW,
    TAI_PAN_HAND,
    confirm_result,
    entry_data,
    finish_result,
    play,
)
from tests.web.entry_data import hand_data

pytestmark = pytest.mark.django_db


def reload(obj):
    return type(obj).objects.get(pk=obj.pk)


def enter(client, container, record, version=None, kind="match", slug="tp"):
    version = reload(container).version if version is None else version
    return client.post(api_url(f"{kind}-records", slug, container.pk), {"version": version, "record": record}, format="json")


# --------------------------------------------------------------------------- entering


def test_referee_enters_a_hand(api_world):
    w = api_world
    r = enter(w.client("referee"), w.match, TAI_PAN_HAND, version=0)
    assert r.status_code == 201, r.json()
    data = r.json()
    assert data["version"] == 1 and data["totals"] == [175, 25] and data["status"] == "playing"
    assert data["records"][0]["record"] == TAI_PAN_HAND
    assert r["Location"] == f"http://testserver/api/v1/tournaments/tp/matches/{w.match.pk}/records/1"
    hand = Hand.objects.get(match=w.match)
    assert (hand.number, hand.ns, hand.ew, hand.entered_by) == (1, 175, 25, w.referee)
    # the first record starts the round; the audit says who (never shown by the API)
    assert reload(w.match.round).status == Round.Status.IN_PROGRESS
    assert AuditEntry.objects.get(match=w.match).user == w.referee


def test_referee_enters_a_deal(api_world):
    w = api_world
    r = enter(w.client("referee"), w.table, SICHUAN_SELF_DRAW, kind="table", slug="sc")
    assert r.status_code == 201, r.json()
    assert r.json()["totals"] == [6, -2, -2, -2]
    assert Deal.objects.get(table=w.table).net == [6, -2, -2, -2]


def test_match_finishes_at_the_target_and_takes_no_more_hands(api_world):
    w = api_world
    c = w.client("referee")
    for _ in range(2):
        assert enter(c, w.match, GRAND_DOUBLE_VICTORY_NS).status_code == 201
    m = reload(w.match)
    assert (m.status, m.total_ns, m.total_ew, m.points_ns) == (Match.Status.FINISHED, 800, 0, 2)
    state = db_state()
    r = enter(c, w.match, PLAIN_HAND)
    assert r.status_code == 409
    assert r.json() == {"code": "conflict", "errors": [{"field": "", "message": "This result is finished: no more can be added."}]}
    assert db_state() == state


# --------------------------------------------------------------------------- versions and input


def test_a_stale_version_is_409_and_changes_nothing(api_world):
    w = api_world
    c = w.client("referee")
    assert enter(c, w.match, PLAIN_HAND, version=0).status_code == 201
    state = db_state()
    r = enter(c, w.match, PLAIN_HAND, version=0)
    assert r.status_code == 409
    assert r.json()["code"] == "stale_version" and r.json()["errors"][0]["field"] == ""
    assert "changed by someone else" in r.json()["errors"][0]["message"]
    assert db_state() == state


@pytest.mark.parametrize("body,field", [
    ({"record": PLAIN_HAND}, "version"),
    ({"record": PLAIN_HAND, "version": "abc"}, "version"),
    ({"record": PLAIN_HAND, "version": -1}, "version"),
    ({"version": 0}, "record"),
    ({"version": 0, "record": None}, "record"),
])
def test_a_missing_or_malformed_field_is_400(api_world, body, field):
    w = api_world
    state = db_state()
    r = w.client("referee").post(api_url("match-records", "tp", w.match.pk), body, format="json")
    assert r.status_code == 400
    assert r.json()["code"] == "invalid" and [e["field"] for e in r.json()["errors"]] == [field]
    assert db_state() == state


def test_a_record_that_is_not_an_object_is_refused_by_the_engine(api_world):
    w = api_world
    r = enter(w.client("referee"), w.match, ["not", "a", "hand"])
    assert r.status_code == 400
    assert r.json() == {"code": "invalid", "errors": [{"field": "record", "message": "A hand record must be a JSON object."}]}


def test_not_json_is_refused(api_world):
    w = api_world
    c = w.client("referee")
    url = api_url("match-records", "tp", w.match.pk)
    r = c.post(url, "{not json", content_type="application/json")
    assert r.status_code == 400 and r.json()["code"] == "parse_error"
    r = c.post(url, "version=0", content_type="application/x-www-form-urlencoded")
    assert r.status_code == 415 and r.json()["code"] == "unsupported_media_type"
    assert Hand.objects.count() == 0


# --------------------------------------------------------------------------- the same field errors as the pages


#: Bad hands of the entry page tests (tests/web/test_result_entry.py), EW typed as well: the
#: engine's violations of each, by the rules (card points are multiples of 5 between -25 and 125
#: adding up to 100; a call needs a first out; a double victory needs its team out first and has
#: no card points).
BAD_HANDS = [
    ("not a multiple of 5", dict(first_out="N", ns=72, ew=28)),
    ("out of range", dict(first_out="N", ns=130, ew=-30)),
    ("not summing to 100", dict(first_out="N", ns=60, ew=50)),
    ("a call without first out", dict(calls={"N": "tai_pan"}, ns=60, ew=40)),
    ("double victory, first out from the other team", dict(first_out="E", dv="NS")),
    ("card points with a double victory", dict(first_out="N", dv="NS", ns=60, ew=40)),
]


def as_record(calls=None, first_out="", dv="", ns="", ew=""):
    return {"calls": calls or {}, "first_out": first_out or None, "double_victory": dv or None,
            "card_points": {"NS": ns, "EW": ew} if ns != "" else None}


def page_errors(entry) -> dict[str, list[str]]:
    """Every error of an entry page's forms by field name (``__all__``: the whole form)."""
    out: dict[str, list[str]] = {}
    for form in entry.forms:
        for name, errors in form.errors.items():
            out.setdefault(name, []).extend(str(e) for e in errors)
        for name, errors in getattr(form, "group_errors", {}).items():
            out.setdefault(name, []).extend(str(e) for e in errors)
    return out


@pytest.mark.parametrize("label,data", BAD_HANDS, ids=[b[0] for b in BAD_HANDS])
def test_a_bad_hand_gets_the_same_field_errors_as_the_entry_page(client, api_world, label, data):
    w = api_world
    client.force_login(w.referee)
    page = client.post(reverse("scoring:match_enter", args=["tp", w.match.pk]), hand_data(0, **data))
    assert page.status_code == 400
    shown = page_errors(page.context["entry"])
    state = db_state()
    r = enter(w.client("referee"), w.match, as_record(**data), version=0)
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    errors = r.json()["errors"]
    assert sorted(e["message"] for e in errors) == sorted(m for messages in shown.values() for m in messages), label
    for e in errors:  # each next to the field the page shows it at
        assert e["field"].startswith("record.")
        assert e["message"] in shown[violation_field(split_path(e["field"][len("record."):]))], (label, e)
    assert db_state() == state


def test_a_bad_deal_gets_the_same_errors_as_the_entry_page(client, api_world):
    """A Sichuan win whose tiles do not make a winning hand (the engine refuses it)."""
    w = api_world
    bad = {"events": [{"type": "win", "player": "E", "hand": {
        "void": "s", "melds": [], "concealed": "123m 456m 789m 123p 56p",
        "win": {"tile": "6p", "how": "self", "after_kong": False, "last_tile": False}}}], "exhaustion": None}
    client.force_login(w.referee)
    page = client.post(reverse("scoring:table_enter", args=["sc", w.table.pk]), entry_data(w.table, bad))
    assert page.status_code == 400
    shown = sorted(m for messages in page_errors(page.context["entry"]).values() for m in messages)
    r = enter(w.client("referee"), w.table, bad, kind="table", slug="sc")
    assert r.status_code == 400
    assert sorted(e["message"] for e in r.json()["errors"]) == shown and shown
    assert all(e["field"].startswith("record") for e in r.json()["errors"])
    assert Deal.objects.count() == 0


def test_errors_in_dutch_when_asked(api_world):
    w = api_world
    r = w.client("referee").post(api_url("match-records", "tp", w.match.pk),
                                 {"version": 0, "record": as_record(first_out="N", ns=72, ew=28)},
                                 format="json", HTTP_ACCEPT_LANGUAGE="nl")
    assert r.status_code == 400
    assert "Kaartpunten moeten een veelvoud van 5 zijn, niet 72." in [e["message"] for e in r.json()["errors"]]


def test_an_engine_message_with_a_literal_brace_shows_one_brace_in_both_languages(api_world):
    """The Sichuan template writes its example object as ``{{...}}`` (a format string)."""
    w = api_world
    bad = {"events": [{"type": "win", "player": "E", "hand": {**SICHUAN_SELF_DRAW["events"][0]["hand"], "win": "5p"}}],
           "exhaustion": None}
    for language, message in (("en", 'Say how the hand was won: {"tile": "5p", "how": "discard"}.'),
                              ("nl", 'Geef aan hoe de hand gewonnen is: {"tile": "5p", "how": "discard"}.')):
        r = w.client("referee").post(api_url("table-records", "sc", w.table.pk), {"version": 0, "record": bad},
                                     format="json", HTTP_ACCEPT_LANGUAGE=language)
        assert r.status_code == 400
        assert message in [e["message"] for e in r.json()["errors"]], r.json()
    r = APIClient().post(api_url("engine-command", "sichuan", "score-hand"), bad["events"][0]["hand"], format="json")
    assert r.status_code == 400
    assert 'Say how the hand was won: {"tile": "5p", "how": "discard"}.' in [e["message"] for e in r.json()["errors"]]


# --------------------------------------------------------------------------- edit and delete


def test_edit_a_hand_with_a_reason(api_world):
    w = api_world
    play(w.match, [PLAIN_HAND, PLAIN_HAND], w.referee)
    c = w.client("referee")
    url = api_url("match-record", "tp", w.match.pk, 1)
    r = c.put(url, {"version": 2, "record": TAI_PAN_HAND}, format="json")
    assert r.status_code == 400 and r.json()["errors"] == [{"field": "reason", "message": "Give a reason."}]
    r = c.put(url, {"version": 2, "record": TAI_PAN_HAND, "reason": "   "}, format="json")
    assert r.status_code == 400 and r.json()["errors"] == [{"field": "reason", "message": "Give a reason."}]
    r = c.put(url, {"version": 2, "record": TAI_PAN_HAND, "reason": "N called Tai Pan"}, format="json")
    assert r.status_code == 200, r.json()
    data = r.json()
    assert data["version"] == 3 and data["totals"] == [250, 50]
    assert [h["running"] for h in data["records"]] == [[175, 25], [250, 50]]
    assert AuditEntry.objects.filter(match=w.match, action="update").get().reason == "N called Tai Pan"


def test_edit_of_a_missing_record_is_404(api_world):
    w = api_world
    play(w.match, [PLAIN_HAND], w.referee)
    r = w.client("referee").put(api_url("match-record", "tp", w.match.pk, 5),
                                {"version": 1, "record": PLAIN_HAND, "reason": "x"}, format="json")
    assert r.status_code == 404


def test_delete_a_hand_with_query_parameters_or_a_body(api_world):
    w = api_world
    play(w.match, [TAI_PAN_HAND, PLAIN_HAND, PLAIN_HAND], w.referee)
    c = w.client("referee")
    r = c.delete(api_url("match-record", "tp", w.match.pk, 1) + "?version=3&reason=wrong%20table")
    assert r.status_code == 200, r.json()
    assert [h["number"] for h in r.json()["records"]] == [1, 2] and r.json()["totals"] == [150, 50]
    r = c.delete(api_url("match-record", "tp", w.match.pk, 2), {"version": 4, "reason": "typo"}, format="json")
    assert r.status_code == 200 and r.json()["totals"] == [75, 25]
    r = c.delete(api_url("match-record", "tp", w.match.pk, 1) + "?version=5")
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "reason"
    assert Hand.objects.filter(match=w.match).count() == 1


# --------------------------------------------------------------------------- end, resume, confirm, reopen


def action(client, kind, slug, container, name, **body):
    body.setdefault("version", reload(container).version)
    return client.post(api_url(f"{kind}-{name}", slug, container.pk), body, format="json")


def test_end_at_the_time_limit_and_resume(api_world):
    w = api_world
    play(w.match, [TAI_PAN_HAND], w.referee)
    c = w.client("referee")
    r = action(c, "match", "tp", w.match, "end")
    assert r.status_code == 400 and r.json()["errors"] == [{"field": "reason", "message": "Give a reason."}]
    r = action(c, "match", "tp", w.match, "end", reason="time is up")
    assert r.status_code == 200
    # ended at the time limit: the higher total wins (NS 175 : 25)
    assert (r.json()["status"], r.json()["ended"], r.json()["winner"], r.json()["points"]) == ("finished", "time", "NS", [2, 0])
    r = action(c, "match", "tp", w.match, "resume", reason="the clock was wrong")
    assert r.status_code == 200 and (r.json()["status"], r.json()["ended"]) == ("playing", "")
    r = action(c, "match", "tp", w.match, "resume", reason="again")
    assert r.status_code == 409 and r.json()["code"] == "conflict"


def test_confirm_by_a_second_person(api_world):
    w = api_world
    play(w.table, [SICHUAN_SELF_DRAW], w.referee, end_reason="time")
    r = action(w.client("referee"), "table", "sc", w.table, "confirm")
    assert r.status_code == 409
    assert r.json()["errors"] == [{"field": "", "message": "A different person must confirm the result than the one who entered it."}]
    r = action(w.client("confirmer"), "table", "sc", w.table, "confirm")
    assert r.status_code == 200 and r.json()["status"] == "confirmed"
    assert Confirmation.objects.get(table=w.table).confirmed_by == w.confirmer
    r = action(w.client("organiser"), "table", "sc", w.table, "confirm")
    assert r.status_code == 409 and r.json()["errors"][0]["message"] == "This result is already confirmed."


def test_confirm_an_unfinished_result_is_refused(api_world):
    w = api_world
    play(w.match, [PLAIN_HAND], w.referee)
    r = action(w.client("confirmer"), "match", "tp", w.match, "confirm")
    assert r.status_code == 409 and "Only a finished result" in r.json()["errors"][0]["message"]


def test_blind_confirmation_needs_the_totals(api_world):
    w = api_world
    w.tp.blind_confirmation = True
    w.tp.save()
    play(w.match, [GRAND_DOUBLE_VICTORY_NS] * 2, w.referee)
    c = w.client("confirmer")
    r = action(c, "match", "tp", w.match, "confirm")
    assert r.status_code == 400 and r.json()["errors"] == [{"field": "totals", "message": "Type the final totals from the score sheet."}]
    r = action(c, "match", "tp", w.match, "confirm", totals=["a", 0])
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "totals"
    state = db_state()
    r = action(c, "match", "tp", w.match, "confirm", totals={"NS": 700, "EW": 0})
    assert r.status_code == 409 and r.json()["errors"][0]["field"] == "totals"
    assert "do not match" in r.json()["errors"][0]["message"]
    assert db_state() == state
    r = action(c, "match", "tp", w.match, "confirm", totals=[800, 0])
    assert r.status_code == 200 and r.json()["status"] == "confirmed"


def test_a_confirmation_confirms_the_version_read(api_world):
    w = api_world
    play(w.match, [GRAND_DOUBLE_VICTORY_NS] * 2, w.referee)
    seen = reload(w.match).version
    sheet.edit_record(w.match, 2, TAI_PAN_HAND, w.referee, expected_version=seen, reason="typo")
    r = action(w.client("confirmer"), "match", "tp", w.match, "confirm", version=seen)
    assert r.status_code == 409 and r.json()["code"] == "stale_version"
    assert not Confirmation.objects.exists()


def test_reopen_needs_a_reason_and_allows_edits(api_world):
    w = api_world
    confirm_result(w.match, w.confirmer)
    c = w.client("referee")
    r = action(c, "match", "tp", w.match, "reopen")
    assert r.status_code == 400 and r.json()["errors"][0]["field"] == "reason"
    r = action(c, "match", "tp", w.match, "reopen", reason="wrong card points")
    assert r.status_code == 200 and r.json()["status"] == "finished"
    assert Confirmation.objects.get(match=w.match).reopen_reason == "wrong card points"
    r = c.put(api_url("match-record", "tp", w.match.pk, 1),
              {"version": reload(w.match).version, "record": PLAIN_HAND, "reason": "fix"}, format="json")
    assert r.status_code == 200


def test_in_a_closed_round_only_an_organiser_reopens(api_world):
    w = api_world
    for m in (w.match, w.match2):
        confirm_result(m, w.confirmer)
    rounds.close_round(w.match.round, SYSTEM)
    state = db_state()
    r = action(w.client("referee"), "match", "tp", w.match, "reopen", reason="late protest")
    assert r.status_code == 403 and r.json()["code"] == "permission_denied"
    assert db_state() == state
    r = action(w.client("organiser"), "match", "tp", w.match, "reopen", reason="late protest")
    assert r.status_code == 200
    assert reload(w.match.round).status == Round.Status.IN_PROGRESS


def test_a_finished_table_can_be_confirmed_after_ending_it(api_world):
    w = api_world
    finish_result(w.table)
    r = action(w.client("referee"), "table", "sc", w.table, "confirm")
    assert r.status_code == 200 and reload(w.table).status == Table.Status.CONFIRMED


# --------------------------------------------------------------------------- CSRF


def test_session_writes_keep_csrf_token_writes_do_not_need_it(api_world):
    w = api_world
    session = APIClient(enforce_csrf_checks=True)
    session.force_login(w.referee)
    state = db_state()
    r = session.post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND}, format="json")
    assert r.status_code == 403 and "CSRF" in r.json()["errors"][0]["message"]
    assert db_state() == state
    # with the CSRF cookie and header, as a page's script would send them
    session.get(reverse("scoring:match_enter", args=["tp", w.match.pk]))
    token = session.cookies["csrftoken"].value
    r = session.post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND}, format="json",
                     HTTP_X_CSRFTOKEN=token)
    assert r.status_code == 201
    # a token request carries no cookie and needs no CSRF token
    bearer = APIClient(enforce_csrf_checks=True)
    bearer.credentials(HTTP_AUTHORIZATION=f"Token {w.tokens['referee'].key}")
    r = bearer.post(api_url("match-records", "tp", w.match.pk), {"version": 1, "record": PLAIN_HAND}, format="json")
    assert r.status_code == 201
