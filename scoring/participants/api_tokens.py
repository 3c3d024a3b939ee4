"""Per-user API tokens (``rest_framework.authtoken``): at most one per user, created, replaced
and revoked by the user themself (the account page) or by a trusted command
(``manage.py api_token USERNAME``).

A token is the user: an API request with it acts with exactly the user's roles
(:mod:`scoring.policy`); it grants nothing more. Replacing a token invalidates the old key at
once. Keys are never logged or written anywhere but the token table and the one answer that
shows a new key.
"""
from __future__ import annotations

from django.db import transaction
from rest_framework.authtoken.models import Token


def token_of(user) -> Token | None:
    """The user's current token, or ``None``."""
    return Token.objects.filter(user=user).first()


def issue(user) -> Token:
    """A new token for ``user``, replacing (and so invalidating) any earlier one."""
    with transaction.atomic():
        Token.objects.filter(user=user).delete()
        return Token.objects.create(user=user)


def ensure(user) -> tuple[Token, bool]:
    """The user's token, created when there is none: ``(token, created)``."""
    with transaction.atomic():
        return Token.objects.get_or_create(user=user)


def revoke(user) -> bool:
    """Delete the user's token; True when there was one."""
    deleted, _ = Token.objects.filter(user=user).delete()
    return bool(deleted)
