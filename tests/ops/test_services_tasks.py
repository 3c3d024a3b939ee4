"""Background tasks on the REAL services (issue 5 items 2 and 3): a Celery worker over Redis,
reading the PostgreSQL test database (``.ci/services.sh`` starts it with that database and the
same ``MEDIA_ROOT``). The data is committed (``transaction=True``) so the worker sees it.

Hand values (NSKT rules, DESIGN.md 2.1): a Grand Tai Pan called by N with a double victory of NS
is 400 : 0; two reach the target 800, so NS wins 800 : 0 (2 match points, DESIGN.md 3)."""
from __future__ import annotations

import io
import time
from pathlib import Path

import pytest
from django.conf import settings
from django.core.cache import cache
from pypdf import PdfReader

from scoring import tasks
from scoring.models import Match, Player, Round, TaskState, Team, Tournament
from scoring.results import matches as results
from scoring.standings import cache as standings_cache
from scoring.standings import teams as standings_service

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

DV_NS_GRAND = {"calls": {"N": "grand_tai_pan"}, "first_out": "N", "double_victory": "NS", "card_points": None}
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
    t = Tournament.objects.create(name="Worker Cup", slug="worker-cup", game="taipan")
    teams = []
    for name in ("Kwartet Noord", "Draken Delft", "Feniks Utrecht", "Tijgers Tilburg"):
        a = Player.objects.create(tournament=t, name=f"{name} 1")
        b = Player.objects.create(tournament=t, name=f"{name} 2")
        teams.append(Team.objects.create(tournament=t, name=name, first_player=a, second_player=b))
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    Match.objects.create(round=rnd, table=2, team_ns=teams[2], team_ew=teams[3])
    return t


def test_tasks_are_not_eager():
    assert tasks.build_round_pack.app.conf.task_always_eager is False


def test_worker_builds_round_pack(tournament):
    rnd = tournament.rounds.get(number=1)
    state = tasks.start_round_pack(rnd)  # queued to the worker, returns at once
    state = wait_for(state.key)
    assert (state.status, state.error) == ("done", "")
    assert (state.progress, state.total) == (2, 2)
    path = Path(settings.MEDIA_ROOT) / state.result_path
    assert path.is_file()
    text = "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(path.read_bytes())).pages)
    for name in ("Kwartet Noord", "Draken Delft", "Feniks Utrecht", "Tijgers Tilburg"):
        assert name in text
    # idempotent: the same round state is not queued again
    again = tasks.start_round_pack(rnd)
    assert again.pk == state.pk and again.status == "done"


def test_worker_refreshes_standings_after_confirmation(tournament, django_user_model):
    ref = django_user_model.objects.create(username="ref")
    ref2 = django_user_model.objects.create(username="ref2")
    match = Match.objects.get(round__tournament=tournament, table=1)
    for record in (DV_NS_GRAND, DV_NS_GRAND):
        results.add_hand(match, record, ref)
    match.refresh_from_db()
    assert (match.status, match.total_ns, match.total_ew) == (Match.Status.FINISHED, 800, 0)
    results.confirm_match(match, ref2)  # commits; on_commit queues the refresh to the worker
    key = standings_cache.current_key(tournament)
    state = wait_for(key)
    assert (state.kind, state.status, state.error, state.total) == ("standings", "done", "", 4)
    stored = cache.get(key)  # written by the worker into Redis
    assert stored == standings_service.standings(tournament)
    summary = [(r.rank, r.name, r.match_points, r.point_difference) for r in stored]
    # by hand: Kwartet Noord won 800 : 0; Feniks and Tijgers have not played (0, 0) and share
    # rank 2 (ordered by name); Draken Delft lost (-800) and is 4th.
    assert summary == [
        (1, "Kwartet Noord", 2, 800), (2, "Feniks Utrecht", 0, 0), (2, "Tijgers Tilburg", 0, 0), (4, "Draken Delft", 0, -800),
    ]
    assert standings_cache.cached_standings(tournament) == stored
    # the worker answers an explicit refresh with the same key, without a new state
    assert tasks.refresh_standings.delay(tournament.pk).get(timeout=TIMEOUT) == key
    assert TaskState.objects.filter(kind="standings").count() == 1
