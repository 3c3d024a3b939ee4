"""Races on the state counters (issue 25 item 4), on PostgreSQL: two writers bump the same
tournament's counters at the same moment, released together by a barrier
(:func:`tests.race.race`), each in its own thread, transaction and database connection, at least
:data:`TRIES` times. ``UPDATE ... SET x = x + 1`` under the row lock never loses an increment,
also when neither transaction finds the counters row yet (both make it: one wins, the other
counts on its row)."""
from __future__ import annotations

import os

import pytest
from django.db import connection, transaction

from scoring.live import state
from scoring.models import LiveRound, LiveState, Round
from tests.factories import TournamentFactory
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Tries per race: at least 50, more with RACE_TRIES=N for a longer run.
TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"


def bump(tournament_id: int):
    def write():
        with transaction.atomic():
            state.bump(tournament_id, state.STANDINGS, state.HALL, state.round_topic(1))
    return write


def test_two_bumps_at_once_both_count():
    t = TournamentFactory()
    rnd = Round.objects.create(tournament=t, number=1)
    start = LiveState.objects.get(pk=t.pk)
    page = LiveRound.objects.get(pk=rnd.pk).version
    for _ in range(TRIES):
        outcomes = race(bump(t.pk), bump(t.pk))
        assert all(o.ok for o in outcomes)
    now = LiveState.objects.get(pk=t.pk)
    assert now.standings_version - start.standings_version == 2 * TRIES
    assert now.hall_version - start.hall_version == 2 * TRIES
    assert LiveRound.objects.get(pk=rnd.pk).version - page == 2 * TRIES
    assert now.epoch == start.epoch


def test_two_first_bumps_make_one_row_and_both_count():
    for _ in range(TRIES):
        t = TournamentFactory()
        rnd = Round.objects.bulk_create([Round(tournament=t, number=1)])[0]  # no signal: no counters yet
        assert not LiveState.objects.filter(pk=t.pk).exists() and not LiveRound.objects.filter(pk=rnd.pk).exists()
        outcomes = race(bump(t.pk), bump(t.pk))
        assert all(o.ok for o in outcomes)
        row = LiveState.objects.get(pk=t.pk)
        assert (row.standings_version, row.hall_version) == (2, 2)
        assert LiveRound.objects.get(pk=rnd.pk).version == 2
