"""Records and the time limit: adding, editing and deleting a result's records, previewing one,
ending a result at the time limit and resuming play (the rules: :mod:`scoring.results.refusals`;
the overview: :mod:`scoring.results.sheet`).

Every write locks the round and the result once (:meth:`ResultSheet.lock`, the version checked
inside the lock), asks :meth:`ResultSheet.require` for its action, evaluates the whole result once
with the changed records (:meth:`ResultSheet.candidate`), writes the derived numbers from that
evaluation (:meth:`ResultSheet.apply`) and one audit entry, and increases the version.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring.errors import ServiceError, StaleVersion
from scoring.games.base import Evaluation, RecordOutcome
from scoring.models import AuditEntry, ResultContainer, ResultRecord, Round
from scoring.results.refusals import Action, Code
from scoring.results.result import ResultSheet, reason_text, settle_record_disputes, sync
from scoring.results.retry import chained_version, stored_submission, submission_key

A = AuditEntry.Action


@dataclass(frozen=True)
class Preview:
    """What saving a record would give, nothing written: the record's ``outcome`` (engine output,
    scores per side, carried state after it), the totals per side ``before`` and ``after`` it, and
    the result's ``evaluation`` with it (finished, winner)."""

    outcome: RecordOutcome
    before: tuple[int, ...]
    after: tuple[int, ...]
    evaluation: Evaluation


def preview(container: ResultContainer, record: dict[str, Any], *, replace_number: int | None = None) -> Preview:
    """What saving ``record`` (as the next record, or replacing record ``replace_number``) would
    give, without writing. Raises :class:`~engines.errors.RuleViolation` (the record's own fields
    first, then the whole result's) and :class:`~scoring.errors.ServiceError` for a state in which
    it could not be saved (the caller checked who may enter)."""
    sheet = ResultSheet.load(container)
    sheet.require(Action.ADD if replace_number is None else Action.CHANGE, None, permission=False)
    position = len(sheet.records)
    if replace_number is not None:
        if not 1 <= replace_number <= len(sheet.records):
            raise ServiceError(_("There is no number {number} here.").format(number=replace_number))
        position = replace_number - 1
    _outcome, _stored, evaluation = sheet.candidate(record, position, insert=replace_number is None)
    running = evaluation.running()
    before = running[position - 1] if position else tuple(0 for _ in sheet.adapter.sides)
    return Preview(evaluation.outcomes[position], before, running[position], evaluation)


def add_record(container: ResultContainer, record: dict[str, Any], actor, *, expected_version: int | None = None,
               submission: str | None = None, chain: tuple[str, ...] = ()) -> ResultRecord:
    """Append a record (engine-validated) and rebuild the result; the first record moves a
    published round to in progress. Refused (:meth:`ResultSheet.require`, ``Action.ADD``):
    ``PermissionDenied``, :class:`~scoring.errors.NotAllowed` (another side enters, a bye, a draft
    round), :class:`~scoring.errors.Locked` (finished, confirmed, closed round),
    :class:`~scoring.errors.StaleVersion`; rule violations raise
    :class:`~engines.errors.RuleViolation` (the record's own fields) and nothing is saved.
    Audit: ``create``.

    ``submission``: the entry form's idempotency key (:mod:`scoring.results.retry`). It is checked
    inside the lock, before the version: a repeated submission returns the record it already
    stored, marked ``replayed = True``, and writes nothing. A record stored with the key that was
    deleted since is not brought back: the retry's version is stale then.

    ``chain``: the idempotency keys of the earlier records of the same offline outbox chain, in
    order (:func:`scoring.results.retry.chained_version`): ``expected_version`` is then the
    version the first of them was based on, and the result must be at that version plus the
    records of the chain, all of them stored, and nothing else."""
    submission = submission_key(submission)
    with transaction.atomic():
        sheet = ResultSheet.lock(container)
        sheet.require_permission(Action.ADD, actor)
        earlier = stored_submission(sheet.container, submission)
        if earlier is not None:
            earlier.replayed = True
            return earlier
        if expected_version is not None:
            expected_version = chained_version(sheet.container, int(expected_version), chain)
        if expected_version is not None and expected_version != sheet.container.version:
            refused = sheet.refusal(Action.ADD, actor, permission=False)
            if refused is not None and refused.code == Code.TIMES_UP:
                raise refused.exception()  # says more than "changed by someone else"
            raise StaleVersion()
        sheet.require(Action.ADD, actor, permission=False)
        records = sheet.records
        outcome, _stored, evaluation = sheet.candidate(record, len(records), insert=True)
        number = (records[-1].number if records else 0) + 1
        kind = sheet.kind
        rec = kind.new_record(sheet.container, number, outcome.record, outcome.scores, actor, submission=submission)
        sheet.apply([*records, rec], evaluation)
        if sheet.round.status == Round.Status.PUBLISHED:
            sheet.round.start()
            sheet.round.save(update_fields=["status"])
        rec.refresh_from_db()
        sheet.saved(actor, A.CREATE, kind.record_key, rec.pk, new=kind.record_snapshot(rec))
    sync(container, sheet)
    rec.replayed = False
    return rec


def edit_record(container: ResultContainer, number: int, record: dict[str, Any], actor, *,
                expected_version: int | None = None, reason: str = "") -> ResultRecord:
    """Replace the record ``number`` (engine-validated); later records are re-evaluated with the
    new carried state and the result is rebuilt (a later record that no longer holds, or one
    that would now come after the end, refuses the whole edit). Allowed on a finished result;
    refused on a confirmed one (``Action.CHANGE``). Audit: ``update`` with the old and new value."""
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        sheet.require(Action.CHANGE, actor)
        kind = sheet.kind
        rec = sheet.record_at(number)
        old = kind.record_snapshot(rec)
        outcome, _stored, evaluation = sheet.candidate(record, sheet.records.index(rec), insert=False)
        kind.set_scores(rec, outcome.record, outcome.scores)
        rec.entered_by = actor if getattr(actor, "is_authenticated", False) else rec.entered_by
        # A new version of the record: an acknowledgement of the old one no longer stands for it
        # (verification per hand, docs/results.md); its acknowledgement is pending again.
        rec.revision += 1
        rec.save()
        sheet.apply(sheet.records, evaluation)
        rec.refresh_from_db()
        sheet.saved(actor, A.UPDATE, kind.record_key, rec.pk, old=old, new=kind.record_snapshot(rec), reason=reason)
    sync(container, sheet)
    return rec


def delete_record(container: ResultContainer, number: int, actor, *, expected_version: int | None = None,
                  reason: str = "") -> None:
    """Delete record ``number``; later records move up one number (numbers stay 1..n) and are
    re-evaluated; the result is rebuilt. Refused on a confirmed result (``Action.CHANGE``).
    Audit: ``delete`` with the old value (restorable, :func:`scoring.results.restore.restore`)."""
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        sheet.require(Action.CHANGE, actor)
        kind = sheet.kind
        rec = sheet.record_at(number)
        old, rec_id = kind.record_snapshot(rec), rec.pk
        rest = [r for r in sheet.records if r is not rec]
        evaluation = sheet.evaluate([r.record for r in rest])
        rec.delete()
        settle_record_disputes(sheet, rec_id)
        sheet.renumber(rest)
        sheet.apply(rest, evaluation)
        sheet.saved(actor, A.DELETE, kind.record_key, rec_id, old=old, reason=reason)
    sync(container, sheet)


def end_at_time(container: ResultContainer, actor, *, expected_version: int | None = None, reason: str = "") -> ResultContainer:
    """End an unfinished result at the time limit (docs/tournaments.md): Tai Pan's higher total
    wins and equal totals are a draw (``fixed_hands``: more victory points); a four-player table
    keeps its totals. A reason is required. Refused for a bye, a finished or confirmed result
    (``Action.END``). Undo with :func:`resume_play`. Audit: ``end``."""
    reason = reason_text(reason)
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        sheet.require(Action.END, actor)
        end_now(sheet, actor, A.END, reason)
    sync(container, sheet)
    return container


def end_now(sheet: ResultSheet, actor, action: str, reason: str, *, times_up: bool = False) -> None:
    """Inside a write that checked ``Action.END``: end the locked result at the time limit,
    rebuild it and write the audit entry ``action`` (``end``, or ``restore`` of an end).
    ``times_up``: ended by the hall's time's up for every table (:mod:`scoring.hall.times_up`),
    marked ``"times_up": true`` in the entry's ``new``: the organiser who called it did not enter
    this result, so it does not stop them confirming it (:func:`scoring.results.audit.entered_by`)."""
    c = sheet.container
    old = sheet.snapshot()
    c.ended = c.Ended.TIME
    sheet.recompute()
    new = {**sheet.snapshot(), "times_up": True} if times_up else sheet.snapshot()
    sheet.saved(actor, action, sheet.kind.key, c.pk, old=old, new=new, reason=reason)


def resume_play(container: ResultContainer, actor, *, expected_version: int | None = None, reason: str = "") -> ResultContainer:
    """Undo :func:`end_at_time` ("resume play") while the result is not confirmed: it is rebuilt
    from its records without the time limit (``Action.RESUME``). Audit: ``resume``."""
    reason = reason_text(reason)
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        sheet.require(Action.RESUME, actor)
        c = sheet.container
        old = sheet.snapshot()
        c.ended = ""
        sheet.recompute()
        sheet.saved(actor, A.RESUME, sheet.kind.key, c.pk, old=old, new=sheet.snapshot(), reason=reason)
    sync(container, sheet)
    return container
