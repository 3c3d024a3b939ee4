"""Race: time's up vs a hand (deal) being saved at the same moment (issue 23 item 2), on
PostgreSQL, released together by a barrier (:func:`tests.race.race`), at least :data:`TRIES` times
per kind of result; the invariant is checked after every try:

- either the record is saved and the ended result's totals include it (the end came after it),
- or the save is refused with "Time is up for this round: the result was ended at the time
  limit ..." and the totals are those without it;
- never half: the stored records are exactly the acknowledged ones, the result is ended at the
  time limit, and the audit has exactly one ``end`` entry per table (the other table, without
  records, is ended too).

And two organisers calling time's up at the same moment make one call (the other is refused).
"""
from __future__ import annotations

import os
from collections import Counter

import pytest
from django.db import connection

from scoring.errors import Locked, NotAllowed
from scoring.hall import times_up
from scoring.kinds import kind_of
from scoring.models import AuditEntry, ResultContainer, RoundClock, TimesUp
from scoring.results import sheet
from tests.hall.helpers import KINDS, RECORDS, TOTALS, hall_round
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))
MESSAGE = "Time is up for this round: the result was ended at the time limit"


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"


def reload(obj):
    return type(obj).objects.get(pk=obj.pk)


def _try(kind: str) -> str:
    rnd, (playing, empty), people = hall_round(kind, tables=2)
    referee, organiser = people["referee"], people["organiser"]
    sheet.add_record(playing, RECORDS[kind][0], referee, expected_version=playing.version)
    seen = playing.version
    end, save = race(
        lambda: times_up.call(reload(rnd), reload(organiser)),
        lambda: sheet.add_record(reload(playing), RECORDS[kind][1], reload(referee), expected_version=seen),
    )
    assert end.ok, f"time's up was refused: {end.error!r}"
    assert end.value.ended == [1, 2]
    result_kind = kind_of(playing)
    playing.refresh_from_db()
    assert playing.status == ResultContainer.Status.FINISHED and playing.ended == playing.Ended.TIME
    records = result_kind.records(playing)
    if save.ok:
        assert len(records) == 2
        expected = [a + b for a, b in zip(TOTALS[kind][0], TOTALS[kind][1], strict=True)]
        outcome = "saved, then ended"
    else:
        assert isinstance(save.error, Locked), save.error
        assert str(save.error).startswith(MESSAGE), str(save.error)
        assert len(records) == 1
        expected = TOTALS[kind][0]
        outcome = "ended, save refused"
    assert result_kind.totals(playing) == expected
    for c in (playing, empty):
        entries = AuditEntry.objects.filter(action=AuditEntry.Action.END, **result_kind.audit_link(c))
        assert [e.reason for e in entries] == ["Time's up (round 1)"]
    # The end's audit value holds the totals it ended with (the saved record counted or not).
    entry = AuditEntry.objects.get(action=AuditEntry.Action.END, **result_kind.audit_link(playing))
    assert result_kind.snapshot_totals(entry.new) == expected
    return outcome


@pytest.mark.parametrize("kind", KINDS)
def test_times_up_vs_a_save_the_record_is_in_or_refused_never_half(kind):
    counts = Counter(_try(kind) for _ in range(TRIES))
    print(f"\ntime's up vs save ({kind}): {TRIES} tries, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
          + ", 0 violations")


def _try_two_calls() -> str:
    """Two organisers call time's up at the same moment (one without grace, one with 5 minutes):
    exactly one call is made, the other is refused with "already called"; the tables are ended
    once (or not yet, when the call with grace won) and the clock was set once."""
    rnd, (m1, m2), people = hall_round("match", tables=2)
    organiser = people["organiser"]
    now_call, grace_call = race(
        lambda: times_up.call(reload(rnd), reload(organiser)),
        lambda: times_up.call(reload(rnd), reload(organiser), grace_minutes=5),
    )
    assert [now_call.ok, grace_call.ok].count(True) == 1, (now_call.error, grace_call.error)
    loser = grace_call if now_call.ok else now_call
    assert isinstance(loser.error, NotAllowed) and "already called" in str(loser.error), loser.error
    stored = TimesUp.objects.get(round=rnd)
    ends = sum(AuditEntry.objects.filter(action=AuditEntry.Action.END, **kind_of(c).audit_link(c)).count()
               for c in (m1, m2))
    clock = RoundClock.objects.get(round=rnd)
    assert clock.version == 1 and clock.status == RoundClock.Status.RUNNING
    if now_call.ok:
        assert stored.applied and stored.ended == [1, 2] and stored.grace_minutes == 0 and ends == 2
        assert clock.ends_at <= stored.applied_at
        return "ended now, grace refused"
    assert not stored.applied and stored.grace_minutes == 5 and ends == 0
    assert clock.ends_at == stored.grace_until
    return "grace, end now refused"


def test_two_organisers_calling_times_up_at_once_make_one_call():
    counts = Counter(_try_two_calls() for _ in range(TRIES))
    print(f"\ntwo time's up calls: {TRIES} tries, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items()))
          + ", 0 violations")
