"""Players of a four-player tournament (issue 6 item 4): a name once per tournament, joined round
and withdrawal within real rounds, a seat seed within bounds, and a new tournament asks for its
players next."""
import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import Player, Round
from tests.factories import PlayerFactory, TournamentFactory, UserFactory, staff
from tests.web.entry_data import NAMES

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english(settings):
    """These tests read English messages; Dutch is the site default (tests/test_i18n.py)."""
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def four():
    """A Taiwanese tournament and its organiser."""
    t = TournamentFactory(name="Taiwanese cup", slug="tw-cup", game="taiwanese")
    return t, staff(t)["organiser"]


def test_same_name_twice_is_refused(client, four):
    t, organiser = four
    client.force_login(organiser)
    url = reverse("scoring:players", args=[t.slug])
    assert client.post(url, {"name": "Anna", "joined_round": 1}).status_code == 302
    r = client.post(url, {"name": " anna ", "joined_round": 1})
    assert r.status_code == 400 and "name" in r.context["form"].errors
    assert "already registered" in r.content.decode() and 'id="id_name_errors"' in r.content.decode()
    assert Player.objects.filter(tournament=t).count() == 1
    # the same name in another tournament is fine; editing a player keeps their own name
    PlayerFactory(tournament=TournamentFactory(name="Other", slug="other", game="taiwanese"), name="Bart")
    assert client.post(url, {"name": "Bart", "joined_round": 1}).status_code == 302
    anna = Player.objects.get(tournament=t, name="Anna")
    edit = reverse("scoring:player_edit", args=[t.slug, anna.pk])
    assert client.post(edit, {"name": "Anna", "affiliation": "Leiden", "joined_round": 1}).status_code == 302
    r = client.post(edit, {"name": "BART", "joined_round": 1})
    assert r.status_code == 400 and "name" in r.context["form"].errors


@pytest.mark.parametrize("joined", ["0", "-1", "1000"])
def test_joined_round_must_be_a_real_round(client, four, joined):
    t, organiser = four
    client.force_login(organiser)
    r = client.post(reverse("scoring:players", args=[t.slug]), {"name": "Eva", "joined_round": joined})
    assert r.status_code == 400 and "joined_round" in r.context["form"].errors
    assert not Player.objects.filter(tournament=t).exists()


def test_withdrawal_bounds(client, four):
    t, organiser = four
    client.force_login(organiser)
    anna = PlayerFactory(tournament=t, name="Anna")
    late = PlayerFactory(tournament=t, name="Late", joined_round=3)
    url = lambda p: reverse("scoring:player_withdraw", args=[t.slug, p.pk])  # noqa: E731
    # there is no round 0
    r = client.post(url(anna), {"after_round": 0})
    assert r.status_code == 400 and "after_round" in r.context["withdraw"].errors
    anna.refresh_from_db()
    assert anna.withdrawn_after_round is None
    # a late entrant (round 3) may withdraw after round 2 (before their first round), not after round 1
    r = client.post(url(late), {"after_round": 1})
    assert r.status_code == 400 and "joins in round 3" in r.content.decode()
    assert client.post(url(late), {"after_round": 2}).status_code == 302
    late.refresh_from_db()
    assert late.withdrawn_after_round == 2
    # and then cannot be moved to join after the withdrawal
    r = client.post(reverse("scoring:player_edit", args=[t.slug, late.pk]), {"name": "Late", "joined_round": 4})
    assert r.status_code == 400 and "joined_round" in r.context["form"].errors
    # reinstating needs no valid round
    assert client.post(url(late), {"after_round": 0, "reinstate": "on"}).status_code == 302
    late.refresh_from_db()
    assert late.withdrawn_after_round is None


@pytest.fixture
def sichuan_cup():
    t = TournamentFactory(name="Sichuan cup", slug="sichuan-cup", game="sichuan")
    for name in NAMES:
        PlayerFactory(tournament=t, name=name)
    return t, staff(t)["organiser"]


@pytest.mark.parametrize("seed", ["99999999999999999999999", str(2**31), "-1"])
def test_seat_seed_out_of_range_is_a_field_error(client, sichuan_cup, seed):
    t, organiser = sichuan_cup
    client.force_login(organiser)
    r = client.post(reverse("scoring:round_seat", args=[t.slug]), {"seed": seed})
    assert r.status_code == 400
    assert "seed" in r.context["form"].errors
    assert 'id="id_seed_errors"' in r.content.decode()  # next to the field
    assert not Round.objects.filter(tournament=t).exists()


def test_seat_seed_at_the_bound_seats(client, sichuan_cup):
    t, organiser = sichuan_cup
    client.force_login(organiser)
    r = client.post(reverse("scoring:round_seat", args=[t.slug]), {"seed": str(2**31 - 1)})
    assert r.status_code == 302
    assert Round.objects.get(tournament=t).seed == 2**31 - 1


def test_four_player_tournament_created_asks_for_players(client):
    client.force_login(UserFactory(username="staff", is_staff=True))
    data = {"name": "Tien Gow open", "slug": "tg-open", "game": "tiengow", "rules_preset": "", "rules_overrides": "",
            "round_format": "time_limit", "hands_per_round": "", "seed": "7", "venue": "", "starts_on": "",
            "tiebreak_1": "", "tiebreak_2": ""}
    r = client.post(reverse("scoring:tournament_create"), data, follow=True)
    assert r.status_code == 200, r.content.decode()[:2000]
    texts = [str(m) for m in r.context["messages"]]
    assert texts == ["Tournament created. Register the players next."]
