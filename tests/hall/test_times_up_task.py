"""The task at the end of time's up's grace period (:func:`scoring.tasks.apply_times_up`): queued
with the grace's end as its ETA when a worker runs, never in-process (a countdown would not
wait); when it runs it applies the call once."""
from __future__ import annotations

import contextlib
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring import tasks
from scoring.hall import times_up
from scoring.models import TimesUp
from tests.hall.helpers import hall_round

pytestmark = pytest.mark.django_db


def test_nothing_is_queued_in_process_or_without_a_grace():
    rnd, _cs, people = hall_round("match", tables=1)
    call = times_up.call(rnd, people["organiser"], grace_minutes=2)
    assert tasks.apply_times_up.app.conf.task_always_eager
    assert tasks.schedule_times_up(call) is False
    call.grace_until = None
    assert tasks.schedule_times_up(call) is False


def test_with_a_worker_it_is_queued_for_the_end_of_the_grace(monkeypatch):
    rnd, _cs, people = hall_round("match", tables=1)
    call = times_up.call(rnd, people["organiser"], grace_minutes=2)
    sent = {}
    conf = tasks.apply_times_up.app.conf
    conf.task_always_eager = False  # as with a worker (the autouse fixture restores it)
    monkeypatch.setattr(tasks.apply_times_up.app, "connection_for_write",
                        lambda **kw: contextlib.nullcontext("connection"))
    monkeypatch.setattr(tasks.apply_times_up, "apply_async", lambda **kw: sent.update(kw))
    try:
        assert tasks.schedule_times_up(call) is True
    finally:
        conf.task_always_eager = True
    assert sent["args"] == [rnd.pk] and sent["eta"] == call.grace_until


def test_the_task_applies_the_call_once_its_grace_is_over():
    rnd, (match,), people = hall_round("match", tables=1)
    times_up.call(rnd, people["organiser"], grace_minutes=2)
    assert tasks.apply_times_up.apply(args=[rnd.pk]).get() == []
    TimesUp.objects.filter(round=rnd).update(grace_until=timezone.now() - timedelta(seconds=1))
    assert tasks.apply_times_up.apply(args=[rnd.pk]).get() == [1]
    assert tasks.apply_times_up.apply(args=[rnd.pk]).get() == []
