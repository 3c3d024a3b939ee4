"""After a save conflict on the entry page (issue 23 item 10): a colleague saved a record first.
One banner says what happened (no "correct what is marked" with nothing marked, no second copy of
the message); the page lists the colleague's record, the form is for the next number and keeps
the typed input visibly as "your input (not saved)"; saving it again needs a deliberate tick, so a
second tap on "Save" never stores the same hand twice. Tai Pan and four-player tables alike."""
import re

import pytest
from django.urls import reverse
from django.utils import translation

from scoring.kinds import kind_of
from tests.factories import staff, table_round, taipan_round
from tests.web.entry_data import T01, hand_data, tw_post

pytestmark = pytest.mark.django_db

KINDS = {
    "match": {"enter": "match_enter", "first": hand_data(None, first_out="N", ns=75),
              "mine": hand_data(None, first_out="E", ns=50), "noun": "hand"},
    "table": {"enter": "table_enter", "first": tw_post("S", **T01), "mine": tw_post("draw"), "noun": "deal"},
}


@pytest.fixture(autouse=True)
def _english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(params=list(KINDS))
def race(request, client):
    """Record 1 saved; the referee opened the form for record 2 at that version; a colleague then
    saved record 2."""
    k = KINDS[request.param]
    if request.param == "match":
        rnd, (container,) = taipan_round()
    else:
        rnd, (container,) = table_round("taiwanese")
    people = staff(rnd.tournament)
    url = reverse(f"scoring:{k['enter']}", args=[rnd.tournament.slug, container.pk])
    client.force_login(people["referees"][1])
    assert client.post(url, {**k["first"], "version": 0}).status_code == 302
    container.refresh_from_db()
    seen = container.version
    assert client.post(url, {**k["first"], "version": seen}).status_code == 302  # the colleague's record 2
    client.force_login(people["referee"])
    return {**k, "container": container, "url": url, "seen": seen}


def alerts(html: str) -> list[str]:
    """The banners shown (role="alert", not hidden)."""
    return [m for m in re.findall(r"<div[^>]*role=\"alert\"[^>]*>", html) if " hidden" not in m]


def test_one_banner_next_number_input_kept(client, race):
    r = client.post(race["url"], {**race["mine"], "version": race["seen"], "record_number": "2"})
    html = r.content.decode()
    noun = race["noun"]
    assert r.status_code == 409
    assert len(alerts(html)) == 1 and 'id="stale-note"' in alerts(html)[0]
    assert f"Not saved: someone else saved {noun} 2 first." in html
    assert "correct what is marked" not in html and "errorlist nonfield" not in html
    assert "changed by someone else in the meantime" not in html
    heading = html.split('id="entry-heading">', 1)[1].split("</h2>", 1)[0]
    assert heading.startswith(f"{noun.capitalize()} 3") and "your input (not saved)" in heading
    assert 'name="confirm_new"' in html and 'name="after_conflict"' in html
    c = race["container"]
    c.refresh_from_db()
    assert f'name="version" value="{c.version}"' in html  # the form now builds on the colleague's record
    assert len(kind_of(c).records(c)) == 2


def test_saving_the_kept_input_needs_the_tick(client, race):
    r = client.post(race["url"], {**race["mine"], "version": race["seen"], "record_number": "2"})
    c = race["container"]
    c.refresh_from_db()
    again = {**race["mine"], "version": c.version, "after_conflict": "1"}
    r = client.post(race["url"], again)  # a second tap on "Save"
    assert r.status_code == 400 and "Tick this box to save your input" in r.content.decode()
    c.refresh_from_db()
    assert len(kind_of(c).records(c)) == 2
    r = client.post(race["url"], {**again, "confirm_new": "1"})
    assert r.status_code == 302
    c.refresh_from_db()
    assert len(kind_of(c).records(c)) == 3


def test_discard_leads_to_a_fresh_form(client, race):
    html = client.post(race["url"], {**race["mine"], "version": race["seen"], "record_number": "2"}).content.decode()
    link = html.split('id="stale-note"', 1)[1].split('href="', 1)[1].split('"', 1)[0]
    fresh = client.get(link).content.decode()
    assert "your input (not saved)" not in fresh and 'name="after_conflict"' not in fresh


def test_a_bad_version_is_one_plain_banner(client, race):
    """A missing or forged version (nobody saved the record first): the one "changed, reload"
    banner, no "your input (not saved)"."""
    html = client.post(race["url"], {**race["mine"], "version": "x", "record_number": "3"}).content.decode()
    assert len(alerts(html)) == 1 and "This result changed, reload." in html
    assert "your input (not saved)" not in html and "errorlist nonfield" not in html


def test_marked_fields_still_get_the_correct_banner(client):
    rnd, (match,) = taipan_round()
    client.force_login(staff(rnd.tournament)["referee"])
    url = reverse("scoring:match_enter", args=[rnd.tournament.slug, match.pk])
    html = client.post(url, hand_data(0, first_out="", ns="")).content.decode()
    assert "The hand was not saved: correct what is marked." in html


def test_a_conflict_on_the_last_deal_says_nothing_more_can_be_entered(client):
    """Two referees save the last deal of a fixed two-deal round at once (tester 24): the second
    is told the result ended with the colleague's deal and sees their own input, not saved, with
    no form to save it in."""
    rnd, (table,) = table_round("taiwanese", round_format="fixed_hands", hands_per_round=2)
    people = staff(rnd.tournament)
    url = reverse("scoring:table_enter", args=[rnd.tournament.slug, table.pk])
    client.force_login(people["referees"][1])
    assert client.post(url, {**tw_post("S", **T01), "version": 0}).status_code == 302
    table.refresh_from_db()
    seen = table.version
    assert client.post(url, {**tw_post("S", **T01), "version": seen}).status_code == 302  # the last deal
    client.force_login(people["referee"])
    r = client.post(url, {**tw_post("draw"), "version": seen, "record_number": "2"})
    html = r.content.decode()
    assert "Not saved: someone else saved deal 2 first." in html
    assert "ended the result: nothing more can be entered" in html and "save it only if" not in html
    assert 'id="kept-input"' in html and 'id="save"' not in html
