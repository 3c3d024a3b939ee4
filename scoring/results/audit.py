"""The one audit helper: every change to a result (and every drawn round) is kept with who, when,
why and the old and new values (docs/tournaments.md: "Every change is kept with who, when and why")."""
from __future__ import annotations

from typing import Any

from scoring.models import AuditEntry, ResultContainer
from scoring.results.storage import storage_of

#: Audit actions that change a result's records or its end (the person who did one of these may
#: not confirm the result).
ENTERING_ACTIONS = (
    AuditEntry.Action.CREATE, AuditEntry.Action.UPDATE, AuditEntry.Action.DELETE,
    AuditEntry.Action.RESTORE, AuditEntry.Action.END, AuditEntry.Action.RESUME,
)


def write(tournament_id: int, actor, action: str, object_type: str, object_id: int | None, *,
          old: Any = None, new: Any = None, reason: str = "", **link: Any) -> AuditEntry:
    """Store one audit entry. ``actor``: the user (anonymous or ``None``: no user recorded);
    ``action``: an :class:`~scoring.models.AuditEntry.Action`; ``old``/``new``: JSON values;
    ``link``: ``match=...`` or ``table=...`` for a result."""
    return AuditEntry.objects.create(
        tournament_id=tournament_id,
        user=actor if getattr(actor, "is_authenticated", False) else None,
        action=action,
        object_type=object_type,
        object_id=object_id,
        reason=(reason or "").strip(),
        old=old,
        new=new,
        **link,
    )


def write_for(container: ResultContainer, actor, action: str, object_type: str, object_id: int | None, *,
              old: Any = None, new: Any = None, reason: str = "") -> AuditEntry:
    """:func:`write` for a change to ``container`` (a match or a table) or one of its records."""
    storage = storage_of(container)
    return write(container.round.tournament_id, actor, action, object_type, object_id, old=old, new=new,
                 reason=reason, **storage.audit_link(container))


def entered_by(container: ResultContainer) -> set[int]:
    """Ids of every user who entered, changed, deleted or restored a record of ``container``, or
    ended or resumed it: none of them may confirm it."""
    storage = storage_of(container)
    records = storage.record_model.objects.filter(**{storage.record_fk: container}).exclude(entered_by=None)
    ids = set(records.values_list("entered_by_id", flat=True))
    entries = AuditEntry.objects.filter(action__in=ENTERING_ACTIONS, **storage.audit_link(container)).exclude(user=None)
    return ids | set(entries.values_list("user_id", flat=True))
