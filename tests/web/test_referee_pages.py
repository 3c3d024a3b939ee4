"""The referee's pages of issue 11: "My tables" (item 3), the entry page as the QR code's target
(through the login page when not logged in), the result page's live region (item 5), blind
confirmation hiding the totals publicly (item 4), the end-at-time confirmation page (item 2) and
the submission token of the entry form (item 1)."""
import re

import pytest
from django.urls import reverse

from scoring.models import Hand, Round
from scoring.results import sheet
from tests.factories import (
    PLAIN_HAND,
    TAI_PAN_HAND,
    MatchFactory,
    RoundFactory,
    entry_data,
    named_teams,
    staff,
    table_round,
    taipan_round,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def u(name, *args):
    return reverse(f"scoring:{name}", args=list(args))


def test_my_tables_lists_the_current_round_with_links_to_enter(client):
    rnd, (m1, m2) = taipan_round(tables=2, name="Cup", slug="cup")
    people = staff(rnd.tournament)
    sheet.add_record(m1, PLAIN_HAND, people["referees"][1])
    trnd, (table,) = table_round("sichuan", name="Sichuan open", slug="sc")
    from tests.factories import MembershipFactory
    MembershipFactory(tournament=trnd.tournament, user=people["referee"])
    other_rnd, _ = taipan_round(name="Elsewhere", slug="elsewhere")
    client.force_login(people["referee"])
    page = client.get(u("my_tables"))
    html = page.content.decode()
    assert page.status_code == 200
    assert "Cup" in html and "Sichuan open" in html and "Elsewhere" not in html
    for container, name in ((m1, "match_enter"), (m2, "match_enter")):
        assert u(name, "cup", container.pk) in html
    assert u("table_enter", "sc", table.pk) in html
    assert u("my_tables") in html  # the nav link


def test_my_tables_offers_the_confirmation_to_another_referee_and_skips_drafts(client):
    rnd, (m1,) = taipan_round(name="Cup", slug="cup")
    people = staff(rnd.tournament)
    sheet.add_record(m1, PLAIN_HAND, people["referees"][1])
    sheet.end_at_time(m1, people["referees"][1], reason="time")
    RoundFactory(tournament=rnd.tournament, number=2, status=Round.Status.DRAFT)
    client.force_login(people["referee"])
    html = client.get(u("my_tables")).content.decode()
    assert u("match_confirm", "cup", m1.pk) in html
    assert "Round 1" in html or "Ronde 1" in html
    client.force_login(people["referees"][1])  # who ended it may not confirm
    assert u("match_confirm", "cup", m1.pk) not in client.get(u("my_tables")).content.decode()


def test_my_tables_needs_a_login_and_refuses_post(client):
    r = client.get(u("my_tables"))
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    rnd, _ = taipan_round()
    client.force_login(staff(rnd.tournament)["referee"])
    assert client.post(u("my_tables")).status_code == 405


def test_the_qr_code_leads_an_anonymous_referee_through_the_login_to_the_entry_page(client):
    """The score sheet's QR code opens the entry page: not logged in, the referee goes to the
    login page, which leads back to the entry page (and offers the public page to onlookers)."""
    rnd, (m,) = taipan_round(name="Cup", slug="cup")
    people = staff(rnd.tournament)
    enter = u("match_enter", "cup", m.pk)
    r = client.get(enter)
    assert r.status_code == 302 and r["Location"] == reverse("login") + "?next=" + enter
    login = client.get(r["Location"]).content.decode()
    assert 'name="next" value="' + enter + '"' in login
    assert 'id="login-purpose"' in login and 'href="' + u("match_detail", "cup", m.pk) + '"' in login
    people["referee"].set_password("pw")
    people["referee"].save()
    r = client.post(reverse("login"), {"username": people["referee"].username, "password": "pw", "next": enter})
    assert r.status_code == 302 and r["Location"] == enter
    page = client.get(enter)
    assert page.status_code == 200 and 'name="submission"' in page.content.decode()


def test_the_login_page_says_nothing_about_results_for_other_pages(client):
    rnd, _ = taipan_round(name="Cup", slug="cup")
    html = client.get(reverse("login") + "?next=" + u("my_tables")).content.decode()
    assert 'id="login-purpose"' not in html
    html = client.get(reverse("login") + "?next=https://elsewhere.example/t/cup/match/1/enter/").content.decode()
    assert 'id="login-purpose"' not in html


def test_the_entry_page_sends_a_table_qr_code_through_the_login_too(client):
    trnd, (table,) = table_round("sichuan", name="Sichuan open", slug="sc")
    enter = u("table_enter", "sc", table.pk)
    r = client.get(enter)
    assert r.status_code == 302 and r["Location"] == reverse("login") + "?next=" + enter
    assert 'href="' + u("table_detail", "sc", table.pk) + '"' in client.get(r["Location"]).content.decode()


def test_the_entry_page_sends_a_logged_in_visitor_without_the_role_to_the_result_page(client):
    rnd, (m,) = taipan_round(name="Cup", slug="cup")
    people = staff(rnd.tournament)
    client.force_login(people["outsider"])
    r = client.get(u("match_enter", "cup", m.pk))
    assert r.status_code == 302 and r["Location"] == u("match_detail", "cup", m.pk)
    assert "Only the tournament" in client.get(r["Location"]).content.decode()
    # the public's POST is still refused
    client.logout()
    r = client.post(u("match_enter", "cup", m.pk), entry_data(m, PLAIN_HAND))
    assert r.status_code == 302 and r["Location"].startswith(reverse("login"))
    assert not Hand.objects.exists()


def test_the_entry_form_carries_a_submission_token_and_a_retry_stores_one_hand(client):
    rnd, (m,) = taipan_round(name="Cup", slug="cup")
    people = staff(rnd.tournament)
    client.force_login(people["referee"])
    page = client.get(u("match_enter", "cup", m.pk)).content.decode()
    token = re.search(r'name="submission" value="([0-9a-f]{32})"', page).group(1)
    assert token not in client.get(u("match_enter", "cup", m.pk)).content.decode()  # one per rendered form
    data = entry_data(m, PLAIN_HAND, submission=token)
    first = client.post(u("match_enter", "cup", m.pk), data)
    again = client.post(u("match_enter", "cup", m.pk), data)  # the same form again, old version
    assert first.status_code == again.status_code == 302
    assert first["Location"] == again["Location"] == u("match_enter", "cup", m.pk) + "#record-1"
    assert Hand.objects.filter(match=m).count() == 1
    # an invalid form comes back with the same token
    bad = client.post(u("match_enter", "cup", m.pk), {**entry_data(m, PLAIN_HAND), "card_points_ns": "33",
                                                       "version": Hand.objects.get().match.version, "submission": "f" * 32})
    assert bad.status_code == 400 and 'value="' + "f" * 32 + '"' in bad.content.decode()
    assert 'id="entry-errors"' in bad.content.decode()


def test_the_result_page_polls_its_live_region_and_says_after_which_hand(client):
    rnd, (m,) = taipan_round(name="Cup", slug="cup")
    people = staff(rnd.tournament)
    sheet.add_record(m, PLAIN_HAND, people["referee"])
    sheet.add_record(m, TAI_PAN_HAND, people["referee"])
    html = client.get(u("match_detail", "cup", m.pk)).content.decode()
    live = re.search(r'<div id="live"([^>]*)>', html).group(1)
    assert 'hx-get="' + u("match_detail", "cup", m.pk) + '"' in live
    assert 'hx-trigger="live-refresh"' in live and 'data-live-poll="10"' in live and 'hx-select="#live"' in live
    assert f'data-live-topics="tournament result:{m.pk}"' in live
    assert "After hand 2" in html


def test_blind_confirmation_hides_the_totals_from_the_public_until_confirmed(client):
    rnd, (m,) = taipan_round(name="Cup", slug="cup", blind_confirmation=True)
    people = staff(rnd.tournament)
    sheet.add_record(m, TAI_PAN_HAND, people["referee"])  # 175 : 25
    sheet.end_at_time(m, people["referee"], reason="time")
    def shows_175(html: str) -> bool:
        """Whether the page's text (not its tags: ids and hashes may contain "175" on PostgreSQL,
        whose sequences run on across tests) shows the number 175."""
        return re.search(r"(?<![\d.,])175(?![\d.,])", re.sub(r"<[^>]*>", " ", html)) is not None

    public = client.get(u("match_detail", "cup", m.pk)).content.decode()
    assert not shows_175(public) and "<table class=\"records\"" not in public
    client.force_login(people["referees"][1])
    assert shows_175(client.get(u("match_detail", "cup", m.pk)).content.decode())  # members see them
    sheet.confirm(m, people["referees"][1], totals={"NS": 175, "EW": 25})
    client.logout()
    assert shows_175(client.get(u("match_detail", "cup", m.pk)).content.decode())


def test_the_end_page_asks_for_confirmation_and_tells_the_outcome(client):
    t_rnd, (m,) = taipan_round(name="Cup", slug="cup")
    people = staff(t_rnd.tournament)
    teams = named_teams(t_rnd.tournament, ["Alfa", "Bravo"])
    m2 = MatchFactory(round=t_rnd, table=2, team_ns=teams[0], team_ew=teams[1])
    sheet.add_record(m2, PLAIN_HAND, people["referee"])  # 75 : 25
    client.force_login(people["referee"])
    page = client.get(u("match_end", "cup", m2.pk))
    html = page.content.decode()
    assert page.status_code == 200 and 'name="end-reason"' in html
    assert "Alfa wins: 75 – 25." in html and "Yes, end the match" in html
    m2.refresh_from_db()
    assert m2.ended == ""  # a GET ends nothing
    detail = client.get(u("match_detail", "cup", m2.pk)).content.decode()
    assert 'id="more-actions"' in detail and 'name="end-reason"' not in detail


def test_the_four_player_entry_heading_names_the_table_once(client):
    """"Round 1 · Table 1", not "Round 1 · Table 1 · Table 1" (a four-player table's title is its
    number); a match keeps its teams after the table."""
    trnd, (table,) = table_round("sichuan", name="Sichuan open", slug="sc")
    client.force_login(staff(trnd.tournament)["referee"])
    html = client.get(u("table_enter", "sc", table.pk)).content.decode()
    line = re.search(r'<h1 class="entry-title"><a href="[^"]+">Round 1 · Table 1</a>([^<]*)</h1>', html)
    assert line and line.group(1) == ""
    assert "Table 1 · Table 1" not in html
    assert "Table 1 · Table 1" not in client.get(u("table_end", "sc", table.pk)).content.decode()
    rnd, (m,) = taipan_round(name="Cup", slug="cup")
    client.force_login(staff(rnd.tournament)["referee"])
    html = client.get(u("match_enter", "cup", m.pk)).content.decode()
    assert re.search(r'Round 1 · Table 1</a> <small class="muted">· [^<]+ – [^<]+</small></h1>', html)


def test_the_confirm_button_is_offered_only_to_who_may_confirm(client):
    """The referee who entered and ended a match sees no confirm button (on the confirm page nor
    on the result page) but the reason from the one rule (sheet.check_may_confirm); another
    referee sees the button; a match still being played offers it to no one and says why."""
    rnd, (m, m2) = taipan_round(tables=2, name="Cup", slug="cup")
    people = staff(rnd.tournament)
    entering, other = people["referee"], people["referees"][1]
    sheet.add_record(m, TAI_PAN_HAND, entering)
    sheet.end_at_time(m, entering, reason="time")
    refusal = "A different person must confirm the result than the one who entered it."
    client.force_login(entering)
    page = client.get(u("match_confirm", "cup", m.pk)).content.decode()
    assert 'id="confirm-button"' not in page and 'id="confirm-refusal"' in page and refusal in page
    detail = client.get(u("match_detail", "cup", m.pk)).content.decode()
    assert u("match_confirm", "cup", m.pk) not in detail and refusal in detail
    client.force_login(other)
    page = client.get(u("match_confirm", "cup", m.pk)).content.decode()
    assert 'id="confirm-button"' in page and 'id="confirm-refusal"' not in page
    assert u("match_confirm", "cup", m.pk) in client.get(u("match_detail", "cup", m.pk)).content.decode()
    # not finished: nobody is offered the button, and the page says why
    sheet.add_record(m2, PLAIN_HAND, entering)
    page = client.get(u("match_confirm", "cup", m2.pk)).content.decode()
    assert 'id="confirm-button"' not in page and "Only a finished result can be confirmed" in page
    assert 'id="confirm-refusal"' not in client.get(u("match_detail", "cup", m2.pk)).content.decode()
    # the button hidden or not, the rule decides a POST the same way
    client.force_login(entering)
    r = client.post(u("match_confirm", "cup", m.pk), {"version": m.__class__.objects.get(pk=m.pk).version})
    assert r.status_code == 400 and refusal in r.content.decode()


def test_the_end_banner_names_the_field(client, settings):
    """Ending at the time limit without a reason: the banner at the top names the field and links
    to it ("Reason: This field is required."), as the entry page's banner does; in Dutch "Reden:
    Dit veld is vereist."; a resume without a reason says the same on the result page."""
    rnd, (m,) = taipan_round(name="Cup", slug="cup")
    people = staff(rnd.tournament)
    sheet.add_record(m, TAI_PAN_HAND, people["referee"])
    client.force_login(people["referee"])
    m.refresh_from_db()
    r = client.post(u("match_end", "cup", m.pk), {"version": m.version, "end-reason": ""})
    html = r.content.decode()
    banner = re.search(r'<div class="banner" role="alert" id="end-errors".*?</div>', html, re.S).group(0)
    assert r.status_code == 400
    assert '<a href="#id_end-reason">Reason</a>: This field is required.' in banner
    m.refresh_from_db()
    assert m.ended == ""
    client.cookies["django_language"] = "nl"
    r = client.post(u("match_end", "cup", m.pk), {"version": m.version, "end-reason": ""})
    assert '<a href="#id_end-reason">Reden</a>: Dit veld is vereist.' in r.content.decode()
    assert "Niet beëindigd" in r.content.decode()
    client.cookies["django_language"] = "en"
    sheet.end_at_time(m, people["referee"], reason="time")
    m.refresh_from_db()
    r = client.post(u("match_resume", "cup", m.pk), {"version": m.version, "end-reason": ""}, follow=True)
    assert "Reason: This field is required." in r.content.decode()
