"""Time's up for a round (issue 23 item 2, :mod:`scoring.hall.times_up`): every unfinished result
ended at the time limit by its game's rule, one ``end`` audit entry per table, finished and
confirmed results and byes left alone, idempotent, with an optional grace period."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.exceptions import PermissionDenied
from django.utils import timezone

from scoring.errors import Locked, NotAllowed, ServiceError, StaleVersion
from scoring.hall import times_up
from scoring.kinds import kind_of
from scoring.models import AuditEntry, ResultContainer, Round, TimesUp
from scoring.results import sheet
from tests.factories import MatchFactory, confirm_result, finish_result
from tests.hall.helpers import KINDS, RECORDS, TOTALS, hall_round

pytestmark = pytest.mark.django_db
S = ResultContainer.Status


def ends(container) -> list[AuditEntry]:
    return list(AuditEntry.objects.filter(action=AuditEntry.Action.END, **kind_of(container).audit_link(container)))


@pytest.mark.parametrize("kind", KINDS)
def test_times_up_ends_every_unfinished_result_by_its_rule_with_one_entry_each(kind):
    rnd, (playing, empty, done), people = hall_round(kind, tables=3)
    referee = people["referee"]
    sheet.add_record(playing, RECORDS[kind][0], referee)
    sheet.add_record(playing, RECORDS[kind][1], referee)
    finish_result(done)  # a four-player table: finished at the time limit by a referee already
    done_before = [(e.pk, e.reason) for e in ends(done)]
    call = times_up.call(rnd, people["organiser"])
    assert call.applied and call.ended == [1, 2]
    for c in (playing, empty, done):
        c.refresh_from_db()
    assert playing.status == S.FINISHED and playing.ended == playing.Ended.TIME
    # The totals so far are the result (both records' totals added, docs/tournaments.md).
    expected = [a + b for a, b in zip(TOTALS[kind][0], TOTALS[kind][1], strict=True)]
    assert kind_of(playing).totals(playing) == expected
    assert empty.status == S.FINISHED and empty.ended == empty.Ended.TIME
    assert [e.reason for e in ends(playing)] == ["Time's up (round 1)"]
    assert len(ends(empty)) == 1
    assert [(e.pk, e.reason) for e in ends(done)] == done_before


def test_tai_pan_time_limit_rule_gives_the_higher_total_the_win():
    rnd, (match,), people = hall_round("match", tables=1)
    sheet.add_record(match, RECORDS["match"][0], people["referee"])  # NS 75 : EW 25
    times_up.call(rnd, people["organiser"])
    match.refresh_from_db()
    assert match.winner_id == match.team_ns_id


def test_confirmed_results_and_byes_are_left_alone():
    rnd, (m1,), people = hall_round("match", tables=1)
    bye = MatchFactory(round=rnd, table=2, team_ew=None)
    confirm_result(m1, people["referees"][1])
    assert times_up.call(rnd, people["organiser"]).ended == []
    bye.refresh_from_db()
    m1.refresh_from_db()
    assert bye.ended == "" and ends(bye) == [] and ends(m1) == [] and m1.status == S.CONFIRMED


def test_applying_twice_ends_nothing_twice_and_a_resumed_result_stays_resumed():
    rnd, (m1, m2), people = hall_round("match", tables=2)
    organiser = people["organiser"]
    assert times_up.call(rnd, organiser).ended == [1, 2]
    sheet.resume_play(m1, people["referee"], reason="they finished the hand in time")
    assert times_up.apply(rnd, organiser) == []
    m1.refresh_from_db()
    assert m1.status == S.PENDING and len(ends(m1)) == 1 and len(ends(m2)) == 1


def test_a_hand_after_times_up_is_refused_with_the_times_up_message():
    rnd, (match,), people = hall_round("match", tables=1)
    seen = match.version
    times_up.call(rnd, people["organiser"])
    # With the version the page showed (now stale) the refusal says why, not "changed by someone".
    with pytest.raises(Locked, match="Time is up for this round: the result was ended at the time limit"):
        sheet.add_record(match, RECORDS["match"][0], people["referee"], expected_version=seen)
    with pytest.raises(Locked, match="Time is up for this round"):
        sheet.add_record(match, RECORDS["match"][0], people["referee"])


def test_a_single_end_keeps_its_own_message_and_a_stale_save_stays_stale():
    rnd, (match,), people = hall_round("match", tables=1)
    seen = match.version
    sheet.end_at_time(match, people["referee"], reason="time")
    with pytest.raises(StaleVersion):
        sheet.add_record(match, RECORDS["match"][0], people["referee"], expected_version=seen)
    with pytest.raises(Locked, match="resume play before adding more"):
        sheet.add_record(match, RECORDS["match"][0], people["referee"])


def test_grace_period_keeps_entry_open_until_applied():
    rnd, (match,), people = hall_round("match", tables=1)
    organiser = people["organiser"]
    call = times_up.call(rnd, organiser, grace_minutes=3)
    assert not call.applied and call.grace_until - call.called_at == timedelta(minutes=3)
    sheet.add_record(match, RECORDS["match"][0], people["referee"])  # finishing the hand in play
    with pytest.raises(NotAllowed, match="already called"):
        times_up.call(rnd, organiser)
    # The task at the grace's end does nothing before it ends, then applies the call once.
    assert times_up.apply_due(rnd.pk) == []
    TimesUp.objects.filter(round=rnd).update(grace_until=timezone.now() - timedelta(seconds=1))
    assert times_up.apply_due(rnd.pk) == [1]
    assert times_up.apply_due(rnd.pk) == [] and times_up.apply(rnd, organiser) == []
    match.refresh_from_db()
    assert match.ended == match.Ended.TIME and kind_of(match).totals(match) == TOTALS["match"][0]


def test_apply_now_during_grace_and_the_task_afterwards_ends_nothing_more():
    rnd, (match,), people = hall_round("match", tables=1)
    times_up.call(rnd, people["organiser"], grace_minutes=5)
    assert times_up.apply(rnd, people["organiser"]) == [1]
    TimesUp.objects.filter(round=rnd).update(grace_until=timezone.now() - timedelta(seconds=1))
    assert times_up.apply_due(rnd.pk) == []
    assert len(ends(match)) == 1


def test_only_organisers_call_times_up_and_only_in_an_open_round():
    rnd, _containers, people = hall_round("match", tables=1)
    for who in (people["referee"], people["head"], people["outsider"]):
        with pytest.raises(PermissionDenied):
            times_up.call(rnd, who)
    with pytest.raises(ServiceError, match="0 to 30 minutes"):
        times_up.call(rnd, people["organiser"], grace_minutes=31)
    with pytest.raises(NotAllowed, match="not called"):
        times_up.apply(rnd, people["organiser"])
    Round.objects.filter(pk=rnd.pk).update(status=Round.Status.DRAFT)
    rnd.refresh_from_db()
    with pytest.raises(NotAllowed, match="published or running round"):
        times_up.call(rnd, people["organiser"])


@pytest.mark.parametrize("kind", KINDS)
def test_preview_names_each_table_and_what_ending_it_would_decide(kind):
    rnd, (c1, c2), people = hall_round(kind, tables=2)
    sheet.add_record(c1, RECORDS[kind][0], people["referee"])
    finish_result(c2)
    (pending,) = times_up.preview(rnd)
    assert pending.number == 1 and pending.status == "Playing"
    if kind == "match":
        assert pending.outcome.endswith("wins: 75 – 25.")
    else:
        assert pending.outcome == "The totals so far are the result: East 6, South -2, West -2, North -2."


@pytest.mark.parametrize("kind", KINDS)
def test_calling_times_up_does_not_stop_the_organiser_confirming_what_a_referee_entered(kind):
    """Confirmation is by someone who did not enter or end the result (docs/results.md); the
    organiser who called time's up for the whole hall did not end this table themselves."""
    rnd, (playing,), people = hall_round(kind, tables=1)
    sheet.add_record(playing, RECORDS[kind][0], people["referee"])
    times_up.call(rnd, people["organiser"])
    rs = sheet.load(playing)
    assert not rs.changed_by(people["organiser"]) and rs.changed_by(people["referee"])
    assert ends(playing)[0].user == people["organiser"]  # the audit still says who called it
