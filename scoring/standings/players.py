"""Standings of a four-player tournament: players ranked by total points over their finished
tables (docs/tournaments.md; the same rule as the Tai Pan standings, :mod:`scoring.standings.counting`:
finished results of published rounds count, with blind confirmation only confirmed ones)."""
from __future__ import annotations

from dataclasses import dataclass

from django.db.models import Count, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce

from scoring.models import Player, Round, Tournament
from scoring.standings.counting import counted_q


@dataclass
class StandingRow:
    """One line of the four-player standings: ``rank`` (shared on equal totals; ``None`` for a
    player who has not played a table yet), ``player_id``,
    ``name``, ``affiliation``, ``played`` (tables with at least one deal), ``total`` (sum of the
    player's table totals), ``substitute`` and ``withdrawn``."""

    rank: int | None
    player_id: int
    name: str
    affiliation: str
    played: int
    total: int
    substitute: bool
    withdrawn: bool


def standings(tournament: Tournament, *, through_round: int | None = None) -> list[StandingRow]:
    """Players ranked by total points over their counted tables (finished, with blind confirmation
    confirmed, :func:`scoring.standings.counting.counted_q`; in a published, running or closed round; docs/tournaments.md "Standings by total points"), after round
    ``through_round`` when given. Ties share a rank and are listed by name. One query, whatever the
    field size.

    A player who has no counted table yet (``played == 0``) has no total to compare: they are
    listed after everyone who has played, unranked (``rank=None``), so that a 0 never ranks above
    players with negative totals."""
    seat_filter = counted_q(tournament, "seats__table") & ~Q(seats__table__round__status=Round.Status.DRAFT)
    if through_round is not None:
        seat_filter &= Q(seats__table__round__number__lte=through_round)
    qs = (
        Player.objects.filter(tournament=tournament)
        .annotate(
            points=Coalesce(Sum("seats__total", filter=seat_filter), Value(0), output_field=IntegerField()),
            played=Count("seats", filter=seat_filter),
        )
        .order_by("-points", "name", "pk")
    )
    players = sorted(qs, key=lambda p: p.played == 0)  # stable: keeps points/name order within each group
    rows: list[StandingRow] = []
    previous, rank = None, 0
    for index, p in enumerate(players, start=1):
        if p.played and p.points != previous:
            rank, previous = index, p.points
        rows.append(
            StandingRow(
                rank=rank if p.played else None,
                player_id=p.pk,
                name=p.name,
                affiliation=p.affiliation,
                played=p.played,
                total=p.points,
                substitute=p.is_substitute,
                withdrawn=p.withdrawn_after_round is not None,
            )
        )
    return rows

