"""Quick entry of a four-player deal on a phone (issue 24 item 1, acceptance: at most 5 taps at
360×740 from the opened entry page to the saved deal, Save included; nothing typed).

Values from the rules:
- Sichuan (the rule text section 5, docs/engines/sichuan.md): a win on a discard worth 2 fan has
  a base of 2^2 = 4, paid by the discarder alone: East +4, South -4.
- Taiwanese (the rule text "Betalen: basis plus tai", docs/engines/taiwanese.md, preset standard:
  base 3, 2 per tai; dealer tai 1 + 2N only between the dealer and the winner): South self-draws
  3 tai in the first deal (dealer East, N = 0). West and North pay 3 + 2·3 = 9 each, the dealer
  East pays 3 + 2·(3 + 1) = 11: South +29, East -11, West -9, North -9.
"""
import pytest

from scoring.models import Deal
from tests.browser.conftest import PHONE, horizontal_overflow, shot
from tests.browser.referee import Clicks, table_world

pytestmark = pytest.mark.django_db(transaction=True)


def _in_view(page, selector: str) -> bool:
    """The element is inside the 360×740 viewport as the page opens, above the fixed save bar
    (no scrolling hunt)."""
    box = page.locator(selector).bounding_box()
    bar = page.locator("#save-bar").bounding_box()
    bottom = min(PHONE["height"], bar["y"]) if bar else PHONE["height"]
    return box is not None and 0 <= box["y"] and box["y"] + box["height"] <= bottom


def _big(page, selector: str) -> None:
    box = page.locator(selector).bounding_box()
    assert box["width"] >= 44 and box["height"] >= 44, (selector, box)


def test_quick_sichuan_discard_win_and_taiwanese_self_draw_in_at_most_five_taps(new_page):
    # Sichuan: East wins on South's discard, 2 fan.
    t, rnd, table, referee = table_world("sichuan", entry_mode="quick")
    page = new_page(PHONE, user=referee, mobile=True)
    page.goto(f"{page.base}/t/sichuan/table/{table.pk}/enter/")
    assert horizontal_overflow(page) == 0
    assert _in_view(page, "label[for='id_quick-ev-0-player_0']")
    assert _in_view(page, "label[for='id_quick-ev-0-fan_5']")
    assert page.is_visible("#save") and not page.is_visible("#id_deal-ev-0-concealed")  # tiles: one tap away
    for sel in ("label[for='id_quick-ev-0-player_0']", "label[for='id_quick-ev-0-source_2']", "label[for='id_quick-ev-0-fan_2']"):
        _big(page, sel)
    shot(page, "quick-sichuan-phone")
    tap = Clicks(page)
    tap("label[for='id_quick-ev-0-player_0']")  # East (Anna de Vries)
    tap("label[for='id_quick-ev-0-source_2']")  # from South (0: self-drawn, 1: East, 2: South)
    tap("label[for='id_quick-ev-0-fan_2']")  # 2 fan
    page.wait_for_selector("#preview table.net", timeout=5000)
    assert horizontal_overflow(page) == 0  # the preview never widens the page (a phone scrolls sideways)
    tap("#save")
    page.wait_for_url("**/enter/#record-1")
    deal = Deal.objects.get(table=table)
    assert deal.record["events"] == [{"type": "win", "player": "E", "fan": 2, "discarder": "S"}]
    assert deal.net == [4, -4, 0, 0]
    assert tap.count <= 5
    sichuan_taps = tap.count

    # Taiwanese: South self-draws 3 tai; dealer East from the carried state.
    t, rnd, table, referee = table_world("taiwanese", entry_mode="quick")
    page = new_page(PHONE, user=referee, mobile=True)
    page.goto(f"{page.base}/t/taiwanese/table/{table.pk}/enter/")
    assert horizontal_overflow(page) == 0
    assert _in_view(page, "label[for='id_quick-winner_1']")
    assert _in_view(page, "label[for='id_quick-tai_3']")
    tap = Clicks(page)
    tap("label[for='id_quick-winner_1']")  # South
    tap("label[for='id_quick-source_0']")  # self-drawn
    tap("label[for='id_quick-tai_3']")  # 3 tai
    page.wait_for_selector("#preview table.net", timeout=5000)
    assert horizontal_overflow(page) == 0
    shot(page, "quick-taiwanese-phone")
    tap("#save")
    page.wait_for_url("**/enter/#record-1")
    deal = Deal.objects.get(table=table)
    assert deal.record["seat"] == "S" and deal.record["tai"] == 3 and deal.record["win"] == {"how": "self"}
    assert deal.record["dealer"] == "E" and deal.record["streak"] == 0
    assert deal.net == [-11, 29, -9, -9]
    assert tap.count <= 5
    print(f"\ntaps: quick Sichuan win on a discard {sichuan_taps}, quick Taiwanese self-drawn win {tap.count}")
