"""Per-user API tokens for the REST API (issue 22 item 4; ``docs/api.md``): issued, listed and
revoked by the user themself (the account page) or by a trusted command
(``manage.py api_token USERNAME``), looked up by the API's authentication.

- **A token is the user**: a request with it acts with exactly the user's roles
  (:mod:`scoring.policy`); it grants nothing more.
- **Stored as a hash** (django-rest-knox, :class:`scoring.models.ApiToken`): a token is
  ``nskt_`` followed by 64 random hex digits (256 bits); the database keeps its SHA-512 and its
  first 15 characters (the *prefix*, e.g. ``nskt_3f9a0c41d2``, shown in lists so that a user
  recognises a token; the 54 hex digits after it stay secret). The whole token exists only in the
  one answer that issues it.
- **Expiry**: every token expires, :data:`DEFAULT_DAYS` (30) days after it was issued unless
  the user chose otherwise (:data:`PAGE_DAYS` on the page, 1 to :data:`MAX_DAYS` with the
  command). An expired token is refused and stays listed (as expired) until removed; tokens
  expired more than :data:`KEEP_EXPIRED_DAYS` days ago are deleted when their user is issued a
  new one.
- **Several per user**, each with a name ("scorer laptop"), at most :data:`LIMIT` unexpired ones.
- **Revoking** deletes the token: the next request with it is refused (401).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta
from hmac import compare_digest

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import Q
from django.utils import timezone
from knox.crypto import hash_token
from knox.settings import CONSTANTS, knox_settings

from scoring.models import ApiToken
from scoring.models.api_tokens import NAME_LENGTH

#: Days a new token lives unless chosen otherwise (``REST_KNOX["TOKEN_TTL"]``: 30 days, a
#: tournament weekend with the weeks of preparation before it).
DEFAULT_DAYS: int = knox_settings.TOKEN_TTL.days
#: The lifetimes offered on the account page, in days.
PAGE_DAYS: tuple[int, ...] = (1, 7, 30, 90)
#: The longest lifetime the command line may give, in days.
MAX_DAYS = 365
#: Unexpired tokens a user may hold at once (``REST_KNOX["TOKEN_LIMIT_PER_USER"]``).
LIMIT: int = knox_settings.TOKEN_LIMIT_PER_USER or 10
#: Expired tokens stay listed this many days after expiry.
KEEP_EXPIRED_DAYS = 30
#: ``last_used`` is written at most once per this many seconds per token.
TOUCH_SECONDS = 60
#: Characters of the stored, non-secret prefix.
PREFIX_LENGTH: int = CONSTANTS.TOKEN_KEY_LENGTH
#: A longer credential is no token of ours (not hashed at all).
MAX_KEY_LENGTH = 200

__all__ = ["DEFAULT_DAYS", "LIMIT", "MAX_DAYS", "NAME_LENGTH", "PAGE_DAYS", "Issued", "TooManyTokens", "find",
           "issue", "revoke", "revoke_all", "tokens_of", "touch"]


@dataclass(frozen=True)
class Issued:
    """A token just issued: the stored row and the whole ``key`` (the secret; show it once, store
    it nowhere)."""

    token: ApiToken
    key: str


class TooManyTokens(Exception):
    """The user already holds :data:`LIMIT` unexpired tokens."""

    def __init__(self, limit: int):
        super().__init__(f"at most {limit} unexpired API tokens per user")
        self.limit = limit


def tokens_of(user):
    """The user's tokens, newest first (expired ones included; ``is_expired()`` tells)."""
    return ApiToken.objects.filter(user=user).order_by("-created", "token_key")


def issue(user, name: str, days: int | None = None) -> Issued:
    """A new token for ``user`` named ``name`` (at most :data:`NAME_LENGTH` characters), living
    ``days`` days (default :data:`DEFAULT_DAYS`; 1 to :data:`MAX_DAYS`).

    Raises :class:`ValueError` for a bad name or lifetime and :class:`TooManyTokens` when the user
    already holds :data:`LIMIT` unexpired tokens. The count is checked under a lock on the user's
    row, so two requests at once cannot both pass it."""
    name = (name or "").strip()
    days = DEFAULT_DAYS if days is None else days
    if not name or len(name) > NAME_LENGTH:
        raise ValueError(f"a token's name has 1 to {NAME_LENGTH} characters")
    if not isinstance(days, int) or not 1 <= days <= MAX_DAYS:
        raise ValueError(f"a token lives 1 to {MAX_DAYS} days")
    now = timezone.now()
    with transaction.atomic():
        get_user_model().objects.select_for_update().filter(pk=user.pk).first()
        mine = ApiToken.objects.filter(user=user)
        mine.filter(expiry__lt=now - timedelta(days=KEEP_EXPIRED_DAYS)).delete()
        if mine.filter(Q(expiry__isnull=True) | Q(expiry__gt=now)).count() >= LIMIT:
            raise TooManyTokens(LIMIT)
        token, key = ApiToken.objects.create(user=user, expiry=timedelta(days=days), name=name)
    return Issued(token=token, key=key)


def revoke(user, prefix: str) -> int:
    """Delete the user's token(s) with this prefix (the stored ``token_key``); how many.
    Nobody else's token is touched."""
    deleted, _ = ApiToken.objects.filter(user=user, token_key=prefix.strip()).delete()
    return deleted


def revoke_all(user) -> int:
    """Delete every token of the user; how many."""
    deleted, _ = ApiToken.objects.filter(user=user).delete()
    return deleted


def find(key: str) -> ApiToken | None:
    """The stored token whose hash is that of ``key`` (with its user), expired or not; ``None``
    when there is none (never raises for any string)."""
    if not key or len(key) > MAX_KEY_LENGTH or not key.isascii():
        return None
    digest = hash_token(key)
    for token in ApiToken.objects.filter(token_key=key[:PREFIX_LENGTH]).select_related("user"):
        if compare_digest(digest, token.digest):
            return token
    return None


def touch(token: ApiToken, now=None) -> None:
    """Record that ``token`` was used now (written at most once per :data:`TOUCH_SECONDS`)."""
    now = now or timezone.now()
    if token.last_used is None or (now - token.last_used).total_seconds() >= TOUCH_SECONDS:
        ApiToken.objects.filter(pk=token.pk).update(last_used=now)
        token.last_used = now
