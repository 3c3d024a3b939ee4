"""Tai Pan standings (docs/tournaments.md Ranking, issue 2 item 7, issue 4 item 5).

:func:`standings` loads the tournament's teams and finished results in a FIXED number of queries
(two, whatever the number of teams or rounds), builds plain :class:`scoring.standings.tiebreaks.Context`
data and ranks with :func:`scoring.standings.tiebreaks.rank_teams`: match points, then the tournament's
ordered tie-breaks (default NSKT: point difference, Buchholz, points scored, head-to-head).
Teams equal on everything share a rank.

Which results count: matches of published/running/closed rounds (draft rounds are not played)
that are finished, or with blind confirmation confirmed (:mod:`scoring.standings.counting`); a bye
counts as a win with 0:0.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import IntegerField, OuterRef, Q, Subquery, Sum, Value
from django.db.models.functions import Coalesce

from scoring.models import Match, Round, Team, Tournament
from scoring.models.persons import shown_name
from scoring.standings.counting import counted_q
from scoring.standings.tiebreaks import (
    DRAW,
    LOSS,
    REGISTRY,
    WIN,
    Context,
    Game,
    TeamResults,
    rank_teams,
    resolve,
)


@dataclass
class StandingRow:
    """One line of the standings (also the REST API's, docs/api.md). ``rank`` is shared on ties; ``players``:
    ``"Anna & Bart"``; ``played`` includes byes and equals ``won + drawn + lost`` (a bye is a
    win); ``tiebreaks``: the tournament's tie-break values by key, in order."""

    rank: int
    team_id: int
    name: str
    players: str
    affiliation: str
    played: int
    won: int
    drawn: int
    lost: int
    byes: int
    match_points: int
    point_difference: int
    points_scored: int
    buchholz: int
    tiebreaks: dict = field(default_factory=dict)
    withdrawn: bool = False


#: The team columns the standings show (one query, value lists: no model objects).
TEAM_COLUMNS = ("pk", "name", "affiliation", "first_player__name", "second_player__name", "withdrawn_after_round")
#: What the query reads besides: the players' and the tournament's public-name settings (issue 26).
NAME_SETTINGS = ("first_player__public_name", "second_player__public_name", "tournament__public_names")


def _shown(row: tuple) -> tuple:
    """A :data:`TEAM_COLUMNS` + :data:`NAME_SETTINGS` value row -> the :data:`TEAM_COLUMNS` row with
    the players' names as the public sees them (:func:`scoring.models.persons.shown_name`)."""
    pk, name, affiliation, first, second, gone, own1, own2, default = row
    return pk, name, affiliation, shown_name(first, own1, default), shown_name(second, own2, default), gone
MATCH_COLUMNS = ("round__number", "team_ns_id", "team_ew_id", "total_ns", "total_ew", "points_ns", "points_ew", "winner_id")


def _team_rows(tournament: Tournament, pks=None) -> list[tuple]:
    """``(pk, name, affiliation, first player, second player, withdrawn_after_round)`` per team
    (``pks``: only those), by name."""
    qs = Team.objects.filter(tournament=tournament)
    if pks is not None:
        qs = qs.filter(pk__in=pks)
    return [_shown(row) for row in qs.order_by("name", "pk").values_list(*TEAM_COLUMNS, *NAME_SETTINGS)]


def _counted(tournament: Tournament, through_round: int | None = None):
    """The tournament's counted matches (:func:`scoring.standings.counting.counted_q`, not in a
    draft round)."""
    qs = Match.objects.filter(counted_q(tournament), round__tournament=tournament).exclude(round__status=Round.Status.DRAFT)
    if through_round is not None:
        qs = qs.filter(round__number__lte=through_round)
    return qs


def _match_rows(tournament: Tournament, through_round: int | None):
    return _counted(tournament, through_round).order_by("round__number", "table").values_list(*MATCH_COLUMNS)


def build_context(team_ids, match_rows, withdrawn: dict | None = None, *, points: dict | None = None) -> Context:
    """Plain :class:`Context` from ``match_rows`` (tuples ``(round, ns, ew, total_ns, total_ew,
    points_ns, points_ew, winner_id)``; ``ew`` ``None`` = bye). Pure; used by :func:`standings`
    and tests. ``points``: every team's match points when ``team_ids`` are only some of them."""
    withdrawn = withdrawn or {}
    teams = {tid: TeamResults(tid, [], bool(withdrawn.get(tid))) for tid in team_ids}
    new = tuple.__new__  # a Game without the named tuple's Python-level constructor (thousands per call)
    for rnd, ns, ew, tns, tew, pns, pew, winner in match_rows:
        if ew is None:
            if ns in teams:
                teams[ns].games.append(new(Game, (rnd, None, 0, 0, pns, WIN)))
            continue
        draw = winner is None
        if ns in teams:
            teams[ns].games.append(new(Game, (rnd, ew, tns, tew, pns, DRAW if draw else WIN if winner == ns else LOSS)))
        if ew in teams:
            teams[ew].games.append(new(Game, (rnd, ns, tew, tns, pew, DRAW if draw else WIN if winner == ew else LOSS)))
    return Context(teams, points)


def tiebreak_keys(tournament: Tournament) -> list[str]:
    """The tournament's ordered tie-break keys (default NSKT), unknown keys dropped."""
    keys = [k for k in (tournament.tiebreaks or []) if k in REGISTRY]
    return keys or [tb.key for tb in resolve(None)]


def _withdrawn(team_rows: list[tuple], through_round: int | None) -> dict[int, bool]:
    return {pk: gone is not None and (through_round is None or gone < through_round) for pk, *_rest, gone in team_rows}


def standings(tournament: Tournament, *, through_round: int | None = None) -> list[StandingRow]:
    """The ranked standings of a Tai Pan tournament, after ``through_round`` (default: every
    played round). Exactly two queries (teams with their players' names; counted matches, both as
    value lists), whatever the number of teams and rounds. Returns :class:`StandingRow` best
    first; shared ranks on ties (ordered by name within a shared rank)."""
    teams = _team_rows(tournament)
    rows = _match_rows(tournament, through_round)
    withdrawn = _withdrawn(teams, through_round)
    ctx = build_context([t[0] for t in teams], rows, withdrawn)
    return standings_from(ctx, tiebreak_keys(tournament), teams, withdrawn)


def team_breakdown(tournament: Tournament, team: Team) -> dict:
    """The numbers behind each tie-break for one team (issue 4 item 5):

    ``{"row": StandingRow, "rounds": [{"round", "opponent", "opponent_id", "bye", "scored",
    "conceded", "difference", "match_points", "outcome", "opponent_match_points"}],
    "tiebreaks": [{"key", "label", "value", "byes_and_withdrawals", "per_round": [{"round",
    "value"}]}]}``.

    Reads one team's rows and what its rank and tie-breaks need, not the whole standings: every
    team's match points summed in the database (its opponents' points for Buchholz; the teams
    above it), then the matches of the teams level with it on match points, whose tie-breaks
    decide its place among them. Two queries, the same row as :func:`standings`."""
    keys = tiebreak_keys(tournament)
    points, names = _points_and_names(tournament)
    mine = points.get(team.pk, 0)
    level = [pk for pk, p in points.items() if p == mine]
    rows = _counted(tournament).filter(Q(team_ns__in=level) | Q(team_ew__in=level)) \
        .order_by("round__number", "table").values_list(*MATCH_COLUMNS)
    teams = [(pk, *names[pk]) for pk in level]
    withdrawn = _withdrawn(teams, None)
    ctx = build_context(level, rows, withdrawn, points=points)
    above = sum(1 for p in points.values() if p > mine)
    group_rows = standings_from(ctx, keys, teams, withdrawn)
    row = next(r for r in group_rows if r.team_id == team.pk)
    row.rank += above
    res = ctx.teams[team.pk]
    rounds = [{
        "round": g.round,
        "opponent": names[g.opponent][0] if g.opponent in names else None,
        "opponent_id": g.opponent,
        "bye": g.is_bye,
        "scored": g.scored,
        "conceded": g.conceded,
        "difference": g.scored - g.conceded,
        "match_points": g.points,
        "outcome": g.outcome,
        "opponent_match_points": ctx.points_of(g.opponent) if g.opponent else None,
    } for g in res.games]
    breaks = []
    for key in keys:
        tb = REGISTRY[key]()
        breaks.append({
            "key": key,
            "label": tb.label,
            "value": row.tiebreaks.get(key),
            "byes_and_withdrawals": tb.byes_and_withdrawals,
            "per_round": tb.explain(res, ctx),
        })
    return {"row": row, "rounds": rounds, "tiebreaks": breaks}


def _points_and_names(tournament: Tournament) -> tuple[dict[int, int], dict[int, tuple]]:
    """Every team's match points over its counted matches, summed by the database, and its
    ``(name, affiliation, first player, second player, withdrawn_after_round)``: one query."""
    counted = _counted(tournament)
    as_ns = counted.filter(team_ns=OuterRef("pk")).order_by().values("team_ns").annotate(s=Sum("points_ns")).values("s")
    as_ew = counted.filter(team_ew=OuterRef("pk")).order_by().values("team_ew").annotate(s=Sum("points_ew")).values("s")
    zero = Value(0, output_field=IntegerField())
    qs = Team.objects.filter(tournament=tournament).annotate(
        mp=Coalesce(Subquery(as_ns, output_field=IntegerField()), zero)
        + Coalesce(Subquery(as_ew, output_field=IntegerField()), zero))
    points, names = {}, {}
    for *row, mp in qs.values_list(*TEAM_COLUMNS, *NAME_SETTINGS, "mp"):
        pk, *rest = _shown(tuple(row))
        points[pk] = mp
        names[pk] = tuple(rest)
    return points, names


def standings_from(ctx: Context, keys: list[str], teams: list[tuple], withdrawn: dict) -> list[StandingRow]:
    """Standings rows from an already built context and the teams' :data:`TEAM_COLUMNS` value
    rows (no queries), from each team's sums (computed once, :attr:`TeamResults.sums`)."""
    ranked = rank_teams(ctx, keys)
    by_id = {t[0]: t for t in teams}
    points = ctx.points
    out = []
    for rank, tid, values in ranked:
        _pk, name, affiliation, first, second, _gone = by_id[tid]
        res = ctx.teams[tid]
        sums = res.sums
        out.append(StandingRow(
            rank=rank, team_id=tid, name=name, players=f"{first} & {second}", affiliation=affiliation,
            played=len(res.games), won=sums.won, drawn=sums.drawn, lost=sums.lost, byes=sums.byes,
            match_points=points[tid], point_difference=sums.difference, points_scored=sums.scored,
            buchholz=sum(points.get(o, 0) for o in sums.opponents),
            tiebreaks={k: values[k] for k in keys}, withdrawn=withdrawn.get(tid, False),
        ))
    out.sort(key=lambda r: (r.rank, r.name.lower(), r.team_id))
    return out
