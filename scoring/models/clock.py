"""The hall during a round (docs/hall.md): the round clock and the organisers' announcements."""
from __future__ import annotations

from datetime import datetime, timedelta

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring.models.rounds import Round
from scoring.models.tournaments import Tournament

#: Longest announcement text, in characters (a projector line, a phone's banner).
ANNOUNCEMENT_MAX_LENGTH = 280


class RoundClock(models.Model):
    """The clock of one round: the server's time is the truth (docs/hall.md, "Round clock").

    States: ``idle`` (not started: ``remaining`` is the round's length), ``running`` (``ends_at``
    is when time is up; the remaining time is ``ends_at - now``, never below zero) and
    ``paused`` (``remaining`` is what was left when it was paused). ``version`` increases on
    every change: a page or an API call carries the version it saw and a stale one is refused
    (:mod:`scoring.hall.clock`). ``warning``: how long before the end the clock shows its
    warning (copied from the tournament's setting when the clock is made)."""

    class Status(models.TextChoices):
        IDLE = "idle", _("Not started")
        RUNNING = "running", _("Running")
        PAUSED = "paused", _("Paused")

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="clock")
    status = models.CharField(_("status"), max_length=10, choices=Status.choices, default=Status.IDLE)
    ends_at = models.DateTimeField(_("ends at"), null=True, blank=True)
    remaining = models.DurationField(_("remaining time"), default=timedelta(0))
    warning = models.DurationField(_("warning before the end"), default=timedelta(minutes=10))
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)
    updated_by = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                                   related_name="+")

    class Meta:
        verbose_name = _("round clock")
        verbose_name_plural = _("round clocks")

    def __str__(self) -> str:
        return f"{self.round}: {self.get_status_display()}"

    def remaining_at(self, now: datetime) -> timedelta:
        """The time left at ``now`` (zero or more): ``ends_at - now`` while running, else the
        stored ``remaining``."""
        if self.status == self.Status.RUNNING and self.ends_at is not None:
            return max(self.ends_at - now, timedelta(0))
        return max(self.remaining, timedelta(0))


class AnnouncementQuerySet(models.QuerySet):
    def active(self, now: datetime | None = None) -> AnnouncementQuerySet:
        """Announcements shown at ``now``: not withdrawn, no end time or one still to come."""
        now = now or timezone.now()
        return self.filter(withdrawn_at__isnull=True).filter(Q(ends_at__isnull=True) | Q(ends_at__gt=now))


class Announcement(models.Model):
    """A short message of the organisers shown on the projector, the private-link pages and the
    referees' pages until its end time (``ends_at``, optional) or until it is withdrawn
    (``withdrawn_at``; never deleted). ``automatic``: posted by the app when pairings are
    published or a round starts (``author`` is then empty)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="announcements")
    text = models.CharField(_("text"), max_length=ANNOUNCEMENT_MAX_LENGTH)
    ends_at = models.DateTimeField(_("shown until"), null=True, blank=True)
    author = models.ForeignKey(settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
                               related_name="+")
    automatic = models.BooleanField(_("automatic"), default=False)
    created_at = models.DateTimeField(auto_now_add=True)
    withdrawn_at = models.DateTimeField(_("withdrawn at"), null=True, blank=True)

    objects = AnnouncementQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-pk"]
        verbose_name = _("announcement")
        verbose_name_plural = _("announcements")

    def __str__(self) -> str:
        return self.text
