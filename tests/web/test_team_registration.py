"""Registering and editing Tai Pan teams (issue 4 item 4): a late entry cannot join a round that was
played or paired already, a paired team keeps its first round, seed and first round start at 1."""
from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.draw import pairing
from scoring.models import Team
from tests.factories import TournamentFactory, closed_round, named_teams, staff

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


def closed_round_one(w):
    """Round 1 (A-B, C-D) played and closed."""
    a, b, c, d = w["teams"]
    return closed_round(w["t"], [(a, b), (c, d)], referee=w["ref"], confirmer=w["ref2"], organiser=w["org"])


def team_post(client, name, **extra):
    data = {"name": name, "affiliation": "", "first_player_name": f"{name} 1", "second_player_name": f"{name} 2",
            "seed": "", "joined_round": 1, "withdrawn_after_round": ""}
    data.update(extra)
    return client.post(reverse("scoring:team_create", args=["qa"]), data)


def test_late_entry_cannot_join_a_round_already_played_or_paired(client, world):
    closed_round_one(world)
    client.force_login(world["org"])
    r = team_post(client, "Late", joined_round=1)
    assert r.status_code == 200 and r.context["form"].errors["joined_round"]
    assert "join round 2 at the earliest" in r.content.decode()
    pairing.pair_next_round(world["t"], world["org"])  # round 2 paired (draft)
    r = team_post(client, "Late", joined_round=2)
    assert r.status_code == 200 and r.context["form"].errors["joined_round"]
    r = team_post(client, "Late", joined_round=3)
    assert r.status_code == 302 and Team.objects.get(name="Late").joined_round == 3


def test_editing_a_paired_team_keeps_its_first_round(client, world):
    closed_round_one(world)
    team = world["teams"][0]
    client.force_login(world["org"])
    url = reverse("scoring:team_edit", args=["qa", team.pk])
    data = {"name": "Team A renamed", "affiliation": "", "first_player_name": "Team A A",
            "second_player_name": "Team A B", "seed": "", "joined_round": 1, "withdrawn_after_round": ""}
    assert client.post(url, data).status_code == 302
    r = client.post(url, {**data, "joined_round": 3})
    assert r.status_code == 200 and r.context["form"].errors["joined_round"]
    assert Team.objects.get(pk=team.pk).joined_round == 1


@pytest.mark.parametrize("field", ["seed", "joined_round"])
def test_seed_and_joined_round_start_at_one(client, world, field):
    client.force_login(world["org"])
    r = team_post(client, "Zero", **{field: 0})
    assert r.status_code == 200 and r.context["form"].errors[field]
    assert not Team.objects.filter(name="Zero").exists()
