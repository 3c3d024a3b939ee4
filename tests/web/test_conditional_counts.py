"""A 304 costs the same whatever the field's size (issue 25 item 4): the polled pages' states are
the tournament's state counters read by primary key (:mod:`scoring.live.state`), not aggregates
over the matches or the entrants. Counted in queries here; the time is in
``benchmarks/bench_conditional.py``."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Match, Round
from scoring.results import sheet
from tests.factories import PLAIN_HAND, circle_pairs, played_taipan_tournament, staff

pytestmark = pytest.mark.django_db


def field(teams: int):
    """``teams`` teams after two closed rounds, round 3 in progress with one hand at table 1."""
    t = played_taipan_tournament(teams, 2)
    rnd = Round.objects.create(tournament=t, number=3, status=Round.Status.PUBLISHED)
    field = list(t.teams.order_by("seed"))
    Match.objects.bulk_create([Match(round=rnd, table=i, team_ns=field[a], team_ew=field[b])
                               for i, (a, b) in enumerate(circle_pairs(teams, 2), start=1)])
    match = rnd.matches.get(table=1)
    sheet.add_record(match, PLAIN_HAND, staff(t)["referee"])
    return t, match


def poll_queries(t, match) -> dict[str, int]:
    """The queries of a 304 of each polled page."""
    client = Client()
    urls = {"standings": reverse("scoring:standings", args=[t.slug]),
            "round": reverse("scoring:round_pairings", args=[t.slug, 3]),
            "match": reverse("scoring:match_detail", args=[t.slug, match.pk]),
            "hall": reverse("scoring:hall_news", args=[t.slug])}
    out = {}
    for name, url in urls.items():
        etag = client.get(url)["ETag"]
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
        out[name] = len(ctx.captured_queries)
    return out


def test_a_304_costs_the_same_queries_at_10_and_at_200_teams():
    small, large = poll_queries(*field(10)), poll_queries(*field(200))
    assert small == large
    # The tournament with its counters in one query; the round page then reads the round's, a
    # match page the match's, the hall the active announcements.
    assert small == {"standings": 1, "round": 2, "match": 2, "hall": 2}


def test_the_round_page_stays_304_while_hands_are_saved_in_a_table_being_played():
    t, match = field(10)
    client, url = Client(), reverse("scoring:round_pairings", args=[t.slug, 3])
    etag = client.get(url)["ETag"]
    referee = staff(t)["referee"]
    sheet.add_record(match, PLAIN_HAND, referee, expected_version=match.version)
    sheet.edit_record(match, 1, PLAIN_HAND, referee, expected_version=match.version, reason="typo")
    assert client.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    detail = reverse("scoring:match_detail", args=[t.slug, match.pk])
    page = client.get(url).content.decode()
    assert detail in page and "150" not in page  # the running score is on the match page only
    assert "150" in client.get(detail).content.decode()
