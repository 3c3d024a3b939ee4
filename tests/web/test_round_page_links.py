"""Links on a round's page (issue 2 item 6): the referee's entry links only while results can be
entered, and "pair the next round" only on the latest round, for Tai Pan and four-player rounds."""
from __future__ import annotations

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.draw import pairing
from scoring.models import Round
from tests.factories import TournamentFactory, closed_round, named_teams, staff, table_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(settings):
    """Texts are asserted in English (Dutch is the site default)."""
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
    a, b, c, d = w["teams"]
    return closed_round(w["t"], [(a, b), (c, d)], referee=w["ref"], confirmer=w["ref2"], organiser=w["org"])


def test_closed_round_has_no_enter_hands_links(client, world):
    rnd = closed_round_one(world)
    client.force_login(world["ref"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    assert "Team A" in page and "800 – 0" in page  # the round's matches and results are listed
    assert "Enter hands" not in page
    # while the round is open the same page offers the entry pages
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.IN_PROGRESS)
    for m in rnd.matches.all():
        type(m).objects.filter(pk=m.pk).update(status="finished")
    page = client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    assert page.count("Enter hands") == 2
    for m in rnd.matches.all():
        assert reverse("scoring:match_enter", args=["qa", m.pk]) in page


def test_pair_next_round_only_on_the_latest_round(client, world):
    closed_round_one(world)
    client.force_login(world["org"])
    pair_url = reverse("scoring:round_pair", args=["qa"])
    assert pair_url in client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    pairing.pair_next_round(world["t"], world["org"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    assert pair_url not in page and "Round 2 has been paired already." in page


def test_four_player_round_lists_its_tables_with_entry_links(client):
    rnd, tables = table_round("sichuan", tables=2, names=["Anna", "Bart", "Cees", "Dirk"])
    people = staff(rnd.tournament)
    url = reverse("scoring:round_tables", args=[rnd.tournament.slug, 1])
    page = client.get(url).content.decode()
    for name in ("Anna", "Bart", "Cees", "Dirk"):
        assert name in page
    assert "Enter deals" not in page  # the public has no entry links
    client.force_login(people["referee"])
    page = client.get(url).content.decode()
    assert page.count("Enter deals") == 2
    for table in tables:
        assert reverse("scoring:table_enter", args=[rnd.tournament.slug, table.pk]) in page
