"""Restoring a version from the audit trail, the same for matches and tables (docs/results.md,
"Restoring from the audit trail"): referees and organisers, with a reason, on an unconfirmed
result; a deleted record comes back at its number; a restore that changes nothing is refused; an
end at the time limit can be restored too. Values: Tai Pan 75:25 and 175:25 (a Tai Pan call +100,
docs/engines/taipan.md); Sichuan E self-draw +6 and an exposed kong supplied by N, N pays E 2 (S18)."""
import pytest

from scoring.errors import Locked, NotAllowed, ServiceError, StaleVersion
from scoring.kinds import kind_of
from scoring.models import AuditEntry
from scoring.results import sheet
from tests.factories import RECORDS, TAI_PAN_HAND, one_result

pytestmark = pytest.mark.django_db

KINDS = ["match", "table"]
#: A second record of each kind and its scores.
SECOND = {
    "match": (TAI_PAN_HAND, [175, 25]),
    "table": ({"events": [{"type": "kong", "player": "E", "kind": "exposed", "tile": "7p", "supplier": "N"}], "exhaustion": None},
              [2, 0, 0, -2]),
}


def two_records(kind):
    """A result of ``kind`` with records 1 (:data:`RECORDS`) and 2 (:data:`SECOND`)."""
    container, people = one_result(kind)
    sheet.add_record(container, RECORDS[kind][0], people["referee"])
    sheet.add_record(container, SECOND[kind][0], people["referee"])
    return container, people


def scores(container):
    kind = kind_of(container)
    return [list(kind.scores(r)) for r in kind.records(container)]


def entries(container, action, **filters):
    return AuditEntry.objects.filter(action=action, **kind_of(container).audit_link(container), **filters)


@pytest.mark.parametrize("kind", KINDS)
def test_a_deleted_record_comes_back_at_its_number(kind):
    container, people = two_records(kind)
    first, second = RECORDS[kind][1], SECOND[kind][1]
    sheet.delete_record(container, 1, people["referee"], reason="entered twice")
    assert scores(container) == [second]
    entry = entries(container, "delete").get()
    sheet.restore(container, entry, people["referees"][1], expected_version=container.version, reason="deleted by mistake")
    assert scores(container) == [first, second]
    assert kind_of(container).totals(container) == [a + b for a, b in zip(first, second, strict=True)]
    restored = entries(container, "restore").get()
    assert restored.reason == "deleted by mistake" and restored.new["number"] == 1 and restored.old is None


@pytest.mark.parametrize("kind", KINDS)
def test_an_edited_record_gets_its_first_version_back(kind):
    container, people = two_records(kind)
    sheet.edit_record(container, 2, RECORDS[kind][0], people["referee"], reason="typo")
    assert scores(container) == [RECORDS[kind][1], RECORDS[kind][1]]
    created = entries(container, "create", new__number=2).get()
    sheet.restore(container, created, people["referee"], reason="the first version was right")
    assert scores(container) == [RECORDS[kind][1], SECOND[kind][1]]
    restored = entries(container, "restore").get()
    assert restored.old["record"] == kind_of(container).records(container)[0].record


@pytest.mark.parametrize("kind", KINDS)
def test_restore_needs_a_reason(kind):
    container, people = two_records(kind)
    sheet.delete_record(container, 2, people["referee"], reason="typo")
    version = container.version
    with pytest.raises(ServiceError) as err:
        sheet.restore(container, entries(container, "delete").get(), people["referee"], expected_version=version, reason="  ")
    assert err.value.field == "reason"
    container.refresh_from_db()
    assert container.version == version and len(scores(container)) == 1


@pytest.mark.parametrize("kind", KINDS)
def test_a_restore_that_changes_nothing_is_refused(kind):
    container, people = two_records(kind)
    with pytest.raises(NotAllowed, match="would change nothing"):
        sheet.restore(container, entries(container, "create", new__number=1).get(), people["referee"], reason="to be sure")
    assert not entries(container, "restore").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_the_end_at_the_time_limit_can_be_restored(kind):
    container, people = two_records(kind)
    sheet.end_at_time(container, people["referee"], reason="time")
    sheet.resume_play(container, people["referee"], reason="clock was wrong")
    assert container.status == container.Status.PLAYING
    sheet.restore(container, entries(container, "end").get(), people["referees"][1], reason="the clock was right")
    fresh = type(container).objects.get(pk=container.pk)
    assert fresh.status == container.Status.FINISHED and fresh.ended == container.Ended.TIME  # stored
    # and the caller's instance follows, as after every other write
    assert container.status == container.Status.FINISHED and container.ended == container.Ended.TIME
    assert entries(container, "restore").get().reason == "the clock was right"


@pytest.mark.parametrize("kind", KINDS)
def test_restore_is_refused_on_a_confirmed_result_and_for_confirmations(kind):
    container, people = two_records(kind)
    sheet.end_at_time(container, people["referee"], reason="time")
    sheet.confirm(container, people["referees"][1], expected_version=container.version)
    create = entries(container, "create", new__number=1).get()
    with pytest.raises(Locked):
        sheet.restore(container, create, people["referee"], reason="back")
    with pytest.raises(NotAllowed):
        sheet.restore(container, entries(container, "confirm").get(), people["referee"], reason="back")
    assert not entries(container, "restore").exists()


@pytest.mark.parametrize("kind", KINDS)
def test_restore_checks_the_version_and_the_result(kind):
    container, people = two_records(kind)
    other, other_people = one_result(kind)
    sheet.delete_record(container, 2, people["referee"], reason="typo")
    entry = entries(container, "delete").get()
    with pytest.raises(StaleVersion):
        sheet.restore(container, entry, people["referee"], expected_version=container.version - 1, reason="back")
    with pytest.raises(NotAllowed, match="another result"):
        sheet.restore(other, entry, other_people["organiser"], reason="back")
    assert len(scores(container)) == 1 and not entries(container, "restore").exists()
