"""The entry page on a phone (issue 23 item 10): at 360×740 "Save" and the running totals are in
reach without scrolling (a sticky bar at the bottom of the screen) and never cover a field, for
Tai Pan hands and four-player deals; and axe-core's heading rules pass: a level-one heading on
the entry pages, the heading order on "Find my table" with answers shown. Screenshots go to
var/screenshots/ (the test artefacts)."""
import pytest

from scoring.results import sheet
from tests.browser.conftest import PHONE, horizontal_overflow, shot
from tests.browser.referee import table_world, taipan_world
from tests.factories import PLAIN_HAND, TAI_PAN_HAND
from tests.games.kits import kit

pytestmark = pytest.mark.django_db(transaction=True)

HEADING_RULES = ["page-has-heading-one", "heading-order"]


def heading_violations(page) -> list[str]:
    """axe-core's violations of the heading rules (any impact), as "rule: target" lines."""
    from axe_playwright_python.sync_playwright import Axe

    results = Axe().run(page, options={"runOnly": {"type": "rule", "values": HEADING_RULES}})
    assert {r["id"] for r in results.response["passes"]} | {v["id"] for v in results.response["violations"]}, "axe ran no rule"
    return [f"{v['id']}: {node['target']}" for v in results.response["violations"] for node in v["nodes"]]


def rect(page, selector: str) -> dict:
    return page.evaluate("(s) => { const r = document.querySelector(s).getBoundingClientRect(); "
                         "return {top: r.top, bottom: r.bottom, height: r.height}; }", selector)


def assert_in_reach(page) -> None:
    """Save and the totals are inside the 740 px screen where the page opens (the script may
    bring the last record into view) and at its top, with no scrolling by the referee; every
    field scrolled into view (as focusing it does) stays clear of the bar."""
    height = page.evaluate("window.innerHeight")
    for _where in ("as opened", "top"):
        save = rect(page, "#save")
        assert 0 <= save["top"] and save["bottom"] <= height, (_where, save)
        totals = rect(page, "#save-bar .bar-totals")
        assert totals["height"] > 0 and 0 <= totals["top"] and totals["bottom"] <= height, (_where, totals)
        page.evaluate("window.scrollTo(0, 0)")
    bar = rect(page, "#save-bar")
    assert bar["height"] <= 140, bar  # a bar, not half the screen
    fields = page.locator("#entry-form input:not([type=hidden]):not(.visually-hidden), #entry-form select, #entry-form textarea")
    checked = 0
    for i in range(fields.count()):
        field = fields.nth(i)
        target = field if field.is_visible() else page.locator(f"label[for='{field.get_attribute('id')}']")
        if not target.count() or not target.first.is_visible():
            continue
        target.first.focus() if field.is_visible() else field.focus()
        box = target.first.bounding_box()
        bar = rect(page, "#save-bar")
        assert box["y"] + box["height"] <= bar["top"] + 1, (field.get_attribute("name"), box, bar)
        checked += 1
    assert checked >= 3
    page.evaluate("window.scrollTo(0, document.documentElement.scrollHeight)")  # at the end: the bar in its own place
    last = page.locator("#entry-form .save-bar").evaluate("el => el.previousElementSibling.getBoundingClientRect().bottom")
    assert last <= rect(page, "#save-bar")["top"] + 1
    page.evaluate("window.scrollTo(0, 0)")


def test_taipan_save_and_totals_in_reach_on_a_phone(new_page):
    t, rnd, (match, _other), people = taipan_world()
    sheet.add_record(match, PLAIN_HAND, people["referee"], expected_version=match.version)
    sheet.add_record(match, TAI_PAN_HAND, people["referee"], expected_version=match.version)
    page = new_page(PHONE, user=people["referee"])
    page.goto(f"{page.base}/t/nskt/match/{match.pk}/enter/")
    page.screenshot(path="/tmp/print-entry-taipan-360.png")
    shot(page, "entry-save-bar-taipan-phone")
    assert horizontal_overflow(page) == 0
    bar_text = page.locator("#save-bar").inner_text()
    assert "250" in bar_text and "50" in bar_text  # NS 75 + 175, EW 25 + 25: the running totals
    assert_in_reach(page)
    # the preview puts the totals after this hand into the bar
    page.click("label[for=id_first_out_1]")
    page.fill("#id_card_points_ns", "60")
    page.locator("#bar-after strong", has_text="310").wait_for()  # NS 250 + 60
    assert heading_violations(page) == []


@pytest.mark.every_game(entrants="players")
def test_four_player_save_in_reach_on_a_phone(new_page, game):
    t, rnd, table, referee = table_world(game)
    sheet.add_record(table, kit(game).record, referee, expected_version=table.version)
    page = new_page(PHONE, user=referee)
    page.goto(f"{page.base}/t/{game}/table/{table.pk}/enter/")
    page.screenshot(path=f"/tmp/print-entry-{game}-360.png")
    assert horizontal_overflow(page) == 0
    assert_in_reach(page)
    assert heading_violations(page) == []


def test_find_my_table_heading_order(new_page):
    t, rnd, matches, people = taipan_world()
    page = new_page(PHONE)
    page.goto(f"{page.base}/t/nskt/find/?q=dra")
    page.wait_for_selector(".hit")
    assert heading_violations(page) == []
