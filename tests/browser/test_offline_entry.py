"""Offline-first entry on a phone (issue 25 item 3 acceptance, docs/results.md "Saving without a
connection"): hands saved while the hall Wi-Fi is down go into the phone's outbox, the page says
so and shows the next hand's form at once; when the connection returns they are sent by
themselves (no tap), in order, each stored exactly once; a hand that conflicts with someone
else's change is shown for review, neither stored nor dropped; an entry page opened once opens
offline from the service worker's cache.

Values from the NSKT rules (docs/engines/taipan.md): card points add up to 100 and count as
scored: N out first with NS 75 gives 75 : 25, S out first with NS 60 gives 60 : 40."""
import re

import pytest

from scoring.models import Hand
from scoring.results import sheet
from tests.browser.conftest import PHONE, horizontal_overflow, shot
from tests.browser.referee import taipan_world

pytestmark = pytest.mark.django_db(transaction=True)

#: The banner's count ("2 handen wachten ..." in Dutch, the phones' language here).
COUNT = "#outbox-count"


def type_hand(page, first_out: str, ns: int) -> None:
    page.click(f"label[for=id_first_out_{first_out}]")
    page.fill("#id_card_points_ns", str(ns))


def save_offline(page, number: int) -> None:
    """Tap Save without a connection: the hand is kept, and the form of the next one is shown."""
    page.click("#save")
    page.wait_for_selector("#queued-note", state="visible")
    page.wait_for_function(f"() => document.querySelector('input[name=record_number]').value === '{number + 1}'")
    assert page.input_value("#id_card_points_ns") == ""  # the next hand's form is empty


def wait_until_sent(page) -> None:
    page.wait_for_selector("#outbox", state="hidden", timeout=20_000)


def hands(match):
    return list(Hand.objects.filter(match=match).order_by("number").values_list("number", "ns", "ew"))


def two_hands_offline_then_online(page, url, match):
    page.goto(url)
    page.wait_for_function("() => !!window.nsktOutbox")
    page.context.set_offline(True)
    type_hand(page, "1", 75)  # N out first, NS 75
    save_offline(page, 1)
    assert "1" in page.inner_text("#queued-note")
    type_hand(page, "3", 60)  # S out first, NS 60
    save_offline(page, 2)
    page.wait_for_selector("#outbox", state="visible")
    assert page.inner_text(COUNT).startswith("2 ")
    assert horizontal_overflow(page) == 0
    assert hands(match) == []
    shot(page, "offline-two-hands-waiting")
    page.context.set_offline(False)  # no tap from here
    wait_until_sent(page)
    page.wait_for_url(url)
    assert hands(match) == [(1, 75, 25), (2, 60, 40)]
    assert Hand.objects.filter(match=match).values("submission").distinct().count() == 2
    match.refresh_from_db()
    assert (match.total_ns, match.total_ew) == (135, 65)
    # the page shows them, and the next form is hand 3
    page.wait_for_selector("#record-2")
    assert page.input_value("input[name=record_number]") == "3"
    assert page.locator("#outbox").is_hidden()


def referee_offline_on_entry_page(new_page):
    """A Tai Pan table's entry page opened by the referee ``scheids`` on a phone (the web app's
    worker allowed), its outbox ready, then the connection gone: (page, url, match, people)."""
    t, rnd, (match, _other), people = taipan_world()
    page = new_page(PHONE, user=people["referee"], mobile=True, service_workers="allow")
    url = f"{page.base}/t/nskt/match/{match.pk}/enter/"
    page.goto(url)
    page.wait_for_function("() => !!window.nsktOutbox")
    page.context.set_offline(True)
    return page, url, match, people


def test_a_referee_saves_two_hands_offline_and_they_are_sent_by_themselves(new_page):
    t, rnd, (match, _other), people = taipan_world()
    page = new_page(PHONE, user=people["referee"], mobile=True, service_workers="allow")
    two_hands_offline_then_online(page, f"{page.base}/t/nskt/match/{match.pk}/enter/", match)
    # "My tables" has no banner either: nothing waits
    page.goto(f"{page.base}/mijn-tafels/")
    assert page.locator("#outbox").is_hidden()


def test_a_link_holder_saves_two_hands_offline_and_they_are_sent_by_themselves(new_page, private_links_world):
    t, match, other, tokens = private_links_world
    page = new_page(PHONE, mobile=True, service_workers="allow")
    page.goto(f"{page.base}/p/#{tokens['De Draken']}")
    page.wait_for_url("**/t/nskt/mine/")
    two_hands_offline_then_online(page, f"{page.base}/t/nskt/match/{match.pk}/enter/", match)


def test_a_conflicting_offline_hand_is_shown_for_review(new_page):
    page, url, match, people = referee_offline_on_entry_page(new_page)
    type_hand(page, "1", 75)
    save_offline(page, 1)
    # meanwhile a colleague saves a hand on the same table through the server
    sheet.add_record(match, {"calls": {}, "first_out": "E", "double_victory": None, "card_points": {"NS": 10, "EW": 90}},
                     people["referee2"], expected_version=match.version)
    page.context.set_offline(False)
    # the refusal opens the page afresh: its form stands on the table as it is now (hand 2, the
    # colleague's version, no chain), so the next hand typed is not refused in turn
    assert page.input_value("input[name=chain]") != ""  # hand 2's form names the waiting hand 1
    page.wait_for_function("() => { const c = document.querySelector('input[name=chain]');"
                           " return c && c.value === ''; }", timeout=20_000)
    page.wait_for_selector("#outbox-refused", state="visible", timeout=20_000)
    match.refresh_from_db()
    assert page.input_value("input[name=version]") == str(match.version)
    assert page.input_value("input[name=chain]") == ""
    assert hands(match) == [(1, 10, 90)]  # the offline hand is not stored
    refused = page.inner_text("#outbox-refused")
    assert "iemand anders" in refused or "someone else" in refused  # the server's message
    assert "75" in refused  # the input, for review
    assert not re.search(r"\b[NESW](NS|EW)\b", refused)  # a seat and its side apart: "N (NS)", not "NNS"
    assert page.locator("#outbox-waiting").is_hidden()
    shot(page, "offline-hand-refused")
    # it stays after a reload (not dropped), with "open the table" and "discard"
    page.reload()
    page.wait_for_selector("#outbox-refused", state="visible")
    assert page.locator("#outbox-refused a").first.get_attribute("href") == f"/t/nskt/match/{match.pk}/enter/"
    page.once("dialog", lambda d: d.dismiss())
    page.click(".outbox-discard")
    page.wait_for_timeout(300)
    assert page.locator("#outbox-refused").is_visible()  # not confirmed: kept
    page.once("dialog", lambda d: d.accept())
    page.click(".outbox-discard")
    page.wait_for_selector("#outbox", state="hidden")
    assert hands(match) == [(1, 10, 90)]


def test_a_hand_waits_for_whoever_entered_it_and_a_double_tap_keeps_it_once(new_page):
    """The referee's session ends with a hand waiting (cookies gone, as after a logout or an expired
    session) and the organiser logs in on the same phone: the hand is not sent under the
    organiser's name; the banner says whom it waits for. Back as the referee, it is sent by itself,
    stored once and recorded as the referee's. Save tapped twice offline keeps one hand."""
    from tests.browser.conftest import login

    page, url, match, people = referee_offline_on_entry_page(new_page)
    type_hand(page, "1", 75)
    page.dblclick("#save")
    page.wait_for_selector("#queued-note", state="visible")
    page.wait_for_selector("#outbox", state="visible")
    page.wait_for_timeout(300)
    assert page.inner_text(COUNT).startswith("1 ")  # one hand, not two
    page.context.clear_cookies()
    page.context.set_offline(False)
    login(page, "org", "pw-Secret-123")
    page.goto(url)
    page.wait_for_selector("#outbox-owners", state="visible")
    assert "scheids" in page.inner_text("#outbox-owners")
    assert page.input_value("input[name=record_number]") == "1"  # the organiser's form does not chain onto it
    assert page.input_value("input[name=chain]") == ""
    page.wait_for_timeout(1500)  # time enough to send, were it sent
    assert hands(match) == []
    shot(page, "offline-hand-waits-for-its-referee")
    page.context.clear_cookies()
    login(page, "scheids", "pw-Secret-123")
    page.goto(url)
    wait_until_sent(page)
    assert hands(match) == [(1, 75, 25)]
    assert Hand.objects.get(match=match).entered_by == people["referee"]


def test_an_entry_page_opened_once_opens_offline_from_the_cache(new_page):
    t, rnd, (match, _other), people = taipan_world()
    page = new_page(PHONE, user=people["referee"], mobile=True, service_workers="allow")
    url = f"{page.base}/t/nskt/match/{match.pk}/enter/"
    page.goto(url)
    path = f"/t/nskt/match/{match.pk}/enter/"
    cached = """async (path) => {
        const page = await caches.match(location.origin + path);
        const css = await caches.match(document.querySelector("link[href*='entry.css']").href);
        return !!page && !!css && !!navigator.serviceWorker.controller;
    }"""
    for _ in range(100):  # the worker caches the page and its files in the background
        if page.evaluate(cached, path):
            break
        page.wait_for_timeout(200)
    assert page.evaluate(cached, path)
    page.context.set_offline(True)
    page.reload()
    assert page.locator("#entry-form").is_visible()
    assert page.locator("#save").is_visible()
    # the static files came from the cache too: the page is styled and its script runs
    assert page.evaluate("getComputedStyle(document.getElementById('save-bar')).position") in ("sticky", "fixed")
    page.wait_for_function("() => !!window.nsktOutbox")
    # and a hand saved there waits in the outbox
    type_hand(page, "1", 75)
    save_offline(page, 1)
    page.context.set_offline(False)
    wait_until_sent(page)
    assert hands(match) == [(1, 75, 25)]


def test_my_tables_caches_the_entry_pages_of_the_referees_own_tables(new_page):
    """A referee opens "My tables" online; the entry page of their claimed table was never opened,
    and opens offline all the same (the worker fetched it); another table's does not."""
    from scoring.hall import zones

    t, rnd, (match, other), people = taipan_world()
    zones.claim(rnd, match.table, people["referee"])
    page = new_page(PHONE, user=people["referee"], mobile=True, service_workers="allow")
    page.goto(f"{page.base}/mijn-tafels/")
    path = f"/t/nskt/match/{match.pk}/enter/"
    assert page.locator(f"a[data-offline][href='{path}']").count() == 1
    assert page.locator(f"a[data-offline][href='/t/nskt/match/{other.pk}/enter/']").count() == 0
    cached = "async (path) => !!(await caches.match(location.origin + path)) && !!navigator.serviceWorker.controller"
    for _ in range(100):
        if page.evaluate(cached, path):
            break
        page.wait_for_timeout(200)
    assert page.evaluate(cached, path)
    page.context.set_offline(True)
    page.goto(page.base + path)
    assert page.locator("#entry-form").is_visible()
    page.wait_for_function("() => !!window.nsktOutbox")
    type_hand(page, "1", 75)
    save_offline(page, 1)
    page.context.set_offline(False)
    wait_until_sent(page)
    assert hands(match) == [(1, 75, 25)]
