"""Round lifecycle (issue 4 item 2): draft -> published -> in progress -> closed.

- draft: pairings visible to organisers only; editable (:func:`scoring.draw.pairing.set_draft_pairing`).
- published: pairings and score sheets are public; referees may enter hands (the first hand moves
  the round to in progress by itself).
- in progress: results are being entered.
- closed: every match is confirmed (byes need no confirmation); the next round may be paired.

Each transition raises :class:`~scoring.errors.NotAllowed` with a clear message when the
round is not in the right state.
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring.errors import NotAllowed
from scoring.models import Match, Round, Tournament


def _locked(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


def _sync(target: Round, source: Round) -> None:
    if target is not source:
        target.status = source.status


def unconfirmed_matches(rnd: Round):
    """Queryset of the round's matches (byes excluded) that are not confirmed yet."""
    return rnd.matches.exclude(team_ew=None).exclude(status=Match.Status.CONFIRMED)


class PublishRefused(NotAllowed):
    """A draft round cannot be published as it is. ``problems``: the translated warnings that
    stop it; ``needs_confirmation``: ``True`` when only rematches and second byes stop it (the
    organiser may publish anyway with ``accept_warnings=True``)."""

    def __init__(self, message, *, problems: list[str], needs_confirmation: bool):
        self.problems = list(problems)
        self.needs_confirmation = needs_confirmation
        super().__init__(message)


def publish_round(rnd: Round, *, accept_warnings: bool = False) -> Round:
    """Publish a draft round: pairings and score sheets become public. The round must have at
    least one match. The tournament moves from registration to running.

    The draft's tables are checked first (:func:`scoring.draw.pairing.draft_problems`, the
    same check as the draft warnings): a double booking, a withdrawn or not-yet-entered team, a
    present team left out or an unknown team raise :class:`PublishRefused` (fix the pairing
    first); rematches and second byes (issue 4: forbidden) raise :class:`PublishRefused` with
    ``needs_confirmation`` unless ``accept_warnings`` is true. Raises :class:`NotAllowed` when the
    round is not a draft."""
    from scoring.draw.pairing import BLOCKING_CODES, draft_problems

    with transaction.atomic():
        locked = _locked(rnd)
        if locked.status != Round.Status.DRAFT:
            raise NotAllowed(_("Only a draft round can be published; round {number} is {status}.").format(
                number=locked.number, status=locked.get_status_display()))
        if not locked.matches.exists():
            raise NotAllowed(_("Round {number} has no tables yet.").format(number=locked.number))
        problems = draft_problems(locked)
        blocking = [text for code, text in problems if code in BLOCKING_CODES]
        if blocking:
            raise PublishRefused(
                _("Round {number} cannot be published; edit the pairing first: {problems}").format(
                    number=locked.number, problems=" ".join(blocking)),
                problems=blocking, needs_confirmation=False)
        warnings = [text for code, text in problems if code not in BLOCKING_CODES]
        if warnings and not accept_warnings:
            raise PublishRefused(
                _("Round {number} was not published: {problems} Rematches and second byes are against the rules; "
                  "tick \"Publish anyway\" to publish it all the same.").format(
                    number=locked.number, problems=" ".join(warnings)),
                problems=warnings, needs_confirmation=True)
        locked.status = Round.Status.PUBLISHED
        locked.save(update_fields=["status"])
        Tournament.objects.filter(pk=locked.tournament_id, status=Tournament.Status.SETUP).update(status=Tournament.Status.RUNNING)
    _sync(rnd, locked)
    return rnd


def start_round(rnd: Round) -> Round:
    """Mark a published round as in progress (play has started). Raises :class:`NotAllowed`
    unless the round is published."""
    with transaction.atomic():
        locked = _locked(rnd)
        if locked.status != Round.Status.PUBLISHED:
            raise NotAllowed(_("Only a published round can be started; round {number} is {status}.").format(
                number=locked.number, status=locked.get_status_display()))
        locked.status = Round.Status.IN_PROGRESS
        locked.save(update_fields=["status"])
    _sync(rnd, locked)
    return rnd


def close_round(rnd: Round) -> Round:
    """Close a published or in-progress round once every match (byes excepted) is confirmed.
    Raises :class:`NotAllowed` naming the tables still to be confirmed."""
    with transaction.atomic():
        locked = _locked(rnd)
        if locked.status not in (Round.Status.PUBLISHED, Round.Status.IN_PROGRESS):
            raise NotAllowed(_("Only a published or running round can be closed; round {number} is {status}.").format(
                number=locked.number, status=locked.get_status_display()))
        open_tables = list(unconfirmed_matches(locked).order_by("table").values_list("table", flat=True))
        if open_tables:
            raise NotAllowed(_("Round {number} cannot be closed: the result of table(s) {tables} is not confirmed yet.").format(
                number=locked.number, tables=", ".join(str(t) for t in open_tables)))
        locked.status = Round.Status.CLOSED
        locked.save(update_fields=["status"])
    _sync(rnd, locked)
    return rnd
