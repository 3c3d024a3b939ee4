"""The tournament's state counters: change markers the conditional GETs read in O(1).

Two tables (:mod:`scoring.models.live`), written only here:

- :class:`~scoring.models.LiveState`, one row per tournament: ``tournament_version`` (the
  tournament's own fields, its rounds drawn, published, closed or deleted: every page),
  ``standings_version`` (what the standings show: a result finished, confirmed, reopened or
  corrected, an entrant renamed or withdrawn, the settings), ``hall_version`` (clock,
  announcements, check-in, zones, calls, time's up) and ``entrants_version`` (names, teams,
  check-in and withdrawals), and an ``epoch`` drawn when the row is made;
- :class:`~scoring.models.LiveRound`, one row per round: ``version`` (the round's page: a table's
  state, a finished table's score, the pairing) and ``board`` (every change in the round, a hand
  in a table being played too: the progress board).

:func:`bump` increases counters inside the caller's transaction with ``UPDATE ... SET x = x + 1``
(no read-modify-write: two transactions bumping together both count, the row lock orders them)
and, once the transaction has committed, calls :func:`scoring.live.push.publish` once per
tournament with every topic the transaction bumped and the counters' new values. A row that does
not exist yet is made by the first bump (a new row starts with a new ``epoch``, so the states it
gives never equal one seen before). The counters are never data: deleting the rows loses nothing
but the pages' 304s until the next change.

The writes reach :func:`bump` through the receivers of :mod:`scoring.live.signals` (every model
save or delete a page shows) and, for the queryset writes that send no signal (``update()``,
``bulk_create``, ``bulk_update``), through explicit calls in the services that make them.

The states the pages read (:func:`tournament_row`, :func:`round_row`) are one query by primary
key, whatever the number of teams or tables.
"""
from __future__ import annotations

import logging
from collections.abc import Iterable

from django.db import IntegrityError, connection, transaction
from django.db.models import F

from scoring.live import push
from scoring.models import LiveRound, LiveState, Round

log = logging.getLogger(__name__)

#: The per-tournament topics and their counter on :class:`~scoring.models.LiveState`.
TOURNAMENT, STANDINGS, HALL, ENTRANTS = "tournament", "standings", "hall", "entrants"
COUNTERS = {TOURNAMENT: "tournament_version", STANDINGS: "standings_version", HALL: "hall_version",
            ENTRANTS: "entrants_version"}
#: Every per-tournament topic: a change of the tournament itself.
EVERYTHING = tuple(COUNTERS)


def round_topic(number: int) -> str:
    """``"round:<number>"``: the round's page (its tables and their state)."""
    return f"round:{int(number)}"


def board_topic(number: int) -> str:
    """``"board:<number>"``: anything in the round, a hand in a table being played too."""
    return f"board:{int(number)}"


def result_topic(pk: int) -> str:
    """``"result:<id>"``: one match or table (its own ``version`` is its counter)."""
    return f"result:{int(pk)}"


def _number(topic: str, prefix: str) -> int | None:
    return int(topic[len(prefix):]) if topic.startswith(prefix) else None


def bump(tournament_id: int, *topics: str, make: bool = True) -> None:
    """Mark ``topics`` of tournament ``tournament_id`` changed, in the current transaction: one
    ``UPDATE`` of the tournament's counters (:data:`COUNTERS`) and one per round named
    (``round:<n>`` moves the round's page and board, ``board:<n>`` the board only); ``result:<id>``
    has no counter here (the result's ``version``) and is only published. After the commit the
    transaction's topics are published once (:func:`scoring.live.push.publish`). Never raises for
    a round or tournament that does not exist (nothing to mark). ``make=False`` (a delete, maybe
    of the whole tournament) never makes a missing counters row."""
    wanted = set(topics)
    if not wanted:
        return
    fields = {COUNTERS[t]: F(COUNTERS[t]) + 1 for t in sorted(wanted) if t in COUNTERS}
    if fields and not LiveState.objects.filter(pk=tournament_id).update(**fields) and make:
        _made(LiveState, tournament_id=tournament_id)
        LiveState.objects.filter(pk=tournament_id).update(**fields)
    pages = {n for t in wanted if (n := _number(t, "round:")) is not None}
    boards = {n for t in wanted if (n := _number(t, "board:")) is not None} | pages
    for number in sorted(boards):
        _bump_round(tournament_id, number, page=number in pages, make=make)
    _remember(tournament_id, wanted)


def _bump_round(tournament_id: int, number: int, *, page: bool, make: bool) -> None:
    fields = {"board": F("board") + 1, **({"version": F("version") + 1} if page else {})}
    rows = LiveRound.objects.filter(round__tournament_id=tournament_id, round__number=number)
    if rows.update(**fields) or not make:
        return
    round_id = Round.objects.filter(tournament_id=tournament_id, number=number).values_list("pk", flat=True).first()
    if round_id is not None:
        _made(LiveRound, round_id=round_id)
        LiveRound.objects.filter(pk=round_id).update(**fields)


def _made(model, **key) -> None:
    """Make the counters row ``key`` unless it exists (a concurrent maker wins: its row counts)."""
    try:
        with transaction.atomic():
            model.objects.get_or_create(**key)
    except IntegrityError:  # the tournament or round is gone, or made by another transaction
        log.debug("live counters row %s not made", key)


# --------------------------------------------------------------------------- publishing


def _remember(tournament_id: int, topics: Iterable[str]) -> None:
    """Add ``topics`` to what this transaction publishes, registering the one publish on commit."""
    registered = any(entry[1] is _publish_pending for entry in connection.run_on_commit)
    pending = getattr(connection, "_live_pending", None)
    if pending is None or not registered:
        pending = connection._live_pending = {}
    pending.setdefault(tournament_id, set()).update(topics)
    if not registered:
        transaction.on_commit(_publish_pending)


def _publish_pending() -> None:
    """After a commit: publish each tournament's topics once with the counters' values."""
    pending = getattr(connection, "_live_pending", None) or {}
    connection._live_pending = None
    for tournament_id, topics in pending.items():
        try:
            versions = versions_of(tournament_id, topics)
        except Exception as exc:  # noqa: BLE001 - a push never breaks the write that committed
            log.warning("live counters not read for the push (%s)", exc)
            versions = {}
            # A dropped database connection (a restart, a network cut) is closed here, so that
            # the request's next query opens a new one instead of failing on the dead one.
            connection.close_if_unusable_or_obsolete()
        push.publish(tournament_id, sorted(topics), versions)


def versions_of(tournament_id: int, topics: Iterable[str]) -> dict[str, int]:
    """The counters' current values of ``topics`` (topic -> int; ``result:`` topics left out), in
    at most two queries."""
    topics = set(topics)
    out: dict[str, int] = {}
    names = [t for t in sorted(topics) if t in COUNTERS]
    if names:
        row = LiveState.objects.filter(pk=tournament_id).values_list(*(COUNTERS[t] for t in names)).first()
        out.update(zip(names, row or (), strict=False))
    numbers = {n for t in topics for p in ("round:", "board:") if (n := _number(t, p)) is not None}
    if numbers:
        for number, version, board in LiveRound.objects.filter(round__tournament_id=tournament_id, round__number__in=numbers) \
                .values_list("round__number", "version", "board"):
            out.update({k: v for k, v in ((round_topic(number), version), (board_topic(number), board)) if k in topics})
    return out


# --------------------------------------------------------------------------- reading


#: What :func:`tournament_row` reads, in order.
TOURNAMENT_FIELDS = ("epoch", "tournament_version", "standings_version", "hall_version", "entrants_version")


def tournament_row(tournament_id: int) -> list:
    """The tournament's counters (:data:`TOURNAMENT_FIELDS`; ``None`` each before the first change),
    one query by primary key."""
    row = LiveState.objects.filter(pk=tournament_id).values_list(*TOURNAMENT_FIELDS).first()
    return list(row or (None,) * len(TOURNAMENT_FIELDS))


#: What :func:`round_row` reads, in order: the round, its status and counters, and the
#: tournament's counters.
ROUND_FIELDS = ("pk", "status", "live__version", "live__board", *(f"tournament__live__{f}" for f in TOURNAMENT_FIELDS))


def round_row(tournament_id: int, number: int) -> list | None:
    """Round ``number``'s id, status and counters with the tournament's (:data:`ROUND_FIELDS`),
    one query joining by primary keys; ``None`` for an unknown round."""
    row = Round.objects.filter(tournament_id=tournament_id, number=number).order_by().values_list(*ROUND_FIELDS).first()
    return None if row is None else list(row)
