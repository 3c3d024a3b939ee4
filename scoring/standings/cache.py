"""Stored standings (issue 5 item 2): the Tai Pan standings kept in the Django cache (Redis in
production, in-process memory on the embedded default), keyed by a fingerprint of everything they
are computed from, so a stale table is never served.

The key is ``"standings:<tournament id>:<all|r<N>>:<fingerprint>"``. The fingerprint is a SHA-1
(first 16 hex digits) of exactly the data :func:`scoring.standings.teams.standings` reads: the
counted results (finished/confirmed matches of played rounds: teams, totals, match points,
winner), every stored field of the teams and their players, and the tournament's tie-break order;
plus the names of the :class:`~scoring.standings.teams.StandingRow` fields (a changed row shape
never reads old entries). Any change to a result, a team, a player or the tie-breaks gives a new
key; the same data gives the same key (idempotent refreshes).

:func:`cached_standings` is what pages call: it runs the standings' own two queries, and only the
ranking (tie-breaks, Buchholz, head-to-head) is skipped when the key is stored. Hit or miss, the
number of queries is the same two, whatever the number of teams or rounds. The refresh after a
confirmed result is :func:`scoring.tasks.refresh_standings` (triggered by
:mod:`scoring.signals`); it stores the rows under the same key.
"""
from __future__ import annotations

import dataclasses
import hashlib

from django.core.cache import cache

from scoring.models import Tournament
from scoring.standings import teams as standings_service

#: Seconds a stored standings table is kept (a new result makes a new key anyway).
TIMEOUT = 24 * 60 * 60
KIND = "standings"


def key_prefix(tournament_id: int) -> str:
    """``"standings:<tournament id>:"``: the start of every key (cache and TaskState) of one
    tournament's standings."""
    return f"{KIND}:{tournament_id}:"


def _row_shape() -> str:
    return ",".join(f.name for f in dataclasses.fields(standings_service.StandingRow))


def _attnames(model) -> tuple[str, ...]:
    return tuple(f.attname for f in model._meta.concrete_fields)


def fingerprint(tournament: Tournament, teams: list, match_rows: list, through_round: int | None = None) -> str:
    """16 hex digits over the standings' inputs (pure, no queries): ``teams`` are
    :class:`~scoring.models.Team` objects with ``first_player``/``second_player`` loaded,
    ``match_rows`` the counted result tuples as read by the standings service."""
    if not teams:
        team_names = player_names = ()
    else:
        team_names, player_names = _attnames(type(teams[0])), _attnames(type(teams[0].first_player))
    team_data = [
        (
            [team.__dict__.get(n) for n in team_names],
            [team.first_player.__dict__.get(n) for n in player_names],
            [team.second_player.__dict__.get(n) for n in player_names],
        )
        for team in teams
    ]
    head = (_row_shape(), tournament.pk, through_round, standings_service.tiebreak_keys(tournament))
    return hashlib.sha1(repr((head, team_data, match_rows)).encode()).hexdigest()[:16]


def cache_key(tournament: Tournament, fp: str, through_round: int | None = None) -> str:
    """The cache (and TaskState) key of one standings table."""
    scope = "all" if through_round is None else f"r{through_round}"
    return f"{key_prefix(tournament.pk)}{scope}:{fp}"


def load(tournament: Tournament, through_round: int | None = None) -> tuple[str, list, list]:
    """Read the standings' inputs with the standings service's own two queries and return
    ``(key, teams, match_rows)``; the key and the rows come from the same reads."""
    teams = list(standings_service._team_queryset(tournament))
    match_rows = list(standings_service._match_rows(tournament, through_round))
    return cache_key(tournament, fingerprint(tournament, teams, match_rows, through_round), through_round), teams, match_rows


def compute(tournament: Tournament, teams: list, match_rows: list) -> list:
    """The ranked :class:`~scoring.standings.teams.StandingRow` list from loaded inputs, exactly
    as :func:`scoring.standings.teams.standings` computes it (no queries)."""
    withdrawn = {t.pk: t.withdrawn_after_round is not None for t in teams}
    ctx = standings_service.build_context([t.pk for t in teams], match_rows, withdrawn)
    return standings_service.standings_from(ctx, standings_service.tiebreak_keys(tournament), teams, withdrawn)


def current_key(tournament: Tournament, through_round: int | None = None) -> str:
    """The key the standings of ``tournament`` have now (two queries)."""
    return load(tournament, through_round)[0]


def stored(key: str):
    """The rows stored under ``key`` or ``None``."""
    return cache.get(key)


def cached_standings(tournament: Tournament, *, through_round: int | None = None) -> list:
    """The standings of a Tai Pan tournament (same rows as
    :func:`scoring.standings.teams.standings`), from the cache when stored for the current
    data, otherwise computed here and stored (the next reader gets them from the cache). Always
    exactly two queries. A cache that is down is treated as a miss, never as an error."""
    return cached_standings_and_key(tournament, through_round=through_round)[1]


def cached_standings_and_key(tournament: Tournament, *, through_round: int | None = None) -> tuple[str, list]:
    """``(key, rows)``: :func:`cached_standings` plus the key of the data they were computed
    from, which pages use to cache their rendered table (two queries)."""
    key, teams, match_rows = load(tournament, through_round)
    try:
        rows = cache.get(key)
    except Exception:  # noqa: BLE001 - a broken cache must not break the standings page
        rows = None
    if rows is not None:
        return key, rows
    rows = compute(tournament, teams, match_rows)
    try:
        cache.set(key, rows, TIMEOUT)
    except Exception:  # noqa: BLE001
        pass
    return key, rows
