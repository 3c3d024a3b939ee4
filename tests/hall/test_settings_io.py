"""The round clock's settings (issue 23 item 1) travel with the tournament: the JSON export writes
them when they differ from the defaults (90 minutes, a warning 10 minutes before the end; files of
other tournaments stay as they were), the import reads them back and refuses values out of range."""
from __future__ import annotations

import json

import pytest

from scoring.io.tournament_json import ImportRefused, dumps, export_tournament, load_tournament
from tests.factories import TournamentFactory

pytestmark = pytest.mark.django_db


def test_default_clock_settings_are_left_out_of_the_export():
    data = export_tournament(TournamentFactory(slug="plain"))
    assert "round_minutes" not in data and "clock_warning_minutes" not in data


def test_clock_settings_round_trip_through_the_json():
    t = TournamentFactory(slug="timed", round_minutes=75, clock_warning_minutes=0)
    text = dumps(export_tournament(t))
    data = json.loads(text)
    assert (data["round_minutes"], data["clock_warning_minutes"]) == (75, 0)
    copy = load_tournament(text, slug="timed-copy").tournament
    assert (copy.round_minutes, copy.clock_warning_minutes) == (75, 0)
    assert dumps(export_tournament(copy)) == text.replace('"slug": "timed"', '"slug": "timed-copy"')


@pytest.mark.parametrize(("field", "value"), [("round_minutes", 0), ("round_minutes", 601), ("round_minutes", "90"),
                                              ("clock_warning_minutes", -1), ("clock_warning_minutes", 601)])
def test_out_of_range_clock_settings_are_refused(field, value):
    data = export_tournament(TournamentFactory(slug="src"))
    data[field] = value
    with pytest.raises(ImportRefused) as err:
        load_tournament(json.dumps(data), slug="bad")
    assert field in str(err.value.args) or field in repr(err.value.__dict__)
