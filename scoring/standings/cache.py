"""Standings kept in the Django cache (Redis in production, in-process memory on the embedded
default) under a key that changes whenever anything they are computed from changes.

The key is read with one cheap aggregate query per kind of row the standings read: the result
containers of the tournament's played (not draft) rounds (count, confirmed count, ``version`` sum
and last change),
its entrants (count and last change), its played rounds and the tournament's tie-break order.
Draft rounds are left out: the standings never count them, so drawing, redrawing or checking a
draft reads the standings of the rounds before from the cache (a pairing computes them once);
publishing a draft changes the key. Every write through the result sheet bumps
a container's ``version`` and ``updated_at``; every entrant edit bumps the entrant's
``updated_at``; so a new result, correction, confirmation or rename gives a new key and a stale
table is never served. Which results count depends on the tournament's blind confirmation
(:mod:`scoring.standings.counting`): the setting and the number of confirmed results are in the
key as well, so a confirmation (which with blind confirmation is what makes a result count) or
turning the setting on or off gives a new key even on its own. The same data gives the same key.

A cache that is down or slow is a miss, never an error: the standings are then computed in the
request (the cache's connection timeouts are short, see ``nskt.settings``).
"""
from __future__ import annotations

import hashlib
import json
import logging
from collections.abc import Callable
from typing import TypeVar

from django.core.cache import cache
from django.db.models import Count, Max, Q, Sum

from scoring.models import Match, Player, ResultContainer, Round, Table, Team, Tournament

log = logging.getLogger(__name__)
T = TypeVar("T")

#: Seconds a stored standings table is kept (a new result makes a new key anyway).
TIMEOUT = 6 * 60 * 60


def state_key(tournament: Tournament, kind: str, through_round: int | None = None) -> str:
    """``"standings:<tournament>:<kind>:<all|rN>:<digest>"`` for the current state of the
    tournament's results and entrants (five small aggregate queries: matches, tables, teams,
    players, rounds; draft rounds left out)."""
    results = []
    for model in (Match, Table):
        results.append(tuple(model.objects.filter(round__tournament=tournament).exclude(round__status=Round.Status.DRAFT)
                             .aggregate(n=Count("pk"), c=Count("pk", filter=Q(status=ResultContainer.Status.CONFIRMED)),
                                        v=Sum("version"), t=Max("updated_at")).values()))
    entrants = []
    for model in (Team, Player):
        entrants.append(tuple(model.objects.filter(tournament=tournament).aggregate(n=Count("pk"), t=Max("updated_at")).values()))
    rounds = list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number").values_list("number", "status"))
    # Canonical text of plain values: a just-created tournament holds ``RoundFormat.TARGET`` where
    # a loaded one holds ``"target"``, and a database may return JSON objects with their keys in
    # another order; the same data must give the same key.
    state = json.dumps([results, entrants, rounds, tournament.blind_confirmation, tournament.tiebreaks, tournament.rules,
                        str(tournament.round_format), tournament.hands_per_round], sort_keys=True, default=str)
    digest = hashlib.sha1(state.encode()).hexdigest()[:16]
    scope = "all" if through_round is None else f"r{through_round}"
    return f"standings:{tournament.pk}:{kind}:{scope}:{digest}"


_MISSING = object()


def get_or_compute(key: str, compute: Callable[[], T]) -> T:
    """The value stored under ``key``, else ``compute()`` stored under it. A cache that fails to
    answer is a miss and a failed store is ignored (logged), so the caller always gets the value."""
    try:
        value = cache.get(key, _MISSING)
    except Exception as exc:  # noqa: BLE001 - a broken cache must never break a page
        log.warning("standings cache unavailable (%s): computing in the request", exc)
        return compute()
    if value is not _MISSING:
        return value
    value = compute()
    try:
        cache.set(key, value, TIMEOUT)
    except Exception as exc:  # noqa: BLE001
        log.warning("standings not stored in the cache (%s)", exc)
    return value
