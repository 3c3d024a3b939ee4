"""The profile's bulk ranks (:func:`scoring.standings.ranks.entry_ranks`) are the standings' ranks:
Tai Pan teams with tie-breaks, four-player players by total points and by placement points, several
tournaments in one call and at most three queries."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.models import Tournament
from scoring.standings import players, teams
from scoring.standings.ranks import entry_ranks
from tests.factories import DEALS, RoundFactory, TableFactory, TournamentFactory, play, played_taipan_tournament, staff

pytestmark = pytest.mark.django_db


def _four_player(placement: dict) -> Tournament:
    """Sichuan, two tables of round 1: table 1 one deal (East +6, the others -2); table 2 two such
    deals (East +12, the others -4); both ended and finished. Players ranked by totals: 12, 6,
    then -2 x 3 (shared rank 3), then -4 x 3 (shared rank 6)."""
    t = TournamentFactory(game="sichuan", placement=placement)
    rnd = RoundFactory(tournament=t, number=1)
    referee = staff(t)["referee"]
    one, two = TableFactory(round=rnd, number=1), TableFactory(round=rnd, number=2)
    play(one, [DEALS["sichuan"][0]], referee, end_reason="time")
    play(two, [DEALS["sichuan"][0], DEALS["sichuan"][0]], referee, end_reason="time")
    return t


@pytest.mark.parametrize("placement", [{}, {"preset": "ema"}])
def test_four_player_ranks_are_the_standings(placement):
    t = _four_player(placement)
    expected = {row.player_id: (row.rank, row.total) for row in players.standings(t)}
    assert entry_ranks([t])[t.pk] == expected
    assert sorted(rank for rank, _total in expected.values()) == [1, 2, 3, 3, 3, 6, 6, 6]


def test_team_ranks_with_tiebreaks_and_many_tournaments_in_three_queries():
    a = played_taipan_tournament(6, 2)
    b = played_taipan_tournament(4, 3)
    c = _four_player({})
    with CaptureQueriesContext(connection) as ctx:
        ranks = entry_ranks([a, b, c])
    assert len(ctx.captured_queries) == 3
    for t in (a, b):
        assert ranks[t.pk] == {row.team_id: (row.rank, row.match_points) for row in teams.standings(t)}
    assert entry_ranks([]) == {}
