"""Announcements (:mod:`scoring.hall.announcements`, issue 23 item 6): organisers post and withdraw
short messages with an optional end time; the app posts one when pairings are published and when
a round starts (signals of the draw, :mod:`scoring.draw.signals`, sent once the change commits)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone, translation

from scoring.draw import rounds
from scoring.errors import NotAllowed, ServiceError
from scoring.hall import announcements
from scoring.models import Announcement, Round
from tests.factories import confirm_result, staff, taipan_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def world():
    rnd, _ = taipan_round()
    return rnd.tournament, staff(rnd.tournament)


def test_an_organiser_posts_and_withdraws_an_announcement(world):
    t, people = world
    a = announcements.post(t, people["organiser"], text="  Lunch   at 12:30  ")
    assert a.text == "Lunch at 12:30" and a.author == people["organiser"] and not a.automatic
    assert announcements.active(t) == [a]
    announcements.withdraw(a, people["organiser"])
    assert announcements.active(t) == []
    assert Announcement.objects.get(pk=a.pk).withdrawn_at is not None  # kept, never deleted
    with pytest.raises(NotAllowed, match="withdrawn already"):
        announcements.withdraw(a, people["organiser"])


def test_an_announcement_with_an_end_time_disappears_after_it(world):
    t, people = world
    now = timezone.now()
    a = announcements.post(t, people["organiser"], text="Parking closes", ends_at=now + timedelta(minutes=10))
    assert announcements.active(t, now + timedelta(minutes=9)) == [a]
    assert announcements.active(t, now + timedelta(minutes=10)) == []


@pytest.mark.parametrize(("text", "ends_in", "field", "message"), [
    ("", None, "text", "Write the announcement."),
    ("   ", None, "text", "Write the announcement."),
    ("x" * 281, None, "text", "at most 280 characters; this one has 281"),
    ("ok", timedelta(minutes=-1), "ends_at", "in the future"),
    ("ok", timedelta(days=8), "ends_at", "at most 7 days"),
])
def test_bad_announcements_are_refused_next_to_their_field(world, text, ends_in, field, message):
    t, people = world
    ends_at = timezone.now() + ends_in if ends_in else None
    with pytest.raises(ServiceError) as err:
        announcements.post(t, people["organiser"], text=text, ends_at=ends_at)
    assert err.value.field == field and message in str(err.value)
    assert not Announcement.objects.exists()


def test_exactly_280_characters_are_accepted(world):
    t, people = world
    assert len(announcements.post(t, people["organiser"], text="x" * 280).text) == 280


@pytest.mark.parametrize("who", ["referee", "outsider"])
def test_only_organisers_post_and_withdraw(world, who):
    t, people = world
    with pytest.raises(PermissionDenied):
        announcements.post(t, people[who], text="Hello")
    a = announcements.post(t, people["organiser"], text="Hello")
    with pytest.raises(PermissionDenied):
        announcements.withdraw(a, people[who])
    assert announcements.active(t) == [a]


def test_publishing_and_starting_a_round_post_automatic_announcements_each_replacing_the_last(django_capture_on_commit_callbacks):
    rnd, _ = taipan_round(status=Round.Status.DRAFT)
    t = rnd.tournament
    org = staff(t)["organiser"]
    with django_capture_on_commit_callbacks(execute=True):
        rounds.publish_round(rnd, org)
    (published,) = announcements.active(t)
    assert published.text == "Round 1 pairings are published: find your table."
    assert published.automatic and published.author is None
    assert timedelta(minutes=29) < published.ends_at - timezone.now() <= timedelta(minutes=30)
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start_round(rnd, org)
    assert [a.text for a in announcements.active(t)] == ["Round 1 has started."]


def test_an_organisers_own_announcement_stays_when_the_round_starts(django_capture_on_commit_callbacks):
    rnd, _ = taipan_round()
    t = rnd.tournament
    org = staff(t)["organiser"]
    mine = announcements.post(t, org, text="Phones on silent")
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start_round(rnd, org)
    assert [a.text for a in announcements.active(t)] == ["Round 1 has started.", mine.text]


def test_closing_the_round_withdraws_its_automatic_announcements_only(django_capture_on_commit_callbacks):
    """"Round 1 has started." is about a round being played: once it is closed it goes (tester
    24); the organisers' own announcements stay until their end or their withdrawal."""
    rnd, (match,) = taipan_round()
    t = rnd.tournament
    people = staff(t)
    mine = announcements.post(t, people["organiser"], text="Prize giving at 17:00")
    with django_capture_on_commit_callbacks(execute=True):
        rounds.start_round(rnd, people["organiser"])
    confirm_result(match, people["organiser"])
    with django_capture_on_commit_callbacks(execute=True):
        rounds.close_round(rnd, people["organiser"])
    assert [a.text for a in announcements.active(t)] == [mine.text]


def test_a_refused_publish_sends_no_announcement(django_capture_on_commit_callbacks):
    rnd, _ = taipan_round()  # published already
    org = staff(rnd.tournament)["organiser"]
    with django_capture_on_commit_callbacks(execute=True) as callbacks, pytest.raises(NotAllowed):
        rounds.publish_round(rnd, org)
    assert callbacks == [] and not Announcement.objects.exists()


def test_automatic_texts_are_stored_in_the_sites_language(settings, django_capture_on_commit_callbacks):
    settings.LANGUAGE_CODE = "nl"
    rnd, _ = taipan_round()
    with translation.override("en"), django_capture_on_commit_callbacks(execute=True):
        rounds.start_round(rnd, staff(rnd.tournament)["organiser"])
    (a,) = announcements.active(rnd.tournament)
    with translation.override("nl"):
        expected = translation.gettext("Round {number} has started.").format(number=1)
    assert a.text == expected
