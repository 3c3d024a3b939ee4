"""Private links on the pages (issue 15, ``docs/private-links.md``): the phone's session holds
the link once it was opened, and every page asks :func:`actor_for` who is acting.

- Opening a link (:mod:`scoring.web.views.links`) puts ``{link id, SHA-256 of its token}`` in
  the session under the tournament (:func:`remember`, with a new session key); the token itself
  is never stored, not even in the session. The session stays valid while the link is active
  and keeps that token: regenerating or revoking the link signs every phone out.
- :func:`actor_for` is the actor of a request in a tournament: a member of the tournament (a
  logged-in referee or organiser) acts as themself; otherwise a phone holding a link of the
  tournament acts as that entrant (:class:`scoring.policy.EntrantActor`); otherwise the
  (anonymous or logged-in) user.
- Requests through a link are rate-limited per link (its token's hash, ``settings.LINK_RATE``;
  :func:`check_link_rate`), never per client address: the phones of a whole venue share one
  address. A right token always opens its link; attempts that fail (unknown, revoked or replaced
  token) are counted per client address, and beyond a few an hour each is answered 429 with a
  growing delay (:func:`open_attempt`, guessing protection), which never keeps a phone with the
  right code out. Over a limit the page answers 429 (:class:`TooManyRequests`).
"""
from __future__ import annotations

from django.conf import settings

from scoring import policy, proxies
from scoring.models import Tournament
from scoring.participants import links

#: Session key: ``{str(tournament id): {"link": id, "hash": token hash, "slug", "name"}}``.
SESSION_KEY = "nskt_links"


#: Too many requests through one link, or too many failed attempts from one address (answered
#: with 429 and ``Retry-After``: its ``retry_after``).
TooManyRequests = links.RateExceeded


#: The client's address (:func:`scoring.proxies.client_address`: forwarded headers only from
#: ``TRUSTED_PROXIES``), the same one the login throttling and the API's rate limits count.
client_address = proxies.client_address


def _held(request) -> dict:
    return dict(request.session.get(SESSION_KEY) or {})


def remember(request, link) -> None:
    """Keep ``link`` (just resolved from its token) in this phone's session for its tournament;
    the session gets a new key (no session fixation)."""
    held = _held(request)
    held[str(link.tournament_id)] = {"link": link.pk, "hash": link.token_hash, "slug": link.tournament.slug,
                                     "name": str(link.entrant)}
    request.session.cycle_key()
    request.session[SESSION_KEY] = held
    request.session.pop(LOST_KEY, None)
    _cache(request).pop(link.tournament_id, None)


def forget(request, tournament_id: int) -> None:
    """Drop the tournament's link from this phone's session."""
    held = _held(request)
    if held.pop(str(tournament_id), None) is not None:
        request.session[SESSION_KEY] = held
    _cache(request).pop(tournament_id, None)


def held_links(request, *, with_hash: bool = False) -> list[dict]:
    """The links this phone holds (from the session only, no query): ``{"slug", "name"}`` each,
    for the navigation (``with_hash``: also the link's id and its token's hash, for ETags)."""
    session = getattr(request, "session", None)
    if session is None:
        return []
    keys = ("slug", "name", "link", "hash") if with_hash else ("slug", "name")
    return [{k: v.get(k, "") for k in keys} for _t, v in sorted((session.get(SESSION_KEY) or {}).items())]


def _cache(request) -> dict:
    cache = getattr(request, "_nskt_entrants", None)
    if cache is None:
        cache = request._nskt_entrants = {}
    return cache


def _rate() -> str:
    return getattr(settings, "LINK_RATE", "120/minute")


def check_link_rate(link) -> None:
    """Count a request through ``link`` (per link: its token's hash, so regenerating starts
    afresh); raise :class:`TooManyRequests` over ``settings.LINK_RATE``."""
    rate = _rate()
    if not links.allow("link", link.token_hash, rate):
        raise TooManyRequests(links.parse_rate(rate)[1])


def open_attempt(request, raw: str):
    """The active link whose token was typed or scanned (``raw``), else ``None``. A right token
    always opens (it counts as a request through that link, :func:`check_link_rate`); a failed
    attempt counts against the client's address, and beyond a few an hour raises
    :class:`TooManyRequests` with a growing delay
    (:func:`scoring.participants.links.resolve_attempt`)."""
    link = links.resolve_attempt(raw, client_address(request))
    if link is not None:
        check_link_rate(link)
    return link


#: Session key: the name of the entrant whose link this phone held when it stopped working
#: (revoked or replaced), until the phone opens a link again.
LOST_KEY = "nskt_link_lost"


def link_lost(request, name: str) -> None:
    """This phone's link (of ``name``) was just dropped because it was revoked or replaced: the
    session keeps the name (:data:`LOST_KEY`) so the 403 page and the entrant page say why the
    phone may no longer act, instead of speaking of accounts (:func:`lost_link`)."""
    request.session[LOST_KEY] = name or "?"


def lost_link(request) -> str:
    """The name of the entrant whose link stopped working on this phone (``""``: none did, or the
    phone opened a link since)."""
    session = getattr(request, "session", None)
    return (session.get(LOST_KEY) or "") if session is not None else ""


def entrant_actor(request, tournament: Tournament) -> policy.EntrantActor | None:
    """The entrant this phone acts as in ``tournament`` (its link still active with the same
    token), else ``None`` (a link revoked or regenerated since is dropped from the session, and
    the phone is told so: :func:`link_lost`).
    Counts the request against the link's rate limit (once per request)."""
    cache = _cache(request)
    if tournament.pk in cache:
        return cache[tournament.pk]
    held = _held(request).get(str(tournament.pk)) if getattr(request, "session", None) is not None else None
    actor = None
    if held:
        link = links.current(held.get("link"), held.get("hash", ""))
        if link is None or link.tournament_id != tournament.pk:
            forget(request, tournament.pk)
            link_lost(request, held.get("name", ""))
        else:
            check_link_rate(link)
            actor = policy.EntrantActor(link)
    cache[tournament.pk] = actor
    return actor


def actor_for(request, tournament: Tournament):
    """Who acts in ``tournament`` on this request: a member (referee, organiser) as themself, else
    the entrant whose link this phone holds, else the user (anonymous or without a role)."""
    user = request.user
    if policy.role_of(user, tournament) is not None:
        return user
    return entrant_actor(request, tournament) or user
