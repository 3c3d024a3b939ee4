"""Exceptions raised by the services; views and the API turn them into messages next to a field.

Every :class:`ServiceError` has ``field`` (a form field name, or ``""`` for the whole form) and
``message`` (a translated, human-readable string). Engine rule violations are not wrapped: they
propagate as :class:`engines.errors.RuleViolation` (re-exported by :mod:`scoring.games.base`) so
each violation can be put next to its own field.
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext


class ServiceError(Exception):
    """Base class: a request the services refuse. ``field``: form field or ``""``; ``message``:
    translated text (a lazy string; ``str(err)`` gives it)."""

    default_message = _("This action is not possible.")

    def __init__(self, message=None, *, field: str = ""):
        self.message = message if message is not None else self.default_message
        self.field = field
        super().__init__(str(self.message))

    def __str__(self) -> str:
        return str(self.message)


class StaleVersion(ServiceError):
    """The object changed since the form was built: the version the form carried is not the one
    found inside the row lock (optimistic concurrency), or the form carried none."""

    default_message = _("This was changed by someone else in the meantime. Reload the page and try again.")


class NotAllowed(ServiceError):
    """The action is not allowed in the object's current state or for this user (e.g. confirming
    your own entries, pairing before the previous round is closed)."""

    default_message = _("This action is not allowed now.")


class Locked(ServiceError):
    """The result cannot change in its state: confirmed (reopen it first), finished (no more
    records can be added), or its round is closed."""

    default_message = _("This result is locked: it is finished or confirmed.")


class PairingImpossible(ServiceError):
    """No pairing without a rematch exists. ``blocking``: names of the teams that cannot be paired
    with anyone they have not met yet (or the smallest group found that blocks the pairing)."""

    default_message = _("No pairing without a rematch exists.")

    def __init__(self, message=None, *, blocking: list[str] | None = None, field: str = ""):
        self.blocking = list(blocking or [])
        super().__init__(message, field=field)


def wait_phrase(seconds: int) -> str:
    """How long to wait, in the active language, for a ``Retry-After`` of ``seconds``: whole
    seconds under two minutes ("90 seconds"), else minutes rounded up ("18 minutes"), so a
    doubled delay of 1,024 seconds reads as minutes."""
    seconds = max(int(seconds), 0)
    if seconds < 120:
        return ngettext("%(n)s second", "%(n)s seconds", seconds) % {"n": seconds}
    minutes = -(-seconds // 60)
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}
