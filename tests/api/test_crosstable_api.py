"""The cross table (public) and the federation export (organisers only) in the API (docs/api.md
"Cross table" and "Federation export"): the same numbers as the page, public names on the
public endpoint, full names and federation numbers for organisers only, answers valid against
the OpenAPI schema.

Scores (rules): NSKT, N's Grand Tai Pan with a double victory of NS is 400 : 0; two reach the
target 800, so NS wins 800 : 0 and takes 2 match points (docs/engines/taipan.md).
"""
from __future__ import annotations

import pytest
from openapi_schema_validator import OAS30Validator
from rest_framework.test import APIClient

from scoring.models import Membership
from scoring.models.persons import PublicNames
from tests.api.conftest import api_url, client_for, issue_token
from tests.factories import (
    GRAND_DOUBLE_VICTORY_NS,
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    play,
    staff,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    """Teams "North" (Anna de Vries NL-1, Bram Jansen) and "South"; short public names; North beat
    South 800 : 0 in round 1; round 2 published, North - South not played yet."""
    t = TournamentFactory(slug="ct-api", public_names=PublicNames.SHORT)
    people = staff(t)
    north = TeamFactory(tournament=t, name="North",
                        first_player=PlayerFactory(tournament=t, name="Anna de Vries", federation_number="NL-1"),
                        second_player=PlayerFactory(tournament=t, name="Bram Jansen"))
    south = TeamFactory(tournament=t, name="South")
    play(MatchFactory(round=RoundFactory(tournament=t, number=1), table=1, team_ns=north, team_ew=south),
         [GRAND_DOUBLE_VICTORY_NS] * 2, people["referees"][0], confirmer=people["referees"][1])
    MatchFactory(round=RoundFactory(tournament=t, number=2), table=1, team_ns=south, team_ew=north)
    return t, people


def validator(component: str) -> OAS30Validator:
    spec = APIClient().get("/api/schema/", {"format": "json"}).json()
    return OAS30Validator({"$ref": f"#/components/schemas/{component}", "components": spec["components"]})


def test_cross_table_is_public_with_public_names(world):
    t, _people = world
    r = APIClient().get(api_url("crosstable", t.slug))
    assert r.status_code == 200
    data = r.json()
    validator("CrossTable").validate(data)
    assert (data["tournament"], data["entrants"], data["rounds"]) == ("ct-api", "teams", [1, 2])
    assert data["columns"][0] == {"key": "match_points", "label": "Match points"}
    north, south = data["rows"]
    assert (north["number"], north["rank"], north["name"], north["players"]) == (1, 1, "North", ["Anna V.", "Bram J."])
    assert north["totals"]["match_points"] == 2 and north["totals"]["points_scored"] == 800
    first = north["cells"][0]
    assert (first["state"], first["opponents"], first["side"], first["outcome"], first["points"], first["scored"],
            first["conceded"], first["text"]) == ("played", [2], "NS", "W", 2, 800, 0, "2 NS W 800-0")
    assert south["cells"][0]["text"] == "1 EW L 0-800"
    assert (first["side_key"], south["cells"][0]["side_key"]) == ("NS", "EW")
    second = north["cells"][1]
    assert (second["state"], second["side"], second["outcome"], second["scored"], second["text"]) == (
        "pending", "EW", "", None, "2 EW")
    assert "Anna de Vries" not in r.content.decode()


def test_federation_export_needs_an_organiser(world):
    t, people = world
    url = api_url("federation-export", t.slug)
    assert APIClient().get(url).status_code == 401
    assert client_for(issue_token(people["referee"])).get(url).status_code == 403
    assert client_for(issue_token(people["outsider"])).get(url).status_code == 403
    elsewhere = MembershipFactory(tournament=TournamentFactory(), role=Membership.Role.ORGANISER).user
    assert client_for(issue_token(elsewhere)).get(url).status_code == 403


def test_federation_export_for_the_organiser(world):
    t, people = world
    r = client_for(issue_token(people["organiser"])).get(api_url("federation-export", t.slug))
    assert r.status_code == 200 and "no-store" in r["Cache-Control"]
    data = r.json()
    validator("FederationExport").validate(data)
    north = data["rows"][0]
    assert north["players"] == [{"name": "Anna de Vries", "federation_number": "NL1"},
                                {"name": "Bram Jansen", "federation_number": ""}]
    assert (north["rank"], north["name"], north["totals"]["match_points"]) == (1, "North", 2)
    assert north["rounds"] == [{"round": 1, "opponent": "South", "result": "W 800-0"},
                               {"round": 2, "opponent": "South", "result": ""}]


def test_a_round_not_played_is_a_cell_of_state_none(world):
    t, _people = world
    idle = TeamFactory(tournament=t, name="Idle")
    data = APIClient().get(api_url("crosstable", t.slug)).json()
    validator("CrossTable").validate(data)
    row = next(r for r in data["rows"] if r["entrant_id"] == idle.pk)
    assert [c["state"] for c in row["cells"]] == ["none", "none"]
    assert [c["round"] for c in row["cells"]] == [1, 2]


@pytest.mark.parametrize(("game", "keys"), [("sichuan", ["E", "S", "W", "N"]), ("tiengow", ["0", "1", "2", "3"])])
def test_a_four_player_cell_has_a_stable_side_key_next_to_the_localised_label(game, keys):
    # Issue 26, tester: "side" is the seat's label in the request's language ("Oost"); "side_key"
    # is the game's side key (the tournament's "sides": docs/api.md) and "seat" its index.
    t = TournamentFactory(game=game)
    table = TableFactory(round=RoundFactory(tournament=t, number=1), number=1)
    seats = {s.player_id: s.seat for s in table.seats.all()}
    r = APIClient().get(api_url("crosstable", t.slug), HTTP_ACCEPT_LANGUAGE="nl")
    data = r.json()
    validator("CrossTable").validate(data)
    cells = {row["entrant_id"]: row["cells"][0] for row in data["rows"]}
    assert {seats[pk]: (c["seat"], c["side_key"]) for pk, c in cells.items()} == {i: (i, keys[i]) for i in range(4)}
    dutch = {"sichuan": "Oost", "tiengow": "Plaats 1"}[game]
    east = next(c for c in cells.values() if c["seat"] == 0)
    assert (east["side"], east["side_key"]) == (dutch, keys[0])
    english = APIClient().get(api_url("crosstable", t.slug), HTTP_ACCEPT_LANGUAGE="en").json()
    east = next(row["cells"][0] for row in english["rows"] if row["cells"][0]["seat"] == 0)
    assert (east["side"], east["side_key"]) == ({"sichuan": "East", "tiengow": "Seat 1"}[game], keys[0])
