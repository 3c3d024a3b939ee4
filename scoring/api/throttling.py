"""Rate limits of the API (DRF throttling, counted in the Django cache).

Rates are read from ``REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"]`` at every request (not once at
import as DRF's own classes do), so a deployment or a test can change them in the settings:

- ``anon``: requests without credentials, per client address;
- ``user``: requests of an authenticated actor, per actor;
- ``engines``: the engine commands (public computation), per client address, whoever asks;
- ``link``: requests through a private link (``Authorization: Link``), per link (its token's
  hash) only: the phones of a whole venue share one address, so a working link is not counted
  per address (failed link attempts are, in :class:`scoring.api.auth.LinkAuthentication`).

The client address is :func:`scoring.proxies.client_address` (``X-Forwarded-For`` read only from
a trusted proxy, ``TRUSTED_PROXIES``), the same one the login throttling and the private links'
guessing limit count.

The counters fail open (:mod:`scoring.ratecache`, shared with the private links' limits): a cache
that does not answer (Redis down) means the request is not throttled, logged as one warning per
minute at most, never a 500.
"""
from __future__ import annotations

from rest_framework.settings import api_settings
from rest_framework.throttling import AnonRateThrottle, SimpleRateThrottle, UserRateThrottle

from scoring import proxies, ratecache
from scoring.policy import is_entrant


class _LiveRate:
    """The API's throttles: rates read at every request, counters in the cache that fails open
    (:data:`scoring.ratecache.CACHE`: with the cache down a request is not throttled)."""

    cache = ratecache.CACHE

    def get_rate(self):
        return api_settings.DEFAULT_THROTTLE_RATES.get(self.scope)

    def get_ident(self, request):
        """The client address (:func:`scoring.proxies.client_address`), not DRF's own reading of
        ``X-Forwarded-For``."""
        return proxies.client_address(request)


class AnonThrottle(_LiveRate, AnonRateThrottle):
    """Requests without credentials, per client address (not those through a working private
    link: :class:`LinkThrottle` counts them)."""

    def get_cache_key(self, request, view):
        if is_entrant(request.user):
            return None
        return super().get_cache_key(request, view)


class ActorThrottle(_LiveRate, UserRateThrottle):
    """Requests of an authenticated actor, per actor."""


class EngineThrottle(_LiveRate, SimpleRateThrottle):
    """The engine commands, per client address (authenticated or not)."""

    scope = "engines"

    def get_cache_key(self, request, view):
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


class LinkThrottle(_LiveRate, SimpleRateThrottle):
    """Requests through a private link, per link: its token's hash (other requests are not
    counted here)."""

    scope = "link"

    def get_cache_key(self, request, view):
        if not is_entrant(request.user):
            return None
        return self.cache_format % {"scope": self.scope, "ident": request.user.link.token_hash}
