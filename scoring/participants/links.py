"""Private links of entrants (issue 15; ``docs/private-links.md``): making, printing again,
regenerating, revoking and resolving them, and the small rate limiter of link requests
(:func:`allow`, :func:`count`, :func:`resolve_attempt`).

- **Token**: ``token_of(link)`` = the first 120 bits of HMAC-SHA256(``SECRET_KEY``, the link's
  random ``nonce``), written in Crockford's base32 (digits and capitals without I, L, O and U:
  24 characters, printed in groups of four for typing). Typed codes are decoded as Crockford
  decodes (:func:`normalise`): case, spaces and dashes do not matter, and O reads as 0, I and L
  as 1, so no look-alike makes a typed code fail. Unguessable (the nonce comes from
  :mod:`secrets`, the key never leaves the server) and reproducible, so a card can be printed
  again at any time (no score sheet carries a link: issue 22).
- **Stored**: the nonce and ``SHA-256(token)`` (lookup). The database alone gives no token;
  changing ``SECRET_KEY`` makes every printed link invalid (:func:`ensure_links` then re-hashes,
  and printing again gives the new ones).
- **Regenerate**: a new nonce, so a new token: the old one stops working at once, and every phone
  that opened it is signed out (their session holds the old hash).
- **Revoke**: the ``revoked`` flag; regenerating gives the entrant a new, working link.
- **Never logged**: nothing here logs, and the web layer carries the token in the URL's
  fragment only (``/p/#<token>``), which browsers never send to the server (see
  :mod:`scoring.web.views.links`).
"""
from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import time

from django.db import transaction
from django.urls import reverse
from django.utils import timezone
from django.utils.crypto import salted_hmac

from scoring import ratecache
from scoring.games.base import EntrantKind
from scoring.models import EntrantLink, Player, Team, Tournament

#: Salt of the HMAC that turns a nonce into a token (changing it invalidates every link).
KEY_SALT = "scoring.participants.links.token"
#: Bytes of the HMAC kept in a token (120 bits: 24 base32 characters).
TOKEN_BYTES = 15
TOKEN_LENGTH = 24
#: Crockford's base32 alphabet (https://www.crockford.com/base32.html): no I, L, O or U.
ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ"
_TOKEN_CHARS = re.compile(f"[{ALPHABET}]{{{TOKEN_LENGTH}}}")
#: Crockford decoding of the look-alikes: O reads as 0, I and L as 1.
_LOOK_ALIKES = str.maketrans({"O": "0", "I": "1", "L": "1"})

#: The link's foreign key per kind of entrant, and the tournament's entrants of that kind.
ENTRANT_FIELD = {EntrantKind.TEAMS: "team", EntrantKind.PLAYERS: "player"}
ENTRANTS = {
    EntrantKind.TEAMS: lambda t: Team.objects.filter(tournament=t).select_related("first_player", "second_player").order_by("name"),
    EntrantKind.PLAYERS: lambda t: Player.objects.filter(tournament=t).order_by("name"),
}


# --------------------------------------------------------------------------- tokens


def _nonce() -> str:
    return secrets.token_hex(16)


def crockford(data: bytes) -> str:
    """``data`` in Crockford's base32 (upper case, no padding; 5 bits a character, the last one
    padded with zero bits): 15 bytes give 24 characters."""
    number, bits = int.from_bytes(data, "big"), len(data) * 8
    count = -(-bits // 5)
    number <<= count * 5 - bits
    return "".join(ALPHABET[(number >> (5 * i)) & 31] for i in reversed(range(count)))


def token_of(link: EntrantLink) -> str:
    """The link's token (computed from its nonce and ``SECRET_KEY``; never stored): 24 characters
    of Crockford's base32 (:data:`ALPHABET`), 120 bits."""
    digest = salted_hmac(KEY_SALT, link.nonce, algorithm="sha256").digest()[:TOKEN_BYTES]
    return crockford(digest)


def hash_of(token: str) -> str:
    """SHA-256 (hex) of a token: what the database keeps for lookup (also of anything typed in its
    place, for counting attempts)."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def normalise(raw: str) -> str:
    """A token as typed or scanned, decoded as Crockford decodes: case, spaces and dashes (the
    printed groups) do not matter, and the look-alikes read as the digits they resemble (O as 0,
    I and L as 1): ``"abcd-efgh-ijkl ..."`` -> ``"ABCDEFGH1JK1..."``. Anything else is kept (and
    will not match)."""
    return re.sub(r"[\s\-\u2010-\u2015]", "", (raw or "")[:200]).upper().translate(_LOOK_ALIKES)


def grouped(token: str) -> str:
    """The token in groups of four for printing and typing: ``ABCD-EFGH-...``."""
    return "-".join(token[i:i + 4] for i in range(0, len(token), 4))


def path_of(link: EntrantLink) -> str:
    """The link's address on this site without the host: ``/p/#<token>`` (the token travels in the
    fragment, which browsers never send to the server)."""
    return f"{reverse('scoring:open_link')}#{token_of(link)}"


def url_of(link: EntrantLink, base_url: str) -> str:
    """The link's absolute address (``base_url``: ``"https://host/"``)."""
    return base_url.rstrip("/") + path_of(link)


# --------------------------------------------------------------------------- links of a tournament


def entrant_field(tournament: Tournament) -> str:
    """``"team"`` or ``"player"``: which entrants of ``tournament`` have links."""
    return ENTRANT_FIELD[tournament.adapter.entrants]


def _fresh(link: EntrantLink) -> None:
    link.nonce = _nonce()
    link.token_hash = hash_of(token_of(link))
    link.issued_at = timezone.now()


def ensure_links(tournament: Tournament) -> list[EntrantLink]:
    """Every entrant of ``tournament`` with its link, in entrant order (a link is made for an
    entrant that has none; a link whose stored hash no longer matches its token, after a change
    of ``SECRET_KEY``, gets the hash of its new token). Returns the links with their entrant."""
    field = entrant_field(tournament)
    entrants = list(ENTRANTS[tournament.adapter.entrants](tournament))
    existing = {getattr(link, f"{field}_id"): link for link in EntrantLink.objects.filter(tournament=tournament)}
    new, stale = [], []
    for entrant in entrants:
        link = existing.get(entrant.pk)
        if link is None:
            link = EntrantLink(tournament=tournament, **{field: entrant})
            _fresh(link)
            new.append(link)
        elif link.token_hash != hash_of(token_of(link)):
            link.token_hash = hash_of(token_of(link))
            stale.append(link)
    if new or stale:
        with transaction.atomic():
            # Two organisers' pages at once: the second one's new links are dropped (an entrant
            # has one link), and both read the links that were kept.
            EntrantLink.objects.bulk_create(new, ignore_conflicts=True)
            EntrantLink.objects.bulk_update(stale, ["token_hash"])
    links = {getattr(link, f"{field}_id"): link for link in EntrantLink.objects.filter(tournament=tournament)}
    out = []
    for entrant in entrants:
        link = links[entrant.pk]
        setattr(link, field, entrant)
        out.append(link)
    return out


def link_for(entrant: Team | Player) -> EntrantLink:
    """The link of one team or player (made when it has none)."""
    field = "team" if isinstance(entrant, Team) else "player"
    link = EntrantLink.objects.filter(**{field: entrant}).first()
    if link is None:
        link = EntrantLink(tournament_id=entrant.tournament_id, **{field: entrant})
        _fresh(link)
        link.save()
    return link


def regenerate(link: EntrantLink) -> EntrantLink:
    """A new token for the link (a new nonce); the old token stops working at once and every
    phone that opened it is signed out. A revoked link works again with the new token."""
    _fresh(link)
    link.revoked = False
    link.revoked_at = None
    link.save(update_fields=["nonce", "token_hash", "issued_at", "revoked", "revoked_at"])
    return link


def revoke(link: EntrantLink) -> EntrantLink:
    """The link stops working (and every phone that opened it is signed out) until it is
    regenerated."""
    link.revoked = True
    link.revoked_at = timezone.now()
    link.save(update_fields=["revoked", "revoked_at"])
    return link


def resolve(raw: str) -> EntrantLink | None:
    """The active link whose token is ``raw`` (as typed or scanned, :func:`normalise`), else
    ``None``: unknown, revoked, or made with another ``SECRET_KEY``."""
    token = normalise(raw)
    if not _TOKEN_CHARS.fullmatch(token):
        return None
    link = (EntrantLink.objects.select_related("tournament", "team", "player")
            .filter(token_hash=hash_of(token), revoked=False).first())
    if link is None or not hmac.compare_digest(token_of(link), token):
        return None
    return link


def current(link_id: int, token_hash: str) -> EntrantLink | None:
    """The link ``link_id`` if it is still active with the token whose hash is ``token_hash`` (a
    phone's session keeps both), else ``None`` (revoked or regenerated since)."""
    return (EntrantLink.objects.select_related("tournament", "team", "player")
            .filter(pk=link_id, token_hash=token_hash, revoked=False).first())


# --------------------------------------------------------------------------- rate limits


_PERIODS = {"second": 1, "minute": 60, "hour": 3600, "day": 86400}


def parse_rate(rate: str) -> tuple[int, int]:
    """``"120/minute"`` -> ``(120, 60)``."""
    number, _sep, period = rate.partition("/")
    return int(number), _PERIODS[period.strip().rstrip("s") or "minute"]


#: Scope of failed link attempts (an unknown, revoked or replaced token, on the pages or the API),
#: counted per client address: guessing protection.
FAILED_SCOPE = "link-failed"
#: Failed attempts per client address and hour answered plainly ("this link does not work");
#: each one after these is answered 429 with a delay that doubles (2, 4, 8 ... seconds).
FREE_FAILURES = 10
#: The window failed attempts are counted in, and the longest delay asked (seconds).
FAILED_WINDOW = 3600


def _key(scope: str, ident: str, period: int) -> str:
    return f"nskt:rate:{scope}:{ident}:{int(time.time() // period)}"


def allow(scope: str, ident: str, rate: str) -> bool:
    """Count one request of ``ident`` (a link's id or token hash, a client address; never a
    token) in ``scope`` and say whether it is within ``rate`` (``"N/second|minute|hour|day"``),
    in fixed windows kept in Django's cache. A cache that fails lets the request through (rate
    limits never stop play; :mod:`scoring.ratecache`)."""
    limit, period = parse_rate(rate)
    key = _key(scope, ident, period)
    added = ratecache.call("add", key, 1, period + 1)
    if added is None:  # the cache failed
        return True
    count = 1 if added else ratecache.call("incr", key)
    return count is None or count <= limit


def count(scope: str, ident: str, period: int) -> int:
    """Count one event of ``ident`` in ``scope`` in the current fixed window of ``period`` seconds
    and return how many there were in it (0 when the cache fails: nothing is refused)."""
    key = _key(scope, ident, period)
    added = ratecache.call("add", key, 1, period + 1)
    if added is None:
        return 0
    return 1 if added else (ratecache.call("incr", key) or 0)


class RateExceeded(Exception):
    """Too many requests in a scope; ``retry_after``: seconds until the window ends (at most)."""

    def __init__(self, retry_after: int = 60):
        super().__init__("too many requests")
        self.retry_after = retry_after


class TooManyFailures(RateExceeded):
    """Too many failed attempts (wrong codes) from one client address: ``retry_after`` grows with
    every further failure (:func:`failure_delay`). A right code still opens."""


def failure_delay(failures: int) -> int:
    """Seconds a client address is asked to wait (``Retry-After``) after its ``failures``-th
    failed attempt in the window: none for the first :data:`FREE_FAILURES`, then 2, 4, 8 ...
    seconds, at most :data:`FAILED_WINDOW`."""
    over = failures - FREE_FAILURES
    return 0 if over <= 0 else min(2 ** min(over, 20), FAILED_WINDOW)


def resolve_attempt(raw: str, address: str) -> EntrantLink | None:
    """:func:`resolve` a token presented from the client ``address``, with the guessing
    protection shared by the pages and the API.

    **A right token always opens** its link: it is looked at first and never counted here (the
    caller limits requests through a link per link), so a phone with its card opens its link
    however many wrong codes other phones behind the same address (a venue's Wi-Fi behind one
    proxy address) sent before. A failed attempt (an unknown, revoked or replaced token) counts
    against ``address``; after :data:`FREE_FAILURES` of them in the hour each further one raises
    :class:`TooManyFailures` with a growing ``retry_after`` (:func:`failure_delay`) instead of
    returning ``None``.

    What this limits: a client that honours ``Retry-After`` gets about 21 wrong answers an hour
    (ten, then eleven more after delays of 2 ... 1024 seconds, until the hour's window ends). A
    client that ignores it still has each guess looked at (a right token must open), so guessing
    is bounded by the server's speed and made hopeless by the token's 120 bits
    (``docs/private-links.md``, "Rate limits", gives the figure)."""
    link = resolve(raw)
    if link is not None:
        return link
    failures = count(FAILED_SCOPE, address, FAILED_WINDOW)
    delay = failure_delay(failures)
    if delay:
        raise TooManyFailures(delay)
    return None
