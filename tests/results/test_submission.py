"""Idempotent entry (issue 11 item 1): every rendered entry form carries a ``submission`` token;
the result sheet stores it with the record and, inside the container's lock, answers a repeated
submission with the record it already stored, so a retry (a dropped connection, a double tap, a
re-sent POST) never stores a record twice. Both kinds of result (Tai Pan hands, Sichuan deals)."""
import pytest
from django.db import IntegrityError, transaction

from scoring.errors import ServiceError, StaleVersion
from scoring.kinds import kind_of
from scoring.models import AuditEntry
from scoring.results import sheet
from tests.factories import RECORDS, one_result

pytestmark = pytest.mark.django_db

KINDS = ["match", "table"]


def _count(container):
    kind = kind_of(container)
    return kind.record_model.objects.filter(**{kind.record_fk: container}).count()


@pytest.mark.parametrize("kind", KINDS)
def test_a_repeated_submission_returns_the_stored_record(kind):
    container, people = one_result(kind)
    record, totals = RECORDS[kind]
    seen = container.version
    first = sheet.add_record(container, record, people["referee"], expected_version=seen, submission="tok-1")
    assert first.replayed is False and first.submission == "tok-1"
    version_after = container.version
    # The retry carries the version its page had (now stale): still answered with the same record.
    again = sheet.add_record(container, record, people["referee"], expected_version=seen, submission="tok-1")
    assert again.pk == first.pk and again.number == 1 and again.replayed is True
    container.refresh_from_db()
    assert _count(container) == 1
    assert container.version == version_after
    assert kind_of(container).totals(container) == totals
    assert AuditEntry.objects.filter(action="create", **kind_of(container).audit_link(container)).count() == 1


@pytest.mark.parametrize("kind", KINDS)
def test_another_token_with_a_stale_version_is_refused(kind):
    """Only the same form's token replays; a second form built from the old version is stale."""
    container, people = one_result(kind)
    record, _totals = RECORDS[kind]
    seen = container.version
    sheet.add_record(container, record, people["referee"], expected_version=seen, submission="tok-1")
    with pytest.raises(StaleVersion):
        sheet.add_record(container, record, people["referee"], expected_version=seen, submission="tok-2")
    assert _count(container) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_new_tokens_add_new_records(kind):
    container, people = one_result(kind)
    record, _totals = RECORDS[kind]
    sheet.add_record(container, record, people["referee"], expected_version=container.version, submission="tok-1")
    second = sheet.add_record(container, record, people["referee"], expected_version=container.version, submission="tok-2")
    assert second.number == 2 and second.replayed is False
    without = sheet.add_record(container, record, people["referee"], expected_version=container.version)
    assert without.number == 3 and without.submission is None
    assert _count(container) == 3


def test_a_token_is_unique_per_container_in_the_database():
    container, people = one_result("match")
    record, _totals = RECORDS["match"]
    rec = sheet.add_record(container, record, people["referee"], expected_version=container.version, submission="tok-1")
    with pytest.raises(IntegrityError), transaction.atomic():
        type(rec).objects.create(match=container, number=9, record=record, submission="tok-1")
    # The same token at another match is another form.
    other, staff2 = one_result("match")
    assert sheet.add_record(other, record, staff2["referee"], expected_version=other.version, submission="tok-1").replayed is False


def test_a_retry_needs_the_permission_too():
    from django.core.exceptions import PermissionDenied

    container, people = one_result("match")
    record, _totals = RECORDS["match"]
    sheet.add_record(container, record, people["referee"], expected_version=container.version, submission="tok-1")
    with pytest.raises(PermissionDenied):
        sheet.add_record(container, record, people["outsider"], expected_version=0, submission="tok-1")


@pytest.mark.parametrize("token", ["x" * 65, "tök", "a\nb"])
def test_a_damaged_token_is_refused(token):
    container, people = one_result("match")
    with pytest.raises(ServiceError):
        sheet.add_record(container, RECORDS["match"][0], people["referee"], expected_version=container.version, submission=token)
    assert _count(container) == 0


# --------------------------------------------------------------------------- race (PostgreSQL)


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("kind", KINDS)
def test_two_copies_of_one_submission_at_the_same_moment_store_one_record(kind):
    """A double tap or a retry while the first POST is still running: both copies of the form
    (same token, same version) reach the sheet at the same moment, released by a barrier, at least
    50 times. Both are acknowledged with the same record (the second waits for the first's lock
    and finds its record), and exactly one record and one audit entry are stored."""
    import os

    from django.db import connection

    from tests.race import race

    assert connection.vendor == "postgresql", "the race tests need PostgreSQL (row locks)"
    tries = max(50, int(os.environ.get("RACE_TRIES", "50")))
    record, totals = RECORDS[kind]
    for i in range(tries):
        container, people = one_result(kind)
        referee, seen = people["referee"], container.version
        model = type(container)

        def submit(model=model, pk=container.pk, user=referee, seen=seen, token=f"tok-{i}"):
            return sheet.add_record(model.objects.get(pk=pk), record, type(user).objects.get(pk=user.pk),
                                    expected_version=seen, submission=token)

        a, b = race(submit, submit)
        assert a.ok and b.ok, (a.error, b.error)
        assert a.value.pk == b.value.pk
        assert sorted([a.value.replayed, b.value.replayed]) == [False, True]
        container.refresh_from_db()
        assert _count(container) == 1
        assert kind_of(container).totals(container) == totals
        assert AuditEntry.objects.filter(action="create", **kind_of(container).audit_link(container)).count() == 1
