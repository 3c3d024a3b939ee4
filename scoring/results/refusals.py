"""Who may do what to a result, and when: the one question every write, page, API answer and PDF
asks (:meth:`scoring.results.result.ResultSheet.refusal`).

:func:`refusal` answers ``None`` (the action is allowed now) or a :class:`Refusal`: the reason in
words, the error a write raises for it and, where a page reacts to it, a ``code``. The checks of
an action come in a fixed order (who may act at all, then the state of the round and the result,
then who the actor is towards this result), the same order in which a write is refused; the
writes take the row locks and check the version before asking (:mod:`scoring.results.result`).
The rules themselves are those of ``docs/results.md``:

- **Entering** (add, change or delete records, end at the time limit, resume): referees and
  organisers (:data:`~scoring.policy.Perm.ENTER_RESULTS`), and with player entry the *entering
  side* through its private link: the first side that entered a record; the others confirm.
- Records are entered while the round is published or in progress; a finished result takes no
  more (resume play first), but its records can be changed; a confirmed one changes only after
  it is reopened; a bye has no records.
- **Confirming**: a finished result of an open round, by someone (or a side) who did not enter or
  change it; a referee or organiser who corrected a disputed result only after the dispute may
  confirm it themself; while a side's dispute is open, no other side confirms.
- **Disputing**: only a side through its link, one that did not enter or change the result, in the
  states in which it could confirm.
- **Reopening**: a confirmed result; referees while the round is open, in a closed round only
  organisers (:func:`scoring.policy.reopen_perm`); not in a finished tournament.
- **Restoring** from the audit trail: members who see it, on a result that is not confirmed.
- **Acknowledging a record** (verification per hand, :attr:`~scoring.models.Tournament.verifies_each_record`):
  a pending record (its revision not acknowledged) of an open result, by a side of the table that
  did not enter or change the result, or by a referee or organiser on a side's behalf;
  **disagreeing** with one: only such a side through its link, once per record until settled.
  Confirming waits until every record is acknowledged.
- **Seeing the totals** (blind confirmation): until a result is confirmed its totals are shown
  only to the tournament's members and to the side that entered it.
"""
from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Protocol

from django.core.exceptions import PermissionDenied
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import Locked, NotAllowed
from scoring.kinds import ResultKind
from scoring.models import Dispute, ResultContainer, Round, TimesUp, Tournament
from scoring.policy import Perm


class ResultSheet(Protocol):
    """What the rules read of a result (:class:`scoring.results.result.ResultSheet` provides it)."""

    container: ResultContainer
    kind: ResultKind
    round: Round
    tournament: Tournament

    @property
    def is_bye(self) -> bool: ...

    @property
    def entering_links(self) -> list[int]: ...

    @property
    def open_disputes(self) -> list[Dispute]: ...

    def changed_by(self, actor) -> bool: ...

    def resolves_dispute(self, actor) -> bool: ...

    def holds(self, actor, perm: Perm) -> bool: ...

    @property
    def records(self) -> list: ...

    @property
    def open_record_disputes(self) -> list[Dispute]: ...


class Action(StrEnum):
    """What an actor may want to do to a result."""

    #: Enter or change records at all (the permission and the entering side; no state).
    ENTER = "enter"
    #: Add the next record.
    ADD = "add"
    #: Edit or delete a record.
    CHANGE = "change"
    #: End an unfinished result at the time limit.
    END = "end"
    #: Undo an end at the time limit.
    RESUME = "resume"
    CONFIRM = "confirm"
    DISPUTE = "dispute"
    REOPEN = "reopen"
    #: Restore a version from the audit trail.
    RESTORE = "restore"
    #: See the totals and scores of an unconfirmed result (blind confirmation).
    SEE_TOTALS = "see_totals"
    #: See the confirmation history and the audit trail.
    SEE_AUDIT = "see_audit"
    #: Acknowledge a record the other side entered (verification per hand; asked with its number).
    ACKNOWLEDGE = "acknowledge"
    #: Disagree with such a record: it goes to a referee with both versions.
    DISAGREE = "disagree"


class Code(StrEnum):
    """Refusals a page words or shows differently (``Refusal.code``)."""

    #: Another side enters this result through its link (this side confirms).
    OTHER_SIDE_ENTERS = "other_side_enters"
    #: Referees and organisers correct a result instead of disputing it.
    NOT_A_SIDE = "not_a_side"
    #: The actor holds no permission for the action on this result.
    NO_PERMISSION = "no_permission"
    #: Blind confirmation hides the result's records from this side (it may not change them).
    RECORDS_HIDDEN = "records_hidden"
    #: This side entered or changed the result: the other side acknowledges its records.
    OWN_RECORD = "own_record"
    #: The record asked about is acknowledged already (nothing is pending).
    ACKNOWLEDGED = "acknowledged"
    #: Time's up for the round ended this result at the time limit (:mod:`scoring.hall.times_up`).
    TIMES_UP = "times_up"


@dataclass(frozen=True)
class Refusal:
    """Why an action is refused: ``message`` (translated, lazy), ``error`` (the exception class a
    write raises: :class:`~scoring.errors.NotAllowed`, :class:`~scoring.errors.Locked` or
    ``PermissionDenied``), ``code`` (:class:`Code`, or ``""``) and ``field`` (the form field it is
    about, or ``""``)."""

    message: Any
    error: type[Exception] = NotAllowed
    code: str = ""
    field: str = ""

    def __str__(self) -> str:
        return str(self.message)

    def exception(self) -> Exception:
        """The exception a write raises for this refusal."""
        if self.error is PermissionDenied:
            return PermissionDenied(str(self.message))
        return self.error(self.message, field=self.field)


#: The permission each action needs on the result (``None``: decided by the action's own rule).
PERMS: dict[Action, Perm | None] = {
    Action.ENTER: Perm.ENTER_RESULTS, Action.ADD: Perm.ENTER_RESULTS, Action.CHANGE: Perm.ENTER_RESULTS,
    Action.END: Perm.ENTER_RESULTS, Action.RESUME: Perm.ENTER_RESULTS, Action.RESTORE: Perm.ENTER_RESULTS,
    Action.CONFIRM: Perm.CONFIRM_RESULTS, Action.DISPUTE: Perm.CONFIRM_RESULTS,
    Action.REOPEN: None, Action.SEE_TOTALS: None, Action.SEE_AUDIT: Perm.VIEW_AUDIT,
    Action.ACKNOWLEDGE: Perm.CONFIRM_RESULTS, Action.DISAGREE: Perm.CONFIRM_RESULTS,
}

_NO_PERMISSION = {
    Action.CONFIRM: _("You may not confirm this result."),
    Action.DISPUTE: _("You may not confirm this result."),
    Action.ACKNOWLEDGE: _("Only the other side of this table, a referee or an organiser acknowledges its records."),
    Action.DISAGREE: _("Only the other side of this table acknowledges its records."),
    Action.SEE_AUDIT: _("Only the tournament's referees and organisers see who changed what."),
}


def permission_refusal(sheet: ResultSheet, action: Action, actor) -> Refusal | None:
    """The permission part of :func:`refusal` alone (who may act on this result at all, whatever
    its state): for the pages and the API, which refuse with 403 before reading any input."""
    perm = PERMS[action]
    if action is Action.REOPEN:
        return _tournament_perm(sheet.tournament, policy.reopen_perm(sheet.round), actor, action)
    if action is Action.RESTORE and (refused := _tournament_perm(sheet.tournament, Perm.VIEW_AUDIT, actor, action)):
        # Restoring works from the audit trail, which only members see (never through a link).
        return refused
    if perm is None or sheet.holds(actor, perm):
        return None
    if policy.is_entrant(actor) and perm is Perm.ENTER_RESULTS:
        if not sheet.tournament.player_entry:
            message = _("The organiser has not turned on player entry: the referees enter the results.")
        elif not sheet.kind.is_side(actor, sheet.container):
            message = _("Through your link you enter only the results of your own table.")
        else:
            message = _("Nothing can be entered in this result's state.")
        return Refusal(message, PermissionDenied, Code.NO_PERMISSION)
    message = _NO_PERMISSION.get(action, _("Only the tournament's referees and organisers enter results."))
    return Refusal(message, PermissionDenied, Code.NO_PERMISSION)


def _record_noun(sheet: ResultSheet) -> str:
    return str(sheet.kind.record_noun)


def _verifies_each(sheet: ResultSheet) -> Refusal | None:
    """Verification per hand (deal) is on: player entry and the tournament's setting."""
    if not sheet.tournament.verifies_each_record:
        return Refusal(_("In this tournament the opponents check the result when it is finished, not each {noun}.")
                       .format(noun=_record_noun(sheet)))
    return None


def _pending(sheet: ResultSheet, number: int | None) -> Refusal | None:
    """Record ``number`` exists and its revision is not acknowledged (``None``: asked of the result
    as a whole, no record)."""
    if number is None:
        return None
    rec = next((r for r in sheet.records if r.number == number), None)
    if rec is None:
        return Refusal(_("There is no number {number} here.").format(number=number))
    if rec.is_acknowledged:
        return Refusal(_("{this} is already acknowledged.").format(this=capfirst(sheet.kind.this_record)),
                       code=Code.ACKNOWLEDGED)
    return None


def _not_disagreed(sheet: ResultSheet, number: int | None, actor) -> Refusal | None:
    """No disagreement of this side with record ``number`` is open already."""
    if number is None or not policy.is_entrant(actor):
        return None
    rec = next((r for r in sheet.records if r.number == number), None)
    if rec is not None and any(d.record_id == rec.pk and d.via_link_id == actor.link_id for d in sheet.open_record_disputes):
        return Refusal(_("Your disagreement with {this} is already with a referee.").format(this=sheet.kind.this_record))
    return None


def _all_acknowledged(sheet: ResultSheet) -> Refusal | None:
    """With verification per hand, no record is pending or disagreed with."""
    if not sheet.tournament.verifies_each_record:
        return None
    pending = sum(1 for r in sheet.records if not r.is_acknowledged)
    if pending:
        return Refusal(_("The other side has not yet acknowledged every {noun}: {count} pending.")
                       .format(noun=_record_noun(sheet), count=pending))
    return None


def _tournament_perm(tournament: Tournament, perm: Perm, actor, action: Action) -> Refusal | None:
    if policy.has_perm(actor, perm, tournament):
        return None
    if perm is Perm.REOPEN_CLOSED_ROUND and policy.has_perm(actor, Perm.REOPEN_RESULTS, tournament):
        message = _("This round is closed: only an organiser reopens its results (the round then goes back to in progress).")
    else:
        message = _NO_PERMISSION.get(action, _("You may not do this here."))
    return Refusal(message, PermissionDenied, Code.NO_PERMISSION)


# --------------------------------------------------------------------------- the state of the result


def _open(sheet: ResultSheet) -> Refusal | None:
    """A result whose records can change: not a bye, in a published or running round, not confirmed."""
    c = sheet.container
    if sheet.is_bye:
        return Refusal(_("A bye has no results to enter."))
    if sheet.round.status == Round.Status.DRAFT:
        return Refusal(_("This round is still a draft: publish it before entering results."))
    if sheet.round.status == Round.Status.CLOSED:
        return Refusal(_("This round is closed: its results cannot change."), Locked)
    if c.status == c.Status.CONFIRMED:
        return Refusal(_("This result is confirmed. Reopen it (with a reason) before changing it."), Locked)
    return None


def _takes_records(sheet: ResultSheet) -> Refusal | None:
    """An open result (:func:`_open`) that is not finished."""
    c = sheet.container
    if (refused := _open(sheet)) is not None:
        return refused
    if c.status == c.Status.FINISHED:
        if c.ended == c.Ended.TIME:
            if TimesUp.objects.filter(round_id=sheet.round.pk, applied_at__isnull=False).exists():
                return Refusal(_("Time is up for this round: the result was ended at the time limit and takes no more. "
                                 "A referee can resume play if this was finished in time."), Locked, Code.TIMES_UP)
            return Refusal(_("This result was ended at the time limit: resume play before adding more."), Locked)
        return Refusal(_("This result is finished: no more can be added."), Locked)
    return None


def _not_finished(sheet: ResultSheet) -> Refusal | None:
    c = sheet.container
    if c.status == c.Status.FINISHED:
        return Refusal(_("This result is already finished."), Locked)
    return None


def _ended_at_time(sheet: ResultSheet) -> Refusal | None:
    c = sheet.container
    if c.ended != c.Ended.TIME:
        return Refusal(_("Only a result ended at the time limit can be resumed."))
    return None


def _confirmable(sheet: ResultSheet) -> Refusal | None:
    """Finished, not yet confirmed, not a bye, in a published or running round."""
    c = sheet.container
    if c.status == c.Status.CONFIRMED:
        return Refusal(_("This result is already confirmed."))
    if sheet.is_bye:
        return Refusal(_("A bye needs no confirmation."))
    if not sheet.round.is_open:
        return Refusal(_("Only a result of a published or running round can be confirmed."))
    if c.status != c.Status.FINISHED:
        return Refusal(_("Only a finished result can be confirmed: play on, or end it at the time limit."))
    return None


def _reopenable(sheet: ResultSheet) -> Refusal | None:
    c = sheet.container
    if c.status != c.Status.CONFIRMED:
        return Refusal(_("Only a confirmed result can be reopened."))
    if sheet.tournament.status == Tournament.Status.FINISHED:
        return Refusal(_("The tournament is finished: resume it before reopening a result."))
    return None


# --------------------------------------------------------------------------- who the actor is


def _entering_side(sheet: ResultSheet, actor) -> Refusal | None:
    """One side enters, the others confirm: an entrant other than the entering side may not."""
    if not policy.is_entrant(actor):
        return None
    entering = sheet.entering_links
    if entering and entering[0] != actor.link_id:
        return Refusal(_("Another side enters the result of this table. Check it when it is finished: confirm it, "
                         "or report what is wrong."), code=Code.OTHER_SIDE_ENTERS)
    return None


def _may_confirm(sheet: ResultSheet, actor) -> Refusal | None:
    """Not the person or side who entered or changed it (a referee resolving a dispute excepted);
    while a side's dispute is open, no other side."""
    disputes = sheet.open_disputes
    if sheet.changed_by(actor) and not sheet.resolves_dispute(actor):
        if policy.is_entrant(actor):
            return Refusal(_("Your side entered or changed this result: the other side confirms it."))
        return Refusal(_("A different person must confirm the result than the one who entered it."))
    if policy.is_entrant(actor) and disputes and all(d.via_link_id != actor.link_id for d in disputes):
        return Refusal(_("Another side reported that these totals are wrong: a referee settles it."))
    return None


def _disputer(actor) -> Refusal | None:
    if not policy.is_entrant(actor):
        return Refusal(_("Referees and organisers correct the result instead of disputing it."), code=Code.NOT_A_SIDE)
    return None


def _sees_the_records(sheet: ResultSheet, actor) -> Refusal | None:
    """An entrant changes only records it may see: with blind confirmation a side that did not
    enter an unconfirmed result sees none of it (:func:`_totals_visible`), so it cannot edit or
    delete what a referee entered (it checks the result once it is finished instead)."""
    if policy.is_entrant(actor) and _totals_visible(sheet, actor) is not None:
        return Refusal(_("Your side did not enter this result: check it when it is finished (confirm it, or report "
                         "what is wrong)."), code=Code.RECORDS_HIDDEN)
    return None


def _not_changed_by(sheet: ResultSheet, actor) -> Refusal | None:
    if sheet.changed_by(actor):
        return Refusal(_("Your side entered or changed this result: correct it instead."))
    return None


def _acknowledger(sheet: ResultSheet, actor) -> Refusal | None:
    """The other side acknowledges: a side that entered or changed the result may not (referees
    and organisers may, on a side's behalf)."""
    if not policy.is_entrant(actor):
        return None
    entering = sheet.entering_links
    if (entering and entering[0] == actor.link_id) or sheet.changed_by(actor):
        return Refusal(_("Your side entered {this}: the other side acknowledges it.").format(this=sheet.kind.this_record),
                       code=Code.OWN_RECORD)
    return None


def _identified(actor) -> Refusal | None:
    if policy.identity(actor) is None:
        return Refusal(_("Log in to confirm a result."))
    return None


def _totals_visible(sheet: ResultSheet, actor) -> Refusal | None:
    c = sheet.container
    if not sheet.tournament.blind_confirmation or c.status == c.Status.CONFIRMED or sheet.is_bye:
        return None
    if policy.has_perm(actor, Perm.VIEW_AUDIT, sheet.tournament) or sheet.changed_by(actor):
        return None
    if sheet.tournament.verifies_each_record and policy.is_entrant(actor) and sheet.kind.is_side(actor, c):
        # Verification per hand: a side acknowledges each record, so it sees them (and the totals).
        return None
    return Refusal(_("The totals are shown once the result is confirmed."), code=Code.NO_PERMISSION)


# --------------------------------------------------------------------------- the rules


def refusal(sheet: ResultSheet, action: Action, actor, *, permission: bool = True,
            number: int | None = None) -> Refusal | None:
    """``None`` when ``actor`` may do ``action`` to the result of ``sheet`` now, else the first
    :class:`Refusal` in the order a write checks (module docstring). ``permission=False`` leaves
    out the permission (:func:`permission_refusal`) for a caller that asked it already.
    ``number``: the record asked about (``Action.ACKNOWLEDGE``, ``Action.DISAGREE``); without
    it the answer is about the result as a whole (may this actor acknowledge its records at all)."""
    for check in RULES[action]:
        if check is _perm and not permission:
            continue
        refused = check(sheet, action, actor, number)
        if refused is not None:
            return refused
    return None


def _perm(sheet, action, actor, number=None):
    return permission_refusal(sheet, action, actor)


def _state(test):
    return lambda sheet, action, actor, number=None: test(sheet)


def _who(test):
    return lambda sheet, action, actor, number=None: test(sheet, actor)


def _actor(test):
    return lambda sheet, action, actor, number=None: test(actor)


def _record(test):
    return lambda sheet, action, actor, number=None: test(sheet, number)


def _record_who(test):
    return lambda sheet, action, actor, number=None: test(sheet, number, actor)


#: The checks of each action, in order.
RULES = {
    Action.ENTER: (_perm, _who(_entering_side)),
    Action.ADD: (_perm, _who(_entering_side), _state(_takes_records)),
    Action.CHANGE: (_perm, _who(_entering_side), _who(_sees_the_records), _state(_open)),
    Action.END: (_perm, _who(_entering_side), _state(_open), _state(_not_finished)),
    Action.RESUME: (_perm, _who(_entering_side), _state(_open), _state(_ended_at_time)),
    Action.CONFIRM: (_actor(_identified), _perm, _state(_confirmable), _state(_all_acknowledged), _who(_may_confirm)),
    Action.DISPUTE: (_actor(_disputer), _perm, _state(_confirmable), _who(_not_changed_by)),
    Action.REOPEN: (_perm, _state(_reopenable)),
    Action.RESTORE: (_perm, _state(_open)),
    Action.SEE_TOTALS: (_who(_totals_visible),),
    Action.SEE_AUDIT: (_perm,),
    Action.ACKNOWLEDGE: (_actor(_identified), _perm, _state(_verifies_each), _state(_open), _who(_acknowledger),
                         _record(_pending)),
    Action.DISAGREE: (_actor(_disputer), _perm, _state(_verifies_each), _state(_open), _who(_acknowledger),
                      _record(_pending), _record_who(_not_disagreed)),
}
