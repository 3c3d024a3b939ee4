"""Check-in before a round is drawn, and withdrawals and returns per round (issue 23 item 3;
docs/hall.md "Check-in").

- :class:`CheckIn`: one row per entrant (a Tai Pan team or a four-player player) and round number:
  ``present`` (ticked) or not (unticked again), who changed it last (a user, or the entrant
  through its private link) and when. Only read when the tournament has
  ``checkin_required`` on; rows are never the reason an entrant is deleted (nothing here deletes
  an entrant).
- :class:`Withdrawal`: an entrant out of the tournament after round ``after_round`` and, once it
  returns, back from round ``returns_round`` (absent in the rounds in between), with who, when and
  why for both. The entrant's ``withdrawn_after_round`` column mirrors the open withdrawal (the
  standings' "withdrawn" mark and the exports read it).
"""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _

from scoring.models.links import EntrantLink
from scoring.models.participants import Player, Team
from scoring.models.tournaments import Tournament

ONE_ENTRANT = Q(team__isnull=False, player__isnull=True) | Q(team__isnull=True, player__isnull=False)


class CheckIn(models.Model):
    """An entrant's check-in for round ``round_number`` of ``tournament``: a team (Tai Pan) or a
    player (four-player games), never both. ``present``: ticked (True) or unticked (False);
    ``changed_by`` / ``via_link`` / ``via_entrant``: who changed it last (an organiser, or the
    entrant with one tap on its private link); ``changed_at``: when."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="checkins")
    round_number = models.PositiveSmallIntegerField(_("round"))
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, blank=True, related_name="checkins")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True, related_name="checkins")
    present = models.BooleanField(_("checked in"), default=True)
    changed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    via_link = models.ForeignKey(EntrantLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    via_entrant = models.CharField(_("through the link of"), max_length=250, blank=True)
    changed_at = models.DateTimeField(_("changed at"), auto_now=True)

    class Meta:
        ordering = ["tournament", "round_number", "pk"]
        constraints = [
            models.CheckConstraint(condition=ONE_ENTRANT, name="checkin_of_team_xor_player"),
            models.UniqueConstraint(fields=["tournament", "round_number", "team"], name="one_checkin_per_team_and_round"),
            models.UniqueConstraint(fields=["tournament", "round_number", "player"], name="one_checkin_per_player_and_round"),
        ]
        verbose_name = _("check-in")
        verbose_name_plural = _("check-ins")

    def __str__(self) -> str:
        return f"{self.team or self.player} - {self.round_number} - {self.present}"


class Withdrawal(models.Model):
    """An entrant withdrawn after round ``after_round`` (not paired or seated after it; its
    results are kept) and, once back, from round ``returns_round`` on (absent in the rounds
    ``after_round + 1 .. returns_round - 1``). ``returns_round`` null: still withdrawn."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="withdrawals")
    team = models.ForeignKey(Team, on_delete=models.CASCADE, null=True, blank=True, related_name="withdrawals")
    player = models.ForeignKey(Player, on_delete=models.CASCADE, null=True, blank=True, related_name="withdrawals")
    after_round = models.PositiveSmallIntegerField(_("withdrawn after round"))
    reason = models.CharField(_("reason"), max_length=250, blank=True)
    withdrawn_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    withdrawn_at = models.DateTimeField(_("withdrawn at"), auto_now_add=True)
    returns_round = models.PositiveSmallIntegerField(_("back from round"), null=True, blank=True)
    return_reason = models.CharField(_("reason of the return"), max_length=250, blank=True)
    returned_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    returned_at = models.DateTimeField(_("back since"), null=True, blank=True)

    class Meta:
        ordering = ["tournament", "after_round", "pk"]
        constraints = [models.CheckConstraint(condition=ONE_ENTRANT, name="withdrawal_of_team_xor_player")]
        verbose_name = _("withdrawal")
        verbose_name_plural = _("withdrawals")

    def __str__(self) -> str:
        return f"{self.team or self.player} - {self.after_round}..{self.returns_round or ''}"

    def covers(self, round_number: int) -> bool:
        """True if the entrant is out in ``round_number`` by this withdrawal."""
        return round_number > self.after_round and (self.returns_round is None or round_number < self.returns_round)
