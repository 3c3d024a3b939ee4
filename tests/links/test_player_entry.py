"""Player entry with opponent verification through the result sheet (issue 15 item 2,
``docs/private-links.md``): one side enters through its private link, the other side confirms
or disputes, a referee settles a dispute; the same sheet, locks, versions and audit trail as
referee entry. Values from the NSKT rules: card points of a hand add up to 100; a double victory
is 200 : 0; Grand Tai Pan made is +200 (so two "Grand Tai Pan with a double victory" hands reach
the target 800). Sichuan (docs/engines/sichuan.md): East's self-drawn win of base 1 is +6, the others -2."""
from __future__ import annotations

import pytest
from django.core.exceptions import PermissionDenied

from scoring.errors import NotAllowed, ServiceError
from scoring.models import AuditEntry, Confirmation, Dispute, Hand, Tournament
from scoring.policy import SYSTEM, Perm, has_perm, perms_of, role_of
from scoring.results import sheet
from tests.factories import DOUBLE_VICTORY_NS, GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, SICHUAN_SELF_DRAW, TAI_PAN_HAND

pytestmark = pytest.mark.django_db


def enter(container, records, actor):
    for record in records:
        sheet.add_record(container, record, actor, expected_version=container.version)
    return container


def finished_by(world, name, records=(GRAND_DOUBLE_VICTORY_NS, GRAND_DOUBLE_VICTORY_NS)):
    """``world.match`` finished 800 : 0 by hands entered through ``name``'s link."""
    m = enter(world.match, list(records), world.actor(name))
    assert m.status == m.Status.FINISHED and (m.total_ns, m.total_ew) == (800, 0)
    return m


# --------------------------------------------------------------------------- the policy


def test_an_entrant_holds_its_permissions_on_its_own_results_only(world):
    alpha = world.actor("Alpha")
    assert role_of(alpha, world.tp) == "entrant" and role_of(alpha, world.sc) is None
    # Nothing for the whole tournament: every members' check refuses a link.
    for perm in Perm:
        assert not has_perm(alpha, perm, world.tp), perm
    assert perms_of(alpha, world.tp) == frozenset()
    assert has_perm(alpha, Perm.ENTER_RESULTS, world.tp, result=world.match)
    assert has_perm(alpha, Perm.CONFIRM_RESULTS, world.tp, result=world.match)
    assert not has_perm(alpha, Perm.REOPEN_RESULTS, world.tp, result=world.match)
    assert not has_perm(alpha, Perm.ENTER_RESULTS, world.tp, result=world.match2)  # another table
    assert not has_perm(alpha, Perm.ENTER_RESULTS, world.tp, result=world.draft_match)  # a draft round
    assert not has_perm(alpha, Perm.ENTER_RESULTS, world.sc, result=world.table)  # another tournament
    ann = world.actor("Ann")
    assert has_perm(ann, Perm.ENTER_RESULTS, world.sc, result=world.table)
    assert not has_perm(ann, Perm.ENTER_RESULTS, world.sc, result=world.table2)


def test_without_player_entry_a_link_enters_nothing(world):
    Tournament.objects.filter(pk=world.tp.pk).update(player_entry=False)
    with pytest.raises(PermissionDenied):
        sheet.add_record(world.match, PLAIN_HAND, world.actor("Alpha"), expected_version=0)
    assert not Hand.objects.exists()


def test_a_link_never_writes_another_table_or_a_draft_round(world):
    for container, name in ((world.match2, "Alpha"), (world.draft_match, "Alpha"), (world.table2, "Ann"),
                            (world.draft_table, "Ann"), (world.table, "Alpha")):
        record = PLAIN_HAND if container in (world.match2, world.draft_match) else SICHUAN_SELF_DRAW
        with pytest.raises(PermissionDenied):
            sheet.add_record(container, record, world.actor(name), expected_version=0)
    assert not AuditEntry.objects.exists()


# --------------------------------------------------------------------------- entering and confirming


def test_one_team_enters_the_other_confirms_and_the_audit_names_both(world):
    m = finished_by(world, "Alpha")
    # The entering side never confirms its own entry.
    with pytest.raises(NotAllowed, match="other side confirms"):
        sheet.confirm(m, world.actor("Alpha"), expected_version=m.version)
    confirmation = sheet.confirm(m, world.actor("Bravo"), expected_version=m.version)
    m.refresh_from_db()
    assert m.status == m.Status.CONFIRMED and m.points_ns == 2 and m.winner_id == world.teams["Alpha"].pk
    assert confirmation.confirmed_by is None and confirmation.via_entrant == "Bravo"
    assert confirmation.via_link_id == world.links["Bravo"].pk and confirmation.totals == {"NS": 800, "EW": 0}
    assert confirmation.confirmer == "Bravo (private link)"
    entries = list(AuditEntry.objects.filter(match=m).order_by("pk"))
    assert [(e.action, e.user_id, e.via_entrant) for e in entries] == [
        ("create", None, "Alpha"), ("create", None, "Alpha"), ("confirm", None, "Bravo")]
    assert all(h.entered_by_id is None for h in Hand.objects.filter(match=m))


def test_only_the_entering_side_enters_after_its_first_record(world):
    m = enter(world.match, [PLAIN_HAND], world.actor("Alpha"))
    for action in (lambda: sheet.add_record(m, PLAIN_HAND, world.actor("Bravo"), expected_version=m.version),
                   lambda: sheet.edit_record(m, 1, TAI_PAN_HAND, world.actor("Bravo"), expected_version=m.version, reason="x"),
                   lambda: sheet.delete_record(m, 1, world.actor("Bravo"), expected_version=m.version, reason="x"),
                   lambda: sheet.end_at_time(m, world.actor("Bravo"), expected_version=m.version, reason="time")):
        with pytest.raises(NotAllowed, match="Another side enters"):
            action()
    assert Hand.objects.filter(match=m).count() == 1
    # The entering side corrects its own hands; referees may always step in.
    sheet.edit_record(m, 1, TAI_PAN_HAND, world.actor("Alpha"), expected_version=m.version, reason="call forgotten")
    sheet.add_record(m, PLAIN_HAND, world.referee, expected_version=m.version)
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (175 + 75, 25 + 25)


def test_the_entering_side_may_end_at_the_time_limit_and_the_opponents_confirm(world):
    m = enter(world.match, [TAI_PAN_HAND], world.actor("Bravo"))  # Bravo sits EW and enters
    sheet.end_at_time(m, world.actor("Bravo"), expected_version=m.version, reason="time is up")
    m.refresh_from_db()
    assert m.status == m.Status.FINISHED and m.ended == "time" and m.winner_id == world.teams["Alpha"].pk
    sheet.confirm(m, world.actor("Alpha"), expected_version=m.version)
    assert Confirmation.objects.get(match=m).via_entrant == "Alpha"


def test_a_referee_entered_result_may_be_confirmed_by_either_side(world):
    m = enter(world.match, [GRAND_DOUBLE_VICTORY_NS] * 2, world.referee)
    sheet.confirm(m, world.actor("Bravo"), expected_version=m.version)
    assert Confirmation.objects.get(match=m).via_entrant == "Bravo"


def test_a_side_that_changed_the_result_never_confirms_it(world):
    m = enter(world.match, [DOUBLE_VICTORY_NS] * 3, world.referee)
    sheet.add_record(m, DOUBLE_VICTORY_NS, world.actor("Bravo"), expected_version=m.version)  # Bravo enters the last hand
    m.refresh_from_db()
    assert m.status == m.Status.FINISHED
    with pytest.raises(NotAllowed):
        sheet.confirm(m, world.actor("Bravo"), expected_version=m.version)
    sheet.confirm(m, world.actor("Alpha"), expected_version=m.version)


def test_four_players_one_enters_any_other_seated_player_confirms(world):
    t = world.table
    sheet.add_record(t, SICHUAN_SELF_DRAW, world.actor("Ann"), expected_version=0)
    with pytest.raises(NotAllowed, match="Another side enters"):
        sheet.add_record(t, SICHUAN_SELF_DRAW, world.actor("Cas"), expected_version=t.version)
    sheet.end_at_time(t, world.actor("Ann"), expected_version=t.version, reason="time")
    with pytest.raises(NotAllowed):
        sheet.confirm(t, world.actor("Ann"), expected_version=t.version)
    with pytest.raises(PermissionDenied):
        sheet.confirm(t, world.actor("Eve"), expected_version=t.version)  # seated at another table
    sheet.confirm(t, world.actor("Dee"), expected_version=t.version)
    t.refresh_from_db()
    assert t.status == t.Status.CONFIRMED and [s.total for s in t.seats.order_by("seat")] == [6, -2, -2, -2]


def test_blind_confirmation_through_a_link_needs_the_typed_totals(world):
    Tournament.objects.filter(pk=world.tp.pk).update(blind_confirmation=True)
    m = finished_by(world, "Alpha")
    with pytest.raises(ServiceError, match="Type the final totals"):
        sheet.confirm(m, world.actor("Bravo"), expected_version=m.version)
    with pytest.raises(NotAllowed, match="do not match"):
        sheet.confirm(m, world.actor("Bravo"), expected_version=m.version, totals=[800, 100])
    sheet.confirm(m, world.actor("Bravo"), expected_version=m.version, totals={"NS": 800, "EW": 0})


def test_restoring_and_reopening_stay_with_referees_and_organisers(world):
    m = enter(world.match, [PLAIN_HAND], world.actor("Alpha"))
    created = AuditEntry.objects.get(match=m, action="create")
    sheet.edit_record(m, 1, TAI_PAN_HAND, world.actor("Alpha"), expected_version=m.version, reason="call")
    with pytest.raises(PermissionDenied):
        sheet.restore(m, created, world.actor("Alpha"), expected_version=m.version, reason="back")
    enter(m, [GRAND_DOUBLE_VICTORY_NS] * 2, world.actor("Alpha"))
    sheet.confirm(m, world.actor("Bravo"), expected_version=m.version)
    for name in ("Alpha", "Bravo"):
        with pytest.raises(PermissionDenied):
            sheet.reopen(m, world.actor(name), "wrong", expected_version=m.version)
    sheet.reopen(m, world.referee, "wrong", expected_version=m.version)


# --------------------------------------------------------------------------- disputes


def test_a_dispute_keeps_both_versions_and_a_referee_settles_it(world):
    m = finished_by(world, "Alpha", [GRAND_DOUBLE_VICTORY_NS, GRAND_DOUBLE_VICTORY_NS])
    seen = m.version
    with pytest.raises(NotAllowed):
        sheet.dispute(m, world.actor("Alpha"), expected_version=seen, totals=[0, 800])  # the entering side
    with pytest.raises(NotAllowed):
        sheet.dispute(m, world.referee, expected_version=seen, totals=[0, 800])  # referees correct instead
    d = sheet.dispute(m, world.actor("Bravo"), expected_version=seen, totals=[400, 400], note="Hand 2 was ours")
    m.refresh_from_db()
    assert m.version == seen + 1 and m.status == m.Status.FINISHED  # nothing else changed
    assert (d.totals, d.entered_totals, d.note, d.via_entrant, d.version) == ([400, 400], [800, 0], "Hand 2 was ours", "Bravo", seen)
    assert sheet.open_disputes(m) == [d]
    entry = AuditEntry.objects.get(match=m, action="dispute")
    assert entry.via_entrant == "Bravo" and entry.reason == "Hand 2 was ours" and entry.new["totals"] == [400, 400]
    # The referee corrects hand 2 (Grand Tai Pan of N, but EW's double victory: N -200, EW +200)
    # and confirms the correction: they changed nothing before the dispute.
    ew_double = {"calls": {"N": "grand_tai_pan"}, "first_out": "E", "double_victory": "EW", "card_points": None}
    sheet.edit_record(m, 2, ew_double, world.referee, expected_version=m.version, reason="dispute: hand 2 was EW's")
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (400 + -200, 200) and m.status == m.Status.PLAYING
    enter(m, [GRAND_DOUBLE_VICTORY_NS] * 2, world.actor("Alpha"))
    m.refresh_from_db()
    assert m.status == m.Status.FINISHED and (m.total_ns, m.total_ew) == (1000, 200)
    confirmation = sheet.confirm(m, world.referee, expected_version=m.version)
    d.refresh_from_db()
    assert d.confirmation_id == confirmation.pk and sheet.open_disputes(m) == []


def test_a_referee_who_entered_before_the_dispute_does_not_settle_it_alone(world):
    m = enter(world.match, [GRAND_DOUBLE_VICTORY_NS], world.referee)
    enter(m, [GRAND_DOUBLE_VICTORY_NS], world.actor("Alpha"))
    sheet.dispute(m, world.actor("Bravo"), expected_version=m.version, totals=[400, 0], note="only one hand")
    with pytest.raises(NotAllowed, match="different person"):
        sheet.confirm(m, world.referee, expected_version=m.version)
    sheet.confirm(m, world.confirmer, expected_version=m.version)
    assert not Dispute.objects.filter(confirmation=None).exists()


def test_the_disputing_side_may_confirm_after_all_but_no_other_side_over_its_objection(world):
    t = world.table
    sheet.add_record(t, SICHUAN_SELF_DRAW, world.actor("Ann"), expected_version=0)
    sheet.end_at_time(t, world.actor("Ann"), expected_version=t.version, reason="time")
    sheet.dispute(t, world.actor("Ben"), expected_version=t.version, totals=[0, 0, 0, 0], note="nobody won")
    with pytest.raises(NotAllowed, match="referee settles"):
        sheet.confirm(t, world.actor("Cas"), expected_version=t.version)
    sheet.confirm(t, world.actor("Ben"), expected_version=t.version)
    assert Dispute.objects.get().confirmation.via_entrant == "Ben"


def test_a_dispute_needs_totals_that_differ_or_a_note(world):
    m = finished_by(world, "Alpha")
    with pytest.raises(ServiceError, match="Type the final totals"):
        sheet.dispute(m, world.actor("Bravo"), expected_version=m.version)
    with pytest.raises(ServiceError, match="These are the entered totals"):
        sheet.dispute(m, world.actor("Bravo"), expected_version=m.version, totals=[800, 0])
    sheet.dispute(m, world.actor("Bravo"), expected_version=m.version, totals=[800, 0], note="hand 3 is missing")
    assert Dispute.objects.count() == 1


def test_a_dispute_is_only_about_a_finished_result_the_side_saw(world):
    m = enter(world.match, [PLAIN_HAND], world.actor("Alpha"))
    with pytest.raises(NotAllowed, match="finished"):
        sheet.dispute(m, world.actor("Bravo"), expected_version=m.version, totals=[0, 100])
    m = enter(m, [GRAND_DOUBLE_VICTORY_NS] * 2, world.actor("Alpha"))
    from scoring.errors import StaleVersion

    with pytest.raises(StaleVersion):
        sheet.dispute(m, world.actor("Bravo"), expected_version=m.version - 1, totals=[0, 100])
    assert not Dispute.objects.exists()


def test_system_actor_and_anonymous_still_cannot_confirm(world):
    m = finished_by(world, "Alpha")
    with pytest.raises(NotAllowed, match="Log in"):
        sheet.confirm(m, SYSTEM, expected_version=m.version)
