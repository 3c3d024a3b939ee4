"""Tai Pan results service (scoring.results.matches): hands, end rule, time limit, confirmation,
reopen, audit and restore. Expected values computed by hand from the NSKT rules (DESIGN.md 2.1:
Tai Pan call 100, Grand Tai Pan 200, double victory 200, target 800; DESIGN.md 3: match points
win 2 / draw 1 / loss 0; fixed_hands victory points win 2 / draw 1 / double victory 3)."""
from __future__ import annotations

import pytest
from django.db import IntegrityError, transaction

from engines.errors import RuleViolation
from scoring.errors import MatchLocked, NotAllowed, ServiceError, StaleVersion
from scoring.models import AuditEntry, Confirmation, Hand, Match, Player, Round, Team, Tournament
from scoring.results import matches as results

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


def make_tournament(n_teams=2, *, slug="t", round_status=Round.Status.PUBLISHED, **extra) -> tuple[Tournament, list[Team], Round]:
    """A Tai Pan tournament with ``n_teams`` teams and round 1 (no matches)."""
    t = Tournament.objects.create(name=f"T {slug}", slug=slug, **extra)
    teams = []
    for i in range(n_teams):
        a = Player.objects.create(tournament=t, name=f"P{i}a")
        b = Player.objects.create(tournament=t, name=f"P{i}b")
        teams.append(Team.objects.create(tournament=t, name=f"Team {i}", first_player=a, second_player=b))
    rnd = Round.objects.create(tournament=t, number=1, status=round_status)
    return t, teams, rnd


@pytest.fixture
def user_factory(django_user_model):
    """Users without a password (fast: no password hashing)."""
    return lambda name: django_user_model.objects.create(username=name)


@pytest.fixture
def setup(user_factory):
    t, teams, rnd = make_tournament()
    match = Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    return {"t": t, "teams": teams, "round": rnd, "match": match,
            "ref": user_factory("ref"), "ref2": user_factory("ref2"), "other": user_factory("other")}


def add(match, records, user):
    for r in records:
        results.add_hand(match, r, user)
    match.refresh_from_db()
    return match


def test_add_hand_scores_and_audits(setup):
    m, ref = setup["match"], setup["ref"]
    hand = results.add_hand(m, TP_N_75, ref, expected_version=0)
    assert (hand.number, hand.ns, hand.ew) == (1, 175, 25)
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.status, m.version) == (175, 25, Match.Status.PLAYING, 1)
    entry = AuditEntry.objects.get(match=m)
    assert entry.action == "create" and entry.user == ref and entry.old is None
    assert entry.new == {"number": 1, "record": TP_N_75, "ns": 175, "ew": 25}
    # the first hand moves a published round to in progress
    assert Round.objects.get(pk=setup["round"].pk).status == Round.Status.IN_PROGRESS


def test_failed_call_costs_callers_team(setup):
    hand = results.add_hand(setup["match"], FAILED_TP_E, setup["ref"])
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
        results.add_hand(m, record, setup["ref"])
    m.refresh_from_db()
    assert Hand.objects.count() == 0 and AuditEntry.objects.count() == 0 and m.version == 0


def test_stale_version_refused(setup):
    m = setup["match"]
    results.add_hand(m, TP_N_75, setup["ref"], expected_version=0)
    with pytest.raises(StaleVersion):
        results.add_hand(m, TP_N_75, setup["ref2"], expected_version=0)
    assert Hand.objects.count() == 1


def test_finishes_at_target_and_refuses_more_hands(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])  # 400, 800 : 0
    assert (m.total_ns, m.total_ew) == (800, 0)
    assert m.status == Match.Status.FINISHED and m.ended == "target"
    assert m.winner == setup["teams"][0] and (m.points_ns, m.points_ew) == (2, 0)
    with pytest.raises(MatchLocked):
        results.add_hand(m, EVEN, setup["ref"])
    with pytest.raises(MatchLocked):
        results.preview_hand(m, EVEN)


def test_equal_at_target_plays_on(setup):
    # 400:0, 400:400, 600:400, 600:600, then four 50:50 hands -> 800:800 (equal: play on), then 855:845
    m = add(setup["match"], [DV_NS_GRAND, DV_EW_GRAND, DV_NS, DV_EW, EVEN, EVEN, EVEN, EVEN], setup["ref"])
    assert (m.total_ns, m.total_ew, m.status) == (800, 800, Match.Status.PLAYING)
    m = add(m, [NS_55], setup["ref"])
    assert (m.total_ns, m.total_ew, m.status, m.winner_id) == (855, 845, Match.Status.FINISHED, setup["teams"][0].pk)


def test_end_at_time(setup):
    m = add(setup["match"], [TP_N_75], setup["ref"])
    results.end_match_at_time(m, setup["ref"], expected_version=m.version, reason="time")
    assert (m.status, m.ended, m.winner_id, m.points_ns, m.points_ew) == ("finished", "time", setup["teams"][0].pk, 2, 0)
    entry = AuditEntry.objects.filter(match=m, action="end").get()
    assert entry.old["status"] == "playing" and entry.new["status"] == "finished" and entry.new["winner"] == "Team 0"
    with pytest.raises(MatchLocked):
        results.add_hand(m, EVEN, setup["ref"])


def test_end_at_time_equal_is_draw(setup):
    m = add(setup["match"], [EVEN], setup["ref"])
    results.end_match_at_time(m, setup["ref"])
    assert (m.winner_id, m.points_ns, m.points_ew, m.is_draw) == (None, 1, 1, True)


def test_update_and_delete_hand_follow_totals(setup):
    m = add(setup["match"], [TP_N_75, EVEN, NS_55], setup["ref"])
    assert (m.total_ns, m.total_ew) == (280, 120)
    hand2 = m.hands.get(number=2)
    results.update_hand(hand2, DV_EW, setup["ref2"], expected_version=m.version, reason="typo")
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (175 + 0 + 55, 25 + 200 + 45)
    entry = AuditEntry.objects.filter(action="update").get()
    assert entry.old["record"] == EVEN and entry.new["record"] == DV_EW and entry.reason == "typo"
    assert (entry.old["ns"], entry.old["ew"], entry.new["ns"], entry.new["ew"]) == (50, 50, 0, 200)
    results.delete_hand(m.hands.get(number=1), setup["ref"], reason="double")
    m.refresh_from_db()
    assert list(m.hands.values_list("number", "ns", "ew")) == [(1, 0, 200), (2, 55, 45)]
    assert (m.total_ns, m.total_ew) == (55, 245)
    # restore the deleted hand: back at number 1, later hands move down
    entry = AuditEntry.objects.filter(action="delete").get()
    results.restore_audit_entry(entry, setup["ref"])
    m.refresh_from_db()
    assert list(m.hands.values_list("number", "ns", "ew")) == [(1, 175, 25), (2, 0, 200), (3, 55, 45)]
    # restore the create entry of hand 2: hand 2 gets its first version (EVEN) back
    create2 = AuditEntry.objects.filter(action="create", new__number=2).get()
    results.restore_audit_entry(create2, setup["ref"])
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (280, 120)
    assert AuditEntry.objects.filter(action="restore").count() == 2


def test_correction_making_later_hands_after_the_end_is_refused(setup):
    m = add(setup["match"], [DV_NS_GRAND, EVEN, DV_NS_GRAND], setup["ref"])  # 400, 450, 850 -> finished
    assert m.status == "finished"
    with pytest.raises(RuleViolation) as err:
        results.update_hand(m.hands.get(number=2), DV_NS_GRAND, setup["ref"])  # 400, 800 (end), hand 3 after end
    assert any(v.field.startswith("hands[2]") for v in err.value.violations)
    m.refresh_from_db()
    assert m.hands.get(number=2).record == EVEN and (m.total_ns, m.total_ew) == (850, 50)


def test_preview(setup):
    m = add(setup["match"], [DV_NS_GRAND], setup["ref"])
    out = results.preview_hand(m, DV_NS_GRAND)
    assert out["NS"]["total"] == 400 and out["running"] == {"NS": 800, "EW": 0}
    assert out["finished"] is True and out["winner"] == "NS"
    out = results.preview_hand(m, EVEN, replace_number=1)
    assert out["running"] == {"NS": 50, "EW": 50} and out["finished"] is False
    assert Hand.objects.count() == 1


def test_confirm_by_a_different_user_only(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    with pytest.raises(NotAllowed):
        results.confirm_match(m, setup["ref"])
    c = results.confirm_match(m, setup["ref2"])
    assert c.active and c.totals == {"NS": 800, "EW": 0}
    m.refresh_from_db()
    assert m.status == Match.Status.CONFIRMED
    with pytest.raises(NotAllowed):
        results.confirm_match(m, setup["other"])
    assert Confirmation.objects.filter(match=m, active=True).count() == 1
    with pytest.raises(MatchLocked):
        results.update_hand(m.hands.get(number=1), EVEN, setup["ref"])
    with pytest.raises(MatchLocked):
        results.delete_hand(m.hands.get(number=1), setup["ref"])


def test_editor_cannot_confirm(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    results.update_hand(m.hands.get(number=1), DV_NS_GRAND, setup["ref2"], reason="check")
    with pytest.raises(NotAllowed):
        results.confirm_match(m, setup["ref2"])


def test_unfinished_match_cannot_be_confirmed(setup):
    m = add(setup["match"], [EVEN], setup["ref"])
    with pytest.raises(NotAllowed):
        results.confirm_match(m, setup["ref2"])


def test_database_allows_one_active_confirmation(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    Confirmation.objects.create(match=m, confirmed_by=setup["other"])
    with pytest.raises(IntegrityError), transaction.atomic():
        Confirmation.objects.create(match=m, confirmed_by=setup["ref2"])
    # a confirmation racing past the status check hits the constraint and is refused cleanly
    with pytest.raises(NotAllowed):
        results.confirm_match(m, setup["ref2"])
    assert Confirmation.objects.filter(match=m).count() == 1


def test_blind_totals(setup):
    t = setup["t"]
    t.blind_confirmation = True
    t.save()
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    with pytest.raises(ServiceError) as err:
        results.confirm_match(m, setup["ref2"])
    assert err.value.field == "totals"
    with pytest.raises(NotAllowed) as err:
        results.confirm_match(m, setup["ref2"], totals={"NS": 800, "EW": 100})
    assert err.value.field == "totals"
    assert not Confirmation.objects.exists()
    results.confirm_match(m, setup["ref2"], totals={"NS": "800", "EW": "0"})
    assert Match.objects.get(pk=m.pk).status == "confirmed"


def test_reopen_needs_reason_and_allows_correction(setup):
    m = add(setup["match"], [DV_NS_GRAND, DV_NS_GRAND], setup["ref"])
    results.confirm_match(m, setup["ref2"])
    with pytest.raises(ServiceError):
        results.reopen_match(m, setup["other"], "  ")
    results.reopen_match(m, setup["other"], "wrong card points at hand 2")
    assert m.status == Match.Status.FINISHED
    c = Confirmation.objects.get(match=m)
    assert not c.active and c.reopened_by == setup["other"] and c.reopen_reason == "wrong card points at hand 2"
    results.update_hand(m.hands.get(number=2), EVEN, setup["ref"], reason="fix")
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.status) == (450, 50, "playing")
    actions = list(AuditEntry.objects.filter(match=m).order_by("id").values_list("action", flat=True))
    assert actions == ["create", "create", "confirm", "reopen", "update"]


def test_draft_round_refuses_hands(user_factory):
    t, teams, rnd = make_tournament(slug="d", round_status=Round.Status.DRAFT)
    m = Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    with pytest.raises(NotAllowed):
        results.add_hand(m, EVEN, user_factory("x"))


def test_fixed_hands_victory_points(user_factory):
    t, teams, rnd = make_tournament(slug="f", round_format="fixed_hands", hands_per_round=2)
    m = Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    ref = user_factory("r")
    results.add_hand(m, TP_N_75, ref)  # 175:25 -> VP 2:0
    m.refresh_from_db()
    assert m.status == "playing" and (m.points_ns, m.points_ew) == (0, 0)
    results.add_hand(m, DV_EW, ref)  # 0:200 double victory EW -> VP 0:3
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (175, 225)
    assert m.status == "finished" and (m.points_ns, m.points_ew) == (2, 3) and m.winner == teams[1]
    with pytest.raises(MatchLocked):
        results.add_hand(m, EVEN, ref)


def test_fixed_hands_draw_hand(user_factory):
    t, teams, rnd = make_tournament(slug="g", round_format="fixed_hands", hands_per_round=1)
    m = Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    results.add_hand(m, EVEN, user_factory("r"))
    m.refresh_from_db()
    assert (m.points_ns, m.points_ew, m.winner_id) == (1, 1, None)


def test_bye_is_a_win_with_zero_difference():
    t, teams, rnd = make_tournament(3, slug="b")
    m = Match.objects.create(round=rnd, table=2, team_ns=teams[2], team_ew=None)
    results.recompute_match(m)
    m.refresh_from_db()
    assert (m.status, m.total_ns, m.total_ew, m.points_ns, m.winner_id) == ("finished", 0, 0, 2, teams[2].pk)


def test_rebuild_scores_restores_tampering(setup):
    m = add(setup["match"], [TP_N_75, FAILED_TP_E], setup["ref"])
    Hand.objects.filter(match=m, number=2).update(ns=999, ew=-999)
    Match.objects.filter(pk=m.pk).update(total_ns=1, total_ew=2, points_ns=7, status="finished")
    assert results.rebuild_scores(setup["t"]) == 1
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew, m.points_ns, m.status) == (235, -35, 0, "playing")
    assert m.hands.get(number=2).ns == 60 and m.hands.get(number=2).ew == -60


@pytest.mark.django_db(transaction=True)
def test_two_users_confirming_at_once_give_one_confirmation(django_user_model):
    """Two confirmers race (threads, each with its own database connection): at most one succeeds
    and exactly one active confirmation exists (row lock + the one_active_confirmation_per_match
    constraint). Runs on SQLite and, under ``make test-services``, on PostgreSQL."""
    import threading

    from django.db import OperationalError, connections

    ref = django_user_model.objects.create(username="ref")
    confirmers = [django_user_model.objects.create(username=f"c{i}") for i in range(2)]
    t, teams, rnd = make_tournament(slug="race")
    m = Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    add(m, [DV_NS_GRAND, DV_NS_GRAND], ref)
    barrier = threading.Barrier(2)
    outcomes = []

    def confirm(user):
        try:
            barrier.wait(timeout=10)
            results.confirm_match(Match.objects.get(pk=m.pk), user)
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
