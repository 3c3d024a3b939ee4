"""Time's up for a round (issue 23 item 2, docs/hall.md): one organiser action ends every
unfinished result of the round at the time limit, each by its game's rule (the adapter's
evaluation with ``ended_at_time``; Tai Pan: the higher total wins, equal totals draw; a
four-player table keeps its totals), in one transaction.

The rule:

- **Which results.** Every match or table of the round that is not finished, not confirmed and
  not a bye, also one without a record yet (it ends with what it has: 0 – 0). Finished,
  confirmed results and byes are left alone.
- **One locked step.** The round's row is locked first, then each result's row in table order
  (:meth:`scoring.results.result.ResultSheet.lock`, the order of every writer of a round), and each
  is ended by the single-result end (:func:`scoring.results.lifecycle.end_now`, after the same
  refusals as ``Action.END``) with one ``end`` audit entry per table, reason "Time's up (round N)".
- **A hand saved at that moment** takes the same round lock: it is either saved first (and the
  end counts it in the totals) or refused afterwards with "Time is up for this round: the result
  was ended at the time limit ..." (``Code.TIMES_UP``), never half.
- **Finish the hand in play** (optional): the call can give a grace period in minutes. During it
  entry goes on and the pages say "finish the hand in play"; when it ends the call is applied (a
  Celery task scheduled with a countdown when a worker runs, :func:`scoring.tasks.apply_times_up`),
  and the organiser can always apply it at once. Applying is idempotent: a call applied once
  ends nothing again (a result resumed by a referee afterwards stays resumed).
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed, ServiceError
from scoring.hall import clock
from scoring.kinds import kind_for
from scoring.locking import lock
from scoring.models import AuditEntry, ResultContainer, Round, TimesUp
from scoring.policy import Perm
from scoring.results import presenter
from scoring.results.lifecycle import end_now
from scoring.results.refusals import Action
from scoring.results.result import ResultSheet

#: The longest grace period ("finish the hand in play"), in minutes.
MAX_GRACE_MINUTES = 30
UNFINISHED = (ResultContainer.Status.PENDING, ResultContainer.Status.PLAYING)


@dataclass(frozen=True)
class Pending:
    """A result time's up would end: its table ``number``, ``title`` (the two teams, or a
    four-player table's players by seat), ``status`` and
    ``outcome``: what ending it now would decide, in words (:func:`scoring.results.presenter.end_outcome`)."""

    number: int
    title: str
    status: str
    outcome: str


def unfinished(rnd: Round) -> list[ResultContainer]:
    """The round's results time's up would end (not finished, not confirmed, not a bye), in table
    order."""
    kind = kind_for(rnd.tournament.adapter)
    qs = kind.in_round(rnd).filter(status__in=UNFINISHED)
    bye = kind.bye_q()
    if bye is not None:
        qs = qs.exclude(bye)
    return list(qs)


def preview(rnd: Round) -> list[Pending]:
    """What time's up would end now, for the confirmation step: one :class:`Pending` per table."""
    adapter = rnd.tournament.adapter
    kind = kind_for(adapter)
    out = []
    for c in unfinished(rnd):
        c.round = rnd
        sides = kind.sides(c, adapter)
        # Two sides (Tai Pan): "Team A – Team B"; a four-player table: its players, by seat.
        title = kind.title(c) if len(sides) == 2 else ", ".join(side["name"] for side in sides)
        out.append(Pending(kind.number(c), title, c.get_status_display(), presenter.end_outcome(c)))
    return out


def reason_for(rnd: Round) -> str:
    """The audit reason of every end written by time's up: "Time's up (round 3)"."""
    return _t("Time's up (round {number})").format(number=rnd.number)


def current(rnd: Round) -> TimesUp | None:
    """The round's time's up call, or ``None``."""
    return TimesUp.objects.filter(round=rnd).first()


def call(rnd: Round, actor, *, grace_minutes: int = 0) -> TimesUp:
    """Call time's up for ``rnd`` (organisers, ``Perm.MANAGE``). Without grace it is applied at
    once (:func:`apply`); with ``grace_minutes`` (1 to :data:`MAX_GRACE_MINUTES`) it is applied
    when the grace ends (the caller schedules that). Refused (:class:`~scoring.errors.NotAllowed`)
    for a round that is not published or running, for a bad grace, and while an earlier call
    waits for its grace to end or was applied (a round has one call). Calling also sets the round's
    clock to end at the grace's end (or now, without grace: :func:`scoring.hall.clock.end_at`), so
    every clock shows "Time's up" when the tables are ended. Returns the call (``ended``: the table numbers ended so far)."""
    policy.require(actor, Perm.MANAGE, rnd.tournament)
    grace = int(grace_minutes or 0)
    if not 0 <= grace <= MAX_GRACE_MINUTES:
        raise ServiceError(_("The time to finish the hand in play is 0 to {n} minutes.").format(n=MAX_GRACE_MINUTES),
                         field="grace_minutes")
    now = timezone.now()
    with transaction.atomic():
        locked = lock(Round.objects.select_related("tournament"), rnd.pk)
        _require_open(locked)
        existing = TimesUp.objects.select_for_update().filter(round=locked).first()
        if existing is not None and existing.applied:
            raise NotAllowed(_("Time's up was already called for round {number} and applied at {time}.").format(
                number=locked.number, time=timezone.localtime(existing.applied_at).strftime("%H:%M")))
        if existing is not None:
            raise NotAllowed(_("Time's up was already called for round {number}: apply it now, or wait until "
                               "{time}.").format(number=locked.number,
                                                  time=timezone.localtime(existing.grace_until).strftime("%H:%M")))
        times_up = TimesUp(round=locked, called_at=now, called_by=policy.user_of(actor), grace_minutes=grace,
                           grace_until=now + timedelta(minutes=grace) if grace else None, ended=[])
        times_up.save()
        clock.end_at(locked, actor, times_up.grace_until or now)
        if not grace:
            _apply_locked(locked, times_up, actor)
    return times_up


def apply(rnd: Round, actor) -> list[int]:
    """Apply the round's time's up call now (organisers; also :data:`scoring.policy.SYSTEM` for
    the task at the end of the grace): end every unfinished result at the time limit. Returns the
    table numbers this call ended: ``[]`` when it was applied already (idempotent).
    :class:`~scoring.errors.NotAllowed` when time's up was not called or the round is not open."""
    policy.require(actor, Perm.MANAGE, rnd.tournament)
    with transaction.atomic():
        locked = lock(Round.objects.select_related("tournament"), rnd.pk)
        times_up = TimesUp.objects.select_for_update().filter(round=locked).first()
        if times_up is None:
            raise NotAllowed(_("Time's up was not called for round {number}.").format(number=locked.number))
        if times_up.applied:
            return []
        _require_open(locked)
        return _apply_locked(locked, times_up, actor)


def apply_due(round_id: int) -> list[int]:
    """For the task at the end of the grace: apply the round's call if its grace is over and it
    was not applied yet (as :data:`scoring.policy.SYSTEM`); ``[]`` otherwise (applied already,
    the round closed)."""
    times_up = TimesUp.objects.select_related("round__tournament").filter(round_id=round_id).first()
    if times_up is None or times_up.applied or (times_up.grace_until and times_up.grace_until > timezone.now()):
        return []
    if not times_up.round.is_open:
        return []
    return apply(times_up.round, policy.SYSTEM)


def _require_open(locked: Round) -> None:
    if not locked.is_open:
        raise NotAllowed(_("Time's up is for a published or running round; round {number} is {status}.").format(
            number=locked.number, status=locked.get_status_display()))


def _apply_locked(locked: Round, times_up: TimesUp, actor) -> list[int]:
    """Inside the round's lock: end each unfinished result (locked in table order) with one audit
    entry each, and mark the call applied."""
    kind = kind_for(locked.tournament.adapter)
    reason = reason_for(locked)
    ended = []
    for c in unfinished(locked):
        sheet = ResultSheet.lock(c)
        if sheet.refusal(Action.END, actor) is not None:  # changed since it was read (inside the lock)
            continue
        end_now(sheet, actor, AuditEntry.Action.END, reason, times_up=True)
        ended.append(kind.number(sheet.container))
    times_up.applied_at = timezone.now()
    times_up.ended = ended
    times_up.save(update_fields=["applied_at", "ended"])
    return ended
