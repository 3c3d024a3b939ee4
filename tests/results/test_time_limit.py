"""Ending a result at the time limit and resuming play, the same for matches and tables
(docs/results.md, "Ending at the time limit"): a reason is required; "resume play" undoes the end
until the result is confirmed; whoever ended or resumed it may not confirm it. Values: Tai Pan
75:25 (the higher total wins, docs/tournaments.md), Sichuan E self-draw +6 (tests/factories.py)."""
import pytest

from scoring.errors import Locked, NotAllowed, ServiceError, StaleVersion
from scoring.kinds import kind_of
from scoring.models import AuditEntry, Confirmation
from scoring.results import sheet
from tests.factories import RECORDS, one_result

pytestmark = pytest.mark.django_db

KINDS = ["match", "table"]


def played(kind):
    """A result of ``kind`` with one record entered by the first referee."""
    container, people = one_result(kind)
    record, _scores = RECORDS[kind]
    sheet.add_record(container, record, people["referees"][0], expected_version=container.version)
    return container, people


def actions(container):
    return list(AuditEntry.objects.filter(**kind_of(container).audit_link(container)).order_by("id")
                .values_list("action", flat=True))


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("reason", ["", "   ", None])
def test_ending_at_the_time_limit_needs_a_reason(kind, reason):
    container, people = played(kind)
    version = container.version
    with pytest.raises(ServiceError) as err:
        sheet.end_at_time(container, people["referee"], expected_version=version, reason=reason)
    assert err.value.field == "reason"
    container.refresh_from_db()
    assert container.status == container.Status.PLAYING and container.ended == "" and container.version == version
    assert actions(container) == ["create"]


@pytest.mark.parametrize("kind", KINDS)
def test_end_then_resume_play(kind):
    container, people = played(kind)
    _record, scores = RECORDS[kind]
    referee = people["referees"][0]
    sheet.end_at_time(container, referee, expected_version=container.version, reason="90 minutes")
    assert container.status == container.Status.FINISHED and container.ended == container.Ended.TIME
    assert kind_of(container).totals(container) == scores  # the totals so far are the result
    end = AuditEntry.objects.get(action="end", **kind_of(container).audit_link(container))
    assert end.reason == "90 minutes" and end.old["status"] == "playing" and end.new["status"] == "finished"
    # a finished result takes no more records until play resumes
    with pytest.raises(Locked, match="resume play"):
        sheet.add_record(container, RECORDS[kind][0], referee)
    with pytest.raises(ServiceError) as err:
        sheet.resume_play(container, referee, expected_version=container.version, reason=" ")
    assert err.value.field == "reason"
    sheet.resume_play(container, people["referees"][1], expected_version=container.version, reason="clock was wrong")
    assert container.status == container.Status.PLAYING and container.ended == ""
    assert kind_of(container).totals(container) == scores
    assert actions(container) == ["create", "end", "resume"]
    # play goes on
    sheet.add_record(container, RECORDS[kind][0], referee, expected_version=container.version)
    assert kind_of(container).totals(container) == [2 * s for s in scores]


@pytest.mark.parametrize("kind", KINDS)
def test_resume_with_an_old_version_is_refused(kind):
    container, people = played(kind)
    seen = container.version
    sheet.end_at_time(container, people["referee"], expected_version=seen, reason="time")
    with pytest.raises(StaleVersion):
        sheet.resume_play(container, people["referee"], expected_version=seen, reason="clock was wrong")
    container.refresh_from_db()
    assert container.ended == container.Ended.TIME


@pytest.mark.parametrize("kind", KINDS)
def test_only_a_result_ended_at_the_time_limit_can_be_resumed(kind):
    container, people = played(kind)
    with pytest.raises(NotAllowed):
        sheet.resume_play(container, people["referee"], reason="why not")
    assert actions(container) == ["create"]


@pytest.mark.parametrize("kind", KINDS)
def test_resume_play_is_refused_once_confirmed(kind):
    container, people = played(kind)
    ref, _ref2, confirmer = people["referees"]
    sheet.end_at_time(container, ref, expected_version=container.version, reason="time")
    sheet.confirm(container, confirmer, expected_version=container.version)
    with pytest.raises(Locked):
        sheet.resume_play(container, ref, expected_version=container.version, reason="clock was wrong")
    container.refresh_from_db()
    assert container.status == container.Status.CONFIRMED and container.ended == container.Ended.TIME
    # after a reopen (with a reason) play can resume again
    sheet.reopen(container, confirmer, "the clock was wrong", expected_version=container.version)
    sheet.resume_play(container, ref, expected_version=container.version, reason="clock was wrong")
    assert container.status == container.Status.PLAYING


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("who", ["ender", "resumer"])
def test_who_ended_or_resumed_may_not_confirm(kind, who):
    container, people = played(kind)
    entered, other, third = people["referees"]
    sheet.end_at_time(container, other, expected_version=container.version, reason="time")
    if who == "resumer":
        sheet.resume_play(container, third, expected_version=container.version, reason="clock was wrong")
        sheet.end_at_time(container, other, expected_version=container.version, reason="time")
        person = third
    else:
        person = other
    with pytest.raises(NotAllowed, match="different person"):
        sheet.confirm(container, person, expected_version=container.version)
    assert not Confirmation.objects.exists()
    sheet.confirm(container, people["organiser"], expected_version=container.version)
    assert container.status == container.Status.CONFIRMED


@pytest.mark.parametrize("kind", KINDS)
def test_a_finished_result_cannot_be_ended_again(kind):
    container, people = played(kind)
    sheet.end_at_time(container, people["referee"], expected_version=container.version, reason="time")
    with pytest.raises(Locked):
        sheet.end_at_time(container, people["referee"], expected_version=container.version, reason="again")
    assert actions(container) == ["create", "end"]
