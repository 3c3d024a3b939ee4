"""Four-player standings with placement points (issue 24 item 2): placement points, then total
points, then the player tie-breaks; derived from the counted seat totals; one query whatever the
field size; unplayed players last. Values hand-worked from the EMA MCR table points 4/2/1/0
(ties share) and the Tenhou-style uma/oka (docs/tournaments.md "Placement points")."""
from fractions import Fraction as F

import pytest

from scoring.games.base import EntrantKind
from scoring.models import Round, Table
from scoring.standings import player_standings
from scoring.standings.player_tiebreaks import DEFAULT_ORDER, REGISTRY, tiebreak_registry
from scoring.standings.players import player_breakdown, standings
from tests.factories import PlayerFactory, RoundFactory, TournamentFactory
from tests.standings.placement_world import ema_eight, seat_table

pytestmark = pytest.mark.django_db


@pytest.fixture
def eight():
    return ema_eight()


def test_ranked_by_placement_points_then_score_then_tiebreaks(eight, django_assert_num_queries):
    """E 7; F 4.5; A, C, G on 4: A (score 10) before G (0) before C (-10); B 3.5; D and H 0.5:
    H (score -20) before D (-30)."""
    t, _p = eight
    with django_assert_num_queries(1):
        rows = standings(t)
    assert [(r.name, r.rank, r.placement_points, r.total) for r in rows] == [
        ("E", 1, 7, 50), ("F", 2, F(9, 2), 0), ("A", 3, 4, 10), ("G", 4, 4, 0), ("C", 5, 4, -10),
        ("B", 6, F(7, 2), 0), ("H", 7, F(1, 2), -20), ("D", 8, F(1, 2), -30),
    ]
    assert rows[0].tiebreaks == {"firsts": 2, "seconds": 0, "best_table": 40}
    assert list(rows[0].tiebreaks) == DEFAULT_ORDER


def test_tiebreaks_decide_equal_points_and_score():
    """Placement points and score equal: most first places decides, then the order set. A and B:
    A first (4) then fourth (0) = 4, B second twice = 2 + 2 = 4; both total 5 (30 - 25, 10 - 5). Most first places:
    A. With "seconds" first in the order: B."""
    t = TournamentFactory(game="taiwanese", placement={"preset": "ema"})
    p = {n: PlayerFactory(tournament=t, name=n) for n in "ABCDEF"}
    r1 = RoundFactory(tournament=t, number=1, status=Round.Status.CLOSED)
    r2 = RoundFactory(tournament=t, number=2, status=Round.Status.CLOSED)
    seat_table(r1, 1, [p[n] for n in "ABCD"], [30, 10, -15, -25])   # A 4, B 2
    seat_table(r2, 1, [p[n] for n in "EBFA"], [40, -5, -10, -25])   # B 2, A 0
    rows = {r.name: r for r in standings(t)}
    assert (rows["A"].placement_points, rows["A"].total) == (rows["B"].placement_points, rows["B"].total) == (4, 5)
    assert rows["A"].rank < rows["B"].rank
    t.tiebreaks = ["seconds", "firsts"]
    rows = {r.name: r for r in standings(t)}
    assert rows["B"].rank < rows["A"].rank
    t.tiebreaks = ["best_table"]  # A 30, B 10
    assert {r.name: r.rank for r in standings(t)}["A"] < {r.name: r.rank for r in standings(t)}["B"]


def test_equal_on_everything_share_a_rank_and_unplayed_come_last():
    t = TournamentFactory(game="tiengow", placement={"preset": "ema"})
    p = {n: PlayerFactory(tournament=t, name=n) for n in "ABCDZ"}
    r1 = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    seat_table(r1, 1, [p[n] for n in "ABCD"], [0, 0, 0, 0])
    rows = standings(t)
    assert [(r.name, r.rank, r.placement_points) for r in rows] == [
        ("A", 1, F(7, 4)), ("B", 1, F(7, 4)), ("C", 1, F(7, 4)), ("D", 1, F(7, 4)), ("Z", None, 0)]


def test_a_playing_table_and_draft_rounds_count_for_nobody():
    t = TournamentFactory(game="sichuan", placement={"preset": "pantheon"})
    p = [PlayerFactory(tournament=t, name=n) for n in "ABCD"]
    seat_table(RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED), 1, p, [9, 1, -5, -5],
               status=Table.Status.PLAYING)
    seat_table(RoundFactory(tournament=t, number=2, status=Round.Status.DRAFT), 1, p, [9, 1, -5, -5])
    assert all(r.rank is None and r.placement_points == 0 for r in standings(t))


def test_through_round_and_seat_order_ties(django_assert_num_queries):
    """Tenhou-style, ties by seat: round 1 C and D equal on -5: C (West) third -10, D (North)
    fourth -20; after round 1 only."""
    t = TournamentFactory(game="sichuan", placement={"preset": "pantheon"})
    p = [PlayerFactory(tournament=t, name=n) for n in "ABCD"]
    seat_table(RoundFactory(tournament=t, number=1, status=Round.Status.CLOSED), 1, p, [9, 1, -5, -5])
    seat_table(RoundFactory(tournament=t, number=2, status=Round.Status.CLOSED), 1, p[::-1], [9, 1, -5, -5])
    rows = {r.name: r.placement_points for r in standings(t, through_round=1)}
    assert rows == {"A": 30, "B": 0, "C": -10, "D": -20}
    with django_assert_num_queries(1):
        breakdown = player_breakdown(t, p[3].pk)
    assert [(r["round"], r["seat"], r["place"], r["points"], r["running"]) for r in breakdown["rounds"]] == [
        (1, 3, 4, -20, -20), (2, 0, 1, 30, 10)]
    assert [(b["key"], b["value"]) for b in breakdown["tiebreaks"]] == [("firsts", 1), ("seconds", 0), ("best_table", 9)]


def test_none_ranks_by_score_as_before_and_cached_key_follows_the_setting(eight):
    t, _p = eight
    t.placement = {}
    rows = player_standings(t)
    assert [r.name for r in rows][:2] == ["E", "A"] and rows[0].placement_points is None
    t.placement = {"preset": "ema"}
    assert player_standings(t)[1].name == "F"  # a new key: not the cached score-only table


def test_one_query_whatever_the_field_size(django_assert_num_queries):
    t = TournamentFactory(game="sichuan", placement={"preset": "ema"})
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.CLOSED)
    for number in range(1, 6):
        seat_table(rnd, number, [PlayerFactory(tournament=t) for _ in range(4)], [3, 1, -1, -3])
    with django_assert_num_queries(1):
        rows = standings(t)
    assert len(rows) == 20 and sum(r.placement_points for r in rows) == 5 * 7


def test_registry_per_entrant_kind():
    registry, default = tiebreak_registry(EntrantKind.PLAYERS)
    assert registry is REGISTRY and default == DEFAULT_ORDER and default is not DEFAULT_ORDER
    teams, team_default = tiebreak_registry(EntrantKind.TEAMS)
    assert "buchholz" in teams and team_default[0] == "point_difference"
