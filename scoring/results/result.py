"""The result sheet object: one result (a match or a table) with everything its rules read, loaded
once (:meth:`ResultSheet.load`, for pages) or locked once (:meth:`ResultSheet.lock`, for writes),
asked one question for every action (:meth:`ResultSheet.refusal`) and evaluated once per write.

The writes themselves are in :mod:`scoring.results.lifecycle` (records, the time limit),
:mod:`scoring.results.disputes` (confirming, disputing, reopening), :mod:`scoring.results.restore`
(the audit trail) and :mod:`scoring.results.retry` (a repeated submission); :mod:`scoring.results.sheet`
is the one module the rest of the app imports them from.
"""
from __future__ import annotations

from functools import cached_property
from typing import Any

from django.core.exceptions import PermissionDenied
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import ServiceError
from scoring.games.base import Evaluation, RecordOutcome
from scoring.kinds import ResultKind, kind_of
from scoring.locking import lock
from scoring.models import AuditEntry, Dispute, ResultContainer, ResultRecord, Round
from scoring.policy import Perm
from scoring.results import audit
from scoring.results.refusals import Action, Refusal, permission_refusal, refusal

A = AuditEntry.Action
#: Added to a record's number while records are renumbered (two passes keep numbers unique).
RENUMBER_OFFSET = 10_000


class ResultSheet:
    """One result and what every rule about it reads: ``container`` (a Match or Table), its
    ``kind`` (:class:`~scoring.kinds.ResultKind`), ``round``, ``tournament`` and ``adapter``; its
    ``records`` (read once, in order), who entered it (``entering_links``, :meth:`changed_by`) and
    its ``open_disputes``, each read at most once per sheet. Build it with :meth:`load` (pages: no
    lock) or :meth:`lock` (writes: inside ``transaction.atomic()``)."""

    def __init__(self, container: ResultContainer, *, locked: bool = False) -> None:
        self.container = container
        self.kind: ResultKind = kind_of(container)
        self.round: Round = container.round
        self.tournament = self.round.tournament
        self.adapter = self.tournament.adapter
        self.locked = locked
        self._changed: dict[tuple, bool] = {}
        self._held: list[tuple[object, Perm, bool]] = []

    @classmethod
    def load(cls, container: ResultContainer) -> ResultSheet:
        """The sheet of ``container`` as the caller read it (no lock): for pages, the API's
        answers and PDFs, which only ask :meth:`refusal`."""
        return cls(container)

    @classmethod
    def lock(cls, container: ResultContainer, *, expected_version: int | None = None) -> ResultSheet:
        """Inside a transaction: lock the round, then the container, in this order for every
        writer of a round (no deadlocks, :func:`scoring.locking.lock`), and check the version the
        actor's page was built from inside the lock (:class:`~scoring.errors.StaleVersion`)."""
        kind = kind_of(container)
        rnd = lock(Round.objects.select_related("tournament"), container.round_id)
        locked = lock(kind.queryset(), container.pk, expected_version=expected_version)
        locked.round = rnd
        return cls(locked, locked=True)

    # ------------------------------------------------------------------ facts the rules read

    @property
    def is_bye(self) -> bool:
        """True for a bye (no records, no confirmation)."""
        return self.kind.is_bye(self.container)

    @cached_property
    def records(self) -> list[ResultRecord]:
        """The stored records in play order (read once; writes pass their new lists on)."""
        return self.kind.records(self.container) if self.container.pk else []

    @cached_property
    def entering_links(self) -> list[int]:
        """The private links that entered or changed the result, first first
        (:func:`scoring.results.audit.entrants_who_entered`): the first is the entering side."""
        return audit.entrants_who_entered(self.container)

    @cached_property
    def _entering_users(self) -> set[int]:
        return audit.entered_by(self.container)

    def changed_by(self, actor) -> bool:
        """True when ``actor`` (a user or an entrant) entered, changed, deleted or restored a record
        of the result, or ended or resumed it (:func:`scoring.results.audit.has_changed`)."""
        who = policy.identity(actor)
        if who is None:
            return False
        if who not in self._changed:
            self._changed[who] = who[1] in (self.entering_links if who[0] == "link" else self._entering_users)
        return self._changed[who]

    def holds(self, actor, perm: Perm) -> bool:
        """:func:`scoring.policy.has_perm` of ``actor`` for ``perm`` on this result, asked once per
        actor and permission (an entrant's answer reads its seat at a table; a page asks for many
        actions)."""
        for who, held, answer in self._held:
            if who is actor and held is perm:
                return answer
        answer = policy.has_perm(actor, perm, self.tournament, result=self.container)
        self._held.append((actor, perm, answer))
        return answer

    @cached_property
    def _open_dispute_rows(self) -> list[Dispute]:
        return list(Dispute.objects.filter(confirmation=None, resolved_at=None, **self.kind.audit_link(self.container))
                    .order_by("pk"))

    @property
    def open_disputes(self) -> list[Dispute]:
        """The result's disputes of its totals no confirmation has resolved yet, oldest first."""
        return [d for d in self._open_dispute_rows if d.record_id is None]

    @property
    def open_record_disputes(self) -> list[Dispute]:
        """The open disagreements with single records (verification per hand), oldest first: each
        is settled when its record is acknowledged or deleted."""
        return [d for d in self._open_dispute_rows if d.record_id is not None]

    def resolves_dispute(self, actor) -> bool:
        """True when ``actor``, a referee or organiser, may confirm a result they changed because
        they resolve a dispute: every change of theirs came after the first open dispute (they
        corrected it; the original entry was someone else's)."""
        disputes = self.open_disputes
        if not disputes or policy.is_entrant(actor) or not getattr(actor, "is_authenticated", False):
            return False
        link = self.kind.audit_link(self.container)
        first = (AuditEntry.objects.filter(action=A.DISPUTE, object_type="dispute", object_id=disputes[0].pk, **link)
                 .values_list("pk", flat=True).first())
        if first is None:
            return False
        return not AuditEntry.objects.filter(user_id=actor.pk, action__in=audit.ENTERING_ACTIONS, pk__lt=first,
                                             **link).exists()

    def acknowledgeable(self, actor) -> list[ResultRecord]:
        """The records ``actor`` may acknowledge now (``Action.ACKNOWLEDGE`` asked per record)."""
        if self.refusal(Action.ACKNOWLEDGE, actor) is not None:
            return []
        return [r for r in self.records if self.refusal(Action.ACKNOWLEDGE, actor, number=r.number) is None]

    # ------------------------------------------------------------------ the one question

    def refusal(self, action: Action, actor, *, permission: bool = True, number: int | None = None) -> Refusal | None:
        """``None`` when ``actor`` may do ``action`` now, else why not
        (:func:`scoring.results.refusals.refusal`; ``permission=False``: the permission was asked
        already, :meth:`require_permission`; ``number``: the record asked about)."""
        return refusal(self, action, actor, permission=permission, number=number)

    def allows(self, action: Action, actor, *, number: int | None = None) -> bool:
        """True when :meth:`refusal` is ``None``."""
        return self.refusal(action, actor, number=number) is None

    def require(self, action: Action, actor, *, permission: bool = True, number: int | None = None) -> None:
        """Raise the refusal's error (:class:`~scoring.errors.NotAllowed`,
        :class:`~scoring.errors.Locked`, ``PermissionDenied``) unless ``actor`` may do ``action`` now."""
        refused = self.refusal(action, actor, permission=permission, number=number)
        if refused is not None:
            raise refused.exception()

    def permitted(self, action: Action, actor) -> bool:
        """True when ``actor`` holds the permission ``action`` needs on this result, whatever its
        state (:func:`scoring.results.refusals.permission_refusal`)."""
        return permission_refusal(self, action, actor) is None

    def require_permission(self, action: Action, actor) -> None:
        """Raise ``PermissionDenied`` unless ``actor`` holds the permission ``action`` needs on this
        result, whatever its state (:func:`scoring.results.refusals.permission_refusal`)."""
        refused = permission_refusal(self, action, actor)
        if refused is not None:
            raise PermissionDenied(str(refused.message))

    # ------------------------------------------------------------------ evaluation

    def evaluate(self, records: list[dict[str, Any]], *, ended_at_time: bool | None = None) -> Evaluation:
        """The game's evaluation of the whole result from ``records`` (dicts, in order); ended at
        the time limit as the container is unless ``ended_at_time`` says otherwise. Raises
        :class:`~engines.errors.RuleViolation`."""
        if ended_at_time is None:
            ended_at_time = self.container.ended == self.container.Ended.TIME
        return self.adapter.evaluate(records, self.tournament, ended_at_time=ended_at_time)

    def state_before(self, records: list[dict[str, Any]]) -> dict[str, Any]:
        """The carried state after ``records`` (the state before the next one): the initial state
        when nothing is carried (:attr:`~scoring.kinds.ResultKind.carries_state`) or nothing came
        before, else the evaluation of ``records``."""
        if not records or not self.kind.carries_state:
            return self.adapter.initial_state()
        return self.adapter.evaluate(records, self.tournament).state

    def candidate(self, record: dict[str, Any], position: int, *, insert: bool) -> tuple[RecordOutcome, list[dict], Evaluation]:
        """``record`` checked at ``position`` (0-based) among the stored records, inserted there
        (``insert``: an added or restored record) or replacing the one there: ``(its outcome, the
        records as they would be stored, the evaluation of the whole result with it)``. The record
        is checked on its own first, so its own fields carry the violations; then the whole
        result (e.g. nothing after the end): one evaluation of the whole result per write (an
        added record takes the carried state from the container instead of evaluating the records
        before it). Raises :class:`~engines.errors.RuleViolation`."""
        stored = [r.record for r in self.records]
        if self.kind.carries_state and stored and position == len(stored):
            # The carried state after the stored records is the locked container's (rebuilt by every
            # write); the evaluation of the whole result below checks the new record with it again.
            state = dict(self.container.state)
        else:
            state = self.state_before(stored[:position])
        outcome = self.adapter.evaluate_record(record, state, self.tournament)
        if insert:
            stored.insert(position, outcome.record)
        else:
            stored[position] = outcome.record
        return outcome, stored, self.evaluate(stored)

    # ------------------------------------------------------------------ writing

    def apply(self, records: list[ResultRecord], evaluation: Evaluation | None, *, save: bool = True) -> None:
        """Write the derived numbers of ``evaluation`` (of ``records``, the stored records in order)
        onto the records and the container: each record as evaluated and its scores, the totals,
        ranking points, winner, carried state, how it ended, and the state of an unconfirmed
        result (pending, playing or finished). ``evaluation`` ``None``: a bye. ``save=False``
        changes the instances only."""
        c, kind = self.container, self.kind
        if evaluation is None:
            kind.apply(c, Evaluation([], (0, 0), True, "", 0, (0, 0), {}), self.adapter, self.tournament)
            changed = []
        else:
            changed = [rec for rec, outcome in zip(records, evaluation.outcomes, strict=True)
                       if kind.set_scores(rec, outcome.record, outcome.scores)]
            kind.apply(c, evaluation, self.adapter, self.tournament)
        if c.status != c.Status.CONFIRMED:
            c.follow_records(has_records=bool(records), finished=True if evaluation is None else evaluation.finished)
        if save:
            for rec in changed:
                rec.save()
            c.save()
        self.records = records

    def recompute(self, *, save: bool = True) -> Evaluation | None:
        """Rebuild the result's derived numbers from its stored records (:meth:`apply`). Returns
        the evaluation (``None`` for a bye). Raises :class:`~engines.errors.RuleViolation` when
        the stored records break the rules."""
        if self.kind.decided_without_records(self.container):  # a bye or a forfeit: no records
            self.apply([], None, save=save)
            return None
        records = self.kind.records(self.container) if self.container.pk else []
        evaluation = self.evaluate([r.record for r in records])
        self.apply(records, evaluation, save=save)
        return evaluation

    def record_at(self, number: int) -> ResultRecord:
        """Stored record ``number``; :class:`~scoring.errors.ServiceError` when there is none."""
        rec = next((r for r in self.records if r.number == number), None)
        if rec is None:
            raise ServiceError(_("There is no number {number} here.").format(number=number))
        return rec

    def renumber(self, records: list[ResultRecord], first: int = 1) -> None:
        """Give ``records`` the numbers ``first``, ``first + 1``, ... in order, in two passes so
        that the numbers are unique at every step (a unique constraint per container)."""
        if not records:
            return
        for rec in records:
            rec.number += RENUMBER_OFFSET
        self.kind.record_model.objects.bulk_update(records, ["number"])
        for i, rec in enumerate(records, start=first):
            rec.number = i
        self.kind.record_model.objects.bulk_update(records, ["number"])

    def saved(self, actor, action: str, object_type: str, object_id: int | None, *, old: Any = None, new: Any = None,
              reason: str = "", fields: tuple[str, ...] = ()) -> None:
        """After a write: increase the version, save it (and ``fields``) and write the one audit
        entry (:mod:`scoring.results.audit`)."""
        self.container.version += 1
        self.container.save(update_fields=[*fields, "version", "updated_at"])
        audit.write_for(self.container, actor, action, object_type, object_id, old=old, new=new, reason=reason)

    def snapshot(self) -> dict[str, Any]:
        """The result's audit value now (:meth:`~scoring.kinds.ResultKind.snapshot`)."""
        return self.kind.snapshot(self.container)

    def next_number(self) -> int:
        """The number the next record gets."""
        current = self.kind.record_model.objects.filter(**{self.kind.record_fk: self.container}).aggregate(n=Max("number"))["n"]
        return (current or 0) + 1


def settle_record_disputes(sheet: ResultSheet, record_id: int) -> int:
    """Inside a write: mark the open disagreements with record ``record_id`` settled (the record
    was acknowledged or deleted). Returns how many."""
    return Dispute.objects.filter(record_id=record_id, resolved_at=None, confirmation=None,
                                  **sheet.kind.audit_link(sheet.container)).update(resolved_at=timezone.now())


def sync(target: ResultContainer, sheet: ResultSheet) -> None:
    """Refresh the caller's instance after a write (the locked copy is a different object)."""
    if target is not sheet.container:
        target.refresh_from_db()


def reason_text(reason: str, field: str = "reason") -> str:
    """``reason`` stripped; :class:`~scoring.errors.ServiceError` on ``field`` when empty (every
    change after the fact needs one)."""
    text = (reason or "").strip()
    if not text:
        raise ServiceError(_("Give a reason."), field=field)
    return text
