"""The round clock (docs/hall.md, "Round clock"): start, pause, resume and extend, organisers only.

The server's clock is the truth: a running clock stores when time is up (``ends_at``), a paused
or not yet started one the time left (``remaining``); every phone and the projector compute the
remaining time from the server's answer (:func:`state`), corrected for their own clock's offset
(``static/js/clock.js``).

Every action takes the clock's row lock inside ``transaction.atomic()`` and checks, inside the
lock, the ``version`` the organiser's page (or API call) saw: two organisers pressing "+5 min" at
the same moment give one extension and one refusal ("changed by someone else"), never ten
minutes nobody saw. Refusals are :class:`~scoring.errors.NotAllowed` or
:class:`~scoring.errors.StaleVersion` with a clear message.

**Extending** takes whole minutes, positive or negative (shortening), at most
:data:`MAX_EXTEND_MINUTES` either way. The clock never goes below zero: shortening by more than is
left leaves zero (time is up now). A clock whose time is up can be extended again (it runs on from
the new remaining time).
"""
from __future__ import annotations

from datetime import datetime, timedelta

from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed, ServiceError, StaleVersion
from scoring.locking import lock, parse_version
from scoring.models import Round, RoundClock
from scoring.policy import Perm

#: The largest extension (or shortening) in one action, in minutes.
MAX_EXTEND_MINUTES = 600

Status = RoundClock.Status


def current_round(tournament) -> Round | None:
    """The tournament's current round: the latest round that is published or in progress
    (``None`` when there is none: nothing drawn yet, a draft, or every round closed). One query;
    its clock (if any) and ``tournament`` come with it."""
    rnd = (Round.objects.filter(tournament=tournament, status__in=(Round.Status.PUBLISHED, Round.Status.IN_PROGRESS))
           .select_related("clock").order_by("-number").first())
    if rnd is not None:
        rnd.tournament = tournament
    return rnd


def unsaved_clock(rnd: Round) -> RoundClock:
    """The clock a round has before anyone touched it (not stored): idle, the tournament's round
    length, version 0."""
    tournament = rnd.tournament
    return RoundClock(round=rnd, status=Status.IDLE, remaining=timedelta(minutes=tournament.round_minutes),
                      warning=timedelta(minutes=tournament.clock_warning_minutes), version=0)


def clock_of(rnd: Round) -> RoundClock:
    """The round's clock (stored, or :func:`unsaved_clock` when no action was taken yet)."""
    try:
        return rnd.clock
    except RoundClock.DoesNotExist:
        return unsaved_clock(rnd)


def state(clock: RoundClock, now: datetime | None = None) -> dict:
    """What a page or a phone needs to show ``clock`` at ``now`` (the server's time): ``status``
    (``idle``/``running``/``paused``), ``remaining`` (seconds, float, >= 0), ``ends_at`` (ISO 8601,
    running only), ``server_time`` (ISO 8601) and ``server_ms`` (milliseconds since the epoch, for
    the phone's clock offset), ``warning`` (seconds before the end the warning shows),
    ``warning_on`` and ``times_up`` (at ``now``), ``round`` (its number) and ``version``."""
    now = now or timezone.now()
    remaining = clock.remaining_at(now).total_seconds()
    warning = clock.warning.total_seconds()
    started = clock.status != Status.IDLE
    return {
        "round": clock.round.number,
        "status": clock.status,
        "remaining": round(remaining, 3),
        "ends_at": clock.ends_at.isoformat() if clock.status == Status.RUNNING and clock.ends_at else None,
        "server_time": now.isoformat(),
        "server_ms": int(now.timestamp() * 1000),
        "warning": warning,
        "warning_on": started and 0 < remaining <= warning,
        "times_up": started and remaining <= 0,
        "version": clock.version,
    }


def _locked_clock(rnd: Round, actor, expected_version) -> RoundClock:
    """The round's clock under its row lock (made, idle, when missing: under the round's lock, so
    two first actions make one clock), after the policy and version checks."""
    policy.require(actor, Perm.MANAGE, rnd.tournament)
    clock = RoundClock.objects.select_for_update(of=("self",)).select_related("round__tournament").filter(round_id=rnd.pk).first()
    if clock is None:
        lock(Round, rnd.pk)
        clock, _made = RoundClock.objects.get_or_create(
            round_id=rnd.pk, defaults={"remaining": unsaved_clock(rnd).remaining, "warning": unsaved_clock(rnd).warning})
        clock = lock(RoundClock.objects.select_related("round__tournament"), clock.pk)
    if parse_version(expected_version) != clock.version:
        raise StaleVersion(_("The clock was changed by someone else in the meantime (it now shows {state}). "
                             "Look at it again and try once more.").format(state=describe(clock)))
    if clock.round.status not in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS):
        raise NotAllowed(_("The clock only runs while round {number} is published or in progress; it is {status}.").format(
            number=clock.round.number, status=clock.round.get_status_display()))
    return clock


def describe(clock: RoundClock, now: datetime | None = None) -> str:
    """The clock in words: "running, 12:30 left", "paused, 5:00 left", "not started"."""
    left = int(clock.remaining_at(now or timezone.now()).total_seconds())
    text = f"{left // 60}:{left % 60:02d}"
    if clock.status == Status.RUNNING:
        return str(_("running, {time} left").format(time=text))
    if clock.status == Status.PAUSED:
        return str(_("paused, {time} left").format(time=text))
    return str(_("not started, {time}").format(time=text))


def _save(clock: RoundClock, actor) -> RoundClock:
    clock.version += 1
    clock.updated_by = policy.user_of(actor)
    clock.save()
    return clock


def _act(rnd: Round, actor, version, change) -> RoundClock:
    with transaction.atomic():
        clock = _locked_clock(rnd, actor, version)
        change(clock, timezone.now())
        return _save(clock, actor)


def start(rnd: Round, actor, *, version) -> RoundClock:
    """Start the round's clock (not started -> running, ``ends_at = now + remaining``).

    Raises ``PermissionDenied`` (not an organiser), :class:`StaleVersion` (``version`` is not the
    clock's), :class:`NotAllowed` (already started, or the round is a draft or closed)."""

    def change(clock, now):
        if clock.status != Status.IDLE:
            raise NotAllowed(_("The clock has been started already ({state}).").format(state=describe(clock, now)))
        clock.status, clock.ends_at = Status.RUNNING, now + clock.remaining

    return _act(rnd, actor, version, change)


def pause(rnd: Round, actor, *, version) -> RoundClock:
    """Pause a running clock: ``remaining`` keeps the time left. Refusals as :func:`start`
    (:class:`NotAllowed` when it is not running)."""

    def change(clock, now):
        if clock.status != Status.RUNNING:
            raise NotAllowed(_("Only a running clock can be paused; it is {state}.").format(state=describe(clock, now)))
        clock.remaining, clock.status, clock.ends_at = clock.remaining_at(now), Status.PAUSED, None

    return _act(rnd, actor, version, change)


def resume(rnd: Round, actor, *, version) -> RoundClock:
    """Run a paused clock on from its ``remaining`` time. Refusals as :func:`start`
    (:class:`NotAllowed` when it is not paused)."""

    def change(clock, now):
        if clock.status != Status.PAUSED:
            raise NotAllowed(_("Only a paused clock can be resumed; it is {state}.").format(state=describe(clock, now)))
        clock.status, clock.ends_at = Status.RUNNING, now + clock.remaining

    return _act(rnd, actor, version, change)


def parse_minutes(raw) -> int:
    """``raw`` (a form's or a request's value) as whole minutes, non-zero, at most
    :data:`MAX_EXTEND_MINUTES` either way; :class:`~scoring.errors.ServiceError` (invalid input,
    field ``minutes``; the API's 400) otherwise."""
    try:
        minutes = int(str(raw).strip())
    except (TypeError, ValueError):
        minutes = 0
    if minutes == 0 or abs(minutes) > MAX_EXTEND_MINUTES:
        raise ServiceError(_("Give a whole number of minutes between -{limit} and {limit}, not 0.").format(
            limit=MAX_EXTEND_MINUTES), field="minutes")
    return minutes


def extend(rnd: Round, actor, *, minutes, version) -> RoundClock:
    """Add ``minutes`` (negative: take off) to the clock's time, in any state: a running clock's
    end moves, a paused or idle one's remaining time changes. Never below zero (see the module's
    docstring). Refusals as :func:`start`, and :class:`ServiceError` for a bad ``minutes``
    (:func:`parse_minutes`)."""
    delta = timedelta(minutes=parse_minutes(minutes))

    def change(clock, now):
        left = max(clock.remaining_at(now) + delta, timedelta(0))
        if clock.status == Status.RUNNING:
            clock.ends_at = now + left
        else:
            clock.remaining = left

    return _act(rnd, actor, version, change)


def end_at(rnd: Round, actor, when: datetime) -> RoundClock:
    """Set the round's clock to end at ``when`` (time's up, :func:`scoring.hall.times_up.call`:
    the grace period's end, or now without one): running, ``ends_at = when`` (never before now),
    so every clock shows the time left of the grace, then "Time's up". Takes the clock's row lock
    (made when missing) without a version check (the caller's action is the organiser's) and bumps
    the version, so a page's clock button showing the old state is refused as stale. Raises
    ``PermissionDenied`` (not an organiser) and :class:`NotAllowed` (the round is not open)."""
    with transaction.atomic():
        clock = RoundClock.objects.select_for_update(of=("self",)).filter(round_id=rnd.pk).first()
        clock = _locked_clock(rnd, actor, clock.version if clock is not None else 0)
        now = timezone.now()
        clock.status, clock.ends_at = Status.RUNNING, max(when, now)
        clock.remaining = clock.ends_at - now
        return _save(clock, actor)


#: The clock's actions by name (the pages' and the API's ``action``).
ACTIONS = {"start": start, "pause": pause, "resume": resume}
