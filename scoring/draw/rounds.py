"""Round lifecycle, the same for rounds of matches and rounds of tables (docs/tournaments.md):
draft -> published -> in progress -> closed (the transitions of :class:`~scoring.models.Round`).

- draft: the pairing or seating is visible to organisers only and can be changed;
- published: pairings and score sheets are public; results can be entered (the first record
  moves the round to in progress by itself, :mod:`scoring.results.sheet`);
- in progress: results are being entered;
- closed: every result is confirmed (byes need no confirmation); the next round may be drawn.

Each function locks the tournament (publishing: its status may change) and the round, checks the
state inside the lock and refuses with :class:`~scoring.errors.NotAllowed` and a clear message.
Only organisers may do these (``actor``; :mod:`scoring.policy`).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.draw import pairing, seating
from scoring.draw.lifecycle import close_locked, containers
from scoring.draw.pairing import BLOCKING_CODES, draft_problems
from scoring.draw.signals import round_published, round_started, send_on_commit
from scoring.errors import NotAllowed
from scoring.games.base import EntrantKind
from scoring.locking import lock
from scoring.models import Round, Tournament
from scoring.policy import Perm
from scoring.standings import final_places


class PublishRefused(NotAllowed):
    """A draft round cannot be published as it is. ``problems``: the translated warnings that
    stop it; ``needs_confirmation``: ``True`` when only rematches and second byes stop it (the
    organiser may publish anyway with ``accept_warnings=True``)."""

    def __init__(self, message, *, problems: list[str], needs_confirmation: bool):
        self.problems = list(problems)
        self.needs_confirmation = needs_confirmation
        super().__init__(message)


def _locked(rnd: Round, actor, *, with_tournament: bool = False) -> Round:
    if with_tournament:
        lock(Tournament, rnd.tournament_id)
    locked = lock(Round.objects.select_related("tournament"), rnd.pk)
    policy.require(actor, Perm.MANAGE, locked.tournament)
    return locked


def _sync(target: Round, source: Round) -> None:
    if target is not source:
        target.refresh_from_db()


def publish_round(rnd: Round, actor, *, accept_warnings: bool = False) -> Round:
    """Publish a draft round: its pairing or seating and score sheets become public and results can
    be entered; a tournament in registration starts running. The round needs at least one table.

    Rounds of matches are checked first (:func:`scoring.draw.pairing.draft_problems`, the same
    check as the draft warnings): a double booking, a withdrawn or not-yet-entered team, a present
    team left out or an unknown team raise :class:`PublishRefused`; rematches and second byes
    (forbidden) raise :class:`PublishRefused` with ``needs_confirmation`` unless
    ``accept_warnings``. An earlier round that is not closed (a result of a closed round was
    reopened after this round was drawn) raises :class:`PublishRefused` with
    ``needs_confirmation`` unless ``accept_warnings`` (:func:`earlier_open_warnings`). Raises
    :class:`NotAllowed` when the round is not a draft. Once committed,
    :data:`scoring.draw.signals.round_published` is sent (the hall's automatic announcement)."""
    with transaction.atomic():
        locked = _locked(rnd, actor, with_tournament=True)
        if locked.status != Round.Status.DRAFT:
            raise NotAllowed(_("Only a draft round can be published; round {number} is {status}.").format(
                number=locked.number, status=locked.get_status_display()))
        if not containers(locked).exists():
            raise NotAllowed(_("Round {number} has no tables yet.").format(number=locked.number))
        PUBLISH_CHECKS[locked.tournament.adapter.entrants](locked, accept_warnings)
        _check_earlier_rounds(locked, accept_warnings)
        locked.publish()
        locked.save(update_fields=["status"])
        tournament = locked.tournament
        if tournament.status == Tournament.Status.SETUP:
            tournament.start()
            tournament.save(update_fields=["status"])
        send_on_commit(round_published, locked, actor)
    _sync(rnd, locked)
    return rnd


def _check_pairing(locked: Round, accept_warnings: bool) -> None:
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
              "tick \"Publish anyway\" to publish it all the same.").format(number=locked.number, problems=" ".join(warnings)),
            problems=warnings, needs_confirmation=True)


def _check_seating(locked: Round, accept_warnings: bool) -> None:
    """A seating has no problems that stop publishing (repeats are reported when seating)."""


def earlier_open_warnings(rnd: Round) -> list[str]:
    """One warning per round before ``rnd`` that is not closed: a closed round whose result was
    reopened (it is in progress again), or any other earlier round still open. A round drawn on
    top of a reopened result may rest on standings that will still change (issue 23 item 7)."""
    earlier = Round.objects.filter(tournament_id=rnd.tournament_id, number__lt=rnd.number).exclude(
        status=Round.Status.CLOSED).order_by("number").values_list("number", flat=True)
    return [str(_("Round {number} is not closed: a result was reopened or is not confirmed yet; "
                  "this round's pairing may rest on standings that will still change.").format(number=n))
            for n in earlier]


def _check_earlier_rounds(locked: Round, accept_warnings: bool) -> None:
    warnings = earlier_open_warnings(locked)
    if warnings and not accept_warnings:
        raise PublishRefused(
            _("Round {number} was not published: {problems} Tick \"Publish anyway\" to publish it all the same.").format(
                number=locked.number, problems=" ".join(warnings)),
            problems=warnings, needs_confirmation=True)


#: What is checked before publishing a draft round of each kind of entrant.
PUBLISH_CHECKS = {EntrantKind.TEAMS: _check_pairing, EntrantKind.PLAYERS: _check_seating}

#: The warnings a draft round of each kind of entrant shows.
DRAFT_WARNINGS = {EntrantKind.TEAMS: pairing.draft_warnings, EntrantKind.PLAYERS: seating.draft_warnings}


def draft_warnings(rnd: Round) -> list[str]:
    """The warnings of a draft round (rematches, double bookings, ...; or repeat meetings), then
    the earlier rounds that are not closed (:func:`earlier_open_warnings`)."""
    return DRAFT_WARNINGS[rnd.tournament.adapter.entrants](rnd) + earlier_open_warnings(rnd)


def start_round(rnd: Round, actor) -> Round:
    """Mark a published round as in progress (play has started). :class:`NotAllowed` unless the
    round is published. Once committed, :data:`scoring.draw.signals.round_started` is sent."""
    with transaction.atomic():
        locked = _locked(rnd, actor)
        if locked.status != Round.Status.PUBLISHED:
            raise NotAllowed(_("Only a published round can be started; round {number} is {status}.").format(
                number=locked.number, status=locked.get_status_display()))
        locked.start()
        locked.save(update_fields=["status"])
        send_on_commit(round_started, locked, actor)
    _sync(rnd, locked)
    return rnd


def close_round(rnd: Round, actor) -> Round:
    """Close a published or running round once every result (byes excepted) is confirmed. The
    round's lock is held while the results are read, and reopening a result takes the same lock
    first, so a closed round only ever holds confirmed results. :class:`NotAllowed` names the
    tables still to be confirmed."""
    with transaction.atomic():
        locked = _locked(rnd, actor)
        close_locked(locked)
    _sync(rnd, locked)
    return rnd


def finish_tournament(tournament: Tournament, actor) -> Tournament:
    """End a running tournament (every round closed) and record its final places for the
    seasons (:mod:`scoring.standings.final_places`). :class:`NotAllowed` otherwise."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        policy.require(actor, Perm.MANAGE, locked)
        if locked.status != Tournament.Status.RUNNING:
            raise NotAllowed(_("Only a running tournament can be finished."))
        if locked.rounds.exclude(status=Round.Status.CLOSED).exists():
            raise NotAllowed(_("Close every round before finishing the tournament."))
        locked.finish()
        locked.save(update_fields=["status"])
        final_places.record_final_places(locked)
    tournament.refresh_from_db()
    return tournament


def resume_tournament(tournament: Tournament, actor) -> Tournament:
    """Put a finished tournament back to running (to correct a result or play on); its final
    places are dropped (provisional again in the seasons)."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        policy.require(actor, Perm.MANAGE, locked)
        if locked.status != Tournament.Status.FINISHED:
            raise NotAllowed(_("Only a finished tournament can be resumed."))
        locked.resume()
        locked.save(update_fields=["status"])
        final_places.clear_final_places(locked)
    tournament.refresh_from_db()
    return tournament


def _pair(tournament: Tournament, actor, draft: Round | None, method: str | None, seed: int | None) -> Round:
    if draft is not None:
        return pairing.repair_draft(draft, actor, method=method, seed=seed)
    return pairing.pair_next_round(tournament, actor, seed=seed, method=method)


def _seat(tournament: Tournament, actor, draft: Round | None, method: str | None, seed: int | None) -> Round:
    if draft is not None and draft.status != Round.Status.DRAFT:
        # seat_round seats the draft there is, else the next round: refuse before it.
        raise NotAllowed(_("Only a draft round can be drawn again; round {number} is {status}.").format(
            number=draft.number, status=draft.get_status_display()))
    return seating.seat_round(tournament, actor, seed=seed, method=method).round


#: How a round of each kind of entrant is drawn: teams are paired (Swiss), players seated.
DRAW = {EntrantKind.TEAMS: _pair, EntrantKind.PLAYERS: _seat}


def draw_round(tournament: Tournament, actor, *, draft: Round | None = None, method: str | None = None,
               seed: int | None = None) -> Round:
    """Draw the next round as a draft, or the draft ``draft`` again: teams are paired
    (:func:`scoring.draw.pairing.pair_next_round` / :func:`~scoring.draw.pairing.repair_draft`,
    round 1 by ``method``), players seated four to a table (:func:`scoring.draw.seating.seat_round`;
    round 1's pot draw in the order of ``method``). Returns the draft round. Raises what those raise
    (:class:`NotAllowed`, :class:`~scoring.errors.PairingImpossible`), and :class:`NotAllowed`
    when ``draft`` is not a draft."""
    return DRAW[tournament.adapter.entrants](tournament, actor, draft, method, seed)

