"""Check-in before a round is drawn, and withdrawals and returns per round (issue 23 item 3;
docs/hall.md "Check-in").

Who is *present* in round ``n`` (paired in Tai Pan, seated in a four-player game):

1. registered for it: joined by round ``n`` (``joined_round <= n``), not withdrawn before it
   (``withdrawn_after_round`` empty or ``>= n``) and not out by a withdrawal that covers ``n``
   (:class:`~scoring.models.Withdrawal`: withdrawn after round ``w``, back from round ``r``: out
   in ``w + 1 .. r - 1``);
2. and, when the tournament has ``checkin_required`` on, checked in for round ``n``
   (:class:`~scoring.models.CheckIn` with ``present``). With it off everyone registered is
   present (the behaviour before check-in existed).

**Which round a check-in is for.** Check-in is open for the *next round to draw*
(:func:`open_round`: the last round's number + 1; a draft counts as drawn). Entrants check in
themselves only between rounds (:func:`entrant_checkin_open`: no round yet, or every round
closed); the organiser's list is open for the next round at any time. An entrant's tap on
its private link says which round it is for; once that round is drawn the tap is refused:
"Round N is already drawn: ask the organiser." (it never silently counts for another round). An
organiser may also tick or untick an entrant of the round that is still a *draft*: the draft then
shows the entrant as missing or not present (a blocking problem) until the organiser pairs or
seats it again. Every change locks the tournament row, as the draw does
(:func:`scoring.draw.pairing.pair_next_round`), so a check-in and a draw never interleave: an
entrant is drawn if and only if it was checked in when the draw read the list.

Nothing here deletes an entrant: a withdrawal keeps its results, and a return is a new period.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q, QuerySet
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed, ServiceError
from scoring.games.base import EntrantKind
from scoring.locking import lock
from scoring.models import CheckIn, Player, Round, Team, Tournament, Withdrawal
from scoring.participants.entrants import name_key
from scoring.policy import Perm

#: Where a kind of entrants is kept: the model and the foreign key of check-ins and withdrawals.
ENTRANT_MODELS: dict[EntrantKind, tuple[type, str]] = {EntrantKind.TEAMS: (Team, "team"), EntrantKind.PLAYERS: (Player, "player")}
#: Longest reason kept (the models' column).
REASON_LENGTH = 250


def _model(tournament: Tournament) -> tuple[type, str]:
    return ENTRANT_MODELS[tournament.adapter.entrants]


def entrants(tournament: Tournament) -> QuerySet:
    """The tournament's entrants: its teams (Tai Pan) or its players (four-player games)."""
    model, _fk = _model(tournament)
    return model.objects.filter(tournament=tournament)


def open_round(tournament: Tournament) -> int:
    """The round check-in is open for: the last round's number + 1 (a draft round counts as drawn)."""
    last = Round.objects.filter(tournament=tournament).order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def entrant_checkin_open(tournament: Tournament) -> bool:
    """True when entrants may check in on their private link: between rounds, i.e. no round yet
    or every round closed (no draft, published or in-progress round). Mid-round the link page
    shows no check-in card and :func:`set_checkin` refuses an entrant's tap: the page and the API
    ask this one function (docs/hall.md "Check-in")."""
    return not Round.objects.filter(tournament=tournament).exclude(status=Round.Status.CLOSED).exists()


def entrant_closed_text(tournament: Tournament) -> str:
    """Why an entrant cannot check in now (mid-round): "Check-in for round N opens when round
    N-1 is closed." (translated), N being :func:`open_round`."""
    number = open_round(tournament)
    return str(_("Check-in for round {number} opens when round {previous} is closed.").format(
        number=number, previous=number - 1))


def _registered(entrant, number: int, windows: list[Withdrawal]) -> bool:
    if entrant.joined_round > number:
        return False
    if entrant.withdrawn_after_round is not None and number > entrant.withdrawn_after_round:
        return False
    return not any(w.covers(number) for w in windows)


def _windows(tournament: Tournament) -> dict[int, list[Withdrawal]]:
    _m, fk = _model(tournament)
    out: dict[int, list[Withdrawal]] = {}
    for w in Withdrawal.objects.filter(tournament=tournament):
        out.setdefault(getattr(w, f"{fk}_id"), []).append(w)
    return out


def _checked_in(tournament: Tournament, number: int) -> dict[int, CheckIn]:
    _m, fk = _model(tournament)
    rows = CheckIn.objects.filter(tournament=tournament, round_number=number).select_related("changed_by")
    return {getattr(c, f"{fk}_id"): c for c in rows}


#: Why an entrant is absent in a round (:func:`absences`).
NOT_JOINED, WITHDRAWN, NOT_CHECKED_IN = "not_joined", "withdrawn", "not_checked_in"
ABSENCE_TEXTS = {
    NOT_JOINED: _("not joined yet"),
    WITHDRAWN: _("withdrawn"),
    NOT_CHECKED_IN: _("not checked in"),
}


def absences(tournament: Tournament, number: int) -> dict[int, str]:
    """The entrants (ids) absent in round ``number``, each with why: :data:`NOT_JOINED`,
    :data:`WITHDRAWN` (``withdrawn_after_round`` or a :class:`~scoring.models.Withdrawal`
    covering the round) or :data:`NOT_CHECKED_IN` (check-in required and not ticked). Three
    queries. The draw leaves these out (:mod:`scoring.draw.pairing`, :mod:`scoring.draw.seating`)."""
    windows = _windows(tournament)
    checked = _checked_in(tournament, number) if tournament.checkin_required else {}
    out: dict[int, str] = {}
    for e in entrants(tournament).only("pk", "joined_round", "withdrawn_after_round"):
        if e.joined_round > number:
            out[e.pk] = NOT_JOINED
        elif not _registered(e, number, windows.get(e.pk, [])):
            out[e.pk] = WITHDRAWN
        elif tournament.checkin_required and not (e.pk in checked and checked[e.pk].present):
            out[e.pk] = NOT_CHECKED_IN
    return out


@dataclass
class Row:
    """One line of the check-in list (:func:`checkin_list`): the ``entrant`` (a team or a
    player), whether it is ``registered`` for the round (joined, not withdrawn), ``checked_in``,
    who changed it last (``by``: a username or the entrant's name, ``at``) and why it is absent."""

    entrant: Team | Player
    registered: bool
    checked_in: bool
    by: str = ""
    at: datetime | None = None
    #: Why it will not be drawn (translated), or ``""``.
    absence: str = ""


@dataclass
class CheckInList:
    """The check-in list of round ``number``: ``rows`` (filtered by the search), and the counts
    over every registered entrant: ``checked_in`` of ``expected``."""

    number: int
    rows: list[Row]
    checked_in: int
    expected: int
    drawn: bool


def checkin_list(tournament: Tournament, number: int | None = None, *, query: str = "") -> CheckInList:
    """The check-in list of round ``number`` (default :func:`open_round`), every entrant by name,
    those matching ``query`` (a part of the name, the players' names or the affiliation, accents
    and case folded: :func:`scoring.participants.entrants.name_key`). Queries: a fixed number."""
    number = number or open_round(tournament)
    model, _fk = _model(tournament)
    qs = entrants(tournament).order_by("name", "pk")
    if model is Team:
        qs = qs.select_related("first_player", "second_player")
    windows = _windows(tournament)
    checked = _checked_in(tournament, number)
    needle = name_key(query)
    rows, count, expected = [], 0, 0
    for e in qs:
        registered = _registered(e, number, windows.get(e.pk, []))
        row_ci = checked.get(e.pk)
        present = bool(row_ci and row_ci.present)
        if registered:
            expected += 1
            count += present
        if needle:
            haystack = " ".join([e.name, e.affiliation, getattr(e, "player_names", "") if model is Team else ""])
            if needle not in name_key(haystack):
                continue
        by = ""
        if row_ci is not None:
            by = row_ci.via_entrant or (row_ci.changed_by.get_username() if row_ci.changed_by else "")
        absence = "" if registered and present else ABSENCE_TEXTS[
            NOT_CHECKED_IN if registered else (NOT_JOINED if e.joined_round > number else WITHDRAWN)]
        rows.append(Row(e, registered, present, by, row_ci.changed_at if row_ci else None, str(absence)))
    drawn = Round.objects.filter(tournament=tournament, number=number).exists()
    return CheckInList(number, rows, count, expected, drawn)


@dataclass
class Outcome:
    """What :func:`set_checkin` did: the ``round_number``, ``present`` now, and ``drawn``: the
    round was already a draft (an organiser's change shows as a problem of the draft until it is
    drawn again)."""

    round_number: int
    present: bool
    drawn: bool


def _entrant(tournament: Tournament, entrant_id: int):
    model, _fk = _model(tournament)
    try:
        return lock(model.objects.filter(tournament=tournament), entrant_id)
    except model.DoesNotExist:
        raise ServiceError(_("No such team or player in this tournament."), field="entrant") from None


def set_checkin(tournament: Tournament, actor, entrant_id: int, present: bool = True, *,
                round_number: int | None = None) -> Outcome:
    """Tick (``present=True``) or untick the entrant ``entrant_id`` (a team's or player's id) for
    ``round_number`` (default: :func:`open_round`), inside the tournament's lock.

    Who: an organiser (``Perm.MANAGE``) for any entrant; an entrant through its private link
    (:class:`~scoring.policy.EntrantActor`) for itself only (``PermissionDenied`` otherwise).
    Refusals (:class:`NotAllowed`): check-in is off; the round is already drawn (an entrant:
    "Round N is already drawn: ask the organiser."; an organiser may still change the check-in
    of a round that is a draft, no earlier one); an entrant's tap while a round is drafted,
    published or in progress (:func:`entrant_checkin_open`: "Check-in for round N opens when
    round N-1 is closed."); the entrant is withdrawn or has not joined yet in that round."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        entrant_side = policy.is_entrant(actor)
        if entrant_side:
            if actor.tournament_id != locked.pk:
                raise PermissionDenied
            _m, fk = _model(locked)
            if getattr(actor, f"{fk}_id") != int(entrant_id):
                raise PermissionDenied
        else:
            policy.require(actor, Perm.MANAGE, locked)
        if not locked.checkin_required:
            raise NotAllowed(_("This tournament has no check-in: everyone registered is paired (seated)."))
        first_open = open_round(locked)
        number = first_open if round_number is None else int(round_number)
        drawn = number < first_open
        if drawn:
            draft = Round.objects.filter(tournament=locked, number=number, status=Round.Status.DRAFT).exists()
            if entrant_side or not draft:
                raise NotAllowed(_("Round {number} is already drawn: ask the organiser.").format(number=number))
        elif number > first_open:
            raise NotAllowed(_("Check-in is open for round {number} only.").format(number=first_open))
        if entrant_side and not entrant_checkin_open(locked):
            raise NotAllowed(entrant_closed_text(locked))
        entrant = _entrant(locked, entrant_id)
        if not _registered(entrant, number, list(_windows_of(locked, entrant))):
            raise NotAllowed(_("{name} is withdrawn or has not joined yet in round {number}: let them return first.").format(
                name=entrant.name, number=number))
        _m, fk = _model(locked)
        CheckIn.objects.update_or_create(
            tournament=locked, round_number=number, **{fk: entrant},
            defaults={"present": bool(present), "changed_by": policy.user_of(actor), **policy.via(actor)},
        )
    return Outcome(number, bool(present), drawn)


def _windows_of(tournament: Tournament, entrant) -> QuerySet[Withdrawal]:
    _m, fk = _model(tournament)
    return Withdrawal.objects.filter(tournament=tournament, **{fk: entrant})


def is_registered(tournament: Tournament, entrant, number: int) -> bool:
    """True if ``entrant`` (a team or player) plays in round ``number`` unless it fails to check
    in: joined by then and not withdrawn for it (the rule of :func:`absences`, for one entrant;
    one query, for the entrant's own page)."""
    _m, fk = _model(tournament)
    return _registered(entrant, number, list(Withdrawal.objects.filter(tournament=tournament, **{fk: entrant})))


def is_checked_in(tournament: Tournament, entrant, number: int) -> bool:
    """True if ``entrant`` (a team or player) is checked in for round ``number``."""
    _m, fk = _model(tournament)
    return CheckIn.objects.filter(tournament=tournament, round_number=number, present=True, **{fk: entrant}).exists()


# --------------------------------------------------------------------------- withdrawals


def withdraw(tournament: Tournament, actor, entrant_id: int, *, after_round: int, reason: str = "") -> Withdrawal:
    """Withdraw the entrant ``entrant_id`` after round ``after_round`` (0: before round 1): it is
    not paired or seated after that round until it returns (:func:`reinstate`); its results are
    kept. Organisers only. Refused (:class:`NotAllowed`) when it is withdrawn already, or when
    ``after_round`` is before the round before it joined (``joined_round - 1``)."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        policy.require(actor, Perm.MANAGE, locked)
        entrant = _entrant(locked, entrant_id)
        after_round = int(after_round)
        if entrant.withdrawn_after_round is not None or _windows_of(locked, entrant).filter(returns_round=None).exists():
            raise NotAllowed(_("{name} is withdrawn already.").format(name=entrant.name))
        if after_round < max(0, entrant.joined_round - 1):
            raise NotAllowed(_("{name} joins in round {joined}: withdraw after round {first} at the earliest.").format(
                name=entrant.name, joined=entrant.joined_round, first=entrant.joined_round - 1), field="after_round")
        _m, fk = _model(locked)
        row = Withdrawal.objects.create(tournament=locked, after_round=after_round, reason=(reason or "").strip()[:REASON_LENGTH],
                                        withdrawn_by=policy.user_of(actor), **{fk: entrant})
        entrant.withdrawn_after_round = after_round
        entrant.save(update_fields=["withdrawn_after_round", "updated_at"])
    return row


def reinstate(tournament: Tournament, actor, entrant_id: int, *, from_round: int | None = None, reason: str = "") -> Withdrawal:
    """The withdrawn entrant ``entrant_id`` returns from round ``from_round`` (default: the next
    round to draw, :func:`open_round`, or right after the withdrawal when no round after it is
    drawn yet: the withdrawal is called off); it is absent in the rounds between its withdrawal
    and ``from_round``. Organisers only. Refused (:class:`NotAllowed`) when it is not withdrawn, or
    when ``from_round`` is not after the withdrawal or is a round already drawn."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        policy.require(actor, Perm.MANAGE, locked)
        entrant = _entrant(locked, entrant_id)
        first_open = open_round(locked)
        number = first_open if from_round is None else int(from_round)
        row = _windows_of(locked, entrant).filter(returns_round=None).order_by("-pk").first()
        if row is None and entrant.withdrawn_after_round is not None:
            # Withdrawn before withdrawals were recorded (or by the team form): its period starts now.
            _m, fk = _model(locked)
            row = Withdrawal.objects.create(tournament=locked, after_round=entrant.withdrawn_after_round, **{fk: entrant})
        if row is None:
            raise NotAllowed(_("{name} is not withdrawn.").format(name=entrant.name))
        if from_round is None and number <= row.after_round:
            # The withdrawal has not begun (no round after it is drawn yet): it is called off.
            number = row.after_round + 1
        if number <= row.after_round or number < first_open:
            raise NotAllowed(_("{name} can return from round {first} at the earliest.").format(
                name=entrant.name, first=max(row.after_round + 1, first_open)), field="from_round")
        row.returns_round = number
        row.return_reason = (reason or "").strip()[:REASON_LENGTH]
        row.returned_by = policy.user_of(actor)
        row.returned_at = timezone.now()
        row.save()
        entrant.withdrawn_after_round = None
        entrant.save(update_fields=["withdrawn_after_round", "updated_at"])
    return row


def history(tournament: Tournament, entrant) -> list[Withdrawal]:
    """The entrant's withdrawals and returns, oldest first."""
    return list(_windows_of(tournament, entrant).select_related("withdrawn_by", "returned_by").order_by("pk"))


def present_filter(tournament: Tournament, number: int) -> Q:
    """A ``Q`` on the entrants' model: those present in round ``number`` (see the module)."""
    return ~Q(pk__in=list(absences(tournament, number)))


def absent_names(tournament: Tournament, number: int, absent: dict[int, str] | None = None) -> list[tuple[str, str]]:
    """``[(name, why)]`` of the entrants absent in round ``number`` (:func:`absences`, or the
    ``absent`` the caller already has; ``why`` translated), by name, for the page where the
    organiser draws the round. Late entries that have not joined yet are left out."""
    if absent is None:
        absent = absences(tournament, number)
    absent = {pk: why for pk, why in absent.items() if why != NOT_JOINED}
    rows = entrants(tournament).filter(pk__in=list(absent)).order_by("name").values_list("pk", "name")
    return [(name, str(ABSENCE_TEXTS[absent[pk]])) for pk, name in rows]
