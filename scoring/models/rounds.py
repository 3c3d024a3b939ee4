"""Rounds: draft -> published -> in progress -> closed (DESIGN.md 3)."""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.tournaments import Tournament


class Round(models.Model):
    """A round: draft -> published -> in progress -> closed (issue 4)."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        IN_PROGRESS = "in_progress", _("In progress")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = models.CharField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT)
    seed = models.IntegerField(_("seed"), default=0)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["tournament", "number"]
        constraints = [models.UniqueConstraint(fields=["tournament", "number"], name="unique_round_number")]
        verbose_name = _("round")
        verbose_name_plural = _("rounds")

    def __str__(self) -> str:
        return f"{self.tournament} - {_('round')} {self.number}"

    @property
    def is_public(self) -> bool:
        """Pairings and score sheets are public once published."""
        return self.status != self.Status.DRAFT
