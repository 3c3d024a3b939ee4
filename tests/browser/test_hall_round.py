"""Acceptance of issue 23 ("The hall under control"): a whole Tai Pan round as in a real hall, in
the browser, on the pages only (the ORM is read to check, never written, after the set-up).

1. A tournament with check-in required, 12 teams with private links, an organiser, two referees.
2. Check-in: 5 teams tap once on their private-link page (phones, 360×740), the organiser ticks 5
   more on the searchable list (phone), 2 stay absent.
3. The organiser draws round 1 on the pair page: the 10 present teams at 5 tables, the 2 absent
   ones not paired; publishing posts the automatic announcement, which appears on the projector
   and on a team's link page without a reload (the live poll), with the team's table.
4. The organiser starts the clock: the projector and a phone show the same remaining time within
   a second.
5. Referee zones: tables 1-3 to referee A, 4-5 to referee B; on "Mijn tafels" each sees their
   tables first, enters hands through the entry page (tables 1 and 4 reach the target 800 with two
   Grand Tai Pan + double victory hands, tables 2 and 5 get one plain hand, table 3 none), and a
   second person confirms each finished table (docs/results.md: who entered never confirms).
6. The progress board shows the progress and updates by itself.
7. Time's up from the board (confirmation step) ends tables 2, 3 and 5 at the time limit; closing
   is refused while they are unconfirmed (the message names them); once confirmed by referees who
   did not end them, the round closes from the board.

Screenshots (``var/screenshots/hall-round-*.png``) at 360×740 and 1920×1080."""
from __future__ import annotations

import time

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import Match, Membership, Round
from scoring.participants import links
from tests.browser.conftest import PHONE, PROJECTOR_HD, horizontal_overflow, shot
from tests.factories import MembershipFactory, TeamFactory, TournamentFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

SLUG = "hal"
TEAMS = ["De Draken", "Feniksen Utrecht", "Groningen Bommen", "Hond & Mahjong", "Leidse Straten",
         "Tilburg Trappen", "Zwolse Zwaluwen", "Delftse Uilen", "Haagse Kraaien", "Amersfoort Reigers",
         "Gouda Ganzen", "Eindhoven Eenden"]
SELF_CHECKIN = TEAMS[:5]      # tap once on their private link
DESK_CHECKIN = TEAMS[5:10]    # ticked off by the organiser
ABSENT = TEAMS[10:]           # never come
ZONE_A, ZONE_B = (1, 2, 3), (4, 5)


def nl(message: str, **kwargs) -> str:
    """``message`` as the Dutch pages show it (the site's language)."""
    with translation.override("nl"):
        text = translation.gettext(message)
    return text.format(**kwargs) if kwargs else text


def remaining(page) -> float:
    """The remaining seconds the page's clock shows, once the clock script has synced with the server."""
    page.wait_for_function("() => { const c = document.querySelector('[data-hall-clock]');"
                           " return c && c.dataset.offset !== undefined && c.dataset.status === 'running'; }")
    return float(page.locator("[data-hall-clock]").get_attribute("data-remaining"))


def save_hand(page, number: int, taps) -> None:
    """Tap the toggles/chips of hand ``number`` on the entry page and save it: the page comes
    back at the new hand (``#record-N``)."""
    for selector in taps:
        page.click(selector)
    with page.expect_navigation():
        page.click("#save")
    assert page.url.endswith(f"/enter/#record-{number}"), page.url


#: N calls Grand Tai Pan and NS win a double victory: NS 400, EW 0 (two reach the target 800).
GRAND_DOUBLE = ("label[for=id_call_n_2]", "label[for=id_first_out_1]", "label[for=id_double_victory_1]")
#: E goes out first, card points NS 25: NS 25, EW 75.
PLAIN = ("label[for=id_first_out_2]", ".chip[data-value='25']")


def confirm(page, match: Match) -> None:
    """Confirm ``match`` on its confirmation page (a person who entered nothing of it)."""
    page.goto(f"{page.base}/t/{SLUG}/match/{match.pk}/confirm/")
    with page.expect_navigation():
        page.click("#confirm-button")
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED, page.inner_text("main")


@pytest.fixture
def hall(settings):
    # The live regions poll every 2 s here (15 s in the hall): quick enough for the waits below, and
    # few enough requests for the in-memory SQLite database of the tests, which locks whole tables.
    settings.LIVE_POLL_SECONDS = 2
    t = TournamentFactory(slug=SLUG, name="NSKT Zaalronde 2026", checkin_required=True, seed=7,
                          round_minutes=90, clock_warning_minutes=10)
    teams = {name: TeamFactory(tournament=t, name=name) for name in TEAMS}
    tokens = {str(link.entrant): links.token_of(link) for link in links.ensure_links(t)}
    people = {
        "org": MembershipFactory(tournament=t, role=Membership.Role.ORGANISER, user=UserFactory(username="org")).user,
        "anna": MembershipFactory(tournament=t, user=UserFactory(username="anna")).user,
        "bram": MembershipFactory(tournament=t, user=UserFactory(username="bram")).user,
    }
    return t, teams, tokens, people


def test_a_whole_round_in_the_hall(new_page, hall):
    started = time.monotonic()
    t, teams, tokens, people = hall

    # ---- 2. Check-in: five teams tap once on their private link (a phone each).
    for name in SELF_CHECKIN:
        phone = new_page(PHONE)
        phone.goto(f"{phone.base}/p/#{tokens[name]}")
        phone.wait_for_url(f"**/t/{SLUG}/mine/")
        phone.click("#checkin-button")
        phone.wait_for_selector("#checked-in")
        assert horizontal_overflow(phone) == 0
        shot(phone, "hall-round-checkin-link-360")
        phone.close()  # put away (an open page polls every second here, SQLite serialises the writes)

    # ... and the organiser ticks five more on the list, searching each by part of its name.
    desk = new_page(PHONE, user=people["org"])
    desk.goto(f"{desk.base}/t/{SLUG}/checkin/")
    assert desk.locator("#checkin-rows li.in").count() == 5
    for n, name in enumerate(DESK_CHECKIN, start=6):
        desk.fill("#checkin-q", name.split()[-1][:5].lower())
        row = desk.locator(f"#checkin-{teams[name].pk}")
        desk.wait_for_function("n => document.querySelectorAll('#checkin-rows button.tick').length === n", arg=1)
        row.locator("button.tick").click()
        desk.locator(f"#checkin-{teams[name].pk}.in").wait_for()
        assert desk.inner_text("#checkin-count").startswith(f"{n} ")  # "n van 12 ingecheckt"
    desk.fill("#checkin-q", "")
    desk.wait_for_function("() => document.querySelectorAll('#checkin-rows button.tick').length === 12")
    assert desk.locator("#checkin-rows li.in").count() == 10
    assert desk.inner_text("#checkin-count").strip().startswith("10 ")
    assert horizontal_overflow(desk) == 0
    shot(desk, "hall-round-checkin-list-360")

    # ---- 3. The projector is on (standings) and a team's link page is open, before the draw.
    projector = new_page(PROJECTOR_HD)
    projector.goto(projector.base + reverse("scoring:standings", args=[SLUG]) + "?projector=1")
    team_phone = new_page(PHONE)
    team_phone.goto(f"{team_phone.base}/p/#{tokens[SELF_CHECKIN[0]]}")
    team_phone.wait_for_url(f"**/t/{SLUG}/mine/")
    team_phone.wait_for_selector("#checked-in")
    team_phone.wait_for_selector(".hall-news", state="attached")
    team_phone.evaluate("window.__same_page = true")

    # The organiser draws round 1: the pair page names the two absent teams; 5 tables.
    desk.goto(f"{desk.base}/t/{SLUG}/round/pair/")
    absent = desk.inner_text("#absent")
    assert all(name in absent for name in ABSENT)
    desk.click("label[for=id_method_0]")
    desk.locator("form button[type=submit]").last.click()
    desk.wait_for_url(f"**/t/{SLUG}/round/1/**")
    rnd = Round.objects.get(tournament=t, number=1)
    matches = {m.table: m for m in rnd.matches.select_related("team_ns", "team_ew")}
    assert sorted(matches) == [1, 2, 3, 4, 5]
    paired = {m.team_ns.name for m in matches.values()} | {m.team_ew.name for m in matches.values() if m.team_ew}
    assert paired == set(SELF_CHECKIN) | set(DESK_CHECKIN)
    with desk.expect_navigation():
        desk.locator("form[action$='/publish/'] button[type=submit]").click()
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED

    # The automatic announcement: on the projector and on the team's phone, without a reload.
    published = nl("Round {number} pairings are published: find your table.", number=1)
    projector.locator(".hall-news .announcement", has_text=published).wait_for(timeout=10_000)
    team_phone.locator(".hall-news .announcement", has_text=published).wait_for(timeout=10_000)
    # ... and the team's table card with it (the card looks for a table until the tournament ends).
    ours = next(m for m in matches.values() if SELF_CHECKIN[0] in (m.team_ns.name, m.team_ew.name))
    team_phone.locator("#current #next-title").wait_for(timeout=10_000)
    assert team_phone.inner_text("#current .table-no").split()[-1] == str(ours.table)
    assert team_phone.evaluate("window.__same_page") is True
    shot(team_phone, "hall-round-published-link-360")
    projector.goto(projector.base + reverse("scoring:round_pairings", args=[SLUG, 1]) + "?projector=1")
    projector.locator(".hall-news .announcement", has_text=published).wait_for()
    shot(projector, "hall-round-pairings-projector-1920")

    # ---- 4. The organiser starts the clock on the round page; projector and phone agree.
    desk.goto(f"{desk.base}/t/{SLUG}/round/1/")
    with desk.expect_navigation():
        desk.locator("#clock-controls form[action$='/clock/start/'] button").click()
    desk.wait_for_selector("#clock-controls form[action$='/clock/pause/']")
    shot(desk, "hall-round-clock-controls-360")
    team_phone.reload()  # the phone of a team at its table: a reload (a reconnect) reads the clock again
    projector_left = remaining(projector)
    phone_left = remaining(team_phone)
    projector_again = remaining(projector)
    assert projector_again - 1 <= phone_left <= projector_left + 1, (projector_left, phone_left, projector_again)
    assert 89 * 60 < phone_left <= 90 * 60
    shot(projector, "hall-round-clock-projector-1920")
    shot(team_phone, "hall-round-clock-link-360")
    assert horizontal_overflow(team_phone) == 0
    team_phone.close()
    projector.close()

    # ---- 5. Zones: tables 1-3 to Anna, 4-5 to Bram.
    desk.goto(f"{desk.base}/t/{SLUG}/round/1/zones/")
    for user, tables in ((people["anna"], "1-3"), (people["bram"], "4-5")):
        form = desk.locator(f"#zone-{user.pk}")
        form.locator("input[name$=tables]").fill(tables)
        with desk.expect_navigation():
            form.locator("button[type=submit]").click()
        assert desk.locator(".errorlist").count() == 0, desk.inner_text("main")
    shot(desk, "hall-round-zones-360")

    # Each referee on a phone: "Mijn tafels" lists their zone first, the rest collapsed.
    referees = {}
    for name, zone in (("anna", ZONE_A), ("bram", ZONE_B)):
        page = new_page(PHONE, user=people[name])
        page.goto(f"{page.base}/mijn-tafels/")
        mine = page.locator(".my-tables.mine > li")
        assert [mine.nth(i).get_attribute("id") for i in range(mine.count())] == [f"my-table-{n}" for n in zone]
        assert not page.locator("details.my-tables-rest").evaluate("d => d.open")
        assert page.locator(".hall-bar [data-hall-clock]").count() == 1  # the small clock
        assert horizontal_overflow(page) == 0
        referees[name] = page
    shot(referees["anna"], "hall-round-my-tables-360")

    # The board (organiser, projector-sized screen) before any hand.
    board = new_page(PROJECTOR_HD, user=people["org"])
    board.goto(f"{board.base}/t/{SLUG}/round/1/board/")
    assert board.locator(".board-row").count() == 5
    board.locator("#board-table-1.state-not_started").wait_for()

    def enter(page, table: int, *hands) -> None:
        """From "Mijn tafels" (the table in the referee's own list) to the entry page; save ``hands``."""
        page.goto(f"{page.base}/mijn-tafels/")
        with page.expect_navigation():
            page.locator(f".my-tables.mine #my-table-{table} .actions a.btn").first.click()
        done = matches[table].hands.count()
        for n, hand in enumerate(hands, start=done + 1):
            save_hand(page, n, hand)

    anna, bram = referees["anna"], referees["bram"]
    enter(anna, 1, GRAND_DOUBLE)
    # The board updates itself: table 1 is playing, one hand, NS 400.
    row = board.locator("#board-table-1.state-playing")
    row.wait_for(timeout=10_000)
    assert "400" in row.inner_text()
    shot(anna, "hall-round-entry-360")
    enter(anna, 1, GRAND_DOUBLE)
    assert (Match.objects.get(pk=matches[1].pk).status, Match.objects.get(pk=matches[1].pk).total_ns) == (
        Match.Status.FINISHED, 800)
    enter(anna, 2, PLAIN)
    enter(bram, 4, GRAND_DOUBLE, GRAND_DOUBLE)
    assert Match.objects.get(pk=matches[4].pk).status == Match.Status.FINISHED
    enter(bram, 5, PLAIN)
    board.locator("#board-table-1.state-to_confirm").wait_for(timeout=10_000)
    board.locator("#board-table-4.state-to_confirm").wait_for(timeout=10_000)
    board.locator("#board-table-2.state-playing").wait_for(timeout=10_000)
    board.locator("#board-table-5.state-playing").wait_for(timeout=10_000)
    board.locator("#board-table-3.state-not_started").wait_for()

    # A second person confirms the finished tables: Bram table 1 (Anna's), the organiser table 4
    # (one tap on the board opens it).
    bram.goto(f"{bram.base}/mijn-tafels/")
    bram.locator("details.my-tables-rest summary").click()
    with bram.expect_navigation():
        bram.locator("#my-table-1 .actions a.btn", has_text=nl("Confirm the result")).click()
    with bram.expect_navigation():
        bram.click("#confirm-button")
    assert Match.objects.get(pk=matches[1].pk).status == Match.Status.CONFIRMED
    board.locator("#board-table-1.state-confirmed").wait_for(timeout=10_000)
    shot(board, "hall-round-board-progress-1920")
    organiser_phone = new_page(PHONE, user=people["org"])
    organiser_phone.goto(f"{organiser_phone.base}/t/{SLUG}/round/1/board/")
    assert horizontal_overflow(organiser_phone) == 0
    shot(organiser_phone, "hall-round-board-progress-360")
    with organiser_phone.expect_navigation():
        organiser_phone.locator("#board-table-4 a.board-open").click()
    assert f"/match/{matches[4].pk}/" in organiser_phone.url
    confirm(organiser_phone, matches[4])
    organiser_phone.close()
    board.locator("#board-table-4.state-confirmed").wait_for(timeout=10_000)

    # ---- 7. Time's up from the board, through its confirmation step.
    with board.expect_navigation():
        board.locator(".board-actions a.btn").click()
    assert sorted(board.locator(".times-up-list li").evaluate_all("els => els.map(e => e.id)")) == [
        "times-up-2", "times-up-3", "times-up-5"]
    shot(board, "hall-round-times-up-1920")
    with board.expect_navigation():
        board.locator(".times-up-form button[type=submit]").click()
    assert "/board/" in board.url
    for n in (2, 3, 5):
        board.locator(f"#board-table-{n}.state-ended_at_time").wait_for()
        m = Match.objects.get(pk=matches[n].pk)
        assert (m.status, m.ended) == (Match.Status.FINISHED, Match.Ended.TIME)
    # Tai Pan at the time limit: the higher total wins (table 2: NS 25 : EW 75), equal totals draw.
    m2, m3 = Match.objects.get(pk=matches[2].pk), Match.objects.get(pk=matches[3].pk)
    assert (m2.total_ns, m2.total_ew, m2.points_ns, m2.points_ew) == (25, 75, 0, 2)
    assert (m3.total_ns, m3.total_ew, m3.points_ns, m3.points_ew) == (0, 0, 1, 1)

    # Closing now is refused and names the unconfirmed tables.
    with board.expect_navigation():
        board.locator(".board-actions form[action$='/board/close/'] button").click()
    refusal = board.inner_text(".messages")
    assert all(str(n) in refusal for n in (2, 3, 5)), refusal
    assert Round.objects.get(pk=rnd.pk).status != Round.Status.CLOSED
    shot(board, "hall-round-close-refused-1920")

    # Confirmed by referees who did not end them (the organiser ended them; Anna entered 2, Bram 5).
    confirm(bram, matches[2])
    confirm(anna, matches[3])
    confirm(anna, matches[5])
    board.locator("#board-table-5.state-confirmed").wait_for(timeout=10_000)
    with board.expect_navigation():
        board.locator(".board-actions form[action$='/board/close/'] button").click()
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
    assert board.locator(".messages .error").count() == 0, board.inner_text(".messages")
    shot(board, "hall-round-closed-1920")
    elapsed = time.monotonic() - started
    print(f"\nwhole round in the browser: {elapsed:.1f} s")
