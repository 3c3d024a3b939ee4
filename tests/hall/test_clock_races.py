"""Races on the round clock (issue 23, acceptance: "two organisers extending/pausing the clock"), on
PostgreSQL: two organisers act on the same clock at the same moment, released together by a
barrier (:func:`tests.race.race`), each in its own thread and database connection, at least
:data:`TRIES` times per race, the invariant checked after every try.

Each organiser passes the version their page showed before the barrier, as the page's buttons and
the API do. The service locks the clock's row and checks that version inside the lock
(:mod:`scoring.hall.clock`), so of two actions made from the same version exactly one is
acknowledged and the other is refused with a clear message.

Invariants: the clock's time is the start's time plus the sum of the acknowledged actions (two
"+5 min" from the same version never add 10 minutes nobody saw; a retry from the new version does);
every refusal names what happened ("changed by someone else"); the version counts the acknowledged
actions; two first presses of "Start" make one clock.
"""
from __future__ import annotations

import os
from collections import Counter
from datetime import timedelta

import pytest
from django.db import connection
from django.utils import timezone

from scoring.errors import StaleVersion
from scoring.hall import clock
from scoring.models import Round, RoundClock
from tests.factories import RoundFactory, staff, taipan_round
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Tries per race: at least 50, more with RACE_TRIES=N for a longer run.
TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))
STALE = "changed by someone else"


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"


@pytest.fixture
def world():
    rnd, _ = taipan_round(round_minutes=60)
    people = staff(rnd.tournament, organisers=2)
    return rnd, people["organisers"]


def report(name: str, counts: Counter) -> None:
    print(f"\n{name}: {TRIES} tries, " + ", ".join(f"{k} {v}" for k, v in sorted(counts.items())) + ", 0 violations")


def set_clock(rnd: Round, status: str, *, left: timedelta) -> RoundClock:
    """Put the round's clock in ``status`` with ``left`` to go (a new version each time)."""
    c, _ = RoundClock.objects.get_or_create(round=rnd)
    c.status = status
    c.version += 1
    if status == "running":
        c.ends_at, c.remaining = timezone.now() + left, timedelta(0)
    else:
        c.ends_at, c.remaining = None, left
    c.save()
    return c


def refusals(outcomes) -> list[str]:
    out = []
    for o in outcomes:
        if not o.ok:
            assert isinstance(o.error, StaleVersion) and STALE in str(o.error), repr(o.error)
            out.append(str(o.error))
    return out


@pytest.mark.parametrize("status", ["running", "paused"])
def test_two_organisers_extending_from_the_same_version_add_five_minutes_once(world, status):
    rnd, (a, b) = world
    counts = Counter()
    for _ in range(TRIES):
        seen = set_clock(rnd, status, left=timedelta(minutes=20))
        outcomes = race(lambda v=seen.version: clock.extend(rnd, a, minutes=5, version=v),
                        lambda v=seen.version: clock.extend(rnd, b, minutes=5, version=v))
        accepted = sum(o.ok for o in outcomes)
        assert accepted == 1 and len(refusals(outcomes)) == 1
        after = RoundClock.objects.get(pk=seen.pk)
        assert after.version == seen.version + accepted
        if status == "running":
            assert after.ends_at == seen.ends_at + timedelta(minutes=5) * accepted
        else:
            assert after.remaining == seen.remaining + timedelta(minutes=5) * accepted
        counts["one extension, one refusal"] += 1
    report(f"extend vs extend ({status})", counts)


def test_two_organisers_who_retry_from_what_they_see_add_ten_minutes_both_seen(world):
    rnd, (a, b) = world
    counts = Counter()

    def press(who):
        version = RoundClock.objects.get(round=rnd).version  # what the page shows now
        try:
            clock.extend(rnd, who, minutes=5, version=version)
            return "first"
        except StaleVersion:
            clock.extend(rnd, who, minutes=5, version=RoundClock.objects.get(round=rnd).version)  # reload, press again
            return "after reload"

    for _ in range(TRIES):
        seen = set_clock(rnd, "running", left=timedelta(minutes=20))
        outcomes = race(lambda: press(a), lambda: press(b))
        assert all(o.ok for o in outcomes)
        after = RoundClock.objects.get(pk=seen.pk)
        assert after.ends_at == seen.ends_at + timedelta(minutes=10) and after.version == seen.version + 2
        counts[" / ".join(sorted(o.value for o in outcomes))] += 1
    report("extend, reload, extend", counts)


def test_two_organisers_pausing_pause_once(world):
    rnd, (a, b) = world
    counts = Counter()
    for _ in range(TRIES):
        seen = set_clock(rnd, "running", left=timedelta(minutes=20))
        before = timezone.now()
        outcomes = race(lambda v=seen.version: clock.pause(rnd, a, version=v),
                        lambda v=seen.version: clock.pause(rnd, b, version=v))
        assert sum(o.ok for o in outcomes) == 1 and len(refusals(outcomes)) == 1
        after = RoundClock.objects.get(pk=seen.pk)
        assert after.status == "paused" and after.version == seen.version + 1
        # What was left at the moment of the acknowledged pause.
        assert seen.ends_at - timezone.now() <= after.remaining <= seen.ends_at - before
        counts["one pause, one refusal"] += 1
    report("pause vs pause", counts)


def test_extend_vs_pause_exactly_one_is_acknowledged_and_the_clock_shows_it(world):
    rnd, (a, b) = world
    counts = Counter()
    for _ in range(TRIES):
        seen = set_clock(rnd, "running", left=timedelta(minutes=20))
        before = timezone.now()
        extend, pause = race(lambda v=seen.version: clock.extend(rnd, a, minutes=5, version=v),
                             lambda v=seen.version: clock.pause(rnd, b, version=v))
        assert extend.ok + pause.ok == 1 and len(refusals([extend, pause])) == 1
        after = RoundClock.objects.get(pk=seen.pk)
        assert after.version == seen.version + 1
        if extend.ok:
            assert after.status == "running" and after.ends_at == seen.ends_at + timedelta(minutes=5)
            counts["extend won"] += 1
        else:
            assert after.status == "paused" and seen.ends_at - timezone.now() <= after.remaining <= seen.ends_at - before
            counts["pause won"] += 1
    report("extend vs pause", counts)


def test_two_first_starts_make_one_clock(world):
    rnd, (a, b) = world
    counts = Counter()
    for i in range(TRIES):
        fresh = RoundFactory(tournament=rnd.tournament, number=10 + i, status=Round.Status.PUBLISHED)
        outcomes = race(lambda r=fresh: clock.start(r, a, version=0), lambda r=fresh: clock.start(r, b, version=0))
        assert sum(o.ok for o in outcomes) == 1 and len(refusals(outcomes)) == 1
        (made,) = RoundClock.objects.filter(round=fresh)
        assert made.status == "running" and made.version == 1
        counts["one start"] += 1
    report("start vs start (no clock yet)", counts)
