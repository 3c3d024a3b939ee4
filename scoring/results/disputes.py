"""Confirming, disputing and reopening a result (the rules: :mod:`scoring.results.refusals`; the
overview: :mod:`scoring.results.sheet`; player entry with opponent verification:
``docs/private-links.md``)."""
from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed, ServiceError
from scoring.kinds import kind_of
from scoring.models import AuditEntry, Confirmation, Dispute, ResultContainer, Round
from scoring.params import whole_number
from scoring.results.refusals import Action
from scoring.results.result import ResultSheet, reason_text, sync

A = AuditEntry.Action
#: Longest note of a dispute.
NOTE_LENGTH = 1000


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
    :class:`~scoring.errors.ServiceError` (field ``totals``)."""
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


def open_disputes(container: ResultContainer) -> list[Dispute]:
    """The result's disputes no confirmation has resolved yet, oldest first."""
    return ResultSheet.load(container).open_disputes


def confirm(container: ResultContainer, actor, *, expected_version: int | None = None, totals: Any = None) -> Confirmation:
    """Confirm a finished result as a second person (or as the other side, through its private
    link).

    - ``expected_version``: the version of the page the confirmer saw; a change since (an edit, a
      deleted record) refuses the confirmation (:class:`~scoring.errors.StaleVersion`), so a
      confirmation always confirms the totals its confirmer saw.
    - ``Action.CONFIRM`` (:class:`~scoring.errors.NotAllowed`, ``PermissionDenied``): someone
      identified, with the permission, on a finished, unconfirmed result of an open round, who
      did not enter or change it (a referee resolving a dispute may confirm their own correction).
    - ``totals``: the final totals re-typed (one per side); required with blind confirmation and
      then equal to the stored totals, otherwise :class:`~scoring.errors.NotAllowed` on field ``totals``.
    - At most one active confirmation (a database constraint as well); it resolves every open
      dispute of the result.
    Audit: ``confirm``. Returns the :class:`~scoring.models.Confirmation`."""
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        sheet.require(Action.CONFIRM, actor)
        c, kind = sheet.container, sheet.kind
        stored = kind.totals(c)
        if totals is None and sheet.tournament.blind_confirmation:
            raise ServiceError(_("Type the final totals from the score sheet."), field="totals")
        if totals is not None:
            typed = parse_totals(totals, len(sheet.adapter.sides))
            if typed != stored:
                raise NotAllowed(
                    _("The totals you typed ({typed}) do not match the entered results. Check the score sheet.").format(
                        typed=" / ".join(str(x) for x in typed)),
                    field="totals")
        old = sheet.snapshot()
        link = kind.audit_link(c)
        try:
            with transaction.atomic():
                confirmation = Confirmation.objects.create(confirmed_by=policy.user_of(actor), **policy.via(actor),
                                                           totals=kind.confirmation_totals(c), **link)
        except IntegrityError:
            raise NotAllowed(_("This result is already confirmed.")) from None
        Dispute.objects.filter(confirmation=None, **link).update(confirmation=confirmation)
        c.confirm()
        sheet.saved(actor, A.CONFIRM, kind.key, c.pk, old=old, new=sheet.snapshot(), fields=("status",))
    sync(container, sheet)
    return confirmation


def check_disputable(container: ResultContainer, actor, *, expected_version: int | None = None) -> None:
    """The checks :func:`dispute` makes before it looks at the totals, in the same order and
    writing nothing: for a caller that could not read the totals it was sent (the page's form),
    so it refuses for the result's state first, as :func:`dispute` does. Raises what
    :func:`dispute` raises for them (:class:`~scoring.errors.NotAllowed`,
    :class:`~scoring.errors.StaleVersion`, ...)."""
    with transaction.atomic():
        ResultSheet.lock(container, expected_version=expected_version).require(Action.DISPUTE, actor)


def dispute(container: ResultContainer, actor, *, expected_version: int | None = None, totals: Any = None,
            note: str = "") -> Dispute:
    """"These totals are wrong": the side that would confirm a finished result (an entrant through
    its link who entered and changed nothing of it) reports its own totals (one per side, in side
    order; required) and an optional note instead of confirming. Nothing of the result changes but
    its version (the pages show the dispute); a referee resolves it by correcting and confirming
    the result (:func:`confirm`), or the reporting side confirms after all. ``expected_version``:
    the version the side saw. Refused (``Action.DISPUTE``) for referees and organisers (they
    correct the result instead), for the entering side, and in the states :func:`confirm`
    refuses. Audit: ``dispute`` with both versions."""
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        sheet.require(Action.DISPUTE, actor)
        c, kind = sheet.container, sheet.kind
        if totals is None:
            raise ServiceError(_("Type the final totals as your side has them."), field="totals")
        typed = parse_totals(totals, len(sheet.adapter.sides))
        text = (note or "").strip()[:NOTE_LENGTH]
        stored = kind.totals(c)
        if typed == stored and not text:
            raise ServiceError(_("These are the entered totals. Confirm the result, or say in the note what is wrong."),
                               field="totals")
        old = sheet.snapshot()
        record = Dispute.objects.create(totals=typed, entered_totals=stored, note=text, version=c.version,
                                        **policy.via(actor), **kind.audit_link(c))
        sheet.saved(actor, A.DISPUTE, "dispute", record.pk, old=old,
                    new={"status": c.status, "totals": typed, "entered": stored}, reason=text)
    sync(container, sheet)
    return record


def reopen(container: ResultContainer, actor, reason: str, *, expected_version: int | None = None) -> ResultContainer:
    """Reopen a confirmed result so it can be corrected. ``reason`` required (field ``reason``).
    The confirmation is kept, marked inactive with who, when and why. A referee may reopen a
    result of an open round; in a closed round only an organiser, and the round goes back to in
    progress (it is closed again once the result is confirmed again). Refused
    (``Action.REOPEN``) for an unconfirmed result and in a finished tournament. Audit: ``reopen``."""
    reason = reason_text(reason)
    with transaction.atomic():
        sheet = ResultSheet.lock(container, expected_version=expected_version)
        sheet.require(Action.REOPEN, actor)
        c, kind, rnd = sheet.container, sheet.kind, sheet.round
        old = sheet.snapshot()
        Confirmation.objects.filter(active=True, **kind.audit_link(c)).update(
            active=False, reopened_by=policy.user_of(actor), reopened_at=timezone.now(), reopen_reason=reason)
        c.reopen()
        sheet.recompute()
        if rnd.status == Round.Status.CLOSED:
            rnd.reopen()
            rnd.save(update_fields=["status"])
        sheet.saved(actor, A.REOPEN, kind.key, c.pk, old=old, new=sheet.snapshot(), reason=reason, fields=("status",))
    sync(container, sheet)
    return container


def confirmation_history(container: ResultContainer) -> list[Confirmation]:
    """Every confirmation of the result, newest first, with who confirmed and who reopened it."""
    return list(Confirmation.objects.filter(**kind_of(container).audit_link(container))
                .select_related("confirmed_by", "reopened_by").order_by("-confirmed_at", "-id"))
