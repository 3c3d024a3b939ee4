"""``GET /api/v1/people/{id}`` (issue 26 item 2): the profile page's numbers from the same function,
privacy (public names; the federation number only for an organiser of one of the person's
tournaments), the schema, and a fixed number of queries."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from openapi_schema_validator import OAS30Validator
from rest_framework.test import APIClient

from scoring.models import Player
from scoring.profiles.load import profile
from tests.api.conftest import api_url
from tests.factories import PersonFactory
from tests.profiles.conftest import sichuan_entry, taipan_entry

pytestmark = pytest.mark.django_db


def test_the_api_gives_the_profile_numbers_and_validates():
    anna = PersonFactory(name="Anna de Vries", federation_number="NL-123")
    t, match, _s = taipan_entry(anna, public_names="short")
    r = APIClient().get(api_url("person-detail", anna.pk))
    assert r.status_code == 200
    data = r.json()
    assert data["name"] == "Anna V." and "federation_number" not in data
    assert "NL-123" not in r.content.decode() and "Anna de Vries" not in r.content.decode()
    (entry,) = data["tournaments"]
    assert (entry["tournament"], entry["team"], entry["partner"], entry["rank"], entry["points"]) == (t.slug, "Slagen", "Bart J.", 1, 2)
    (result,) = entry["results"]
    assert (result["kind"], result["id"], result["score"], result["outcome"], result["seat"]) == ("match", match.pk, [800, 0], "win", "N")
    assert result["url"].endswith(api_url("match-detail", t.slug, match.pk))
    (game,) = data["statistics"]
    assert {i["key"]: i["value"] for i in game["items"]} == profile(anna).games[0].statistics.as_dict()
    # The chart's labels are full names: the whole tournament name and the round (the page draws
    # only "R1" under the bar and the name once under the tournament's bars).
    points = next(c for c in game["charts"] if c["key"] == "match_points")
    assert (points["labels"], points["values"]) == ([f"{t.name} R1"], [2])
    # A conditional read like every other: the same answer again is 304 without a body.
    again = APIClient().get(api_url("person-detail", anna.pk), HTTP_IF_NONE_MATCH=r["ETag"])
    assert again.status_code == 304 and again.content == b""
    spec = APIClient().get("/api/schema/", {"format": "json"}).json()
    assert "/api/v1/people/{id}" in spec["paths"]
    OAS30Validator({"$ref": "#/components/schemas/Person", "components": spec["components"]}).validate(data)


def test_an_organiser_of_one_of_the_tournaments_sees_the_federation_number():
    anna = PersonFactory(name="Anna", federation_number="NL123")
    t, _m, people = taipan_entry(anna)
    c = APIClient()
    c.force_authenticate(people["outsider"])
    assert "federation_number" not in c.get(api_url("person-detail", anna.pk)).json()
    # the organiser's entry carries no number (joined by "Same person"): hidden from them too
    c.force_authenticate(people["organiser"])
    assert "federation_number" not in c.get(api_url("person-detail", anna.pk)).json()
    Player.objects.filter(tournament=t, person=anna).update(federation_number="NL123")
    assert c.get(api_url("person-detail", anna.pk)).json()["federation_number"] == "NL123"


def test_unknown_person_is_a_json_404():
    r = APIClient().get(api_url("person-detail", 999999))
    assert r.status_code == 404 and r.json()["code"] == "not_found"


def _count(url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert APIClient().get(url).status_code == 200
    return len(ctx.captured_queries)


def test_queries_do_not_grow_with_tournaments():
    one, five = PersonFactory(name="One"), PersonFactory(name="Five")
    sichuan_entry(one, n=100)
    for n in range(5):
        sichuan_entry(five, n=n)
    assert _count(api_url("person-detail", one.pk)) == _count(api_url("person-detail", five.pk))
