"""A round is not published on top of a reopened result (issue 23 item 7): when a result of an
earlier, closed round was reopened after the next round was drawn, publishing the draft is
refused with a warning the organiser may confirm ("Publish anyway"); the round page lists the
warning and offers the tick box. Tai Pan and four-player rounds alike."""
from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.draw import rounds
from scoring.models import Round
from scoring.results import disputes
from tests.draw.test_publish_checks import closed_round_one, draft, english, texts, world  # noqa: F401 - fixtures
from tests.factories import RoundFactory, TableFactory, move_round, staff, table_round

pytestmark = pytest.mark.django_db


def reopened(w) -> tuple[Round, Round]:
    """Round 1 closed, round 2 drafted (A-C, B-D, no rematch), then a result of round 1 reopened
    by the organiser: round 1 is in progress again."""
    one = closed_round_one(w)
    two = draft(w, 2, [(0, 2), (1, 3)])
    disputes.reopen(one.matches.get(table=1), w["org"], "card points swapped")
    one.refresh_from_db()
    assert one.status == Round.Status.IN_PROGRESS
    return one, two


def test_publish_refused_while_an_earlier_result_is_reopened(world):  # noqa: F811
    _one, two = reopened(world)
    with pytest.raises(rounds.PublishRefused) as refused:
        rounds.publish_round(two, world["org"])
    assert refused.value.needs_confirmation
    assert "Round 1 is not closed" in refused.value.problems[0]
    two.refresh_from_db()
    assert two.status == Round.Status.DRAFT


def test_publish_anyway_after_the_warning(world):  # noqa: F811
    _one, two = reopened(world)
    rounds.publish_round(two, world["org"], accept_warnings=True)
    assert two.status == Round.Status.PUBLISHED


def test_no_warning_once_the_result_is_confirmed_again(world):  # noqa: F811
    one = closed_round_one(world)
    two = draft(world, 2, [(0, 2), (1, 3)])
    assert rounds.draft_warnings(two) == []
    rounds.publish_round(two, world["org"])
    assert two.status == Round.Status.PUBLISHED and one.status == Round.Status.CLOSED


def test_round_page_shows_the_warning_and_the_tick(client, world):  # noqa: F811
    _one, two = reopened(world)
    client.force_login(world["org"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 2])).content.decode()
    assert "Round 1 is not closed" in page and 'name="publish_anyway"' in page
    url = reverse("scoring:round_publish", args=["qa", 2])
    r = client.post(url)
    assert any("Round 1 is not closed" in m for m in texts(r))
    two.refresh_from_db()
    assert two.status == Round.Status.DRAFT
    client.post(url, {"publish_anyway": "1"})
    two.refresh_from_db()
    assert two.status == Round.Status.PUBLISHED


def test_four_player_round_too():
    rnd, _tables = table_round("sichuan", tables=1, status=Round.Status.IN_PROGRESS)
    organiser = staff(rnd.tournament)["organiser"]
    second = RoundFactory(tournament=rnd.tournament, number=2, status=Round.Status.DRAFT)
    TableFactory(round=second, number=1)
    with pytest.raises(rounds.PublishRefused) as refused:
        rounds.publish_round(second, organiser)
    assert refused.value.needs_confirmation
    move_round(rnd, Round.Status.CLOSED)
    rounds.publish_round(second, organiser)
    assert second.status == Round.Status.PUBLISHED
