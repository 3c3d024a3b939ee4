"""The standings on a phone in a real browser (issue 25 item 4): at 360×740 a phone (its client
hint says so) gets the top 10 and its own team's neighbourhood as cards, with gap rows, and
nothing scrolls sideways; the full table is one tap away; a desktop at 1366×768 gets the full
table. Screenshots: ``var/screenshots/standings-compact-phone.png``, ``standings-full-phone.png``,
``standings-full-1366.png``."""
from __future__ import annotations

import pytest
from django.urls import reverse

from tests.browser.conftest import LAPTOP, PHONE, horizontal_overflow, shot
from tests.factories import played_taipan_tournament

pytestmark = pytest.mark.django_db(transaction=True)


def test_compact_standings_fit_a_phone_and_open_the_full_table(new_page):
    t = played_taipan_tournament(60, 3, slug="big", name="NSKT kampioenschap 2026", rules={"preset": "nskt"})
    own = t.teams.get(name="Team 041")
    url = reverse("scoring:standings", args=[t.slug])
    page = new_page(PHONE)
    page.set_extra_http_headers({"Sec-CH-UA-Mobile": "?1"})
    page.goto(page.base + url + f"?team={own.pk}")
    table = page.locator("table.standings.compact")
    assert table.locator("tbody tr:not(.gap)").count() == 17  # the top 10, 3 + own + 3
    assert table.locator("tbody tr.gap").count() == 2
    assert table.locator("tr.mine td.c-name").inner_text().startswith("Team 041")
    assert horizontal_overflow(page) == 0
    mine = table.locator("tr.mine").bounding_box()
    assert mine["x"] >= 0 and mine["x"] + mine["width"] <= PHONE["width"]
    shot(page, "standings-compact-phone")
    page.get_by_role("link", name="Toon de volledige stand").or_(page.get_by_role("link", name="Show the full standings")).click()
    page.wait_for_load_state()
    assert page.locator("table.standings.lean tbody tr").count() == 60
    assert horizontal_overflow(page) == 0  # the full table scrolls inside its box, not the page
    shot(page, "standings-full-phone")

    desktop = new_page(LAPTOP)
    desktop.goto(desktop.base + url)  # Chromium says Sec-CH-UA-Mobile: ?0
    assert desktop.locator("table.standings.lean tbody tr").count() == 60
    assert horizontal_overflow(desktop) == 0
    shot(desktop, "standings-full-1366")
    desktop.goto(desktop.base + url + f"?all=0&team={own.pk}")  # a desktop asking for the compact view
    assert desktop.locator("table.standings.compact tbody tr.mine").count() == 1
    assert horizontal_overflow(desktop) == 0
    shot(desktop, "standings-compact-1366")
