"""Rounds: draft -> published -> in progress -> closed (docs/tournaments.md)."""
from __future__ import annotations

from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.states import FSMField, StatefulModel, transition
from scoring.models.tournaments import Tournament


class Round(StatefulModel):
    """A round of a tournament. States (named transitions; ``scoring.draw.rounds`` calls them
    inside the round's row lock):

    - draft: the pairing or seating is visible to organisers only and can be changed;
    - published (:meth:`publish`): pairings and score sheets are public, results can be entered;
    - in progress (:meth:`start`, or the first record entered);
    - closed (:meth:`close`): every result is confirmed; the next round can be drawn;
      :meth:`reopen` puts it back in progress when an organiser reopens one of its results."""

    class Status(models.TextChoices):
        DRAFT = "draft", _("Draft")
        PUBLISHED = "published", _("Published")
        IN_PROGRESS = "in_progress", _("In progress")
        CLOSED = "closed", _("Closed")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="rounds")
    number = models.PositiveSmallIntegerField(_("number"))
    status = FSMField(_("status"), max_length=20, choices=Status.choices, default=Status.DRAFT, protected=True)
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

    @property
    def is_open(self) -> bool:
        """Results may be entered: published or in progress."""
        return self.status in (self.Status.PUBLISHED, self.Status.IN_PROGRESS)

    @transition(field=status, source=Status.DRAFT, target=Status.PUBLISHED)
    def publish(self) -> None:
        """Draft -> published."""

    @transition(field=status, source=Status.PUBLISHED, target=Status.IN_PROGRESS)
    def start(self) -> None:
        """Published -> in progress (play has started, or the first record was entered)."""

    @transition(field=status, source=[Status.PUBLISHED, Status.IN_PROGRESS], target=Status.CLOSED)
    def close(self) -> None:
        """Published or in progress -> closed (the caller has checked every result is confirmed)."""

    @transition(field=status, source=Status.CLOSED, target=Status.IN_PROGRESS)
    def reopen(self) -> None:
        """Closed -> in progress: a result of the round was reopened."""
