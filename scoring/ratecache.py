"""The cache the rate limits count in, failing open (issue 12: with Redis down no page answers 500).

Rate limits (the API's DRF throttles, :mod:`scoring.api.throttling`; the private links' limits,
:mod:`scoring.participants.links`) keep their counters in Django's cache, Redis in production.
Every call they make goes through :func:`call` (or :data:`CACHE`, a stand-in for Django's cache
that DRF's throttles use): a cache that fails to answer gives the call's default, so the request
is not counted and not refused. Rate limits are a protection, not a condition of play: while
Redis is down they are not enforced, and the requests are answered as usual.

After a failure the cache is left alone for :data:`RETRY_AFTER` seconds (the calls give their
defaults at once), so a hanging Redis costs one request its short socket timeout, not every call
of every request. The failure is logged at level WARNING, once per :data:`WARN_EVERY` seconds at
most (one line per outage, not one per request): ``rate limits not enforced: the cache failed
(...)``.
"""
from __future__ import annotations

import logging
import threading
import time
from typing import Any

from django.core.cache import caches

log = logging.getLogger(__name__)

#: Seconds between two warnings about a failing cache.
WARN_EVERY = 60.0
#: Seconds a cache that failed is not asked again.
RETRY_AFTER = 10.0

_lock = threading.Lock()
_last_warning: float | None = None
#: The cache that failed last and until when it is left alone (another cache, after a change of
#: the settings, is asked at once).
_down: tuple[object, float] | None = None


def _warn(method: str, exc: Exception) -> None:
    global _last_warning
    now = time.monotonic()
    with _lock:
        if _last_warning is not None and now - _last_warning < WARN_EVERY:
            return
        _last_warning = now
    log.warning("rate limits not enforced: the cache failed (%s: %s: %s)", method, type(exc).__name__, exc)


def call(method: str, *args: Any, default: Any = None, **kwargs: Any) -> Any:
    """``cache.<method>(*args, **kwargs)`` on Django's default cache, or ``default`` when the call
    fails (Redis down or hanging past its short timeouts; logged, never raised) or when the cache
    failed less than :data:`RETRY_AFTER` seconds ago. A ``ValueError`` (``incr`` of a key that
    expired since it was added) gives ``default`` too, but is no failure of the cache."""
    global _down
    cache = caches["default"]
    down = _down
    if down is not None and down[0] is cache and time.monotonic() < down[1]:
        return default
    try:
        return getattr(cache, method)(*args, **kwargs)
    except ValueError:  # the cache answered: ``incr`` of a key that expired meanwhile
        return default
    except Exception as exc:  # noqa: BLE001 - a broken cache must never refuse or break a request
        _down = (cache, time.monotonic() + RETRY_AFTER)
        _warn(method, exc)
        return default


class FailOpenCache:
    """Django's default cache as DRF's throttles use it (``get`` with a default, ``set``): a read
    that fails gives the default (an empty request history: not throttled), a write that fails is
    dropped. Any other method fails open to ``None``."""

    def get(self, key: str, default: Any = None) -> Any:
        """The value under ``key``, ``default`` when missing or when the cache fails."""
        return call("get", key, default, default=default)

    def set(self, key: str, value: Any, timeout: Any = None) -> None:
        """Store ``value`` under ``key`` for ``timeout`` seconds; nothing when the cache fails."""
        call("set", key, value, timeout)

    def __getattr__(self, method: str):
        return lambda *args, **kwargs: call(method, *args, **kwargs)


#: The stand-in for Django's cache that rate limits count in.
CACHE = FailOpenCache()
