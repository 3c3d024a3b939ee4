"""Ranks of entries in many tournaments at once (the player profile, issue 26 item 2).

:func:`entry_ranks` gives each tournament's current (or, once it is over, final) rank of every
team or player, exactly as its standings rank them (:mod:`scoring.standings.teams`,
:mod:`scoring.standings.players`: the same pure functions over the same rows), in at most three
queries whatever the number of tournaments: Tai Pan teams, Tai Pan counted matches, four-player
players with their seats.
"""
from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from django.db.models import BooleanField, ExpressionWrapper, Q

from scoring.games.base import EntrantKind
from scoring.models import Match, Player, Round, Team, Tournament
from scoring.standings import players, teams
from scoring.standings.counting import counted_q
from scoring.standings.placement import stored
from scoring.standings.player_tiebreaks import keys_of

#: A rank (``None``: unranked) and the points it stands on.
Ranked = tuple[int | None, int]


def _any_of(filters: Iterable[Q]) -> Q:
    out = Q(pk__in=[])
    for q in filters:
        out |= q
    return out


def _team_ranks(tournaments: list[Tournament]) -> dict[int, dict[int, Ranked]]:
    by_id = {t.pk: t for t in tournaments}
    team_rows: dict[int, list[tuple]] = defaultdict(list)
    for tid, *row in Team.objects.filter(tournament__in=by_id).order_by("name", "pk").values_list("tournament_id", *teams.TEAM_COLUMNS):
        team_rows[tid].append(tuple(row))
    counted = _any_of(Q(round__tournament=t) & counted_q(t) for t in tournaments)
    match_rows: dict[int, list[tuple]] = defaultdict(list)
    for tid, *row in (Match.objects.filter(counted).exclude(round__status=Round.Status.DRAFT)
                      .order_by("round__number", "table").values_list("round__tournament_id", *teams.MATCH_COLUMNS)):
        match_rows[tid].append(tuple(row))
    out = {}
    for tid, t in by_id.items():
        rows = team_rows[tid]
        withdrawn = teams._withdrawn(rows, None)
        ctx = teams.build_context([r[0] for r in rows], match_rows[tid], withdrawn)
        out[tid] = {row.team_id: (row.rank, row.match_points)
                    for row in teams.standings_from(ctx, teams.tiebreak_keys(t), rows, withdrawn)}
    return out


def _by_totals(people: dict, rows: list[tuple]) -> dict[int, Ranked]:
    """Ranks without placement points (:func:`scoring.standings.players.standings`): total points
    over counted seats, equal totals share a rank, players without a counted table unranked."""
    sums = {pk: [0, 0] for pk in people}
    for pk, *_p, table_id, _rnd, _number, _seat, total, is_counted in rows:
        if table_id is not None and is_counted:
            sums[pk][0] += total or 0
            sums[pk][1] += 1
    order = sorted(people, key=lambda pk: (sums[pk][1] == 0, -sums[pk][0], people[pk][1], pk))
    ranks, previous, rank = {}, None, 0
    for index, pk in enumerate(order, start=1):
        points, played = sums[pk]
        if played and points != previous:
            rank, previous = index, points
        ranks[pk] = (rank if played else None, points)
    return ranks


def _player_ranks(tournaments: list[Tournament]) -> dict[int, dict[int, Ranked]]:
    by_id = {t.pk: t for t in tournaments}
    counted = ExpressionWrapper(_any_of(Q(tournament=t) & players.seat_filter(t) for t in tournaments),
                                output_field=BooleanField())
    rows: dict[int, list[tuple]] = defaultdict(list)
    for tid, *row in (Player.objects.filter(tournament__in=by_id).annotate(counted=counted)
                      .order_by("pk", "seats__table__round__number")
                      .values_list("tournament_id", *players.PLAYER_COLUMNS, "public_name", *players.SEAT_COLUMNS, "counted")):
        rows[tid].append(tuple(row))
    out = {}
    for tid, t in by_id.items():
        rule = stored(t.placement)
        people, results = players.tables_from_rows(rows[tid], rule, t.public_names)
        if rule.enabled:
            out[tid] = {row.player_id: (row.rank, row.total) for row in players.rank_tables(people, results, keys_of(t.tiebreaks))}
        else:
            out[tid] = _by_totals(people, rows[tid])
    return out


def entry_ranks(tournaments: Iterable[Tournament]) -> dict[int, dict[int, Ranked]]:
    """``{tournament id: {entrant id: (rank, points)}}`` for every team (Tai Pan) or player
    (four-player games) of ``tournaments``, as their standings rank them now (rank ``None``: not
    ranked yet, a player without a counted table; points: the team's match points, the player's
    total points over counted tables). At most three queries; none for an empty list."""
    groups: dict[EntrantKind, list[Tournament]] = defaultdict(list)
    for t in tournaments:
        groups[t.adapter.entrants].append(t)
    out: dict[int, dict[int, Ranked]] = {}
    if groups[EntrantKind.TEAMS]:
        out.update(_team_ranks(groups[EntrantKind.TEAMS]))
    if groups[EntrantKind.PLAYERS]:
        out.update(_player_ranks(groups[EntrantKind.PLAYERS]))
    return out
