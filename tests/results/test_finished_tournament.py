"""A finished tournament is closed for business until the organiser resumes it: no new round is
drawn and no confirmed result is reopened; and the confirm action is offered only to someone who
may confirm (never to the person who entered the result)."""
import pytest
from django.urls import reverse

from scoring.draw import pairing, rounds
from scoring.errors import NotAllowed
from scoring.policy import SYSTEM
from scoring.results import sheet
from tests.factories import PLAIN_HAND, play, staff, taipan_round

pytestmark = pytest.mark.django_db


def _finished():
    rnd, (match,) = taipan_round()
    people = staff(rnd.tournament)
    referee, other = people["referees"]
    play(match, [PLAIN_HAND], referee, end_reason="time", confirmer=other)
    rounds.close_round(rnd, SYSTEM)
    rounds.finish_tournament(rnd.tournament, SYSTEM)
    return rnd, match, people


def test_a_finished_tournament_draws_no_round_and_reopens_no_result_until_resumed():
    rnd, match, people = _finished()
    with pytest.raises(NotAllowed, match="finished"):
        pairing.pair_next_round(rnd.tournament, SYSTEM)
    with pytest.raises(NotAllowed, match="finished"):
        sheet.reopen(match, people["organiser"], "typo", expected_version=match.version)
    rounds.resume_tournament(rnd.tournament, SYSTEM)
    sheet.reopen(match, people["organiser"], "typo", expected_version=match.version)
    assert match.status == match.Status.FINISHED


def test_the_confirm_link_is_not_offered_to_the_person_who_entered_the_result(client):
    rnd, (match,) = taipan_round()
    referee, other = staff(rnd.tournament)["referees"]
    play(match, [PLAIN_HAND], referee, end_reason="time")
    url = reverse("scoring:match_detail", args=[rnd.tournament.slug, match.pk])
    confirm = reverse("scoring:match_confirm", args=[rnd.tournament.slug, match.pk])
    client.force_login(referee)
    assert confirm not in client.get(url).content.decode()
    client.force_login(other)
    assert confirm in client.get(url).content.decode()
