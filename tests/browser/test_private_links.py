"""A whole match played through two private links on two phones (issue 15 acceptance): each team
scans its card (``/p/#<token>``: the token stays in the address's fragment, the page's script
posts it and the phone lands on a token-free address), the NS team enters the hands on the same
entry page the referees use, the EW team checks the totals on its own phone and confirms them,
and the standings count the result. Every page fits a 360 px phone without sideways scrolling.

Values from the NSKT rules: a hand's card points add up to 100 (N out first, NS 75 : EW 25);
Grand Tai Pan made is +200 and a double victory 200 : 0 (400 : 0 a hand); the target is 800,
so after three hands NS leads 875 : 25 and wins (2 match points, the loser 0)."""
import pytest

from scoring.models import AuditEntry, Confirmation, Hand, Match
from tests.browser.conftest import PHONE, horizontal_overflow, shot

pytestmark = pytest.mark.django_db(transaction=True)


def open_card(page, token: str) -> None:
    """Scan the card: open ``/p/#<token>`` and wait for the team's page."""
    page.goto(f"{page.base}/p/#{token}")
    page.wait_for_url("**/t/nskt/mine/")
    assert token not in page.url
    assert horizontal_overflow(page) == 0


def enter_hand(page, *taps: str, number: int) -> None:
    for selector in taps:
        page.click(selector)
    page.click("#save")
    page.wait_for_url(f"**/enter/#record-{number}")


def test_a_whole_match_through_two_private_links_on_two_phones(new_page, private_links_world):
    t, match, other, tokens = private_links_world
    draken, feniksen = new_page(PHONE), new_page(PHONE)

    # The NS team scans its card: its own page, its table, the button to enter the hands.
    open_card(draken, tokens["De Draken"])
    assert draken.inner_text("#entrant-name") == "De Draken"
    assert "Feniksen Utrecht" in draken.inner_text("#current")
    shot(draken, "links-home-phone")
    draken.click("#enter-link")
    draken.wait_for_url(f"**/t/nskt/match/{match.pk}/enter/")
    assert horizontal_overflow(draken) == 0

    # Three hands on the referees' entry page: N out first with NS 75; then twice N's Grand Tai
    # Pan with NS's double victory.
    enter_hand(draken, "label[for=id_first_out_1]", ".chip[data-value='75']", number=1)

    # Meanwhile the EW team opens its card: the other side enters, nothing to confirm yet.
    feniksen.clock.install()
    open_card(feniksen, tokens["Feniksen Utrecht"])
    assert feniksen.locator("#enter-link").count() == 0 and feniksen.locator("#confirm-link").count() == 0
    feniksen.wait_for_function("() => !!window.htmx")

    grand = ("label[for=id_call_n_2]", "label[for=id_first_out_1]", "label[for=id_double_victory_1]")
    enter_hand(draken, *grand, number=2)
    enter_hand(draken, *grand, number=3)
    match.refresh_from_db()
    assert (match.total_ns, match.total_ew, match.status) == (875, 25, Match.Status.FINISHED)
    assert "875" in draken.inner_text("table.records tfoot")
    assert horizontal_overflow(draken) == 0
    shot(draken, "links-entered-phone")

    # The EW team's page re-reads its table (every 15 s): the result now waits for its confirmation.
    for _ in range(3):  # the poll's timer runs on the installed clock: move it on until it came back
        feniksen.clock.fast_forward("00:16")
        try:
            feniksen.wait_for_selector("#confirm-link", timeout=3000)
            break
        except Exception:  # noqa: BLE001 - not yet: the poll was still on its way
            continue
    feniksen.click("#confirm-link")
    feniksen.wait_for_url(f"**/t/nskt/match/{match.pk}/confirm/")
    assert "875" in feniksen.inner_text("#summary") and "25" in feniksen.inner_text("#summary")
    assert horizontal_overflow(feniksen) == 0
    shot(feniksen, "links-confirm-phone")
    feniksen.click("#confirm-button")
    feniksen.wait_for_url(f"**/t/nskt/match/{match.pk}/")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.winner_id == match.team_ns_id
    assert horizontal_overflow(feniksen) == 0

    # The audit says which team entered and which confirmed; no referee was needed.
    assert [e.via_entrant for e in AuditEntry.objects.filter(match=match).order_by("pk")] == ["De Draken"] * 3 + ["Feniksen Utrecht"]
    assert Confirmation.objects.get(match=match).via_entrant == "Feniksen Utrecht"
    assert not Hand.objects.filter(match=match).exclude(entered_by=None).exists()

    # The standings count it: De Draken first with 2 match points, Feniksen Utrecht 0.
    draken.goto(f"{draken.base}/t/nskt/standings/")
    first = draken.locator("table.standings tbody tr").first
    assert "De Draken" in first.locator(".c-name").inner_text()
    assert first.locator(".c-main").inner_text().strip() == "2"
    rows = draken.locator("table.standings tbody tr")
    feniksen_row = rows.filter(has_text="Feniksen Utrecht")
    assert feniksen_row.locator(".c-main").inner_text().strip() == "0"
    assert horizontal_overflow(draken) == 0
    # And the EW team's own page shows the match as lost.
    feniksen.goto(f"{feniksen.base}/t/nskt/mine/")
    assert "875" in feniksen.inner_text(".own-results") and "25" in feniksen.inner_text(".own-results")


def test_a_dispute_from_a_phone_reaches_the_referee_with_both_versions(new_page, private_links_world):
    """The EW team disagrees with the entered totals: it sends its own from its phone; the
    referee's result page shows both versions and "My tables" flags the table. Every page fits
    360 px, the organiser's link pages too."""
    from scoring.models import Dispute
    from scoring.policy import EntrantActor
    from scoring.results import sheet
    from tests.factories import GRAND_DOUBLE_VICTORY_NS, MembershipFactory, UserFactory

    t, match, other, tokens = private_links_world
    draken = EntrantActor(match.team_ns.link)
    for _ in range(2):
        sheet.add_record(match, GRAND_DOUBLE_VICTORY_NS, draken, expected_version=match.version)  # 800 : 0
    feniksen = new_page(PHONE)
    open_card(feniksen, tokens["Feniksen Utrecht"])
    feniksen.click("#confirm-link")
    feniksen.click("#dispute > summary")
    feniksen.fill("#id_dispute-total_0", "400")
    feniksen.fill("#id_dispute-total_1", "200")
    feniksen.fill("#id_dispute-note", "Hand 2 was our double victory")
    assert horizontal_overflow(feniksen) == 0
    shot(feniksen, "links-dispute-phone")
    feniksen.click("#dispute-button")
    feniksen.wait_for_url(f"**/t/nskt/match/{match.pk}/")
    assert feniksen.locator("#disputes").is_visible()
    d = Dispute.objects.get()
    assert (d.totals, d.entered_totals, d.via_entrant) == ([400, 200], [800, 0], "Feniksen Utrecht")

    referee = new_page(PHONE, user=t.memberships.get().user)
    referee.goto(f"{referee.base}/t/nskt/match/{match.pk}/")
    versions = referee.inner_text("#disputes")
    assert "NS 800 / EW 0" in versions and "NS 400 / EW 200" in versions and "Hand 2 was our double victory" in versions
    assert horizontal_overflow(referee) == 0
    shot(referee, "links-dispute-referee")
    referee.goto(f"{referee.base}/mijn-tafels/")
    assert referee.locator("#my-table-1 .dispute-flag").is_visible()
    assert horizontal_overflow(referee) == 0

    organiser = new_page(PHONE, user=MembershipFactory(tournament=t, user=UserFactory(username="org"), role="organiser").user)
    organiser.goto(f"{organiser.base}/t/nskt/links/")
    assert organiser.locator(".link-row").count() == 4
    assert horizontal_overflow(organiser) == 0
    shot(organiser, "links-organiser-phone")
    organiser.locator(".link-row").first.get_by_role("link").first.click()
    organiser.wait_for_selector(".qr svg")
    assert horizontal_overflow(organiser) == 0
    shot(organiser, "links-show-phone")
