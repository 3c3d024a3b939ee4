"""The season ranking in a browser (issue 26 item 3): on a phone (360x740) the page does not
scroll sideways (the wide table scrolls in its own box), and the projector view pages its rows."""
from __future__ import annotations

import pytest

from tests.browser.conftest import horizontal_overflow, shot
from tests.seasons.helpers import finished_with_places, person, season

pytestmark = pytest.mark.django_db(transaction=True)


def _world():
    people = [person(f"Speler {i:02d} de Tester") for i in range(30)]
    ts = [finished_with_places({p: (i + k) % 30 + 1 for i, p in enumerate(people)}, name=f"Toernooi {k}",
                               starts_on=f"2026-0{k + 1}-01") for k in range(5)]
    return season(ts, best_n=3, name="Seizoen 2026")


def test_season_page_on_a_phone_and_projector(new_page):
    _world()
    page = new_page(viewport={"width": 360, "height": 740}, mobile=True)
    page.goto(page.base + "/seasons/s1/")
    assert page.locator("table.season tbody tr").count() == 30
    assert horizontal_overflow(page) == 0
    assert page.locator("td.dropped").count() == 60  # 5 results each, best 3 count
    shot(page, "season-phone")
    big = new_page(viewport={"width": 1280, "height": 720})
    big.goto(big.base + "/seasons/s1/?projector=1")
    big.wait_for_function("() => document.querySelectorAll('table.paged tbody tr.off').length > 0")
    visible = big.locator("table.paged tbody tr:not(.off)").count()
    assert 0 < visible < 30
    assert big.evaluate("() => document.documentElement.scrollHeight <= document.documentElement.clientHeight")
    shot(big, "season-projector")
