"""Two-level keeping of values whose key names their content (issue 25, the hall's load): the
standings of a state (:mod:`scoring.standings.cache`) and the live regions shared by the phones
(:mod:`scoring.web.conditional`). Such a key changes whenever what it holds would, so a value under
it is never stale and may be kept anywhere.

Each web process first asks its own memory (Django's ``LocMemCache`` under the cache alias
``"local"``, configured in ``nskt.settings`` next to Redis), then the shared cache (``"default"``:
Redis in production, shared by every process); a value found in the shared cache is kept in the
process too. In the hall every phone woken by one event asks for the same few keys within a
second: the second and later askers in a process skip Redis' round trip. Without a ``"local"``
alias (the embedded default, whose ``"default"`` is in-process already) only ``"default"`` is
asked.

A cache that fails is a miss and a failed store is ignored (logged): a broken cache never breaks
a page.
"""
from __future__ import annotations

import logging
from typing import Any

from django.conf import settings
from django.core.cache import caches

log = logging.getLogger(__name__)

#: The alias of the process's own cache.
LOCAL = "local"
#: What :func:`get` returns for a key kept nowhere.
MISSING = object()
#: What :func:`get` returns when the shared cache failed to answer (a miss that should not be
#: stored either: the store would wait for the same timeout again).
UNAVAILABLE = object()


def _levels() -> list:
    """The caches to ask, nearest first."""
    return [caches[LOCAL], caches["default"]] if LOCAL in settings.CACHES else [caches["default"]]


def get(key: str) -> Any:
    """The value under ``key`` from the process's memory, else from the shared cache (then kept
    in the process for ``settings.LOCAL_CACHE_SECONDS``); :data:`MISSING` when neither has it,
    :data:`UNAVAILABLE` when the shared cache failed to answer (logged; callers then neither
    claim nor store)."""
    levels = _levels()
    for depth, level in enumerate(levels):
        try:
            value = level.get(key, MISSING)
        except Exception as exc:  # noqa: BLE001 - a broken cache must never break a page
            log.warning("cache unavailable (%s)", exc)
            if level is levels[-1]:
                return UNAVAILABLE
            continue
        if value is not MISSING:
            if depth:
                _store(levels[0], key, value, settings.LOCAL_CACHE_SECONDS)
            return value
    return MISSING


def set(key: str, value: Any, timeout: int) -> None:  # noqa: A001 - the cache API's word
    """Keep ``value`` under ``key``: ``timeout`` seconds in the shared cache and at most
    ``settings.LOCAL_CACHE_SECONDS`` in the process. A failed store is ignored (logged)."""
    levels = _levels()
    for level in levels:
        _store(level, key, value, timeout if level is levels[-1] else min(timeout, settings.LOCAL_CACHE_SECONDS))


def _store(level, key: str, value: Any, timeout: int) -> None:
    try:
        level.set(key, value, timeout)
    except Exception as exc:  # noqa: BLE001
        log.warning("value not stored in the cache (%s)", exc)


def claim(key: str, seconds: int) -> bool:
    """Claim the filling of ``key`` for ``seconds`` in the shared cache (an atomic ``add``: Redis
    ``SET NX``): True for the first process to ask, or when the cache fails (each renders then);
    False while another process holds the claim."""
    try:
        return bool(caches["default"].add(f"claim:{key}", 1, seconds))
    except Exception as exc:  # noqa: BLE001 - a broken cache must never break a page
        log.warning("cache unavailable (%s)", exc)
        return True


def release(key: str) -> None:
    """Give up the claim on ``key`` (its value will not be kept: the next asker renders)."""
    try:
        caches["default"].delete(f"claim:{key}")
    except Exception as exc:  # noqa: BLE001
        log.warning("cache unavailable (%s)", exc)
