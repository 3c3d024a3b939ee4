"""Referee zones and claims (issue 23 item 4, :mod:`scoring.hall.zones`), and calls for a
referee (:mod:`scoring.hall.calls`)."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from scoring.errors import NotAllowed, ServiceError
from scoring.hall import calls, zones
from scoring.models import RefereeCall
from scoring.participants import links
from scoring.policy import EntrantActor
from tests.hall.helpers import hall_round

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("text", "numbers"), [
    ("1-10, 14, 20-22", [*range(1, 11), 14, 20, 21, 22]),
    (" 3 , 1,2 ", [1, 2, 3]),
    ("5 - 7,5", [5, 6, 7]),
    ("", []),
])
def test_parse_tables_reads_ranges_and_lists(text, numbers):
    assert zones.parse_tables(text, 22) == numbers


@pytest.mark.parametrize(("text", "message"), [
    ("0-3", "There is no table 0"),
    ("1-23", "This round has 22 tables: there is no table 23."),
    ("10-1", "runs backwards"),
    ("1, x", "is not a table number"),
    ("1--3", "is not a table number"),
    # Fix A6 of issue 23: only numbers, dashes and commas (docs/hall.md), not "1;2" or "1 2".
    ("1;2", "“1;2” is not a table number or a range like 1-10: write numbers and ranges separated by commas"),
    ("3, 1 2", "“1 2” is not a table number"),
])
def test_parse_tables_says_what_is_wrong_on_the_field(text, message):
    with pytest.raises(ServiceError, match=message) as info:
        zones.parse_tables(text, 22)
    assert info.value.field == "tables"


def test_format_tables_writes_short_ranges():
    assert zones.format_tables([8, 1, 2, 3, 5, 7]) == "1-3, 5, 7-8"


@pytest.mark.parametrize("kind", ["match", "table"])
def test_zones_replace_refuse_overlaps_unless_taken_over(kind):
    rnd, _containers, people = hall_round(kind, tables=6)
    anna, bert = people["referees"]
    organiser = people["organiser"]
    assert zones.set_zone(rnd, anna, "1-4", organiser) == [1, 2, 3, 4]
    with pytest.raises(NotAllowed, match=f"Table\\(s\\) 3-4 are already in the zone of {anna.username}") as info:
        zones.set_zone(rnd, bert, "3-6", organiser)
    assert info.value.field == "tables"
    assert zones.set_zone(rnd, bert, "3-6", organiser, take_over=True) == [3, 4, 5, 6]
    assert zones.zones(rnd) == {anna.pk: [1, 2], bert.pk: [3, 4, 5, 6]}
    assert zones.set_zone(rnd, anna, "", organiser) == []
    assert zones.tables_of(rnd, anna) == []


def test_only_organisers_set_zones_and_only_for_referees():
    rnd, _containers, people = hall_round("match", tables=2)
    with pytest.raises(PermissionDenied):
        zones.set_zone(rnd, people["referee"], "1", people["head"])
    with pytest.raises(NotAllowed, match="Only a referee"):
        zones.set_zone(rnd, people["outsider"], "1", people["organiser"])
    assert zones.set_zone(rnd, people["head"], "1", people["organiser"]) == [1]


def test_a_claim_moves_the_table_and_answers_its_call():
    rnd, (m1, _m2), people = hall_round("match", tables=2)
    anna, bert = people["referees"]
    zones.set_zone(rnd, anna, "1-2", people["organiser"])
    side = EntrantActor(links.link_for(m1.team_ns))
    call, created = calls.call(m1, side)
    assert created and call.via_entrant == m1.team_ns.name and call.table == 1
    assert calls.call(m1, side) == (call, False)  # a second tap: the same open call
    assignment = zones.claim(rnd, 1, bert)
    assert assignment.claimed and assignment.referee == bert
    assert zones.zones(rnd) == {anna.pk: [2], bert.pk: [1]}
    call.refresh_from_db()
    assert call.answered_by == bert and calls.open_call(m1) is None
    with pytest.raises(NotAllowed, match="no table 3"):
        zones.claim(rnd, 3, bert)
    with pytest.raises(PermissionDenied):
        zones.claim(rnd, 1, people["outsider"])


def test_only_the_sides_and_referees_call_and_referees_answer():
    rnd, (m1, m2), people = hall_round("match", tables=2)
    other = EntrantActor(links.link_for(m2.team_ns))
    with pytest.raises(PermissionDenied):
        calls.call(m1, other)
    with pytest.raises(PermissionDenied):
        calls.call(m1, people["outsider"])
    calls.call(m1, people["referee"])
    with pytest.raises(PermissionDenied):
        calls.answer(rnd, 1, other)
    assert calls.answer(rnd, 1, people["head"]) == 1
    assert not RefereeCall.objects.filter(answered_at=None).exists()
