"""Login throttling per account with growing delays (issue 22 item 3; django-axes configured in
``nskt/settings.py``, the cool-off in :mod:`scoring.participants.logins`).

Failures count per username from every address together: 8 wrong passwords from 8 addresses
lock the account after the fifth (``AXES_FAILURE_LIMIT`` 5), for everyone, the right password
too, with the site's translated page (429, ``Retry-After``), not a bare 403. After the cool-off the
owner's own phone logs in. The cool-off doubles each time the limit is reached again (1 minute,
then 2, 4 ... at most 60). No test waits: the recorded attempts are moved back in time instead."""
from __future__ import annotations

from datetime import timedelta

import pytest
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog, AccessLog
from django.db.models import F
from django.test import Client
from django.urls import reverse

from scoring.participants import invitations, logins

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

RIGHT = "Right-Password-2026"
LOGIN = "/accounts/login/"


@pytest.fixture(autouse=True)
def _axes_on(settings):
    settings.AXES_ENABLED = True
    settings.AXES_FAILURE_LIMIT = 5
    settings.AXES_COOLOFF_MINUTES = 1
    settings.AXES_COOLOFF_MAX_MINUTES = 60


def device(n: int) -> Client:
    client = Client(REMOTE_ADDR=f"198.51.100.{n}")
    client.cookies["django_language"] = "en"
    return client


def attempt(n: int, username: str, password: str):
    return device(n).post(LOGIN, {"username": username, "password": password})


def logged_in(response) -> bool:
    return response.status_code == 302 and "_auth_user_id" in response.wsgi_request.session


def age(seconds: float) -> None:
    """Everything axes recorded happened ``seconds`` earlier (instead of waiting)."""
    delta = timedelta(seconds=seconds)
    AccessAttempt.objects.update(attempt_time=F("attempt_time") - delta)
    AccessAttemptExpiration.objects.update(expires_at=F("expires_at") - delta)
    AccessFailureLog.objects.update(attempt_time=F("attempt_time") - delta)
    AccessLog.objects.update(attempt_time=F("attempt_time") - delta)


@pytest.fixture
def anna(django_user_model):
    return django_user_model.objects.create_user("anna", password=RIGHT)


def test_eight_addresses_are_throttled_per_account_and_the_owner_gets_in_after_the_cool_off(anna):
    answers = [attempt(n, "anna", "wrong") for n in range(1, 9)]
    # The fifth failure is answered with the lockout page already.
    assert [r.status_code for r in answers] == [200] * 4 + [429] * 4
    locked = attempt(20, "anna", RIGHT)  # the owner's own phone, right password, during the lock
    assert locked.status_code == 429 and not logged_in(locked)
    html = locked.content.decode()
    assert 'class="site"' in html and 'id="locked-out"' in html
    assert "Try again in 1 minute." in html and "login link" in html
    assert 1 <= int(locked["Retry-After"]) <= 60
    age(61)
    assert logged_in(attempt(20, "anna", RIGHT))
    assert not AccessAttempt.objects.filter(username="anna").exists()  # a login clears the failures


def test_tries_during_a_lockout_do_not_extend_it(anna):
    for n in range(5):
        attempt(n, "anna", "wrong")
    age(30)
    for n in range(5, 10):
        assert attempt(n, "anna", "wrong").status_code == 429
    age(31)
    assert logged_in(attempt(20, "anna", RIGHT))


def test_the_cool_off_grows_each_time_the_limit_is_reached_again(anna):
    for n in range(5):
        attempt(n, "anna", "wrong")
    age(61)
    assert [attempt(n, "anna", "wrong").status_code for n in range(5, 10)] == [200] * 4 + [429]
    assert attempt(11, "anna", RIGHT).status_code == 429
    age(61)  # the first cool-off would be over: the second is 2 minutes
    locked = attempt(11, "anna", RIGHT)
    assert locked.status_code == 429 and "Try again in 1 minute." in locked.content.decode()
    age(60)
    assert logged_in(attempt(11, "anna", RIGHT))


def test_cool_off_values():
    """1 minute until the limit (5) is reached twice, then doubled each further time, at most 60."""
    assert [logins.cool_off_for(n).total_seconds() / 60 for n in (0, 4, 5, 9, 10, 14, 15, 20, 25, 30, 35, 200)] == \
        [1, 1, 1, 1, 2, 2, 4, 8, 16, 32, 60, 60]


def test_a_failure_on_another_account_does_not_clear_this_ones(anna, django_user_model):
    django_user_model.objects.create_user("ref", password=RIGHT)
    for n in range(5):
        attempt(n, "anna", "wrong")
    age(61)
    for n in range(5, 10):
        attempt(n, "anna", "wrong")  # second lockout: 2 minutes
    age(61)
    attempt(30, "ref", "wrong")  # ref's own cool-off is 1 minute
    assert attempt(11, "anna", RIGHT).status_code == 429


def test_a_login_link_lets_a_locked_out_member_in_at_once(anna, cup):
    from scoring.models import Membership

    Membership.objects.create(tournament=cup.tournament, user=anna, role="referee")
    for n in range(6):
        attempt(n, "anna", "wrong")
    _invitation, token = invitations.invite(cup.tournament, cup.organiser, role="referee", user=anna)
    phone = device(40)
    response = phone.post(reverse("scoring:open_invitation"), {"code": token})
    assert logged_in(response)
    assert not AccessAttempt.objects.filter(username="anna").exists()


def test_other_accounts_are_not_throttled(anna, django_user_model):
    django_user_model.objects.create_user("ref", password=RIGHT)
    for n in range(8):
        attempt(n, "anna", "wrong")
    assert logged_in(attempt(1, "ref", RIGHT))
