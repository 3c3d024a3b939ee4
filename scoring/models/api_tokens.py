"""API tokens of users for the REST API (issue 22 item 4; ``docs/api.md``), stored as hashes.

The model is django-rest-knox's token (``knox.models.AbstractAuthToken``, swapped in with
``KNOX_TOKEN_MODEL``): ``digest`` is the SHA-512 (hex) of the whole token and the primary key,
``token_key`` its first 15 characters (``nskt_`` and 10 random hex digits: the non-secret prefix
a user recognises a token by), ``user``, ``created`` and ``expiry``. The token itself is never
stored: the database (and so a backup or a dump) gives no usable token. Added here: the user's
``name`` for it ("scorer laptop") and when it was ``last_used`` (to the minute).

Revoking a token deletes its row. Issuing, listing and revoking: :mod:`scoring.participants.api_tokens`.
"""
from __future__ import annotations

from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from knox.models import AbstractAuthToken

#: The longest name a user may give a token.
NAME_LENGTH = 60


class ApiToken(AbstractAuthToken):
    """One API token of a user: acts as that user until ``expiry`` (always set by the app) or until
    revoked (deleted)."""

    name = models.CharField(_("name"), max_length=NAME_LENGTH)
    #: When a request last authenticated with the token (written at most once a minute), or None.
    last_used = models.DateTimeField(_("last used"), null=True, blank=True)

    class Meta:
        ordering = ["-created"]
        verbose_name = _("API token")
        verbose_name_plural = _("API tokens")

    def __str__(self) -> str:
        return f"{self.token_key}… ({self.name}) of {self.user}"

    def is_expired(self, now=None) -> bool:
        """Whether the token no longer works because its ``expiry`` has passed (at ``now``,
        default the current time)."""
        return self.expiry is not None and self.expiry <= (now or timezone.now())
