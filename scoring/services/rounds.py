"""Round lifecycle (issue 4 item 2): draft -> published -> in progress -> closed.

- draft: pairings visible to organisers only; editable (:func:`scoring.services.pairing.set_draft_pairing`).
- published: pairings and score sheets are public; referees may enter hands (the first hand moves
  the round to in progress by itself).
- in progress: results are being entered.
- closed: every match is confirmed (byes need no confirmation); the next round may be paired.

Each transition raises :class:`~scoring.services.errors.NotAllowed` with a clear message when the
round is not in the right state.
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring.models import Match, Round, Tournament
from scoring.services.errors import NotAllowed


def _locked(rnd: Round) -> Round:
    return Round.objects.select_for_update().select_related("tournament").get(pk=rnd.pk)


def _sync(target: Round, source: Round) -> None:
    if target is not source:
        target.status = source.status


def unconfirmed_matches(rnd: Round):
    """Queryset of the round's matches (byes excluded) that are not confirmed yet."""
    return rnd.matches.exclude(team_ew=None).exclude(status=Match.Status.CONFIRMED)


def publish_round(rnd: Round) -> Round:
    """Publish a draft round: pairings and score sheets become public. The round must have at
    least one match. The tournament moves from registration to running. Raises
    :class:`NotAllowed` when the round is not a draft."""
    with transaction.atomic():
        locked = _locked(rnd)
        if locked.status != Round.Status.DRAFT:
            raise NotAllowed(_("Only a draft round can be published; round {number} is {status}.").format(
                number=locked.number, status=locked.get_status_display()))
        if not locked.matches.exists():
            raise NotAllowed(_("Round {number} has no tables yet.").format(number=locked.number))
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
