"""The one audit helper: every change to a result (and every drawn round) is kept with who, when,
why and the old and new values (docs/tournaments.md: "Every change is kept with who, when and why")."""
from __future__ import annotations

from typing import Any

from django.db.models.fields.json import KT

from scoring import policy
from scoring.kinds import kind_of
from scoring.models import AuditEntry, ResultContainer

#: Audit actions that change a result's records or its end (the person who did one of these may
#: not confirm the result).
ENTERING_ACTIONS = (
    AuditEntry.Action.CREATE, AuditEntry.Action.UPDATE, AuditEntry.Action.DELETE,
    AuditEntry.Action.RESTORE, AuditEntry.Action.END, AuditEntry.Action.RESUME,
)


def write(tournament_id: int, actor, action: str, object_type: str, object_id: int | None, *,
          old: Any = None, new: Any = None, reason: str = "", **link: Any) -> AuditEntry:
    """Store one audit entry. ``actor``: the user (anonymous or ``None``: no user recorded), or an
    entrant through its private link (recorded as ``via_link``/``via_entrant``, never as a user);
    ``action``: an :class:`~scoring.models.AuditEntry.Action`; ``old``/``new``: JSON values;
    ``link``: ``match=...`` or ``table=...`` for a result."""
    return AuditEntry.objects.create(
        tournament_id=tournament_id,
        user=policy.user_of(actor),
        **policy.via(actor),
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
    kind = kind_of(container)
    return write(container.round.tournament_id, actor, action, object_type, object_id, old=old, new=new,
                 reason=reason, **kind.audit_link(container))


def entered_by(container: ResultContainer) -> set[int]:
    """Ids of every user who entered, changed, deleted or restored a record of ``container``, or
    ended or resumed it: none of them may confirm it. Ending it through the hall's time's up
    (every table at once) does not count."""
    kind = kind_of(container)
    records = kind.record_model.objects.filter(**{kind.record_fk: container}).exclude(entered_by=None)
    ids = set(records.values_list("entered_by_id", flat=True))
    entries = AuditEntry.objects.filter(action__in=ENTERING_ACTIONS, **kind.audit_link(container)).exclude(user=None)
    # Time's up ends every table at once: calling it is not entering this result (read in Python:
    # excluding on a JSON key in SQL would also drop the entries without it, as NULL).
    rows = entries.annotate(times_up=KT("new__times_up")).values_list("user_id", "action", "times_up")
    return ids | {user_id for user_id, action, by_times_up in rows
                  if not (action == AuditEntry.Action.END and by_times_up in ("true", "1", True, 1))}


def entrants_who_entered(container: ResultContainer) -> list[int]:
    """Ids of the private links through which records of ``container`` were entered, changed or
    deleted, or it was ended or resumed, in the order they first did so (the first is the
    *entering side*, ``Action.ENTER`` in :mod:`scoring.results.refusals`)."""
    kind = kind_of(container)
    rows = (AuditEntry.objects.filter(action__in=ENTERING_ACTIONS, **kind.audit_link(container))
            .exclude(via_link=None).order_by("created_at", "pk").values_list("via_link_id", flat=True))
    out: list[int] = []
    for link_id in rows:
        if link_id not in out:
            out.append(link_id)
    return out


def has_changed(container: ResultContainer, actor) -> bool:
    """True when ``actor`` (a user or an entrant) entered, changed, deleted or restored a record of
    ``container``, or ended or resumed it: such an actor may not confirm it."""
    who = policy.identity(actor)
    if who is None:
        return False
    if who[0] == "link":
        return who[1] in entrants_who_entered(container)
    return who[1] in entered_by(container)
