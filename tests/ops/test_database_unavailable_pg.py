"""A dropped PostgreSQL connection (issue 22 item 6), for real: query number ``n`` of a request
first has its server process terminated (``pg_terminate_backend`` from a second connection, as a
database restart or a network cut does), for every ``n`` the request makes. A read is answered
after one more try; a write is 503 with ``Retry-After`` and stored nothing, or stored and its
retry with the same ``Idempotency-Key`` gets the answer; never a 500, never a second hand.

Values (NSKT): a Tai Pan made by N is NS 175 : EW 25."""
from __future__ import annotations

import psycopg
import pytest
from django.db import connection
from rest_framework.test import APIClient

from scoring.models import Hand
from tests.api.conftest import api_url
from tests.factories import TAI_PAN_HAND
from tests.ops.test_database_unavailable import Fault, _api, _match

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


@pytest.fixture(autouse=True)
def _postgresql():
    assert connection.vendor == "postgresql", "these tests need PostgreSQL"


class Drop(Fault):
    """Terminates the server process of the request's connection before query ``fail_at``."""

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        if self.count == self.fail_at:
            self.failed += 1
            pid = context["connection"].connection.info.backend_pid
            params_ = connection.get_connection_params()
            with psycopg.connect(**{k: v for k, v in params_.items() if k != "cursor_factory"}, autocommit=True) as other:
                other.execute("SELECT pg_terminate_backend(%s)", [pid])
        return execute(sql, params, many, context)


def test_a_read_survives_a_dropped_connection():
    match, _referee = _match()
    url = api_url("tournament-detail", match.round.tournament.slug)
    expected = APIClient().get(url).json()
    counter = Fault()
    with connection.execute_wrapper(counter):
        APIClient().get(url)
    for n in range(1, counter.count + 1):
        drop = Drop(n)
        with connection.execute_wrapper(drop):
            r = APIClient(raise_request_exception=False).get(url)
        assert drop.failed == 1 and r.status_code == 200 and r.json() == expected, n


def test_a_write_on_a_dropped_connection_is_503_or_stored_once():
    match, referee = _match()
    counter = Fault()
    with connection.execute_wrapper(counter):
        _api(referee).post(api_url("match-records", match.round.tournament.slug, match.pk),
                           {"version": 0, "record": TAI_PAN_HAND}, format="json", HTTP_IDEMPOTENCY_KEY="probe")
    seen = set()
    for n in range(1, counter.count + 1):
        match, referee = _match()
        url = api_url("match-records", match.round.tournament.slug, match.pk)
        body = {"version": 0, "record": TAI_PAN_HAND}
        with connection.execute_wrapper(Drop(n)):
            first = _api(referee).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"k{n}")
        assert first.status_code in (201, 503), (n, first.status_code)
        if first.status_code == 503:
            assert first["Retry-After"] == "5" and first.json()["code"] == "service_unavailable"
        seen.add((first.status_code, Hand.objects.filter(match=match).count()))
        retry = _api(referee).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"k{n}")
        assert retry.status_code == 201 and retry.json()["totals"] == [175, 25], n
        assert list(Hand.objects.filter(match=match).values_list("ns", "ew")) == [(175, 25)], n
    assert (503, 0) in seen and seen <= {(503, 0), (201, 1)}


def _terminate_backend() -> None:
    """Terminate the server process of the test's open connection from a second connection (a
    database restart between two requests)."""
    connection.ensure_connection()
    pid = connection.connection.info.backend_pid
    params = connection.get_connection_params()
    with psycopg.connect(**{k: v for k, v in params.items() if k != "cursor_factory"}, autocommit=True) as other:
        other.execute("SELECT pg_terminate_backend(%s)", [pid])


def test_a_write_after_the_connection_died_between_requests_is_stored():
    """Reads run without a health check (CONN_HEALTH_CHECKS off); a write checks its connection
    first, so a connection that died between two requests costs the write nothing: 201, stored
    once (not a 503 asking the referee to try again)."""
    match, referee = _match()
    _terminate_backend()
    r = _api(referee).post(api_url("match-records", match.round.tournament.slug, match.pk),
                           {"version": 0, "record": TAI_PAN_HAND}, format="json", HTTP_IDEMPOTENCY_KEY="after-restart")
    assert r.status_code == 201 and r.json()["totals"] == [175, 25]
    assert list(Hand.objects.filter(match=match).values_list("ns", "ew")) == [(175, 25)]


def test_a_read_after_the_connection_died_between_requests_is_answered():
    match, _referee = _match()
    url = api_url("tournament-detail", match.round.tournament.slug)
    expected = APIClient().get(url).json()
    _terminate_backend()
    r = APIClient(raise_request_exception=False).get(url)
    assert r.status_code == 200 and r.json() == expected
