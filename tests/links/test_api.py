"""Private links in the REST API (issue 15): ``Authorization: Link <token>`` resolves to the same
entrant as the phone's session; a whole match entered by one team and confirmed by the other
through the API, the answers valid against the OpenAPI schema, which documents ``linkAuth`` and
the dispute endpoint. Values from the NSKT rules: "Grand Tai Pan of N with NS's double victory"
is 400 : 0, two of them reach the target 800."""
from __future__ import annotations

import pytest
from openapi_schema_validator import OAS30Validator
from openapi_spec_validator import validate
from rest_framework.test import APIClient

from scoring.models import AuditEntry, Confirmation, Dispute
from tests.api.conftest import api_url
from tests.factories import GRAND_DOUBLE_VICTORY_NS

pytestmark = pytest.mark.django_db


@pytest.fixture
def spec(db):
    return APIClient().get("/api/schema/", {"format": "json"}).json()


def _valid(spec, component: str, data) -> None:
    OAS30Validator({"$ref": f"#/components/schemas/{component}", "components": spec["components"]}).validate(data)


def test_the_schema_documents_link_authentication_and_disputes(spec):
    validate(spec)
    assert spec["components"]["securitySchemes"]["linkAuth"] == {
        "type": "apiKey", "in": "header", "name": "Authorization",
        "description": 'Token-based authentication with required prefix "Link"'}
    dispute = spec["paths"]["/api/v1/tournaments/{slug}/matches/{id}/dispute"]["post"]
    assert {"linkAuth": []} in dispute["security"] and {} not in dispute["security"]
    assert "/api/v1/tournaments/{slug}/tables/{id}/dispute" in spec["paths"]
    assert "player_entry" in spec["components"]["schemas"]["Tournament"]["properties"]


def test_a_whole_match_through_the_api_with_two_links(world, spec):
    m = world.match
    alpha, bravo = world.api("Alpha"), world.api("Bravo")
    assert alpha.get(api_url("tournament-detail", "tp")).json()["player_entry"] is True
    version = 0
    for _ in range(2):
        r = alpha.post(api_url("match-records", "tp", m.pk), {"version": version, "record": GRAND_DOUBLE_VICTORY_NS},
                       format="json")
        assert r.status_code == 201, r.content
        _valid(spec, "Result", r.json())
        version = r.json()["version"]
    assert r.json()["status"] == "finished" and r.json()["totals"] == [800, 0]
    # Alpha may not confirm what it entered; Bravo confirms exactly what it read.
    refused = alpha.post(api_url("match-confirm", "tp", m.pk), {"version": version}, format="json")
    assert refused.status_code == 409 and refused.json()["code"] == "conflict"
    _valid(spec, "Error", refused.json())
    read = bravo.get(api_url("match-detail", "tp", m.pk)).json()
    r = bravo.post(api_url("match-confirm", "tp", m.pk), {"version": read["version"]}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "confirmed"
    _valid(spec, "Result", r.json())
    assert Confirmation.objects.get(match=m).via_entrant == "Bravo"
    assert [e.via_entrant for e in AuditEntry.objects.filter(match=m).order_by("pk")] == ["Alpha", "Alpha", "Bravo"]
    # The answers never name who entered or confirmed.
    assert "Alpha" not in str({k: v for k, v in r.json().items() if k not in ("sides", "outcome")})


def test_a_dispute_through_the_api(world, spec):
    t = world.table
    ann, cas = world.api("Ann"), world.api("Cas")
    from tests.factories import SICHUAN_SELF_DRAW

    r = ann.post(api_url("table-records", "sc", t.pk), {"version": 0, "record": SICHUAN_SELF_DRAW}, format="json")
    r = ann.post(api_url("table-end", "sc", t.pk), {"version": r.json()["version"], "reason": "time"}, format="json")
    assert r.status_code == 200 and r.json()["status"] == "finished"
    version = r.json()["version"]
    bad = cas.post(api_url("table-dispute", "sc", t.pk), {"version": version, "totals": [1, 2]}, format="json")
    assert bad.status_code == 400 and bad.json()["errors"][0]["field"] == "totals"
    r = cas.post(api_url("table-dispute", "sc", t.pk), {"version": version, "totals": [0, 0, 0, 0], "note": "a draw"},
                 format="json")
    assert r.status_code == 200 and r.json()["version"] == version + 1
    _valid(spec, "Result", r.json())
    d = Dispute.objects.get()
    assert (d.totals, d.entered_totals, d.note, d.via_entrant) == ([0, 0, 0, 0], [6, -2, -2, -2], "a draw", "Cas")
    # Another seated player does not confirm over Cas's objection; the referee settles it.
    refused = world.api("Dee").post(api_url("table-confirm", "sc", t.pk), {"version": version + 1}, format="json")
    assert refused.status_code == 409
    ok = world.api("referee").post(api_url("table-confirm", "sc", t.pk), {"version": version + 1}, format="json")
    assert ok.status_code == 200 and Dispute.objects.get().confirmation is not None


def test_blind_the_confirming_side_reads_no_records_through_the_api_the_entering_side_does(world):
    """Blind confirmation (``totals_hidden``): Alpha entered the match (800 : 0), so it reads its
    records; Bravo, which is to confirm, gets an empty list and 404 for a record, as the public
    does, until it confirmed with the totals typed from its sheet."""
    from scoring.models import Tournament

    Tournament.objects.filter(pk=world.tp.pk).update(blind_confirmation=True)
    m = world.match
    alpha, bravo = world.api("Alpha"), world.api("Bravo")
    version = 0
    for _ in range(2):
        version = alpha.post(api_url("match-records", "tp", m.pk), {"version": version, "record": GRAND_DOUBLE_VICTORY_NS},
                             format="json").json()["version"]
    records, one = api_url("match-records", "tp", m.pk), api_url("match-record", "tp", m.pk, 2)
    assert [r["running"] for r in alpha.get(records).json()] == [[400, 0], [800, 0]]
    assert alpha.get(one).json()["running"] == [800, 0]
    for client in (bravo, APIClient()):
        assert client.get(records).json() == [] and client.get(one).status_code == 404
    r = bravo.post(api_url("match-confirm", "tp", m.pk), {"version": version, "totals": [800, 0]}, format="json")
    assert r.status_code == 200 and r.json()["records"][1]["running"] == [800, 0]
    assert bravo.get(one).json()["running"] == [800, 0]
