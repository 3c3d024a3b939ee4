"""A write evaluates the whole result once (issue "One answer to each question in the code": the
old sheet evaluated it two or three times per write). Counted by wrapping the game adapter's
``evaluate``: adding, editing, deleting, ending and resuming evaluate the whole result once;
confirming and disputing evaluate nothing (the records did not change). A four-player edit of a
later deal also evaluates the deals before it, once, for the state carried into it."""
from __future__ import annotations

import pytest

from scoring.results import sheet
from tests.factories import PLAIN_HAND, SICHUAN_SELF_DRAW, staff, table_round, taipan_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def count(monkeypatch):
    """``count(container)``: a list that grows by one at every whole-result evaluation of its game."""

    def install(container):
        adapter = type(container.round.tournament.adapter)
        original = adapter.evaluate
        calls = []

        def evaluate(self, records, settings, **kwargs):
            calls.append(len(records))
            return original(self, records, settings, **kwargs)

        monkeypatch.setattr(adapter, "evaluate", evaluate)
        return calls

    return install


def test_every_write_of_a_match_evaluates_it_once(count):
    rnd, (m,) = taipan_round()
    people = staff(rnd.tournament)
    referee, other = people["referees"]
    calls = count(m)
    for _ in range(3):
        sheet.add_record(m, PLAIN_HAND, referee, expected_version=m.version)
    assert calls == [1, 2, 3]
    calls.clear()
    sheet.edit_record(m, 2, PLAIN_HAND, referee, expected_version=m.version, reason="typo")
    sheet.delete_record(m, 3, referee, expected_version=m.version, reason="wrong table")
    sheet.end_at_time(m, referee, expected_version=m.version, reason="time")
    assert calls == [3, 2, 2]
    calls.clear()
    sheet.confirm(m, other, expected_version=m.version)
    assert calls == []


def test_a_table_is_evaluated_once_per_added_deal(count):
    rnd, (t,) = table_round("sichuan")
    referee = staff(rnd.tournament)["referee"]
    calls = count(t)
    for _ in range(3):
        sheet.add_record(t, SICHUAN_SELF_DRAW, referee, expected_version=t.version)
    assert calls == [1, 2, 3]
    calls.clear()
    sheet.edit_record(t, 3, SICHUAN_SELF_DRAW, referee, expected_version=t.version, reason="typo")
    assert calls == [2, 3]  # the two deals before it (the state carried into deal 3), then the whole table
