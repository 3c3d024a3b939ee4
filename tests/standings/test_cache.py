"""The standings cache (:mod:`scoring.standings.cache`; issue 10 item 6). It replaces the
standings signals, the results fingerprint and the Celery refresh task: pages read the standings
through :func:`scoring.standings.team_standings` / :func:`~scoring.standings.player_standings`,
which keep them in the Django cache under a key of the results' state. A stale table is never
served (the key changes on every new result, correction, confirmation, reopening, entrant edit
and tie-break change), the same data gives the same key (a hit skips the ranking), and a cache
that is down is a miss, never an error.

What the old refresh-task tests asserted and still means something is kept: the stored standings
equal the service's and the values worked out by hand; a correction that makes a match unfinished
takes it out of the standings; many results in one transaction; a failing cache never breaks a
confirmation or a page; ``through_round``; queries that do not grow with the field.

Hand values (NSKT rules, docs/engines/taipan.md): a Grand Tai Pan called by N with a double victory of NS
scores 200 + 200 = 400 : 0; two of them reach the target 800, so the match is finished 800 : 0
and NS wins (docs/tournaments.md: match points win 2, loss 0)."""
from __future__ import annotations

import uuid
from collections import defaultdict

import pytest
from django.core.cache import caches
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring import caching
from scoring.models import Round, Tournament
from scoring.results import sheet
from scoring.standings import cache as standings_cache
from scoring.standings import player_standings, players, team_standings, teams
from scoring.web.forms.organiser import TeamForm
from tests.factories import (
    DEALS,
    GRAND_DOUBLE_VICTORY_NS,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    play,
    staff,
    table_round,
)

pytestmark = pytest.mark.django_db

#: A hand of 50 : 50 card points, nobody calls (NSKT rules): 50 : 50.
EVEN = {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 50, "EW": 50}}


@pytest.fixture(autouse=True)
def _own_cache(settings):
    """A fresh in-process cache per test (never ``cache.clear()``: under ``make test-services``
    the default cache is the Redis database that is also the Celery broker)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}}
    assert type(caches["default"]).__name__ == "LocMemCache"


def make_tournament(n_teams: int) -> tuple[Tournament, list, Round]:
    """Teams "Team 0" .. with players "P0a & P0b" ..; round 1 published, no matches yet."""
    t = TournamentFactory()
    team_list = [TeamFactory(tournament=t, name=f"Team {i}", first_player=PlayerFactory(tournament=t, name=f"P{i}a"),
                             second_player=PlayerFactory(tournament=t, name=f"P{i}b")) for i in range(n_teams)]
    return t, team_list, RoundFactory(tournament=t, number=1)


@pytest.fixture
def setup():
    t, team_list, rnd = make_tournament(4)
    m1 = MatchFactory(round=rnd, table=1, team_ns=team_list[0], team_ew=team_list[1])
    m2 = MatchFactory(round=rnd, table=2, team_ns=team_list[2], team_ew=team_list[3])
    people = staff(t)
    ref, ref2 = people["referees"]
    return {"t": t, "teams": team_list, "round": rnd, "m1": m1, "m2": m2, "ref": ref, "ref2": ref2, "organiser": people["organiser"]}


def finish(match, user):
    """Two hands of 400 : 0: the match is finished 800 : 0 (NS wins)."""
    play(match, [GRAND_DOUBLE_VICTORY_NS] * 2, user)
    assert (match.status, match.total_ns, match.total_ew) == (match.Status.FINISHED, 800, 0)
    return match


def key(t, kind="teams", through_round=None):
    return standings_cache.state_key(Tournament.objects.get(pk=t.pk), kind, through_round)


class BrokenCache:
    """A cache whose server is down: every call raises (as a Redis client does)."""

    def __init__(self, *, get_fails=True, set_fails=True):
        self.get_fails, self.set_fails = get_fails, set_fails
        self.stored = {}

    def get(self, key, default=None):
        if self.get_fails:
            raise ConnectionError("cache down")
        return self.stored.get(key, default)

    def set(self, key, value, timeout=None):
        if self.set_fails:
            raise ConnectionError("cache down")
        self.stored[key] = value


# --------------------------------------------------------------------------- stored standings


def test_confirmed_result_stored_under_the_state_key(setup):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    sheet.confirm(setup["m1"], setup["ref2"], expected_version=setup["m1"].version)
    rows = team_standings(t)
    stored = caches["default"].get(key(t))
    assert stored == rows == teams.standings(t)
    # by hand: Team 0 won 800 : 0 (2 match points, +800); Teams 2 and 3 have not played (0, 0)
    # and share rank 2; Team 1 lost (0 match points, -800) and is 4th.
    summary = [(r.rank, r.name, r.match_points, r.point_difference) for r in stored]
    assert summary == [(1, "Team 0", 2, 800), (2, "Team 2", 0, 0), (2, "Team 3", 0, 0), (4, "Team 1", 0, -800)]


def test_every_counted_change_gives_a_new_key_and_fresh_standings(setup):
    """The key covers what the standings show: a hand saved in a match still being played leaves
    it as it is (nothing counted changed); finishing, a confirmation, a reopening and a correction
    of a finished result each change it; the standings read after each step equal the service's
    (never a stale table)."""
    t, m1, ref, ref2 = setup["t"], setup["m1"], setup["ref"], setup["ref2"]
    keys = [key(t)]
    team_standings(t)

    def step(*, new: bool = True):
        keys.append(key(t))
        assert (keys[-1] != keys[-2]) is new
        assert team_standings(t) == teams.standings(t)

    sheet.add_record(m1, GRAND_DOUBLE_VICTORY_NS, ref, expected_version=m1.version)  # a hand (still playing)
    step(new=False)
    assert all(r.played == 0 for r in team_standings(t))  # a match being played is not counted
    sheet.add_record(m1, GRAND_DOUBLE_VICTORY_NS, ref, expected_version=m1.version)  # finished 800 : 0
    step()
    assert [r.match_points for r in team_standings(t)] == [2, 0, 0, 0]
    sheet.confirm(m1, ref2, expected_version=m1.version)
    step()
    sheet.reopen(m1, ref2, "card points of hand 2", expected_version=m1.version)
    step()
    sheet.edit_record(m1, 2, EVEN, ref, expected_version=m1.version, reason="fix")  # 450 : 50, playing again
    step()
    assert m1.status == m1.Status.PLAYING
    assert all(r.played == 0 and r.match_points == 0 and r.rank == 1 for r in team_standings(t))
    sheet.add_record(m1, EVEN, ref, expected_version=m1.version)  # another hand of a match being played
    step(new=False)
    # Playing again, nothing counted: the standings of the start, under the key of the start.
    assert keys[-1] == keys[0] and len(set(keys)) == 4


def test_the_provisional_note_and_the_rounds_are_in_the_key(setup):
    """Besides the counted results the pages show after which round the standings stand and
    whether they are provisional (a result of a counted round not yet confirmed): a new played
    round, a round's status and a result becoming settled change the key."""
    t, m1, m2, ref, ref2 = setup["t"], setup["m1"], setup["m2"], setup["ref"], setup["ref2"]
    finish(m1, ref)
    finish(m2, ref)
    keys = [key(t)]
    sheet.confirm(m1, ref2, expected_version=m1.version)
    keys.append(key(t))
    rnd2 = Round.objects.create(tournament=t, number=2, status=Round.Status.DRAFT)
    keys.append(key(t))
    assert keys[-1] == keys[-2]  # a draft is left out
    Round.objects.filter(pk=rnd2.pk).update(status=Round.Status.PUBLISHED)
    keys.append(key(t))
    rnd2.matches.create(table=1, team_ns=setup["teams"][0], team_ew=setup["teams"][2])
    keys.append(key(t))  # round 2 holds a result not settled: provisional again
    assert len(set(keys)) == 4


def test_entrant_edits_and_tiebreak_order_give_a_new_key(setup):
    """Team names, players, withdrawals and the tie-break order are all in the key (edits as the
    organiser's pages save them: ``updated_at`` moves)."""
    t, team_list = setup["t"], setup["teams"]
    finish(setup["m1"], setup["ref"])
    keys = [key(t)]
    team_standings(t)
    renamed = team_list[2]
    renamed.name = "Renamed"
    renamed.save()
    keys.append(key(t))
    assert "Renamed" in [r.name for r in team_standings(t)]
    form = TeamForm({"name": "Team 3", "affiliation": "", "first_player_name": "Zoe", "second_player_name": "P3b",
                     "joined_round": 1}, instance=team_list[3], tournament=t)
    assert form.is_valid(), form.errors
    form.save()  # the team form renames the players
    keys.append(key(t))
    assert "Zoe & P3b" in [r.players for r in team_standings(t)]
    player = team_list[0].first_player
    player.name = "Anna"
    player.save()  # a player renamed on their own
    keys.append(key(t))
    assert "Anna & P0b" in [r.players for r in team_standings(t)]
    withdrawn = team_list[1]
    withdrawn.withdrawn_after_round = 1
    withdrawn.save(update_fields=["withdrawn_after_round", "updated_at"])  # as the withdraw button does
    keys.append(key(t))
    assert [r.withdrawn for r in team_standings(t) if r.team_id == withdrawn.pk] == [True]
    t.tiebreaks = ["points_scored"]
    t.save()
    keys.append(key(t))
    assert list(team_standings(t)[0].tiebreaks) == ["points_scored"]
    assert team_standings(t) == teams.standings(t)
    assert len(set(keys)) == len(keys) == 6


def test_same_data_same_key_and_a_hit_skips_the_ranking(setup, monkeypatch):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    assert key(t) == key(t) == standings_cache.state_key(t, "teams")
    assert key(t) != key(t, "teams", 1) != key(t, "players")
    calls = []
    real = teams.standings
    monkeypatch.setattr(teams, "standings", lambda *a, **k: calls.append(1) or real(*a, **k))
    first = team_standings(t)
    assert team_standings(Tournament.objects.get(pk=t.pk)) == first
    assert calls == [1]  # same data, same key: computed once
    finish(setup["m2"], setup["ref"])  # a changed result: a new key, one recompute
    assert team_standings(t) == real(t)
    assert calls == [1, 1]
    caches["default"].delete(key(t))  # an evicted entry is computed again
    team_standings(t)
    assert calls == [1, 1, 1]


def test_a_rolled_back_change_leaves_the_key(setup):
    t, m1 = setup["t"], setup["m1"]
    before = key(t)
    with transaction.atomic():
        finish(m1, setup["ref"])
        assert key(t) != before
        transaction.set_rollback(True)
    assert key(t) == before


def test_many_results_in_one_transaction(setup):
    """As ``load_demo`` and imports do: many results in one outer transaction."""
    with transaction.atomic():
        for m in (setup["m1"], setup["m2"]):
            finish(m, setup["ref"])
            sheet.confirm(m, setup["ref2"], expected_version=m.version)
    rows = team_standings(setup["t"])
    assert [r.match_points for r in rows] == [2, 2, 0, 0]
    assert caches["default"].get(key(setup["t"])) == rows == teams.standings(setup["t"])


def test_through_round(setup):
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    assert team_standings(t, through_round=0) == teams.standings(t, through_round=0)
    assert all(r.played == 0 for r in team_standings(t, through_round=0))
    assert team_standings(t, through_round=1) == teams.standings(t, through_round=1)
    assert [r.match_points for r in team_standings(t, through_round=1)] == [2, 0, 0, 0]


# --------------------------------------------------------------------------- a cache that is down


@pytest.mark.parametrize("broken", [BrokenCache(), BrokenCache(get_fails=False)], ids=["get-and-set-fail", "set-fails"])
def test_a_broken_cache_is_a_miss_and_the_page_answers(setup, monkeypatch, client, broken):
    t, m1 = setup["t"], setup["m1"]
    monkeypatch.setattr(caching, "caches", defaultdict(lambda: broken))
    finish(m1, setup["ref"])
    sheet.confirm(m1, setup["ref2"], expected_version=m1.version)  # confirming never touches the cache
    assert m1.status == m1.Status.CONFIRMED
    assert team_standings(t) == teams.standings(t)
    assert team_standings(t, through_round=1) == teams.standings(t, through_round=1)
    page = client.get(reverse("scoring:standings", args=[t.slug]))
    assert page.status_code == 200
    html = page.content.decode()
    assert all(f"Team {i}" in html for i in range(4))
    assert client.get(reverse("scoring:standings_pdf", args=[t.slug])).status_code == 200
    assert client.get(reverse("scoring:standings_export", args=[t.slug]) + "?format=csv").status_code == 200


def test_a_redis_that_is_down_is_a_miss(setup, settings, client):
    """A real cache backend whose server does not answer (nothing listens on port 1)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": "redis://127.0.0.1:1/0",
                                   "OPTIONS": {"socket_connect_timeout": 0.5, "socket_timeout": 0.5}}}
    t = setup["t"]
    finish(setup["m1"], setup["ref"])
    assert team_standings(t) == teams.standings(t)
    assert client.get(reverse("scoring:standings", args=[t.slug])).status_code == 200


# --------------------------------------------------------------------------- queries


def count_queries(func) -> int:
    with CaptureQueriesContext(connection) as ctx:
        func()
    return len(ctx.captured_queries)


def played_tournament(n_teams: int) -> Tournament:
    t, team_list, rnd = make_tournament(n_teams)
    for i in range(n_teams // 2):
        MatchFactory(round=rnd, table=i + 1, team_ns=team_list[2 * i], team_ew=team_list[2 * i + 1], status="confirmed",
                     total_ns=500, total_ew=300, points_ns=2, points_ew=0, winner=team_list[2 * i])
    return t


def test_team_standings_queries_do_not_grow(django_assert_max_num_queries):
    small, big = played_tournament(4), played_tournament(60)
    miss = [count_queries(lambda t=t: team_standings(t)) for t in (small, big)]
    hit = [count_queries(lambda t=t: team_standings(t)) for t in (small, big)]
    assert miss[0] == miss[1] and hit[0] == hit[1]
    assert hit[0] == miss[0] - 2  # a hit reads only the state key: the standings' own two queries are skipped
    with django_assert_max_num_queries(miss[0]):
        rows = team_standings(big, through_round=1)
    assert len(rows) == 60 and rows[0].match_points == 2 and team_standings(big) == teams.standings(big)


def test_standings_page_queries_do_not_grow(client, django_assert_max_num_queries):
    small, big = played_tournament(4), played_tournament(60)
    counts = []
    for t in (small, big, small, big):  # misses, then hits
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("scoring:standings", args=[t.slug])).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1] and counts[2] == counts[3]
    with django_assert_max_num_queries(counts[1]):
        page = client.get(reverse("scoring:standings", args=[big.slug]) + "?round=1&all=1")  # the full table
    assert "Team 59" in page.content.decode()


# --------------------------------------------------------------------------- four-player standings


@pytest.fixture
def sichuan():
    rnd, tables = table_round("sichuan", tables=2)
    people = staff(rnd.tournament)
    return {"t": rnd.tournament, "round": rnd, "tables": tables, "ref": people["referee"], "ref2": people["referees"][1],
            "organiser": people["organiser"]}


def test_player_standings_through_the_same_cache(sichuan, monkeypatch):
    """Four-player standings count finished and confirmed tables only (like Tai Pan; was: any
    table with deals) and are kept under their own key."""
    t, (table, other) = sichuan["t"], sichuan["tables"]
    record, net = DEALS["sichuan"]
    keys = [key(t, "players")]
    sheet.add_record(table, record, sichuan["ref"], expected_version=table.version)
    assert key(t, "players") == keys[-1]  # playing: nothing counted changed, the same key
    assert all(r.played == 0 and r.rank is None for r in player_standings(t))  # playing: not counted
    sheet.end_at_time(table, sichuan["ref"], expected_version=table.version, reason="time")
    keys.append(key(t, "players"))
    rows = player_standings(t)
    assert rows == players.standings(t) == caches["default"].get(key(t, "players"))
    seated = [s.player.name for s in table.seats.order_by("seat")]
    # East +6, the others -2 each; the four players of the other table have not played (no rank)
    assert [(r.rank, r.name, r.total) for r in rows[:4]] == [(1, seated[0], 6), (2, seated[1], -2), (2, seated[2], -2), (2, seated[3], -2)]
    assert [r.total for r in rows[:4]] == sorted(net, reverse=True)
    assert all(r.rank is None and r.played == 0 for r in rows[4:])
    sheet.confirm(table, sichuan["ref2"], expected_version=table.version)
    keys.append(key(t, "players"))
    sheet.reopen(table, sichuan["ref2"], "wrong winner", expected_version=table.version)
    keys.append(key(t, "players"))
    player = table.seats.get(seat=0).player
    player.name = "Renamed"
    player.save()
    keys.append(key(t, "players"))
    assert "Renamed" in [r.name for r in player_standings(t)]
    assert len(set(keys)) == len(keys) == 5
    calls = []
    real = players.standings
    monkeypatch.setattr(players, "standings", lambda *a, **k: calls.append(1) or real(*a, **k))
    player_standings(t)
    player_standings(Tournament.objects.get(pk=t.pk))
    assert calls == []  # nothing changed since the last read: a hit
    play(other, [record], sichuan["ref"], end_reason="time")
    assert player_standings(t) == real(t) and calls == [1]


def test_player_standings_with_a_broken_cache_and_fixed_queries(monkeypatch, client):
    small, _ = table_round("sichuan", tables=1)
    big, _ = table_round("sichuan", tables=10)
    counts = [count_queries(lambda t=rnd.tournament: player_standings(t)) for rnd in (small, big)]
    assert counts[0] == counts[1]
    pages = []
    for rnd in (small, big):
        with CaptureQueriesContext(connection) as ctx:
            assert client.get(reverse("scoring:standings", args=[rnd.tournament.slug])).status_code == 200
        pages.append(len(ctx.captured_queries))
    assert pages[0] == pages[1]
    monkeypatch.setattr(caching, "caches", defaultdict(BrokenCache))
    assert player_standings(big.tournament) == players.standings(big.tournament)
    assert client.get(reverse("scoring:player_standings", args=[big.tournament.slug])).status_code == 200
