"""Private links of entrants (issue 15): one per Tai Pan team or four-player player
(``docs/private-links.md``).

The token itself is never stored. A link keeps a random ``nonce``; the token is an HMAC of the
nonce with the site's ``SECRET_KEY`` (:func:`scoring.participants.links.token_of`), so the
organiser can print the same link again on its card (never on a score sheet), while the database alone
(a backup, a dump) gives no working token. For lookup only a SHA-256 of the token is kept
(``token_hash``). Regenerating gives a new nonce (the old token stops working at once); revoking
sets ``revoked``.
"""
from __future__ import annotations

from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models.participants import Player, Team
from scoring.models.tournaments import Tournament


class EntrantLink(models.Model):
    """The private link of one entrant of a tournament: a team (Tai Pan) or a player (four-player
    games), never both."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="entrant_links")
    team = models.OneToOneField(Team, on_delete=models.CASCADE, null=True, blank=True, related_name="link")
    player = models.OneToOneField(Player, on_delete=models.CASCADE, null=True, blank=True, related_name="link")
    #: Random; the token is an HMAC of it (a new nonce: a new token).
    nonce = models.CharField(max_length=64, editable=False)
    #: SHA-256 (hex) of the current token, for lookup; never the token.
    token_hash = models.CharField(max_length=64, unique=True, editable=False)
    revoked = models.BooleanField(_("revoked"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    #: When the current token was made (created or regenerated).
    issued_at = models.DateTimeField(_("issued"))
    revoked_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["tournament", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(team__isnull=False, player__isnull=True) | Q(team__isnull=True, player__isnull=False),
                name="entrant_link_of_team_xor_player",
            ),
        ]
        verbose_name = _("private link")
        verbose_name_plural = _("private links")

    def __str__(self) -> str:
        return f"{self.tournament} - {self.entrant}"

    @property
    def entrant(self) -> Team | Player:
        """The team or player this link belongs to."""
        return self.team if self.team_id else self.player

    @property
    def is_active(self) -> bool:
        return not self.revoked
