"""``GET /api/v1/tournaments/{slug}/rounds/{number}/names`` (issue 23 item 7): the list "name ->
table" of a round, the same rows as the wall list and the projector page; drafts only for the
organisers; the answer validates against the OpenAPI schema."""
import pytest
from django.urls import reverse
from drf_spectacular.generators import SchemaGenerator
from openapi_schema_validator import OAS30Validator
from rest_framework.test import APIClient

from scoring.models import Round
from tests.factories import MatchFactory, RoundFactory, TournamentFactory, named_teams, staff

pytestmark = pytest.mark.django_db


def names_url(slug, number):
    return reverse("api:round-names", args=[slug, number])


def test_names_of_a_published_round():
    t = TournamentFactory(slug="cup")
    a, b = named_teams(t, ["Zwanen", "Adelaars"])
    rnd = RoundFactory(tournament=t, number=1)
    MatchFactory(round=rnd, table=4, team_ns=a, team_ew=b)
    r = APIClient().get(names_url("cup", 1))
    assert r.status_code == 200
    body = r.json()
    assert body["round"] == 1 and body["status"] == "published"
    assert [(n["name"], n["table"], n["seat"]) for n in body["names"]] == [
        ("Adelaars", 4, "EW"), ("Adelaars A", 4, "E"), ("Adelaars B", 4, "W"),
        ("Zwanen", 4, "NS"), ("Zwanen A", 4, "N"), ("Zwanen B", 4, "S")]
    assert body["names"][1]["team"] == "Adelaars" and body["names"][0]["is_team"] is True
    spec = SchemaGenerator().get_schema(request=None, public=True)
    ref = {"$ref": "#/components/schemas/NameList", "components": spec["components"]}
    OAS30Validator(ref).validate(body)


def test_a_draft_is_for_organisers_only():
    t = TournamentFactory(slug="cup")
    a, b = named_teams(t, ["Zwanen", "Adelaars"])
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.DRAFT)
    MatchFactory(round=rnd, table=1, team_ns=a, team_ew=b)
    assert APIClient().get(names_url("cup", 1)).status_code == 404
    client = APIClient()
    client.force_authenticate(staff(t)["organiser"])
    assert client.get(names_url("cup", 1)).status_code == 200
