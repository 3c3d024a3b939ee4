"""The hall on the pages (issue 23 items 1 and 6; :mod:`scoring.web.views.hall`): the hall bar (clock
and announcements) big on the projector views, small on the entry pages and the private-link page,
absent elsewhere; ``clock.json`` with the server's time, never cached; the announcements region
polled with ETags; the organisers' clock buttons on the round page and the announcements page."""
from __future__ import annotations

import re
from datetime import timedelta

import pytest
from django.template import Context, Template
from django.test import RequestFactory
from django.urls import reverse
from django.utils import timezone

from scoring.hall import announcements, clock
from scoring.models import Announcement, RoundClock
from tests.links.conftest import build_link_world, open_link

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    return build_link_world()


def u(name, *args):
    return reverse(f"scoring:{name}", args=list(args))


def bars(html: str) -> list[str]:
    return re.findall(r'<aside class="hall-bar( big)?"', html)


def test_the_projector_views_show_a_big_clock_and_the_announcements(client, world):
    announcements.post(world.tp, world.organiser, text="Lunch at 12:30")
    clock.start(world.match.round, world.organiser, version=0)
    for url in (u("round_pairings", "tp", 1) + "?projector=1", u("standings", "tp") + "?projector=1"):
        html = client.get(url).content.decode()
        assert bars(html) == [" big"], url
        assert "Lunch at 12:30" in html and 'data-status="running"' in html
        assert "90 minutes left" in html  # without JavaScript: the minutes left at render time


def test_plain_public_pages_have_no_hall_bar(client, world):
    announcements.post(world.tp, world.organiser, text="Lunch at 12:30")
    for url in (u("round_pairings", "tp", 1), u("standings", "tp"), u("tournament_detail", "tp")):
        assert bars(client.get(url).content.decode()) == [], url


def test_entry_pages_and_the_private_link_page_show_a_small_bar(client, world):
    announcements.post(world.tp, world.organiser, text="Phones on silent")
    client.force_login(world.referee)
    html = client.get(u("match_enter", "tp", world.match.pk)).content.decode()
    assert bars(html) == [""] and "Phones on silent" in html and "Not started" in html
    client.logout()
    open_link(client, world.token("Alpha"))
    html = client.get(u("entrant_home", "tp")).content.decode()
    assert bars(html) == [""] and "Phones on silent" in html


def test_the_tag_shows_one_bar_per_tournament_of_hall_tournaments(world):
    announcements.post(world.sc, world.organiser, text="Sichuan players to hall B")
    request = RequestFactory().get("/mijn-tafels/")
    html = Template("{% load hall %}{% hall_bar %}").render(Context({"hall_tournaments": [world.tp, world.sc],
                                                                      "request": request}))
    assert bars(html) == ["", ""]
    assert "Tai Pan Cup" in html and "Sichuan Open" in html and "Sichuan players to hall B" in html


def test_expired_and_withdrawn_announcements_are_not_shown(client, world):
    a = announcements.post(world.tp, world.organiser, text="Gone soon", ends_at=timezone.now() + timedelta(minutes=5))
    b = announcements.post(world.tp, world.organiser, text="Withdrawn")
    announcements.withdraw(b, world.organiser)
    url = u("hall_news", "tp")
    assert "Gone soon" in client.get(url).content.decode()
    Announcement.objects.filter(pk=a.pk).update(ends_at=timezone.now() - timedelta(seconds=1))
    html = client.get(url).content.decode()
    assert "Gone soon" not in html and "Withdrawn" not in html


def test_clock_json_gives_the_servers_time_and_is_never_cached(client, world):
    c = clock.start(world.match.round, world.organiser, version=0)
    before = timezone.now()
    r = client.get(u("hall_clock", "tp"))
    data = r.json()
    assert r["Cache-Control"] == "no-store"
    assert data["status"] == "running" and data["round"] == 1 and data["version"] == c.version
    assert abs(data["server_ms"] / 1000 - before.timestamp()) < 2
    assert abs(data["remaining"] - (c.ends_at - before).total_seconds()) < 2
    assert client.get(u("hall_clock", "sc")).json()["status"] == "idle"


def test_clock_json_without_a_current_round_says_none(client):
    from tests.factories import TournamentFactory

    TournamentFactory(slug="empty")
    assert client.get(u("hall_clock", "empty")).json()["status"] == "none"


def test_the_announcements_poll_is_304_until_something_changes(client, world):
    url = u("hall_news", "tp")
    first = client.get(url, HTTP_HX_REQUEST="true")
    assert first.status_code == 200
    etag = first["ETag"]
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
    announcements.post(world.tp, world.organiser, text="New")
    again = client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag)
    assert again.status_code == 200 and "New" in again.content.decode()
    etag = again["ETag"]
    clock.start(world.match.round, world.organiser, version=0)  # the clock's version is in the region
    assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_organisers_work_the_clock_from_the_round_page_with_the_version_they_saw(client, world):
    client.force_login(world.organiser)
    page = client.get(u("round_pairings", "tp", 1)).content.decode()
    assert "Start clock" in page and 'name="version" value="0"' in page
    r = client.post(u("round_clock", "tp", 1, "start"), {"version": "0"}, follow=True)
    assert "Clock started." in r.content.decode()
    assert RoundClock.objects.get(round=world.match.round).status == "running"
    r = client.post(u("round_clock", "tp", 1, "extend"), {"version": "0", "minutes": "5"}, follow=True)
    assert "changed by someone else" in r.content.decode()
    r = client.post(u("round_clock", "tp", 1, "extend"), {"version": "1", "minutes": "5"}, follow=True)
    assert "Clock changed." in r.content.decode() and "Pause clock" in r.content.decode()
    assert RoundClock.objects.get(round=world.match.round).version == 2


def test_referees_see_no_clock_buttons_and_cannot_post_them(client, world):
    client.force_login(world.referee)
    assert "Start clock" not in client.get(u("round_pairings", "tp", 1)).content.decode()
    assert client.post(u("round_clock", "tp", 1, "start"), {"version": "0"}).status_code == 403
    assert client.post(u("announcements", "tp"), {"text": "Hi"}).status_code == 403
    assert not RoundClock.objects.exists() and not Announcement.objects.exists()


def test_an_unknown_clock_action_is_404(client, world):
    client.force_login(world.organiser)
    assert client.post(u("round_clock", "tp", 1, "explode"), {"version": "0"}).status_code == 404


def test_the_announcements_page_posts_and_withdraws(client, world):
    client.force_login(world.organiser)
    r = client.post(u("announcements", "tp"), {"text": "Coffee in the hall", "minutes": "15"}, follow=True)
    assert "Announcement posted." in r.content.decode()
    (a,) = announcements.active(world.tp)
    assert timedelta(minutes=14) < a.ends_at - timezone.now() <= timedelta(minutes=15)
    r = client.post(u("announcements", "tp"), {"text": "x" * 281})
    assert r.status_code == 200 and "at most 280 characters" in r.content.decode()
    r = client.post(u("announcement_withdraw", "tp", a.pk), follow=True)
    assert "Announcement withdrawn." in r.content.decode() and announcements.active(world.tp) == []


def test_the_tournament_form_keeps_the_clock_settings(client, world):
    from scoring.web.forms.organiser import TournamentForm

    form = TournamentForm(instance=world.tp)
    assert "round_minutes" in form.fields and "clock_warning_minutes" in form.fields
    data = {"name": "Tai Pan Cup", "slug": "tp", "game": "taipan", "round_format": "target", "seed": 0,
            "round_minutes": 75, "clock_warning_minutes": 0}
    form = TournamentForm(data, instance=world.tp)
    form.is_valid()
    assert form.cleaned_data["round_minutes"] == 75 and form.cleaned_data["clock_warning_minutes"] == 0
    form = TournamentForm({**data, "round_minutes": 0}, instance=world.tp)
    assert not form.is_valid() and "round_minutes" in form.errors


def test_a_hall_bar_costs_two_queries_and_an_unchanged_poll_two(client, world, django_assert_num_queries):
    from scoring.web.views.hall import bar_item

    for i in range(5):
        announcements.post(world.tp, world.organiser, text=f"Note {i}")
    clock.start(world.match.round, world.organiser, version=0)
    with django_assert_num_queries(2):  # the current round with its clock, the announcements
        item = bar_item(world.tp)
    assert len(item["news"]) == 5 and item["clock"]["status"] == "running"
    url = u("hall_news", "tp")
    etag = client.get(url, HTTP_HX_REQUEST="true")["ETag"]
    with django_assert_num_queries(2):  # the tournament with its counters, the announcements' ids
        assert client.get(url, HTTP_HX_REQUEST="true", HTTP_IF_NONE_MATCH=etag).status_code == 304
