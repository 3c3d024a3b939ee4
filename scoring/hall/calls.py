"""Calls for a referee (issue 23 item 5, docs/hall.md): a side of a table taps "call a referee" on
its private-link page (or a referee on the entry page, for them); the call is kept (who, when) and
the progress board puts the table first until a referee answers it: by claiming the table
(:func:`scoring.hall.zones.claim`) or by marking the call answered (:func:`answer`). A second tap
while a call is open changes nothing (one open call per table)."""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed
from scoring.kinds import kind_of
from scoring.live import state as live_state
from scoring.locking import lock
from scoring.models import RefereeCall, ResultContainer, Round
from scoring.policy import Perm


def may_call(actor, container: ResultContainer) -> bool:
    """True when ``actor`` may call a referee to ``container``: a side of it through its private
    link (:func:`scoring.policy.is_side_of`) or a member who may enter results."""
    return policy.is_side_of(actor, container) or (
        not policy.is_entrant(actor) and policy.has_perm(actor, Perm.ENTER_RESULTS, container.round.tournament))


def open_call(container: ResultContainer) -> RefereeCall | None:
    """The open call for a referee at ``container``'s table, or ``None``."""
    return RefereeCall.objects.filter(round_id=container.round_id, table=kind_of(container).number(container),
                                      answered_at=None).first()


def call(container: ResultContainer, actor) -> tuple[RefereeCall, bool]:
    """Record a call for a referee at ``container``'s table (a published or running round).
    Returns ``(call, created)``: the open call is returned again when there is one.
    ``PermissionDenied`` unless :func:`may_call`; :class:`NotAllowed` in another round state."""
    if not may_call(actor, container):
        raise PermissionDenied(str(_("Only the players at this table or a referee can call a referee here.")))
    number = kind_of(container).number(container)
    with transaction.atomic():
        locked = lock(Round, container.round_id)
        if not locked.is_open:
            raise NotAllowed(_("A referee can be called during a published or running round."))
        existing = RefereeCall.objects.filter(round=locked, table=number, answered_at=None).first()
        if existing is not None:
            return existing, False
        made = RefereeCall.objects.create(round=locked, table=number, called_by=policy.user_of(actor),
                                          **policy.via(actor))
    return made, True


def answer(rnd: Round, table: int, actor) -> int:
    """Mark the open calls at table ``table`` of ``rnd`` answered by ``actor`` (referees, head
    referees, organisers). Returns how many were open (0: nothing to answer)."""
    policy.require(actor, Perm.ENTER_RESULTS, rnd.tournament)
    if policy.is_entrant(actor):
        raise PermissionDenied
    with transaction.atomic():
        locked = lock(Round, rnd.pk)
        answered = RefereeCall.objects.filter(round=locked, table=int(table), answered_at=None).update(
            answered_at=timezone.now(), answered_by=policy.user_of(actor))
        if answered:
            live_state.bump(locked.tournament_id, live_state.HALL, live_state.board_topic(locked.number))
        return answered
