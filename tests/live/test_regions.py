"""The live regions of the pages (issue 25 item 2) carry what ``static/js/live.js`` needs: the
topics that refresh them, their tournament's event stream (only with ``LIVE_EVENTS``), the
polling fallback's interval, the coalescing delay, and ``hx-trigger="live-refresh"`` instead of
htmx's own timer."""
from __future__ import annotations

import re

import pytest
from django.template import Context, Template
from django.urls import reverse

from scoring.models import Round
from tests.links.conftest import build_link_world, open_link


@pytest.fixture
def world(db, settings):
    settings.LANGUAGE_CODE = "en"
    settings.LIVE_EVENTS = True
    settings.LIVE_POLL_SECONDS = 12
    return build_link_world()


def region(html: str, marker: str) -> dict:
    """The attributes of the opening tag that contains ``marker`` and ``data-live-topics``."""
    for tag in re.findall(r"<(?:div|section)\b[^>]*>", html):
        if marker in tag and "data-live-topics" in tag:
            return dict(re.findall(r'([\w-]+)="([^"]*)"', tag))
    raise AssertionError(f"no live region with {marker!r}")


def expect(attrs: dict, topics: str, delay: str, poll: str = "12", events: str | None = "/events/tp/") -> None:
    assert attrs["hx-trigger"] == "live-refresh"
    assert attrs["data-live-topics"] == topics
    assert attrs["data-live-delay"] == delay and attrs["data-live-poll"] == poll
    assert attrs.get("data-live-events") == events


def test_standings_and_projector(client, world):
    url = reverse("scoring:standings", args=["tp"])
    for path in (url, url + "?projector=1"):
        expect(region(client.get(path).content.decode(), 'id="live"'), "standings tournament", "30")


def test_round_page_and_result_page(client, world):
    html = client.get(reverse("scoring:round_pairings", args=["tp", 1])).content.decode()
    expect(region(html, 'id="live"'), "tournament entrants round:1", "20")
    html = client.get(reverse("scoring:match_detail", args=["tp", world.match.pk])).content.decode()
    expect(region(html, 'id="live"'), f"tournament result:{world.match.pk}", "0", poll="10")


def test_progress_board_and_its_hall_news(client, world):
    client.force_login(world.organiser)
    html = client.get(reverse("scoring:round_board", args=["tp", 1])).content.decode()
    expect(region(html, 'id="live"'), "tournament hall result:* round:1", "2")
    expect(region(html, 'class="hall-news"'), "hall tournament", "0")


def test_link_page_follows_its_own_table(client, world):
    open_link(client, world.token("Alpha"))
    html = client.get(reverse("scoring:entrant_home", args=["tp"])).content.decode()
    expect(region(html, 'id="current"'), f"tournament entrants round:1 result:{world.match.pk}", "0")


def test_my_tables_follows_each_tournament(client, world):
    Round.objects.filter(tournament=world.sc).update(status=Round.Status.CLOSED)
    client.force_login(world.referee)
    html = client.get(reverse("scoring:my_tables")).content.decode()
    expect(region(html, f'id="my-{world.tp.pk}"'), "tournament hall result:* round:1", "3")
    mine = region(html, f'id="my-{world.tp.pk}"')
    assert mine["hx-get"] == reverse("scoring:my_tables") and mine["hx-select"] == f"#my-{world.tp.pk}"
    expect(region(html, f'id="my-{world.sc.pk}"'), "tournament", "3", events="/events/sc/")


def test_without_events_the_regions_poll(client, world, settings):
    settings.LIVE_EVENTS = False
    html = client.get(reverse("scoring:standings", args=["tp"])).content.decode()
    expect(region(html, 'id="live"'), "standings tournament", "30", events=None)


def test_the_tag_escapes_and_adds_round_and_result(world):
    html = Template('{% load live %}<div {% live_attrs t "a<b" round=3 result=9 poll=5 delay=2.5 %}>').render(
        Context({"t": world.tp}))
    assert html == ('<div hx-trigger="live-refresh" data-live-topics="a&lt;b round:3 result:9" data-live-poll="5" '
                    'data-live-delay="2.5" data-live-events="/events/tp/">')
