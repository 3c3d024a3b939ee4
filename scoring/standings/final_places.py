"""Final places of finished tournaments (issue 26 item 3, docs/players.md "Season ranking"):
derived :class:`~scoring.models.FinalPlace` rows, one per ranked entrant's player, taken from the
standings (:func:`scoring.standings.standings_for`, never recomputed) when a tournament finishes
(:func:`scoring.draw.rounds.finish_tournament`), deleted when it is resumed, and rebuilt from the
entered results by ``manage.py rebuild_final_places``. Season pages read every tournament's places
from them in one query. Tai Pan: both players of a team get the team's place."""
from __future__ import annotations

from collections import Counter

from django.db import transaction

from scoring.games.base import EntrantKind
from scoring.live.state import STANDINGS, bump
from scoring.models import FinalPlace, Team, Tournament
from scoring.standings import standings_for


def current_places(tournament: Tournament) -> list[tuple[int, int, int, int]]:
    """``(player_id, place, tied, field)`` of every ranked entrant's player, from the cached
    standings (:func:`scoring.standings.standings_for`); Tai Pan: both players of each team."""
    rows = [row for row in standings_for(tournament) if row.rank is not None]
    tied = Counter(row.rank for row in rows)
    size = len(rows)
    players = PLAYERS_OF[tournament.adapter.entrants](tournament)
    return [(player, row.rank, tied[row.rank], size) for row in rows for player in players(row)]


def _team_players(tournament: Tournament):
    """A standings row's players, for a Tai Pan tournament: both of the team (one query)."""
    members = {pk: (a, b) for pk, a, b in Team.objects.filter(tournament=tournament)
               .values_list("pk", "first_player_id", "second_player_id")}
    return lambda row: members.get(row.team_id, ())


def _own_player(tournament: Tournament):
    """A standings row's players, for a four-player tournament: the player itself."""
    return lambda row: (row.player_id,)


#: A standings row's players, by the tournament's kind of entrant (:func:`current_places`).
PLAYERS_OF = {EntrantKind.TEAMS: _team_players, EntrantKind.PLAYERS: _own_player}


def record_final_places(tournament: Tournament) -> int:
    """Replace the tournament's :class:`~scoring.models.FinalPlace` rows by its current places
    (:func:`current_places`); returns how many were written."""
    places = current_places(tournament)
    with transaction.atomic():
        FinalPlace.objects.filter(tournament=tournament).delete()
        FinalPlace.objects.bulk_create(FinalPlace(tournament=tournament, player_id=player, place=place, tied=tied, field=size)
                                       for player, place, tied, size in places)
    return len(places)


def clear_final_places(tournament: Tournament) -> None:
    """Drop the tournament's final places (it was resumed: its places are provisional again)."""
    FinalPlace.objects.filter(tournament=tournament).delete()


def rebuild_final_places(tournaments=None) -> int:
    """Rebuild the final places of ``tournaments`` (default: every tournament) from the entered
    results: finished ones recorded, the others cleared; each tournament's standings counter is
    bumped, so the season pages reading it answer anew instead of 304. Returns how many
    tournaments were recorded."""
    done = 0
    for t in tournaments if tournaments is not None else Tournament.objects.all():
        if t.status == Tournament.Status.FINISHED:
            record_final_places(t)
            done += 1
        else:
            clear_final_places(t)
        bump(t.pk, STANDINGS)
    return done
