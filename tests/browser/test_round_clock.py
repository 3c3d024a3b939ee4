"""The round clock in a real browser (issue 23 item 1): the server's time is the truth, so two
pages (the projector and a phone whose own clock is five minutes fast) show the same remaining time
within a second, and again after a reload; the clock turns to its warning before the end and says
"Time's up" at zero; an announcement posted appears on the projector without a reload.

Screenshots (``var/screenshots``): ``clock-projector-1920``, ``clock-phone-360``, ``clock-warning-1366``."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone, translation

from scoring.hall import announcements, clock
from scoring.live.state import bump
from scoring.models import RoundClock
from tests.browser.conftest import LAPTOP, PHONE, PROJECTOR_HD, horizontal_overflow, shot
from tests.factories import staff, taipan_round

pytestmark = pytest.mark.django_db(transaction=True)

#: A phone whose clock runs five minutes fast (the script must correct for it).
FAST_PHONE = "(() => { const shift = 300000; const now = Date.now.bind(Date); Date.now = () => now() + shift; })();"


def remaining(page) -> float:
    page.wait_for_function("() => { const c = document.querySelector('[data-hall-clock]'); return c && c.dataset.offset !== undefined; }")
    return float(page.locator("[data-hall-clock]").get_attribute("data-remaining"))


@pytest.fixture
def running(settings):
    settings.LIVE_POLL_SECONDS = 1
    rnd, _ = taipan_round(tables=3, round_minutes=45, clock_warning_minutes=10, slug="hall")
    organiser = staff(rnd.tournament)["organiser"]
    clock.start(rnd, organiser, version=0)
    return rnd, organiser


def test_two_pages_show_the_same_remaining_time_within_a_second_and_after_a_reload(new_page, running):
    projector = new_page(viewport=PROJECTOR_HD)
    projector.goto(projector.base + reverse("scoring:round_pairings", args=["hall", 1]) + "?projector=1")
    phone = new_page(viewport=PHONE)
    phone.add_init_script(FAST_PHONE)
    phone.goto(phone.base + reverse("scoring:standings", args=["hall"]) + "?projector=1")
    for _ in range(2):
        first = remaining(projector)
        on_phone = remaining(phone)
        again = remaining(projector)
        assert first - 1 <= on_phone + 0 <= first + 1 and again - 1 <= on_phone <= first + 1, (first, on_phone, again)
        assert 44 * 60 < on_phone <= 45 * 60
        assert abs(float(phone.locator("[data-hall-clock]").get_attribute("data-offset")) + 300000) < 2000
        phone.reload()
        projector.reload()
    remaining(projector)  # the reloaded page has synced with the server (the text is the script's, not "45 minutes left")
    projector.wait_for_function("() => /^4\\d:/.test(document.querySelector('[data-hall-clock] [data-time]').textContent)")
    assert projector.locator("[data-hall-clock] [data-time]").inner_text().startswith("4")  # "44:5x"
    shot(projector, "clock-projector-1920")
    shot(phone, "clock-phone-360")
    assert horizontal_overflow(phone) == 0


def test_a_pause_shows_on_the_next_sync_and_the_warning_and_times_up_show_in_time(new_page, running):
    rnd, organiser = running
    page = new_page(viewport=LAPTOP)
    page.goto(page.base + reverse("scoring:round_pairings", args=["hall", 1]) + "?projector=1")
    remaining(page)
    c = RoundClock.objects.get(round=rnd)
    RoundClock.objects.filter(pk=c.pk).update(ends_at=timezone.now() + timedelta(minutes=9, seconds=30))
    page.reload()
    page.wait_for_selector("[data-hall-clock].warn")
    shot(page, "clock-warning-1366")
    RoundClock.objects.filter(pk=c.pk).update(ends_at=timezone.now() + timedelta(seconds=2), version=c.version + 1)
    bump(rnd.tournament_id, "hall")  # what the clock's services do with a change (a queryset update sends no signal)
    # The announcements' poll (every second here) brings the new version: read long before the 30 s sync.
    page.wait_for_selector("[data-hall-clock].up", timeout=12_000)
    with translation.override("nl"):  # the site's language
        assert page.locator("[data-hall-clock] [data-time]").inner_text() == translation.gettext("Time's up")
    announcements.post(rnd.tournament, organiser, text="Hand in your score sheets")
    page.wait_for_selector("text=Hand in your score sheets", timeout=10_000)


def test_an_organiser_adds_five_minutes_on_a_phone_and_the_projector_follows(new_page, running):
    rnd, organiser = running
    organiser.set_password("pw-Secret-123")
    organiser.save()
    projector = new_page(viewport=PROJECTOR_HD)
    projector.goto(projector.base + reverse("scoring:round_pairings", args=["hall", 1]) + "?projector=1")
    before = remaining(projector)
    phone = new_page(viewport=PHONE, user=organiser)
    phone.goto(phone.base + reverse("scoring:round_pairings", args=["hall", 1]))
    phone.locator("#clock-controls button", has_text="+5").click()
    phone.wait_for_load_state()
    assert RoundClock.objects.get(round=rnd).version == 2
    shot(phone, "clock-controls-360")
    projector.wait_for_function(f"() => parseFloat(document.querySelector('[data-hall-clock]').dataset.remaining) > {before + 200}",
                                timeout=12_000)
    assert horizontal_overflow(phone) == 0
    phone.locator("#clock-controls a[href$='/announcements/']").click()
    phone.fill("textarea[name=text]", "Table 3 moves to the side room")
    phone.fill("input[name=minutes]", "10")
    phone.locator("form.announcement-form button[type=submit]").click()
    phone.wait_for_selector(".announcements li.active")
    shot(phone, "announcements-360")
    assert horizontal_overflow(phone) == 0
    projector.wait_for_selector("text=Table 3 moves to the side room", timeout=10_000)
    phone.locator(".announcements li.active button").click()
    projector.wait_for_selector("text=Table 3 moves to the side room", state="detached", timeout=10_000)


def test_the_small_bar_on_a_phones_entry_page_stays_one_short_block(new_page, running):
    rnd, organiser = running
    referee = staff(rnd.tournament, organisers=0, referees=1)["referee"]
    referee.set_password("pw-Secret-123")
    referee.save()
    announcements.post(rnd.tournament, organiser, text="Lunch in the foyer at 12:30")
    match = rnd.matches.order_by("table").first()
    page = new_page(viewport=PHONE, user=referee)
    page.goto(page.base + reverse("scoring:match_enter", args=["hall", match.pk]))
    remaining(page)
    box = page.locator(".hall-bar").bounding_box()
    assert box["height"] <= 64, box  # the clock and one announcement: two short lines at most
    assert horizontal_overflow(page) == 0
    shot(page, "clock-entry-360")
