"""Race of an idempotent API retry against a second writer (issue 22 acceptance), on PostgreSQL:
a referee's program sends a hand and, its answer lost, the same request again with the same
``Idempotency-Key``, while a second referee sends another hand for the same version of the same
match; the three requests are released together by a barrier (:func:`tests.race.race`), each in
its own thread and database connection, at least :data:`TRIES` times. After every try:

- exactly one hand is stored (both writers read version 0; the sheet compares it inside the lock);
- the retry gets exactly the first request's answer (status and body);
- whoever came second gets 409 ``stale_version``: the second referee if the keyed hand was
  stored (and then the key holds that answer), otherwise both keyed requests (and no key is kept).

Values (NSKT): a Tai Pan made by N is NS 175 : EW 25; a plain hand 75 : 25.
"""
from __future__ import annotations

import os
from collections import Counter

import pytest
from django.db import connection
from rest_framework.test import APIClient

from scoring.models import Hand, IdempotentAnswer
from tests.api.conftest import api_url
from tests.factories import PLAIN_HAND, TAI_PAN_HAND, staff, taipan_round
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"


def _send(user, url, record, key):
    def go():
        client = APIClient()
        client.force_authenticate(user=user)
        r = client.post(url, {"version": 0, "record": record}, format="json", HTTP_IDEMPOTENCY_KEY=key)
        return r.status_code, r.json(), r.has_header("Idempotent-Replayed")
    return go


def test_race_idempotent_retry_vs_second_writer():
    seen = Counter()
    for i in range(TRIES):
        rnd, (match,) = taipan_round()
        members = staff(rnd.tournament, referees=2)
        first, second = members["referees"]
        url = api_url("match-records", rnd.tournament.slug, match.pk)
        key = f"try-{i}"
        original, retry, other = race(_send(first, url, TAI_PAN_HAND, key), _send(first, url, TAI_PAN_HAND, key),
                                      _send(second, url, PLAIN_HAND, f"other-{i}"))
        assert original.ok and retry.ok and other.ok
        (a_status, a_body, a_replayed), (r_status, r_body, r_replayed), (o_status, o_body, _o) = \
            original.value, retry.value, other.value
        hands = list(Hand.objects.filter(match=match).values_list("number", "ns", "ew"))
        assert len(hands) == 1, (i, hands)
        assert (a_status, a_body) == (r_status, r_body), i
        stored = IdempotentAnswer.objects.filter(actor=f"user:{first.pk}", key=key).first()
        if a_status == 201:
            assert hands == [(1, 175, 25)] and a_body["totals"] == [175, 25]
            assert o_status == 409 and o_body["code"] == "stale_version"
            assert sorted([a_replayed, r_replayed]) == [False, True]  # one ran, the other got its answer
            assert stored is not None and (stored.status, stored.body) == (201, a_body)
            seen["keyed hand first"] += 1
        else:
            assert a_status == 409 and a_body["code"] == "stale_version"
            assert o_status == 201 and hands == [(1, 75, 25)] and o_body["totals"] == [75, 25]
            assert stored is None and not a_replayed and not r_replayed
            seen["second writer first"] += 1
    assert sum(seen.values()) == TRIES
    print(dict(seen))
