"""Seating a round of a four-player tournament (Sichuan, Taiwanese, Tien Gow): the ORM layer over
:mod:`scoring.draw.seating_core` (the pure seating search). Round 1 is a pot draw that spreads the
seeds (one player of each seeding quarter per table, the order by the tournament's round-1 method,
:mod:`scoring.draw.pairing_seeding`); later rounds seat groups of four down the standings' order
(:func:`scoring.standings.players.standings`), avoiding repeat meetings, then same-club tables
(``Tournament.avoid_same_club``). docs/tournaments.md "Seating four-player rounds". The round is
created as a draft; the repeats and same-club pairs left are noted on their tables."""
from __future__ import annotations

from dataclasses import astuple, dataclass, field
from typing import Any

from django.db import transaction
from django.db.models import Q
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.draw.lifecycle import next_round_number, require_earlier_closed, require_entrants
from scoring.draw.pairing_clubs import normalise
from scoring.draw.pairing_seeding import METHODS, seeding_order
from scoring.draw.seating_core import (
    Entrant,
    SeatingResult,
    count_meetings,
    seat_first_round,
    seat_players,
    substitutes_needed,
)
from scoring.errors import NotAllowed
from scoring.games.base import EntrantKind
from scoring.live import state as live_state
from scoring.locking import lock
from scoring.models import AuditEntry, Deal, Player, Round, Table, TableSeat, Tournament
from scoring.participants import checkins
from scoring.policy import Perm
from scoring.results import audit
from scoring.standings.players import standings


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


def first_round_method(tournament: Tournament, players: list[Player]) -> str:
    """The order of the round-1 pot draw (a :data:`scoring.draw.pairing_seeding.METHODS` key):
    ``Tournament.first_round_method``; when it is empty (automatic), ``seeded`` when every present
    player other than the substitutes has a seed number, else ``random``. Slide and fold give the
    same pots (four players per table: one of each quarter)."""
    if tournament.first_round_method:
        return tournament.first_round_method
    regular = [p for p in players if not p.is_substitute]
    return "seeded" if regular and all(p.seed is not None for p in regular) else "random"


def _entrants(tournament: Tournament, players: list[Player], number: int, seed: int,
              method: str | None) -> list[Entrant]:
    """The present ``players`` as :class:`Entrant`, in the order the seating ranks them: round 1
    by the seeding order of ``method`` (default :func:`first_round_method`; substitutes last),
    later rounds by the standings after round ``number - 1`` (their row order, whatever it
    ranks by). Clubs only when the tournament avoids same-club tables. An unknown ``method``:
    :class:`NotAllowed`."""
    def club(p: Player) -> str:
        return normalise(p.affiliation) if tournament.avoid_same_club else ""

    if number == 1:
        method = method or first_round_method(tournament, players)
        if method not in METHODS:
            raise NotAllowed(_("Unknown round 1 pairing method: {method}.").format(method=method), field="method")
        order = seeding_order(players, seed=seed, method=method)
        order.sort(key=lambda p: p.is_substitute)  # stable: substitutes go to the last pot
        return [Entrant(id=p.pk, order=i, club=club(p)) for i, p in enumerate(order)]
    position = {row.player_id: i for i, row in enumerate(standings(tournament, through_round=number - 1))}
    order = sorted(players, key=lambda p: (position.get(p.pk, len(position)), p.pk))
    return [Entrant(id=p.pk, order=i, club=club(p)) for i, p in enumerate(order)]


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
    """Result of :func:`seat_round`: the draft ``round``, the search ``result`` (player ids, cost,
    lower bound), ``repeat_notes`` (human-readable lines, one per repeat that could not be
    avoided) and ``club_notes`` (one per same-club pair left)."""

    round: Round
    result: SeatingResult
    repeat_notes: list[str] = field(default_factory=list)
    club_notes: list[str] = field(default_factory=list)


def seat_round(tournament: Tournament, actor, *, seed: int | None = None, method: str | None = None) -> SeatingOutcome:
    """Seat the next round four to a table (issue 6 item 4, issue 24 item 3; round 1:
    :func:`scoring.draw.seating_core.seat_first_round` in the order of ``method``, default the
    tournament's, :func:`first_round_method`; later rounds:
    :func:`scoring.draw.seating_core.seat_players` down the standings).

    Creates a DRAFT round (or re-seats the existing draft round, if none of its tables has deals)
    with :class:`Table` rows numbered by strength and :class:`TableSeat` rows 0..3. ``seed``:
    default ``tournament.seed * 1000 + round number``. Each table's ``seating_note`` lists the
    repeats and same-club pairs there. Raises :class:`NotAllowed` for a team game, when an earlier
    round is not closed, when the draft already has deals, for an unknown ``method``, or when the
    number of present players is not a multiple of four (the message says how many substitutes
    are needed).
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
        entrants = _entrants(tournament, players, number, round_seed, method)
        if number == 1:
            result = seat_first_round(entrants, seed=round_seed)
        else:
            result = seat_players(entrants, meetings(tournament, before_round=number), seed=round_seed)
        outcome = _save(tournament, draft, number, round_seed, result, players)
        audit.write(tournament.pk, actor, AuditEntry.Action.CREATE, "seating", outcome.round.pk,
                    new={"round": number, "seed": round_seed, "tables": result.tables, "repeats": result.repeat_count,
                         "club_pairs": result.club_pairs, "displacement": result.displacement,
                         "lower_bound": list(astuple(result.lower_bound)) if result.lower_bound else None})
    return outcome


def _save(tournament: Tournament, draft: Round | None, number: int, round_seed: int, result: SeatingResult,
          players: list[Player]) -> SeatingOutcome:
    """Write ``result`` as the tables of the draft round (``draft`` emptied, or a new round
    ``number``), each with its note of repeats and same-club pairs."""
    if draft:
        draft.tables.all().delete()
        draft.seed = round_seed
        draft.save(update_fields=["seed"])
        rnd = draft
    else:
        rnd = Round.objects.create(tournament=tournament, number=number, seed=round_seed)
    by_id = {p.pk: p for p in players}
    notes_by_table: dict[int, list[str]] = {}
    outcome = SeatingOutcome(round=rnd, result=result)
    for rep in result.repeats:
        a, b = (by_id[x].name for x in rep.players)
        line = _g("{a} and {b} met {times}x before").format(a=a, b=b, times=rep.times)
        notes_by_table.setdefault(rep.table, []).append(line)
        outcome.repeat_notes.append(_g("Table {table}: {line}").format(table=rep.table, line=line))
    for pair in result.clubs:
        a, b = (by_id[x] for x in pair.players)
        line = _g("{a} and {b} are both of {club}").format(a=a.name, b=b.name, club=a.affiliation.strip())
        notes_by_table.setdefault(pair.table, []).append(line)
        outcome.club_notes.append(_g("Table {table}: {line}").format(table=pair.table, line=line))
    state = tournament.adapter.initial_state()
    for index, ids in enumerate(result.tables, start=1):
        note = "; ".join(notes_by_table.get(index, []))
        table = Table.objects.create(round=rnd, number=index, state=dict(state), seating_note=note[:200])
        TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, player_id=pid) for s, pid in enumerate(ids))
    live_state.bump(tournament.pk, live_state.round_topic(rnd.number))  # bulk: no signal per seat
    return outcome


def draft_warnings(rnd: Round) -> list[str]:
    """Warnings of a draft round of tables: the repeat meetings and same-club pairs the seating
    could not avoid (the tables' notes), and seated players who are absent in the round now
    (unticked or withdrawn since the seating: seat the round again)."""
    out = [_g("Table {table}: {note}").format(table=t.number, note=t.seating_note)
           for t in rnd.tables.exclude(seating_note="").order_by("number")]
    absent = checkins.absences(rnd.tournament, rnd.number)
    seats = TableSeat.objects.filter(table__round=rnd, player_id__in=list(absent)).select_related("table", "player")
    out += [_g("Table {table}: {name} is not present in this round: seat the round again.").format(
        table=s.table.number, name=s.player.name) for s in seats.order_by("table__number", "seat")]
    return out
