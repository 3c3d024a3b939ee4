"""The cache the rate limits count in fails open (:mod:`scoring.ratecache`, issue 12): a cache
that fails gives the call's default (not counted, not refused), is left alone for a while after a
failure, and is logged once, not per request; a working cache still enforces the limits."""
from __future__ import annotations

import logging

import pytest
from django.core.cache.backends.locmem import LocMemCache

from scoring import ratecache
from scoring.participants import links

CALLS: list[str] = []


class BrokenCache(LocMemCache):
    """A cache whose every read and write fails the way Redis does when it is down."""

    def get(self, *args, **kwargs):
        CALLS.append("get")
        raise ConnectionError("Error 111 connecting to 127.0.0.1:1. Connection refused.")

    add = set = incr = get


@pytest.fixture
def broken(settings):
    settings.CACHES = {"default": {"BACKEND": "tests.ops.test_ratecache.BrokenCache", "LOCATION": "broken"}}
    CALLS.clear()
    ratecache._down = ratecache._last_warning = None
    yield
    ratecache._down = ratecache._last_warning = None


@pytest.fixture
def working(settings):
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "rates"}}
    ratecache._down = None


def test_a_failing_cache_gives_the_default_once_logged_and_is_then_left_alone(broken, caplog, monkeypatch):
    with caplog.at_level(logging.WARNING, logger="scoring.ratecache"):
        assert ratecache.CACHE.get("k", []) == []
        assert ratecache.CACHE.set("k", [1], 60) is None
        assert ratecache.call("incr", "k", default=7) == 7
    assert CALLS == ["get"]  # the rest answered at once, without waiting for the cache
    assert [r.getMessage() for r in caplog.records] == [
        "rate limits not enforced: the cache failed (get: ConnectionError: Error 111 connecting to 127.0.0.1:1. "
        "Connection refused.)"]
    monkeypatch.setattr(ratecache, "RETRY_AFTER", 0.0)
    ratecache._down = None
    with caplog.at_level(logging.WARNING, logger="scoring.ratecache"):
        assert ratecache.CACHE.get("k", "default") == "default"
    assert CALLS == ["get", "get"] and len(caplog.records) == 1  # asked again; no second warning within a minute


def test_link_limits_let_requests_through_while_the_cache_fails(broken):
    for _ in range(3):
        assert links.allow("link", "hash", "1/minute")
        assert links.count(links.FAILED_SCOPE, "10.0.0.1", 60) == 0


def test_a_working_cache_enforces_the_limits(working):
    assert links.allow("link", "hash", "2/minute") and links.allow("link", "hash", "2/minute")
    assert not links.allow("link", "hash", "2/minute")
    assert [links.count("failed", "10.0.0.1", 60) for _ in range(3)] == [1, 2, 3]


def test_the_api_throttles_count_in_the_failing_open_cache():
    from scoring.api.throttling import ActorThrottle, AnonThrottle, EngineThrottle, LinkThrottle

    for throttle in (AnonThrottle, ActorThrottle, EngineThrottle, LinkThrottle):
        assert throttle.cache is ratecache.CACHE
