"""Conditional GET on the pages phones poll (issue 13 item 5, :mod:`scoring.web.conditional`): the
standings, a round's tables and a result page answer anonymous visitors with an ETag; the same
GET with ``If-None-Match`` gets ``304 Not Modified`` without the page being rendered, until
something the page shows changes (a new record, a team renamed, another language), which gives
200 with a new ETag. Members always get the full page (their name and actions are on it)."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Membership, Round, Team
from scoring.results import sheet
from scoring.standings import standings_for, teams
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
