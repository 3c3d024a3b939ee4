"""Standings: Tai Pan teams by match points and tie-breaks (:mod:`scoring.standings.teams`,
:mod:`scoring.standings.tiebreaks`), four-player players by placement points or total points
(:mod:`scoring.standings.players`, :mod:`scoring.standings.placement`, tie-breaks per kind of
entrant: :func:`tiebreak_registry`); pages read them through :func:`team_standings` and
:func:`player_standings`, which keep them in the cache under a key of the results' state
(:mod:`scoring.standings.cache`)."""
from __future__ import annotations

from scoring.games.base import EntrantKind
from scoring.models import Tournament
from scoring.standings import players, teams
from scoring.standings.cache import get_or_compute, state_key
from scoring.standings.player_tiebreaks import tiebreak_registry

__all__ = ["BY_ENTRANTS", "KEY_KINDS", "player_standings", "standings_for", "standings_key", "team_standings",
           "tiebreak_registry"]


def team_standings(tournament: Tournament, *, through_round: int | None = None, key: str | None = None) -> list[teams.StandingRow]:
    """:func:`scoring.standings.teams.standings`, from the cache when the results are unchanged
    (``key``: the state key when the caller has read it already, :func:`standings_key`)."""
    key = key or state_key(tournament, "teams", through_round)
    return get_or_compute(key, lambda: teams.standings(tournament, through_round=through_round))


def player_standings(tournament: Tournament, *, through_round: int | None = None, key: str | None = None) -> list[players.StandingRow]:
    """:func:`scoring.standings.players.standings`, from the cache when the results are unchanged
    (``key`` as for :func:`team_standings`)."""
    key = key or state_key(tournament, "players", through_round)
    return get_or_compute(key, lambda: players.standings(tournament, through_round=through_round))


#: The standings of each kind of entrant, and the kind's name in the state key.
BY_ENTRANTS = {EntrantKind.TEAMS: team_standings, EntrantKind.PLAYERS: player_standings}
KEY_KINDS = {EntrantKind.TEAMS: "teams", EntrantKind.PLAYERS: "players"}


def standings_key(tournament: Tournament, *, through_round: int | None = None) -> str:
    """The state key the tournament's standings are kept under (:func:`scoring.standings.cache.state_key`):
    it changes whenever the standings could; pages also use it as their ETag's base."""
    return state_key(tournament, KEY_KINDS[tournament.adapter.entrants], through_round)


def standings_for(tournament: Tournament, *, through_round: int | None = None, key: str | None = None) -> list:
    """The tournament's standings rows (teams or players, by its game), from the cache."""
    return BY_ENTRANTS[tournament.adapter.entrants](tournament, through_round=through_round, key=key)
