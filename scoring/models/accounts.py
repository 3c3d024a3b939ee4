"""Login invitations of referees and organisers (issue 22 item 3, ``docs/accounts.md``).

An organiser invites a member of their tournament with a one-time login link (shown once as an
address and a QR code). The token itself is never stored: only its SHA-256 (``token_hash``), so a
database backup holds no working link. A link works once (``used_at``), until ``expires_at``, and
not after ``revoked_at``; issuing a new one for the same person revokes the old one.
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.tournaments import Membership, Tournament


class Invitation(models.Model):
    """A one-time login link for ``user``, who holds ``role`` in ``tournament`` (the membership is
    made when the invitation is issued; the link logs its holder in as ``user``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="invitations")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="invitations")
    role = models.CharField(_("role"), max_length=20, choices=Membership.Role.choices)
    #: SHA-256 (hex) of the token; never the token.
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    created_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                   related_name="+")
    created_at = models.DateTimeField(default=timezone.now)
    expires_at = models.DateTimeField(_("expires"))
    used_at = models.DateTimeField(_("used"), null=True, blank=True)
    revoked_at = models.DateTimeField(_("revoked"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "-created_at"]
        verbose_name = _("invitation")
        verbose_name_plural = _("invitations")

    def __str__(self) -> str:
        return f"{self.user} - {self.get_role_display()} - {self.tournament}"

    def is_pending(self, now=None) -> bool:
        """True while the link still works: not used, not revoked, not expired."""
        now = now or timezone.now()
        return self.used_at is None and self.revoked_at is None and self.expires_at > now
