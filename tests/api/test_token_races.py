"""Race of API token issuing (issue 22 item 4), on PostgreSQL: a user holding one token less than
the limit issues two at the same moment (two threads released by a barrier, :func:`tests.race.race`),
many times; :func:`scoring.participants.api_tokens.issue` counts under a lock on the user's row,
so exactly one is issued and the user never holds more than the limit."""
from __future__ import annotations

import os

import pytest
from django.db import connection

from scoring.models import ApiToken
from scoring.participants import api_tokens
from tests.factories import UserFactory
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TRIES = max(30, int(os.environ.get("RACE_TRIES", "30")))


def test_issue_race_never_passes_the_limit():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"
    user = UserFactory()

    def issue(name: str):
        def run():
            try:
                return api_tokens.issue(user, name).key
            except api_tokens.TooManyTokens:
                return None
        return run

    for attempt in range(TRIES):
        ApiToken.objects.filter(user=user).delete()
        for i in range(api_tokens.LIMIT - 1):
            api_tokens.issue(user, f"t{i}")
        outcomes = race(issue("a"), issue("b"))
        keys = [o.value for o in outcomes if o.ok and o.value]
        assert len(keys) == 1, (attempt, outcomes)
        assert ApiToken.objects.filter(user=user).count() == api_tokens.LIMIT, attempt
