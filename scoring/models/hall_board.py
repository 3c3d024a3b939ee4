"""The hall during a round (docs/hall.md): time's up called for a round (with an optional grace
period to finish the hand in play), referees' zones and claimed tables, and the sides' calls for a
referee. Tables are named by their number in the round (``Match.table``, ``Table.number``), the
same for both kinds of result (:mod:`scoring.kinds`)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from scoring.models.links import EntrantLink
from scoring.models.rounds import Round


class TimesUp(models.Model):
    """Time's up for a round (:mod:`scoring.hall.times_up`): called at ``called_at`` by
    ``called_by``; applied (every unfinished result ended at the time limit) at ``applied_at``,
    at once or when the grace period ends (``grace_until``, ``None`` without one). ``ended``: the
    table numbers it ended. One per round: it cannot be called again."""

    round = models.OneToOneField(Round, on_delete=models.CASCADE, related_name="times_up")
    called_at = models.DateTimeField(_("called at"))
    called_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    grace_minutes = models.PositiveSmallIntegerField(_("minutes to finish the hand in play"), default=0)
    grace_until = models.DateTimeField(_("finish the hand in play until"), null=True, blank=True)
    applied_at = models.DateTimeField(_("applied at"), null=True, blank=True)
    ended = models.JSONField(default=list, blank=True)

    class Meta:
        verbose_name = _("time's up")
        verbose_name_plural = _("time's up")

    def __str__(self) -> str:
        return f"{self.round}: {self.called_at:%H:%M}"

    @property
    def applied(self) -> bool:
        """True once every unfinished result was ended."""
        return self.applied_at is not None


class RefereeAssignment(models.Model):
    """Table ``table`` of ``round`` is looked after by ``referee``: in their zone (assigned by an
    organiser, ``claimed`` False) or claimed by the referee themself (``claimed`` True). At most one
    referee per table and round (:mod:`scoring.hall.zones`)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="referee_assignments")
    table = models.PositiveSmallIntegerField(_("table"))
    referee = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="referee_assignments",
                                verbose_name=_("referee"))
    claimed = models.BooleanField(_("claimed"), default=False)
    assigned_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["round", "table"], name="one_referee_per_table")]
        ordering = ["round", "table"]
        verbose_name = _("referee assignment")
        verbose_name_plural = _("referee assignments")

    def __str__(self) -> str:
        return f"{self.round} #{self.table}: {self.referee}"


class RefereeCall(models.Model):
    """A side of table ``table`` of ``round`` asked for a referee at ``called_at`` (through its
    private link, ``via_link``/``via_entrant``, or a member ``called_by``); open until a referee
    answers it (``answered_at``, ``answered_by``: they claimed the table or marked it answered)."""

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="referee_calls")
    table = models.PositiveSmallIntegerField(_("table"))
    called_at = models.DateTimeField(_("called at"), auto_now_add=True)
    called_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                  related_name="+")
    via_link = models.ForeignKey(EntrantLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    via_entrant = models.CharField(_("called by"), max_length=250, blank=True)
    answered_at = models.DateTimeField(_("answered at"), null=True, blank=True)
    answered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                    related_name="+")

    class Meta:
        indexes = [models.Index(fields=["round", "answered_at"], name="referee_call_open")]
        ordering = ["called_at"]
        verbose_name = _("call for a referee")
        verbose_name_plural = _("calls for a referee")

    def __str__(self) -> str:
        return f"{self.round} #{self.table}: {self.called_at:%H:%M}"
