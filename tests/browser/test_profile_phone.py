"""The player profile on a phone (issue 26 item 2): at 360×740 nothing scrolls sideways, the bar
charts are drawn and visible, every chart's numbers are in its table. Screenshot:
``<tmp>/profile-phone.png`` (looked at by hand, never committed)."""
from __future__ import annotations

import tempfile
from pathlib import Path

import pytest
from django.urls import reverse

from tests.browser.conftest import PHONE, horizontal_overflow
from tests.factories import GRAND_DOUBLE_VICTORY_NS, MatchFactory, PersonFactory, RoundFactory, play
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


def _rounds(person, n: int, name: str, rounds: list[int]) -> None:
    """Tai Pan tournament ``n`` named ``name`` where ``person`` played (and won, two hands as in ``taipan_entry``) ``rounds``."""
    t, first, people = taipan_entry(person, n=n)
    t.name = name
    t.save(update_fields=["name"])
    for number in rounds[1:]:
        match = MatchFactory(round=RoundFactory(tournament=t, number=number), table=1, team_ns=first.team_ns, team_ew=first.team_ew)
        play(match, [GRAND_DOUBLE_VICTORY_NS] * 2, people["referee"], confirmer=people["referees"][1])


def _boxes(locator) -> list[dict]:
    return [locator.nth(i).bounding_box() for i in range(locator.count())]


def _overlap(a: dict, b: dict) -> bool:
    return a["x"] < b["x"] + b["width"] and b["x"] < a["x"] + a["width"] and a["y"] < b["y"] + b["height"] and b["y"] < a["y"] + a["height"]


def test_six_matches_from_two_tournaments_have_readable_axis_labels(new_page):
    # Issue 26, tester: 6 matches' labels ("NSKT demo R1", ...) ran into each other at 360 px and a
    # long name was cut without "…". Now: round numbers under the bars, each tournament named
    # once under its run of bars (cut with "…" when too long), full names in the table.
    anna = PersonFactory(name="Anna de Vries")
    _rounds(anna, 1, "NSKT demo", [1, 2, 3, 4])
    _rounds(anna, 2, "Stadstoernooi Amsterdam 2026", [1, 3])
    page = new_page(PHONE)
    page.goto(page.base + reverse("scoring:person_profile", args=[anna.pk]))
    chart = page.locator("figure.bars").first
    labels = chart.locator("svg text.label")
    assert [labels.nth(i).text_content() for i in range(labels.count())] == ["R1", "R2", "R3", "R4", "R1", "R3"]
    groups = chart.locator("svg text.group")
    assert groups.nth(0).text_content() == "NSKT demo"
    assert groups.nth(1).text_content().endswith("…") and "Stadstoernooi Amsterdam 2026".startswith(groups.nth(1).text_content()[:-1])
    svg = chart.locator("svg").bounding_box()
    texts = _boxes(labels) + _boxes(groups)
    for i, a in enumerate(texts):
        assert svg["x"] <= a["x"] and a["x"] + a["width"] <= svg["x"] + svg["width"] + 0.5  # nothing sticks out
        for b in texts[i + 1:]:
            assert not _overlap(a, b), (a, b)
    heads = chart.locator("table.chart-data th")
    assert [heads.nth(i).inner_text() for i in range(heads.count())] == [
        "NSKT demo R1", "NSKT demo R2", "NSKT demo R3", "NSKT demo R4", "Stadstoernooi Amsterdam 2026 R1", "Stadstoernooi Amsterdam 2026 R3"]
    assert chart.locator("svg g title").first.text_content() == "NSKT demo R1: 2"
    assert horizontal_overflow(page) == 0
    chart.screenshot(path=str(Path(tempfile.gettempdir()) / "profile-phone-axis.png"))
