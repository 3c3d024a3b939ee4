"""The background standings refresh (issue 5 item 2; Celery eager without REDIS_URL): a result
confirmed, reopened or changed queues ``scoring.tasks.refresh_standings`` after the commit; it
stores the standings of ``scoring.standings.teams`` in the cache under a key with a
fingerprint of the results, with a TaskState row; idempotent, retried, failure stored; pages read
them through ``standings_cache.cached_standings`` in a fixed number of queries.

Hand values (NSKT rules, DESIGN.md 2.1): a Grand Tai Pan called by N with a double victory of NS
scores 200 + 200 = 400 : 0; two of them reach the target 800, so the match is finished 800 : 0
and NS wins (DESIGN.md 3: match points win 2, loss 0)."""
from __future__ import annotations

import uuid

import pytest
from django.core.cache import cache, caches
from django.db import OperationalError, transaction

from scoring import signals, tasks
from scoring.models import Match, Player, Round, TaskState, Team, Tournament
from scoring.results import matches as results
from scoring.standings import cache as standings_cache
from scoring.standings import teams as standings_service

pytestmark = pytest.mark.django_db

DV_NS_GRAND = {"calls": {"N": "grand_tai_pan"}, "first_out": "N", "double_victory": "NS", "card_points": None}  # 400 : 0
EVEN = {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 50, "EW": 50}}  # 50 : 50


@pytest.fixture(autouse=True)
def _own_cache(settings):
    """A fresh in-process cache per test (never ``cache.clear()``: under ``make test-services``
    the default cache is the Redis database that is also the Celery broker)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}}
    assert type(caches["default"]).__name__ == "LocMemCache"


def make_tournament(n_teams: int, slug: str = "cup") -> tuple[Tournament, list[Team], Round]:
    t = Tournament.objects.create(name=f"Cup {slug}", slug=slug, game="taipan")
    teams = []
    for i in range(n_teams):
        a = Player.objects.create(tournament=t, name=f"P{i}a")
        b = Player.objects.create(tournament=t, name=f"P{i}b")
        teams.append(Team.objects.create(tournament=t, name=f"Team {i}", first_player=a, second_player=b))
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    return t, teams, rnd


@pytest.fixture
def setup(django_user_model):
    t, teams, rnd = make_tournament(4)
    m1 = Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    m2 = Match.objects.create(round=rnd, table=2, team_ns=teams[2], team_ew=teams[3])
    ref = django_user_model.objects.create(username="ref")
    ref2 = django_user_model.objects.create(username="ref2")
    return {"t": t, "teams": teams, "round": rnd, "m1": m1, "m2": m2, "ref": ref, "ref2": ref2}


@pytest.fixture
def finish(django_capture_on_commit_callbacks):
    """``finish(match, user)``: two hands of 400 : 0, the match is finished 800 : 0 (NS wins);
    the refresh queued at the commit runs (as outside a test transaction)."""
    def run(match, user):
        with django_capture_on_commit_callbacks(execute=True):
            for record in (DV_NS_GRAND, DV_NS_GRAND):
                results.add_hand(match, record, user)
        match.refresh_from_db()
        assert (match.status, match.total_ns, match.total_ew) == (Match.Status.FINISHED, 800, 0)
        return match
    return run


def forget(t):
    """Drop the stored standings and states (so the next refresh computes)."""
    cache.delete(standings_cache.current_key(t))
    TaskState.objects.all().delete()


def standings_states(t):
    return TaskState.objects.filter(kind="standings", key__startswith=standings_cache.key_prefix(t.pk))


def test_confirm_triggers_refresh_storing_the_service_standings(setup, django_capture_on_commit_callbacks, finish):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    forget(t)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        results.confirm_match(setup["m1"], setup["ref2"])
    assert len(callbacks) == 1  # one refresh for the confirmation
    key = standings_cache.current_key(t)
    state = TaskState.objects.get(key=key)
    assert (state.kind, state.status, state.progress, state.total, state.error) == ("standings", "done", 4, 4, "")
    stored = cache.get(key)
    assert stored == standings_service.standings(t)
    # by hand: Team 0 won 800 : 0 (2 match points, +800); Teams 2 and 3 have not played (0, 0)
    # and share rank 2; Team 1 lost (0 match points, -800) and is 4th.
    summary = [(r.rank, r.name, r.match_points, r.point_difference) for r in stored]
    assert summary == [(1, "Team 0", 2, 800), (2, "Team 2", 0, 0), (2, "Team 3", 0, 0), (4, "Team 1", 0, -800)]


def test_finishing_reopening_and_correcting_refresh(setup, django_capture_on_commit_callbacks, finish):
    t, m1, ref, ref2 = setup["t"], setup["m1"], setup["ref"], setup["ref2"]
    with django_capture_on_commit_callbacks(execute=True) as first_hand:
        results.add_hand(m1, DV_NS_GRAND, ref)
    assert first_hand == []  # the match is still being played: not counted
    with django_capture_on_commit_callbacks(execute=True) as finished:
        results.add_hand(m1, DV_NS_GRAND, ref)
    assert len(finished) == 1  # the hand that finished the match
    with django_capture_on_commit_callbacks(execute=True) as confirmed:
        results.confirm_match(m1, ref2)
    assert len(confirmed) == 1
    with django_capture_on_commit_callbacks(execute=True) as reopened:
        results.reopen_match(m1, ref2, "card points of hand 2")
    assert len(reopened) == 1  # two saves of the match, one refresh
    with django_capture_on_commit_callbacks(execute=True) as corrected:
        results.update_hand(m1.hands.get(number=2), EVEN, ref, reason="fix")
    assert len(corrected) == 1  # finished -> playing (450 : 50): no longer counted
    key = standings_cache.current_key(t)
    assert TaskState.objects.get(key=key).status == "done"
    stored = cache.get(key)
    assert stored == standings_service.standings(t)
    assert all(r.played == 0 and r.match_points == 0 and r.rank == 1 for r in stored)
    # older finished states of the tournament are pruned: one per tournament remains
    assert list(standings_states(t).values_list("key", flat=True)) == [key]


def test_version_only_save_and_rollback_queue_nothing(setup, django_capture_on_commit_callbacks, finish):
    m1 = finish(setup["m1"], setup["ref"])
    with django_capture_on_commit_callbacks() as callbacks:
        m1.version += 1
        m1.save(update_fields=["version"])
        with transaction.atomic():
            m1.points_ns = 3
            m1.save()
            transaction.set_rollback(True)
    assert callbacks == []


def test_one_refresh_per_transaction(setup, django_capture_on_commit_callbacks, finish):
    for m in (setup["m1"], setup["m2"]):
        finish(m, setup["ref"])
    with django_capture_on_commit_callbacks() as callbacks, transaction.atomic():
        for m in Match.objects.filter(round=setup["round"]):
            m.status = Match.Status.CONFIRMED
            m.save()
    assert callbacks == [signals.RefreshStandingsOnCommit(setup["t"].pk)]


def test_one_refresh_for_many_service_calls_in_one_transaction(setup, django_capture_on_commit_callbacks):
    """As ``load_demo``/imports do: many results in one outer transaction, one refresh."""
    with django_capture_on_commit_callbacks(execute=True) as callbacks, transaction.atomic():
        for m in (setup["m1"], setup["m2"]):
            for record in (DV_NS_GRAND, DV_NS_GRAND):
                results.add_hand(m, record, setup["ref"])
            results.confirm_match(m, setup["ref2"])
    assert len(callbacks) == 1
    key = standings_cache.current_key(setup["t"])
    assert TaskState.objects.get(key=key).status == "done"
    assert [r.match_points for r in cache.get(key)] == [2, 2, 0, 0]


def test_idempotent_same_fingerprint_no_recompute(setup, monkeypatch, finish):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    key = tasks.refresh_standings.delay(t.pk).get()
    assert key == standings_cache.current_key(t)
    calls = []
    real = standings_cache.compute
    monkeypatch.setattr(standings_cache, "compute", lambda *a: calls.append(1) or real(*a))
    assert tasks.refresh_standings.delay(t.pk).get() == key
    assert calls == []  # same data, same key: nothing recomputed
    assert standings_states(t).count() == 1
    # a changed result gives a new key and one recompute
    finish(setup["m2"], setup["ref"])
    new_key = tasks.refresh_standings.delay(t.pk).get()
    assert new_key != key and calls == [1]
    assert cache.get(new_key) == standings_service.standings(t)
    # the evicted entry of a done key is computed again
    cache.delete(new_key)
    assert tasks.refresh_standings.delay(t.pk).get() == new_key
    assert calls == [1, 1]


def test_retried_on_failure_then_done(setup, monkeypatch, finish):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    forget(t)
    real = standings_cache.compute
    attempts = []

    def flaky(*args):
        attempts.append(1)
        if len(attempts) == 1:
            raise OperationalError("connection lost")
        return real(*args)

    monkeypatch.setattr(standings_cache, "compute", flaky)
    result = tasks.apply_eagerly(tasks.refresh_standings, (t.pk,))
    assert result.successful()
    assert len(attempts) == 2
    key = standings_cache.current_key(t)
    assert TaskState.objects.get(key=key).status == "done"
    assert cache.get(key) == standings_service.standings(t)


def test_failed_state_after_max_retries(setup, monkeypatch, finish):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    forget(t)
    attempts = []

    def broken(*args):
        attempts.append(1)
        raise OperationalError("connection lost")

    monkeypatch.setattr(standings_cache, "compute", broken)
    result = tasks.apply_eagerly(tasks.refresh_standings, (t.pk,))
    assert result.failed()
    assert len(attempts) == 1 + tasks.refresh_standings.max_retries == 4
    state = TaskState.objects.get(key=standings_cache.current_key(t))
    assert state.status == "failed" and state.error == "OperationalError: connection lost"


def test_failing_refresh_never_breaks_the_confirmation(setup, monkeypatch, django_capture_on_commit_callbacks, finish):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    forget(t)

    def broken(*args):
        raise ValueError("bug")  # not retried

    monkeypatch.setattr(standings_cache, "compute", broken)
    with django_capture_on_commit_callbacks(execute=True):
        results.confirm_match(setup["m1"], setup["ref2"])
    assert Match.objects.get(pk=setup["m1"].pk).status == Match.Status.CONFIRMED
    assert TaskState.objects.get(key=standings_cache.current_key(t)).status == "failed"
    # the page still gets correct standings (computed in the request)
    monkeypatch.undo()
    assert standings_cache.cached_standings(t) == standings_service.standings(t)


@pytest.fixture
def broker():
    conf = tasks.refresh_standings.app.conf
    previous = conf.task_always_eager
    conf.task_always_eager = False
    yield
    conf.task_always_eager = previous


def test_with_a_broker_the_refresh_is_queued(setup, monkeypatch, broker):
    sent = []
    monkeypatch.setattr(tasks.refresh_standings, "delay", lambda *a: sent.append(a))
    tasks.enqueue_standings_refresh(setup["t"].pk)
    assert sent == [(setup["t"].pk,)]

    def down(*a):
        raise ConnectionError("broker down")

    monkeypatch.setattr(tasks.refresh_standings, "delay", down)
    tasks.enqueue_standings_refresh(setup["t"].pk)  # logged, not raised


def test_missing_tournament_is_a_no_op():
    assert tasks.refresh_standings.delay(987654).get() == ""


# --- cached_standings -------------------------------------------------------------------------------


def test_cached_standings_equal_service_and_skip_the_ranking(setup, monkeypatch, django_assert_num_queries, finish):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    with django_assert_num_queries(2):  # miss: the standings' own two queries
        first = standings_cache.cached_standings(t)
    assert first == standings_service.standings(t)
    calls = []
    monkeypatch.setattr(standings_cache, "compute", lambda *a: calls.append(1))
    with django_assert_num_queries(2):  # hit: the same two queries, no ranking
        assert standings_cache.cached_standings(t) == first
    assert calls == []


def test_cached_standings_follow_every_input(setup, finish):
    """A stale table is never served: results, team names, players, withdrawals and the
    tie-break order are all in the key."""
    t, teams = setup["t"], setup["teams"]
    finish(setup["m1"], setup["ref"])
    standings_cache.cached_standings(t)
    Team.objects.filter(pk=teams[2].pk).update(name="Renamed")
    assert "Renamed" in [r.name for r in standings_cache.cached_standings(t)]
    Player.objects.filter(pk=teams[3].first_player_id).update(name="Zoe")
    assert "Zoe & P3b" in [r.players for r in standings_cache.cached_standings(t)]
    Team.objects.filter(pk=teams[1].pk).update(withdrawn_after_round=1)
    assert [r.withdrawn for r in standings_cache.cached_standings(t) if r.team_id == teams[1].pk] == [True]
    Tournament.objects.filter(pk=t.pk).update(tiebreaks=["points_scored"])
    t.refresh_from_db()
    assert list(standings_cache.cached_standings(t)[0].tiebreaks) == ["points_scored"]
    Match.objects.filter(pk=setup["m1"].pk).update(total_ns=790)
    assert standings_cache.cached_standings(t)[0].point_difference == 790
    assert standings_cache.cached_standings(t) == standings_service.standings(t)


def test_cached_standings_through_round(setup, finish):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    assert standings_cache.cached_standings(t, through_round=0) == standings_service.standings(t, through_round=0)
    assert all(r.played == 0 for r in standings_cache.cached_standings(t, through_round=0))
    assert standings_cache.cached_standings(t, through_round=1) == standings_service.standings(t, through_round=1)


@pytest.mark.parametrize("n_teams", [4, 60])
def test_cached_standings_queries_do_not_grow(n_teams, django_user_model, django_assert_num_queries):
    t, teams, rnd = make_tournament(n_teams, slug=f"n{n_teams}")
    Match.objects.bulk_create([
        Match(round=rnd, table=i + 1, team_ns=teams[2 * i], team_ew=teams[2 * i + 1], status=Match.Status.CONFIRMED,
              total_ns=500, total_ew=300, points_ns=2, points_ew=0, winner=teams[2 * i])
        for i in range(n_teams // 2)
    ])
    with django_assert_num_queries(2):
        rows = standings_cache.cached_standings(t)
    with django_assert_num_queries(2):
        assert standings_cache.cached_standings(t) == rows
    assert len(rows) == n_teams and rows[0].match_points == 2
