"""Private links on the pages (issue 15): opening a link keeps it in the phone's session and
leads to a token-free address; the entrant's page; entering, confirming and disputing through
the same result pages as referees; the referee sees both versions of a dispute; regenerating or
revoking signs phones out; requests through links are rate-limited; the organiser's pages.

Values from the NSKT rules: card points of a hand add up to 100; a double victory is 200 : 0;
Grand Tai Pan made is +200."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import AuditEntry, Confirmation, Dispute, EntrantLink, Hand, Round, Tournament
from scoring.participants import links
from scoring.results import sheet
from scoring.web.links import SESSION_KEY
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, entry_data
from tests.links.conftest import db_state, open_link

pytestmark = pytest.mark.django_db


def u(name, *args):
    return reverse(f"scoring:{name}", args=list(args))


def finished(world, name="Alpha"):
    m = world.match
    for record in (GRAND_DOUBLE_VICTORY_NS, GRAND_DOUBLE_VICTORY_NS):
        sheet.add_record(m, record, world.actor(name), expected_version=m.version)
    return m


# --------------------------------------------------------------------------- opening a link


def test_the_link_page_carries_no_token_and_its_script_posts_the_fragment(client, world):
    r = client.get(u("open_link"))
    assert r.status_code == 200 and "no-store" in r["Cache-Control"]
    html = r.content.decode()
    assert 'id="link-form"' in html and 'name="code"' in html and "/static/js/link.js" in html
    assert links.path_of(world.links["Alpha"]).startswith("/p/#")


def test_opening_a_link_moves_it_into_the_session_and_redirects_to_a_token_free_address(client, world):
    token = world.token("Alpha")
    r = open_link(client, token)
    assert r.status_code == 302 and r["Location"] == u("entrant_home", "tp")
    assert token not in r["Location"]
    held = client.session[SESSION_KEY]
    assert held == {str(world.tp.pk): {"link": world.links["Alpha"].pk, "hash": links.hash_of(token), "slug": "tp",
                                       "name": "Alpha"}}
    assert token not in str(dict(client.session))
    page = client.get(r["Location"])
    assert page.status_code == 200
    html = page.content.decode()
    assert "Alpha" in html and "Alpha A &amp; Alpha B" in html and token not in html
    assert "Table 1" in html and "Bravo (Bravo A &amp; Bravo B)" in html  # the next table with the opponents


def test_the_code_from_the_card_may_be_typed_in_groups_small_letters_and_look_alikes(client, world):
    """Issue 22: typed in small letters, with spaces for dashes, and "l" or "o" for the digits 1
    and 0 (Crockford's decoding), the code on the card opens the link."""
    typed = links.grouped(world.token("Ann")).lower().replace("-", " ").replace("1", "l").replace("0", "o")
    r = open_link(client, typed)
    assert r.status_code == 302 and r["Location"] == u("entrant_home", "sc")


def test_a_wrong_code_is_refused_and_changes_nothing(client, world):
    before = db_state()
    r = open_link(client, "abcd-efgh-ijkl-mnop-qrst-uvwx")
    assert r.status_code == 400 and b"does not work" in r.content
    for typed in ("ëüéñ€ 漢字", "x" * 5000, "\x00"):
        assert open_link(client, typed).status_code == 400, typed
    assert SESSION_KEY not in client.session
    assert db_state() == before


def test_an_empty_code_asks_for_the_code_and_is_not_counted_as_a_wrong_one(client, world):
    """Fresh tester of issue 22: an empty code was told it was typed wrong. Nothing typed (or only
    spaces and dashes) asks for the code, and no failed attempt is counted against the address."""
    from scoring.participants.links import FAILED_SCOPE, FAILED_WINDOW, count

    for typed in ("", "   ", "- -"):
        r = open_link(client, typed)
        assert r.status_code == 400 and b"Type the code from your card first." in r.content, typed
        assert b"does not work" not in r.content
    assert count(FAILED_SCOPE, "127.0.0.1", FAILED_WINDOW) == 1  # this count is the first in the window
    assert SESSION_KEY not in client.session


def test_the_entrant_page_without_a_link_says_how_to_open_it(client, world):
    r = client.get(u("entrant_home", "tp"))
    assert r.status_code == 403 and u("open_link").encode() in r.content


def test_a_link_of_one_tournament_is_nothing_in_another(client, world):
    open_link(client, world.token("Alpha"))
    assert client.get(u("entrant_home", "sc")).status_code == 403
    # there the phone is the public: the entry page asks for a login (which offers the result page)
    r = client.get(u("table_enter", "sc", world.table.pk))
    assert r.status_code == 302 and r["Location"] == reverse("login") + "?next=" + u("table_enter", "sc", world.table.pk)


def test_the_entrant_page_looks_for_its_table_until_the_tournament_is_finished(client, settings):
    """Found by the hall's acceptance test: publishing a round announces "find your table" on the
    link pages (live), but a page opened before (at check-in) kept saying "No round has been
    published yet" until reloaded, and between rounds kept the closed round's table: the card
    re-read itself only while its round was open. It now polls until the tournament is finished."""
    from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory

    settings.LIVE_POLL_SECONDS = 3
    t = TournamentFactory(slug="poll")
    ours, theirs = TeamFactory(tournament=t, name="Ours"), TeamFactory(tournament=t, name="Theirs")
    token = {str(link.entrant): links.token_of(link) for link in links.ensure_links(t)}["Ours"]
    open_link(client, token)
    url = u("entrant_home", "poll")
    # live region (static/js/live.js): re-read on its events, or every LIVE_POLL_SECONDS without them
    poll = re.compile(rf'id="current" hx-get="{url}" hx-trigger="live-refresh" [^>]*data-live-poll="3"[^>]* hx-select="#current"')
    assert poll.search(client.get(url).content.decode())  # no round yet: it looks for one
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    MatchFactory(round=rnd, table=4, team_ns=ours, team_ew=theirs)
    html = client.get(url, headers={"HX-Request": "true"}).content.decode()
    assert poll.search(html) and "Theirs" in html  # the poll's answer carries the table card
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    assert poll.search(client.get(url).content.decode())  # between rounds: still looking
    Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.FINISHED)
    assert "hx-get" not in client.get(url).content.decode().split('id="current"')[1][:20]


def test_regenerating_or_revoking_signs_the_phone_out(client, world):
    open_link(client, world.token("Alpha"))
    assert client.get(u("entrant_home", "tp")).status_code == 200
    links.regenerate(EntrantLink.objects.get(pk=world.links["Alpha"].pk))
    assert client.get(u("entrant_home", "tp")).status_code == 403
    assert SESSION_KEY in client.session and str(world.tp.pk) not in client.session[SESSION_KEY]
    open_link(client, world.token("Alpha"))  # the new token
    assert client.get(u("entrant_home", "tp")).status_code == 200
    links.revoke(EntrantLink.objects.get(pk=world.links["Alpha"].pk))
    assert client.get(u("entrant_home", "tp")).status_code == 403
    assert open_link(client, world.token("Alpha")).status_code == 400


def test_a_phone_whose_link_was_revoked_or_replaced_is_told_so(client, world):
    lost = "The private link of Alpha no longer works on this phone: the organiser revoked it or made a new one."
    for change in (links.revoke, links.regenerate):
        open_link(client, world.token("Alpha"))
        change(EntrantLink.objects.get(pk=world.links["Alpha"].pk))
        page = client.get(u("entrant_home", "tp"))
        assert page.status_code == 403 and lost in page.content.decode()
        refused = client.post(u("match_enter", "tp", world.match.pk), entry_data(world.match, PLAIN_HAND))
        assert refused.status_code == 403
        assert lost in refused.content.decode() and "Your account" not in refused.content.decode()
        links.regenerate(EntrantLink.objects.get(pk=world.links["Alpha"].pk))  # working again, with a new card
    open_link(client, world.token("Alpha"))
    assert lost not in client.get(u("entrant_home", "tp")).content.decode()


def test_a_link_holder_refused_is_told_about_its_link_not_an_account(client, world):
    """The confirming side's phone posting to the entry page once the other side entered."""
    alpha = client_class_for(client)
    open_link(alpha, world.token("Alpha"))
    m = world.match
    assert alpha.post(u("match_enter", "tp", m.pk), entry_data(m, PLAIN_HAND, submission="a" * 32)).status_code == 302
    open_link(client, world.token("Bravo"))
    m.refresh_from_db()
    r = client.post(u("match_enter", "tp", m.pk), entry_data(m, PLAIN_HAND, submission="b" * 32))
    assert r.status_code == 403
    text = r.content.decode()
    assert "Your account" not in text
    assert "Your private link lets your side enter or confirm the result of its own table only" in text
    assert u("entrant_home", "tp") in text


def test_the_entry_page_on_a_sides_phone_links_to_its_page_not_the_referee_guide(client, world):
    open_link(client, world.token("Alpha"))
    page = client.get(u("match_enter", "tp", world.match.pk)).content.decode()
    assert reverse("scoring:referee_guide") not in page and "Back to your page" in page
    client.force_login(world.referee)
    assert reverse("scoring:referee_guide") in client.get(u("match_enter", "tp", world.match.pk)).content.decode()


def test_forgetting_the_link_on_this_phone(client, world):
    open_link(client, world.token("Alpha"))
    r = client.post(u("forget_link", "tp"))
    assert r.status_code == 302 and client.get(u("entrant_home", "tp")).status_code == 403
    assert links.resolve(world.token("Alpha")) is not None  # the link still works elsewhere


def test_requests_through_a_link_and_attempts_to_open_one_are_rate_limited(client, world, settings, one_window):
    settings.LINK_RATE = "5/minute"
    open_link(client, world.token("Alpha"))  # the link's first request
    statuses = [client.get(u("entrant_home", "tp")).status_code for _ in range(5)]
    assert statuses == [200] * 4 + [429]
    r = client.get(u("match_detail", "tp", world.match.pk))
    assert r.status_code == 429 and r["Retry-After"] == "60"
    # Guessing codes from one address: after ten wrong ones in the hour, 429 with a delay that
    # doubles; a right code from the same address still opens (issue 22).
    other = client_class_for(client)
    answers = [open_link(other, f"WRONGC0DE{i:015d}") for i in range(13)]
    assert [r.status_code for r in answers] == [400] * 10 + [429] * 3
    assert [r["Retry-After"] for r in answers[10:]] == ["2", "4", "8"]
    refused = answers[-1].content.decode()  # the form again, to type the right code
    assert 'id="link-form"' in refused and "Too many wrong codes from this network" in refused and "8 seconds" in refused
    assert open_link(client_class_for(client), world.token("Bravo")).status_code == 302


def test_many_links_behind_one_address_are_limited_per_link_not_per_address(world, settings, one_window):
    """A venue's Wi-Fi: every phone has the same address; each link stays under LINK_RATE, their
    sum is far over it, and every request is answered."""
    settings.LINK_RATE = "5/minute"
    phones = {name: client_class_for(None) for name in ("Alpha", "Bravo", "Charlie", "Delta")}
    for name, phone in phones.items():
        assert open_link(phone, world.token(name)).status_code == 302
    for _ in range(3):  # 3 more requests per link: 4 each, 16 from the address
        for phone in phones.values():
            assert phone.get(u("match_detail", "tp", world.match.pk)).status_code == 200
    alpha = [phones["Alpha"].get(u("entrant_home", "tp")).status_code for _ in range(2)]
    assert alpha == [200, 429]  # the 6th through one link
    # One phone guessing 130 codes from that address (issue 22) stops neither the phones that hold
    # their link nor a phone opening its own link from the same address: a right code always opens.
    guesses = [open_link(client_class_for(None), "x" * 24).status_code for _ in range(130)]
    assert guesses == [400] * 10 + [429] * 120
    assert phones["Bravo"].get(u("entrant_home", "tp")).status_code == 200
    late = open_link(client_class_for(None), world.token("Charlie"))
    assert late.status_code == 302 and late["Location"] == u("entrant_home", "tp")


def client_class_for(client):
    from django.test import Client

    return Client()


# --------------------------------------------------------------------------- entering through a link


def test_one_side_enters_on_the_referees_entry_page_and_the_other_side_confirms(client, world, django_user_model):
    open_link(client, world.token("Alpha"))
    m = world.match
    home = client.get(u("entrant_home", "tp")).content.decode()
    assert u("match_enter", "tp", m.pk) in home
    r = client.get(u("match_enter", "tp", m.pk))
    assert r.status_code == 200 and b'id="entry-form"' in r.content
    r = client.post(u("match_enter", "tp", m.pk), entry_data(m, GRAND_DOUBLE_VICTORY_NS, submission="a" * 32))
    assert r.status_code == 302 and r["Location"].endswith("#record-1")
    m.refresh_from_db()
    r = client.post(u("match_enter", "tp", m.pk), entry_data(m, GRAND_DOUBLE_VICTORY_NS, submission="b" * 32))
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.status) == (800, 0, "finished")
    # The entering side cannot confirm; its result page says the other side does.
    detail = client.get(u("match_detail", "tp", m.pk)).content.decode()
    assert u("match_confirm", "tp", m.pk) not in detail and 'id="waiting-note"' in detail
    assert client.post(u("match_confirm", "tp", m.pk), {"version": m.version}).status_code == 400
    # The other side, on its own phone.
    from django.test import Client

    bravo = Client()
    bravo.cookies["django_language"] = "en"
    open_link(bravo, world.token("Bravo"))
    assert bravo.get(u("match_enter", "tp", m.pk)).status_code == 302  # Alpha enters this match
    detail = bravo.get(u("match_detail", "tp", m.pk)).content.decode()
    assert 'id="entrant-confirm"' in detail
    page = bravo.get(u("match_confirm", "tp", m.pk))
    assert page.status_code == 200 and b"800" in page.content and b'id="dispute"' in page.content
    r = bravo.post(u("match_confirm", "tp", m.pk), {"version": m.version})
    assert r.status_code == 302
    m.refresh_from_db()
    assert m.status == "confirmed"
    assert Confirmation.objects.get(match=m).via_entrant == "Bravo"
    assert [e.via_entrant for e in AuditEntry.objects.filter(match=m).order_by("pk")] == ["Alpha", "Alpha", "Bravo"]
    # The referee's result page names them in the history; the public page never does.
    client.force_login(world.referee)
    history = client.get(u("match_detail", "tp", m.pk)).content.decode()
    assert "Alpha (private link)" in history and "Confirmed by Bravo (private link)" in history
    client.logout()
    public = client.get(u("match_detail", "tp", m.pk)).content.decode()
    assert "private link" not in public


def test_a_link_may_not_open_another_tables_entry_page_or_post_there(client, world):
    open_link(client, world.token("Alpha"))
    before = db_state()
    r = client.get(u("match_enter", "tp", world.match2.pk))
    assert r.status_code == 302 and r["Location"] == u("match_detail", "tp", world.match2.pk)
    for name, data in (("match_enter", entry_data(world.match2, PLAIN_HAND)), ("hand_preview", entry_data(world.match2, PLAIN_HAND)),
                       ("match_end", {"version": 0, "end-reason": "time"}), ("match_confirm", {"version": 0})):
        assert client.post(u(name, "tp", world.match2.pk), data).status_code == 403, name
    assert client.get(u("match_detail", "tp", world.draft_match.pk)).status_code == 404
    assert client.post(u("match_enter", "tp", world.draft_match.pk), entry_data(world.draft_match, PLAIN_HAND)).status_code == 404
    assert client.get(u("round_pairings", "tp", 2)).status_code == 404
    assert db_state() == before


def test_without_player_entry_the_link_only_shows(client, world):
    Tournament.objects.filter(pk=world.tp.pk).update(player_entry=False)
    open_link(client, world.token("Alpha"))
    home = client.get(u("entrant_home", "tp")).content.decode()
    assert "The referees enter the results" in home and u("match_enter", "tp", world.match.pk) not in home
    r = client.get(u("match_enter", "tp", world.match.pk))
    assert r.status_code == 302
    before = db_state()
    assert client.post(u("match_enter", "tp", world.match.pk), entry_data(world.match, PLAIN_HAND)).status_code == 403
    assert db_state() == before


def test_blind_confirmation_hides_the_totals_from_the_side_that_confirms(client, world):
    from django.test import Client

    Tournament.objects.filter(pk=world.tp.pk).update(blind_confirmation=True)
    m = finished(world)
    open_link(client, world.token("Bravo"))
    pages = [u("match_detail", "tp", m.pk), u("match_confirm", "tp", m.pk), u("round_pairings", "tp", 1),
             u("team_breakdown", "tp", world.teams["Alpha"].pk)]
    for url in pages:
        assert "800" not in client.get(url).content.decode(), url
    # The entering side sees its own totals all along: on the result page and, as the same actor,
    # on the round and team pages.
    alpha = Client()
    open_link(alpha, world.token("Alpha"))
    assert b"800" in alpha.get(u("match_detail", "tp", m.pk)).content
    assert "800 – 0" in alpha.get(u("round_pairings", "tp", 1)).content.decode()
    assert "800 – 0" in alpha.get(u("team_breakdown", "tp", world.teams["Alpha"].pk)).content.decode()
    r = client.post(u("match_confirm", "tp", m.pk), {"version": m.version, "total_0": 800, "total_1": 100})
    assert r.status_code == 400 and b"do not match" in r.content
    r = client.post(u("match_confirm", "tp", m.pk), {"version": m.version, "total_0": 800, "total_1": 0})
    assert r.status_code == 302
    assert "800 – 0" in client.get(u("round_pairings", "tp", 1)).content.decode()


# --------------------------------------------------------------------------- disputes


def test_a_dispute_goes_to_the_referee_with_both_versions(client, world):
    m = finished(world)
    open_link(client, world.token("Bravo"))
    r = client.post(u("match_dispute", "tp", m.pk), {"version": m.version, "dispute-total_0": 400, "dispute-total_1": 400,
                                                     "dispute-note": "Hand 2 was a double victory of EW"})
    assert r.status_code == 302
    d = Dispute.objects.get()
    assert (d.totals, d.entered_totals, d.via_entrant) == ([400, 400], [800, 0], "Bravo")
    assert "totals are wrong" in client.get(u("entrant_home", "tp")).content.decode()
    # The referee sees both versions on the result page and a flag on "My tables".
    client.force_login(world.referee)
    page = client.get(u("match_detail", "tp", m.pk)).content.decode()
    assert 'id="disputes"' in page and "NS 800 / EW 0" in page and "NS 400 / EW 400" in page
    assert "Hand 2 was a double victory of EW" in page
    tables = client.get(u("my_tables")).content.decode()
    assert "Disputed: both versions are on the result page." in tables
    # Settled by a referee's confirmation; the flag is gone.
    m.refresh_from_db()
    assert client.post(u("match_confirm", "tp", m.pk), {"version": m.version}).status_code == 302
    assert Dispute.objects.get().confirmation is not None
    assert "Disputed:" not in client.get(u("my_tables")).content.decode()


def test_a_stale_or_invalid_dispute_changes_nothing(client, world):
    m = finished(world)
    open_link(client, world.token("Bravo"))
    before = db_state()
    r = client.post(u("match_dispute", "tp", m.pk), {"version": m.version - 1, "dispute-total_0": 1, "dispute-total_1": 2})
    assert r.status_code == 409
    r = client.post(u("match_dispute", "tp", m.pk), {"version": m.version, "dispute-total_0": "x"})
    assert r.status_code == 400
    assert db_state() == before


def test_a_dispute_of_a_result_still_being_played_is_refused_for_its_state_whatever_the_totals(client, world):
    m = world.match
    open_link(client, world.token("Bravo"))
    before = db_state()
    for data in ({"dispute-total_0": "x"}, {}, {"dispute-total_0": 1, "dispute-total_1": 2}):
        r = client.post(u("match_dispute", "tp", m.pk), {"version": m.version, **data})
        assert r.status_code == 400, data
        assert r.context["dispute_form"].non_field_errors() == [
            "Only a finished result can be confirmed: play on, or end it at the time limit."], data
    assert db_state() == before


# --------------------------------------------------------------------------- organisers


def test_the_organiser_lists_shows_regenerates_and_revokes_links(client, world):
    client.force_login(world.organiser)
    page = client.get(u("links", "tp")).content.decode()
    for name in ("Alpha", "Bravo", "Charlie", "Delta"):
        assert name in page
    for name in world.links:
        assert world.token(name) not in page  # the list shows no token
    alpha = world.links["Alpha"]
    shown = client.get(u("link_detail", "tp", alpha.pk))
    assert shown.status_code == 200 and "no-store" in shown["Cache-Control"]
    assert links.grouped(world.token("Alpha")) in shown.content.decode() and b"<svg" in shown.content
    old = world.token("Alpha")
    assert client.post(u("link_action", "tp", alpha.pk, "regenerate")).status_code == 302
    assert links.resolve(old) is None and links.resolve(world.token("Alpha")) is not None
    assert client.post(u("link_action", "tp", alpha.pk, "revoke")).status_code == 302
    assert EntrantLink.objects.get(pk=alpha.pk).revoked
    assert "revoked" in client.get(u("links", "tp")).content.decode()
    assert client.post(u("link_action", "tp", alpha.pk, "delete")).status_code == 404
    # A link of another tournament is not found under this one.
    assert client.get(u("link_detail", "tp", world.links["Ann"].pk)).status_code == 404


def test_only_organisers_reach_the_link_pages(client, world):
    urls = [u("links", "tp"), u("link_detail", "tp", world.links["Alpha"].pk), u("link_cards", "tp")]
    open_link(client, world.token("Alpha"))
    for url in urls:
        r = client.get(url)
        assert r.status_code == 302 and r["Location"].startswith(reverse("login")), url
    for who in ("outsider", "referee"):
        client.force_login(getattr(world, who))
        for url in urls:
            assert client.get(url).status_code == 403, (who, url)
    before = db_state()
    assert client.post(u("link_action", "tp", world.links["Alpha"].pk, "regenerate")).status_code == 403
    assert db_state() == before


def test_the_tournament_form_has_the_player_entry_setting(client, world):
    client.force_login(world.organiser)
    html = client.get(u("tournament_edit", "sc")).content.decode()
    assert 'name="player_entry"' in html


def test_hands_entered_through_links_count_in_the_standings(client, world):
    m = finished(world)
    sheet.confirm(m, world.actor("Bravo"), expected_version=m.version)
    from scoring.standings import team_standings

    rows = {r.name: r for r in team_standings(world.tp)}
    assert rows["Alpha"].match_points == 2 and rows["Bravo"].match_points == 0
    assert Hand.objects.filter(match=m, entered_by=None).count() == 2


def test_a_polled_page_is_not_answered_304_across_opening_a_link(client, world):
    """The result page answers polls with 304 while nothing changed (scoring.web.conditional);
    opening the link on the same phone changes who acts, so the page is rendered again with the
    entrant's actions (and again when the link is regenerated)."""
    m = finished(world)
    url = u("match_detail", "tp", m.pk)
    first = client.get(url)
    etag = first["ETag"]
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    open_link(client, world.token("Bravo"))
    page = client.get(url, HTTP_IF_NONE_MATCH=etag)
    assert page.status_code == 200 and b'id="entrant-confirm"' in page.content
    assert client.get(url, HTTP_IF_NONE_MATCH=page["ETag"]).status_code == 304
    links.regenerate(EntrantLink.objects.get(pk=world.links["Bravo"].pk))
    again = client.get(url, HTTP_IF_NONE_MATCH=page["ETag"])
    assert again.status_code == 200 and b'id="entrant-confirm"' not in again.content
    # Player entry turned off changes the page too.
    open_link(client, world.token("Bravo"))
    on = client.get(url)
    Tournament.objects.filter(pk=world.tp.pk).update(player_entry=False)
    off = client.get(url, HTTP_IF_NONE_MATCH=on["ETag"])
    assert off.status_code == 200 and b'id="entrant-confirm"' not in off.content
