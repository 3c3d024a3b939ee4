"""Opponent verification per hand (issue 22 item 2, docs/results.md "Verification per hand"): with
player entry and the tournament's verification set to per hand, the other side acknowledges each
hand (deal) the entering side stored, or disagrees with it; an edit makes it pending again; the
result is confirmed only once every record is acknowledged. The question
(:func:`scoring.results.sheet.refusal`) and the write give one answer for every actor and state."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction

from scoring.errors import Locked, NotAllowed, StaleVersion
from scoring.kinds import kind_of
from scoring.models import AuditEntry, Dispute, Tournament
from scoring.policy import SYSTEM
from scoring.results import sheet
from scoring.results.sheet import Action, Code
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, SICHUAN_SELF_DRAW, TAI_PAN_HAND
from tests.links.conftest import build_link_world

pytestmark = pytest.mark.django_db

#: Per kind: the result in the world, a record to enter, the sides (the entering one first) and
#: another table's entrant.
KINDS = {
    "match": ("match", PLAIN_HAND, ("Alpha", "Bravo"), "Charlie"),
    "table": ("table", SICHUAN_SELF_DRAW, ("Ann", "Ben"), "Eve"),
}
STATES = ("by_side", "by_referee", "acknowledged", "edited", "disagreed", "finished_pending", "finished_acknowledged",
          "confirmed")
ACTORS = ("organiser", "referee", "outsider", "anonymous", "system", "side", "other_side", "stranger")
WRITES = (Action.ACKNOWLEDGE, Action.DISAGREE, Action.CONFIRM)
REFUSALS = (NotAllowed, Locked, PermissionDenied)


@pytest.fixture
def vworld(db):
    return build_link_world(verification=Tournament.Verification.PER_RECORD)


class Rollback(Exception):
    """Undoes a write that went through."""


def _rev(c, number=1):
    return kind_of(c).record(c, number).revision


def _finish(world, c, record, actor):
    if c.round.tournament.game == "taipan":
        for _ in range(2):
            sheet.add_record(c, GRAND_DOUBLE_VICTORY_NS, actor, expected_version=c.version)
    else:
        sheet.add_record(c, record, actor, expected_version=c.version)
        sheet.end_at_time(c, actor, expected_version=c.version, reason="time")


def _ack_all(world, c, actor):
    for rec in kind_of(c).records(c):
        if not rec.is_acknowledged:
            sheet.acknowledge(c, rec.number, actor, revision=rec.revision)


def _build(world, kind: str, state: str):
    name, record, (side, other), _stranger = KINDS[kind]
    c = getattr(world, name)
    entering, checking = world.actor(side), world.actor(other)
    if state == "by_referee":
        sheet.add_record(c, record, world.referee, expected_version=c.version)
    elif state in ("by_side", "acknowledged", "edited", "disagreed"):
        sheet.add_record(c, record, entering, expected_version=c.version)
    if state in ("acknowledged", "edited"):
        sheet.acknowledge(c, 1, checking, revision=1)
    if state == "edited":
        changed = TAI_PAN_HAND if kind == "match" else record
        sheet.edit_record(c, 1, changed, entering, expected_version=c.version, reason="typo")
    if state == "disagreed":
        sheet.disagree(c, 1, checking, revision=1, scores=[9] * len(c.round.tournament.adapter.sides), note="no")
    if state in ("finished_pending", "finished_acknowledged", "confirmed"):
        _finish(world, c, record, entering)
    if state in ("finished_acknowledged", "confirmed"):
        _ack_all(world, c, checking)
    if state == "confirmed":
        sheet.confirm(c, checking, expected_version=c.version)
    c.refresh_from_db()
    return c


def _actor(world, kind: str, who: str):
    _name, _record, (side, other), stranger = KINDS[kind]
    named = {"side": side, "other_side": other, "stranger": stranger}
    if who in named:
        return world.actor(named[who])
    return {"anonymous": AnonymousUser(), "system": SYSTEM}.get(who) or getattr(world, who)


def _write(c, action: Action, actor):
    sides = len(c.round.tournament.adapter.sides)
    rec = kind_of(c).record(c, 1)
    if action is Action.ACKNOWLEDGE:
        sheet.acknowledge(c, 1, actor, revision=rec.revision)
    elif action is Action.DISAGREE:
        sheet.disagree(c, 1, actor, revision=rec.revision, scores=[7] * sides, note="ours differ")
    elif action is Action.CONFIRM:
        sheet.confirm(c, actor, expected_version=c.version)


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("state", STATES)
def test_the_question_and_the_write_give_one_answer(vworld, kind, state):
    c = _build(vworld, kind, state)
    for who in ACTORS:
        actor = _actor(vworld, kind, who)
        for action in WRITES:
            answer = sheet.refusal(c, action, actor, number=1)
            try:
                with transaction.atomic():
                    _write(c, action, actor)
                    raise Rollback
            except Rollback:
                assert answer is None, f"{state} {who} {action}: the write went through, the question said {answer}"
            except REFUSALS as exc:
                assert answer is not None, f"{state} {who} {action}: refused with {exc!r}, the question said yes"
                assert isinstance(exc, answer.error), f"{who} {action}: {exc!r} is not a {answer.error.__name__}"
                if not isinstance(exc, PermissionDenied):
                    assert str(exc.message) == str(answer.message), f"{state} {who} {action}"
            finally:
                c.refresh_from_db()


def test_who_may_acknowledge(vworld):
    """Only the other side, or a referee or organiser on its behalf; never the entering side,
    another table's side, an outsider or the anonymous visitor."""
    m = _build(vworld, "match", "by_side")
    ok = {"other_side", "referee", "organiser"}
    for who in ACTORS:
        answer = sheet.refusal(m, Action.ACKNOWLEDGE, _actor(vworld, "match", who), number=1)
        assert (answer is None) == (who in ok), (who, answer)
    assert sheet.refusal(m, Action.ACKNOWLEDGE, vworld.actor("Alpha"), number=1).code == Code.OWN_RECORD
    # Only a side disagrees: referees correct the record instead.
    assert sheet.refusal(m, Action.DISAGREE, vworld.referee, number=1).code == Code.NOT_A_SIDE
    assert sheet.refusal(m, Action.DISAGREE, vworld.actor("Bravo"), number=1) is None


def test_a_referee_entry_is_acknowledged_by_either_side(vworld):
    m = _build(vworld, "match", "by_referee")
    assert sheet.refusal(m, Action.ACKNOWLEDGE, vworld.actor("Alpha"), number=1) is None
    assert sheet.refusal(m, Action.ACKNOWLEDGE, vworld.actor("Bravo"), number=1) is None


def test_acknowledging_records_the_fact_and_the_audit(vworld):
    m = _build(vworld, "match", "by_side")
    version = m.version
    rec = sheet.acknowledge(m, 1, vworld.actor("Bravo"), revision=1)
    assert (rec.revision, rec.acknowledged_revision, rec.acknowledged_by) == (1, 1, None)
    assert rec.acknowledged_via_link_id == vworld.links["Bravo"].pk and rec.acknowledged_at is not None
    m.refresh_from_db()
    assert m.version == version  # records and totals unchanged: the entering side's form stays valid
    entry = AuditEntry.objects.get(action=AuditEntry.Action.ACKNOWLEDGE, match=m)
    assert (entry.object_type, entry.object_id, entry.via_entrant) == ("hand", rec.pk, "Bravo")
    assert entry.new["revision"] == 1 and entry.new["record"] == rec.record
    with pytest.raises(NotAllowed):
        sheet.acknowledge(m, 1, vworld.actor("Bravo"), revision=1)  # already acknowledged


def test_an_edit_makes_the_record_pending_again(vworld):
    m = _build(vworld, "match", "edited")
    rec = kind_of(m).record(m, 1)
    assert (rec.revision, rec.acknowledged_revision, rec.is_acknowledged) == (2, 1, False)
    # An acknowledgement of the version seen before the edit is refused as stale.
    with pytest.raises(StaleVersion):
        sheet.acknowledge(m, 1, vworld.actor("Bravo"), revision=1)
    sheet.acknowledge(m, 1, vworld.actor("Bravo"), revision=2)
    assert kind_of(m).record(m, 1).is_acknowledged


def test_a_restored_record_is_pending_again(vworld):
    m = _build(vworld, "match", "edited")
    sheet.acknowledge(m, 1, vworld.actor("Bravo"), revision=2)
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.CREATE, match=m).get()
    sheet.restore(m, entry, vworld.referee, expected_version=m.version, reason="the first was right")
    rec = kind_of(m).record(m, 1)
    assert rec.record["calls"] == {} and rec.revision == 3 and not rec.is_acknowledged


def test_no_confirmation_while_records_are_pending(vworld):
    m = _build(vworld, "match", "finished_pending")
    refused = sheet.refusal(m, Action.CONFIRM, vworld.actor("Bravo"))
    assert refused is not None and "2 pending" in str(refused)
    with pytest.raises(NotAllowed):
        sheet.confirm(m, vworld.actor("Bravo"), expected_version=m.version)
    sheet.acknowledge(m, 1, vworld.actor("Bravo"), revision=1)
    assert "1 pending" in str(sheet.refusal(m, Action.CONFIRM, vworld.referee))
    sheet.acknowledge(m, 2, vworld.referee, revision=1)  # on the side's behalf
    sheet.confirm(m, vworld.actor("Bravo"), expected_version=m.version)
    m.refresh_from_db()
    assert m.status == "confirmed"


def test_a_disagreement_goes_to_a_referee_with_both_versions(vworld):
    m = _build(vworld, "match", "disagreed")
    d = Dispute.objects.get(match=m)
    # PLAIN_HAND scores NS 75, EW 25 (card points only, no calls): the entered version.
    assert (d.number, d.record_revision, d.totals, d.entered_totals, d.note) == (1, 1, [9, 9], [75, 25], "no")
    assert d.via_entrant == "Bravo" and d.resolved_at is None
    rs = sheet.load(m)
    assert rs.open_record_disputes == [d] and rs.open_disputes == []  # not a dispute of the totals
    with pytest.raises(NotAllowed):  # once per record until settled
        sheet.disagree(m, 1, vworld.actor("Bravo"), revision=1, scores=[1, 1])
    # The referee corrects the hand (pending again, still disputed) and acknowledges it on Bravo's behalf.
    sheet.edit_record(m, 1, TAI_PAN_HAND, vworld.referee, expected_version=m.version, reason="settled")
    assert sheet.load(m).open_record_disputes
    sheet.acknowledge(m, 1, vworld.referee, revision=2)
    d.refresh_from_db()
    assert d.resolved_at is not None and not sheet.load(m).open_record_disputes


def test_deleting_a_disagreed_record_settles_it(vworld):
    m = _build(vworld, "match", "disagreed")
    sheet.delete_record(m, 1, vworld.actor("Alpha"), expected_version=m.version, reason="wrong table")
    assert Dispute.objects.get(match=m).resolved_at is not None


def test_at_match_end_nothing_is_pending(world):
    """The default setting (at the end of the match): no acknowledgements, confirmation as before."""
    m = world.match
    sheet.add_record(m, GRAND_DOUBLE_VICTORY_NS, world.actor("Alpha"), expected_version=m.version)
    sheet.add_record(m, GRAND_DOUBLE_VICTORY_NS, world.actor("Alpha"), expected_version=m.version)
    assert sheet.refusal(m, Action.ACKNOWLEDGE, world.actor("Bravo"), number=1).error is NotAllowed
    assert sheet.refusal(m, Action.CONFIRM, world.actor("Bravo")) is None


def test_blind_confirmation_with_verification_per_hand(db):
    """A side acknowledges what it sees: with verification per hand the sides of the table see the
    records and totals; confirming still asks for the totals typed from the score sheet."""
    w = build_link_world(verification=Tournament.Verification.PER_RECORD, blind_confirmation=True)
    m = _build(w, "match", "finished_acknowledged")
    bravo = w.actor("Bravo")
    assert sheet.refusal(m, Action.SEE_TOTALS, bravo) is None
    assert sheet.refusal(m, Action.SEE_TOTALS, w.actor("Charlie")) is not None  # another table's side
    assert sheet.refusal(m, Action.SEE_TOTALS, AnonymousUser()) is not None
    with pytest.raises(Exception, match="Type the final totals"):
        sheet.confirm(m, bravo, expected_version=m.version)
    sheet.confirm(m, bravo, expected_version=m.version, totals=kind_of(m).totals(m))
