"""The result sheet: one service for the results of one table, used alike by Tai Pan matches
(hands) and four-player tables (deals); the one module the rest of the app (pages, the API,
commands, imports, PDFs) asks about a result (``docs/results.md``).

Its parts, one concern each: :mod:`~scoring.results.result` (the :class:`ResultSheet` object: a
result loaded or locked once, evaluated once per write, and its one question
:meth:`ResultSheet.refusal`), :mod:`~scoring.results.refusals` (every rule of who may do what
when), :mod:`~scoring.results.lifecycle` (records, the time limit, preview),
:mod:`~scoring.results.disputes` (confirming, disputing, reopening),
:mod:`~scoring.results.restore` (the audit trail) and :mod:`~scoring.results.retry` (a repeated
submission). How a result is shown (record rows, running totals, outcome) is
:mod:`scoring.results.presenter`'s.

Every write (:func:`add_record`, :func:`edit_record`, :func:`delete_record`, :func:`end_at_time`,
:func:`resume_play`, :func:`confirm`, :func:`reopen`, :func:`restore`):

1. runs in one transaction and takes the row locks in one order, round then container
   (:func:`scoring.locking.lock`), so writers of one round never deadlock;
2. checks the version the actor's page was built from *inside* the container's lock
   (:class:`~scoring.errors.StaleVersion`), so nobody confirms, reopens, restores or edits a
   result they did not see;
3. asks :meth:`ResultSheet.require` for its action (:class:`Action`): the actor's permission
   (:mod:`scoring.policy`), the state (round open, result not confirmed, ...) and who the actor
   is towards the result; states move only through the models' named transitions;
4. validates with the engine through the game's adapter (:class:`~scoring.games.base.GameAdapter`;
   violations raise :class:`~engines.errors.RuleViolation` and nothing is saved);
5. evaluates the whole result once with the change and writes the derived numbers from it
   (:meth:`ResultSheet.apply`; :func:`recompute` rebuilds them from the stored records);
6. writes one audit entry (:mod:`scoring.results.audit`) and increases the version.

Rules (the same for matches and tables):

- Records are entered while the round is published or in progress; the first one moves a
  published round to in progress. A finished result takes no more records (resume play first),
  but its records can be edited or deleted (the result is rebuilt: it may become unfinished, or
  another side may win); a confirmed result changes only after :func:`reopen`.
- A result finishes by the game's end rule, by its fixed number of records, or when a referee
  ends it at the time limit (:func:`end_at_time`, a reason required; :func:`resume_play` undoes
  it until the result is confirmed).
- Confirming needs a finished result in an open round, a person who did not enter or change it,
  and (with blind confirmation) the totals typed from the score sheet.
- Reopening needs a reason; a referee may reopen a result of an open round, an organiser also one
  of a closed round, which then goes back to in progress.
- A bye has no records and needs no confirmation.

Player entry with opponent verification (issue 15, ``docs/private-links.md``): with the
tournament's player entry on, the sides of a table act through their private links
(:class:`scoring.policy.EntrantActor`) on their own result only (:func:`scoring.policy.require_for_result`):

- the **entering side** is the first side that entered a record through its link; from then on
  only that side (and referees and organisers) enters, edits, deletes, ends and resumes
  (``Action.ENTER``);
- **confirming** needs a side that entered and changed nothing of the result (Tai Pan: the
  opposing team; four-player: any other seated player), with the same version and blind rules
  as a referee's confirmation; while a side's disagreement is open, only that side (or a referee
  or organiser) confirms;
- a side that would confirm may instead **dispute** the totals (:func:`dispute`: its own totals
  and a note): a referee sees both versions and resolves it by correcting and confirming the
  result; a referee or organiser who changed a disputed result only after the dispute may confirm
  it themself;
- restoring from the audit trail and reopening stay with referees and organisers.

Verification per hand (issue 22, :mod:`~scoring.results.acknowledge`; the tournament's
``verification`` setting with player entry on): the other side acknowledges each record
(:func:`acknowledge`, one tap) or disagrees with it (:func:`disagree`); an edit or restore makes
the record pending again; the result is confirmed only once every record is acknowledged.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.db import transaction

from scoring.models import ResultContainer
from scoring.results.acknowledge import acknowledge, disagree
from scoring.results.disputes import (
    NOTE_LENGTH,
    check_disputable,
    confirm,
    confirmation_history,
    dispute,
    open_disputes,
    parse_totals,
    reopen,
)
from scoring.results.lifecycle import Preview, add_record, delete_record, edit_record, end_at_time, preview, resume_play
from scoring.results.refusals import Action, Code, Refusal
from scoring.results.restore import RESTORABLE, entry_refusal, restore
from scoring.results.result import ResultSheet
from scoring.results.retry import SUBMISSION_LENGTH, stored_submission

__all__ = [
    "forbid_early",
    "NOTE_LENGTH", "RESTORABLE", "SUBMISSION_LENGTH", "Action", "Code", "Preview", "Refusal", "ResultSheet",
    "acknowledge", "add_record", "check_disputable", "confirm", "confirmation_history", "delete_record", "disagree", "dispute", "edit_record", "end_at_time", "entry_refusal", "load",
    "next_number", "open_disputes", "parse_totals", "preview", "rebuild", "recompute", "refusal", "reopen", "restore",
    "resume_play", "stored_submission", "totals_hidden",
]


def load(container: ResultContainer) -> ResultSheet:
    """The :class:`ResultSheet` of ``container`` as read (no lock), for a page, an API answer or a
    PDF that asks several questions of one result (each fact is read once)."""
    return ResultSheet.load(container)


def refusal(container: ResultContainer, action: Action, actor, *, number: int | None = None) -> Refusal | None:
    """``None`` when ``actor`` may do ``action`` to ``container`` now, else why not (a
    :class:`Refusal`: its message, the error a write raises, a code): the one question pages, the
    API and the PDFs ask (:mod:`scoring.results.refusals`). ``number``: the record asked about
    (acknowledging, disagreeing). A write decides again inside the lock."""
    return ResultSheet.load(container).refusal(action, actor, number=number)


def forbid_early(container: ResultContainer, action: Action, actor, *, number: int | None = None) -> None:
    """Raise ``PermissionDenied`` (403) at once when ``actor`` is refused ``action`` for not being
    a side (:attr:`Code.NOT_A_SIDE`: referees and organisers correct a result or record instead of
    disputing or disagreeing), so a page or the API answers 403 before reading the input. The
    write itself refuses it with ``NotAllowed`` like any other refusal; other refusals wait for it."""
    refused = refusal(container, action, actor, number=number)
    if refused is not None and refused.code == Code.NOT_A_SIDE:
        raise PermissionDenied(str(refused))


def totals_hidden(container: ResultContainer, actor) -> bool:
    """Blind confirmation (DESIGN decision, docs/results.md): until a result is confirmed its totals
    and scores are shown only to the tournament's members and to the side that entered it, so the
    side that is to confirm re-types them from its own score sheet (``Action.SEE_TOTALS``). Pages,
    PDFs for the public and the API all ask this."""
    return ResultSheet.load(container).refusal(Action.SEE_TOTALS, actor) is not None


def recompute(container: ResultContainer, *, save: bool = True):
    """Rebuild the result's derived numbers from its records (docs/architecture.md: derived data
    can always be rebuilt): each record as evaluated (carried state written in) and its scores, the
    totals, ranking points, winner, carried state, how it ended, and the state of an unconfirmed
    result (pending, playing or finished). ``save=False`` changes the instance only. Returns the
    evaluation (``None`` for a bye). Raises :class:`~engines.errors.RuleViolation` when the stored
    records break the rules."""
    return ResultSheet.load(container).recompute(save=save)


def rebuild(queryset) -> int:
    """Recompute every container of ``queryset`` (``manage.py rebuild_scores``), one transaction
    each. Returns the number recomputed."""
    count = 0
    for container in queryset:
        with transaction.atomic():
            recompute(container)
        count += 1
    return count


def next_number(container: ResultContainer) -> int:
    """The number the next record gets."""
    return ResultSheet.load(container).next_number()
