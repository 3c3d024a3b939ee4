"""People across tournaments, the tester's findings (issue 26): a federation number is shown only
to an organiser of a tournament whose entry carries it (review page, review API, entries API,
people API); typing someone else's number neither renames their person nor links a person with
another name; numbers keep letters and digits only; "Not the same person" is not offered on an
entry with a number; the import help names the number columns."""
from __future__ import annotations

import pytest
from django.test import Client
from django.utils.translation import gettext

from scoring.errors import ServiceError
from scoring.io import entrants_csv, tournament_json
from scoring.models import Person, Player
from scoring.participants import persons
from scoring.participants.entrants import clean_number
from scoring.web.forms.organiser import PlayerForm, TeamForm
from tests.api.conftest import api_url, client_for, issue_token
from tests.factories import TournamentFactory, UserFactory, organiser_of

pytestmark = pytest.mark.django_db
# As the pages say it (Dutch by default): the refusal of a number of someone with another name.
MISMATCH = gettext("This federation number belongs to someone with another name; check the number.")


@pytest.fixture
def world():
    """Sanne Willems (NL1001) entered in "home"; "away" (another organiser) has Sanne Willens
    without a number, a look-alike."""
    home, away = TournamentFactory(slug="home"), TournamentFactory(slug="away")
    sanne = persons.create_player(home, "Sanne Willems", federation_number="NL 1001")
    look = persons.create_player(away, "Sanne Willens")
    return home, away, sanne, look, organiser_of(home), organiser_of(away)


def _api(user):
    return client_for(issue_token(user))


# --- 1: who sees a federation number ---------------------------------------------------------

def test_visible_numbers_rule(world):
    home, away, sanne, look, home_org, away_org = world
    staff = UserFactory(is_staff=True)
    assert persons.visible_numbers(home_org, ["NL1001", "X9"]) == {"NL1001"}
    assert persons.visible_numbers(away_org, ["NL1001"]) == set()
    assert persons.visible_numbers(staff, ["NL1001"]) == {"NL1001"}
    assert persons.visible_numbers(None, ["NL1001"]) == set()


def test_review_page_and_api_hide_the_other_sides_number(world):
    home, away, sanne, look, home_org, away_org = world
    web = Client()
    web.force_login(away_org)
    page = web.get("/t/away/people/").content.decode()
    assert "Sanne Willems" in page and "NL1001" not in page
    assert gettext("has a federation number") in page
    rows = _api(away_org).get(api_url("people-review", "away")).json()
    assert len(rows) == 1 and rows[0]["other"]["name"] == "Sanne Willems"
    assert rows[0]["other"]["federation_number"] is None and rows[0]["other"]["has_number"] is True
    # the organiser of "home", whose entry carries the number, sees it on their own list
    persons.create_player(home, "Sanne Wilems")
    rows = _api(home_org).get(api_url("people-review", "home")).json()
    numbers = {side["name"]: side["federation_number"] for r in rows for side in (r["here"], r["other"])}
    assert numbers["Sanne Willems"] == "NL1001"


def test_after_same_person_the_number_stays_hidden(world):
    home, away, sanne, look, home_org, away_org = world
    persons.same_person(away, away_org, look.person_id, sanne.person_id)
    look.refresh_from_db()
    assert look.person_id == sanne.person_id and look.federation_number == ""
    client = _api(away_org)
    entries = client.get(api_url("entry-list", "away")).json()
    assert [e["federation_number"] for e in entries] == [""]
    person = client.get(api_url("person-detail", sanne.person_id)).json()
    assert "federation_number" not in person
    assert _api(home_org).get(api_url("person-detail", sanne.person_id)).json()["federation_number"] == "NL1001"
    # editing the joined entry (no number before, none now) keeps the join
    form = PlayerForm(data={"name": "Sanne Willens", "joined_round": "1", "federation_number": ""}, instance=look)
    assert form.is_valid(), form.errors
    assert form.save().person_id == sanne.person_id


# --- 2: someone else's number ----------------------------------------------------------------

def test_api_refuses_the_number_of_someone_with_another_name(world):
    home, away, sanne, look, home_org, away_org = world
    kim = persons.create_player(away, "Kim Vos")
    r = _api(away_org).patch(api_url("entry-detail", "away", kim.pk), {"federation_number": "NL 1001"}, format="json")
    assert r.status_code == 400
    assert r.json()["errors"] == [{"field": "federation_number", "message": MISMATCH}]
    kim.refresh_from_db()
    assert kim.person_id != sanne.person_id and kim.federation_number == ""
    assert Person.objects.get(pk=sanne.person_id).name == "Sanne Willems"


def test_a_look_alike_number_links_without_renaming(world):
    home, away, sanne, look, home_org, away_org = world
    r = _api(away_org).patch(api_url("entry-detail", "away", look.pk), {"federation_number": "nl-1001"}, format="json")
    assert r.status_code == 200, r.content
    assert r.json()["person_id"] == sanne.person_id and r.json()["federation_number"] == "NL1001"
    assert Person.objects.get(pk=sanne.person_id).name == "Sanne Willems"
    # the other tournament's review list and the profile keep the name
    persons.create_player(home, "Sanne Wilems")
    names = {r["other"]["name"] for r in _api(home_org).get(api_url("people-review", "home")).json()}
    assert "Sanne Willens" not in names
    assert _api(home_org).get(api_url("person-detail", sanne.person_id)).json()["name"] == "Sanne Willems"
    assert "Sanne Willens" not in Client().get(f"/people/{sanne.person_id}/").content.decode()


def test_forms_and_imports_refuse_the_number_of_someone_with_another_name(world):
    home, away, sanne, look, home_org, away_org = world
    form = PlayerForm(data={"name": "Kim Vos", "joined_round": "1", "federation_number": "NL1001"},
                      instance=Player(tournament=away))
    assert not form.is_valid() and form.errors["federation_number"] == [MISMATCH]
    teams = TournamentFactory(slug="teams")
    form = TeamForm(data={"name": "T", "first_player_name": "Kim Vos", "second_player_name": "Bo",
                          "first_player_number": "NL1001", "joined_round": "1"}, tournament=teams)
    assert not form.is_valid() and form.errors["first_player_number"] == [MISMATCH]
    report = entrants_csv.import_players_csv(away, b"name,federation_number\nKim Vos,NL1001\n")
    assert [(line, msg) for line, _col, msg in report.errors] == [(2, MISMATCH)]
    report = entrants_csv.import_teams_csv(teams, b"name,player1,player2,number2\nT,Bo,Kim Vos,NL1001\n")
    assert [(line, msg) for line, _col, msg in report.errors] == [(2, MISMATCH)]
    with pytest.raises(ServiceError):
        persons.create_player(away, "Kim Vos", federation_number="NL1001")
    assert Person.objects.get(pk=sanne.person_id).name == "Sanne Willems"


def test_json_import_refuses_the_number_of_someone_with_another_name(world):
    home, away, sanne, look, home_org, away_org = world
    other = TournamentFactory(slug="other", game="sichuan")
    persons.create_player(other, "Kim Vos", federation_number="KV1")
    data = tournament_json.export_tournament(other)
    data["slug"] = "copy"
    Person.objects.filter(federation_number="KV1").update(name="Piet Bakker")
    with pytest.raises(tournament_json.ImportRefused) as refused:
        tournament_json.import_tournament(data)
    assert MISMATCH in str(refused.value.errors)


# --- 3, 5, 6 ----------------------------------------------------------------------------------

@pytest.mark.parametrize("raw", ["nl-2002", "nl 2002", "NL.2002", " NL2002 ", "nl/20 02", "ＮＬ２００２"])
def test_numbers_keep_letters_and_digits_only(raw):
    assert clean_number(raw) == "NL2002"


def test_not_the_same_person_is_not_offered_on_an_entry_with_a_number(world):
    home, away, sanne, look, home_org, away_org = world
    solo = TournamentFactory(slug="solo", game="sichuan")
    user = organiser_of(solo)
    numbered = persons.create_player(solo, "Sanne Willems", federation_number="NL1001")
    plain = persons.create_player(solo, "Sanne Willens")
    persons.same_person(away, away_org, look.person_id, plain.person_id)  # plain's person: two entries
    web = Client()
    web.force_login(user)
    for entry, offered in ((numbered, False), (plain, True)):
        page = web.get(f"/t/solo/players/{entry.pk}/edit/").content.decode()
        assert "is joined with entries in other tournaments" in page or "toernooien" in page
        assert (f"/t/solo/players/{entry.pk}/split/" in page) is offered
    with pytest.raises(ServiceError):
        persons.split(solo, user, numbered.pk)
    assert web.post(f"/t/solo/players/{numbered.pk}/split/").status_code == 302
    assert Player.objects.get(pk=numbered.pk).person_id == sanne.person_id


def test_import_pages_name_the_number_columns():
    teams, players = TournamentFactory(slug="tt"), TournamentFactory(slug="pp", game="sichuan")
    web = Client()
    web.force_login(organiser_of(teams, players))
    teams_page = web.get("/t/tt/teams/import/").content.decode()
    assert "number1" in teams_page and "number2" in teams_page
    assert "federation_number" in web.get("/t/pp/players/import/").content.decode()


def test_renaming_an_entry_cannot_carry_someone_elses_number(world):
    """Second test round: an entry took Sanne's number under a look-alike name (allowed), then was
    renamed to someone else keeping the number. The rename is refused; Sanne's person keeps her
    name and gains no results of another name."""
    home, away, sanne, look, home_org, away_org = world
    look.federation_number = "NL1001"
    persons.link(look)
    assert look.person_id == sanne.person_id  # a look-alike: joined
    look.name = "Mallory Evil"
    with pytest.raises(ServiceError) as refused:
        persons.link(look, was="NL1001")
    assert refused.value.field == "federation_number"
    assert Person.objects.get(pk=sanne.person_id).name == "Sanne Willems"
    # A person of one entry only follows a rename, number and all.
    solo = persons.create_player(home, "Piet Puck", federation_number="NL77")
    solo.name = "Piet Pukkel"
    persons.link(solo, was="NL77")
    assert Person.objects.get(pk=solo.person_id).name == "Piet Pukkel"
