"""Time's up is called once per round and stops the round's clock (fixes of issue 23, group A:
A1, A2, A5): a second call after it was applied is refused (the stored call is kept, the board no
longer offers it), calling sets the clock to end at the grace's end (or now), and the
confirmation lists a four-player table's players."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.urls import reverse
from django.utils import timezone

from scoring.errors import NotAllowed
from scoring.hall import clock, times_up
from scoring.models import RoundClock, TimesUp
from scoring.results import sheet
from tests.hall.helpers import RECORDS, hall_round

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


@pytest.mark.parametrize("grace", [0, 1])
def test_calling_again_after_it_was_applied_is_refused_and_the_call_is_kept(grace):
    rnd, (m1, m2), people = hall_round("match", tables=2)
    organiser = people["organiser"]
    times_up.call(rnd, organiser, grace_minutes=grace)
    if grace:
        assert times_up.apply(rnd, organiser) == [1, 2]
    kept = TimesUp.objects.get(round=rnd)
    assert kept.applied and kept.ended == [1, 2]
    with pytest.raises(NotAllowed, match="already called for round 1 and applied at"):
        times_up.call(rnd, organiser, grace_minutes=5)
    again = TimesUp.objects.get(round=rnd)
    assert (again.called_at, again.grace_minutes, again.applied_at, again.ended) == (
        kept.called_at, kept.grace_minutes, kept.applied_at, [1, 2])


def test_api_answers_409_to_a_second_call_after_apply():
    from tests.api.conftest import client_for, issue_token

    rnd, _cs, people = hall_round("match", tables=2)
    api = client_for(issue_token(people["organiser"]))
    url = reverse("api:times-up", kwargs={"slug": rnd.tournament.slug, "number": rnd.number})
    assert api.post(url, {"grace_minutes": 1}, format="json").status_code == 200
    apply_url = reverse("api:times-up-apply", kwargs={"slug": rnd.tournament.slug, "number": rnd.number})
    assert api.post(apply_url, format="json").json() == {"ended": [1, 2]}
    again = api.post(url, {"grace_minutes": 5}, format="json")
    assert again.status_code == 409 and again.json()["code"] == "conflict"
    assert "already called" in again.json()["errors"][0]["message"]
    state = api.get(url).json()["call"]
    assert state["grace_minutes"] == 1 and state["applied_at"] and state["ended"] == [1, 2]


def test_board_and_times_up_page_offer_no_second_call_once_applied(client):
    rnd, _cs, people = hall_round("match", tables=2)
    client.force_login(people["organiser"])
    slug = rnd.tournament.slug
    page = reverse("scoring:round_times_up", args=[slug, 1])
    client.post(page, {"grace_minutes": 0})
    board = client.get(reverse("scoring:round_board", args=[slug, 1])).content.decode()
    assert page not in board and "finish the hand in play" not in board
    assert "2 tables ended at the time limit." in board
    html = client.get(page).content.decode()
    assert 'id="times-up-called"' in html and "times-up-form" not in html


def test_without_grace_the_clock_shows_times_up_at_once():
    rnd, _cs, people = hall_round("match", tables=1)
    organiser = people["organiser"]
    before = clock.start(rnd, organiser, version=0).version
    times_up.call(rnd, organiser)
    c = RoundClock.objects.get(round=rnd)
    state = clock.state(c)
    assert state["times_up"] and state["remaining"] == 0 and c.version == before + 1


@pytest.mark.parametrize("start", ["idle", "running", "paused"])
def test_with_grace_the_clock_runs_to_the_grace_end(start):
    rnd, _cs, people = hall_round("match", tables=1)
    organiser = people["organiser"]
    if start != "idle":
        clock.start(rnd, organiser, version=0)
    if start == "paused":
        clock.pause(rnd, organiser, version=1)
    call = times_up.call(rnd, organiser, grace_minutes=3)
    c = RoundClock.objects.get(round=rnd)
    assert c.status == c.Status.RUNNING and c.ends_at == call.grace_until
    assert not clock.state(c)["times_up"]
    assert clock.state(c, call.grace_until + timedelta(seconds=1))["times_up"]
    assert 170 < clock.state(c, timezone.now())["remaining"] <= 180


def test_the_clock_endpoint_says_times_up_after_the_call(client):
    rnd, _cs, people = hall_round("match", tables=1)
    clock.start(rnd, people["organiser"], version=0)
    times_up.call(rnd, people["organiser"])
    data = client.get(reverse("scoring:hall_clock", args=[rnd.tournament.slug])).json()
    assert data["times_up"] and data["remaining"] == 0


def test_the_confirmation_lists_a_four_player_tables_players(client):
    rnd, (t1,), people = hall_round("table", tables=1)
    sheet.add_record(t1, RECORDS["table"][0], people["referee"])
    client.force_login(people["organiser"])
    html = client.get(reverse("scoring:round_times_up", args=[rnd.tournament.slug, 1])).content.decode()
    names = [s.player.name for s in t1.seats.order_by("seat")]
    item = html[html.index('id="times-up-1"'):]
    item = item[:item.index("</li>")]
    assert "Table 1</strong> · " + ", ".join(names) in item
    assert item.count("Table 1") == 1
    assert [p.title for p in times_up.preview(rnd)] == [", ".join(names)]
