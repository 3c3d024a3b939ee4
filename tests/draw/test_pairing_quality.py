"""Pairing quality through the ORM (issue 23 item 8; scoring.draw.pairing): the tournament's round-1
method, club avoidance on and off with its notes, late entries ranked below equal teams that
played every round (shown in the note), and the rating carried by the CSV and JSON exports."""
from __future__ import annotations

import json

import pytest
from django.utils import translation

from scoring.draw import pairing, rounds
from scoring.io import entrants_csv
from scoring.io.tournament_json import dumps, export_tournament, import_tournament
from scoring.models import Round
from scoring.policy import SYSTEM
from tests.factories import TeamFactory, TournamentFactory, confirm_round, staff

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def make(names, **extra):
    """A Tai Pan tournament with teams ``names`` seeded 1, 2, ... in that order."""
    t = TournamentFactory(seed=5, **extra)
    return t, [TeamFactory(tournament=t, name=n, seed=i) for i, n in enumerate(names, start=1)]


def finish(rnd: Round) -> Round:
    """Publish, play (NS wins every match) and close ``rnd``."""
    crew = staff(rnd.tournament)
    if rnd.status == Round.Status.DRAFT:
        rounds.publish_round(rnd, SYSTEM)
    confirm_round(rnd, *crew["referees"])
    return rounds.close_round(rnd, SYSTEM)


def pairs(rnd: Round) -> list[tuple]:
    return [(m.team_ns.name, m.team_ew.name if m.team_ew else None)
            for m in rnd.matches.select_related("team_ns", "team_ew").order_by("table")]


def test_the_tournament_default_method_is_used():
    t, _teams = make(["A", "B", "C", "D", "E", "F"], first_round_method="fold")
    rnd = pairing.pair_next_round(t, SYSTEM)
    assert pairs(rnd) == [("A", "F"), ("B", "E"), ("C", "D")]
    assert rnd.matches.first().pairing_reason_text() == "Round 1: by seed numbers, fold (1 v n)"
    rnd = pairing.repair_draft(rnd, SYSTEM, method="seeded")  # the page's choice wins
    assert pairs(rnd) == [("A", "D"), ("B", "E"), ("C", "F")]


def test_club_avoidance_is_a_tournament_setting():
    t, teams = make(["A", "B", "C", "D"])
    for team in (teams[0], teams[2]):
        team.affiliation = "Asopos"
        team.save()
    rnd = pairing.pair_next_round(t, SYSTEM, method="seeded")  # slide would be A v C
    assert pairs(rnd) == [("A", "D"), ("B", "C")]
    t.avoid_same_club = False
    t.save()
    assert pairs(pairing.repair_draft(rnd, SYSTEM, method="seeded")) == [("A", "C"), ("B", "D")]


def test_an_unavoidable_club_meeting_is_named_in_the_note():
    t, teams = make(["A", "B", "C", "D"])
    for team in teams[:2]:
        team.affiliation = "Asopos"
        team.save()
    # round 1 by seed: A v C, B v D; NS wins: A and B are the only teams with 2 match points
    finish(pairing.pair_next_round(t, SYSTEM, method="seeded"))
    rnd = pairing.pair_next_round(t, SYSTEM)
    assert pairs(rnd) == [("A", "B"), ("C", "D")]
    assert rnd.matches.get(table=1).pairing_reason_text() == (
        "Same score group (2 match points) · Both teams are of Asopos: no swap avoids it without a rematch or another "
        "float.")


def test_a_late_entry_ranks_below_equal_teams_and_the_note_says_so():
    t, teams = make(["A", "B", "C", "D"])
    finish(pairing.pair_next_round(t, SYSTEM, method="seeded"))  # A, B 2 points; C, D 0
    TeamFactory(tournament=t, name="Late", joined_round=2)
    rnd = pairing.pair_next_round(t, SYSTEM)
    # 0 points: C, D (played every round), then Late: the bye goes to the lowest-ranked team
    bye = rnd.matches.get(team_ew=None)
    assert bye.team_ns.name == "Late"
    assert bye.pairing_reason_text() == (
        "Bye: lowest-ranked team without a bye so far (0 match points) · Late joined late: ranked below the teams "
        "with the same match points that played every round.")


def test_a_wrong_method_is_refused():
    from scoring.errors import NotAllowed

    t, _teams = make(["A", "B"])
    with pytest.raises(NotAllowed, match="Unknown round 1 pairing method: swiss"):
        pairing.pair_next_round(t, SYSTEM, method="swiss")
    assert not t.rounds.exists()


def test_rating_and_settings_travel_in_the_exports():
    t, teams = make(["A", "B"], first_round_method="rating", avoid_same_club=False)
    teams[0].rating = 1850
    teams[0].save()
    ds = entrants_csv.entrants_dataset(t, entrants_csv.TEAMS)
    column = ds.headers.index("rating")  # the federation numbers (issue 26) come after it
    assert [row[column] for row in ds] == [1850, ""]
    data = json.loads(dumps(export_tournament(t)))
    assert data["first_round_method"] == "rating" and data["avoid_same_club"] is False
    assert data["teams"][0]["rating"] == 1850 and "rating" not in data["teams"][1]
    data["slug"] = "copy"
    copy = import_tournament(data)
    assert (copy.first_round_method, copy.avoid_same_club) == ("rating", False)
    assert sorted(copy.teams.values_list("name", "rating")) == [("A", 1850), ("B", None)]
