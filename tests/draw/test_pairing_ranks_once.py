"""Pairing a round ranks the teams once (issue 13 item 3): the pairing, the draft's warnings on the
round page and the checks when it is published read the standings of the rounds before from the
cache, whose key ignores draft rounds (:mod:`scoring.standings.cache`). Publishing the draft
changes the key: the new round's results count from then on."""
from __future__ import annotations

import uuid

import pytest
from django.core.cache import caches
from django.urls import reverse

from scoring.draw import pairing, rounds
from scoring.models import Round, Tournament
from scoring.policy import SYSTEM
from scoring.standings import cache as standings_cache
from scoring.standings import teams
from tests.factories import TeamFactory, TournamentFactory, confirm_round, staff

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}}
    assert type(caches["default"]).__name__ == "LocMemCache"


@pytest.fixture
def rankings(monkeypatch):
    """Counts the standings computed (:func:`scoring.standings.teams.standings` calls)."""
    calls = []
    real = teams.standings

    def counted(tournament, **kwargs):
        calls.append(kwargs.get("through_round"))
        return real(tournament, **kwargs)

    monkeypatch.setattr(teams, "standings", counted)
    return calls


def test_pair_show_and_publish_rank_once(client, rankings):
    t = TournamentFactory(seed=3)
    for i in range(10):
        TeamFactory(tournament=t, name=f"Team {i:02d}")
    crew = staff(t)
    first = pairing.pair_next_round(t, SYSTEM)
    rounds.publish_round(first, SYSTEM)
    confirm_round(first, *crew["referees"])
    rounds.close_round(first, SYSTEM)
    rankings.clear()

    key_before = standings_cache.state_key(Tournament.objects.get(pk=t.pk), "teams", 1)
    second = pairing.pair_next_round(t, SYSTEM)
    assert second.status == Round.Status.DRAFT
    assert standings_cache.state_key(Tournament.objects.get(pk=t.pk), "teams", 1) == key_before  # the draft is left out
    client.force_login(crew["organiser"])
    page = client.get(reverse("scoring:round_pairings", args=[t.slug, second.number]))
    assert page.status_code == 200
    rounds.publish_round(second, SYSTEM)
    assert rankings == [1], "the standings after round 1 were computed once"
    assert standings_cache.state_key(Tournament.objects.get(pk=t.pk), "teams", 1) != key_before  # published: counts now
