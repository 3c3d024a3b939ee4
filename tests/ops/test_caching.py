"""Two-level keeping of content-keyed values (scoring.caching): the process's own memory in front
of the shared cache (Redis in production)."""
from __future__ import annotations

from collections import defaultdict

import pytest
from django.core.cache import caches

from scoring import caching

TWO_LEVELS = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "shared-test"},
              "local": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": "local-test"}}


@pytest.fixture
def two_levels(settings):
    settings.CACHES = TWO_LEVELS
    settings.LOCAL_CACHE_SECONDS = 60
    yield caches["local"], caches["default"]
    caches["local"].clear()
    caches["default"].clear()


def test_a_value_set_is_kept_in_both_levels(two_levels):
    local, shared = two_levels
    caching.set("k1", [1, 2], 300)
    assert local.get("k1") == [1, 2] and shared.get("k1") == [1, 2]
    assert caching.get("k1") == [1, 2]


def test_a_value_only_in_the_shared_cache_is_copied_into_the_process(two_levels):
    local, shared = two_levels
    shared.set("k2", "region", 300)  # stored by another web process
    assert local.get("k2") is None
    assert caching.get("k2") == "region"
    assert local.get("k2") == "region"


def test_the_process_answers_without_asking_the_shared_cache(two_levels, monkeypatch):
    local, _shared = two_levels
    local.set("k3", "near", 60)

    class Refusing:
        def get(self, *args, **kwargs):
            raise AssertionError("the shared cache was asked")

    monkeypatch.setattr(caching, "caches", {"local": local, "default": Refusing()})
    assert caching.get("k3") == "near"


def test_a_key_kept_nowhere_is_missing(two_levels):
    assert caching.get("nothing") is caching.MISSING


class Broken:
    def get(self, *args, **kwargs):
        raise ConnectionError("down")

    def set(self, *args, **kwargs):
        raise ConnectionError("down")


def test_a_broken_cache_is_a_miss_and_a_failed_store_is_ignored(settings, monkeypatch):
    monkeypatch.setattr(caching, "caches", defaultdict(Broken))
    assert caching.get("k4") is caching.UNAVAILABLE
    caching.set("k4", 1, 10)  # no error
    assert caching.claim("k4", 5)  # each process renders for itself


def test_a_standings_table_is_not_stored_when_the_cache_failed_to_answer(monkeypatch):
    """The store would wait for the same timeout again (a hung Redis: one second each)."""
    from scoring.standings import cache as standings_cache

    stores = []

    class Hung(Broken):
        def set(self, *args, **kwargs):
            stores.append(args)
            raise ConnectionError("down")

    monkeypatch.setattr(caching, "caches", defaultdict(Hung))
    assert standings_cache.get_or_compute("standings:1", lambda: ["row"]) == ["row"]
    assert stores == []


def test_without_a_local_alias_only_the_default_cache_is_used(settings):
    settings.CACHES = {"default": TWO_LEVELS["default"]}
    caching.set("k5", "v", 300)
    assert caches["default"].get("k5") == "v" and caching.get("k5") == "v"
    caches["default"].clear()
