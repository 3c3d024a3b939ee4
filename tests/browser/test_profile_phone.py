"""The player profile on a phone (issue 26 item 2): at 360×740 nothing scrolls sideways, the bar
charts are drawn and visible, every chart's numbers are in its table. Screenshot:
``<tmp>/profile-phone.png`` (looked at by hand, never committed)."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.conftest import PHONE, horizontal_overflow
from tests.factories import PersonFactory
from tests.profiles.conftest import sichuan_entry, taipan_entry

pytestmark = pytest.mark.django_db(transaction=True)


def test_profile_fits_a_phone_with_visible_charts(new_page):
    anna = PersonFactory(name="Anna de Vries")
    for n in range(2):
        taipan_entry(anna, n=n)
    sichuan_entry(anna, n=9)
    page = new_page(PHONE)
    page.goto(page.base + reverse("scoring:person_profile", args=[anna.pk]))
    assert page.locator("h1").inner_text() == "Anna de Vries"
    charts = page.locator("svg.chart.bars")
    assert charts.count() == 4  # Tai Pan: match points, calls; Sichuan: placements, wins
    for i in range(charts.count()):
        box = charts.nth(i).bounding_box()
        assert box["width"] > 100 and box["height"] > 30 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
        assert charts.nth(i).locator("rect").count() >= 2
    assert horizontal_overflow(page) == 0
    page.screenshot(path=str(Path(tempfile.gettempdir()) / "profile-phone.png"), full_page=True)
