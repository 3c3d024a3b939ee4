"""Seasons in the API (issue 26 item 3): reads, create and change through the same service and
policy as the pages; the schema covers them and the answers validate against it."""
from __future__ import annotations

import pytest
from openapi_schema_validator import OAS30Validator
from rest_framework.test import APIClient

from scoring.models import Membership, PublicNames, Season, Tournament
from tests.api.conftest import client_for, issue_token
from tests.factories import MembershipFactory, TournamentFactory, UserFactory
from tests.seasons.helpers import finished_with_places, person, season

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(settings):
    settings.LANGUAGE_CODE = "en"


def _validates(spec, component: str, data, many=False):
    ref = {"$ref": f"#/components/schemas/{component}"}
    schema = {"type": "array", "items": ref} if many else ref
    OAS30Validator({**schema, "components": spec["components"]}).validate(data)


def test_reads_and_schema():
    anna, bart = person("Anna de Vries", number="NL-1"), person("Bart Smit")
    t1 = finished_with_places({anna: 1, bart: 1}, name="Cup", slug="cup")
    Tournament.objects.filter(pk=t1.pk).update(public_names=PublicNames.SHORT)
    season([t1], best_n=1)
    c = APIClient()
    spec = c.get("/api/schema/", {"format": "json"}).json()
    assert {"/api/v1/seasons", "/api/v1/seasons/{slug}", "/api/v1/seasons/{slug}/ranking"} <= set(spec["paths"])
    listed = c.get("/api/v1/seasons").json()
    _validates(spec, "Season", listed, many=True)
    assert listed[0]["points_table"] == [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]
    ranked = c.get("/api/v1/seasons/s1/ranking")
    assert ranked.status_code == 200 and ranked["ETag"]
    data = ranked.json()
    _validates(spec, "SeasonRanking", data)
    # Shared 1st: (25 + 18) / 2 = 21.5 each; public names shortened; no federation number.
    assert [(r["rank"], r["name"], r["points"]) for r in data["rows"]] == [(1, "Anna V.", 21.5), (1, "Bart S.", 21.5)]
    assert data["rows"][0]["results"] == [{"tournament": "cup", "place": 1, "tied": 2, "points": 21.5, "counted": True,
                                           "provisional": False}]
    assert "NL-1" not in ranked.content.decode()
    assert c.get("/api/v1/seasons/nope/ranking").status_code == 404


def test_create_and_patch_through_the_service():
    organiser, co, outsider = UserFactory(), UserFactory(username="co"), UserFactory()
    mine, theirs = TournamentFactory(slug="mine"), TournamentFactory(slug="theirs")
    MembershipFactory(tournament=mine, user=organiser, role=Membership.Role.ORGANISER)
    anon = APIClient()
    assert anon.post("/api/v1/seasons", {"name": "S"}, format="json").status_code == 401
    out = client_for(issue_token(outsider))
    assert out.post("/api/v1/seasons", {"name": "S"}, format="json").status_code == 403
    me = client_for(issue_token(organiser))
    refused = me.post("/api/v1/seasons", {"name": "S", "tournaments": ["theirs"]}, format="json")
    assert refused.status_code == 400 and f"You do not organise: {theirs.name}." in refused.content.decode()
    assert not Season.objects.exists()
    made = me.post("/api/v1/seasons", {"name": "Season 26", "preset": "custom", "points_table": [10, 5],
                                       "tournaments": ["mine"], "managers": ["co"]}, format="json")
    assert made.status_code == 201, made.json()
    assert made.json()["slug"] == "season-26" and made.json()["points_table"] == [10, 5]
    s = Season.objects.get()
    assert s.created_by == organiser and list(s.managers.all()) == [co]
    assert out.patch("/api/v1/seasons/season-26", {"best_n": 2}, format="json").status_code == 403
    changed = client_for(issue_token(co)).patch("/api/v1/seasons/season-26", {"best_n": 2}, format="json")
    assert changed.status_code == 200 and changed.json()["best_n"] == 2
    s.refresh_from_db()
    assert s.best_n == 2 and s.points_table == [10, 5] and list(s.tournaments.all()) == [mine]
    bad = me.patch("/api/v1/seasons/season-26", {"preset": "custom", "points_table": []}, format="json")
    assert bad.status_code == 400


def test_season_list_query_count_does_not_grow():
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    season([finished_with_places({person("A"): 1})], slug="a")
    c = APIClient()
    with CaptureQueriesContext(connection) as one:
        assert c.get("/api/v1/seasons").status_code == 200
    for k in range(3):
        season([finished_with_places({person(f"P{k}"): 1}) for _ in range(2)], slug=f"s{k}", name=f"S{k}")
    with CaptureQueriesContext(connection) as four:
        assert len(c.get("/api/v1/seasons").json()) == 4
    assert len(four.captured_queries) == len(one.captured_queries)
