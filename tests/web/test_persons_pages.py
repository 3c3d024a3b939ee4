"""The organiser's "People to check" page and its decisions (issue 26, docs/players.md): the query
count does not grow with the number of people, the decisions need the organiser and CSRF, "Not
the same person" on an entry's page."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import DistinctPersons, Membership, Player
from scoring.participants import persons
from tests.factories import MembershipFactory, TeamFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def here():
    t = TournamentFactory(slug="here", name="Here Cup")
    user = UserFactory(username="org")
    MembershipFactory(tournament=t, user=user, role=Membership.Role.ORGANISER)
    for i in range(4):
        TeamFactory(tournament=t, first_player=persons.create_player(t, f"Anna{i} de Vries"),
                    second_player=persons.create_player(t, f"Bram{i} Jansen"))
    return t, user


def _add_others(n: int) -> None:
    others = [TournamentFactory() for _ in range(max(1, n // 4))]
    for i in range(n):
        persons.create_player(others[i % len(others)], f"Anna{i % 4} Vries")


def _review_queries(client, url) -> tuple[int, str]:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200
    return len(ctx.captured_queries), response.content.decode()


def test_the_review_page_reads_the_same_queries_for_more_people(client, here):
    t, user = here
    client.force_login(user)
    url = reverse("scoring:persons_review", args=[t.slug])
    _add_others(4)
    small, page = _review_queries(client, url)
    assert "Anna0 Vries" in page and "Anna0 de Vries" in page
    _add_others(40)
    large, page = _review_queries(client, url)
    assert large == small, (small, large)
    assert page.count('name="decision" value="same"') == 4 * 44  # "anna0 vries" and "anna1 vries": ratio 0.91
    detail = client.get(reverse("scoring:tournament_detail", args=[t.slug])).content.decode()
    assert url in detail  # linked from the organiser's menu


def test_decisions_need_csrf_and_the_organiser(here):
    t, user = here
    entry = Player.objects.filter(tournament=t).order_by("pk").first()
    other = persons.create_player(TournamentFactory(), entry.name)
    data = {"here": entry.person_id, "other": other.person_id, "decision": "same"}
    url = reverse("scoring:persons_decide", args=[t.slug])
    strict = Client(enforce_csrf_checks=True)
    strict.force_login(user)
    assert strict.post(url, data).status_code == 403
    referee = UserFactory()
    MembershipFactory(tournament=t, user=referee, role=Membership.Role.REFEREE)
    client = Client()
    client.force_login(referee)
    assert client.post(url, data).status_code == 403
    assert Player.objects.get(pk=entry.pk).person_id == entry.person_id
    client.force_login(user)
    assert client.post(url, data).status_code == 302
    assert Player.objects.get(pk=entry.pk).person_id == other.person_id


def test_a_refused_decision_is_told_and_changes_nothing(client, here):
    t, user = here
    a, b = Player.objects.filter(tournament=t).order_by("pk")[:2]
    client.force_login(user)
    response = client.post(reverse("scoring:persons_decide", args=[t.slug]),
                           {"here": a.person_id, "other": b.person_id, "decision": "same"}, follow=True)
    assert "twice in this tournament" in response.content.decode() or "twee keer" in response.content.decode()
    assert Player.objects.get(pk=a.pk).person_id != Player.objects.get(pk=b.pk).person_id


def test_not_the_same_person_on_the_team_page(client, here):
    t, user = here
    team = t.teams.order_by("pk").first()
    entry = team.first_player
    elsewhere = persons.create_player(TournamentFactory(), entry.name)
    persons.same_person(t, user, entry.person_id, elsewhere.person_id)
    client.force_login(user)
    page = client.get(reverse("scoring:team_edit", args=[t.slug, team.pk])).content.decode()
    split_url = reverse("scoring:person_split", args=[t.slug, entry.pk])
    assert split_url in page
    response = client.post(split_url)
    assert response.status_code == 302 and response["Location"] == reverse("scoring:team_edit", args=[t.slug, team.pk])
    assert Player.objects.get(pk=entry.pk).person_id != elsewhere.person_id
    assert DistinctPersons.objects.count() == 1
    assert split_url not in client.get(reverse("scoring:team_edit", args=[t.slug, team.pk])).content.decode()


def test_the_team_form_sets_numbers_and_public_names(client, here):
    t, user = here
    team = t.teams.order_by("pk").first()
    known = persons.create_player(TournamentFactory(), "Anna de Vries", federation_number="NL1")
    client.force_login(user)
    data = {"name": team.name, "first_player_name": team.first_player.name, "second_player_name": team.second_player.name,
            "first_player_number": "nl1", "first_player_public": "short", "second_player_public": "", "joined_round": "1"}
    response = client.post(reverse("scoring:team_edit", args=[t.slug, team.pk]), data)
    assert response.status_code == 302, response.content.decode()[:2000]
    first = Player.objects.get(pk=team.first_player_id)
    assert first.person_id == known.person_id and first.federation_number == "NL1" and first.public_name == "short"
