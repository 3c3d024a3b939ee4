"""The cross table (issue 26 item 4, docs/tournaments.md "Cross table"): the demo tournament's
cells against its matches, symmetry (if A met B in round r, B's cell names A with the mirrored
score), byes and forfeits, drafts and results that do not count yet, four-player tables, and
a query count that does not grow with rounds or entrants.

Expected values come from the stored matches (the result sheet scored them from the real hands)
and the rules: a win is 2 match points, a forfeit gives the present team the target (800) and
2 match points (docs/tournaments.md "No-shows"), a bye 2 match points with 0:0; Sichuan:
East's self-draw with all chows and a pair is +6, the others -2 each (docs/engines/sichuan.md).
"""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.db import connection
from django.test.utils import CaptureQueriesContext

from scoring.draw import noshow
from scoring.io.demo import load_demo
from scoring.models import Match, Round
from scoring.models.persons import PublicNames
from scoring.participants.names import public_name
from scoring.results import sheet
from scoring.standings import team_standings
from scoring.standings.crosstable import BYE, PENDING, PLAYED, cross_table
from tests.factories import (
    DEALS,
    GRAND_DOUBLE_VICTORY_NS,
    MatchFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    named_teams,
    play,
    played_taipan_tournament,
    staff,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english(english_everywhere):
    """English texts and a fresh cache (:func:`tests.conftest.english_everywhere`)."""


def public(t):
    return lambda p: public_name(p, t)


def test_demo_cross_table():
    """One load of the demo (it plays three rounds through the result sheet) for every check of it."""
    demo = load_demo().tournament
    check_rows(demo)
    check_cells(demo)
    check_hand_picked(demo)
    check_symmetry(demo)
    check_public_names(demo)


def check_rows(demo):
    """Rows in standings order, every non-draft round a column, the standings' totals."""
    table = cross_table(demo, name_of=public(demo))
    standings = team_standings(demo)
    assert [r.entrant_id for r in table.rows] == [s.team_id for s in standings]
    assert [r.rank for r in table.rows] == [s.rank for s in standings]
    assert [r.number for r in table.rows] == list(range(1, 17))
    # three closed rounds and round 4 published (load_demo): every one is a column
    assert table.rounds == [1, 2, 3, 4]
    assert [key for key, _label in table.columns] == ["match_points", "point_difference", "buchholz", "points_scored",
                                                      "head_to_head"]
    for row, s in zip(table.rows, standings, strict=True):
        assert row.totals["match_points"] == s.match_points
        assert row.totals["points_scored"] == s.points_scored


def check_cells(demo):
    """Every team's cell of rounds 1 to 3 says what its match says: the opponent's row number, the
    side, the outcome, the match points and the score; round 4 (published, not played) only
    the pairing."""
    table = cross_table(demo, name_of=public(demo))
    number = {row.entrant_id: row.number for row in table.rows}
    matches = list(Match.objects.filter(round__tournament=demo).select_related("round"))
    assert len(matches) == 4 * 8
    for m in matches:
        for me, other, side, scored, conceded, points in (
                (m.team_ns_id, m.team_ew_id, "NS", m.total_ns, m.total_ew, m.points_ns),
                (m.team_ew_id, m.team_ns_id, "EW", m.total_ew, m.total_ns, m.points_ew)):
            cell = table.row_of(me).cells[m.round.number - 1]
            assert (cell.round, cell.table, cell.side, cell.opponents, cell.opponent_ids) == (
                m.round.number, m.table, side, [number[other]], [other])
            if m.round.number == 4:
                assert cell.state == PENDING and cell.outcome == "" and cell.scored is None
                assert cell.text() == f"{number[other]} {side}"
                continue
            outcome = "D" if m.winner_id is None else "W" if m.winner_id == me else "L"
            assert (cell.state, cell.outcome, cell.points, cell.scored, cell.conceded) == (
                PLAYED, outcome, points, scored, conceded)
            assert cell.text() == f"{number[other]} {side} {outcome} {scored}-{conceded}"


def check_hand_picked(demo):
    """Table 1 of round 1, read from the database by hand: its NS team's cell names the EW team's
    row, the side NS and the NS total first; the EW team's cell mirrors it; the winner has 2
    match points (NSKT), the loser 0."""
    m = Match.objects.get(round__tournament=demo, round__number=1, table=1)
    assert max(m.total_ns, m.total_ew) >= 800  # a match of the demo runs to the target
    winner_is_ns = m.total_ns > m.total_ew
    table = cross_table(demo, name_of=public(demo))
    ns, ew = table.row_of(m.team_ns_id), table.row_of(m.team_ew_id)
    assert ns.cells[0].text() == f"{ew.number} NS {'W' if winner_is_ns else 'L'} {m.total_ns}-{m.total_ew}"
    assert ew.cells[0].text() == f"{ns.number} EW {'L' if winner_is_ns else 'W'} {m.total_ew}-{m.total_ns}"
    assert (ns.cells[0].points, ew.cells[0].points) == ((2, 0) if winner_is_ns else (0, 2))


def check_symmetry(demo):
    """If A met B in round r, B's cell of round r names A, the other side and the mirrored score."""
    table = cross_table(demo, name_of=public(demo))
    by_number = {row.number: row for row in table.rows}
    for row in table.rows:
        for i, cell in enumerate(row.cells):
            assert cell is not None  # 16 teams, every one plays every round
            other = by_number[cell.opponents[0]].cells[i]
            assert other.opponents == [row.number]
            assert {cell.side, other.side} == {"NS", "EW"}
            assert (other.scored, other.conceded) == (cell.conceded, cell.scored)
            assert (cell.outcome, other.outcome) in {("W", "L"), ("L", "W"), ("D", "D"), ("", "")}
            assert cell.table == other.table and cell.result_id == other.result_id


def check_public_names(demo):
    demo.public_names = PublicNames.SHORT
    demo.save(update_fields=["public_names"])
    table = cross_table(demo, name_of=public(demo))
    draken = next(r for r in table.rows if r.name == "Draken")
    assert draken.players == ["Anna V.", "Bram J."]
    full = cross_table(demo, name_of=lambda p: p.name)
    assert next(r for r in full.rows if r.name == "Draken").players == ["Anna de Vries", "Bram Jansen"]


@pytest.fixture
def small():
    """Teams A, B, C, D, blind confirmation on. Round 1: A-B forfeit (B absent), C-D played 800:0,
    both confirmed.
    Round 2 (published): C gets a bye (D did not show, rule bye), A-B finished unconfirmed under
    blind confirmation. Round 3 a draft A-C."""
    t = TournamentFactory(slug="small", blind_confirmation=True)
    people = staff(t)
    a, b, c, d = named_teams(t, ["A", "B", "C", "D"])
    r1 = RoundFactory(tournament=t, number=1)
    forfeit = MatchFactory(round=r1, table=1, team_ns=a, team_ew=b)
    forfeit = noshow.match_no_show(forfeit, people["organiser"], absent_team_id=b.pk, reason="not there")
    sheet.confirm(forfeit, people["referees"][1], expected_version=forfeit.version, totals=[800, 0])
    played = play(MatchFactory(round=r1, table=2, team_ns=c, team_ew=d), [GRAND_DOUBLE_VICTORY_NS] * 2,
                  people["referees"][0])
    sheet.confirm(played, people["referees"][1], expected_version=played.version, totals=[800, 0])
    r2 = RoundFactory(tournament=t, number=2)
    bye = MatchFactory(round=r2, table=1, team_ns=d, team_ew=c)
    noshow.match_no_show(bye, people["organiser"], absent_team_id=d.pk, reason="gone", rule="bye")
    play(MatchFactory(round=r2, table=2, team_ns=a, team_ew=b), [GRAND_DOUBLE_VICTORY_NS] * 2, people["referees"][0])
    r3 = RoundFactory(tournament=t, number=3, status=Round.Status.DRAFT)
    MatchFactory(round=r3, table=1, team_ns=a, team_ew=c)
    return t, {"A": a, "B": b, "C": c, "D": d}


def test_forfeit_bye_pending_and_draft(small):
    t, teams = small
    table = cross_table(t, name_of=public(t))
    assert table.rounds == [1, 2]  # the draft round 3 is no column
    row = {name: table.row_of(team.pk) for name, team in teams.items()}
    a1, b1 = row["A"].cells[0], row["B"].cells[0]
    # forfeit: A wins with the target 800 and 2 match points, B loses 0-800
    assert (a1.outcome, a1.forfeit, a1.points, a1.scored, a1.conceded) == ("W", "won", 2, 800, 0)
    assert (b1.outcome, b1.forfeit, b1.points) == ("L", "lost", 0)
    assert a1.text() == f"{row['B'].number} NS W forfeit"
    # the bye: C alone at table 1, a win with 0:0 and 2 match points; D did not play round 2
    c2 = row["C"].cells[1]
    assert (c2.state, c2.outcome, c2.points, c2.opponents, c2.text()) == (BYE, "W", 2, [], "bye W")
    assert row["D"].cells[1] is None
    # blind confirmation: A-B of round 2 is finished but not confirmed, so no result shows yet
    a2 = row["A"].cells[1]
    assert (a2.state, a2.outcome, a2.scored, a2.text()) == (PENDING, "", None, f"{row['B'].number} NS")


def test_queries_do_not_grow_with_rounds_or_entrants():
    def count(t) -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as ctx:
            cross_table(t, name_of=public(t))
        return len(ctx.captured_queries)

    small = played_taipan_tournament(4, 2)
    big = played_taipan_tournament(12, 7)
    assert count(small) == count(big)
    assert count(big) <= 8


def test_four_player_cells():
    """Sichuan, one confirmed table: East +6 (1st), South, West and North -2 each (sharing 2nd);
    each names the other three by row number."""
    t = TournamentFactory(slug="sc", game="sichuan")
    people = staff(t)
    rnd = RoundFactory(tournament=t, number=1)
    table_ = TableFactory(round=rnd, number=1)
    play(table_, [DEALS["sichuan"][0]], people["referees"][0], end_reason="time", confirmer=people["referees"][1])
    ct = cross_table(t, name_of=public(t))
    assert ct.entrants == "players" and [k for k, _l in ct.columns] == ["total"]
    seats = {s.seat: s.player_id for s in table_.seats.all()}
    east = ct.row_of(seats[0])
    assert east.number == 1 and east.totals == {"total": 6}
    cell = east.cells[0]
    others = sorted(ct.row_of(seats[s]).number for s in (1, 2, 3))
    assert (cell.table, cell.seat, cell.side, cell.side_key, cell.place, cell.scored) == (1, 0, "East", "E", 1, 6)
    assert sorted(cell.opponents) == others == [2, 3, 4]
    assert cell.text() == "T1 East 1st 6"
    for s in (1, 2, 3):
        other = ct.row_of(seats[s]).cells[0]
        assert (other.place, other.scored, other.state) == (2, -2, PLAYED)
        assert east.number in other.opponents


def test_four_player_queries_do_not_grow():
    def build(tables: int, rounds: int):
        t = TournamentFactory(game="sichuan")
        for r in range(1, rounds + 1):
            rnd = RoundFactory(tournament=t, number=r)
            for n in range(1, tables + 1):
                TableFactory(round=rnd, number=n)
        return t

    def count(t) -> int:
        cache.clear()
        with CaptureQueriesContext(connection) as ctx:
            cross_table(t, name_of=public(t))
        return len(ctx.captured_queries)

    assert count(build(1, 1)) == count(build(3, 3))


def test_four_player_with_placement_points():
    """EMA table points (docs/tournaments.md "Placement points": 4, 2, 1, 0, equal totals share):
    East +6 is first with 4; the three players on -2 share places 2 to 4, (2 + 1 + 0) / 3 = 1 each."""
    t = TournamentFactory(slug="sc-ema", game="sichuan", placement={"preset": "ema"})
    people = staff(t)
    table_ = TableFactory(round=RoundFactory(tournament=t, number=1), number=1)
    play(table_, [DEALS["sichuan"][0]], people["referees"][0], end_reason="time", confirmer=people["referees"][1])
    ct = cross_table(t, name_of=public(t))
    assert [k for k, _l in ct.columns][:2] == ["placement_points", "total"]
    seats = {s.seat: s.player_id for s in table_.seats.all()}
    east = ct.row_of(seats[0])
    assert (east.cells[0].points, east.totals["placement_points"], east.totals["total"]) == (4, 4, 6)
    south = ct.row_of(seats[1])
    assert (south.cells[0].place, south.cells[0].points, south.totals["placement_points"]) == (2, 1, 1)
