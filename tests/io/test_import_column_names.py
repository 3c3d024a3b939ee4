"""A CSV import's errors name the column as the file's header spelled it (issue 23 item 10): a
file with Dutch headers ("speler2") gets "speler2" in the error, never the internal key
"player2"; English headers keep theirs, spelled as in the file."""
from __future__ import annotations

import pytest
from django.utils import translation

from scoring.io.entrants_csv import import_players_csv, import_teams_csv
from scoring.models import Team
from tests.factories import TeamFactory, TournamentFactory

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def english():
    with translation.override("en"):
        yield


def test_dutch_headers_named_in_errors():
    t = TournamentFactory()
    text = "teamnaam;speler1;speler2;vereniging\nDraken;Anna;;Asopos\nJade;Eva;Floris;" + "V" * 121 + "\n"
    report = import_teams_csv(t, text.encode())
    assert [(line, column) for line, column, _ in report.errors] == [(2, "speler2"), (3, "vereniging")]
    assert Team.objects.filter(tournament=t).count() == 0


def test_header_spelling_kept_as_in_the_file():
    t = TournamentFactory()
    TeamFactory(tournament=t, name="Draken")
    report = import_teams_csv(t, b"Team Name,Speler 1,Speler 2\nDRAKEN,Anna,Bram\n")
    assert [(line, column) for line, column, _ in report.errors] == [(2, "Team Name")]


def test_players_file_with_dutch_header():
    t = TournamentFactory(game="sichuan")
    report = import_players_csv(t, b"naam;vanaf ronde\nAnna;nul\n")
    assert [column for _, column, _ in report.errors] == ["vanaf ronde"]


def test_a_column_given_twice_names_both_spellings():
    report = import_teams_csv(TournamentFactory(), b"naam,speler1,speler2,teamnaam\nA,B,C,D\n")
    assert "naam / teamnaam" in report.errors[0][2]
