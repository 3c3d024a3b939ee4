"""A lost database connection never becomes a 500 (issue 22 item 6): a read is tried once more,
a write is answered 503 with ``Retry-After`` and stored nothing, or, when only its answer was
lost, its retry with the same ``Idempotency-Key`` (API) or ``submission`` (entry form) returns
the stored answer. Faults are injected with Django's ``connection.execute_wrapper``: query
number ``n`` of a request raises ``OperationalError`` as a dropped connection does, for every
``n`` a request makes (on SQLite here; on PostgreSQL in ``test_database_unavailable_pg.py``).

Values (NSKT): a Tai Pan made by N is NS 175 : EW 25."""
from __future__ import annotations

import pytest
from django.db import OperationalError, connection
from django.test import Client
from django.urls import reverse
from rest_framework.test import APIClient

from scoring.models import Hand, IdempotentAnswer
from tests.api.conftest import api_url
from tests.factories import TAI_PAN_HAND, entry_data, staff, taipan_round

pytestmark = pytest.mark.django_db


class Fault:
    """An ``execute_wrapper`` that fails query number ``fail_at`` (1-based) of what runs inside it,
    and with ``always`` every query from there on, like a connection that dropped; counts queries."""

    def __init__(self, fail_at: int | None = None, *, always: bool = False):
        self.fail_at, self.always, self.count, self.failed = fail_at, always, 0, 0

    def __call__(self, execute, sql, params, many, context):
        self.count += 1
        if self.fail_at is not None and (self.count == self.fail_at or (self.always and self.count > self.fail_at)):
            self.failed += 1
            raise OperationalError("server closed the connection unexpectedly")
        return execute(sql, params, many, context)


def _api(user) -> APIClient:
    client = APIClient(raise_request_exception=False)
    client.force_authenticate(user=user)
    return client


def _match():
    rnd, (match,) = taipan_round()
    return match, staff(rnd.tournament, referees=1)["referee"]


def test_a_read_is_tried_once_more():
    match, _referee = _match()
    url = api_url("tournament-detail", match.round.tournament.slug)
    client = APIClient(raise_request_exception=False)
    expected = client.get(url).json()
    counter = Fault()
    with connection.execute_wrapper(counter):
        client.get(url)
    for n in range(1, counter.count + 1):
        fault = Fault(n)
        with connection.execute_wrapper(fault):
            r = client.get(url)
        assert r.status_code == 200 and r.json() == expected and fault.failed == 1, n


def test_a_page_read_is_tried_once_more():
    match, _referee = _match()
    url = reverse("scoring:standings", args=[match.round.tournament.slug])
    client = Client(raise_request_exception=False)
    assert client.get(url).status_code == 200
    fault = Fault(1)
    with connection.execute_wrapper(fault):
        r = client.get(url)
    assert r.status_code == 200 and fault.failed == 1


def test_a_read_that_fails_twice_is_503_not_500():
    match, _referee = _match()
    fault = Fault(1, always=True)
    with connection.execute_wrapper(fault):
        api = APIClient(raise_request_exception=False).get(api_url("tournament-detail", match.round.tournament.slug),
                                                           HTTP_ACCEPT_LANGUAGE="en")
        page = Client(raise_request_exception=False).get(reverse("scoring:standings", args=[match.round.tournament.slug]),
                                                         HTTP_COOKIE="django_language=en")
    assert api.status_code == 503 and api["Retry-After"] == "5"
    # A read saved nothing to begin with: its answer does not say "Nothing was saved".
    assert api.json()["code"] == "service_unavailable"
    assert api.json()["errors"][0]["message"] == "The database could not be reached for a moment; try again in a few seconds."
    assert page.status_code == 503 and page["Retry-After"] == "5" and page["Content-Type"].startswith("text/html")
    assert "Try again in a moment" in page.content.decode()


@pytest.mark.django_db(transaction=True)  # real commits: a failure after the commit is one of the cases
def test_an_api_write_is_503_or_stored_and_its_retry_gets_the_answer():
    """For every query of an idempotent record entry failing in turn: never a 500; a 503 stored
    nothing, or (the answer lost after the commit) its retry gets the stored answer; after the
    retry exactly one hand is stored, NS 175 : EW 25."""
    match, referee = _match()
    counter = Fault()
    with connection.execute_wrapper(counter):
        r = _api(referee).post(api_url("match-records", match.round.tournament.slug, match.pk),
                               {"version": 0, "record": TAI_PAN_HAND}, format="json", HTTP_IDEMPOTENCY_KEY="probe")
    assert r.status_code == 201
    outcomes = set()
    for n in range(1, counter.count + 1):
        match, referee = _match()
        url = api_url("match-records", match.round.tournament.slug, match.pk)
        body = {"version": 0, "record": TAI_PAN_HAND}
        fault = Fault(n)
        with connection.execute_wrapper(fault):
            first = _api(referee).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"k{n}")
        assert first.status_code in (201, 503), (n, first.status_code)
        stored = Hand.objects.filter(match=match).count()
        if first.status_code == 503:
            assert first["Retry-After"] == "5" and first.json()["code"] == "service_unavailable"
            kept = IdempotentAnswer.objects.filter(key=f"k{n}").exists()
            assert stored == (1 if kept else 0), n  # stored exactly when the key was kept
        retry = _api(referee).post(url, body, format="json", HTTP_IDEMPOTENCY_KEY=f"k{n}")
        assert retry.status_code == 201 and retry.json()["totals"] == [175, 25], n
        assert list(Hand.objects.filter(match=match).values_list("ns", "ew")) == [(175, 25)], n
        outcomes.add((first.status_code, stored))
    # Every failure before the commit is a 503 that stored nothing; one after it (the purge of
    # expired keys) costs nothing: the stored answer is given.
    assert outcomes == {(503, 0), (201, 1)}


@pytest.mark.django_db(transaction=True)
def test_an_entry_form_write_is_503_or_stored_and_its_resubmission_is_stored_once():
    match, referee = _match()
    slug = match.round.tournament.slug
    url = reverse("scoring:match_enter", args=[slug, match.pk])
    client = Client(raise_request_exception=False)
    client.force_login(referee)
    counter = Fault()
    with connection.execute_wrapper(counter):
        assert client.post(url, entry_data(match, TAI_PAN_HAND, submission="p" * 32)).status_code == 302
    statuses = set()
    for n in range(1, counter.count + 1):
        match, referee = _match()
        url = reverse("scoring:match_enter", args=[match.round.tournament.slug, match.pk])
        client = Client(raise_request_exception=False)
        client.force_login(referee)
        data = entry_data(match, TAI_PAN_HAND, submission=f"{n:032d}")
        with connection.execute_wrapper(Fault(n)):
            first = client.post(url, data)
        assert first.status_code in (302, 503), (n, first.status_code)
        statuses.add(first.status_code)
        again = client.post(url, data)  # the phone sends the form again
        assert again.status_code == 302, n
        assert list(Hand.objects.filter(match=match).values_list("ns", "ew")) == [(175, 25)], n
    assert 503 in statuses


@pytest.mark.django_db(transaction=True)
def test_an_api_write_without_a_key_that_answers_503_stored_nothing():
    """Without a key too, the write and the answer it reads are one transaction: a 503 means
    nothing was stored, and the same request (version 0) is then accepted."""
    match, referee = _match()
    url = api_url("match-records", match.round.tournament.slug, match.pk)
    body = {"version": 0, "record": TAI_PAN_HAND}
    counter = Fault()
    with connection.execute_wrapper(counter):
        assert _api(referee).post(url, body, format="json").status_code == 201
    for n in range(1, counter.count + 1):
        match, referee = _match()
        url = api_url("match-records", match.round.tournament.slug, match.pk)
        with connection.execute_wrapper(Fault(n)):
            first = _api(referee).post(url, body, format="json")
        assert first.status_code in (201, 503), n
        assert Hand.objects.filter(match=match).count() == (1 if first.status_code == 201 else 0), n
        if first.status_code == 503:
            assert _api(referee).post(url, body, format="json").status_code == 201, n
