"""Seating a round of a four-player tournament (Sichuan, Taiwanese, Tien Gow): the ORM layer over
:mod:`scoring.draw.seating_core` (the pure seating search). Players are seated four to a table by
total score, avoiding repeat opponents (docs/tournaments.md); the round is created as a draft."""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q, Sum
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.draw.lifecycle import next_round_number, require_earlier_closed, require_entrants
from scoring.draw.seating_core import Entrant, SeatingResult, count_meetings, seat_players, substitutes_needed
from scoring.errors import NotAllowed
from scoring.games.base import EntrantKind
from scoring.locking import lock
from scoring.models import AuditEntry, Deal, Player, Round, Table, TableSeat, Tournament
from scoring.participants import checkins
from scoring.policy import Perm
from scoring.results import audit


def is_active(player: Player, round_number: int) -> bool:
    """True if ``player`` may be seated in round ``round_number`` (joined by then, not withdrawn
    before it)."""
    if player.joined_round > round_number:
        return False
    return player.withdrawn_after_round is None or round_number <= player.withdrawn_after_round


def active_players(tournament: Tournament, round_number: int) -> list[Player]:
    """Players who may be seated in round ``round_number``: joined, not withdrawn for it, and
    checked in when the tournament requires check-in (:func:`scoring.participants.checkins.absences`)."""
    qs = tournament.players.filter(joined_round__lte=round_number).filter(
        Q(withdrawn_after_round__isnull=True) | Q(withdrawn_after_round__gte=round_number)
    ).exclude(pk__in=list(checkins.absences(tournament, round_number)))
    return list(qs.order_by("name", "pk"))


def _draft_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(status=Round.Status.DRAFT).order_by("-number").first()


def seating_status(tournament: Tournament) -> dict[str, Any]:
    """What the organiser sees before seating: ``{"round_number", "present", "substitutes_needed",
    "reseat"}`` (``reseat``: the round is an existing draft that will be seated again)."""
    draft = _draft_round(tournament)
    number = draft.number if draft else next_round_number(tournament)
    present = len(active_players(tournament, number))
    return {
        "round_number": number,
        "present": present,
        "substitutes_needed": substitutes_needed(present),
        "reseat": draft is not None,
    }


def player_totals(tournament: Tournament, *, before_round: int | None = None) -> dict[int, int]:
    """Total points per player id over the tables of ``tournament`` (rounds before
    ``before_round`` when given). One query."""
    qs = TableSeat.objects.filter(table__round__tournament=tournament)
    if before_round is not None:
        qs = qs.filter(table__round__number__lt=before_round)
    return {pid: total or 0 for pid, total in qs.values("player_id").annotate(t=Sum("total")).values_list("player_id", "t")}


def meetings(tournament: Tournament, *, before_round: int | None = None) -> dict[frozenset, int]:
    """Meeting counter (pair of player ids -> times at the same table) over earlier rounds."""
    qs = TableSeat.objects.filter(table__round__tournament=tournament)
    if before_round is not None:
        qs = qs.filter(table__round__number__lt=before_round)
    tables: dict[int, list[int]] = {}
    for table_id, player_id in qs.values_list("table_id", "player_id"):
        tables.setdefault(table_id, []).append(player_id)
    return count_meetings(tables.values())


@dataclass
class SeatingOutcome:
    """Result of :func:`seat_round`: the draft ``round``, the search ``result`` (player ids) and
    ``repeat_notes`` (human-readable lines, one per repeat that could not be avoided)."""

    round: Round
    result: SeatingResult
    repeat_notes: list[str] = field(default_factory=list)


def seat_round(tournament: Tournament, actor, *, seed: int | None = None) -> SeatingOutcome:
    """Seat the next round four to a table (issue 6 item 4; :func:`scoring.draw.seating_core.seat_players`).

    Creates a DRAFT round (or re-seats the existing draft round, if none of its tables has deals)
    with :class:`Table` rows numbered by strength and :class:`TableSeat` rows 0..3, using the
    players' total points from earlier rounds and their earlier meetings. ``seed``: default
    ``tournament.seed * 1000 + round number``. Each table's ``seating_note`` lists the repeats
    there. Raises :class:`NotAllowed` for a team game, when an earlier round is not closed, when
    the draft already has deals, or when the number of present players is not a multiple of four
    (the message says how many substitutes are needed).
    """
    require_entrants(tournament, EntrantKind.PLAYERS, _("Only four-player games are seated at tables of four."))
    with transaction.atomic():
        lock(Tournament, tournament.pk)
        policy.require(actor, Perm.MANAGE, tournament)
        draft = _draft_round(tournament)
        number = draft.number if draft else next_round_number(tournament)
        require_earlier_closed(tournament, number)
        if draft and Deal.objects.filter(table__round=draft).exists():
            raise NotAllowed(_("Round {number} already has results; it cannot be seated again.").format(number=number))
        players = active_players(tournament, number)
        missing = substitutes_needed(len(players))
        if missing:
            raise NotAllowed(
                _("{present} players are present: add {missing} substitute(s) (or withdraw {extra}) to fill tables of four.").format(
                    present=len(players), missing=missing, extra=len(players) % 4
                )
            )
        if not players:
            raise NotAllowed(_("There are no players to seat."))
        round_seed = seed if seed is not None else tournament.seed * 1000 + number
        totals = player_totals(tournament, before_round=number)
        met = meetings(tournament, before_round=number)
        entrants = [Entrant(id=p.pk, score=totals.get(p.pk, 0), order=p.seed if p.seed is not None else 10**9) for p in players]
        result = seat_players(entrants, met, seed=round_seed)
        if draft:
            draft.tables.all().delete()
            draft.seed = round_seed
            draft.save(update_fields=["seed"])
            rnd = draft
        else:
            rnd = Round.objects.create(tournament=tournament, number=number, seed=round_seed)
        names = {p.pk: p.name for p in players}
        notes_by_table: dict[int, list[str]] = {}
        repeat_notes = []
        for rep in result.repeats:
            a, b = (names[x] for x in rep.players)
            line = _g("{a} and {b} met {times}x before").format(a=a, b=b, times=rep.times)
            notes_by_table.setdefault(rep.table, []).append(line)
            repeat_notes.append(_g("Table {table}: {line}").format(table=rep.table, line=line))
        state = tournament.adapter.initial_state()
        for index, ids in enumerate(result.tables, start=1):
            note = "; ".join(notes_by_table.get(index, []))
            table = Table.objects.create(round=rnd, number=index, state=dict(state), seating_note=note[:200])
            TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, player_id=pid) for s, pid in enumerate(ids))
        audit.write(tournament.pk, actor, AuditEntry.Action.CREATE, "seating", rnd.pk,
                    new={"round": number, "seed": round_seed, "tables": result.tables, "repeats": result.repeat_count})
    return SeatingOutcome(round=rnd, result=result, repeat_notes=repeat_notes)


def draft_warnings(rnd: Round) -> list[str]:
    """Warnings of a draft round of tables: the repeat meetings the seating could not avoid, and
    seated players who are absent in the round now (unticked or withdrawn since the seating:
    seat the round again)."""
    out = [_g("Table {table}: {note}").format(table=t.number, note=t.seating_note)
           for t in rnd.tables.exclude(seating_note="").order_by("number")]
    absent = checkins.absences(rnd.tournament, rnd.number)
    seats = TableSeat.objects.filter(table__round=rnd, player_id__in=list(absent)).select_related("table", "player")
    out += [_g("Table {table}: {name} is not present in this round: seat the round again.").format(
        table=s.table.number, name=s.player.name) for s in seats.order_by("table__number", "seat")]
    return out
