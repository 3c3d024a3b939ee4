"""Verification per hand (deal): the other side acknowledges each record as it is entered, or
disagrees with it (the rules: :mod:`scoring.results.refusals`, ``Action.ACKNOWLEDGE`` and
``Action.DISAGREE``; the overview: :mod:`scoring.results.sheet`; ``docs/results.md``).

An acknowledgement is a recorded fact on the record (``acknowledged_revision``, who, when) and an
audit entry ``acknowledge``; it stands for exactly one revision of the record: an edit or a
restore makes a new revision, which is pending again. Both writes lock the round and the result
(:meth:`ResultSheet.lock`) and check the record's revision the actor saw *inside* the lock
(:class:`~scoring.errors.StaleVersion`), so an acknowledgement never stands for a version its
sender did not see. Neither changes the result's records or totals, so neither raises the
result's ``version`` (the entering side's open entry form stays valid); both touch its
``updated_at``, which the pages' and the API's fingerprints follow.
"""
from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import ServiceError, StaleVersion
from scoring.models import AuditEntry, Dispute, ResultContainer, ResultRecord
from scoring.results import audit
from scoring.results.disputes import NOTE_LENGTH, parse_totals
from scoring.results.refusals import Action
from scoring.results.result import ResultSheet, settle_record_disputes, sync

A = AuditEntry.Action


def _locked_record(container: ResultContainer, number: int, actor, action: Action,
                   revision: int | None) -> tuple[ResultSheet, ResultRecord]:
    sheet = ResultSheet.lock(container)
    sheet.require(action, actor, number=number)
    rec = sheet.record_at(number)
    if revision is None:
        raise ServiceError(_("The version of the record you saw is missing. Reload the page and try again."),
                           field="revision")
    if int(revision) != rec.revision:
        raise StaleVersion(_("{this} was changed in the meantime. Check it again.").format(
            this=capfirst(sheet.kind.this_record)))
    return sheet, rec


def _touch(sheet: ResultSheet, actor, action: str, object_type: str, object_id: int, *, old: Any, new: Any,
           reason: str = "") -> None:
    """The audit entry of an acknowledgement or disagreement; the result's ``updated_at`` moves
    (its ``version`` does not: records and totals are unchanged)."""
    sheet.container.save(update_fields=["updated_at"])
    audit.write_for(sheet.container, actor, action, object_type, object_id, old=old, new=new, reason=reason)


def acknowledge(container: ResultContainer, number: int, actor, *, revision: int | None) -> ResultRecord:
    """The other side (or a referee or organiser on its behalf) acknowledges record ``number`` as
    it saw it: ``revision`` is the record's revision on the actor's page; a different one inside
    the lock refuses (:class:`~scoring.errors.StaleVersion`: the record was edited since, check it
    again). Refused (``Action.ACKNOWLEDGE``): ``PermissionDenied`` (not a side of this table, not a
    member), :class:`~scoring.errors.NotAllowed` (verification per hand off, the side that entered
    the result, already acknowledged, a bye or draft round), :class:`~scoring.errors.Locked`
    (confirmed, closed round). Settles the open disagreements with the record. Audit:
    ``acknowledge`` (object: the record; ``new``: number, revision, the record). Returns the record."""
    with transaction.atomic():
        sheet, rec = _locked_record(container, number, actor, Action.ACKNOWLEDGE, revision)
        rec.acknowledged_revision = rec.revision
        rec.acknowledged_at = timezone.now()
        rec.acknowledged_by = policy.user_of(actor)
        via = policy.via(actor)
        rec.acknowledged_via_link_id, rec.acknowledged_via_entrant = via["via_link_id"], via["via_entrant"]
        rec.save(update_fields=["acknowledged_revision", "acknowledged_at", "acknowledged_by",
                                "acknowledged_via_link", "acknowledged_via_entrant"])
        settled = settle_record_disputes(sheet, rec.pk)
        kind = sheet.kind
        _touch(sheet, actor, A.ACKNOWLEDGE, kind.record_key, rec.pk, old=None,
               new={**kind.record_snapshot(rec), "revision": rec.revision, "settled": settled})
    sync(container, sheet)
    return rec


def disagree(container: ResultContainer, number: int, actor, *, revision: int | None, scores: Any = None,
             note: str = "") -> Dispute:
    """"This hand is wrong": the side that would acknowledge record ``number`` (through its link)
    reports its own scores of it (one per side, in side order, as :func:`parse_totals`; required)
    and an optional note. The record stays pending; a referee sees both versions and settles it by
    correcting the record if needed and acknowledging it on the side's behalf (or the side
    acknowledges after all, e.g. once the entering side corrected it). ``revision``: as
    :func:`acknowledge`. Refused (``Action.DISAGREE``) for referees and organisers, for the
    entering side, for an acknowledged record and while this side's disagreement with it is open.
    Audit: ``dispute`` with both versions. Returns the :class:`~scoring.models.Dispute`."""
    with transaction.atomic():
        sheet, rec = _locked_record(container, number, actor, Action.DISAGREE, revision)
        kind = sheet.kind
        if scores is None:
            raise ServiceError(_("Type the scores of {this} as your side has them.").format(this=kind.this_record),
                               field="totals")
        typed = parse_totals(scores, len(sheet.adapter.sides))
        text = (note or "").strip()[:NOTE_LENGTH]
        stored = list(kind.scores(rec))
        if typed == stored and not text:
            raise ServiceError(_("These are the entered scores. Acknowledge it, or say in the note what is wrong."),
                               field="totals")
        record = Dispute.objects.create(totals=typed, entered_totals=stored, note=text, version=sheet.container.version,
                                        record_id=rec.pk, number=rec.number, record_revision=rec.revision,
                                        **policy.via(actor), **kind.audit_link(sheet.container))
        _touch(sheet, actor, A.DISPUTE, kind.record_key, rec.pk, old=kind.record_snapshot(rec),
               new={"number": rec.number, "revision": rec.revision, "totals": typed, "entered": stored}, reason=text)
    sync(container, sheet)
    return record
