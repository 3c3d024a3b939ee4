"""One answer to "may this actor do this to this result now?" (issue "One answer to each question
in the code", item 1): the question the pages, the API and the PDFs ask
(:func:`scoring.results.sheet.refusal`) gives exactly the answer the write gives. For every
kind of result, state, actor and action below, the write is tried (and rolled back): it is
refused with the refusal's own error and message when the question says no, and it is not
refused for who or when it is when the question says yes.

States, from the rules (docs/results.md): a result with no record, one with a record entered by
a referee, one entered through Alpha's (Ann's) link, a finished one, a finished one that the
other side disputed, a confirmed one, and a finished one in a finished tournament; each with the
opponents verifying at the end of the match and, with verification per hand (issue 22 item 2),
acknowledging each record (acknowledging and disagreeing are asked of record 1)."""
from __future__ import annotations

import pytest
from django.contrib.auth.models import AnonymousUser
from django.core.exceptions import PermissionDenied
from django.db import transaction

from scoring.errors import Locked, NotAllowed
from scoring.kinds import kind_of
from scoring.models import AuditEntry, Tournament
from scoring.policy import SYSTEM
from scoring.results import sheet
from scoring.results.sheet import Action
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, SICHUAN_SELF_DRAW

pytestmark = pytest.mark.django_db

#: Per kind: the result in the world, a record to enter, the sides' and another table's entrant.
KINDS = {
    "match": ("match", PLAIN_HAND, ("Alpha", "Bravo"), "Charlie"),
    "table": ("table", SICHUAN_SELF_DRAW, ("Ann", "Ben"), "Eve"),
}
STATES = ("empty", "entered", "entered_by_side", "finished", "disputed", "confirmed", "tournament_finished")
ACTORS = ("organiser", "referee", "confirmer", "outsider", "anonymous", "system", "side", "other_side", "stranger")


class Rollback(Exception):
    """Undoes a write that went through."""


def _finish(world, c, record, entrant=None):
    actor = world.actor(entrant) if entrant else world.referee
    if c.round.tournament.game == "taipan":
        for _ in range(2):
            sheet.add_record(c, GRAND_DOUBLE_VICTORY_NS, actor, expected_version=c.version)
    else:
        sheet.add_record(c, record, actor, expected_version=c.version)
        sheet.end_at_time(c, actor, expected_version=c.version, reason="time")
    return c


def _build(world, kind: str, state: str):
    name, record, (side, other), _stranger = KINDS[kind]
    c = getattr(world, name)
    if state == "entered":
        sheet.add_record(c, record, world.referee, expected_version=c.version)
    elif state == "entered_by_side":
        sheet.add_record(c, record, world.actor(side), expected_version=c.version)
    elif state in ("finished", "confirmed", "tournament_finished"):
        _finish(world, c, record)
    elif state == "disputed":
        _finish(world, c, record, entrant=side)
        sheet.dispute(c, world.actor(other), expected_version=c.version, totals=[1] * len(c.round.tournament.adapter.sides),
                      note="not what we wrote")
    if state in ("confirmed", "tournament_finished"):
        if c.round.tournament.verifies_each_record:  # every record acknowledged first, on the sides' behalf
            for rec in kind_of(c).records(c):
                sheet.acknowledge(c, rec.number, world.organiser, revision=rec.revision)
        sheet.confirm(c, world.confirmer, expected_version=c.version)
    if state == "tournament_finished":
        Tournament.objects.filter(pk=c.round.tournament_id).update(status=Tournament.Status.FINISHED)
    c.refresh_from_db()
    c.round.tournament.refresh_from_db()
    return c


def _actor(world, kind: str, who: str):
    _name, _record, (side, other), stranger = KINDS[kind]
    return {"anonymous": AnonymousUser(), "system": SYSTEM, "side": world.actor(side) if who == "side" else None,
            "other_side": world.actor(other) if who == "other_side" else None,
            "stranger": world.actor(stranger) if who == "stranger" else None}.get(who) or getattr(world, who)


def _write(c, action: Action, actor, record):
    sides = len(c.round.tournament.adapter.sides)
    v = c.version
    if action is Action.ADD:
        sheet.add_record(c, record, actor, expected_version=v)
    elif action is Action.CHANGE:
        sheet.edit_record(c, 1, record, actor, expected_version=v, reason="typo")
    elif action is Action.END:
        sheet.end_at_time(c, actor, expected_version=v, reason="time")
    elif action is Action.RESUME:
        sheet.resume_play(c, actor, expected_version=v, reason="more time")
    elif action is Action.CONFIRM:
        sheet.confirm(c, actor, expected_version=v, totals=kind_of(c).totals(c))
    elif action is Action.DISPUTE:
        sheet.dispute(c, actor, expected_version=v, totals=[7] * sides, note="ours differ")
    elif action is Action.REOPEN:
        sheet.reopen(c, actor, "a typo", expected_version=v)
    elif action is Action.ACKNOWLEDGE:
        sheet.acknowledge(c, 1, actor, revision=kind_of(c).record(c, 1).revision)
    elif action is Action.DISAGREE:
        sheet.disagree(c, 1, actor, revision=kind_of(c).record(c, 1).revision, scores=[7] * sides, note="ours differ")


WRITES = (Action.ADD, Action.CHANGE, Action.END, Action.RESUME, Action.CONFIRM, Action.DISPUTE, Action.REOPEN,
          Action.ACKNOWLEDGE, Action.DISAGREE)
#: The actions asked about record 1 (``number=1``); none on a result without records.
RECORD_WRITES = (Action.CHANGE, Action.ACKNOWLEDGE, Action.DISAGREE)
REFUSALS = (NotAllowed, Locked, PermissionDenied)


@pytest.mark.parametrize("verification", list(Tournament.Verification))
@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("state", STATES)
def test_the_question_and_the_write_give_one_answer(world, kind, state, verification):
    Tournament.objects.update(verification=verification)
    for t in (world.tp, world.sc):
        t.refresh_from_db()
    c = _build(world, kind, state)
    record = KINDS[kind][1]
    checked = 0
    for who in ACTORS:
        actor = _actor(world, kind, who)
        for action in WRITES:
            if action in RECORD_WRITES and state == "empty":
                continue  # nothing entered: there is no record 1
            answer = sheet.refusal(c, action, actor, number=1 if action in RECORD_WRITES else None)
            try:
                with transaction.atomic():
                    _write(c, action, actor, record)
                    raise Rollback
            except Rollback:
                assert answer is None, f"{who} {action}: the write went through, the question said {answer}"
            except REFUSALS as exc:
                assert answer is not None, f"{who} {action}: refused with {exc!r}, the question said yes"
                assert isinstance(exc, answer.error), f"{who} {action}: {exc!r} is not a {answer.error.__name__}"
                if not isinstance(exc, PermissionDenied):
                    assert str(exc.message) == str(answer.message), f"{who} {action}"
            else:  # pragma: no cover - a write either goes through (Rollback) or raises
                raise AssertionError("unreachable")
            finally:
                c.refresh_from_db()
            checked += 1
    assert checked >= len(ACTORS) * (len(WRITES) - len(RECORD_WRITES))


@pytest.mark.parametrize("kind", list(KINDS))
def test_restore_asks_the_same_question(world, kind):
    c = _build(world, kind, "entered")
    entry = AuditEntry.objects.filter(action=AuditEntry.Action.CREATE, **{kind: c}).get()
    sheet.delete_record(c, 1, world.referee, expected_version=c.version, reason="wrong table")
    for who in ACTORS:
        actor = _actor(world, kind, who)
        answer = sheet.refusal(c, Action.RESTORE, actor)
        try:
            with transaction.atomic():
                sheet.restore(c, entry, actor, expected_version=c.version, reason="it was right")
                raise Rollback
        except Rollback:
            assert answer is None, who
        except REFUSALS as exc:
            assert answer is not None and isinstance(exc, answer.error), (who, exc)
        c.refresh_from_db()
    # Members who enter results may restore; links and outsiders may not (the audit trail is the members').
    assert sheet.refusal(c, Action.RESTORE, world.referee) is None
    assert sheet.refusal(c, Action.RESTORE, world.actor(KINDS[kind][2][0])).error is PermissionDenied


def test_the_answers_follow_the_rules(world):
    """Spot checks of the answers themselves, from docs/results.md."""
    m = _build(world, "match", "entered_by_side")
    alpha, bravo = world.actor("Alpha"), world.actor("Bravo")
    assert sheet.refusal(m, Action.ADD, alpha) is None  # the entering side enters
    assert sheet.refusal(m, Action.ADD, bravo).code == sheet.Code.OTHER_SIDE_ENTERS  # the other side confirms
    assert sheet.refusal(m, Action.ADD, world.referee) is None  # referees always may
    assert sheet.refusal(m, Action.CONFIRM, world.referee).error is NotAllowed  # not finished yet
    assert sheet.refusal(m, Action.SEE_TOTALS, AnonymousUser()) is None  # no blind confirmation here
    assert sheet.refusal(m, Action.DISPUTE, world.referee).code == sheet.Code.NOT_A_SIDE
    assert sheet.refusal(m, Action.SEE_AUDIT, alpha).error is PermissionDenied
    assert sheet.refusal(m, Action.REOPEN, world.referee).message == "Only a confirmed result can be reopened."
