"""Import/export (scoring.io.transfer): tournament JSON round trip (byte-identical), teams CSV
with a row-by-row report and all-or-nothing import, standings/pairings as CSV and XLSX."""
from __future__ import annotations

import io as _io

import pytest
import tablib
from django.utils import translation

from engines.errors import RuleViolation
from scoring.errors import ServiceError
from scoring.io import transfer as io
from scoring.models import Confirmation, Match, Round, Team, Tournament
from scoring.results import matches as results
from tests.test_results_service import DV_NS_GRAND, TP_N_75, make_tournament

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


@pytest.fixture
def played(django_user_model):
    """A 3-team tournament: round 1 with a finished+confirmed match, a bye, and round 2 with a
    match ended at the time limit."""
    ref = django_user_model.objects.create(username="ref")
    conf = django_user_model.objects.create(username="conf")
    t, teams, r1 = make_tournament(3, slug="io", tiebreaks=["buchholz", "wins"])
    Team.objects.filter(pk=teams[2].pk).update(affiliation="Asopos", seed=3, withdrawn_after_round=2)
    m1 = Match.objects.create(round=r1, table=1, team_ns=teams[0], team_ew=teams[1], pairing_note="Round 1")
    for rec in (DV_NS_GRAND, DV_NS_GRAND):
        results.add_hand(m1, rec, ref)
    results.confirm_match(m1, conf)
    bye = Match.objects.create(round=r1, table=2, team_ns=teams[2])
    results.recompute_match(bye)
    r2 = Round.objects.create(tournament=t, number=2, status=Round.Status.PUBLISHED)
    m2 = Match.objects.create(round=r2, table=1, team_ns=teams[2], team_ew=teams[0])
    results.add_hand(m2, TP_N_75, ref)
    results.end_match_at_time(m2, ref)
    return t


def test_export_layout(played):
    data = io.export_tournament(played)
    assert {"name", "slug", "game", "rules", "teams", "rounds"} <= set(data)
    assert data["teams"][0] == {"name": "Team 0", "players": ["P0a", "P0b"], "affiliation": "", "seed": None,
                                "joined_round": 1, "withdrawn_after_round": None}
    r1 = data["rounds"][0]
    assert r1["number"] == 1
    m1, bye = r1["matches"]
    assert (m1["table"], m1["ns"], m1["ew"], m1["ended"], m1["confirmed_by"]) == (1, "Team 0", "Team 1", "target", "conf")
    assert m1["hands"] == [DV_NS_GRAND, DV_NS_GRAND]
    assert (bye["ew"], bye["hands"], bye["ended"]) == (None, [], None)
    assert data["rounds"][1]["matches"][0]["ended"] == "time"


def test_export_import_export_is_byte_identical(played):
    first = io.dumps(io.export_tournament(played))
    io.delete_tournament(played)
    copy = io.import_tournament(__import__("json").loads(first))
    assert io.dumps(io.export_tournament(copy)) == first
    m1 = Match.objects.get(round__tournament=copy, round__number=1, table=1)
    assert (m1.total_ns, m1.total_ew, m1.status, m1.points_ns) == (800, 0, "confirmed", 2)
    assert Confirmation.objects.get(match=m1).totals == {"NS": 800, "EW": 0}
    m2 = Match.objects.get(round__tournament=copy, round__number=2)
    assert (m2.status, m2.ended, m2.total_ns, m2.winner_id) == ("finished", "time", 175, m2.team_ns_id)
    assert Team.objects.get(tournament=copy, name="Team 2").withdrawn_after_round == 2


def test_import_refuses_bad_data_and_saves_nothing(played):
    data = io.export_tournament(played)
    with pytest.raises(ServiceError):
        io.import_tournament(data)  # slug exists
    data["rounds"][0]["matches"][0]["hands"][0]["card_points"] = {"NS": 55, "EW": 55}
    with pytest.raises(RuleViolation):
        io.import_tournament(data, slug="other")
    data = io.export_tournament(played)
    data["rounds"][1]["matches"][0]["ew"] = "Nobody"
    with pytest.raises(ServiceError):
        io.import_tournament(data, slug="other")
    assert not Tournament.objects.filter(slug="other").exists()


CSV_OK = "name,player1,player2,affiliation,seed\nDraken,Anna,Bram,Asopos,1\nJade,Eva,Floris,Augustinus,\n"


def test_teams_csv_import():
    t = Tournament.objects.create(name="c", slug="c")
    report = io.import_teams_csv(t, CSV_OK.encode())
    assert report.ok and report.created == 2
    draken = Team.objects.get(tournament=t, name="Draken")
    assert (draken.player_names, draken.affiliation, draken.seed) == ("Anna & Bram", "Asopos", 1)


def test_teams_csv_semicolons_and_dutch_headers():
    t = Tournament.objects.create(name="c", slug="c")
    report = io.import_teams_csv(t, "\ufeffTeamnaam;Speler 1;Speler 2;Vereniging\nZwaarden;Iris;Joris;Vindicat\n".encode())
    assert report.ok and Team.objects.get(tournament=t).name == "Zwaarden"


def test_teams_csv_row_errors_import_nothing():
    t = Tournament.objects.create(name="c", slug="c")
    io.import_teams_csv(t, b"name,player1,player2\nDraken,A,B\n")
    bad = ("name,player1,player2,seed\n"
           "Jade,Eva,Floris,1\n"      # line 2 fine
           "Draken,X,Y,\n"            # line 3 exists already
           "Sterren,,Lars,2\n"        # line 4 player1 missing
           "Jade,Q,R,x\n")            # line 5 duplicate in file, bad seed
    report = io.import_teams_csv(t, bad.encode())
    assert not report.ok and report.created == 0
    assert [(row, col) for row, col, _ in report.errors] == [(3, "name"), (4, "player1"), (5, "name"), (5, "seed")]
    assert "line 2" in report.errors[2][2]
    assert Team.objects.filter(tournament=t).count() == 1
    report = io.import_teams_csv(t, b"team,speler1\nA,B\n")
    assert report.errors[0][:2] == (1, "player2")


def test_datasets_csv_and_xlsx(played):
    ds = io.standings_dataset(played)
    assert ds.headers[:4] == ["Rank", "Team", "Players", "Affiliation"] and "Number of wins" in ds.headers
    csv = ds.export("csv")
    assert csv.splitlines()[1].startswith("1,Team 2,P2a & P2b,Asopos,2,2,0,0,1,4")
    xlsx = ds.export("xlsx")
    back = tablib.Dataset().load(_io.BytesIO(xlsx), format="xlsx")
    assert back[0][1] == "Team 2"
    pairs = io.pairings_dataset(Round.objects.get(tournament=played, number=1))
    assert pairs.headers[0] == "Table"
    assert pairs[0][:5] == (1, "Team 0", "P0a & P0b", "Team 1", "P1a & P1b")
    assert pairs[1][3] == "bye"
    assert pairs.export("xlsx")[:2] == b"PK"


def test_teams_csv_late_entries_join_an_unpaired_round(played):
    """As on the team form: after rounds were paired a team joins the next unpaired round at the
    earliest; an empty joined_round means that round."""
    t = played
    first_open = t.rounds.order_by("-number").first().number + 1
    report = io.import_teams_csv(t, f"name,player1,player2,joined_round\nLaat,A,B,{first_open - 1}\n".encode())
    assert not report.ok and report.errors[0][:2] == (2, "joined_round")
    report = io.import_teams_csv(t, b"name,player1,player2\nLaat,A,B\n")
    assert report.ok
    assert t.teams.get(name="Laat").joined_round == first_open
