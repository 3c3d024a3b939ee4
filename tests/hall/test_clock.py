"""The round clock's services (:mod:`scoring.hall.clock`, docs/hall.md "Round clock", issue 23 item
1): start, pause, resume and extend by organisers only, each checking the version the organiser saw;
the server's time is the truth (the remaining time is computed from ``ends_at`` while running)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from scoring.errors import NotAllowed, ServiceError, StaleVersion
from scoring.hall import clock
from scoring.models import Round, RoundClock
from tests.factories import RoundFactory, staff, taipan_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    rnd, _matches = taipan_round(round_minutes=60, clock_warning_minutes=5)
    return rnd, staff(rnd.tournament)


def left(rnd: Round) -> float:
    return clock.state(RoundClock.objects.get(round=rnd))["remaining"]


def test_an_untouched_clock_is_idle_with_the_tournaments_round_length_and_warning(world):
    rnd, _people = world
    state = clock.state(clock.clock_of(rnd))
    assert (state["status"], state["remaining"], state["warning"], state["version"]) == ("idle", 3600, 300, 0)
    assert not state["times_up"] and not state["warning_on"]


def test_start_runs_the_clock_from_the_round_length_and_the_end_is_stored(world):
    rnd, people = world
    before = timezone.now()
    c = clock.start(rnd, people["organiser"], version=0)
    assert c.status == "running" and c.version == 1
    assert before + timedelta(minutes=60) <= c.ends_at <= timezone.now() + timedelta(minutes=60)
    assert 3599 <= left(rnd) <= 3600


def test_pause_keeps_what_is_left_and_resume_runs_on_from_it(world):
    rnd, people = world
    org = people["organiser"]
    c = clock.start(rnd, org, version=0)
    RoundClock.objects.filter(pk=c.pk).update(ends_at=timezone.now() + timedelta(minutes=20))  # 40 minutes played
    c = clock.pause(rnd, org, version=1)
    assert c.status == "paused" and c.ends_at is None
    assert timedelta(minutes=19, seconds=59) <= c.remaining <= timedelta(minutes=20)
    paused_left = left(rnd)
    assert left(rnd) == paused_left  # a paused clock does not run
    c = clock.resume(rnd, org, version=2)
    assert c.status == "running" and c.version == 3
    assert abs((c.ends_at - timezone.now()).total_seconds() - paused_left) < 2


def test_extend_adds_and_takes_off_minutes_in_every_state_never_below_zero(world):
    rnd, people = world
    org = people["organiser"]
    assert clock.extend(rnd, org, minutes=10, version=0).remaining == timedelta(minutes=70)  # idle: the length
    clock.start(rnd, org, version=1)
    clock.extend(rnd, org, minutes=5, version=2)
    assert 75 * 60 - 2 <= left(rnd) <= 75 * 60
    clock.extend(rnd, org, minutes=-15, version=3)
    assert 60 * 60 - 2 <= left(rnd) <= 60 * 60
    c = clock.extend(rnd, org, minutes=-600, version=4)
    state = clock.state(c)
    assert state["remaining"] == 0 and state["times_up"]
    c = clock.extend(rnd, org, minutes=3, version=5)  # after time is up: runs on
    assert c.status == "running" and 179 <= left(rnd) <= 180


@pytest.mark.parametrize("minutes", [0, "", "x", "1.5", 601, -601, None])
def test_extend_refuses_a_bad_number_of_minutes(world, minutes):
    rnd, people = world
    with pytest.raises(ServiceError) as err:
        clock.extend(rnd, people["organiser"], minutes=minutes, version=0)
    assert err.value.field == "minutes" and "between -600 and 600" in str(err.value)
    assert not RoundClock.objects.exists()


def test_a_stale_version_is_refused_with_the_clocks_state_in_the_message(world):
    rnd, people = world
    org = people["organiser"]
    clock.start(rnd, org, version=0)
    with pytest.raises(StaleVersion) as err:
        clock.extend(rnd, org, minutes=5, version=0)
    assert "changed by someone else" in str(err.value) and "running, 59:" in str(err.value)
    with pytest.raises(StaleVersion):
        clock.pause(rnd, org, version=None)
    with pytest.raises(StaleVersion):
        clock.pause(rnd, org, version="-1")
    assert RoundClock.objects.get(round=rnd).version == 1


@pytest.mark.parametrize(("action", "setup", "message"), [
    ("start", ["start"], "has been started already"),
    ("pause", [], "Only a running clock can be paused; it is not started"),
    ("resume", ["start"], "Only a paused clock can be resumed; it is running"),
    ("pause", ["start", "pause"], "Only a running clock can be paused; it is paused"),
])
def test_actions_the_state_does_not_allow_are_refused_clearly(world, action, setup, message):
    rnd, people = world
    org = people["organiser"]
    for i, step in enumerate(setup):
        clock.ACTIONS[step](rnd, org, version=i)
    with pytest.raises(NotAllowed) as err:
        clock.ACTIONS[action](rnd, org, version=len(setup))
    assert message in str(err.value)


@pytest.mark.parametrize("status", [Round.Status.DRAFT, Round.Status.CLOSED])
def test_the_clock_only_runs_in_a_published_or_running_round(status):
    rnd, _ = taipan_round(status=status)
    org = staff(rnd.tournament)["organiser"]
    with pytest.raises(NotAllowed) as err:
        clock.start(rnd, org, version=0)
    assert "only runs while round 1 is published or in progress" in str(err.value)


@pytest.mark.parametrize("who", ["referees", "outsider"])
def test_only_organisers_work_the_clock(world, who):
    rnd, people = world
    actor = people[who][0] if who == "referees" else people[who]
    for action in ("start", "pause", "resume"):
        with pytest.raises(PermissionDenied):
            clock.ACTIONS[action](rnd, actor, version=0)
    with pytest.raises(PermissionDenied):
        clock.extend(rnd, actor, minutes=5, version=0)
    assert not RoundClock.objects.exists()


def test_warning_and_times_up_follow_the_remaining_time(world):
    rnd, people = world
    c = clock.start(rnd, people["organiser"], version=0)
    now = timezone.now()
    assert not clock.state(c, now)["warning_on"]
    assert clock.state(c, c.ends_at - timedelta(minutes=5))["warning_on"]  # exactly the warning: on
    assert not clock.state(c, c.ends_at - timedelta(minutes=5, seconds=1))["warning_on"]
    end = clock.state(c, c.ends_at)
    assert end["times_up"] and not end["warning_on"] and end["remaining"] == 0


def test_the_current_round_is_the_latest_published_or_running_one(world):
    rnd, _people = world
    t = rnd.tournament
    assert clock.current_round(t) == rnd
    RoundFactory(tournament=t, number=2, status=Round.Status.DRAFT)
    assert clock.current_round(t) == rnd
    rnd3 = RoundFactory(tournament=t, number=3, status=Round.Status.IN_PROGRESS)
    assert clock.current_round(t) == rnd3
