"""The tournament's state counters (:mod:`scoring.live.state`): change markers the pages' ETags
read in O(1), never data. Every count here can be thrown away: a new row starts from zero with a
new ``epoch``, so no state seen before comes back."""
from __future__ import annotations

import secrets

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.rounds import Round
from scoring.models.tournaments import Tournament


def new_epoch() -> str:
    """A random marker of one life of a counters row (16 hex digits)."""
    return secrets.token_hex(8)


class LiveState(models.Model):
    """One row per tournament: how many times each topic of :mod:`scoring.live` changed. Written
    only by :func:`scoring.live.state.bump` (``UPDATE ... SET x = x + 1``), never saved whole, so a
    counter never goes back."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True, related_name="live")
    epoch = models.CharField(max_length=16, default=new_epoch)
    tournament_version = models.PositiveBigIntegerField(default=0)
    standings_version = models.PositiveBigIntegerField(default=0)
    hall_version = models.PositiveBigIntegerField(default=0)
    entrants_version = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = _("live state")
        verbose_name_plural = _("live states")

    def __str__(self) -> str:
        return f"{self.tournament_id}: {self.epoch}"


class LiveRound(models.Model):
    """One row per round: ``version`` moves when the round's page changes (a table's state, a
    finished table's score, the pairing), ``board`` with every change in the round (a hand in a
    table being played too: the progress board shows running totals)."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, primary_key=True, related_name="live")
    version = models.PositiveBigIntegerField(default=0)
    board = models.PositiveBigIntegerField(default=0)

    class Meta:
        verbose_name = _("live round")
        verbose_name_plural = _("live rounds")

    def __str__(self) -> str:
        return f"{self.round_id}: {self.version}/{self.board}"
