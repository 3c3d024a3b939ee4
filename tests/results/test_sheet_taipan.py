"""The result sheet on Tai Pan matches (scoring.results.sheet): hands, end rule, time limit,
confirmation, reopen, audit and restore. Expected values computed by hand from the NSKT rules
(docs/engines/taipan.md: Tai Pan call 100, Grand Tai Pan 200, double victory 200, target 800; docs/tournaments.md:
match points win 2 / draw 1 / loss 0; fixed_hands victory points win 2 / draw 1 / double victory 3).

Every write now takes an actor with a role in the tournament (``staff``): the old tests' users
without a role are referees here."""
from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from engines.errors import RuleViolation
from scoring.errors import Locked, NotAllowed, ServiceError, StaleVersion
from scoring.models import AuditEntry, Confirmation, Hand, Match, Round
from scoring.results import sheet
from tests.factories import MatchFactory, TeamFactory, staff, taipan_round

pytestmark = pytest.mark.django_db

# Hand records (NSKT scoring, computed by hand):
TP_N_75 = {"calls": {"N": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 75, "EW": 25}}  # 175 : 25
DV_NS_GRAND = {"calls": {"N": "grand_tai_pan"}, "first_out": "N", "double_victory": "NS", "card_points": None}  # 400 : 0
DV_EW_GRAND = {"calls": {"E": "grand_tai_pan"}, "first_out": "E", "double_victory": "EW", "card_points": None}  # 0 : 400
DV_NS = {"calls": {}, "first_out": "S", "double_victory": "NS", "card_points": None}  # 200 : 0
DV_EW = {"calls": {}, "first_out": "W", "double_victory": "EW", "card_points": None}  # 0 : 200
EVEN = {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 50, "EW": 50}}  # 50 : 50
NS_55 = {"calls": {}, "first_out": "E", "double_victory": None, "card_points": {"NS": 55, "EW": 45}}  # 55 : 45
FAILED_TP_E = {"calls": {"E": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 60, "EW": 40}}  # 60 : -60


@pytest.fixture
def setup():
    """Round 1 (published) of a Tai Pan tournament with one match; three referees."""
    rnd, (match,) = taipan_round()
    people = staff(rnd.tournament, referees=3)
    ref, ref2, other = people["referees"]
    return {"t": rnd.tournament, "teams": [match.team_ns, match.team_ew], "round": rnd, "match": match,
            "ref": ref, "ref2": ref2, "other": other, "organiser": people["organiser"]}


def add(match, records, user):
    for r in records:
        sheet.add_record(match, r, user)
    match.refresh_from_db()
    return match


def test_add_hand_scores_and_audits(setup):
    m, ref = setup["match"], setup["ref"]
    hand = sheet.add_record(m, TP_N_75, ref, expected_version=0)
    assert (hand.number, hand.ns, hand.ew) == (1, 175, 25)
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.status, m.version) == (175, 25, Match.Status.PLAYING, 1)
    entry = AuditEntry.objects.get(match=m)
    assert entry.action == "create" and entry.user == ref and entry.old is None
    assert entry.new == {"number": 1, "record": TP_N_75, "ns": 175, "ew": 25}
    # the first hand moves a published round to in progress
    assert Round.objects.get(pk=setup["round"].pk).status == Round.Status.IN_PROGRESS


def test_failed_call_costs_callers_team(setup):
    hand = sheet.add_record(setup["match"], FAILED_TP_E, setup["ref"])
    assert (hand.ns, hand.ew) == (60, 40 - 100)


@pytest.mark.parametrize("record", [
    {**TP_N_75, "card_points": {"NS": 73, "EW": 27}},  # not a multiple of 5
    {**TP_N_75, "card_points": {"NS": 130, "EW": -30}},  # out of range
    {**TP_N_75, "card_points": {"NS": 60, "EW": 60}},  # not summing to 100
    {**TP_N_75, "first_out": None},  # a call without first out
    {**DV_NS, "first_out": "E"},  # double victory for a team whose player was not first out
    {**DV_NS, "card_points": {"NS": 50, "EW": 50}},  # card points with a double victory
])
def test_bad_hand_saves_nothing(setup, record):
    m = setup["match"]
    with pytest.raises(RuleViolation):
        sheet.add_record(m, record, setup["ref"])
    m.refresh_from_db()
    assert Hand.objects.count() == 0 and AuditEntry.objects.count() == 0 and m.version == 0


def test_stale_version_refused(setup):
    m = setup["match"]
    sheet.add_record(m, TP_N_75, setup["ref"], expected_version=0)
    with pytest.raises(StaleVersion):
        sheet.add_record(m, TP_N_75, setup["ref2"], expected_version=0)
    assert Hand.objects.count() == 1


def test_finishes_at_target_and_refuses_more_hands(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])  # 400, 800 : 0
    assert (m.total_ns, m.total_ew) == (800, 0)
    assert m.status == Match.Status.FINISHED and m.ended == "target"
    assert m.winner == setup["teams"][0] and (m.points_ns, m.points_ew) == (2, 0)
    with pytest.raises(Locked):
        sheet.add_record(m, EVEN, setup["ref"])
    with pytest.raises(Locked):
        sheet.preview(m, EVEN)


def test_equal_at_target_plays_on(setup):
    # 400:0, 400:400, 600:400, 600:600, then four 50:50 hands -> 800:800 (equal: play on), then 855:845
    m = add(setup["match"], [DV_NS_GRAND, DV_EW_GRAND, DV_NS, DV_EW, EVEN, EVEN, EVEN, EVEN], setup["ref"])
    assert (m.total_ns, m.total_ew, m.status) == (800, 800, Match.Status.PLAYING)
    m = add(m, [NS_55], setup["ref"])
    assert (m.total_ns, m.total_ew, m.status, m.winner_id) == (855, 845, Match.Status.FINISHED, setup["teams"][0].pk)


def test_end_at_time(setup):
    m = add(setup["match"], [TP_N_75], setup["ref"])
    sheet.end_at_time(m, setup["ref"], expected_version=m.version, reason="time")
    assert (m.status, m.ended, m.winner_id, m.points_ns, m.points_ew) == ("finished", "time", setup["teams"][0].pk, 2, 0)
    entry = AuditEntry.objects.filter(match=m, action="end").get()
    assert entry.old["status"] == "playing" and entry.new["status"] == "finished"
    assert entry.new["winner"] == setup["teams"][0].name and entry.reason == "time"
    with pytest.raises(Locked):
        sheet.add_record(m, EVEN, setup["ref"])


def test_end_at_time_equal_is_draw(setup):
    m = add(setup["match"], [EVEN], setup["ref"])
    sheet.end_at_time(m, setup["ref"], reason="time")
    assert (m.winner_id, m.points_ns, m.points_ew, m.is_draw) == (None, 1, 1, True)


def test_update_and_delete_hand_follow_totals(setup):
    m = add(setup["match"], [TP_N_75, EVEN, NS_55], setup["ref"])
    assert (m.total_ns, m.total_ew) == (280, 120)
    sheet.edit_record(m, 2, DV_EW, setup["ref2"], expected_version=m.version, reason="typo")
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (175 + 0 + 55, 25 + 200 + 45)
    entry = AuditEntry.objects.filter(action="update").get()
    assert entry.old["record"] == EVEN and entry.new["record"] == DV_EW and entry.reason == "typo"
    assert (entry.old["ns"], entry.old["ew"], entry.new["ns"], entry.new["ew"]) == (50, 50, 0, 200)
    sheet.delete_record(m, 1, setup["ref"], reason="double")
    m.refresh_from_db()
    assert list(m.hands.values_list("number", "ns", "ew")) == [(1, 0, 200), (2, 55, 45)]
    assert (m.total_ns, m.total_ew) == (55, 245)
    # restore the deleted hand: back at number 1, later hands move down
    entry = AuditEntry.objects.filter(action="delete").get()
    sheet.restore(m, entry, setup["ref"], reason="deleted by mistake")
    m.refresh_from_db()
    assert list(m.hands.values_list("number", "ns", "ew")) == [(1, 175, 25), (2, 0, 200), (3, 55, 45)]
    # restore the create entry of hand 2: hand 2 gets its first version (EVEN) back
    create2 = AuditEntry.objects.filter(action="create", new__number=2).get()
    sheet.restore(m, create2, setup["ref"], reason="the first version was right")
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (280, 120)
    assert AuditEntry.objects.filter(action="restore").count() == 2


def test_correction_making_later_hands_after_the_end_is_refused(setup):
    m = add(setup["match"], [DV_NS_GRAND, EVEN, DV_NS_GRAND], setup["ref"])  # 400, 450, 850 -> finished
    assert m.status == "finished"
    with pytest.raises(RuleViolation) as err:
        sheet.edit_record(m, 2, DV_NS_GRAND, setup["ref"], reason="typo")  # 400, 800 (end), hand 3 after end
    assert any(v.field.startswith("hands[2]") for v in err.value.violations)
    m.refresh_from_db()
    assert m.hands.get(number=2).record == EVEN and (m.total_ns, m.total_ew) == (850, 50)


def test_preview(setup):
    m = add(setup["match"], [DV_NS_GRAND], setup["ref"])
    out = sheet.preview(m, DV_NS_GRAND)
    assert out.outcome.scores[0] == 400 and out.after == (800, 0)
    assert out.evaluation.finished is True and out.evaluation.winner == 0  # NS
    out = sheet.preview(m, EVEN, replace_number=1)
    assert out.after == (50, 50) and out.evaluation.finished is False
    assert Hand.objects.count() == 1


def test_confirm_by_a_different_user_only(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    with pytest.raises(NotAllowed):
        sheet.confirm(m, setup["ref"])
    c = sheet.confirm(m, setup["ref2"])
    assert c.active and c.totals == {"NS": 800, "EW": 0}
    m.refresh_from_db()
    assert m.status == Match.Status.CONFIRMED
    with pytest.raises(NotAllowed):
        sheet.confirm(m, setup["other"])
    assert Confirmation.objects.filter(match=m, active=True).count() == 1
    with pytest.raises(Locked):
        sheet.edit_record(m, 1, EVEN, setup["ref"], reason="typo")
    with pytest.raises(Locked):
        sheet.delete_record(m, 1, setup["ref"], reason="typo")


def test_editor_cannot_confirm(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    sheet.edit_record(m, 1, DV_NS_GRAND, setup["ref2"], reason="check")
    with pytest.raises(NotAllowed):
        sheet.confirm(m, setup["ref2"])


def test_unfinished_match_cannot_be_confirmed(setup):
    m = add(setup["match"], [EVEN], setup["ref"])
    with pytest.raises(NotAllowed):
        sheet.confirm(m, setup["ref2"])


def test_database_allows_one_active_confirmation(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    Confirmation.objects.create(match=m, confirmed_by=setup["other"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Confirmation.objects.create(match=m, confirmed_by=setup["ref2"])
    # a confirmation racing past the status check hits the constraint and is refused cleanly
    with pytest.raises(NotAllowed):
        sheet.confirm(m, setup["ref2"])
    assert Confirmation.objects.filter(match=m).count() == 1


def test_blind_totals(setup):
    t = setup["t"]
    t.blind_confirmation = True
    t.save()
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    with pytest.raises(ServiceError) as err:
        sheet.confirm(m, setup["ref2"])
    assert err.value.field == "totals"
    with pytest.raises(NotAllowed) as err:
        sheet.confirm(m, setup["ref2"], totals={"NS": 800, "EW": 100})
    assert err.value.field == "totals"
    assert not Confirmation.objects.exists()
    sheet.confirm(m, setup["ref2"], totals={"NS": "800", "EW": "0"})
    assert Match.objects.get(pk=m.pk).status == "confirmed"


def test_reopen_needs_reason_and_allows_correction(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    sheet.confirm(m, setup["ref2"])
    with pytest.raises(ServiceError):
        sheet.reopen(m, setup["other"], "  ")
    sheet.reopen(m, setup["other"], "wrong card points at hand 2")
    assert m.status == Match.Status.FINISHED
    c = Confirmation.objects.get(match=m)
    assert not c.active and c.reopened_by == setup["other"] and c.reopen_reason == "wrong card points at hand 2"
    sheet.edit_record(m, 2, EVEN, setup["ref"], reason="fix")
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.status) == (450, 50, "playing")
    actions = list(AuditEntry.objects.filter(match=m).order_by("id").values_list("action", flat=True))
    assert actions == ["create", "create", "confirm", "reopen", "update"]


def test_draft_round_refuses_hands():
    rnd, (m,) = taipan_round(status=Round.Status.DRAFT)
    with pytest.raises(NotAllowed):
        sheet.add_record(m, EVEN, staff(rnd.tournament)["referee"])


def test_fixed_hands_victory_points():
    rnd, (m,) = taipan_round(round_format="fixed_hands", hands_per_round=2)
    ref = staff(rnd.tournament)["referee"]
    sheet.add_record(m, TP_N_75, ref)  # 175:25 -> VP 2:0
    m.refresh_from_db()
    assert m.status == "playing" and (m.points_ns, m.points_ew) == (0, 0)
    sheet.add_record(m, DV_EW, ref)  # 0:200 double victory EW -> VP 0:3
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (175, 225)
    assert m.status == "finished" and (m.points_ns, m.points_ew) == (2, 3) and m.winner == m.team_ew
    with pytest.raises(Locked):
        sheet.add_record(m, EVEN, ref)


def test_fixed_hands_draw_hand():
    rnd, (m,) = taipan_round(round_format="fixed_hands", hands_per_round=1)
    sheet.add_record(m, EVEN, staff(rnd.tournament)["referee"])
    m.refresh_from_db()
    assert (m.points_ns, m.points_ew, m.winner_id) == (1, 1, None)


def test_bye_is_a_win_with_zero_difference():
    rnd, _ = taipan_round(tables=2)
    team = TeamFactory(tournament=rnd.tournament)
    m = MatchFactory(round=rnd, table=3, team_ns=team, team_ew=None)
    sheet.recompute(m)
    m.refresh_from_db()
    assert (m.status, m.total_ns, m.total_ew, m.points_ns, m.winner_id) == ("finished", 0, 0, 2, team.pk)


def test_rebuild_scores_restores_tampering(setup):
    m = add(setup["match"], [TP_N_75, FAILED_TP_E], setup["ref"])
    Hand.objects.filter(match=m, number=2).update(ns=999, ew=-999)
    Match.objects.filter(pk=m.pk).update(total_ns=1, total_ew=2, points_ns=7, status="finished")
    assert sheet.rebuild(Match.objects.filter(round__tournament=setup["t"])) == 1
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.points_ns, m.status) == (235, -35, 0, "playing")
    assert m.hands.get(number=2).ns == 60 and m.hands.get(number=2).ew == -60


@pytest.mark.django_db(transaction=True)
def test_two_users_confirming_at_once_give_one_confirmation():
    """Two confirmers race (threads, each with its own database connection): at most one succeeds
    and exactly one active confirmation exists (row lock + the one_active_confirmation_per_match
    constraint). Runs on SQLite and, under ``make test-services``, on PostgreSQL."""
    import threading

    from django.db import OperationalError, connections

    rnd, (m,) = taipan_round()
    ref, *confirmers = staff(rnd.tournament, referees=3)["referees"]
    add(m, [DV_NS_GRAND, DV_NS_GRAND], ref)
    barrier = threading.Barrier(2)
    outcomes = []

    def confirm(user):
        try:
            barrier.wait(timeout=10)
            sheet.confirm(Match.objects.get(pk=m.pk), user)
            outcomes.append("ok")
        except (NotAllowed, OperationalError) as exc:  # SQLite may refuse the second writer as locked
            outcomes.append(type(exc).__name__)
        finally:
            connections.close_all()

    threads = [threading.Thread(target=confirm, args=(u,)) for u in confirmers]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    assert sorted(outcomes)[-1] == "ok" and outcomes.count("ok") == 1, outcomes
    assert Confirmation.objects.filter(match=m, active=True).count() == 1
