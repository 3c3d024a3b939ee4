"""The same login link opened by two phones at the same moment (issue 22 acceptance), on
PostgreSQL: both requests are released together by a barrier (:func:`tests.race.race`), each in
its own thread and database connection, :data:`TRIES` times. The invariant, checked after every
try: exactly one of them is logged in (as the invited account), the other is refused and holds no
login, and the invitation is marked used once.

:func:`scoring.participants.invitations.accept` locks the invitation row and checks inside the
lock that it was not used, so the second request sees the first one's ``used_at``.
"""
from __future__ import annotations

import os

import pytest
from django.db import connection
from django.test import Client
from django.urls import reverse

from scoring.models import Invitation
from scoring.participants import invitations
from scoring.policy import SYSTEM
from tests.factories import TournamentFactory
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Tries per race: at least 50, more with RACE_TRIES=N for a longer run.
TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"


def test_race_one_login_link_opened_twice_at_once_logs_in_once():
    tournament = TournamentFactory()
    for i in range(TRIES):
        invitation, token = invitations.invite(tournament, SYSTEM, role="referee", username=f"race-ref-{i}")
        phones = [Client(), Client()]

        def open_on(phone, token=token):
            return lambda: phone.post(reverse("scoring:open_invitation"), {"code": token})

        outcomes = race(open_on(phones[0]), open_on(phones[1]))
        assert all(o.ok for o in outcomes), [o.error for o in outcomes]
        statuses = sorted(o.value.status_code for o in outcomes)
        assert statuses == [302, 400], (i, statuses)
        logged = [p.session.get("_auth_user_id") for p in phones]
        assert sorted(x for x in logged if x) == [str(invitation.user_id)], (i, logged)
        assert logged.count(None) == 1, (i, logged)
        used = Invitation.objects.get(pk=invitation.pk)
        assert used.used_at is not None and used.revoked_at is None


def test_race_accept_service_gives_the_invitation_once():
    tournament = TournamentFactory()
    for i in range(TRIES):
        invitation, token = invitations.invite(tournament, SYSTEM, role="organiser", username=f"race-org-{i}")
        outcomes = race(lambda t=token: invitations.accept(t), lambda t=token: invitations.accept(t))
        got = [o.value for o in outcomes if o.ok]
        assert len(got) == 2 and sorted(x is None for x in got) == [False, True], (i, got)
        assert [x.pk for x in got if x is not None] == [invitation.pk]
