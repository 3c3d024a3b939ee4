"""Tai Pan standings (docs/tournaments.md Ranking, issue 2 item 7, issue 4 item 5).

:func:`standings` loads the tournament's teams and finished results in a FIXED number of queries
(two, whatever the number of teams or rounds), builds plain :class:`scoring.standings.tiebreaks.Context`
data and ranks with :func:`scoring.standings.tiebreaks.rank_teams`: match points, then the tournament's
ordered tie-breaks (default NSKT: point difference, Buchholz, points scored, head-to-head).
Teams equal on everything share a rank.

Which results count: matches of published/running/closed rounds (draft rounds are not played)
whose status is finished or confirmed; a bye counts as a win with 0:0.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from scoring.models import Match, Round, Team, Tournament
from scoring.standings.tiebreaks import (
    DRAW,
    LOSS,
    REGISTRY,
    WIN,
    Buchholz,
    Context,
    Game,
    TeamResults,
    rank_teams,
    resolve,
)

COUNTED = (Match.Status.FINISHED, Match.Status.CONFIRMED)


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


def _team_queryset(tournament: Tournament):
    return Team.objects.filter(tournament=tournament).select_related("first_player", "second_player").order_by("name", "pk")


def _match_rows(tournament: Tournament, through_round: int | None):
    qs = Match.objects.filter(round__tournament=tournament, status__in=COUNTED).exclude(round__status=Round.Status.DRAFT)
    if through_round is not None:
        qs = qs.filter(round__number__lte=through_round)
    return qs.order_by("round__number", "table").values_list(
        "round__number", "team_ns_id", "team_ew_id", "total_ns", "total_ew", "points_ns", "points_ew", "winner_id"
    )


def build_context(team_ids, match_rows, withdrawn: dict | None = None) -> Context:
    """Plain :class:`Context` from ``match_rows`` (tuples ``(round, ns, ew, total_ns, total_ew,
    points_ns, points_ew, winner_id)``; ``ew`` ``None`` = bye). Pure; used by :func:`standings`
    and tests."""
    withdrawn = withdrawn or {}
    teams = {tid: TeamResults(tid, [], bool(withdrawn.get(tid))) for tid in team_ids}
    for rnd, ns, ew, tns, tew, pns, pew, winner in match_rows:
        if ew is None:
            if ns in teams:
                teams[ns].games.append(Game(rnd, None, 0, 0, pns, WIN))
            continue
        for me, opp, scored, conceded, pts in ((ns, ew, tns, tew, pns), (ew, ns, tew, tns, pew)):
            if me not in teams:
                continue
            outcome = DRAW if winner is None else WIN if winner == me else LOSS
            teams[me].games.append(Game(rnd, opp, scored, conceded, pts, outcome))
    return Context(teams)


def tiebreak_keys(tournament: Tournament) -> list[str]:
    """The tournament's ordered tie-break keys (default NSKT), unknown keys dropped."""
    keys = [k for k in (tournament.tiebreaks or []) if k in REGISTRY]
    return keys or [tb.key for tb in resolve(None)]


def standings(tournament: Tournament, *, through_round: int | None = None) -> list[StandingRow]:
    """The ranked standings of a Tai Pan tournament, after ``through_round`` (default: every
    played round). Exactly two queries (teams with players; finished matches), whatever the
    number of teams and rounds. Returns :class:`StandingRow` best first; shared ranks on ties
    (ordered by name within a shared rank)."""
    teams = list(_team_queryset(tournament))
    rows = list(_match_rows(tournament, through_round))
    withdrawn = {t.pk: t.withdrawn_after_round is not None and (through_round is None or t.withdrawn_after_round < through_round)
                 for t in teams}
    ctx = build_context([t.pk for t in teams], rows, withdrawn)
    return standings_from(ctx, tiebreak_keys(tournament), teams, withdrawn)


def team_breakdown(tournament: Tournament, team: Team) -> dict:
    """The numbers behind each tie-break for one team (issue 4 item 5):

    ``{"row": StandingRow, "rounds": [{"round", "opponent", "opponent_id", "bye", "scored",
    "conceded", "difference", "match_points", "outcome", "opponent_match_points"}],
    "tiebreaks": [{"key", "label", "value", "byes_and_withdrawals", "per_round": [{"round",
    "value"}]}]}``. Queries: a fixed number (the standings' two plus none per round)."""
    teams = list(_team_queryset(tournament))
    rows = list(_match_rows(tournament, None))
    withdrawn = {t.pk: t.withdrawn_after_round is not None for t in teams}
    ctx = build_context([t.pk for t in teams], rows, withdrawn)
    keys = tiebreak_keys(tournament)
    names = {t.pk: t.name for t in teams}
    full = standings_from(ctx, keys, teams, withdrawn)
    row = next(r for r in full if r.team_id == team.pk)
    res = ctx.teams[team.pk]
    rounds = [{
        "round": g.round,
        "opponent": names.get(g.opponent) if g.opponent else None,
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


def standings_from(ctx: Context, keys: list[str], teams: list[Team], withdrawn: dict) -> list[StandingRow]:
    """Standings rows from an already built context (no queries; players must be loaded)."""
    ranked = rank_teams(ctx, keys)
    by_id = {t.pk: t for t in teams}
    buchholz = Buchholz()
    out = []
    for rank, tid, values in ranked:
        team, res = by_id[tid], ctx.teams[tid]
        games = res.games
        out.append(StandingRow(
            rank=rank, team_id=tid, name=team.name,
            players=f"{team.first_player.name} & {team.second_player.name}",
            affiliation=team.affiliation, played=len(games),
            won=sum(1 for g in games if g.outcome == WIN),
            drawn=sum(1 for g in games if g.outcome == DRAW),
            lost=sum(1 for g in games if g.outcome == LOSS),
            byes=sum(1 for g in games if g.is_bye),
            match_points=res.match_points,
            point_difference=sum(g.scored - g.conceded for g in games),
            points_scored=sum(g.scored for g in games),
            buchholz=buchholz.value(res, ctx, frozenset()),
            tiebreaks={k: values[k] for k in keys},
            withdrawn=withdrawn.get(tid, False),
        ))
    out.sort(key=lambda r: (r.rank, r.name.lower(), r.team_id))
    return out
