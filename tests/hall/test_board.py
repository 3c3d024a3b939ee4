"""The progress board (issue 23 item 5, :mod:`scoring.hall.board`): states, attention order and a
fixed number of queries whatever the number of tables."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from scoring.hall import board, calls, zones
from scoring.kinds import kind_of
from scoring.models import Dispute
from scoring.results import sheet
from tests.factories import confirm_result, finish_result
from tests.hall.helpers import KINDS, RECORDS, TOTALS, hall_round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize("kind", KINDS)
def test_states_and_attention_order(kind):
    rnd, cs, people = hall_round(kind, tables=6)
    referee = people["referee"]
    # 1: playing, fresh; 2: confirmed; 3: playing, a side called a referee; 4: disputed;
    # 5: playing, stale (its last record 20 minutes ago); 6: not started.
    for c in (cs[0], cs[2], cs[4]):
        sheet.add_record(c, RECORDS[kind][0], referee)
    confirm_result(cs[1], people["referees"][1])
    finish_result(cs[3])
    Dispute.objects.create(**kind_of(cs[3]).audit_link(cs[3]), via_entrant="x", totals=[0, 0], version=1)
    calls.call(cs[2], referee)
    zones.set_zone(rnd, people["referees"][1], "5-6", people["organiser"])
    record_model = kind_of(cs[4]).record_model
    record_model.objects.filter(**{kind_of(cs[4]).record_fk: cs[4]}).update(
        created_at=timezone.now() - timedelta(minutes=board.STALE_MINUTES + 5))
    rows = board.rows(rnd)
    assert [r.number for r in rows] == [3, 4, 5, 6, 1, 2]
    by = {r.number: r for r in rows}
    assert by[3].attention == board.NEEDS_REFEREE and by[3].call is not None
    assert by[4].state == "disputed" and by[4].attention == board.DISPUTED
    assert by[5].attention == board.STALE and by[5].minutes_since >= board.STALE_MINUTES
    # Table 6 has no record while table 5 has been playing for 20 minutes: stale too.
    assert by[6].state == "not_started" and by[6].attention == board.STALE
    assert by[6].referee == people["referees"][1].username and not by[6].claimed
    assert by[1].state == "playing" and by[1].records == 1 and by[1].totals == TOTALS[kind][0]
    assert by[2].state == "confirmed" and not by[2].unfinished
    summary = board.summary(rows)
    assert summary["tables"] == 6 and summary["open"] == 5 and summary["calls"] == 1


def _queries(kind: str, tables: int) -> int:
    rnd, cs, people = hall_round(kind, tables=tables)
    for c in cs[::2]:
        sheet.add_record(c, RECORDS[kind][0], people["referee"])
    zones.set_zone(rnd, people["referee"], f"1-{tables}", people["organiser"])
    calls.call(cs[1], people["referee"])
    rnd.refresh_from_db()
    rnd.tournament  # noqa: B018 - loaded as the page has it
    with CaptureQueriesContext(connection) as ctx:
        rows = board.rows(rnd)
        board.state(rnd)
    assert len(rows) == tables
    return len(ctx.captured_queries)


@pytest.mark.parametrize("kind", KINDS)
def test_a_fixed_number_of_queries_whatever_the_number_of_tables(kind):
    assert _queries(kind, 8) == _queries(kind, 40) <= 6


def test_confirmed_tables_and_byes_sort_after_the_unfinished_ones():
    """Fix A4 of issue 23: what needs attention first, what is done (confirmed, byes) last."""
    from tests.factories import MatchFactory

    rnd, cs, people = hall_round("match", tables=3)
    MatchFactory(round=rnd, table=4, team_ew=None)  # a bye
    confirm_result(cs[0], people["referees"][1])  # table 1 confirmed
    sheet.add_record(cs[2], RECORDS["match"][0], people["referee"])  # table 3 playing, table 2 not started
    rows = board.rows(rnd)
    assert [r.number for r in rows] == [2, 3, 1, 4]
    assert [r.done for r in rows] == [False, False, True, True]


@pytest.mark.parametrize("kind", KINDS)
def test_a_call_on_a_finished_or_confirmed_table_or_in_a_closed_round_needs_no_referee(kind):
    """Fix A4 of issue 23: an unanswered call stops asking for a referee once its table is
    finished or confirmed, and when the round is closed."""
    from scoring.models import Round

    rnd, cs, people = hall_round(kind, tables=3)
    for c in cs:
        calls.call(c, people["referee"])
    finish_result(cs[0])
    confirm_result(cs[1], people["referees"][1])
    by = {r.number: r for r in board.rows(rnd)}
    assert by[1].call is None and by[2].call is None
    assert by[3].call is not None and by[3].attention == board.NEEDS_REFEREE
    assert board.summary(list(by.values()))["calls"] == 1
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.CLOSED)
    rnd.refresh_from_db()
    assert all(r.call is None and r.attention != board.NEEDS_REFEREE for r in board.rows(rnd))
