"""The team breakdown reads only one team's rows and what its rank and tie-breaks need (every
team's match points summed by the database, the matches of the teams level with it), yet shows
exactly the row the full standings give that team: rank (shared on ties), counts, sums and every
tie-break value, whatever the tie-break order (head-to-head and the Buchholz variants read the
tied teams and the opponents' points). Checked for every team of seeded random tournaments with
byes, draws, a withdrawn team and unplayed (draft) rounds."""
from __future__ import annotations

import random

import pytest

from scoring.models import Match, Round, Team
from scoring.standings.teams import standings, team_breakdown
from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory

pytestmark = pytest.mark.django_db

ORDERS = [
    None,  # NSKT default: point difference, Buchholz, points scored, head-to-head
    ["head_to_head", "median_buchholz", "sonneborn_berger"],
    ["wins", "buchholz", "head_to_head", "points_scored"],
]


def tournament(n_teams: int, n_rounds: int, seed: int, tiebreaks):
    """Random results (draws often, so that ties and head-to-head matter); the last team
    withdraws after round 2; two late entries that have not played yet (a shared rank); a draft
    round that must not count."""
    rng = random.Random(seed)
    t = TournamentFactory(tiebreaks=tiebreaks or [])
    teams = [TeamFactory(tournament=t, name=f"Team {i:02d}", withdrawn_after_round=2 if i == n_teams - 1 else None)
             for i in range(n_teams)]
    for name in ("Late A", "Late B"):
        TeamFactory(tournament=t, name=name, joined_round=n_rounds + 2)
    for r in range(1, n_rounds + 2):
        draft = r == n_rounds + 1
        rnd = RoundFactory(tournament=t, number=r, status=Round.Status.DRAFT if draft else Round.Status.CLOSED)
        present = [tm for tm in teams if r <= 2 or tm.withdrawn_after_round is None]
        rng.shuffle(present)
        if len(present) % 2:
            bye = present.pop()
            MatchFactory(round=rnd, table=len(present) // 2 + 1, team_ns=bye, team_ew=None,
                         status=Match.Status.FINISHED, points_ns=2, winner=bye)
        for k in range(0, len(present), 2):
            a, b = present[k], present[k + 1]
            tns, tew = rng.choice([(600, 400), (400, 600), (500, 500)])
            pns, pew = (1, 1) if tns == tew else ((2, 0) if tns > tew else (0, 2))
            winner = None if tns == tew else (a if tns > tew else b)
            MatchFactory(round=rnd, table=k // 2 + 1, team_ns=a, team_ew=b, status=Match.Status.CONFIRMED,
                         total_ns=tns, total_ew=tew, points_ns=pns, points_ew=pew, winner=winner)
    return t


@pytest.mark.parametrize("order", ORDERS)
@pytest.mark.parametrize(("n_teams", "seed"), [(9, 1), (16, 2)])
def test_breakdown_row_is_the_standings_row(order, n_teams, seed, django_assert_max_num_queries):
    t = tournament(n_teams, 4, seed, order)
    full = {row.team_id: row for row in standings(t)}
    assert full[Team.objects.get(tournament=t, name="Late A").pk].rank == full[Team.objects.get(tournament=t, name="Late B").pk].rank
    levels = [row.match_points for row in full.values()]
    assert any(levels.count(p) > 2 for p in levels), "tie-breaks must decide somewhere"
    for team in Team.objects.filter(tournament=t):
        with django_assert_max_num_queries(2):
            data = team_breakdown(t, team)
        assert data["row"] == full[team.pk]
        assert [b["value"] for b in data["tiebreaks"]] == list(full[team.pk].tiebreaks.values())
        assert sum(g["match_points"] for g in data["rounds"]) == full[team.pk].match_points
        for g in data["rounds"]:
            if g["opponent_id"] is not None:
                assert g["opponent_match_points"] == full[g["opponent_id"]].match_points
        for b in data["tiebreaks"]:
            if b["key"] in ("point_difference", "points_scored", "buchholz", "median_buchholz", "sonneborn_berger"):
                assert sum(p["value"] for p in b["per_round"]) == b["value"]
