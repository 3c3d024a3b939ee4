"""Restoring a version from the audit trail (the rules: :mod:`scoring.results.refusals`; the
overview: :mod:`scoring.results.sheet`). :func:`entry_refusal` answers whether one audit entry can
be restored now, for the page's button and for :func:`restore` alike."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring.models import AuditEntry, ResultContainer
from scoring.results.lifecycle import end_now
from scoring.results.refusals import Action, Refusal, permission_refusal
from scoring.results.result import ResultSheet, reason_text, sync

A = AuditEntry.Action
#: The audit entries whose version can be restored.
RESTORABLE = frozenset({A.CREATE, A.UPDATE, A.DELETE, A.RESTORE, A.END})


def _version(entry: AuditEntry) -> dict | None:
    """The record version an entry restores: the old value of a deletion, the new value otherwise."""
    return entry.old if entry.action == A.DELETE else entry.new


def _inserts(sheet: ResultSheet, entry: AuditEntry, number: int) -> bool:
    """True when restoring ``entry`` puts a record back (a deletion, or a record no longer there)."""
    return entry.action == A.DELETE or all(r.number != number for r in sheet.records)


def entry_refusal(sheet: ResultSheet, entry: AuditEntry, actor) -> Refusal | None:
    """``None`` when ``actor`` may restore the version ``entry`` shows now, else why not, in the
    order :func:`restore` checks: the permission (members who enter results), an entry of this
    result that can be restored, a result that is not confirmed in an open round; an end at the
    time limit only on an unfinished result (``Action.END``); a record version that changes
    something; and a record put back only where a record could be added (``Action.ADD``: not on a
    finished result, resume play first)."""
    refused = permission_refusal(sheet, Action.RESTORE, actor)
    if refused is not None:
        return refused
    if getattr(entry, f"{sheet.kind.key}_id") != sheet.container.pk:
        return Refusal(_("This entry is about another result."))
    if entry.action not in RESTORABLE:
        return Refusal(_("Confirmations and reopenings cannot be restored; confirm or reopen the result instead."))
    refused = sheet.refusal(Action.RESTORE, actor, permission=False)
    if refused is not None or entry.object_type == sheet.kind.key:
        return refused or sheet.refusal(Action.END, actor, permission=False)
    version = _version(entry)
    if not version or "record" not in version:
        return Refusal(_("This entry has no version to restore."))
    number = int(version["number"])
    target = next((r for r in sheet.records if r.number == number), None)
    if entry.action != A.DELETE and target is not None and target.record == version["record"]:
        return Refusal(_("Number {number} already is this version: restoring it would change nothing.").format(number=number))
    if _inserts(sheet, entry, number):
        return sheet.refusal(Action.ADD, actor, permission=False)
    return None


def restore(container: ResultContainer, entry: AuditEntry, actor, *, expected_version: int | None = None, reason: str = "") -> None:
    """Restore the version an audit entry shows.

    - A record entry (``create``/``update``/``restore``): record number N gets that entry's new
      value back (created again if it no longer exists).
    - A record ``delete`` entry: the deleted record is put back at its number (later ones move down).
    - An ``end`` entry (or a restore of one): the result is ended at the time limit again.
    A reason is required. Refused as :func:`entry_refusal` says (``PermissionDenied`` for anyone
    but members who enter results, :class:`~scoring.errors.Locked` on a confirmed or finished
    result, :class:`~scoring.errors.NotAllowed` for confirm/reopen entries, an entry of another
    result and a restore that would change nothing). Rule violations raise
    :class:`~engines.errors.RuleViolation` and nothing changes. Audit: ``restore``."""
    reason = reason_text(reason)
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        refused = entry_refusal(sheet, entry, actor)
        if refused is not None:
            raise refused.exception()
        if entry.object_type == sheet.kind.key:
            end_now(sheet, actor, A.RESTORE, reason)
        else:
            _restore_record(sheet, entry, actor, reason)
    sync(container, sheet)


def _restore_record(sheet: ResultSheet, entry: AuditEntry, actor, reason: str) -> None:
    """Put the record version of ``entry`` back (see :func:`restore`), inside its write."""
    kind = sheet.kind
    version = _version(entry)
    records = sheet.records
    number = int(version["number"])
    insert = _inserts(sheet, entry, number)
    target = None if insert else next(r for r in records if r.number == number)
    if insert:
        number = min(number, len(records) + 1)
    outcome, _stored, evaluation = sheet.candidate(version["record"], number - 1, insert=insert)
    if insert:
        later = [r for r in records if r.number >= number]
        sheet.renumber(later, first=number + 1)
        restored = kind.new_record(sheet.container, number, outcome.record, outcome.scores, actor)
        now = [r for r in records if r.number < number] + [restored] + later
        old = None
    else:
        old = kind.record_snapshot(target)
        kind.set_scores(target, outcome.record, outcome.scores)
        target.entered_by = actor if getattr(actor, "is_authenticated", False) else target.entered_by
        target.revision += 1  # a new version of the record: pending again (verification per hand)
        target.save()
        restored, now = target, records
    sheet.apply(now, evaluation)
    restored.refresh_from_db()
    sheet.saved(actor, A.RESTORE, kind.record_key, restored.pk, old=old, new=kind.record_snapshot(restored), reason=reason)
