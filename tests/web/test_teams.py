"""Team pages of a Tai Pan tournament: register (two players), edit, withdraw, delete a team never
paired, the team list's fixed query count and the all-or-nothing CSV import (issue 2 item 9,
issue 4 items 1 and 6). Who may use them: ``tests/web/test_permissions.py``."""
from __future__ import annotations

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from scoring.models import Membership, Player, Round, Team
from tests.factories import MembershipFactory, TeamFactory, TournamentFactory, round_of_teams

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_register_team_creates_two_players(client, cup):
    t = cup.tournament
    client.force_login(cup.organiser)
    response = client.post(reverse("scoring:team_create", args=[t.slug]), {
        "name": "De Draken", "affiliation": "Utrecht", "first_player_name": "Anna", "second_player_name": "Bart",
        "seed": "3", "joined_round": "2"})
    assert response.status_code == 302
    team = Team.objects.get(tournament=t, name="De Draken")
    assert team.player_names == "Anna & Bart" and team.joined_round == 2 and team.seed == 3
    assert team.first_player.tournament == t and team.first_player.affiliation == "Utrecht"


def test_team_form_errors_next_to_field_and_input_kept(client, cup):
    t = cup.tournament
    client.force_login(cup.organiser)
    response = client.post(reverse("scoring:team_create", args=[t.slug]), {
        "name": "team 1", "first_player_name": "Anna", "second_player_name": "anna", "joined_round": "1"})
    assert response.status_code == 200
    errors = response.context["form"].errors
    assert "name" in errors and "second_player_name" in errors
    page = response.content.decode()
    assert 'id="id_name_errors"' in page and 'id="id_second_player_name_errors"' in page
    assert 'value="team 1"' in page and 'value="Anna"' in page
    assert t.teams.count() == 4


def test_edit_and_withdraw_team(client, cup):
    t = cup.tournament
    team = t.teams.get(name="Team 1")
    client.force_login(cup.organiser)
    url = reverse("scoring:team_edit", args=[t.slug, team.pk])
    response = client.post(url, {"name": "Team One", "first_player_name": "X", "second_player_name": "Y", "joined_round": "1"})
    assert response.status_code == 302
    client.get(response["Location"])  # shows (and clears) the message
    team.refresh_from_db()
    assert team.name == "Team One" and team.player_names == "X & Y"
    round_of_teams(t, 1, status=Round.Status.CLOSED)
    round_of_teams(t, 2, status=Round.Status.CLOSED)
    round_of_teams(t, 3)  # a draft still pairing the team: not played, so it withdraws after round 2
    response = client.post(url, {"action": "withdraw"}, follow=True)
    team.refresh_from_db()
    assert team.withdrawn_after_round == 2
    assert [m.level_tag for m in response.context["messages"]] == ["success", "warning"]
    page = client.get(reverse("scoring:team_list", args=[t.slug])).content.decode()
    assert "Team One" in page and "X &amp; Y" in page


def test_delete_team_only_when_never_paired(client, cup):
    t = cup.tournament
    client.force_login(cup.organiser)
    paired = t.teams.get(name="Team 0")
    round_of_teams(t)  # pairs Team 0 - Team 1, Team 2 - Team 3
    spare = TeamFactory(tournament=t, name="Spare")  # registered after the pairing: never paired
    response = client.post(reverse("scoring:team_edit", args=[t.slug, paired.pk]), {"action": "delete"}, follow=True)
    assert Team.objects.filter(pk=paired.pk).exists()
    assert [m.level_tag for m in response.context["messages"]] == ["error"]
    players = [spare.first_player_id, spare.second_player_id]
    client.post(reverse("scoring:team_edit", args=[t.slug, spare.pk]), {"action": "delete"})
    assert not Team.objects.filter(pk=spare.pk).exists()
    assert not Player.objects.filter(pk__in=players).exists()


def test_team_list_query_count_does_not_grow(client, cup, django_assert_max_num_queries):
    t = cup.tournament
    client.force_login(cup.organiser)
    url = reverse("scoring:team_list", args=[t.slug])
    client.get(url)
    for i in range(30):
        TeamFactory(tournament=t, name=f"Extra {i:02d}")
    with django_assert_max_num_queries(8):
        assert client.get(url).status_code == 200


CSV_OK = "name,player1,player2,affiliation,seed\nDe Draken,Anna,Bart,Utrecht,1\nDe Feniksen,Cor,Dirk,Leiden,2\n"
CSV_BAD = "name,player1,player2,affiliation,seed\nDe Draken,Anna,Bart,Utrecht,1\nDe Feniksen,,Dirk,Leiden,x\n"


def test_teams_csv_import(client, cup):
    t = cup.tournament
    client.force_login(cup.organiser)
    url = reverse("scoring:teams_import", args=[t.slug])
    response = client.post(url, {"file": SimpleUploadedFile("teams.csv", CSV_BAD.encode(), content_type="text/csv")})
    assert response.status_code == 200
    assert t.teams.count() == 4  # nothing imported
    errors = response.context["report_errors"]
    assert errors and all(str(e["row"]) for e in errors)
    assert {str(e["row"]) for e in errors} == {"3"} or {str(e["row"]) for e in errors} == {"2"}  # the bad data row
    response = client.post(url, {"file": SimpleUploadedFile("teams.csv", CSV_OK.encode(), content_type="text/csv")})
    assert response.status_code == 302
    assert set(t.teams.values_list("name", flat=True)) >= {"De Draken", "De Feniksen"}


def test_team_pages_of_a_four_player_tournament_redirect(client):
    t = TournamentFactory(name="Mahjong", slug="mj", game="sichuan")
    organiser = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER).user
    client.force_login(organiser)
    response = client.get(reverse("scoring:team_list", args=[t.slug]))
    assert response.status_code == 302 and response["Location"] == reverse("scoring:players", args=[t.slug])
    assert client.post(reverse("scoring:round_pair", args=[t.slug])).status_code == 302
    assert not t.rounds.exists()
