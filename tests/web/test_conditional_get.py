"""Conditional GET on the pages phones poll (issue 13 item 5, :mod:`scoring.web.conditional`): the
standings, a round's tables and a result page answer anonymous visitors with an ETag; the same
GET with ``If-None-Match`` gets ``304 Not Modified`` without the page being rendered, until
something the page shows changes (a new record, a team renamed, another language), which gives
200 with a new ETag. Members always get the full page (their name and actions are on it)."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.http import HttpResponse
from django.middleware.csrf import get_token
from django.test import Client, RequestFactory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Membership, Round, Team
from scoring.results import sheet
from scoring.standings import standings_for, teams
from scoring.web import conditional
from tests.factories import (
    GRAND_DOUBLE_VICTORY_NS,
    PLAIN_HAND,
    RECORDS,
    UserFactory,
    one_result,
    played_taipan_tournament,
)

pytestmark = pytest.mark.django_db


def poll(client, url, etag):
    """A GET with ``If-None-Match: etag``; returns the response and the queries it took."""
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
    return response, len(ctx.captured_queries)


def assert_not_modified(client, url):
    """A first GET (200 with an ETag), then the same GET with If-None-Match: 304, no page rendered,
    no body, the ETag again, the browser's security policy left alone. Returns the ETag."""
    first = client.get(url)
    assert first.status_code == 200 and first.templates
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"')
    assert "no-cache" in first["Cache-Control"] and "private" in first["Cache-Control"]
    assert "Content-Security-Policy" in first
    again, queries = poll(client, url, etag)
    assert again.status_code == 304, again.status_code
    assert again.templates == [] and again.content == b""
    assert again["ETag"] == etag
    assert "Content-Security-Policy" not in again  # the policy (and nonces) of the page kept
    with CaptureQueriesContext(connection) as ctx:
        client.get(url)
    assert queries < len(ctx.captured_queries), "a 304 must cost less than the page"
    return etag


def changed(client, url, etag) -> str:
    response, _queries = poll(client, url, etag)
    assert response.status_code == 200
    assert response["ETag"] != etag
    return response["ETag"]


def test_standings_304_while_matches_are_played_new_page_once_a_result_counts(client):
    """The standings' ETag covers what they show: the results that count (finished or confirmed)
    and the rounds' progress. A hand saved in a match still being played changes neither, so the
    standings' polls stay 304 while the matches are played; finishing, confirming, reopening or
    correcting a result gives a new page, which shows the fresh standings."""
    t = played_taipan_tournament(6, 1)
    rnd = Round.objects.create(tournament=t, number=2, status=Round.Status.PUBLISHED)
    a, b = Team.objects.filter(tournament=t).order_by("name")[:2]
    match = rnd.matches.create(table=1, team_ns=a, team_ew=b)
    referee, other = UserFactory(), UserFactory()
    for user in (referee, other):
        Membership.objects.create(tournament=t, user=user, role=Membership.Role.REFEREE)
    url = reverse("scoring:standings", args=[t.slug])
    etag = assert_not_modified(client, url)
    sheet.add_record(match, GRAND_DOUBLE_VICTORY_NS, referee)  # still being played: not counted, nothing shown changed
    assert poll(client, url, etag)[0].status_code == 304
    assert 'data-after' in client.get(url).content.decode()

    def fresh(etag):
        etag = changed(client, url, etag)
        assert_not_modified(client, url)
        assert standings_for(t) == teams.standings(t)  # never a stale table
        return etag

    sheet.add_record(match, GRAND_DOUBLE_VICTORY_NS, referee, expected_version=match.version)  # finished 800 : 0
    etag = fresh(etag)
    assert "Standings after round 2" in client.get(url, HTTP_COOKIE="django_language=en").content.decode()
    sheet.confirm(match, other, expected_version=match.version)
    etag = fresh(etag)
    sheet.reopen(match, other, "card points of hand 2", expected_version=match.version)
    etag = fresh(etag)
    sheet.edit_record(match, 2, PLAIN_HAND, referee, expected_version=match.version, reason="fix")  # being played again
    etag = fresh(etag)
    after_round_1 = url + "?round=1"
    other_etag = assert_not_modified(client, after_round_1)
    assert other_etag != etag  # another URL, another page


def test_round_page_304_until_a_record_or_a_rename(client):
    match, people = one_result("match")
    t = match.round.tournament
    url = reverse("scoring:round_pairings", args=[t.slug, 1])
    etag = assert_not_modified(client, url)
    sheet.add_record(match, RECORDS["match"][0], people["referee"])
    etag = changed(client, url, etag)
    team = match.team_ns
    team.name = "Renamed"
    team.save()
    etag = changed(client, url, etag)
    assert "Renamed" in client.get(url).content.decode()


def test_result_page_304_until_a_new_record(client):
    for kind in ("match", "table"):
        container, people = one_result(kind)
        t = container.round.tournament
        url = reverse(f"scoring:{kind}_detail", args=[t.slug, container.pk])
        etag = assert_not_modified(client, url)
        sheet.add_record(container, RECORDS[kind][0], people["referee"])
        changed(client, url, etag)


def test_four_player_round_page_and_standings(client):
    table, people = one_result("table")
    t = table.round.tournament
    tables, standings = reverse("scoring:round_tables", args=[t.slug, 1]), reverse("scoring:standings", args=[t.slug])
    etags = {url: assert_not_modified(client, url) for url in (tables, standings)}
    sheet.add_record(table, RECORDS["table"][0], people["referee"])
    etags[tables] = changed(client, tables, etags[tables])
    assert poll(client, standings, etags[standings])[0].status_code == 304  # being played: not counted yet
    sheet.end_at_time(table, people["referee"], expected_version=table.version, reason="time")
    for url in (tables, standings):
        changed(client, url, etags[url])


def test_another_language_is_another_page(client):
    match, _people = one_result("match")
    url = reverse("scoring:match_detail", args=[match.round.tournament.slug, match.pk])
    etag = assert_not_modified(client, url)
    client.cookies["django_language"] = "en"
    changed(client, url, etag)


def test_members_always_get_the_page(client):
    match, people = one_result("match")
    client.force_login(people["referee"])
    url = reverse("scoring:round_pairings", args=[match.round.tournament.slug, 1])
    first = client.get(url)
    assert first.status_code == 200 and not first.has_header("ETag")
    assert client.get(url, HTTP_IF_NONE_MATCH='"anything"').status_code == 200


def test_draft_round_and_its_results_stay_hidden(client):
    match, _people = one_result("match", status=Round.Status.DRAFT)
    t = match.round.tournament
    for url in (reverse("scoring:round_pairings", args=[t.slug, 1]), reverse("scoring:match_detail", args=[t.slug, match.pk])):
        assert client.get(url, HTTP_IF_NONE_MATCH='"x"').status_code == 404


# --------------------------------------------------------------------------- live polls

#: The headers of htmx's poll of a page's live region (``<div id="live">`` polling its page).
LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live", "HTTP_HX_TRIGGER": "live"}


def live_urls(container) -> list[str]:
    t = container.round.tournament
    return [reverse("scoring:round_pairings", args=[t.slug, 1]), reverse("scoring:standings", args=[t.slug]),
            reverse("scoring:match_detail", args=[t.slug, container.pk])]


def test_a_live_poll_gets_the_live_region_the_same_for_every_anonymous_phone():
    """htmx's poll gets the page's live region only (it swaps in ``#live``), which holds nothing of
    the visitor's own (no CSRF token, no CSP nonce): two phones with their own cookies get the same
    bytes, the second without a rendering (kept in the cache under the page's state). A new hand
    gives a new state and a new region; the full page is still the full page."""
    match, people = one_result("match")
    cache.clear()
    before = {}
    for url in live_urls(match):
        a, b = Client(), Client()
        full = a.get(url)
        b.get(url)
        assert full.status_code == 200 and "<html" in full.content.decode() and "csrftoken" in a.cookies
        first = a.get(url, **LIVE)
        body = first.content.decode()
        assert first.status_code == 200 and first.templates, url
        assert body.lstrip().startswith('<div id="live"') and "<html" not in body, url
        assert "csrf" not in body.lower() and "nonce" not in body and "X-CSRFToken" not in body, url
        assert {"HX-Request", "HX-Target"} <= {h.strip() for h in first["Vary"].split(",")}
        second = b.get(url, **LIVE)
        assert second.status_code == 200 and second.templates == [], url  # not rendered again
        assert second.content == first.content, url
        assert b.get(url, HTTP_IF_NONE_MATCH=second["ETag"], **LIVE).status_code == 304
        before[url] = first.content
    sheet.add_record(match, RECORDS["match"][0], people["referee"])
    for url in live_urls(match)[::2]:  # the round's page and the match's: a new hand is shown
        after = Client().get(url, **LIVE)
        assert after.status_code == 200 and after.templates and after.content != before[url], url
        assert Client().get(url, **LIVE).content == after.content


def test_members_live_polls_are_their_own(client):
    """A member's poll is rendered for them (their actions), never taken from the shared regions."""
    match, people = one_result("match")
    cache.clear()
    url = live_urls(match)[0]
    Client().get(url, **LIVE)  # an anonymous phone's region is kept
    client.force_login(people["referee"])
    response = client.get(url, **LIVE)
    assert response.status_code == 200 and response.templates
    assert response.content.decode().lstrip().startswith('<div id="live"')


def test_a_region_that_uses_the_visitors_token_or_nonce_is_not_kept():
    """What :func:`scoring.web.conditional._render_shared` keeps: a plain region, not one whose
    rendering asked for the visitor's CSRF token or CSP nonce."""
    cache.clear()
    factory = RequestFactory()
    calls = []

    def plain():
        calls.append("plain")
        return HttpResponse("<div id=live>same for all</div>")

    def with_token(request):
        def view():
            calls.append("token")
            return HttpResponse(f"<div id=live>{get_token(request)}</div>")
        return view

    def with_nonce(request):
        def view():
            calls.append("nonce")
            request._csp_nonce = "abc"  # as django-csp does when the page reads request.csp_nonce
            return HttpResponse("<div id=live><script nonce=abc></script></div>")
        return view

    for _ in range(2):
        assert conditional._render_shared(factory.get("/"), "live:test-plain", plain).status_code == 200
        request = factory.get("/")
        conditional._render_shared(request, "live:test-token", with_token(request))
        request = factory.get("/")
        conditional._render_shared(request, "live:test-nonce", with_nonce(request))
    assert calls == ["plain", "token", "nonce", "token", "nonce"]


def test_a_region_another_process_is_rendering_is_waited_for_not_rendered_again():
    """A hall of phones woken by one event: the first worker to miss the region claims it and
    renders; another finds the claim and takes the region once it is kept."""
    import threading

    from scoring import caching

    cache.clear()
    calls = []

    def view():
        calls.append("rendered")
        return HttpResponse("<div id=live>mine</div>")

    assert caching.claim("live:test-claimed", 5)  # another worker is rendering it
    threading.Timer(0.05, lambda: caching.set("live:test-claimed", ("text/html; charset=utf-8", b"<div id=live>theirs</div>"), 60)).start()
    response = conditional._render_shared(RequestFactory().get("/"), "live:test-claimed", view)
    assert response.content == b"<div id=live>theirs</div>" and calls == []


def test_a_claim_never_fulfilled_is_rendered_after_the_wait(monkeypatch):
    import time

    from scoring import caching

    cache.clear()
    monkeypatch.setattr(conditional, "CLAIM_WAIT", 0.05)
    assert caching.claim("live:test-stuck", 5)  # a worker that claimed it and died
    start = time.monotonic()
    response = conditional._render_shared(RequestFactory().get("/"), "live:test-stuck",
                                          lambda: HttpResponse("<div id=live>here</div>"))
    assert response.content == b"<div id=live>here</div>" and time.monotonic() - start >= 0.05
    assert not caching.claim("live:test-stuck", 5)  # still claimed (until it expires); kept now:
    assert conditional._cache_get("live:test-stuck") == ("text/html; charset=utf-8", b"<div id=live>here</div>")


def test_a_claim_is_released_when_the_answer_is_not_kept():
    from scoring import caching

    cache.clear()
    conditional._render_shared(RequestFactory().get("/"), "live:test-404", lambda: HttpResponse(status=404))
    assert caching.claim("live:test-404", 5)  # free again: the next asker renders at once


def test_a_claim_is_released_when_the_view_raises():
    from django.http import Http404

    from scoring import caching

    cache.clear()

    def missing():
        raise Http404

    with pytest.raises(Http404):
        conditional._render_shared(RequestFactory().get("/"), "live:test-raises", missing)
    assert caching.claim("live:test-raises", 5)
