"""Season points from hand-worked examples (issue 26 item 3, docs/players.md "Season ranking"):
every expected number is worked out by hand from the preset tables written here."""
from __future__ import annotations

from fractions import Fraction

import pytest

from scoring.models import PointsPreset
from scoring.seasons.ranking import place_points, points_text, ranking, table_for
from tests.seasons.helpers import finished_with_places, person, season

pytestmark = pytest.mark.django_db

F1 = [25, 18, 15, 12, 10, 8, 6, 4, 2, 1]


def test_place_points_by_hand():
    assert place_points(F1, 1) == 25
    assert place_points(F1, 10) == 1
    assert place_points(F1, 11) == 0
    assert place_points(F1, 11, participation=2) == 2
    # Two share 2nd: places 2 and 3 -> (18 + 15) / 2.
    assert place_points(F1, 2, 2) == Fraction(33, 2)
    # Three share 3rd: (15 + 12 + 10) / 3.
    assert place_points(F1, 3, 3) == Fraction(37, 3)
    # A tie across the table's end: 10th and 11th share (1 + participation 0) / 2.
    assert place_points(F1, 10, 2) == Fraction(1, 2)
    assert points_text(Fraction(33, 2)) == "16.5" and points_text(Fraction(37, 3)) == "12.33" and points_text(Fraction(4)) == "4"


def test_preset_tables():
    s = season([], preset=PointsPreset.TOP20)
    assert table_for(s, 5) == [20, 19, 18, 17, 16, 15, 14, 13, 12, 11, 10, 9, 8, 7, 6, 5, 4, 3, 2, 1]
    s.preset = PointsPreset.FIELD
    # Field of 6: place 1 gets 6 (five below + 1), place 6 gets 1.
    assert table_for(s, 6) == [6, 5, 4, 3, 2, 1]
    s.preset, s.points_table = PointsPreset.CUSTOM, [10, 5]
    assert table_for(s, 6) == [10, 5]


def test_formula1_season_with_ties_and_best_two():
    anna, bart, cees, dirk = person("Anna de Vries"), person("Bart Smit"), person("Cees Bol"), person("Dirk Mol")
    t1 = finished_with_places({anna: 1, bart: 2, cees: 2, dirk: 4}, starts_on="2026-01-10")
    t2 = finished_with_places({bart: 1, anna: 3, dirk: 2}, starts_on="2026-02-10")
    t3 = finished_with_places({cees: 1, dirk: 2, anna: 3, bart: 4}, starts_on="2026-03-10")
    r = ranking(season([t3, t1, t2], best_n=2))
    assert [t.pk for t in r.tournaments] == [t1.pk, t2.pk, t3.pk]
    by = {row.full_name: row for row in r.rows}
    # Anna: 25 (1st), 15 (3rd), 15 (3rd); best two 25 + 15 = 40, the later 3rd place dropped.
    assert [c.points for c in by["Anna de Vries"].cells] == [25, 15, 15]
    assert [c.counted for c in by["Anna de Vries"].cells] == [True, True, False]
    assert by["Anna de Vries"].total == 40
    # Bart: 2nd shared with Cees -> (18 + 15) / 2 = 16.5, 1st 25, 4th 12; best two 25 + 16.5 = 41.5.
    assert [c.points for c in by["Bart Smit"].cells] == [Fraction(33, 2), 25, 12]
    assert by["Bart Smit"].total == Fraction(83, 2)
    # Cees: 16.5, -, 25 -> 41.5 (equal to Bart).
    assert by["Cees Bol"].cells[1] is None and by["Cees Bol"].total == Fraction(83, 2)
    # Dirk: 12, 18, 18 -> 36.
    assert by["Dirk Mol"].total == 36
    # Bart (2, 1, 4) and Cees (2, -, 1): equal points, best place 1st, one first place and one
    # second each, no thirds; Bart has one fourth place, Cees none -> Bart ahead (countback).
    assert [(row.rank, row.full_name) for row in r.rows] == [
        (1, "Bart Smit"), (2, "Cees Bol"), (3, "Anna de Vries"), (4, "Dirk Mol")]


def test_tiebreak_more_tournaments_then_shared_rank():
    anna, bart, cees, dirk = person("Anna"), person("Bart"), person("Cees"), person("Dirk")
    # Field preset: field of 2 -> 2, 1. Anna: 1st of 2 (2) + 2nd of 2 (1) = 3; Bart: 1st of 3 = 3.
    t1 = finished_with_places({anna: 1, cees: 2})
    t2 = finished_with_places({dirk: 1, anna: 2})
    t3 = finished_with_places({bart: 1, cees: 2, dirk: 3})
    r = ranking(season([t1, t2, t3], preset=PointsPreset.FIELD))
    by = {row.full_name: row for row in r.rows}
    assert by["Anna"].total == 3 and by["Bart"].total == 3
    # Cees: 1 (2nd of 2) + 2 (2nd of 3) = 3; Dirk: 2 (1st of 2) + 1 (3rd of 3) = 3. All four 3.
    assert by["Cees"].total == 3 and by["Dirk"].total == 3
    # Best place: Anna, Bart, Dirk 1st; Cees 2nd -> last. Firsts: one each. Seconds: Anna one,
    # Bart none, Dirk none -> Anna first. Bart and Dirk: Dirk has a third; Bart none -> Dirk.
    assert [(row.rank, row.full_name) for row in r.rows] == [(1, "Anna"), (2, "Dirk"), (3, "Bart"), (4, "Cees")]


def test_equal_on_everything_share_the_rank_by_name():
    zoe, bob = person("Zoe"), person("Bob")
    t1 = finished_with_places({zoe: 1, bob: 1})
    r = ranking(season([t1]))
    # Both share 1st: (25 + 18) / 2 = 21.5 each; same rank, listed by name.
    assert [(row.rank, row.full_name, row.total) for row in r.rows] == [(1, "Bob", Fraction(43, 2)), (1, "Zoe", Fraction(43, 2))]


def test_running_tournament_is_provisional_and_not_counted(monkeypatch):
    anna, bart = person("Anna"), person("Bart")
    t1 = finished_with_places({anna: 2, bart: 1})
    t2 = finished_with_places({anna: 1, bart: 2}, status="running")
    r = ranking(season([t1, t2]))
    assert r.provisional == {t2.pk}
    by = {row.full_name: row for row in r.rows}
    # t2's final places are dropped when read live: running tournaments come from the standings.
    # Here t2 has no standings (no rounds), so nobody has a provisional result in it.
    assert by["Anna"].total == 18 and by["Bart"].total == 25
    assert [row.full_name for row in r.rows] == ["Bart", "Anna"]


def test_participation_points_beyond_the_table():
    people = [person(f"P{i:02d}") for i in range(12)]
    t1 = finished_with_places({p: i + 1 for i, p in enumerate(people)})
    r = ranking(season([t1], participation=1))
    by = {row.full_name: row.total for row in r.rows}
    assert by["P09"] == 1 and by["P10"] == 1 and by["P11"] == 1 and by["P00"] == 25
