"""Which results count in the standings: one rule for the Tai Pan and four-player standings, the
team breakdown, the standings' cache key and the pages that say after which round the standings
stand (docs/tournaments.md "Which results count", docs/results.md decisions).

- Without blind confirmation a result counts once it is finished (confirmed or not), in a
  published, running or closed round.
- With blind confirmation (``Tournament.blind_confirmation``) a result counts only once it is
  confirmed, for everyone: the standings are one computation, the same for the public, the
  sides and the members, and the side that is to confirm a result must not read its totals off
  the standings before it re-typed them from the score sheet
  (:func:`scoring.results.sheet.totals_hidden`). A Tai Pan bye needs no confirmation and counts
  at once (a win with 0:0).

Draft rounds never count; the callers leave them out.
"""
from __future__ import annotations

from django.db.models import Q

from scoring.games.base import EntrantKind
from scoring.kinds import kind_for, kind_of
from scoring.models import ResultContainer, Tournament

S = ResultContainer.Status
#: Statuses of a result that counts without blind confirmation.
FINISHED = (S.FINISHED, S.CONFIRMED)


#: A result that needs nothing more (confirmed; a Tai Pan bye needs no confirmation), per kind of
#: entrant, on ``Round`` (its reverse accessor of its results): while a counted round holds
#: another result, the standings are provisional (the pages' note; the standings' cache key).
SETTLED = {
    EntrantKind.TEAMS: Q(matches__status=S.CONFIRMED) | Q(matches__team_ew=None),
    EntrantKind.PLAYERS: Q(tables__status=S.CONFIRMED),
}


def counted_q(tournament: Tournament, path: str = "") -> Q:
    """A filter for the tournament's results that count in its standings, on the result
    containers (matches or tables) or, with ``path`` (``"seats__table"``, ``"matches"``), on the
    rows that reach them through that path."""
    prefix = f"{path}__" if path else ""
    if not tournament.blind_confirmation:
        return Q(**{f"{prefix}status__in": FINISHED})
    counted = Q(**{f"{prefix}status": S.CONFIRMED})
    byes = kind_for(tournament.adapter).bye_q(prefix)  # a bye needs no confirmation
    if byes is not None:
        counted |= Q(**{f"{prefix}status": S.FINISHED}) & byes
    return counted


def counts(container: ResultContainer) -> bool:
    """True when ``container`` (a match or table, its round and tournament loaded) counts in the
    standings by :func:`counted_q`'s rule (its round's status aside)."""
    if container.status == S.CONFIRMED:
        return True
    if container.status != S.FINISHED:
        return False
    tournament = container.round.tournament
    return not tournament.blind_confirmation or kind_of(container).is_bye(container)
