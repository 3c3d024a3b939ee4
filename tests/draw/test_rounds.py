"""The round lifecycle shared by rounds of matches (Tai Pan) and rounds of tables (the
four-player games), :mod:`scoring.draw.rounds` and :mod:`scoring.draw.lifecycle` (docs/tournaments.md):
draft -> published -> in progress -> closed, with the same refusals and the same messages for
both kinds; a round closes only when every result is confirmed (byes need no confirmation); the
next round is drawn only when every earlier round is closed (a fully confirmed round is closed on
the way); the tournament goes from registration to running on the first publish and can be
finished (every round closed) and resumed.

Was: four-player rounds never went to "in progress" and had their own publish/close services
and messages; the tournament's status was a free form field."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied
from django.urls import reverse
from django.utils import translation

from scoring.draw import pairing, rounds, seating
from scoring.errors import NotAllowed
from scoring.games import registry
from scoring.models import Round, Tournament
from scoring.policy import SYSTEM
from scoring.results import sheet
from tests.factories import (
    MatchFactory,
    RoundFactory,
    TeamFactory,
    confirm_round,
    play,
    staff,
    table_round,
    taipan_round,
)
from tests.games.kits import kit

pytestmark = pytest.mark.django_db

@pytest.fixture(autouse=True)
def _english():
    with translation.override("en"):
        yield


def draft(game: str, *, tables: int = 2) -> Round:
    """Round 1 of a new tournament of ``game`` as a draft with ``tables`` matches or tables."""
    if registry.get(game).entrants == "teams":
        rnd, _ = taipan_round(tables=tables, status=Round.Status.DRAFT, game=game)
    else:
        rnd, _ = table_round(game, tables=tables, status=Round.Status.DRAFT)
    return rnd


def results(rnd: Round) -> list:
    """The round's matches or tables by table number."""
    return list(rnd.matches.order_by("table")) if rnd.tournament.has_teams else list(rnd.tables.order_by("number"))


def records(game: str) -> list[dict]:
    """Records that finish a result of ``game`` (its test kit's ``finishing``; Tai Pan: 800 : 0;
    four-player: one deal, then the table is ended at the time limit)."""
    return kit(game).finishing


def draw_next(tournament: Tournament) -> Round:
    """Draw the next round the way the game draws: pair teams or seat players."""
    if tournament.has_teams:
        return pairing.pair_next_round(tournament, SYSTEM)
    return seating.seat_round(tournament, SYSTEM).round


def refusal(action, *args) -> str:
    with pytest.raises(NotAllowed) as err:
        action(*args)
    return str(err.value)


# --------------------------------------------------------------------------- publish / start / close


@pytest.mark.every_game
def test_publish_start_close_with_the_same_refusals_for_every_kind(game):
    rnd = draft(game)
    t = rnd.tournament
    assert t.status == Tournament.Status.SETUP
    assert refusal(rounds.start_round, rnd, SYSTEM) == "Only a published round can be started; round 1 is Draft."
    assert refusal(rounds.close_round, rnd, SYSTEM) == "Only a published or running round can be closed; round 1 is Draft."

    rounds.publish_round(rnd, SYSTEM)
    assert rnd.status == Round.Status.PUBLISHED
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING  # registration -> running on the first publish
    assert refusal(rounds.publish_round, rnd, SYSTEM) == "Only a draft round can be published; round 1 is Published."

    rounds.start_round(rnd, SYSTEM)
    assert rnd.status == Round.Status.IN_PROGRESS
    assert refusal(rounds.start_round, rnd, SYSTEM) == "Only a published round can be started; round 1 is In progress."
    assert refusal(rounds.close_round, rnd, SYSTEM) == (
        "Round 1 cannot be closed: the result of table(s) 1, 2 is not confirmed yet.")

    referee, confirmer = staff(t)["referees"]
    first, second = results(rnd)
    play(first, records(game), referee, end_reason="time limit", confirmer=confirmer)
    assert refusal(rounds.close_round, rnd, SYSTEM) == (
        "Round 1 cannot be closed: the result of table(s) 2 is not confirmed yet.")
    play(second, records(game), referee, end_reason="time limit")  # finished, not confirmed
    assert second.status == second.Status.FINISHED
    assert "table(s) 2 is not confirmed" in refusal(rounds.close_round, rnd, SYSTEM)
    sheet.confirm(second, confirmer, expected_version=second.version)
    rounds.close_round(rnd, SYSTEM)
    assert rnd.status == Round.Status.CLOSED
    assert refusal(rounds.close_round, rnd, SYSTEM) == "Only a published or running round can be closed; round 1 is Closed."
    assert refusal(rounds.publish_round, rnd, SYSTEM) == "Only a draft round can be published; round 1 is Closed."
    assert refusal(rounds.start_round, rnd, SYSTEM) == "Only a published round can be started; round 1 is Closed."


@pytest.mark.parametrize("game", ["taipan", "sichuan"])
def test_the_first_record_starts_a_published_round(game):
    rnd = draft(game)
    rounds.publish_round(rnd, SYSTEM)
    result = results(rnd)[0]
    sheet.add_record(result, records(game)[0], staff(rnd.tournament)["referee"], expected_version=result.version)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS
    # a published round may also be closed directly once everything is confirmed
    other = draft(game)
    rounds.publish_round(other, SYSTEM)
    confirm_round(other, *staff(other.tournament)["referees"])
    other.refresh_from_db()
    assert other.status == Round.Status.IN_PROGRESS  # entering the results started it
    rounds.close_round(other, SYSTEM)
    assert other.status == Round.Status.CLOSED


@pytest.mark.parametrize("game", ["taipan", "sichuan"])
def test_a_round_without_tables_is_not_published(game):
    rnd = draft(game)
    empty = RoundFactory(tournament=rnd.tournament, number=2, status=Round.Status.DRAFT)
    assert refusal(rounds.publish_round, empty, SYSTEM) == "Round 2 has no tables yet."
    assert Round.objects.get(pk=empty.pk).status == Round.Status.DRAFT


@pytest.mark.parametrize("game", ["taipan", "sichuan"])
def test_only_organisers_run_rounds(game):
    rnd = draft(game)
    people = staff(rnd.tournament)
    for actor in (people["referee"], people["outsider"]):
        with pytest.raises(PermissionDenied):
            rounds.publish_round(rnd, actor)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    rounds.publish_round(rnd, people["organiser"])
    for action in (rounds.start_round, rounds.close_round):
        with pytest.raises(PermissionDenied):
            action(rnd, people["referee"])
    rounds.start_round(rnd, people["organiser"])
    assert rnd.status == Round.Status.IN_PROGRESS


def test_byes_need_no_confirmation():
    rnd, _ = taipan_round(tables=2, status=Round.Status.DRAFT)
    bye = MatchFactory(round=rnd, table=3, team_ew=None)
    sheet.recompute(bye)  # as the pairing saves a bye: a finished win
    rounds.publish_round(rnd, SYSTEM, accept_warnings=True)
    confirm_round(rnd, *staff(rnd.tournament)["referees"])
    bye.refresh_from_db()
    assert bye.status == bye.Status.FINISHED
    rounds.close_round(rnd, SYSTEM)
    assert rnd.status == Round.Status.CLOSED


@pytest.mark.parametrize("game", ["taipan", "sichuan"])
def test_a_reopened_result_keeps_its_round_open(game):
    """A result reopened in a closed round (by an organiser) puts the round back in progress;
    it cannot be closed again until that result is confirmed again."""
    rnd = draft(game)
    rounds.publish_round(rnd, SYSTEM)
    people = staff(rnd.tournament)
    confirm_round(rnd, *people["referees"])
    rounds.close_round(rnd, SYSTEM)
    result = results(rnd)[1]
    sheet.reopen(result, people["organiser"], "wrong total", expected_version=result.version)
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.IN_PROGRESS
    assert refusal(rounds.close_round, rnd, SYSTEM) == (
        "Round 1 cannot be closed: the result of table(s) 2 is not confirmed yet.")
    sheet.confirm(result, people["referees"][1], expected_version=result.version)
    rounds.close_round(rnd, SYSTEM)
    assert rnd.status == Round.Status.CLOSED


# --------------------------------------------------------------------------- drawing the next round


@pytest.mark.every_game
def test_next_round_needs_every_earlier_round_closed(game):
    rnd = draft(game)
    t = rnd.tournament
    if t.has_teams:
        assert refusal(draw_next, t) == "Round 1 is still a draft: publish or edit it first."
    else:  # seating again re-seats the draft round (tests/draw/test_seating.py)
        assert draw_next(t).pk == rnd.pk
    rounds.publish_round(rnd, SYSTEM)
    assert refusal(draw_next, t) == "Round 1 is not closed: the result of table(s) 1, 2 is not confirmed yet."
    referee, confirmer = staff(t)["referees"]
    play(results(rnd)[0], records(game), referee, end_reason="time limit", confirmer=confirmer)
    assert refusal(draw_next, t) == "Round 1 is not closed: the result of table(s) 2 is not confirmed yet."
    assert t.rounds.count() == 1
    confirm_round(rnd, referee, confirmer)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.IN_PROGRESS
    second = draw_next(t)  # round 1 is fully confirmed: closed on the way
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED
    assert (second.number, second.status) == (2, Round.Status.DRAFT)


@pytest.mark.parametrize("game", ["taipan", "sichuan"])
def test_an_earlier_reopened_round_blocks_the_next_draw(game):
    """Not only the last round: a result reopened in round 1 while round 2 is closed stops round 3."""
    rnd = draft(game, tables=2)
    t = rnd.tournament
    people = staff(t)
    crew = people["referees"]
    rounds.publish_round(rnd, SYSTEM)
    confirm_round(rnd, *crew)
    second = draw_next(t)
    rounds.publish_round(second, SYSTEM, **({"accept_warnings": True} if t.has_teams else {}))
    confirm_round(second, *crew)
    rounds.close_round(second, SYSTEM)
    reopened = results(rnd)[0]
    sheet.reopen(reopened, people["organiser"], "typo", expected_version=reopened.version)
    assert refusal(draw_next, t) == "Round 1 is not closed: the result of table(s) 1 is not confirmed yet."
    assert t.rounds.count() == 2


def test_a_team_joining_later_is_paired_from_a_factory_round():
    """The pairing reads the standings of rounds built by the factories like any other round."""
    rnd, _ = taipan_round(tables=2)
    late = TeamFactory(tournament=rnd.tournament, joined_round=2)
    confirm_round(rnd, *staff(rnd.tournament)["referees"])
    second = draw_next(rnd.tournament)
    paired = {x for m in second.matches.all() for x in (m.team_ns_id, m.team_ew_id)}
    assert late.pk in paired and second.matches.filter(team_ew=None).count() == 1


# --------------------------------------------------------------------------- the tournament


@pytest.mark.parametrize("game", ["taipan", "sichuan"])
def test_finish_and_resume_the_tournament(game):
    rnd = draft(game)
    t = rnd.tournament
    people = staff(t)
    assert refusal(rounds.finish_tournament, t, SYSTEM) == "Only a running tournament can be finished."
    assert refusal(rounds.resume_tournament, t, SYSTEM) == "Only a finished tournament can be resumed."
    rounds.publish_round(rnd, SYSTEM)
    assert refusal(rounds.finish_tournament, t, SYSTEM) == "Close every round before finishing the tournament."
    confirm_round(rnd, *people["referees"])
    rounds.close_round(rnd, SYSTEM)
    draw_next(t)  # a draft round is not closed either
    assert refusal(rounds.finish_tournament, t, SYSTEM) == "Close every round before finishing the tournament."
    t.rounds.filter(number=2).delete()
    with pytest.raises(PermissionDenied):
        rounds.finish_tournament(t, people["referee"])
    rounds.finish_tournament(t, people["organiser"])
    assert t.status == Tournament.Status.FINISHED
    assert refusal(rounds.finish_tournament, t, SYSTEM) == "Only a running tournament can be finished."
    with pytest.raises(PermissionDenied):
        rounds.resume_tournament(t, people["referee"])
    rounds.resume_tournament(t, people["organiser"])
    assert t.status == Tournament.Status.RUNNING
    assert refusal(rounds.resume_tournament, t, SYSTEM) == "Only a finished tournament can be resumed."


def test_publishing_a_later_round_leaves_a_running_tournament_running():
    rnd = draft("sichuan")
    t = rnd.tournament
    rounds.publish_round(rnd, SYSTEM)
    confirm_round(rnd, *staff(t)["referees"])
    second = draw_next(t)
    rounds.publish_round(second, SYSTEM)
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING


def test_tournament_state_page_finishes_and_resumes(client, settings):
    """The organiser's finish/resume buttons (POST ``action``); a refusal is shown as a message."""
    settings.LANGUAGE_CODE = "en"
    rnd = draft("taipan")
    t = rnd.tournament
    people = staff(t)
    url = reverse("scoring:tournament_state", args=[t.slug])
    client.force_login(people["referee"])
    assert client.post(url, {"action": "finish"}).status_code == 403
    client.force_login(people["organiser"])
    page = client.post(url, {"action": "finish"}, follow=True)
    assert page.status_code == 200 and "Only a running tournament can be finished." in page.content.decode()
    rounds.publish_round(rnd, SYSTEM)
    confirm_round(rnd, *people["referees"])
    rounds.close_round(rnd, SYSTEM)
    assert client.post(url, {"action": "finish"}).status_code == 302
    t.refresh_from_db()
    assert t.status == Tournament.Status.FINISHED
    assert client.post(url, {"action": "resume"}).status_code == 302
    t.refresh_from_db()
    assert t.status == Tournament.Status.RUNNING
