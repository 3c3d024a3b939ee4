"""The hall through the API (issue 23 item 9): time's up (call, grace, apply), the referees'
assignments (GET, PUT a zone, claim), the progress board, and a call for a referee by a side's
private link. The same policy as the pages: organisers call time's up and set zones, head
referees and organisers see the board, referees claim and answer."""
from __future__ import annotations

import pytest
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.hall import zones
from scoring.models import AuditEntry, RefereeCall
from scoring.participants import links
from scoring.results import sheet
from tests.api.conftest import client_for, issue_token
from tests.hall.helpers import RECORDS, hall_round

pytestmark = pytest.mark.django_db


def url(name: str, rnd, **kwargs) -> str:
    return reverse(f"api:{name}", kwargs={"slug": rnd.tournament.slug, "number": rnd.number, **kwargs})


def as_(user) -> APIClient:
    return client_for(issue_token(user))


def test_times_up_get_post_apply_and_the_policy():
    rnd, (m1, m2), people = hall_round("match", tables=2)
    sheet.add_record(m1, RECORDS["match"][0], people["referee"])
    organiser = as_(people["organiser"])
    state = organiser.get(url("times-up", rnd)).json()
    assert state["call"] is None and [p["table"] for p in state["would_end"]] == [1, 2]
    assert state["would_end"][0]["outcome"].endswith("wins: 75 – 25.")
    assert as_(people["referee"]).post(url("times-up", rnd), {}, format="json").status_code == 403
    assert as_(people["head"]).post(url("times-up", rnd), {}, format="json").status_code == 403
    assert APIClient().post(url("times-up", rnd), {}, format="json").status_code == 401
    bad = organiser.post(url("times-up", rnd), {"grace_minutes": 99}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "grace_minutes"
    called = organiser.post(url("times-up", rnd), {"grace_minutes": 2}, format="json")
    assert called.status_code == 200
    body = called.json()
    assert body["applied_at"] is None and body["grace_until"] and body["scheduled"] is False  # no worker in tests
    again = organiser.post(url("times-up", rnd), {}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert organiser.post(url("times-up-apply", rnd), format="json").json() == {"ended": [1, 2]}
    assert organiser.post(url("times-up-apply", rnd), format="json").json() == {"ended": []}
    assert AuditEntry.objects.filter(action="end").count() == 2
    # A hand after it: 409 with the time's up message.
    refused = as_(people["referee"]).post(
        reverse("api:match-records", kwargs={"slug": rnd.tournament.slug, "pk": m1.pk}),
        {"record": RECORDS["match"][1], "version": 0}, format="json")
    assert refused.status_code == 409
    assert refused.json()["errors"][0]["message"].startswith("Time is up for this round")


def test_assignments_put_get_overlap_and_claim():
    rnd, _cs, people = hall_round("table", tables=6)
    anna, bert = people["referees"]
    organiser = as_(people["organiser"])
    put = organiser.put(url("assignments", rnd), {"referee": anna.username, "tables": "1-3, 5"}, format="json")
    assert put.status_code == 200 and put.json() == {"referee": anna.username, "tables": [1, 2, 3, 5],
                                                      "claimed": [], "text": "1-3, 5"}
    bad = organiser.put(url("assignments", rnd), {"referee": bert.username, "tables": "0-2"}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0] == {"field": "tables",
                                                                  "message": "There is no table 0: tables start at 1."}
    overlap = organiser.put(url("assignments", rnd), {"referee": bert.username, "tables": "5-6"}, format="json")
    assert overlap.status_code == 409
    assert as_(anna).put(url("assignments", rnd), {"referee": anna.username, "tables": "6"},
                         format="json").status_code == 403
    claimed = as_(bert).post(url("claim", rnd, table=2), format="json")
    assert claimed.json() == {"table": 2, "referee": bert.username, "claimed": True}
    listed = {z["referee"]: z for z in as_(anna).get(url("assignments", rnd)).json()}
    assert listed[anna.username]["tables"] == [1, 3, 5] and listed[bert.username]["claimed"] == [2]
    assert as_(people["outsider"]).get(url("assignments", rnd)).status_code == 403


def test_board_json_for_head_referees_and_organisers_only():
    rnd, (m1, m2, m3), people = hall_round("match", tables=3)
    sheet.add_record(m1, RECORDS["match"][0], people["referee"])
    zones.set_zone(rnd, people["referee"], "1-2", people["organiser"])
    as_(people["referee"]).post(reverse("api:match-referee-call", kwargs={"slug": rnd.tournament.slug, "pk": m2.pk}))
    answer = as_(people["head"]).get(url("board", rnd))
    assert answer.status_code == 200
    body = answer.json()
    assert body["unfinished"] == [1, 2, 3]
    assert [t["table"] for t in body["tables"]] == [2, 1, 3]
    first, second = body["tables"][:2]
    assert first["attention"] == "needs_referee" and first["needs_referee_since"]
    assert second["state"] == "playing" and second["records"] == 1 and second["totals"] == [75, 25]
    assert second["referee"] == people["referee"].username
    assert as_(people["referee"]).get(url("board", rnd)).status_code == 403
    assert as_(people["organiser"]).get(url("board", rnd)).status_code == 200


def test_a_side_calls_a_referee_through_its_link_and_a_referee_answers():
    rnd, (m1, m2), people = hall_round("match", tables=2)
    token = links.token_of(links.link_for(m1.team_ns))
    side = APIClient()
    side.credentials(HTTP_AUTHORIZATION=f"Link {token}")
    call_url = reverse("api:match-referee-call", kwargs={"slug": rnd.tournament.slug, "pk": m1.pk})
    first = side.post(call_url)
    assert first.status_code == 201 and first.json()["table"] == 1
    assert side.post(call_url).status_code == 200
    other = reverse("api:match-referee-call", kwargs={"slug": rnd.tournament.slug, "pk": m2.pk})
    assert side.post(other).status_code == 403
    assert side.post(url("referee-call-answer", rnd, table=1)).status_code == 403
    assert as_(people["referee"]).post(url("referee-call-answer", rnd, table=1)).json() == {"answered": 1}
    assert not RefereeCall.objects.filter(answered_at=None).exists()
