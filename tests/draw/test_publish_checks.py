"""Publishing a drafted Tai Pan round refuses an unsound pairing (issue 4 item 1): a double
booking, a withdrawn team, a team not entered yet or a present team left out stop it whatever the
organiser ticks; a rematch or a second bye (against the NSKT rules) only with "Publish anyway"."""
from __future__ import annotations

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import translation

from scoring.draw import pairing, rounds
from scoring.models import Round
from tests.factories import RoundFactory, TournamentFactory, closed_round, named_teams, staff

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    """Messages are asserted in English (Dutch is the site default)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def world():
    """The "QA Cup" (slug ``qa``): Teams A-D, an organiser and two referees."""
    t = TournamentFactory(name="QA Cup", slug="qa")
    people = staff(t)
    return {"t": t, "teams": named_teams(t, [f"Team {c}" for c in "ABCD"]), "org": people["organiser"],
            "ref": people["referees"][0], "ref2": people["referees"][1]}


def texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def closed_round_one(w, pairs=((0, 1), (2, 3)), bye=None) -> Round:
    """Round 1 played and closed: NS wins 800:0 at every table."""
    teams = w["teams"]
    return closed_round(w["t"], [(teams[a], teams[b]) for a, b in pairs], referee=w["ref"], confirmer=w["ref2"],
                        organiser=w["org"], bye=teams[bye] if bye is not None else None)


def draft(w, number, pairs) -> Round:
    rnd = RoundFactory(tournament=w["t"], number=number, status=Round.Status.DRAFT)
    pairing.set_draft_pairing(rnd, [(w["teams"][a].pk, w["teams"][b].pk if b is not None else None) for a, b in pairs], w["org"])
    return rnd


def publish(client, rnd, **data):
    return client.post(reverse("scoring:round_publish", args=[rnd.tournament.slug, rnd.number]), data, follow=True)


def test_publish_refuses_a_double_booking_even_when_confirmed(client, world):
    rnd = draft(world, 1, [(0, 1), (0, 2), (3, None)])  # Team A at two tables
    client.force_login(world["org"])
    for data in ({}, {"publish_anyway": "1"}):
        r = publish(client, rnd, **data)
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
        joined = " ".join(texts(r))
        assert "cannot be published" in joined and "Double booking: Team A is at more than one table." in joined


def test_publish_refuses_a_withdrawn_team(client, world):
    world["teams"][3].withdrawn_after_round = 0
    world["teams"][3].save()
    rnd = draft(world, 1, [(0, 1), (2, 3)])
    client.force_login(world["org"])
    r = publish(client, rnd, publish_anyway="1")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    assert "Team D is not present in this round (withdrawn, not checked in or not joined yet)." in " ".join(texts(r))


def test_publish_refuses_a_team_not_entered_yet_and_a_missing_team(client, world):
    world["teams"][3].joined_round = 2
    world["teams"][3].save()
    (e,) = named_teams(world["t"], ["Team E"])
    rnd = draft(world, 1, [(0, 1), (2, 3)])  # D joins in round 2; E (present) left out
    client.force_login(world["org"])
    r = publish(client, rnd)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    joined = " ".join(texts(r))
    assert "Team D is not present in this round (withdrawn, not checked in or not joined yet)." in joined
    assert f"Missing: {e.name} is not paired." in joined


def test_rematch_needs_the_publish_anyway_box(client, world):
    closed_round_one(world)  # A-B, C-D
    rnd = draft(world, 2, [(0, 1), (2, 3)])  # the same tables again
    client.force_login(world["org"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 2])).content.decode()
    assert 'name="publish_anyway"' in page
    r = publish(client, rnd)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    joined = " ".join(texts(r))
    assert "Rematch: Team A - Team B have already played each other." in joined and "Publish anyway" in joined
    r = publish(client, rnd, publish_anyway="1")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert "Round 2 published." in texts(r)


def test_second_bye_needs_the_publish_anyway_box(world):
    world["teams"] += named_teams(world["t"], ["Team E"])
    closed_round_one(world, pairs=((0, 1), (2, 3)), bye=4)  # E had the bye
    rnd = draft(world, 2, [(0, 2), (1, 3), (4, None)])
    with pytest.raises(rounds.PublishRefused) as err:
        rounds.publish_round(rnd, world["org"])
    assert err.value.needs_confirmation
    assert err.value.problems == ["Second bye: Team E has already had a bye."]
    rounds.publish_round(rnd, world["org"], accept_warnings=True)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED


def test_clean_draft_publishes_without_the_box(client, world):
    rnd = draft(world, 1, [(0, 1), (2, 3)])
    client.force_login(world["org"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    assert 'name="publish_anyway"' not in page
    publish(client, rnd)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
