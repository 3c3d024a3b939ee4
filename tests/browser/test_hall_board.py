"""The hall pages in the browser (issue 23 items 2, 4, 5) at 360×740 and 1366×768: the progress
board fits the phone, updates by itself when a hand is entered, and one tap opens the table; the
organiser calls time's up through its confirmation step; a referee claims a table on "Mijn
tafels", whose own tables come first. Screenshots: ``var/screenshots/hall-*.png``."""
from __future__ import annotations

import pytest

from scoring.hall import calls, zones
from scoring.models import ResultContainer
from scoring.results import sheet
from tests.browser.conftest import LAPTOP, PHONE, horizontal_overflow, shot
from tests.hall.helpers import RECORDS, hall_round

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]


@pytest.mark.parametrize(("kind", "viewport"), [("match", PHONE), ("table", LAPTOP)])
def test_board_updates_itself_and_opens_a_table(new_page, settings, kind, viewport):
    settings.LIVE_POLL_SECONDS = 1
    rnd, cs, people = hall_round(kind, tables=6)
    sheet.add_record(cs[0], RECORDS[kind][0], people["referee"])
    calls.call(cs[4], people["referee"])
    zones.set_zone(rnd, people["referees"][1], "1-3", people["organiser"])
    page = new_page(viewport=viewport, user=people["organiser"])
    page.goto(f"{page.base}/t/{rnd.tournament.slug}/round/1/board/")
    rows = page.locator(".board-row")
    assert rows.count() == 6
    assert rows.first.get_attribute("id") == "board-table-5"  # the call for a referee first
    assert horizontal_overflow(page) == 0
    shot(page, f"hall-board-{kind}-{viewport['width']}")
    sheet.add_record(cs[1], RECORDS[kind][1], people["referee"])
    page.locator("#board-table-2.state-playing").wait_for(timeout=10_000)
    page.locator("#board-table-2 a.board-open").click()
    page.wait_for_load_state()
    assert f"/{kind}/{cs[1].pk}/" in page.url


def test_times_up_through_its_confirmation_step(new_page):
    rnd, cs, people = hall_round("match", tables=3)
    sheet.add_record(cs[0], RECORDS["match"][0], people["referee"])
    page = new_page(viewport=PHONE, user=people["organiser"])
    page.goto(f"{page.base}/t/{rnd.tournament.slug}/round/1/board/")
    page.locator(".board-actions a.btn").click()
    page.wait_for_load_state()
    assert page.locator(".times-up-list li").count() == 3
    assert horizontal_overflow(page) == 0
    shot(page, "hall-times-up-360")
    page.locator(".times-up-form button[type=submit]").click()
    page.wait_for_load_state()
    assert "/board/" in page.url
    assert all(c.status == ResultContainer.Status.FINISHED for c in type(cs[0]).objects.filter(round=rnd))
    shot(page, "hall-board-after-times-up-360")


def test_my_tables_puts_the_zone_first_and_claims(new_page):
    rnd, cs, people = hall_round("table", tables=5)
    anna = people["referee"]
    zones.set_zone(rnd, anna, "4-5", people["organiser"])
    page = new_page(viewport=PHONE, user=anna)
    page.goto(f"{page.base}/mijn-tafels/")
    assert page.locator(".my-tables.mine li").count() == 2
    assert not page.locator("details.my-tables-rest").evaluate("d => d.open")
    assert horizontal_overflow(page) == 0
    shot(page, "hall-my-tables-360")
    page.locator("details.my-tables-rest summary").click()
    page.locator("#my-table-1 form button").click()
    page.wait_for_load_state()
    assert page.locator(".my-tables.mine li").count() == 3


def test_zones_page_on_a_phone(new_page):
    rnd, _cs, people = hall_round("match", tables=12)
    page = new_page(viewport=PHONE, user=people["organiser"])
    page.goto(f"{page.base}/t/{rnd.tournament.slug}/round/1/zones/")
    form = page.locator(f"#zone-{people['referee'].pk}")
    # The "take over" label is the tap target (at least 44 px high) and ticks the box.
    label = form.locator(".take-over label")
    assert label.bounding_box()["height"] >= 44
    label.click()
    assert form.locator("input[type=checkbox]").is_checked()
    form.locator("input[name$=tables]").fill("1-6, 13")
    form.locator("button[type=submit]").click()
    page.wait_for_load_state()
    assert page.locator(".errorlist").count() >= 1
    assert horizontal_overflow(page) == 0
    shot(page, "hall-zones-error-360")


def test_a_hand_refused_by_times_up_shows_the_banner_at_the_top_on_a_phone(new_page):
    """Fix A3 of issue 23: the referee types a hand, the organiser calls time's up, the referee
    taps Save: the refusal is the one banner at the top of the page, in view without scrolling,
    and the typed hand is kept below it, not saved."""
    from scoring.hall import times_up
    from scoring.kinds import kind_of

    rnd, (match,), people = hall_round("match", tables=1)
    sheet.add_record(match, RECORDS["match"][0], people["referee"])
    page = new_page(viewport=PHONE, user=people["referee"])
    from django.urls import reverse

    page.goto(page.base + reverse(kind_of(match).url_name("enter"), args=[rnd.tournament.slug, match.pk]))
    page.click("label[for=id_first_out_3]")  # S
    page.fill("#id_card_points_ns", "60")
    times_up.call(rnd, people["organiser"])
    page.click("#save")
    page.wait_for_load_state()
    banner = page.locator("#entry-errors")
    assert "De tijd is om voor deze ronde" in banner.inner_text() or "Time is up" in banner.inner_text()
    box = banner.bounding_box()
    assert box["y"] + box["height"] <= PHONE["height"]
    assert page.locator("[role=alert]:visible").count() == 1
    kept = page.locator("#kept-input")
    assert kept.locator("#id_card_points_ns").input_value() == "60" and kept.locator("#id_first_out_3").is_checked()
    assert horizontal_overflow(page) == 0
    assert len(kind_of(match).records(match)) == 1
    shot(page, "hall-entry-times-up-refused-360")
