"""The result sheet: one service for the results of one table, used alike by Tai Pan matches
(hands) and four-player tables (deals). Every rule is decided here once (``docs/results.md``).

Every write (:func:`add_record`, :func:`edit_record`, :func:`delete_record`, :func:`end_at_time`,
:func:`resume_play`, :func:`confirm`, :func:`reopen`, :func:`restore`):

1. checks the actor's permission (:mod:`scoring.policy`);
2. runs in one transaction and takes the row locks in one order, round then container
   (:func:`scoring.locking.lock`), so writers of one round never deadlock;
3. checks the version the actor's page was built from *inside* the container's lock
   (:class:`~scoring.errors.StaleVersion`), so nobody confirms, reopens, restores or edits a
   result they did not see;
4. checks the state (round open, result not confirmed, ...) and moves it only through the
   models' named transitions;
5. validates with the engine through the game's adapter (:class:`~scoring.games.base.GameAdapter`;
   violations raise :class:`~engines.errors.RuleViolation` and nothing is saved);
6. rebuilds the derived numbers from the records (:func:`recompute`);
7. writes one audit entry (:mod:`scoring.results.audit`) and increases the version.

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
  (:func:`check_may_enter`);
- **confirming** needs a side that entered and changed nothing of the result (Tai Pan: the
  opposing team; four-player: any other seated player), with the same version and blind rules
  as a referee's confirmation; while a side's disagreement is open, only that side (or a referee
  or organiser) confirms;
- a side that would confirm may instead **dispute** the totals (:func:`dispute`: its own totals
  and a note): a referee sees both versions and resolves it by correcting and confirming the
  result; a referee or organiser who changed a disputed result only after the dispute may confirm
  it themself;
- restoring from the audit trail and reopening stay with referees and organisers.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import Locked, NotAllowed, ServiceError, StaleVersion
from scoring.games.base import Evaluation, GameAdapter, RecordOutcome
from scoring.locking import lock
from scoring.models import AuditEntry, Confirmation, Dispute, ResultContainer, ResultRecord, Round, Tournament
from scoring.params import whole_number
from scoring.policy import Perm
from scoring.results import audit
from scoring.results.storage import Storage, storage_of

A = AuditEntry.Action


@dataclass(frozen=True)
class Preview:
    """What saving a record would give, nothing written: the record's ``outcome`` (engine output,
    scores per side, carried state after it), the totals per side ``before`` and ``after`` it, and
    the result's ``evaluation`` with it (finished, winner)."""

    outcome: RecordOutcome
    before: tuple[int, ...]
    after: tuple[int, ...]
    evaluation: Evaluation


# --------------------------------------------------------------------------- helpers


def _parts(container: ResultContainer) -> tuple[Storage, Tournament, GameAdapter]:
    storage = storage_of(container)
    tournament = container.round.tournament
    return storage, tournament, tournament.adapter


def _locked(container: ResultContainer, actor, perm: Perm | None, expected_version: int | None) -> tuple[ResultContainer, Round]:
    """Inside a transaction: lock the round, then the container (checking the version), then check
    ``perm``. Returns ``(locked container, locked round)``."""
    storage = storage_of(container)
    rnd = lock(Round.objects.select_related("tournament"), container.round_id)
    locked = lock(storage.queryset(), container.pk, expected_version=expected_version)
    locked.round = rnd
    if perm is not None:
        policy.require_for_result(actor, perm, locked)
    return locked, rnd


def _sync(target: ResultContainer, source: ResultContainer) -> None:
    """Refresh the caller's instance after a write (the locked copy is a different object)."""
    if target is not source:
        target.refresh_from_db()


def _ensure_open(container: ResultContainer, rnd: Round) -> None:
    if storage_of(container).is_bye(container):
        raise NotAllowed(_("A bye has no results to enter."))
    if rnd.status == Round.Status.DRAFT:
        raise NotAllowed(_("This round is still a draft: publish it before entering results."))
    if rnd.status == Round.Status.CLOSED:
        raise Locked(_("This round is closed: its results cannot change."))
    if container.status == container.Status.CONFIRMED:
        raise Locked(_("This result is confirmed. Reopen it (with a reason) before changing it."))


def _ensure_can_add(container: ResultContainer, rnd: Round) -> None:
    _ensure_open(container, rnd)
    if container.status == container.Status.FINISHED:
        if container.ended == container.Ended.TIME:
            raise Locked(_("This result was ended at the time limit: resume play before adding more."))
        raise Locked(_("This result is finished: no more can be added."))


def _reason(reason: str, field: str = "reason") -> str:
    text = (reason or "").strip()
    if not text:
        raise ServiceError(_("Give a reason."), field=field)
    return text


def check_may_enter(container: ResultContainer, actor) -> None:
    """Raise :class:`NotAllowed` when ``actor`` is an entrant and another side is the result's
    entering side (the first side that entered through its link): one side enters, the others
    confirm. Referees and organisers always may."""
    if not policy.is_entrant(actor):
        return
    entering = audit.entrants_who_entered(container)
    if entering and entering[0] != actor.link_id:
        raise NotAllowed(_("Another side enters the result of this table. Check it when it is finished: confirm it, "
                           "or report what is wrong."))


def may_enter(container: ResultContainer, actor) -> bool:
    """True when ``actor`` may enter or change records of ``container`` now: the permission on this
    result (:func:`scoring.policy.require_for_result`), the entering side's rule
    (:func:`check_may_enter`) and a state that takes records (:func:`can_add`) or changes to them."""
    if not policy.has_perm(actor, Perm.ENTER_RESULTS, container.round.tournament, result=container):
        return False
    try:
        check_may_enter(container, actor)
    except ServiceError:
        return False
    return True


def totals_hidden(container: ResultContainer, actor) -> bool:
    """Blind confirmation (DESIGN decision, docs/results.md): until a result is confirmed its totals
    and scores are shown only to the tournament's members and to the side that entered it, so the
    side that is to confirm re-types them from its own score sheet. Pages, PDFs for the public
    and the API all ask this."""
    tournament = container.round.tournament
    if not tournament.blind_confirmation or container.status == container.Status.CONFIRMED:
        return False
    if storage_of(container).is_bye(container) or policy.has_perm(actor, Perm.VIEW_AUDIT, tournament):
        return False
    return not audit.has_changed(container, actor)


def check_can_add(container: ResultContainer) -> None:
    """Raise the error :func:`add_record` would raise for the result's state (a bye, a draft or
    closed round, a finished or confirmed result), so a page can say why nothing can be added."""
    _ensure_can_add(container, container.round)


def can_add(container: ResultContainer) -> bool:
    """True when a record can be added in the result's current state."""
    try:
        check_can_add(container)
    except ServiceError:
        return False
    return True


def _evaluate(container: ResultContainer, records: list[dict[str, Any]], *, ended_at_time: bool | None = None) -> Evaluation:
    _, tournament, adapter = _parts(container)
    if ended_at_time is None:
        ended_at_time = container.ended == container.Ended.TIME
    return adapter.evaluate(records, tournament, ended_at_time=ended_at_time)


def _state_before(adapter: GameAdapter, tournament: Tournament, records: list[dict[str, Any]]) -> dict[str, Any]:
    """The carried state after ``records`` (the state before the next record)."""
    if not records:
        return adapter.initial_state()
    return adapter.evaluate(records, tournament).state


def _bump(container: ResultContainer) -> None:
    container.version += 1


# --------------------------------------------------------------------------- recompute


def recompute(container: ResultContainer, *, save: bool = True) -> Evaluation | None:
    """Rebuild the result's derived numbers from its records (docs/architecture.md: derived data can always
    be rebuilt): each record as evaluated (carried state written in) and its scores, the totals,
    ranking points, winner, carried state, how it ended, and the state of an unconfirmed result
    (pending, playing or finished). ``save=False`` changes the instance only. Returns the
    evaluation (``None`` for a bye). Raises :class:`~engines.errors.RuleViolation` when the stored
    records break the rules."""
    storage, tournament, adapter = _parts(container)
    if storage.is_bye(container):
        storage.apply(container, Evaluation([], (0, 0), True, "", 0, (0, 0), {}), adapter, tournament)
        if container.status != container.Status.CONFIRMED:
            container.follow_records(has_records=False, finished=True)
        if save:
            container.save()
        return None
    records = storage.records(container) if container.pk else []
    evaluation = _evaluate(container, [r.record for r in records])
    changed = [rec for rec, outcome in zip(records, evaluation.outcomes, strict=True)
               if storage.set_scores(rec, outcome.record, outcome.scores)]
    storage.apply(container, evaluation, adapter, tournament)
    if container.status != container.Status.CONFIRMED:
        container.follow_records(has_records=bool(records), finished=evaluation.finished)
    if save:
        for rec in changed:
            rec.save()
        container.save()
    return evaluation


def rebuild(queryset) -> int:
    """Recompute every container of ``queryset`` (``manage.py rebuild_scores``), one transaction
    each. Returns the number recomputed."""
    count = 0
    for container in queryset:
        with transaction.atomic():
            recompute(container)
        count += 1
    return count


# --------------------------------------------------------------------------- preview


def preview(container: ResultContainer, record: dict[str, Any], *, replace_number: int | None = None) -> Preview:
    """What saving ``record`` (as the next record, or replacing record ``replace_number``) would
    give, without writing. Raises :class:`~engines.errors.RuleViolation` (the record's own fields
    first, then the whole result's) and :class:`~scoring.errors.ServiceError` for a state in which
    it could not be saved."""
    storage, tournament, adapter = _parts(container)
    rnd = container.round
    if replace_number is None:
        _ensure_can_add(container, rnd)
    else:
        _ensure_open(container, rnd)
    records = [r.record for r in storage.records(container)]
    position = len(records)
    if replace_number is not None:
        numbers = list(range(1, len(records) + 1))
        if replace_number not in numbers:
            raise ServiceError(_("There is no number {number} here.").format(number=replace_number))
        position = replace_number - 1
    state = _state_before(adapter, tournament, records[:position])
    outcome = adapter.evaluate_record(record, state, tournament)
    candidate = list(records)
    if replace_number is None:
        candidate.append(outcome.record)
    else:
        candidate[position] = outcome.record
    evaluation = _evaluate(container, candidate)
    running = evaluation.running()
    before = running[position - 1] if position else tuple(0 for _ in adapter.sides)
    return Preview(evaluation.outcomes[position], before, running[position], evaluation)


# --------------------------------------------------------------------------- records


def _renumber(records: list[ResultRecord]) -> None:
    """Give ``records`` the numbers 1..n in order (two passes: unique numbers at every step)."""
    model = type(records[0]) if records else None
    if model is None:
        return
    offset = 10_000
    for rec in records:
        rec.number += offset
    model.objects.bulk_update(records, ["number"])
    for i, rec in enumerate(records, start=1):
        rec.number = i
    model.objects.bulk_update(records, ["number"])


#: Longest idempotency key :func:`add_record` accepts (the record's ``submission`` column).
SUBMISSION_LENGTH = 64


def _submission(submission: str | None) -> str | None:
    text = (submission or "").strip()
    if not text:
        return None
    if len(text) > SUBMISSION_LENGTH or not text.isascii() or not text.isprintable():
        raise ServiceError(_("This form is damaged: reload the page and enter it again."))
    return text


def stored_submission(container: ResultContainer, submission: str | None) -> ResultRecord | None:
    """The record of ``container`` stored by the entry form ``submission`` (its idempotency key),
    or ``None``."""
    text = (submission or "").strip()
    if not text:
        return None
    storage = storage_of(container)
    return storage.record_model.objects.filter(**{storage.record_fk: container, "submission": text}).first()


def add_record(container: ResultContainer, record: dict[str, Any], actor, *, expected_version: int | None = None,
               submission: str | None = None) -> ResultRecord:
    """Append a record (engine-validated) and rebuild the result; the first record moves a
    published round to in progress. Refused: :class:`Locked` (finished, confirmed, closed round),
    :class:`NotAllowed` (bye, draft round), :class:`StaleVersion`, ``PermissionDenied``;
    rule violations raise :class:`RuleViolation` (the record's own fields) and nothing is saved.
    Audit: ``create``.

    ``submission``: the entry form's idempotency key (one token per rendered form, at most
    :data:`SUBMISSION_LENGTH` printable ASCII characters). It is checked inside the container's
    lock, before the version: a repeated submission (a retry after a dropped connection, a double
    tap) returns the record it already stored, marked ``replayed = True``, and writes nothing, so a
    retry never stores a record twice; a unique constraint per container backs this up. A record
    stored with the key that was deleted since is not brought back: the retry's version is stale
    then."""
    submission = _submission(submission)
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.ENTER_RESULTS, None)
        if submission is not None:
            earlier = stored_submission(locked, submission)
            if earlier is not None:
                earlier.replayed = True
                return earlier
        if expected_version is not None and int(expected_version) != locked.version:
            raise StaleVersion()
        storage, tournament, adapter = _parts(locked)
        check_may_enter(locked, actor)
        _ensure_can_add(locked, rnd)
        records = storage.records(locked)
        stored = [r.record for r in records]
        outcome = adapter.evaluate_record(record, _state_before(adapter, tournament, stored), tournament)
        _evaluate(locked, [*stored, outcome.record])  # the whole result still holds (e.g. nothing after the end)
        number = (records[-1].number if records else 0) + 1
        rec = storage.new_record(locked, number, outcome.record, outcome.scores, actor, submission=submission)
        recompute(locked)
        if rnd.status == Round.Status.PUBLISHED:
            rnd.start()
            rnd.save(update_fields=["status"])
        rec.refresh_from_db()
        _bump(locked)
        locked.save(update_fields=["version", "updated_at"])
        audit.write_for(locked, actor, A.CREATE, storage.record_type, rec.pk, new=storage.record_snapshot(rec))
    _sync(container, locked)
    rec.replayed = False
    return rec


def _record(storage: Storage, container: ResultContainer, number: int) -> ResultRecord:
    rec = storage.record_model.objects.filter(**{storage.record_fk: container, "number": number}).first()
    if rec is None:
        raise ServiceError(_("There is no number {number} here.").format(number=number))
    return rec


def edit_record(container: ResultContainer, number: int, record: dict[str, Any], actor, *,
                expected_version: int | None = None, reason: str = "") -> ResultRecord:
    """Replace the record ``number`` (engine-validated); later records are re-evaluated with the
    new carried state and the result is rebuilt (a later record that no longer holds, or one
    that would now come after the end, refuses the whole edit). Allowed on a finished result;
    refused on a confirmed one (:class:`Locked`). Audit: ``update`` with the old and new value."""
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.ENTER_RESULTS, expected_version)
        storage, tournament, adapter = _parts(locked)
        check_may_enter(locked, actor)
        _ensure_open(locked, rnd)
        rec = _record(storage, locked, number)
        old = storage.record_snapshot(rec)
        stored = [r.record for r in storage.records(locked)]
        outcome = adapter.evaluate_record(record, _state_before(adapter, tournament, stored[: number - 1]), tournament)
        stored[number - 1] = outcome.record
        _evaluate(locked, stored)
        storage.set_scores(rec, outcome.record, outcome.scores)
        rec.entered_by = actor if getattr(actor, "is_authenticated", False) else rec.entered_by
        rec.save()
        recompute(locked)
        rec.refresh_from_db()
        _bump(locked)
        locked.save(update_fields=["version", "updated_at"])
        audit.write_for(locked, actor, A.UPDATE, storage.record_type, rec.pk, old=old, new=storage.record_snapshot(rec), reason=reason)
    _sync(container, locked)
    return rec


def delete_record(container: ResultContainer, number: int, actor, *, expected_version: int | None = None, reason: str = "") -> None:
    """Delete record ``number``; later records move up one number (numbers stay 1..n) and are
    re-evaluated; the result is rebuilt. Refused on a confirmed result. Audit: ``delete`` with the
    old value (restorable with :func:`restore`)."""
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.ENTER_RESULTS, expected_version)
        storage, _tournament, _adapter = _parts(locked)
        check_may_enter(locked, actor)
        _ensure_open(locked, rnd)
        rec = _record(storage, locked, number)
        old = storage.record_snapshot(rec)
        rec_id = rec.pk
        rec.delete()
        rest = storage.records(locked)
        _evaluate(locked, [r.record for r in rest])
        _renumber(rest)
        recompute(locked)
        _bump(locked)
        locked.save(update_fields=["version", "updated_at"])
        audit.write_for(locked, actor, A.DELETE, storage.record_type, rec_id, old=old, reason=reason)
    _sync(container, locked)


# --------------------------------------------------------------------------- time limit


def end_at_time(container: ResultContainer, actor, *, expected_version: int | None = None, reason: str = "") -> ResultContainer:
    """End an unfinished result at the time limit (docs/tournaments.md): Tai Pan's higher total wins and
    equal totals are a draw (``fixed_hands``: more victory points); a four-player table keeps its
    totals. A reason is required. Refused for a bye, a finished or confirmed result. Undo with
    :func:`resume_play`. Audit: ``end``."""
    reason = _reason(reason)
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.ENTER_RESULTS, expected_version)
        check_may_enter(locked, actor)
        _ensure_open(locked, rnd)
        _end(locked, actor, A.END, reason)
    _sync(container, locked)
    return container


def _end(locked: ResultContainer, actor, action: str, reason: str) -> None:
    storage = storage_of(locked)
    if locked.status == locked.Status.FINISHED:
        raise Locked(_("This result is already finished."))
    old = storage.snapshot(locked)
    locked.ended = locked.Ended.TIME
    recompute(locked)
    _bump(locked)
    locked.save(update_fields=["version", "updated_at"])
    audit.write_for(locked, actor, action, storage.container_type, locked.pk, old=old, new=storage.snapshot(locked), reason=reason)


def resume_play(container: ResultContainer, actor, *, expected_version: int | None = None, reason: str = "") -> ResultContainer:
    """Undo :func:`end_at_time` ("resume play") while the result is not confirmed: it is rebuilt
    from its records without the time limit. Audit: ``resume``."""
    reason = _reason(reason)
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.ENTER_RESULTS, expected_version)
        storage = storage_of(locked)
        check_may_enter(locked, actor)
        _ensure_open(locked, rnd)
        if locked.ended != locked.Ended.TIME:
            raise NotAllowed(_("Only a result ended at the time limit can be resumed."))
        old = storage.snapshot(locked)
        locked.ended = ""
        recompute(locked)
        _bump(locked)
        locked.save(update_fields=["version", "updated_at"])
        audit.write_for(locked, actor, A.RESUME, storage.container_type, locked.pk, old=old, new=storage.snapshot(locked), reason=reason)
    _sync(container, locked)
    return container


# --------------------------------------------------------------------------- confirm and reopen


def _whole_number(value: Any) -> int:
    """``value`` as a total (:func:`parse_totals`); ``ValueError`` otherwise."""
    if isinstance(value, int) and not isinstance(value, bool) and abs(value) < 10**7:
        return value
    number = whole_number(value.strip(), signed=True, max_digits=7) if isinstance(value, str) else None
    if number is None:
        raise ValueError(value)
    return number


def parse_totals(totals: Any, sides: int) -> list[int]:
    """Totals re-typed from the score sheet: a list of ``sides`` whole numbers, or ``{"NS", "EW"}``
    for Tai Pan; each an ``int`` or text of ASCII digits with an optional minus sign (at most
    seven digits: no other scripts' digits, fractions, exponents or spaces inside). Raises
    :class:`ServiceError` (field ``totals``)."""
    try:
        if isinstance(totals, dict):
            values = [totals["NS"], totals["EW"]]
        elif isinstance(totals, str | bytes):
            raise TypeError
        else:
            values = list(totals)
        if len(values) != sides:
            raise ValueError
        return [_whole_number(v) for v in values]
    except (KeyError, TypeError, ValueError):
        raise ServiceError(_("Type every final total as a whole number."), field="totals") from None


def _open_disputes(container: ResultContainer) -> list[Dispute]:
    link = storage_of(container).audit_link(container)
    return list(Dispute.objects.filter(confirmation=None, **link).order_by("pk"))


def _resolves(container: ResultContainer, actor, disputes: list[Dispute]) -> bool:
    """True when ``actor``, a referee or organiser, may confirm a result they changed because they
    resolve a dispute: every change of theirs came after the first open dispute (they corrected
    it; the original entry was someone else's)."""
    if not disputes or policy.is_entrant(actor) or not getattr(actor, "is_authenticated", False):
        return False
    storage = storage_of(container)
    first = (AuditEntry.objects.filter(action=A.DISPUTE, object_type="dispute", object_id=disputes[0].pk,
                                       **storage.audit_link(container)).values_list("pk", flat=True).first())
    if first is None:
        return False
    earlier = AuditEntry.objects.filter(user_id=actor.pk, action__in=audit.ENTERING_ACTIONS, pk__lt=first,
                                        **storage.audit_link(container))
    return not earlier.exists()


def check_may_confirm(container: ResultContainer, actor) -> None:
    """Raise :class:`NotAllowed` when ``actor`` may not confirm ``container`` because of who they
    are: the person (or side) who entered or changed it (a referee or organiser resolving a
    dispute excepted, :func:`_resolves`), or, while a side's disagreement is open, an entrant
    other than that side. The permission and the result's state are checked by :func:`confirm`."""
    disputes = _open_disputes(container)
    if audit.has_changed(container, actor) and not _resolves(container, actor, disputes):
        if policy.is_entrant(actor):
            raise NotAllowed(_("Your side entered or changed this result: the other side confirms it."))
        raise NotAllowed(_("A different person must confirm the result than the one who entered it."))
    if policy.is_entrant(actor) and disputes and all(d.via_link_id != actor.link_id for d in disputes):
        raise NotAllowed(_("Another side reported that these totals are wrong: a referee settles it."))


def confirm_refusal(container: ResultContainer, actor) -> str:
    """Why ``actor`` may not confirm ``container`` now, in words (``""`` when they may): the
    permission, the result's state (:func:`_check_confirmable`, as :func:`confirm` checks it) and
    who they are (:func:`check_may_confirm`). Pages show it instead of a confirm button that would
    only be refused; :func:`confirm` decides again inside the lock."""
    rnd = container.round
    if not policy.has_perm(actor, Perm.CONFIRM_RESULTS, rnd.tournament, result=container):
        return str(_("You may not confirm this result."))
    try:
        _check_confirmable(container, storage_of(container), rnd)
        check_may_confirm(container, actor)
    except ServiceError as err:
        return str(err.message)
    return ""


def may_confirm(container: ResultContainer, actor) -> bool:
    """True when ``actor`` may confirm ``container`` now (permission, state and who they are:
    :func:`confirm_refusal`), for pages that offer the action."""
    return not confirm_refusal(container, actor)


def _check_confirmable(locked, storage, rnd) -> None:
    """Raise :class:`NotAllowed` unless the locked result can be confirmed or disputed now: finished,
    not yet confirmed, not a bye, in a published or running round."""
    if locked.status == locked.Status.CONFIRMED:
        raise NotAllowed(_("This result is already confirmed."))
    if storage.is_bye(locked):
        raise NotAllowed(_("A bye needs no confirmation."))
    if not rnd.is_open:
        raise NotAllowed(_("Only a result of a published or running round can be confirmed."))
    if locked.status != locked.Status.FINISHED:
        raise NotAllowed(_("Only a finished result can be confirmed: play on, or end it at the time limit."))


def confirm(container: ResultContainer, actor, *, expected_version: int | None = None, totals: Any = None) -> Confirmation:
    """Confirm a finished result as a second person (or as the other side, through its private
    link).

    - ``expected_version``: the version of the page the confirmer saw; a change since (an edit, a
      deleted record) refuses the confirmation (:class:`StaleVersion`), so a confirmation always
      confirms the totals its confirmer saw.
    - The result must be finished, not confirmed, in an open round (:class:`NotAllowed`).
    - The confirmer must differ from everyone who entered, changed or ended it
      (:func:`check_may_confirm`: a side never confirms what it entered; a referee resolving a
      dispute may confirm their own correction) (:class:`NotAllowed`).
    - ``totals``: the final totals re-typed (one per side); required with blind confirmation and
      then equal to the stored totals, otherwise :class:`NotAllowed` on field ``totals``.
    - At most one active confirmation (a database constraint as well); it resolves every open
      dispute of the result.
    Audit: ``confirm``. Returns the :class:`~scoring.models.Confirmation`."""
    if policy.identity(actor) is None:
        raise NotAllowed(_("Log in to confirm a result."))
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.CONFIRM_RESULTS, expected_version)
        storage, tournament, adapter = _parts(locked)
        _check_confirmable(locked, storage, rnd)
        check_may_confirm(locked, actor)
        stored = storage.totals(locked)
        if totals is None and tournament.blind_confirmation:
            raise ServiceError(_("Type the final totals from the score sheet."), field="totals")
        if totals is not None:
            typed = parse_totals(totals, len(adapter.sides))
            if typed != stored:
                raise NotAllowed(
                    _("The totals you typed ({typed}) do not match the entered results. Check the score sheet.").format(
                        typed=" / ".join(str(x) for x in typed)),
                    field="totals")
        old = storage.snapshot(locked)
        try:
            with transaction.atomic():
                confirmation = Confirmation.objects.create(confirmed_by=policy.user_of(actor), **policy.via(actor),
                                                           totals=storage.confirmation_totals(locked),
                                                           **storage.audit_link(locked))
        except IntegrityError:
            raise NotAllowed(_("This result is already confirmed.")) from None
        Dispute.objects.filter(confirmation=None, **storage.audit_link(locked)).update(confirmation=confirmation)
        locked.confirm()
        _bump(locked)
        locked.save(update_fields=["status", "version", "updated_at"])
        audit.write_for(locked, actor, A.CONFIRM, storage.container_type, locked.pk, old=old, new=storage.snapshot(locked))
    _sync(container, locked)
    return confirmation


#: Longest note of a dispute.
NOTE_LENGTH = 1000


def _require_disputer(actor) -> None:
    if not policy.is_entrant(actor):
        raise NotAllowed(_("Referees and organisers correct the result instead of disputing it."))


def _check_disputable(locked, actor, storage, rnd) -> None:
    """Raise :class:`NotAllowed` unless ``actor`` may dispute the locked result now: the states
    :func:`confirm` refuses (:func:`_check_confirmable`), then a side that entered or changed it.
    Comes before anything about the totals, so a result that cannot be disputed is refused for
    that reason whatever totals were sent."""
    _check_confirmable(locked, storage, rnd)
    if audit.has_changed(locked, actor):
        raise NotAllowed(_("Your side entered or changed this result: correct it instead."))


def check_disputable(container: ResultContainer, actor, *, expected_version: int | None = None) -> None:
    """The checks :func:`dispute` makes before it looks at the totals, in the same order and
    writing nothing: for a caller that could not read the totals it was sent (the page's form),
    so it refuses for the result's state first, as :func:`dispute` does. Raises what
    :func:`dispute` raises for them (:class:`NotAllowed`, :class:`StaleVersion`, ...)."""
    _require_disputer(actor)
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.CONFIRM_RESULTS, expected_version)
        _check_disputable(locked, actor, storage_of(locked), rnd)


def dispute(container: ResultContainer, actor, *, expected_version: int | None = None, totals: Any = None,
            note: str = "") -> Dispute:
    """"These totals are wrong": the side that would confirm a finished result (an entrant through
    its link who entered and changed nothing of it) reports its own totals (one per side, in side
    order; required) and an optional note instead of confirming. Nothing of the result changes but
    its version (the pages show the dispute); a referee resolves it by correcting and confirming
    the result (:func:`confirm`), or the reporting side confirms after all. ``expected_version``:
    the version the side saw. Refused for referees and organisers (they correct the result
    instead), for the entering side, and in the states :func:`confirm` refuses. Audit:
    ``dispute`` with both versions."""
    _require_disputer(actor)
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.CONFIRM_RESULTS, expected_version)
        storage, _tournament, adapter = _parts(locked)
        _check_disputable(locked, actor, storage, rnd)
        if totals is None:
            raise ServiceError(_("Type the final totals as your side has them."), field="totals")
        typed = parse_totals(totals, len(adapter.sides))
        text = (note or "").strip()[:NOTE_LENGTH]
        stored = storage.totals(locked)
        if typed == stored and not text:
            raise ServiceError(_("These are the entered totals. Confirm the result, or say in the note what is wrong."),
                               field="totals")
        old = storage.snapshot(locked)
        record = Dispute.objects.create(totals=typed, entered_totals=stored, note=text, version=locked.version,
                                        **policy.via(actor), **storage.audit_link(locked))
        _bump(locked)
        locked.save(update_fields=["version", "updated_at"])
        audit.write_for(locked, actor, A.DISPUTE, "dispute", record.pk, old=old,
                        new={"status": locked.status, "totals": typed, "entered": stored}, reason=text)
    _sync(container, locked)
    return record


def open_disputes(container: ResultContainer) -> list[Dispute]:
    """The result's disputes no confirmation has resolved yet, oldest first."""
    return _open_disputes(container)


def reopen(container: ResultContainer, actor, reason: str, *, expected_version: int | None = None) -> ResultContainer:
    """Reopen a confirmed result so it can be corrected. ``reason`` required (field ``reason``).
    The confirmation is kept, marked inactive with who, when and why. A referee may reopen a
    result of an open round; in a closed round only an organiser, and the round goes back to in
    progress (it is closed again once the result is confirmed again). Audit: ``reopen``."""
    reason = _reason(reason)
    with transaction.atomic():
        locked, rnd = _locked(container, actor, None, expected_version)
        policy.require(actor, policy.reopen_perm(rnd), rnd.tournament)
        storage = storage_of(locked)
        if locked.status != locked.Status.CONFIRMED:
            raise NotAllowed(_("Only a confirmed result can be reopened."))
        if rnd.tournament.status == Tournament.Status.FINISHED:
            raise NotAllowed(_("The tournament is finished: resume it before reopening a result."))
        old = storage.snapshot(locked)
        Confirmation.objects.filter(active=True, **storage.audit_link(locked)).update(
            active=False, reopened_by=actor if getattr(actor, "is_authenticated", False) else None,
            reopened_at=timezone.now(), reopen_reason=reason)
        locked.reopen()
        recompute(locked)
        _bump(locked)
        locked.save(update_fields=["status", "version", "updated_at"])
        if rnd.status == Round.Status.CLOSED:
            rnd.reopen()
            rnd.save(update_fields=["status"])
        audit.write_for(locked, actor, A.REOPEN, storage.container_type, locked.pk, old=old, new=storage.snapshot(locked), reason=reason)
    _sync(container, locked)
    return container


# --------------------------------------------------------------------------- restore


RESTORABLE = frozenset({A.CREATE, A.UPDATE, A.DELETE, A.RESTORE, A.END})


def restore(container: ResultContainer, entry: AuditEntry, actor, *, expected_version: int | None = None, reason: str = "") -> None:
    """Restore the version an audit entry shows.

    - A record entry (``create``/``update``/``restore``): record number N gets that entry's new
      value back (created again if it no longer exists).
    - A record ``delete`` entry: the deleted record is put back at its number (later ones move down).
    - An ``end`` entry (or a restore of one): the result is ended at the time limit again.
    A reason is required. Refused on a confirmed result (:class:`Locked`), for confirm/reopen
    entries and for a restore that would change nothing (:class:`NotAllowed`). Rule violations
    raise :class:`RuleViolation` and nothing changes. Audit: ``restore``."""
    reason = _reason(reason)
    with transaction.atomic():
        locked, rnd = _locked(container, actor, Perm.ENTER_RESULTS, expected_version)
        # Restoring works from the audit trail, which only members see (never through a link).
        policy.require(actor, Perm.VIEW_AUDIT, rnd.tournament)
        storage, tournament, adapter = _parts(locked)
        if getattr(entry, f"{storage.container_type}_id") != locked.pk:
            raise NotAllowed(_("This entry is about another result."))
        if entry.action not in RESTORABLE:
            raise NotAllowed(_("Confirmations and reopenings cannot be restored; confirm or reopen the result instead."))
        _ensure_open(locked, rnd)
        if entry.object_type == storage.container_type:
            _end(locked, actor, A.RESTORE, reason)
            _sync(container, locked)
            return
        version = entry.old if entry.action == A.DELETE else entry.new
        if not version or "record" not in version:
            raise NotAllowed(_("This entry has no version to restore."))
        records = storage.records(locked)
        number = int(version["number"])
        target = next((r for r in records if r.number == number), None)
        if entry.action != A.DELETE and target is not None and target.record == version["record"]:
            raise NotAllowed(_("Number {number} already is this version: restoring it would change nothing.").format(number=number))
        stored = [r.record for r in records]
        if entry.action == A.DELETE or target is None:
            number = min(number, len(records) + 1)
            stored.insert(number - 1, version["record"])
        else:
            stored[number - 1] = version["record"]
        outcome = adapter.evaluate_record(version["record"], _state_before(adapter, tournament, stored[: number - 1]), tournament)
        stored[number - 1] = outcome.record
        _evaluate(locked, stored)
        if entry.action == A.DELETE or target is None:
            later = [r for r in records if r.number >= number]
            for r in later:
                r.number += 10_000
            storage.record_model.objects.bulk_update(later, ["number"])
            for r in later:
                r.number -= 10_000 - 1
            storage.record_model.objects.bulk_update(later, ["number"])
            restored = storage.new_record(locked, number, outcome.record, outcome.scores, actor)
            old = None
        else:
            old = storage.record_snapshot(target)
            storage.set_scores(target, outcome.record, outcome.scores)
            target.entered_by = actor if getattr(actor, "is_authenticated", False) else target.entered_by
            target.save()
            restored = target
        recompute(locked)
        restored.refresh_from_db()
        _bump(locked)
        locked.save(update_fields=["version", "updated_at"])
        audit.write_for(locked, actor, A.RESTORE, storage.record_type, restored.pk, old=old,
                        new=storage.record_snapshot(restored), reason=reason)
    _sync(container, locked)


def next_number(container: ResultContainer) -> int:
    """The number the next record gets."""
    storage = storage_of(container)
    current = storage.record_model.objects.filter(**{storage.record_fk: container}).aggregate(n=Max("number"))["n"]
    return (current or 0) + 1
