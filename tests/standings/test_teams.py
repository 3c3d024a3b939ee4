"""Standings from the database (scoring.standings.teams): fixed query count for 100 teams after
5 rounds, counted results only, team breakdown. Expected values by hand (docs/tournaments.md)."""
from __future__ import annotations

import pytest

from scoring.models import Match, Round, Team, Tournament
from scoring.standings.teams import standings, team_breakdown
from tests.factories import MatchFactory, PlayerFactory, RoundFactory, TeamFactory, TournamentFactory

pytestmark = pytest.mark.django_db


def build(n_teams: int, n_rounds: int) -> Tournament:
    """A tournament with ``n_teams`` and ``n_rounds`` closed rounds of confirmed matches
    (team 2k beats 2k+1 800 : 700; round r pairs i with i+1 shifted by r; a bye if odd)."""
    t = TournamentFactory()
    teams = [TeamFactory(tournament=t, name=f"Team {i:03d}", affiliation="Assoc") for i in range(n_teams)]
    for r in range(1, n_rounds + 1):
        rnd = RoundFactory(tournament=t, number=r, status=Round.Status.CLOSED)
        order = teams[r:] + teams[:r]
        for k in range(0, n_teams - 1, 2):
            a, b = order[k], order[k + 1]
            MatchFactory(round=rnd, table=k // 2 + 1, team_ns=a, team_ew=b, status=Match.Status.CONFIRMED,
                         total_ns=800, total_ew=700, points_ns=2, points_ew=0, winner=a)
        if n_teams % 2:
            MatchFactory(round=rnd, table=n_teams // 2 + 1, team_ns=order[-1], team_ew=None, status=Match.Status.FINISHED,
                         points_ns=2, winner=order[-1])
    return t


def test_fixed_number_of_queries(django_assert_num_queries):
    small = build(10, 5)
    big = build(100, 5)
    with django_assert_num_queries(2):
        rows_small = standings(small)
    with django_assert_num_queries(2):
        rows = standings(big)
    assert len(rows_small) == 10 and len(rows) == 100
    assert sum(r.won for r in rows) == 250 and sum(r.match_points for r in rows) == 500
    assert all(r.played == 5 for r in rows)


def test_counted_results_and_fields():
    t = TournamentFactory(tiebreaks=["point_difference", "buchholz"])
    p = [PlayerFactory(tournament=t, name=n) for n in "abcdef"]
    ta = TeamFactory(tournament=t, name="Alpha", first_player=p[0], second_player=p[1], affiliation="Asopos")
    tb = TeamFactory(tournament=t, name="Bravo", first_player=p[2], second_player=p[3])
    tc = TeamFactory(tournament=t, name="Charlie", first_player=p[4], second_player=p[5], withdrawn_after_round=1)
    r1 = RoundFactory(tournament=t, number=1, status=Round.Status.CLOSED)
    r2 = RoundFactory(tournament=t, number=2, status=Round.Status.IN_PROGRESS)
    r3 = RoundFactory(tournament=t, number=3, status=Round.Status.DRAFT)
    MatchFactory(round=r1, table=1, team_ns=ta, team_ew=tb, status="confirmed", total_ns=750, total_ew=750, points_ns=1, points_ew=1)
    MatchFactory(round=r1, table=2, team_ns=tc, team_ew=None, status="finished", points_ns=2, winner=tc)
    MatchFactory(round=r2, table=1, team_ns=ta, team_ew=tb, status="playing", total_ns=300, total_ew=100)  # not counted
    MatchFactory(round=r3, table=1, team_ns=tb, team_ew=None, status="finished", points_ns=2, winner=tb)  # draft: not counted
    rows = {r.name: r for r in standings(t)}
    # Charlie 2 points (bye); Alpha and Bravo 1 point each, PD 0, Buchholz 1 each -> shared rank 2
    assert (rows["Charlie"].rank, rows["Alpha"].rank, rows["Bravo"].rank) == (1, 2, 2)
    alpha = rows["Alpha"]
    assert (alpha.played, alpha.won, alpha.drawn, alpha.lost, alpha.byes) == (1, 0, 1, 0, 0)
    assert (alpha.match_points, alpha.point_difference, alpha.points_scored, alpha.buchholz) == (1, 0, 750, 1)
    assert alpha.players == "a & b" and alpha.affiliation == "Asopos"
    assert alpha.tiebreaks == {"point_difference": 0, "buchholz": 1}
    charlie = rows["Charlie"]
    assert (charlie.played, charlie.won, charlie.byes, charlie.withdrawn, charlie.buchholz) == (1, 1, 1, True, 0)
    assert [r.name for r in standings(t)][1:] == ["Alpha", "Bravo"]  # shared rank: by name
    assert {r.name: r.match_points for r in standings(t, through_round=0)} == {"Alpha": 0, "Bravo": 0, "Charlie": 0}


def test_team_breakdown(django_assert_max_num_queries):
    t = build(4, 2)
    team = Team.objects.get(tournament=t, name="Team 001")
    with django_assert_max_num_queries(2):
        data = team_breakdown(t, team)
    # round 1 order: 1,2,3,0 -> Team 001 beats Team 002; round 2 order 2,3,0,1 -> Team 001 loses to Team 000
    assert [(x["round"], x["opponent"], x["outcome"], x["difference"]) for x in data["rounds"]] == [
        (1, "Team 002", "win", 100), (2, "Team 000", "loss", -100)]
    keys = [b["key"] for b in data["tiebreaks"]]
    assert keys == ["point_difference", "buchholz", "points_scored", "head_to_head"]
    pd = data["tiebreaks"][0]
    assert pd["value"] == 0 and [p["value"] for p in pd["per_round"]] == [100, -100]
    assert data["row"].match_points == 2
