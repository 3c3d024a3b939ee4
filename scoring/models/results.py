"""Result containers (a Tai Pan match, a four-player table), their records (hands, deals),
confirmations and the audit trail (docs/architecture.md, docs/tournaments.md)."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _
from django_fsm import RETURN_VALUE

from scoring.models.links import EntrantLink
from scoring.models.participants import Player, Team
from scoring.models.rounds import Round
from scoring.models.states import FSMField, StatefulModel, transition
from scoring.models.tournaments import Tournament


class MatchQuerySet(models.QuerySet):
    """Queries on :class:`Match`."""

    def with_teams(self) -> MatchQuerySet:
        """Matches with their round, tournament, both teams with players and the winner read in
        the same query (pages, sheets and exports of matches)."""
        return self.select_related(
            "round__tournament",
            "team_ns__first_player",
            "team_ns__second_player",
            "team_ew__first_player",
            "team_ew__second_player",
            "winner",
        )


class ResultContainer(StatefulModel):
    """What the results of one table are kept on: a Tai Pan :class:`Match` (hands) or a four-player
    :class:`Table` (deals). The result sheet (:mod:`scoring.results.sheet`) is the one writer.

    ``status`` moves only through the transitions: pending -> playing -> finished (decided by the
    entered records, :meth:`follow_records`) -> confirmed (:meth:`confirm`, by a second person)
    -> back to finished (:meth:`reopen`, with a reason). ``ended``: ``target`` (finished by the
    game's end rule or the fixed number of records) or ``time`` (ended by a referee at the time
    limit). ``version`` increases on every change: a form carries the version it was built from
    and a stale write is refused inside the row lock (no lost updates)."""

    class Status(models.TextChoices):
        PENDING = "pending", _("Not started")
        PLAYING = "playing", _("Playing")
        FINISHED = "finished", _("Finished")
        CONFIRMED = "confirmed", _("Confirmed")

    class Ended(models.TextChoices):
        TARGET = "target", _("Target reached")
        TIME = "time", _("Time limit")

    status = FSMField(_("status"), max_length=20, choices=Status.choices, default=Status.PENDING, protected=True)
    ended = models.CharField(_("ended by"), max_length=10, choices=Ended.choices, blank=True)
    version = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        abstract = True

    @transition(field=status, source=[Status.PENDING, Status.PLAYING, Status.FINISHED],
                target=RETURN_VALUE(Status.PENDING, Status.PLAYING, Status.FINISHED))
    def follow_records(self, *, has_records: bool, finished: bool) -> str:
        """The entered records decide an unconfirmed result's state: finished (by the end rule,
        the fixed number of records or the time limit), playing (records, not finished) or pending
        (none). A confirmed result does not follow its records (reopen it first)."""
        if finished:
            return self.Status.FINISHED
        return self.Status.PLAYING if has_records else self.Status.PENDING

    @transition(field=status, source=Status.FINISHED, target=Status.CONFIRMED)
    def confirm(self) -> None:
        """Finished -> confirmed by a second person."""

    @transition(field=status, source=Status.CONFIRMED, target=Status.FINISHED)
    def reopen(self) -> None:
        """Confirmed -> finished again, so it can be corrected (a reason is kept in the audit)."""

    @property
    def is_finished(self) -> bool:
        """Finished or confirmed: the result counts in the standings."""
        return self.status in (self.Status.FINISHED, self.Status.CONFIRMED)


class ResultRecord(models.Model):
    """One entered record of a result (a Tai Pan hand, a four-player deal): ``number`` (1..n in
    play order), ``record`` (the engine's input as entered: the source of truth) and who entered
    it. The scores next to it are derived (rebuilt from the records)."""

    number = models.PositiveSmallIntegerField(_("number"))
    record = models.JSONField(_("record"))
    entered_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    #: The idempotency key of the entry form that created the record (one token per rendered
    #: form): a retried submission (a dropped connection, a double tap) finds the record it
    #: already stored instead of adding another (:func:`scoring.results.sheet.add_record`).
    #: Unique per container; ``None`` for records created otherwise (imports, commands).
    submission = models.CharField(_("submission"), max_length=64, null=True, blank=True, editable=False)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)
    #: The record's version: 1 when stored, one more on every edit or restore of it. An
    #: acknowledgement stands for one revision (verification per hand, docs/results.md).
    revision = models.PositiveIntegerField(_("revision"), default=1)
    #: The revision the other side (or a referee or organiser on its behalf) acknowledged, with
    #: who and when; pending while it differs from ``revision``. Every acknowledgement is also
    #: in the audit trail (``acknowledge``).
    acknowledged_revision = models.PositiveIntegerField(null=True, blank=True)
    acknowledged_at = models.DateTimeField(null=True, blank=True)
    acknowledged_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True,
                                        related_name="+")
    acknowledged_via_link = models.ForeignKey(EntrantLink, on_delete=models.SET_NULL, null=True, blank=True,
                                              related_name="+")
    acknowledged_via_entrant = models.CharField(max_length=250, blank=True)

    class Meta:
        abstract = True

    @property
    def is_acknowledged(self) -> bool:
        """True when the current revision was acknowledged."""
        return self.acknowledged_revision == self.revision


class Match(ResultContainer):
    """A Tai Pan match at one table: team NS against team EW (``team_ew`` null: a bye).

    Derived columns (rebuilt from the hands): ``total_ns``/``total_ew`` (running totals),
    ``winner``, ``points_ns``/``points_ew`` (match points, or victory points in the fixed-hands
    format). State, ``ended`` and ``version``: :class:`ResultContainer`.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="matches")
    table = models.PositiveSmallIntegerField(_("table"))
    team_ns = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="matches_ns", verbose_name=_("team NS"))
    team_ew = models.ForeignKey(
        Team, on_delete=models.PROTECT, related_name="matches_ew", null=True, blank=True, verbose_name=_("team EW")
    )
    total_ns = models.IntegerField(_("total NS"), default=0)
    total_ew = models.IntegerField(_("total EW"), default=0)
    points_ns = models.IntegerField(_("match points NS"), default=0)
    points_ew = models.IntegerField(_("match points EW"), default=0)
    winner = models.ForeignKey(Team, on_delete=models.PROTECT, related_name="+", null=True, blank=True)
    pairing_note = models.CharField(_("pairing note"), max_length=200, blank=True)
    pairing_reason = models.JSONField(_("pairing reason"), default=dict, blank=True)
    #: A no-show after the draw decided as a forfeit (issue 23 item 3): the side that did not show
    #: up (``"NS"`` or ``"EW"``), or empty. The match is then finished without hands, its numbers
    #: derived from the tournament's forfeit settings (:meth:`scoring.kinds.MatchKind.apply`).
    forfeit = models.CharField(_("forfeited by"), max_length=2, blank=True, choices=[("NS", "NS"), ("EW", "EW")])

    objects = MatchQuerySet.as_manager()

    class Meta:
        ordering = ["round", "table"]
        constraints = [models.UniqueConstraint(fields=["round", "table"], name="unique_table_per_round")]
        verbose_name = _("match")
        verbose_name_plural = _("matches")

    def __str__(self) -> str:
        return f"{self.round} - {_('table')} {self.table}: {self.team_ns} - {self.team_ew or _('bye')}"

    @property
    def is_bye(self) -> bool:
        return self.team_ew_id is None

    def pairing_reason_text(self) -> str:
        """Why this table was paired, in the active language. ``pairing_reason`` holds the
        untranslated message ``{"template": str, "params": dict}`` and optionally ``"extra"``, more
        such messages (club avoidance, late entries) appended after it; ``pairing_note`` the same
        text in the site's default language (exports, older rows)."""
        if not (self.pairing_reason or {}).get("template"):
            return self.pairing_note
        return reason_text(self.pairing_reason)

    @property
    def is_draw(self) -> bool:
        return self.status in (self.Status.FINISHED, self.Status.CONFIRMED) and not self.is_bye and self.winner_id is None


def reason_text(reason: dict) -> str:
    """A pairing reason (``{"template", "params", "extra": [{"template", "params"}, ...]}``, the
    templates untranslated) as one text in the active language, the extras after the main one (joined by " · ")."""
    parts = [reason, *(reason.get("extra") or [])]
    return " · ".join(gettext(p["template"]).format(**(p.get("params") or {})) for p in parts if p.get("template"))


class Hand(ResultRecord):
    """One Tai Pan hand of a match: the entered ``record`` (the engine's ``score`` input) and the
    derived hand scores ``ns``/``ew`` (points, may be negative)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="hands")
    ns = models.IntegerField(_("NS"), default=0)
    ew = models.IntegerField(_("EW"), default=0)

    class Meta:
        ordering = ["match", "number"]
        constraints = [
            models.UniqueConstraint(fields=["match", "number"], name="unique_hand_number_per_match"),
            models.UniqueConstraint(fields=["match", "submission"], name="unique_hand_submission_per_match"),
        ]
        verbose_name = _("hand")
        verbose_name_plural = _("hands")

    def __str__(self) -> str:
        return f"{_('hand')} {self.number}: {self.ns} - {self.ew}"


class Table(ResultContainer):
    """A four-player table of one round; seats in :class:`TableSeat` (whose ``total`` is derived).

    ``state``: the game state carried from deal to deal (Taiwanese dealer and streak, Tien Gow
    banker), derived from the deals. State, ``ended`` and ``version``: :class:`ResultContainer`.
    """

    round = models.ForeignKey(Round, on_delete=models.CASCADE, related_name="tables")
    number = models.PositiveSmallIntegerField(_("table"))
    state = models.JSONField(default=dict, blank=True)
    seating_note = models.CharField(_("seating note"), max_length=200, blank=True)

    class Meta:
        ordering = ["round", "number"]
        constraints = [models.UniqueConstraint(fields=["round", "number"], name="unique_four_player_table_per_round")]
        verbose_name = _("table")
        verbose_name_plural = _("tables")

    def __str__(self) -> str:
        return f"{self.round} - {_('table')} {self.number}"


class TableSeat(models.Model):
    """Seat ``seat`` (0..3; East, South, West, North in mahjong) of a :class:`Table`; ``total`` is
    the derived running total of the player's deal results at this table."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="seats")
    seat = models.PositiveSmallIntegerField(_("seat"))
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="seats")
    total = models.IntegerField(_("total"), default=0)

    class Meta:
        ordering = ["table", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["table", "seat"], name="unique_seat_per_table"),
            models.UniqueConstraint(fields=["table", "player"], name="unique_player_per_table"),
        ]
        verbose_name = _("seat")
        verbose_name_plural = _("seats")

    def __str__(self) -> str:
        return f"{self.table} - {self.seat}: {self.player}"


class Deal(ResultRecord):
    """One deal at a four-player table: the entered ``record`` (engine input) and the derived
    net result per seat ``net`` (list of 4 ints, summing to zero)."""

    table = models.ForeignKey(Table, on_delete=models.CASCADE, related_name="deals")
    net = models.JSONField(_("net per seat"), default=list)

    class Meta:
        ordering = ["table", "number"]
        constraints = [
            models.UniqueConstraint(fields=["table", "number"], name="unique_deal_number_per_table"),
            models.UniqueConstraint(fields=["table", "submission"], name="unique_deal_submission_per_table"),
        ]
        verbose_name = _("deal")
        verbose_name_plural = _("deals")

    def __str__(self) -> str:
        return f"{self.table} - {_('deal')} {self.number}"


class Confirmation(models.Model):
    """A confirmed result of a :class:`Match` or :class:`Table` by a second person (issue 4).

    At most one active (not reopened) confirmation per match/table, guaranteed by conditional
    unique constraints. Reopening keeps the row with ``reopened_by``/``reopen_reason``.
    ``totals``: the final totals as confirmed (``{"NS": int, "EW": int}`` or a list of 4 ints).
    Who confirmed: a user (``confirmed_by``), or an entrant through its private link
    (``via_link`` and its name at the time, ``via_entrant``; issue 15).
    """

    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True, related_name="confirmations")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, null=True, blank=True, related_name="confirmations")
    confirmed_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    via_link = models.ForeignKey(EntrantLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    via_entrant = models.CharField(_("confirmed through the link of"), max_length=250, blank=True)
    confirmed_at = models.DateTimeField(auto_now_add=True)
    totals = models.JSONField(default=dict)
    active = models.BooleanField(default=True)
    reopened_by = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, null=True, blank=True, related_name="+")
    reopened_at = models.DateTimeField(null=True, blank=True)
    reopen_reason = models.TextField(blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["match"], condition=Q(active=True), name="one_active_confirmation_per_match"),
            models.UniqueConstraint(fields=["table"], condition=Q(active=True), name="one_active_confirmation_per_table"),
            models.CheckConstraint(
                condition=Q(match__isnull=False, table__isnull=True) | Q(match__isnull=True, table__isnull=False),
                name="confirmation_of_match_xor_table",
            ),
            models.CheckConstraint(
                condition=Q(confirmed_by__isnull=False) | ~Q(via_entrant=""),
                name="confirmation_by_user_or_entrant",
            ),
        ]
        verbose_name = _("confirmation")
        verbose_name_plural = _("confirmations")

    @property
    def confirmer(self) -> str:
        """Who confirmed, for members' pages: the user, or the entrant through its link."""
        if self.confirmed_by_id:
            return str(self.confirmed_by)
        return gettext("%(entrant)s (private link)") % {"entrant": self.via_entrant}


class Dispute(models.Model):
    """"These totals are wrong": the side that was to confirm a result disagrees with the entered
    totals (player entry with opponent verification, issue 15). It keeps that side's own totals
    (``totals``, one per side in side order) and an optional ``note``, and the ``version`` of the
    result it disputed; a referee sees both versions and resolves it by correcting and confirming
    the result. ``confirmation``: the confirmation that resolved it (``None``: open)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True, related_name="disputes")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, null=True, blank=True, related_name="disputes")
    via_link = models.ForeignKey(EntrantLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    via_entrant = models.CharField(_("reported by"), max_length=250)
    totals = models.JSONField(_("their totals"), default=list)
    #: The totals entered at the time (what was disputed).
    entered_totals = models.JSONField(_("entered totals"), default=list)
    note = models.TextField(_("note"), blank=True)
    version = models.PositiveIntegerField()
    created_at = models.DateTimeField(auto_now_add=True)
    confirmation = models.ForeignKey(Confirmation, on_delete=models.SET_NULL, null=True, blank=True, related_name="disputes")
    #: A disagreement with one record (verification per hand): the record's id and number, the
    #: revision disagreed with; ``totals``/``entered_totals`` are then that record's scores per
    #: side. ``None`` for a dispute of the whole result's totals.
    record_id = models.BigIntegerField(null=True, blank=True)
    number = models.PositiveSmallIntegerField(null=True, blank=True)
    record_revision = models.PositiveIntegerField(null=True, blank=True)
    #: When a record's disagreement was settled (the record acknowledged, or deleted).
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["created_at", "pk"]
        constraints = [
            models.CheckConstraint(
                condition=Q(match__isnull=False, table__isnull=True) | Q(match__isnull=True, table__isnull=False),
                name="dispute_of_match_xor_table",
            ),
        ]
        verbose_name = _("dispute")
        verbose_name_plural = _("disputes")

    @property
    def is_open(self) -> bool:
        return self.confirmation_id is None


class AuditEntry(models.Model):
    """Every create, edit, delete, confirm, reopen and restore of results: who, when, why, and the
    old and new values (JSON) of the object concerned (issue 4). Who: a user, or an entrant
    through its private link (``via_entrant``; issue 15), or neither (commands, imports)."""


    class Action(models.TextChoices):
        CREATE = "create", _("Created")
        UPDATE = "update", _("Edited")
        DELETE = "delete", _("Deleted")
        CONFIRM = "confirm", _("Confirmed")
        REOPEN = "reopen", _("Reopened")
        RESTORE = "restore", _("Restored")
        END = "end", _("Ended")
        RESUME = "resume", _("Resumed")
        DISPUTE = "dispute", _("Disputed")
        ACKNOWLEDGE = "acknowledge", _("Acknowledged")

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="audit_entries")
    match = models.ForeignKey(Match, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries")
    table = models.ForeignKey(Table, on_delete=models.CASCADE, null=True, blank=True, related_name="audit_entries")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    #: An entrant acting through its private link (issue 15): the link, and the entrant's name at
    #: the time (kept when the link or the entrant is gone).
    via_link = models.ForeignKey(EntrantLink, on_delete=models.SET_NULL, null=True, blank=True, related_name="+")
    via_entrant = models.CharField(_("through the link of"), max_length=250, blank=True)
    action = models.CharField(_("action"), max_length=20, choices=Action.choices)
    object_type = models.CharField(_("object"), max_length=40)
    object_id = models.BigIntegerField(null=True, blank=True)
    reason = models.TextField(_("reason"), blank=True)
    old = models.JSONField(null=True, blank=True)
    new = models.JSONField(null=True, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = _("audit entry")
        verbose_name_plural = _("audit entries")

    @property
    def who(self) -> str:
        """Who acted, for members' pages: the user, the entrant through its link, or ``""``."""
        if self.user_id:
            return str(self.user)
        if self.via_entrant:
            return gettext("%(entrant)s (private link)") % {"entrant": self.via_entrant}
        return ""
