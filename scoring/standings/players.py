"""Standings of a four-player tournament (docs/tournaments.md "Standings" and "Placement points";
the same counting rule as the Tai Pan standings, :mod:`scoring.standings.counting`: finished
results of published rounds count, with blind confirmation only confirmed ones).

Without placement points (``Tournament.placement`` empty, preset ``none``) players rank by total
points. With them, every counted table gives its players places and placement points
(:mod:`scoring.standings.placement`, computed from the seat totals, never stored), and players
rank by placement points, then total points, then the tournament's player tie-breaks
(:mod:`scoring.standings.player_tiebreaks`). Either way one query, whatever the field size."""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import BooleanField, Count, ExpressionWrapper, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce

from scoring.models import Player, Round, Tournament
from scoring.models.persons import shown_name
from scoring.standings.counting import counted_q
from scoring.standings.placement import Placement, stored, table_points
from scoring.standings.player_tiebreaks import REGISTRY as PLAYER_REGISTRY
from scoring.standings.player_tiebreaks import PlayerTables, TableResult, keys_of


@dataclass
class StandingRow:
    """One line of the four-player standings: ``rank`` (shared on equal totals; ``None`` for a
    player who has not played a table yet), ``player_id``,
    ``name``, ``affiliation``, ``played`` (counted tables), ``total`` (sum of the
    player's table totals), ``substitute`` and ``withdrawn``. With placement points on:
    ``placement_points`` (exact :class:`~fractions.Fraction`, else ``None``) and ``tiebreaks``
    (the tournament's player tie-break values by key, in order, as shown)."""

    rank: int | None
    player_id: int
    name: str
    affiliation: str
    played: int
    total: int
    substitute: bool
    withdrawn: bool
    placement_points: Fraction | None = None
    tiebreaks: dict = field(default_factory=dict)


def seat_filter(tournament: Tournament, through_round: int | None = None) -> Q:
    """The seats (on ``Player``, through ``seats``) whose tables count in the standings."""
    q = counted_q(tournament, "seats__table") & ~Q(seats__table__round__status=Round.Status.DRAFT)
    if through_round is not None:
        q &= Q(seats__table__round__number__lte=through_round)
    return q


def standings(tournament: Tournament, *, through_round: int | None = None) -> list[StandingRow]:
    """Players ranked over their counted tables (finished, with blind confirmation confirmed,
    :func:`scoring.standings.counting.counted_q`; in a published, running or closed round), after
    round ``through_round`` when given: by total points, or with placement points by placement
    points, total points and the tie-breaks (:func:`ranked_with_placement`). Ties share a rank
    and are listed by name. One query, whatever the field size.

    A player who has no counted table yet (``played == 0``) has no total to compare: they are
    listed after everyone who has played, unranked (``rank=None``), so that a 0 never ranks above
    players with negative totals."""
    rule = stored(tournament.placement)
    if rule.enabled:
        return ranked_with_placement(tournament, rule, through_round)
    counted = seat_filter(tournament, through_round)
    qs = (
        Player.objects.filter(tournament=tournament)
        .annotate(
            points=Coalesce(Sum("seats__total", filter=counted), Value(0), output_field=IntegerField()),
            played=Count("seats", filter=counted),
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
                name=shown_name(p.name, p.public_name, tournament.public_names),
                affiliation=p.affiliation,
                played=p.played,
                total=p.points,
                substitute=p.is_substitute,
                withdrawn=p.withdrawn_after_round is not None,
            )
        )
    return rows


PLAYER_COLUMNS = ("pk", "name", "affiliation", "is_substitute", "withdrawn_after_round")
SEAT_COLUMNS = ("seats__table_id", "seats__table__round__number", "seats__table__number", "seats__seat", "seats__total")


def tables_of(tournament: Tournament, rule: Placement, through_round: int | None = None) -> tuple[dict, dict[int, PlayerTables]]:
    """Every player's ``PLAYER_COLUMNS`` values by id (the name as the public sees it) and their counted tables with places and
    placement points (:class:`PlayerTables`), in one query: the players with their seats (a
    player without seats has one row of ``None``s), each seat marked whether its table counts;
    a counted table's four seats are all in the rows (every seated player is the tournament's)."""
    counted = ExpressionWrapper(seat_filter(tournament, through_round), output_field=BooleanField())
    rows = (Player.objects.filter(tournament=tournament).annotate(counted=counted)
            .order_by("pk", "seats__table__round__number").values_list(*PLAYER_COLUMNS, "public_name", *SEAT_COLUMNS, "counted"))
    return tables_from_rows(rows, rule, tournament.public_names)


def tables_from_rows(rows, rule: Placement, public_names: str) -> tuple[dict, dict[int, PlayerTables]]:
    """:func:`tables_of` from its query's rows (``PLAYER_COLUMNS``, ``public_name``,
    ``SEAT_COLUMNS``, counted), of one tournament whose default for public names is
    ``public_names``; pure (also the profiles' bulk ranks, :mod:`scoring.standings.ranks`)."""
    people: dict[int, tuple] = {}
    tables: dict[int, list] = {}
    for pk, name, affiliation, substitute, gone, own, table_id, rnd, number, seat, total, is_counted in rows:
        if pk not in people:  # the name as the public sees it (issue 26)
            people[pk] = (pk, shown_name(name, own, public_names), affiliation, substitute, gone)
        if table_id is not None and is_counted:
            tables.setdefault(table_id, [rnd, number, [None] * 4])[2][seat] = (pk, total or 0)
    out = {pk: PlayerTables(pk) for pk in people}
    for rnd, number, seats in tables.values():
        if any(s is None for s in seats):  # a table not of four (never made by the draw): left out
            continue
        for seat, ((pk, total), result) in enumerate(zip(seats, table_points(rule, [t for _p, t in seats]), strict=True)):
            out[pk].tables.append(TableResult(rnd, number, seat, total, result.place, result.points))
    for player in out.values():
        player.tables.sort()
    return people, out


def ranked_with_placement(tournament: Tournament, rule: Placement, through_round: int | None = None) -> list[StandingRow]:
    """The standings with placement points: placement points, then total points, then the
    tournament's player tie-breaks in order (:func:`scoring.standings.player_tiebreaks.keys_of`);
    players equal on all share a rank (listed by name); unplayed players last, unranked."""
    people, results = tables_of(tournament, rule, through_round)
    return rank_tables(people, results, keys_of(tournament.tiebreaks))


def rank_tables(people: dict, results: dict[int, PlayerTables], keys: list[str]) -> list[StandingRow]:
    """:func:`ranked_with_placement` from :func:`tables_from_rows`' answer and the tie-break
    ``keys``; pure."""
    breaks = [PLAYER_REGISTRY[k]() for k in keys]
    entries = []
    for player in results.values():
        points = sum((t.points for t in player.tables), Fraction(0))
        total = sum(t.total for t in player.tables)
        sort_key = (points, total, *(tb.value(player) for tb in breaks))
        entries.append((player, points, total, sort_key))
    entries.sort(key=lambda e: (not e[0].tables, tuple(-v for v in e[3]), people[e[0].id][1], e[0].id))
    rows: list[StandingRow] = []
    previous, rank = None, 0
    for index, (player, points, total, sort_key) in enumerate(entries, start=1):
        played = len(player.tables)
        if played and sort_key != previous:
            rank, previous = index, sort_key
        pk, name, affiliation, substitute, gone = people[player.id]
        rows.append(StandingRow(
            rank=rank if played else None, player_id=pk, name=name, affiliation=affiliation, played=played,
            total=total, substitute=substitute, withdrawn=gone is not None, placement_points=points,
            tiebreaks={tb.key: tb.shown(player) for tb in breaks},
        ))
    return rows


def player_breakdown(tournament: Tournament, player_id: int) -> dict | None:
    """The numbers behind one player's place with placement points on (the player page):
    ``{"rounds": [{"round", "table", "seat", "total", "place", "points", "running"}],
    "tiebreaks": [{"key", "label", "value", "explanation", "per_round"}]}``, or ``None`` when
    the tournament has no placement points. One query (:func:`tables_of`)."""
    rule = stored(tournament.placement)
    if not rule.enabled:
        return None
    _people, results = tables_of(tournament, rule)
    mine = results.get(player_id, PlayerTables(player_id))
    running, rounds = Fraction(0), []
    for t in mine.tables:
        running += t.points
        rounds.append({"round": t.round, "table": t.table, "seat": t.seat, "total": t.total, "place": t.place,
                       "points": t.points, "running": running})
    breaks = []
    for key in keys_of(tournament.tiebreaks):
        tb = PLAYER_REGISTRY[key]()
        breaks.append({"key": key, "label": tb.label, "value": tb.shown(mine), "explanation": tb.explanation,
                       "per_round": tb.explain(mine)})
    return {"rounds": rounds, "tiebreaks": breaks}
