"""Conditional reads (``docs/api.md``, "Caching"): every read endpoint answers with an ``ETag``
and ``304 Not Modified`` without a body when ``If-None-Match`` names it; a change gives a new tag.
The standings' tag is the standings cache's state key (a 304 never computes the standings), a
result's follows its version (a 304 never reads its records)."""
from __future__ import annotations

import pytest

from scoring.api import representation
from scoring.api.views import reads
from scoring.results import sheet
from tests.api.conftest import api_url
from tests.factories import PLAIN_HAND, play

pytestmark = pytest.mark.django_db


def read_urls(w) -> list[str]:
    return [
        api_url("index"), api_url("tournament-list"), api_url("tournament-detail", "tp"), api_url("round-list", "tp"),
        api_url("round-detail", "tp", 1), api_url("standings", "tp"), api_url("standings", "sc"),
        api_url("match-detail", "tp", w.match.pk), api_url("match-records", "tp", w.match.pk),
        api_url("table-detail", "sc", w.table.pk), api_url("table-records", "sc", w.table.pk), api_url("engine-list"),
        api_url("schema"), api_url("schema") + "?format=json",
    ]


def test_every_read_has_an_etag_and_answers_304(api_world):
    w = api_world
    play(w.match, [PLAIN_HAND], w.referee)
    c = w.client(None)
    for url in [*read_urls(w), api_url("match-record", "tp", w.match.pk, 1)]:
        first = c.get(url)
        assert first.status_code == 200, url
        etag = first["ETag"]
        assert etag.startswith('W/"') and first["Cache-Control"] == "no-cache", url
        again = c.get(url, HTTP_IF_NONE_MATCH=etag)
        assert again.status_code == 304 and again.content == b"" and again["ETag"] == etag, url
        # the strong form, a list and * match too; another tag does not
        assert c.get(url, HTTP_IF_NONE_MATCH=etag[2:]).status_code == 304, url
        assert c.get(url, HTTP_IF_NONE_MATCH=f'"other", {etag}').status_code == 304, url
        assert c.get(url, HTTP_IF_NONE_MATCH="*").status_code == 304, url
        assert c.get(url, HTTP_IF_NONE_MATCH='W/"other"').status_code == 200, url


def test_a_result_changed_gives_new_tags(api_world):
    w = api_world
    c = w.client(None)
    urls = [api_url("match-detail", "tp", w.match.pk), api_url("round-detail", "tp", 1), api_url("standings", "tp"),
            api_url("match-records", "tp", w.match.pk)]
    before = {url: c.get(url)["ETag"] for url in urls}
    play(w.match, [PLAIN_HAND], w.referee)
    standings = api_url("standings", "tp")
    for url in urls:
        r = c.get(url, HTTP_IF_NONE_MATCH=before[url])
        if url == standings:  # a match still being played: nothing the standings show changed
            assert r.status_code == 304, url
        else:
            assert r.status_code == 200 and r["ETag"] != before[url], url
    sheet.end_at_time(w.match, w.referee, expected_version=w.match.version, reason="time")
    r = c.get(standings, HTTP_IF_NONE_MATCH=before[standings])
    assert r.status_code == 200 and r["ETag"] != before[standings]  # finished: it counts


def test_standings_304_comes_from_the_state_key_without_computing(api_world, monkeypatch):
    w = api_world
    c = w.client(None)
    etag = c.get(api_url("standings", "tp"))["ETag"]

    def boom(*args, **kwargs):
        raise AssertionError("the standings were computed for a 304")

    monkeypatch.setitem(reads.COMPUTE, "teams", boom)
    monkeypatch.setattr(reads, "get_or_compute", boom)
    assert c.get(api_url("standings", "tp"), HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_standings_tag_follows_a_finished_result_and_a_renamed_team(api_world):
    w = api_world
    c = w.client(None)
    etag = c.get(api_url("standings", "tp"))["ETag"]
    assert c.get(api_url("standings", "tp"))["ETag"] == etag  # same data, same tag
    team = w.match.team_ns
    team.name = "Renamed"
    team.save()
    assert c.get(api_url("standings", "tp"), HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_result_304_follows_the_version_without_reading_the_records(api_world, monkeypatch):
    w = api_world
    play(w.match, [PLAIN_HAND], w.referee)
    c = w.client(None)
    url = api_url("match-detail", "tp", w.match.pk)
    etag = c.get(url)["ETag"]

    def boom(*args, **kwargs):
        raise AssertionError("the result was built for a 304")

    monkeypatch.setattr(representation, "result_detail", boom)
    assert c.get(url, HTTP_IF_NONE_MATCH=etag).status_code == 304


def test_result_tag_follows_a_renamed_team(api_world):
    w = api_world
    c = w.client(None)
    url = api_url("match-detail", "tp", w.match.pk)
    etag = c.get(url)["ETag"]
    team = w.match.team_ew
    team.name = "Renamed"
    team.save()
    r = c.get(url, HTTP_IF_NONE_MATCH=etag)
    assert r.status_code == 200 and r.json()["sides"][1]["name"] == "Renamed"


def test_tags_differ_by_language(api_world):
    c = api_world.client(None)
    url = api_url("standings", "tp")
    assert c.get(url, HTTP_ACCEPT_LANGUAGE="nl")["ETag"] != c.get(url, HTTP_ACCEPT_LANGUAGE="en")["ETag"]


def test_a_write_answers_with_the_new_tag_of_the_result(api_world):
    w = api_world
    r = w.client("referee").post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND},
                                 format="json")
    assert r.status_code == 201
    assert w.client(None).get(api_url("match-detail", "tp", w.match.pk), HTTP_IF_NONE_MATCH=r["ETag"]).status_code == 304


def test_responses_vary_on_credentials_and_language(api_world):
    r = api_world.client(None).get(api_url("tournament-detail", "tp"))
    vary = {v.strip() for v in r["Vary"].split(",")}
    assert {"Accept-Language", "Authorization", "Cookie"} <= vary


def test_the_api_and_the_pages_share_the_standings_cache(api_world):
    from django.core.cache import cache

    from scoring.standings import team_standings
    from scoring.standings.cache import state_key

    w = api_world
    w.client(None).get(api_url("standings", "tp"))
    cached = cache.get(state_key(w.tp, "teams", None))
    assert cached is not None and cached == team_standings(w.tp)


def test_the_schema_has_a_tag_per_format(db):
    from rest_framework.test import APIClient

    c = APIClient()
    assert c.get(api_url("schema"))["ETag"] != c.get(api_url("schema") + "?format=json")["ETag"]
