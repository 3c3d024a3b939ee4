"""Four-player entry on a phone (issue 11 item 8): toggle buttons for the players and the way of
winning, the tile picker under the field it fills (never an overlay), a whole set per tap, the
winning tile tapped in the hand. A typical Sichuan win and a typical Taiwanese win take about 12
taps (counted). Values: docs/engines/sichuan.md (a win on a discard without fan: the discarder pays the
base, 1) and case T01 of the Taiwanese rules (tests/factories.py DEALS)."""
import pytest

from scoring.models import Deal
from tests.browser.conftest import PHONE, horizontal_overflow, shot
from tests.browser.referee import Clicks, table_world
from tests.factories import DEALS
from tests.games.kits import kit  # noqa: F401  (every_game runs over the registry)

pytestmark = pytest.mark.django_db(transaction=True)


def tile(group: str, suit: str) -> str:
    return f"#tile-picker .suit-panel[data-panel={suit}] button[data-group='{group}']"


def test_a_sichuan_win_with_the_tile_picker(new_page):
    t, rnd, table, referee = table_world("sichuan")
    page = new_page(PHONE, user=referee, mobile=True)
    page.goto(f"{page.base}/t/sichuan/table/{table.pk}/enter/")
    assert horizontal_overflow(page) == 0
    shot(page, "entry-sichuan-phone")
    tap = Clicks(page)
    tap("label[for='id_deal-ev-0-player_0']")  # East wins (the event becomes a win)
    tap("label[for='id_deal-ev-0-how_0']")  # on a discard
    tap("label[for='id_deal-ev-0-source_2']")  # by South
    for group in ("123", "456"):
        tap(tile(group, "m"))
    tap("#tile-picker button[data-suit=p]")
    for group in ("789", "234", "55"):
        tap(tile(group, "p"))
    tap("#hand-view button[data-win='5p']")  # the winning tile, tapped in the hand
    assert page.input_value("#id_deal-ev-0-concealed") == "123m 456m 789p 234p 55p"
    assert page.is_checked("#id_deal-ev-0-void_2")  # bamboo: the one suit missing
    # the picker is in the page, under the hand it fills, not over the form
    assert page.evaluate("getComputedStyle(document.getElementById('tile-picker')).position") == "static"
    page.wait_for_selector("#preview table.net", timeout=5000)
    assert horizontal_overflow(page) == 0  # with the preview shown
    shot(page, "entry-sichuan-picker-phone")
    tap("#save")
    page.wait_for_url("**/enter/#record-1")
    deal = Deal.objects.get(table=table)
    win = deal.record["events"][0]
    assert win["player"] == "E" and win["discarder"] == "S"
    assert win["hand"]["concealed"] == "123m 456m 789p 234p 55p" and win["hand"]["void"] == "s"
    assert win["hand"]["win"]["tile"] == "5p" and win["hand"]["win"]["how"] == "discard"
    assert deal.net == [1, -1, 0, 0]
    assert tap.count <= 12
    print(f"\ntaps: Sichuan win on a discard {tap.count}")


def test_a_taiwanese_win_with_the_tile_picker(new_page):
    t, rnd, table, referee = table_world("taiwanese")
    page = new_page(PHONE, user=referee, mobile=True)
    page.goto(f"{page.base}/t/taiwanese/table/{table.pk}/enter/")
    tap = Clicks(page)
    tap("label[for='id_deal-winner_1']")  # South
    tap("label[for='id_deal-how_1']")  # self-draw
    tap("#tile-picker button[data-suit=p]")
    for group in ("123", "456", "789", "222", "99"):
        tap(tile(group, "p"))
    tap("#hand-view button[data-win='6p']")
    tap("#id_deal-melds")  # the picker moves under the melds
    tap("#tile-picker button[data-suit=z]")
    tap(tile("555", "z"))
    assert page.input_value("#id_deal-melds") == "pung 555z claimed"
    page.wait_for_selector("#preview table.net", timeout=5000)
    assert horizontal_overflow(page) == 0  # with the preview shown
    shot(page, "entry-taiwanese-phone")
    tap("#save")
    page.wait_for_url("**/enter/#record-1")
    deal = Deal.objects.get(table=table)
    assert deal.net == DEALS["taiwanese"][1]  # T01: -17, 47, -15, -15
    assert tap.count <= 13
    print(f"\ntaps: Taiwanese self-drawn win with a melded pung {tap.count}")


def test_a_four_player_save_without_connection_stays_on_the_page(new_page):
    """Offline at "Opslaan" on the four-player entry page: the deal goes into the phone's outbox
    (issue 25), the page stays, and the deal is stored once, by itself, when the connection is back."""
    t, rnd, table, referee = table_world("sichuan")
    page = new_page(PHONE, user=referee, mobile=True)
    url = f"{page.base}/t/sichuan/table/{table.pk}/enter/"
    page.goto(url)
    page.wait_for_function("() => !!window.nsktOutbox")
    page.click("label[for='id_deal-ev-0-player_0']")  # East wins
    page.click("label[for='id_deal-ev-0-how_0']")  # on a discard
    page.click("label[for='id_deal-ev-0-source_2']")  # by South
    for group in ("123", "456"):
        page.click(tile(group, "m"))
    page.click("#tile-picker button[data-suit=p]")
    for group in ("789", "234", "55"):
        page.click(tile(group, "p"))
    page.click("#hand-view button[data-win='5p']")
    page.context.set_offline(True)
    page.click("#save")
    # issue 25: the deal goes into the phone's outbox, the next deal's form is shown
    page.wait_for_selector("#queued-note", state="visible")
    assert page.url == url and not Deal.objects.exists()
    assert page.input_value("#id_deal-ev-0-concealed") == ""
    assert horizontal_overflow(page) == 0
    shot(page, "entry-sichuan-offline")
    page.context.set_offline(False)  # sent by itself, no tap
    page.wait_for_selector("#record-1", timeout=20_000)
    deal = Deal.objects.get(table=table)
    assert deal.record["events"][0]["hand"]["concealed"] == "123m 456m 789p 234p 55p" and deal.net == [1, -1, 0, 0]


#: Every toggle button whose text does not fit it (a cut label such as "iemanc" for "niemand").
CUT_LABELS = """() => Array.from(document.querySelectorAll('.tg-row > label'))
    .filter(l => l.offsetParent !== null && (l.scrollWidth > l.clientWidth + 1))
    .map(l => l.textContent.trim())"""


@pytest.mark.every_game(entrants="players")
def test_no_toggle_label_is_cut_on_a_phone(new_page, game):
    """At 360 px every toggle button shows its whole text: the five-button rows ("no one" and the
    four seats, e.g. "Van (aflegger / leverancier / beroofde)") put "no one" on a row of its own."""
    t, rnd, table, referee = table_world(game)
    page = new_page(PHONE, user=referee)
    page.goto(f"{page.base}/t/{game}/table/{table.pk}/enter/")
    page.evaluate("document.querySelectorAll('details').forEach(d => d.open = true)")
    assert page.evaluate(CUT_LABELS) == []
    assert horizontal_overflow(page) == 0
    if game == "sichuan":
        row = page.locator("#fs-deal-ev-0-source")
        assert "niemand" in row.inner_text()
        row.scroll_into_view_if_needed()
        shot(page, "entry-sichuan-source-phone")
