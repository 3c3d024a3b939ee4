"""Final places taken from the standings when a tournament finishes (Tai Pan: both players of a
team get the team's place), dropped on resume, rebuilt by the command; provisional places of a
running tournament (docs/players.md "Season ranking")."""
from __future__ import annotations

from fractions import Fraction

import pytest
from django.core.management import call_command

from scoring.draw import rounds
from scoring.models import FinalPlace, LiveState, Person
from scoring.seasons.ranking import ranking
from tests.factories import closed_round, named_teams, staff
from tests.seasons.helpers import season

pytestmark = pytest.mark.django_db


def _played(name: str):
    """A Tai Pan tournament of teams A, B, C, D, one closed round A-B and C-D, NS winning 800:0
    (match points 2:0): A and C equal on everything (2 mp, +800, Buchholz 0) share 1st, B and D
    share 3rd. Every player linked to a person named like the player."""
    from tests.factories import TournamentFactory

    t = TournamentFactory(name=name)
    people = staff(t)
    a, b, c, d = named_teams(t, ["A", "B", "C", "D"])
    for team in (a, b, c, d):
        for player in (team.first_player, team.second_player):
            player.person, _ = Person.objects.get_or_create(name=player.name)
            player.save()
    rnd = closed_round(t, [(a, b), (c, d)], referee=people["referees"][0], confirmer=people["referees"][1],
                       organiser=people["organiser"])
    t.refresh_from_db()
    return t, people, rnd


def test_finish_records_team_places_for_both_players_and_resume_drops_them():
    t, people, _ = _played("Cup")
    rounds.finish_tournament(t, people["organiser"])
    places = {fp.player.name: (fp.place, fp.tied, fp.field) for fp in FinalPlace.objects.filter(tournament=t).select_related("player")}
    assert places == {"A A": (1, 2, 4), "A B": (1, 2, 4), "C A": (1, 2, 4), "C B": (1, 2, 4),
                      "B A": (3, 2, 4), "B B": (3, 2, 4), "D A": (3, 2, 4), "D B": (3, 2, 4)}
    r = ranking(season([t]))
    by = {row.full_name: row for row in r.rows}
    # Formula 1: 1st shared by two teams -> (25 + 18) / 2 = 21.5 each player; 3rd shared -> (15 + 12) / 2 = 13.5.
    assert by["A A"].total == Fraction(43, 2) and by["C B"].total == Fraction(43, 2)
    assert by["B A"].total == Fraction(27, 2) and by["D B"].total == Fraction(27, 2)
    assert [row.rank for row in r.rows] == [1, 1, 1, 1, 5, 5, 5, 5]
    rounds.resume_tournament(t, people["organiser"])
    assert not FinalPlace.objects.filter(tournament=t).exists()
    # Running again: provisional, shown but not counted.
    r = ranking(season([t], slug="s2"))
    row = next(row for row in r.rows if row.full_name == "A A")
    assert row.total == 0 and row.cells[0].provisional and row.cells[0].points == Fraction(43, 2)
    assert not row.cells[0].counted


def test_rebuild_command_and_first_reading_fill_missing_places():
    t, people, _ = _played("Cup")
    rounds.finish_tournament(t, people["organiser"])
    FinalPlace.objects.all().delete()
    standings_before = LiveState.objects.get(tournament=t).standings_version
    call_command("rebuild_final_places", t.slug, stdout=__import__("io").StringIO())
    assert FinalPlace.objects.filter(tournament=t).count() == 8
    assert LiveState.objects.get(tournament=t).standings_version > standings_before  # the season pages' ETag moves
    out = __import__("io").StringIO()
    call_command("rebuild_final_places", stdout=out)
    assert "Recorded the final places of 1 finished tournaments." in out.getvalue()
    FinalPlace.objects.all().delete()
    r = ranking(season([t]))
    assert len(r.rows) == 8 and FinalPlace.objects.filter(tournament=t).count() == 8


def test_four_player_places_from_the_standings():
    """A Sichuan table: East self-draws (+6), the three others pay 2 each (-2): East 1st, the
    others share 2nd (three places 2, 3, 4). Formula 1: East 25; the others (18 + 15 + 12) / 3 = 15."""
    from tests.factories import confirm_round, table_round

    rnd, (table,) = table_round("sichuan", names=["East", "South", "West", "North"])
    t = rnd.tournament
    people = staff(t)
    for seat in table.seats.select_related("player"):
        seat.player.person = Person.objects.create(name=seat.player.name)
        seat.player.save()
    confirm_round(rnd, people["referees"][0], people["referees"][1])
    rounds.close_round(rnd, people["organiser"])
    t.refresh_from_db()
    rounds.finish_tournament(t, people["organiser"])
    r = ranking(season([t]))
    assert [(row.rank, row.full_name, row.total) for row in r.rows] == [
        (1, "East", 25), (2, "North", 15), (2, "South", 15), (2, "West", 15)]
    assert {fp.tied for fp in FinalPlace.objects.filter(tournament=t, place=2)} == {3}
