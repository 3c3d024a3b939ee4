"""Background work and the cache on the REAL services (issue 5 items 2 and 3; issue 10 item 6): a
Celery worker over Redis, reading the PostgreSQL test database (``.ci/services.sh`` starts it
with that database and the same ``MEDIA_ROOT``), and Redis as the standings cache. The data is
committed (``transaction=True``) so the worker sees it.

The standings are no longer refreshed by a task (the signals and the refresh task are gone): the
pages keep them in the cache under a key of the results' state (:mod:`scoring.standings.cache`),
here in Redis.

Hand values (NSKT rules, docs/engines/taipan.md): a Grand Tai Pan called by N with a double victory of NS
is 400 : 0; two reach the target 800, so NS wins 800 : 0 (2 match points, docs/tournaments.md)."""
from __future__ import annotations

import io
import time

import pytest
from django.core.cache import cache
from pypdf import PdfReader

from scoring import files, tasks
from scoring.models import Match, TaskState, Tournament
from scoring.standings import cache as standings_cache
from scoring.standings import team_standings, teams
from tests.factories import (
    GRAND_DOUBLE_VICTORY_NS,
    MatchFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    play,
    staff,
)

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TIMEOUT = 60


def wait_for(key: str, statuses=("done", "failed")) -> TaskState:
    """Poll the TaskState written by the worker until it reaches one of ``statuses``."""
    deadline = time.monotonic() + TIMEOUT
    while time.monotonic() < deadline:
        state = TaskState.objects.filter(key=key).first()
        if state is not None and state.status in statuses:
            return state
        time.sleep(0.2)
    pytest.fail(f"the worker did not finish {key} within {TIMEOUT} s (see /tmp/nskt-celery-*.log)")


@pytest.fixture
def tournament():
    t = TournamentFactory(name="Worker Cup", slug="worker-cup")
    team_list = [TeamFactory(tournament=t, name=name) for name in ("Kwartet Noord", "Draken Delft", "Feniks Utrecht", "Tijgers Tilburg")]
    rnd = RoundFactory(tournament=t, number=1)
    MatchFactory(round=rnd, table=1, team_ns=team_list[0], team_ew=team_list[1])
    MatchFactory(round=rnd, table=2, team_ns=team_list[2], team_ew=team_list[3])
    return t


def test_tasks_are_not_eager():
    assert tasks.build_round_pack.app.conf.task_always_eager is False


def test_worker_builds_round_pack(tournament):
    rnd = tournament.rounds.get(number=1)
    state = tasks.start_round_pack(rnd)  # queued to the worker, returns at once
    state = wait_for(state.key)
    assert (state.status, state.error) == ("done", "")
    assert (state.progress, state.total) == (2, 2)
    assert files.exists(state.result_path)  # in the storage the worker shares (MEDIA_ROOT here)
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(files.read(state.result_path))).pages)
    for name in ("Kwartet Noord", "Draken Delft", "Feniks Utrecht", "Tijgers Tilburg"):
        assert name in text
    # idempotent: the same round state is not queued again
    again = tasks.start_round_pack(rnd)
    assert again.pk == state.pk and again.status == "done"


def test_standings_kept_in_redis_after_a_confirmation(tournament):
    ref, ref2 = staff(tournament)["referees"]
    match = Match.objects.get(round__tournament=tournament, table=1)
    play(match, [GRAND_DOUBLE_VICTORY_NS] * 2, ref)
    assert (match.status, match.total_ns, match.total_ew) == (Match.Status.FINISHED, 800, 0)
    play(match, [], ref, confirmer=ref2)  # commits
    key = standings_cache.state_key(Tournament.objects.get(pk=tournament.pk), "teams")
    rows = team_standings(tournament)
    stored = cache.get(key)  # written into Redis
    assert stored == rows == teams.standings(tournament)
    summary = [(r.rank, r.name, r.match_points, r.point_difference) for r in stored]
    # by hand: Kwartet Noord won 800 : 0; Feniks and Tijgers have not played (0, 0) and share
    # rank 2 (ordered by name); Draken Delft lost (-800) and is 4th.
    assert summary == [
        (1, "Kwartet Noord", 2, 800), (2, "Feniks Utrecht", 0, 0), (2, "Tijgers Tilburg", 0, 0), (4, "Draken Delft", 0, -800),
    ]
    # the same data read again: the same key, from Redis
    assert standings_cache.state_key(Tournament.objects.get(pk=tournament.pk), "teams") == key
    assert team_standings(Tournament.objects.get(pk=tournament.pk)) == stored
