"""Restoring a version from the audit trail (the rules: :mod:`scoring.results.refusals`; the
overview: :mod:`scoring.results.sheet`)."""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring.errors import NotAllowed
from scoring.models import AuditEntry, ResultContainer
from scoring.results.lifecycle import end_now
from scoring.results.refusals import Action
from scoring.results.result import ResultSheet, reason_text, sync

A = AuditEntry.Action
#: The audit entries whose version can be restored.
RESTORABLE = frozenset({A.CREATE, A.UPDATE, A.DELETE, A.RESTORE, A.END})


def restore(container: ResultContainer, entry: AuditEntry, actor, *, expected_version: int | None = None, reason: str = "") -> None:
    """Restore the version an audit entry shows.

    - A record entry (``create``/``update``/``restore``): record number N gets that entry's new
      value back (created again if it no longer exists).
    - A record ``delete`` entry: the deleted record is put back at its number (later ones move down).
    - An ``end`` entry (or a restore of one): the result is ended at the time limit again.
    A reason is required. Refused (``Action.RESTORE``) for anyone but members who may enter
    results (``PermissionDenied``) and on a confirmed result (:class:`~scoring.errors.Locked`);
    for confirm/reopen entries, an entry of another result and a restore that would change
    nothing (:class:`~scoring.errors.NotAllowed`). Rule violations raise
    :class:`~engines.errors.RuleViolation` and nothing changes. Audit: ``restore``."""
    reason = reason_text(reason)
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        sheet.require_permission(Action.RESTORE, actor)
        kind = sheet.kind
        if getattr(entry, f"{kind.key}_id") != sheet.container.pk:
            raise NotAllowed(_("This entry is about another result."))
        if entry.action not in RESTORABLE:
            raise NotAllowed(_("Confirmations and reopenings cannot be restored; confirm or reopen the result instead."))
        sheet.require(Action.RESTORE, actor, permission=False)
        if entry.object_type == kind.key:
            sheet.require(Action.END, actor, permission=False)
            end_now(sheet, actor, A.RESTORE, reason)
        else:
            _restore_record(sheet, entry, actor, reason)
    sync(container, sheet)


def _restore_record(sheet: ResultSheet, entry: AuditEntry, actor, reason: str) -> None:
    """Put the record version of ``entry`` back (see :func:`restore`), inside its write."""
    kind = sheet.kind
    version = entry.old if entry.action == A.DELETE else entry.new
    if not version or "record" not in version:
        raise NotAllowed(_("This entry has no version to restore."))
    records = sheet.records
    number = int(version["number"])
    target = next((r for r in records if r.number == number), None)
    if entry.action != A.DELETE and target is not None and target.record == version["record"]:
        raise NotAllowed(_("Number {number} already is this version: restoring it would change nothing.").format(number=number))
    insert = entry.action == A.DELETE or target is None
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
        target.save()
        restored, now = target, records
    sheet.apply(now, evaluation)
    restored.refresh_from_db()
    sheet.saved(actor, A.RESTORE, kind.record_key, restored.pk, old=old, new=kind.record_snapshot(restored), reason=reason)
