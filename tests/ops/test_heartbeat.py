"""A dead worker is noticed within a minute (issue 22 item 6: "72 van 300 tafels klaar" stayed
frozen for 5.5 minutes when the worker was killed). A running job beats (its state's
``updated_at``) at every step and every 10 seconds between steps; without a beat for 60 seconds
its progress page stops polling, says the worker stopped and offers "Build again". No test
sleeps: the beats' times are set in the past, and the beat loop runs on a stop event that
answers at once."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from scoring import tasks
from scoring.models import TaskState
from tests.factories import MatchFactory, RoundFactory, staff

pytestmark = pytest.mark.django_db

STOPPED = "stopped without finishing"


@pytest.fixture
def pack(client, settings):
    """A round pack job that was "running, 72 of 300 tables" when its worker was killed, and the
    URL of its progress page, seen by a referee."""
    settings.LANGUAGE_CODE = "en"
    rnd = RoundFactory(number=1)
    MatchFactory(round=rnd, table=1)
    state = TaskState.objects.create(key=tasks.round_pack_key(rnd), kind=tasks.KIND_ROUND_PACK, status="running",
                                     progress=72, total=300)
    client.force_login(staff(rnd.tournament)["referee"])
    return state, reverse("scoring:round_pack_status", args=[rnd.tournament.slug, 1, state.pk])


def _last_beat(state, seconds_ago: float) -> None:
    TaskState.objects.filter(pk=state.pk).update(updated_at=timezone.now() - timedelta(seconds=seconds_ago))


def test_a_running_job_without_a_beat_for_a_minute_is_shown_as_stopped(client, pack):
    state, url = pack
    _last_beat(state, 59)
    page = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "hx-get" in page and "72 of 300 tables done" in page  # still alive as far as anyone knows
    _last_beat(state, 61)
    page = client.get(url, HTTP_HX_REQUEST="true").content.decode()
    assert "hx-get" not in page and STOPPED in page and "Build again" in page
    assert TaskState.objects.get(pk=state.pk).status == "failed"


def test_a_pending_job_waits_for_a_worker_longer(client, pack, settings):
    """A queued job that no worker took yet is not "stopped" after a minute: Redis hands a dead
    worker's message to another one after the visibility timeout; only after
    ``TASK_STALE_SECONDS`` is it failed."""
    state, url = pack
    TaskState.objects.filter(pk=state.pk).update(status="pending", progress=0)
    _last_beat(state, 61)
    assert "hx-get" in client.get(url).content.decode()
    _last_beat(state, settings.TASK_STALE_SECONDS + 1)
    assert STOPPED in client.get(url).content.decode()


def test_a_stopped_import_is_shown_as_failed(client, settings):
    from scoring.models import Membership
    from tests.factories import MembershipFactory, TournamentFactory

    settings.LANGUAGE_CODE = "en"
    t = TournamentFactory()
    organiser = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER).user
    state = TaskState.objects.create(key=f"{tasks.KIND_IMPORT}:{t.pk}:teams:abc", kind=tasks.KIND_IMPORT,
                                     status="running", progress=120, total=400)
    client.force_login(organiser)
    url = reverse("scoring:import_status", args=[t.slug, state.pk])
    _last_beat(state, 30)
    assert "120 of 400 rows checked" in client.get(url).content.decode()
    _last_beat(state, 61)
    page = client.get(url).content.decode()
    assert STOPPED in page and "Upload the file again" in page


class Ticks:
    """A stop event whose ``wait`` returns at once: ``False`` (time to beat) ``n`` times, then True."""

    def __init__(self, n: int):
        self.n, self.waits = n, []

    def wait(self, timeout):
        self.waits.append(timeout)
        return len(self.waits) > self.n

    def set(self):
        self.n = 0


def test_the_heartbeat_writes_while_the_job_runs(pack):
    state, _url = pack
    _last_beat(state, 50)
    beat = tasks.Heartbeat(state.pk, stop=Ticks(3))
    beat.run()
    assert beat.beats == 3 and beat.stop.waits == [10.0] * 4  # every 10 seconds
    assert TaskState.objects.get(pk=state.pk).updated_at > timezone.now() - timedelta(seconds=5)
    assert not tasks.is_stale(TaskState.objects.get(pk=state.pk))


def test_the_heartbeat_does_not_revive_a_failed_job(pack):
    state, _url = pack
    TaskState.objects.filter(pk=state.pk).update(status="failed")
    _last_beat(state, 120)
    beat = tasks.Heartbeat(state.pk, stop=Ticks(1))
    beat.run()
    fresh = TaskState.objects.get(pk=state.pk)
    assert fresh.status == "failed" and fresh.updated_at < timezone.now() - timedelta(seconds=100)


def test_the_jobs_beat_while_they_run(monkeypatch, settings, tmp_path):
    """The round pack and the import both run inside a heartbeat of their own state, stopped
    when they end."""
    settings.MEDIA_ROOT = tmp_path
    settings.LANGUAGE_CODE = "en"
    started = []

    class Recording(tasks.Heartbeat):
        def __enter__(self):
            started.append(self)
            assert TaskState.objects.get(pk=self.state_id).status == "running"
            return super().__enter__()

    monkeypatch.setattr(tasks, "Heartbeat", Recording)
    rnd = RoundFactory(number=1)
    MatchFactory(round=rnd, table=1)
    state = tasks.start_round_pack(rnd)
    assert state.status == "done"
    t = rnd.tournament
    job = tasks.start_import(t, "teams", b"name,player1,player2\nAlpha,Ann,Ben\n")
    assert TaskState.objects.get(pk=job.pk).status == "done"
    assert [b.state_id for b in started] == [state.pk, job.pk]
    assert all(b.stop.is_set() for b in started)
