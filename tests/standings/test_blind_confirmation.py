"""With blind confirmation a result counts in the standings only once it is confirmed
(:mod:`scoring.standings.counting`, docs/tournaments.md "Which results count", docs/results.md):
the side that is to confirm must not read the hidden totals off the standings. Without it a
finished result counts at once. A Tai Pan bye needs no confirmation and counts at once.

Values from the rules: two hands :data:`~tests.factories.GRAND_DOUBLE_VICTORY_NS` (Grand Tai Pan
called by N and a double victory of NS: 200 + 200 = 400 : 0 each) finish a match 800 : 0 at the
NSKT target; NS wins 2 match points, EW 0; a bye is a win with 0:0 (2 match points). A Sichuan
self-drawn win by East (:data:`~tests.factories.DEALS`) is East +6, the others -2 each."""
from __future__ import annotations

import uuid

import pytest
from django.core.cache import caches

from scoring.models import Match, Table
from scoring.policy import SYSTEM
from scoring.results import sheet
from scoring.standings import player_standings, standings_key, team_standings
from scoring.standings.counting import counts
from tests.factories import (
    DEALS,
    GRAND_DOUBLE_VICTORY_NS,
    MatchFactory,
    RoundFactory,
    TournamentFactory,
    named_teams,
    play,
    staff,
    table_round,
)

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _own_cache(settings):
    """A fresh in-process cache per test (the standings are read through it)."""
    settings.CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache", "LOCATION": uuid.uuid4().hex}}
    assert type(caches["default"]).__name__ == "LocMemCache"


def _taipan(blind: bool):
    """Teams Alpha - Bravo at table 1 and a bye for Echo (table 2) in round 1; Alpha wins 800 : 0,
    finished, not confirmed."""
    t = TournamentFactory(blind_confirmation=blind)
    people = staff(t)
    alpha, bravo, echo = named_teams(t, ["Alpha", "Bravo", "Echo"])
    rnd = RoundFactory(tournament=t, number=1)
    match = MatchFactory(round=rnd, table=1, team_ns=alpha, team_ew=bravo)
    bye = MatchFactory(round=rnd, table=2, team_ns=echo, team_ew=None)
    sheet.recompute(bye)
    play(match, [GRAND_DOUBLE_VICTORY_NS] * 2, people["referees"][0])
    assert match.status == Match.Status.FINISHED and (match.total_ns, match.total_ew) == (800, 0)
    return t, people, match


def _points(rows) -> dict[str, tuple[int, int, int]]:
    """Team name -> (match points, played, point difference)."""
    return {r.name: (r.match_points, r.played, r.point_difference) for r in rows}


def test_blind_a_finished_match_counts_only_once_confirmed_and_the_key_changes():
    t, people, match = _taipan(blind=True)
    key_before = standings_key(t)
    before = _points(team_standings(t))
    assert before == {"Echo": (2, 1, 0), "Alpha": (0, 0, 0), "Bravo": (0, 0, 0)}  # only the bye counts
    assert not counts(match)
    sheet.confirm(match, people["referees"][1], expected_version=match.version, totals=[800, 0])
    assert counts(match)
    assert standings_key(t) != key_before
    after = _points(team_standings(t))
    assert after == {"Alpha": (2, 1, 800), "Echo": (2, 1, 0), "Bravo": (0, 1, -800)}


def test_without_blind_confirmation_a_finished_match_counts_at_once():
    t, _people, match = _taipan(blind=False)
    assert counts(match)
    assert _points(team_standings(t)) == {"Alpha": (2, 1, 800), "Echo": (2, 1, 0), "Bravo": (0, 1, -800)}


def test_turning_blind_confirmation_on_changes_the_key_and_takes_the_unconfirmed_result_out():
    t, _people, _match = _taipan(blind=False)
    assert _points(team_standings(t))["Alpha"] == (2, 1, 800)  # cached under the key without blind
    key = standings_key(t)
    t.blind_confirmation = True
    t.save()
    assert standings_key(t) != key
    assert _points(team_standings(t))["Alpha"] == (0, 0, 0)


def test_reopening_a_confirmed_blind_result_takes_it_out_again():
    t, people, match = _taipan(blind=True)
    sheet.confirm(match, people["referees"][1], expected_version=match.version, totals=[800, 0])
    assert _points(team_standings(t))["Alpha"] == (2, 1, 800)
    sheet.reopen(match, people["referees"][1], "hand 2 was miscounted", expected_version=match.version)
    assert _points(team_standings(t))["Alpha"] == (0, 0, 0)


def test_blind_four_player_totals_count_only_once_the_table_is_confirmed():
    rnd, (table,) = table_round("sichuan", names=["Ann", "Bob", "Cas", "Dee"], blind_confirmation=True)
    people = staff(rnd.tournament)
    play(table, [DEALS["sichuan"][0]], SYSTEM, end_reason="time")
    assert table.status == Table.Status.FINISHED
    totals = {r.name: (r.total, r.played, r.rank) for r in player_standings(rnd.tournament)}
    assert totals == {"Ann": (0, 0, None), "Bob": (0, 0, None), "Cas": (0, 0, None), "Dee": (0, 0, None)}
    sheet.confirm(table, people["referees"][0], expected_version=table.version, totals=[6, -2, -2, -2])
    totals = {r.name: (r.total, r.played, r.rank) for r in player_standings(rnd.tournament)}
    assert totals == {"Ann": (6, 1, 1), "Bob": (-2, 1, 2), "Cas": (-2, 1, 2), "Dee": (-2, 1, 2)}


def test_the_round_export_leaves_a_hidden_result_s_totals_empty(client):
    """The public round export (CSV) shows an unconfirmed result's totals only where the result
    page does: empty for the public under blind confirmation, 800 / 0 for a member, and for
    everyone once confirmed; a bye (no confirmation needed) always shows 0 / 0."""
    import csv
    import io

    from django.urls import reverse

    t, people, match = _taipan(blind=True)
    url = reverse("scoring:pairings_export", args=[t.slug, 1])

    def totals(c):
        rows = list(csv.reader(io.StringIO(c.get(url).content.decode("utf-8-sig"))))
        return {row[0]: row[-2:] for row in rows[1:]}

    assert totals(client) == {"1": ["", ""], "2": ["0", "0"]}
    member = type(client)()
    member.force_login(people["referees"][0])
    assert totals(member)["1"] == ["800", "0"]
    confirmer = people["referees"][1]
    sheet.confirm(Match.objects.get(pk=match.pk), confirmer, expected_version=match.version, totals=[800, 0])
    assert totals(client)["1"] == ["800", "0"]
