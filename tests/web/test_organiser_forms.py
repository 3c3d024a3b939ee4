"""Organiser forms of issue 11 item 9: round 1 drawn random or by seed as chosen on the pair
page, a draft paired again from the same page, the members form defaulting to referee, the
tournament form filling the slug from the name (organiser.js; the server still validates)."""
import pytest
from django.urls import reverse

from scoring.draw import pairing
from scoring.models import Membership
from scoring.policy import SYSTEM
from tests.factories import TournamentFactory, named_teams, staff

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def cup():
    t = TournamentFactory(name="Cup", slug="cup", seed=3)
    teams = named_teams(t, ["A", "B", "C", "D"])
    for i, team in enumerate(teams, start=1):
        team.seed = i if i < 4 else None  # D has no seed: "silently random" was the complaint
        team.save()
    return t, staff(t)


def pairs(rnd):
    return [(m.team_ns.name, m.team_ew.name) for m in rnd.matches.order_by("table")]


def test_round_one_asks_random_or_by_seed(client, cup):
    t, people = cup
    client.force_login(people["organiser"])
    page = client.get(reverse("scoring:round_pair", args=["cup"])).content.decode()
    assert 'name="method" value="random"' in page and 'name="method" value="seeded"' in page
    assert "4 teams are present, 3 with a seed number." in page
    assert "checked" not in page.split('id="fs-method"', 1)[1].split("</fieldset>", 1)[0]  # nothing chosen for them
    r = client.post(reverse("scoring:round_pair", args=["cup"]), {"method": "seeded"})
    assert r.status_code == 302
    rnd = t.rounds.get(number=1)
    assert pairs(rnd) == [("A", "C"), ("B", "D")]
    assert {m.pairing_reason["template"] for m in rnd.matches.all()} == {"Round 1: by seed numbers"}


def test_a_draft_is_paired_again_from_the_pair_page(client, cup):
    t, people = cup
    rnd = pairing.pair_next_round(t, SYSTEM, method="random")
    client.force_login(people["organiser"])
    edit = client.get(reverse("scoring:round_edit", args=["cup", 1])).content.decode()
    assert reverse("scoring:round_pair", args=["cup"]) in edit
    page = client.get(reverse("scoring:round_pair", args=["cup"])).content.decode()
    assert "Pair round 1 again" in page and 'name="again"' in page
    r = client.post(reverse("scoring:round_pair", args=["cup"]), {"again": "1", "method": "seeded"})
    assert r.status_code == 302 and r["Location"] == reverse("scoring:round_pairings", args=["cup", 1])
    assert t.rounds.count() == 1
    rnd.refresh_from_db()
    assert pairs(rnd) == [("A", "C"), ("B", "D")]


def test_the_members_form_defaults_to_referee(client, cup):
    t, people = cup
    client.force_login(people["organiser"])
    page = client.get(reverse("scoring:members", args=["cup"])).content.decode()
    add = page.split('name="role"', 1)[1].split("</select>", 1)[0]
    assert f'value="{Membership.Role.REFEREE}" selected' in add


def test_the_tournament_form_fills_the_slug_from_the_name(client):
    from tests.factories import UserFactory

    client.force_login(UserFactory(is_staff=True))
    page = client.get(reverse("scoring:tournament_create")).content.decode()
    assert 'data-slug-from="id_name"' in page and "js/organiser.js" in page
