"""The hall bar's layout (issue 23 fixes B1, B2, B4): a 280-character announcement without a
space (a URL) wraps instead of widening the page, on a 360 px phone and on the projector; the
projector's clock and announcements are readable across the hall; the organiser's clock buttons
sit under the round's title, before the tables, and say nothing frozen about the time left; no
empty bar when there is no clock and no announcement.

Screenshots (``var/screenshots``): ``hall-long-announcement-projector-1920``,
``hall-long-announcement-round-360``, ``hall-long-announcement-page-360``, ``hall-draft-round-360``."""
from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.hall import announcements, clock
from scoring.models import ANNOUNCEMENT_MAX_LENGTH, Round
from tests.browser.conftest import PHONE, PROJECTOR_HD, horizontal_overflow, shot
from tests.factories import staff, taipan_round

pytestmark = pytest.mark.django_db(transaction=True)

#: 280 characters, no space: a long link pasted as an announcement.
LONG = ("https://example.org/" + "x" * ANNOUNCEMENT_MAX_LENGTH)[:ANNOUNCEMENT_MAX_LENGTH]
PASSWORD = "pw-Secret-123"


@pytest.fixture
def hall():
    rnd, _ = taipan_round(tables=8, round_minutes=45, slug="hall")
    organiser = staff(rnd.tournament)["organiser"]
    organiser.set_password(PASSWORD)
    organiser.save()
    clock.start(rnd, organiser, version=0)
    announcements.post(rnd.tournament, organiser, text=LONG)
    return rnd, organiser


def _px(page, selector: str, prop: str) -> float:
    return page.eval_on_selector(selector, f"e => parseFloat(getComputedStyle(e).{prop})")


def test_a_long_unbroken_announcement_wraps_on_the_projector_and_is_big(new_page, hall):
    projector = new_page(viewport=PROJECTOR_HD)
    projector.goto(projector.base + reverse("scoring:round_pairings", args=["hall", 1]) + "?projector=1")
    projector.wait_for_selector(".hall-news .announcement")
    assert LONG in projector.locator(".hall-news .announcement").inner_text().replace("\n", "")
    assert horizontal_overflow(projector) == 0
    # Readable across the hall: clock digits at least 8 % of the screen's height, announcements 2.2rem (35.2 px).
    assert _px(projector, "[data-hall-clock] [data-time]", "fontSize") >= 0.08 * PROJECTOR_HD["height"]
    assert _px(projector, ".hall-news .announcement", "fontSize") >= 2.2 * 16
    shot(projector, "hall-long-announcement-projector-1920")


def test_organiser_phone_pages_do_not_scroll_sideways_and_the_buttons_come_first(new_page, hall):
    rnd, organiser = hall
    phone = new_page(viewport=PHONE, user=organiser)
    phone.goto(phone.base + reverse("scoring:round_pairings", args=["hall", 1]))
    phone.wait_for_selector("#clock-controls")
    assert horizontal_overflow(phone) == 0
    controls = phone.locator("#clock-controls").bounding_box()
    tables = phone.locator("table.pairings").bounding_box()
    assert controls["y"] + controls["height"] <= tables["y"], (controls, tables)
    assert controls["y"] < PHONE["height"]  # in reach without scrolling
    # The running clock's time left is counted by the bar above, not frozen in the buttons' heading.
    heading = phone.locator("#clock-controls h2").inner_text()
    assert ":" in heading and not any(ch.isdigit() for ch in heading.split(":", 1)[1]), heading
    shot(phone, "hall-long-announcement-round-360")
    phone.goto(phone.base + reverse("scoring:announcements", args=["hall"]))
    phone.wait_for_selector(".announcements li.active")
    assert horizontal_overflow(phone) == 0
    shot(phone, "hall-long-announcement-page-360")


def test_no_empty_bar_without_clock_and_announcement(new_page, settings):
    settings.LIVE_POLL_SECONDS = 2  # the bar polls for announcements; a short interval keeps the wait short
    rnd, _ = taipan_round(tables=2, status=Round.Status.DRAFT, slug="quiet")
    organiser = staff(rnd.tournament)["organiser"]
    organiser.set_password(PASSWORD)
    organiser.save()
    phone = new_page(viewport=PHONE, user=organiser)
    phone.goto(phone.base + reverse("scoring:round_pairings", args=["quiet", 1]))
    bar = phone.locator(".hall-bar")
    assert bar.count() == 1  # still there, polling for an announcement
    assert bar.bounding_box()["height"] == 0
    shot(phone, "hall-draft-round-360")
    announcements.post(rnd.tournament, organiser, text="Pairings in five minutes")
    phone.wait_for_selector(".hall-bar .announcement", timeout=15_000)
    assert bar.bounding_box()["height"] > 10
