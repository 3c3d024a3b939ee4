"""Standings kept in the Django cache (Redis in production, in-process memory on the embedded
default) under a key that changes whenever anything the standings show changes, and only then.

The key (:func:`state_key`) is read in one query over the tournament's played (not draft) rounds,
per round: its number, how many results it holds, how many of them count
(:func:`scoring.standings.counting.counted_q`: what the standings are computed from) and how many
need nothing more (:data:`scoring.standings.counting.SETTLED`, confirmed or a bye: the
"provisional" note of the pages), and of the results that count the ``version`` sum, the sum of
their ids and the last change; with the entrants' count and last change (the names shown), the
tournament's blind confirmation setting (which results count) and its tie-break order, placement points and rules. (Before any round is
played a second small query reads the entrants.) Draft rounds are left out: the standings never
count them, so drawing, redrawing or checking a draft reads the standings of the rounds before
from the cache (a pairing computes them once); publishing a draft changes the key. A played
round's status is not in it: published, in progress and closed rounds count alike (the first
hand of a round, which starts it, changes nothing the standings show).

Every write through the result sheet bumps a container's ``version`` and ``updated_at``, and every
entrant edit the entrant's ``updated_at``, so finishing a result, correcting or confirming a
finished one, reopening it, or renaming an entrant gives a new key and a stale table is never
served; with blind confirmation a result counts once it is confirmed, which changes the counted
results and the settled count. A hand saved in a match still being played changes nothing the standings show, so it
leaves the key as it is: the live standings page answers its polls ``304 Not Modified`` while the
matches are played (:mod:`scoring.web.conditional`). The same data gives the same key.

A cache that is down or slow is a miss, never an error: the standings are then computed in the
request (the cache's connection timeouts are short, see ``nskt.settings``).
"""
from __future__ import annotations

import hashlib
import json
from collections.abc import Callable
from typing import TypeVar

from django.db.models import Count, Max, OuterRef, Subquery, Sum

from scoring import caching
from scoring.models import Player, Round, Team, Tournament
from scoring.queries import CompiledQuery
from scoring.standings.counting import SETTLED, counted_q

T = TypeVar("T")

#: Seconds a stored standings table is kept (a new result makes a new key anyway).
TIMEOUT = 6 * 60 * 60


#: The rounds' results (their reverse accessor on ``Round``) of each kind of standings.
RESULTS = {"teams": "matches", "players": "tables"}


def entrant_state(outer: str) -> dict:
    """The entrants' count and last change (teams and players: :data:`ENTRANT_FIELDS`), as
    subqueries on the tournament the outer query's field ``outer`` names."""
    out = {}
    for name, model in (("team", Team), ("player", Player)):
        rows = model.objects.filter(tournament=OuterRef(outer)).order_by().values("tournament")
        out[f"{name}_n"] = Subquery(rows.annotate(x=Count("pk")).values("x")[:1])
        out[f"{name}_t"] = Subquery(rows.annotate(x=Max("updated_at")).values("x")[:1])
    return out


#: The names of :func:`entrant_state`' values, in order.
ENTRANT_FIELDS = ("team_n", "team_t", "player_n", "player_t")


def _state_query(tournament_id: int, kind: str, game: str, blind: bool):
    """The rounds' state rows of :func:`state_key` for a tournament of ``game`` with the given
    blind confirmation setting (which results count)."""
    related = RESULTS[kind]
    counted = counted_q(Tournament(pk=tournament_id, game=game, blind_confirmation=blind), related)
    entrants = entrant_state("tournament")
    return (Round.objects.filter(tournament_id=tournament_id).exclude(status=Round.Status.DRAFT).order_by("number")
            .annotate(total=Count(related), counted=Count(related, filter=counted),
                      settled=Count(related, filter=SETTLED[kind]),
                      v=Sum(f"{related}__version", filter=counted), ids=Sum(f"{related}__pk", filter=counted),
                      t=Max(f"{related}__updated_at", filter=counted), **entrants)
            .values_list("number", "total", "counted", "settled", "v", "ids", "t", *entrants))


#: :func:`_state_query` compiled once per process and shape (polls read it every time).
STATE_QUERY = CompiledQuery(_state_query)


def state_key(tournament: Tournament, kind: str, through_round: int | None = None) -> str:
    """``"standings:<tournament>:<kind>:<all|rN>:<digest>"`` for the current state of what the
    tournament's standings show (one query, its SQL compiled once per process
    (:class:`scoring.queries.CompiledQuery`); draft rounds left out; see the module's docstring)."""
    entrants = ENTRANT_FIELDS
    rows = STATE_QUERY.rows([tournament.pk], (kind, tournament.game, tournament.blind_confirmation))
    if rows:
        people = rows[0][-len(entrants):]
    else:
        people = Tournament.objects.filter(pk=tournament.pk).annotate(**entrant_state("pk")).values_list(*entrants).first()
    rounds = [row[:-len(entrants)] for row in rows]
    # Canonical text of plain values: a just-created tournament holds ``RoundFormat.TARGET`` where
    # a loaded one holds ``"target"``, and a database may return JSON objects with their keys in
    # another order; the same data must give the same key.
    state = json.dumps([rounds, people, tournament.blind_confirmation, tournament.tiebreaks, tournament.placement, tournament.rules,
                        str(tournament.round_format), tournament.hands_per_round], sort_keys=True, default=str)
    digest = hashlib.sha1(state.encode()).hexdigest()[:16]
    scope = "all" if through_round is None else f"r{through_round}"
    return f"standings:{tournament.pk}:{kind}:{scope}:{digest}"


def get_or_compute(key: str, compute: Callable[[], T]) -> T:
    """The value stored under ``key`` (the process's memory, then the shared cache:
    :mod:`scoring.caching`), else ``compute()`` stored under it. A cache that fails to answer is a
    miss (computed, not stored: the store would wait for the same timeout) and a failed store is
    ignored (logged), so the caller always gets the value."""
    value = caching.get(key)
    if value is caching.UNAVAILABLE:
        return compute()
    if value is not caching.MISSING:
        return value
    value = compute()
    caching.set(key, value, TIMEOUT)
    return value
