"""Four-player tournaments (Sichuan, Taiwanese, Tien Gow): seating rounds, deals, totals, standings.

ORM layer over :mod:`scoring.draw.seating_core` (pure seating search) and the engines
(``engines.run``; this module never computes fan, tai or payments itself). Rule sources: issue 6
item 4, issue 7 item 2, DESIGN.md 2.2-2.4 and 3.

Deal records (``Deal.record``, the source of truth; ``Deal.net`` and ``TableSeat.total`` are
derived and rebuilt by :func:`recompute_table`):

- Sichuan: exactly the engine's ``settle`` input ``{"players": ["E", "S", "W", "N"], "events":
  [...], "exhaustion": null|{...}}`` (seat labels as player names).
- Taiwanese: a win is the engine's ``score`` input (``"seat"`` is the winner's seat label); the
  carried ``"dealer"``, ``"streak"`` and ``"round_wind"`` are written in by :func:`recompute_table`
  from the deals before it. A draw (wall exhausted, nobody won) is ``{"draw": true}``.
- Tien Gow: ``{"mode": "settle", ...the engine's settle input}`` or ``{"mode": "deal", ...the
  engine's deal input}``; the carried ``"banker"`` is written in by :func:`recompute_table`.

Carried state (``Table.state``, after the last deal): Taiwanese ``{"dealer", "streak",
"round_wind"}``, Tien Gow ``{"banker"}``, Sichuan ``{}``.

All writes run in ``transaction.atomic()`` with ``select_for_update()`` on the table, check the
table's ``version`` (optimistic concurrency; :class:`StaleVersion`), write an :class:`AuditEntry`
and recompute the table. Engine rule violations propagate as ``engines.errors.RuleViolation`` and
nothing is saved. Roles are checked by the views.
"""
from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Count, IntegerField, Q, Sum, Value
from django.db.models.functions import Coalesce
from django.utils import timezone
from django.utils.translation import gettext as _g
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import RuleViolation, Violation
from scoring.draw.seating_core import Entrant, SeatingResult, count_meetings, seat_players, substitutes_needed
from scoring.errors import MatchLocked, NotAllowed, ServiceError, StaleVersion
from scoring.models import (
    FOUR_PLAYER_GAMES,
    AuditEntry,
    Confirmation,
    Deal,
    Game,
    Player,
    Round,
    RoundFormat,
    Table,
    TableSeat,
    Tournament,
)

#: Seat labels 0..3 (mahjong seat winds at the start of a table: East, South, West, North).
SEAT_LABELS: tuple[str, ...] = ("E", "S", "W", "N")

__all__ = [
    "SEAT_LABELS",
    "SeatingOutcome",
    "StandingRow",
    "active_players",
    "add_deal",
    "confirm_table",
    "reopen_table",
    "delete_deal",
    "evaluate_deal",
    "initial_state",
    "next_taiwanese_state",
    "preview_deal",
    "rebuild_tables",
    "parse_version",
    "recompute_table",
    "seat_round",
    "seating_status",
    "standings",
    "update_deal",
]


# --------------------------------------------------------------------------------------------
# Players and seating


def is_active(player: Player, round_number: int) -> bool:
    """True if ``player`` may be seated in round ``round_number`` (joined by then, not withdrawn
    before it)."""
    if player.joined_round > round_number:
        return False
    return player.withdrawn_after_round is None or round_number <= player.withdrawn_after_round


def active_players(tournament: Tournament, round_number: int) -> list[Player]:
    """Players who may be seated in round ``round_number`` (one query)."""
    qs = tournament.players.filter(joined_round__lte=round_number).filter(
        Q(withdrawn_after_round__isnull=True) | Q(withdrawn_after_round__gte=round_number)
    )
    return list(qs.order_by("name", "pk"))


def _next_round_number(tournament: Tournament) -> int:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def _draft_round(tournament: Tournament) -> Round | None:
    return tournament.rounds.filter(status=Round.Status.DRAFT).order_by("-number").first()


def seating_status(tournament: Tournament) -> dict[str, Any]:
    """What the organiser sees before seating: ``{"round_number", "present", "substitutes_needed",
    "reseat"}`` (``reseat``: the round is an existing draft that will be seated again)."""
    draft = _draft_round(tournament)
    number = draft.number if draft else _next_round_number(tournament)
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


def _check_previous_rounds(tournament: Tournament, number: int) -> None:
    open_rounds = tournament.rounds.filter(number__lt=number).exclude(status=Round.Status.CLOSED)
    for rnd in open_rounds:
        raise NotAllowed(
            _("Round {number} is not closed yet: close it before seating the next round.").format(number=rnd.number)
        )


def seat_round(tournament: Tournament, *, seed: int | None = None, user=None) -> SeatingOutcome:
    """Seat the next round four to a table (issue 6 item 4; :func:`scoring.draw.seating_core.seat_players`).

    Creates a DRAFT round (or re-seats the existing draft round, if none of its tables has deals)
    with :class:`Table` rows numbered by strength and :class:`TableSeat` rows 0..3, using the
    players' total points from earlier rounds and their earlier meetings. ``seed``: default
    ``tournament.seed * 1000 + round number``. Each table's ``seating_note`` lists the repeats
    there. Raises :class:`NotAllowed` for a team game, when an earlier round is not closed, when
    the draft already has deals, or when the number of present players is not a multiple of four
    (the message says how many substitutes are needed).
    """
    if tournament.game not in FOUR_PLAYER_GAMES:
        raise NotAllowed(_("Only four-player games are seated at tables of four."))
    with transaction.atomic():
        Tournament.objects.select_for_update().get(pk=tournament.pk)
        draft = _draft_round(tournament)
        number = draft.number if draft else _next_round_number(tournament)
        _check_previous_rounds(tournament, number)
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
        state = initial_state(tournament.game)
        for index, ids in enumerate(result.tables, start=1):
            note = "; ".join(notes_by_table.get(index, []))
            table = Table.objects.create(round=rnd, number=index, state=copy.deepcopy(state), seating_note=note[:200])
            TableSeat.objects.bulk_create(TableSeat(table=table, seat=s, player_id=pid) for s, pid in enumerate(ids))
        AuditEntry.objects.create(
            tournament=tournament,
            user=user if getattr(user, "is_authenticated", False) else None,
            action=AuditEntry.Action.CREATE,
            object_type="seating",
            object_id=rnd.pk,
            new={"round": number, "seed": round_seed, "tables": result.tables, "repeats": result.repeat_count},
        )
    return SeatingOutcome(round=rnd, result=result, repeat_notes=repeat_notes)


# --------------------------------------------------------------------------------------------
# Deals: engine calls and carried state


def initial_state(game: str) -> dict[str, Any]:
    """Carried state at the start of a table: Taiwanese dealer East (seat 0) in the East round,
    streak 0; Tien Gow banker seat 0; Sichuan nothing."""
    if game == Game.TAIWANESE:
        return {"dealer": "E", "streak": 0, "round_wind": "E"}
    if game == Game.TIENGOW:
        return {"banker": 0}
    return {}


def next_taiwanese_state(state: dict[str, Any], winner: str | None) -> dict[str, Any]:
    """Dealer and streak after a Taiwanese deal (DESIGN.md 2.3: "A draw keeps the dealer and
    increments N"; rules/taiwanese-16.txt: the dealer stays on a win and N counts the times the
    dealer stayed). ``winner``: seat label or ``None`` for a draw. When the dealer passes, the
    next seat (E -> S -> W -> N) deals with streak 0; when it passes from North back to East the
    round wind advances (E -> S -> W -> N)."""
    dealer, streak, wind = state["dealer"], state["streak"], state.get("round_wind", "E")
    if winner is None or winner == dealer:
        return {"dealer": dealer, "streak": streak + 1, "round_wind": wind}
    nxt = SEAT_LABELS[(SEAT_LABELS.index(dealer) + 1) % 4]
    if nxt == "E":
        wind = SEAT_LABELS[(SEAT_LABELS.index(wind) + 1) % 4]
    return {"dealer": nxt, "streak": 0, "round_wind": wind}


def _taiwanese_next(state: dict[str, Any], winner: str | None) -> dict[str, Any]:
    """Dealer and streak from ``engines.taiwanese.dealer.next_dealer_state`` when the engine has
    it (DESIGN.md 2.3), else :func:`next_taiwanese_state`; the round wind advances when the dealer
    passes from North back to East."""
    try:
        from engines.taiwanese.dealer import next_dealer_state
    except ImportError:
        return next_taiwanese_state(state, winner)
    wind = state.get("round_wind", "E")
    dealer, streak = next_dealer_state(state["dealer"], state["streak"], winner)
    if dealer == "E" and state["dealer"] == "N":
        wind = SEAT_LABELS[(SEAT_LABELS.index(wind) + 1) % 4]
    return {"dealer": dealer, "streak": streak, "round_wind": wind}


def _with_rules(data: dict[str, Any], rules: Any) -> dict[str, Any]:
    if rules not in (None, {}, ""):
        data = {**data, "rules": rules}
    return data


@dataclass
class DealResult:
    """What one deal gives: ``record`` (as stored, carried state filled in), ``output`` (the
    engine's output), ``net`` (4 ints by seat) and ``state_after`` (carried state after it)."""

    record: dict[str, Any]
    output: dict[str, Any]
    net: list[int]
    state_after: dict[str, Any]


def evaluate_deal(game: str, record: dict[str, Any], state: dict[str, Any], rules: Any = None) -> DealResult:
    """Run the engine on one deal ``record`` with the carried ``state`` before it.

    Sichuan: ``settle``; Taiwanese: ``score`` (a draw calls no engine); Tien Gow: ``settle`` or
    ``deal`` by ``record["mode"]``. Raises :class:`RuleViolation` (engine violations, or a record
    of the wrong shape) and never writes anything.
    """
    if not isinstance(record, dict):
        raise RuleViolation([Violation("", "The deal record must be an object.")])
    if game == Game.SICHUAN:
        data = {**record, "players": list(SEAT_LABELS)}
        data.setdefault("exhaustion", None)
        out = engines.run("sichuan", "settle", _with_rules(data, rules))
        net_map = out.get("net", {})
        return DealResult(data, out, [int(net_map.get(s, 0)) for s in SEAT_LABELS], {})
    if game == Game.TAIWANESE:
        carried = {"dealer": state["dealer"], "streak": state["streak"], "round_wind": state.get("round_wind", "E")}
        if record.get("draw"):
            return DealResult({"draw": True, **carried}, {"draw": True, "pay": {}}, [0, 0, 0, 0], _taiwanese_next(state, None))
        data = {k: v for k, v in record.items() if k != "rules"}
        data.update(carried)
        out = engines.run("taiwanese", "score", _with_rules(data, rules))
        winner = data.get("seat")
        net = [0, 0, 0, 0]
        for label, amount in (out.get("pay") or {}).items():
            net[SEAT_LABELS.index(label)] -= int(amount)
            net[SEAT_LABELS.index(winner)] += int(amount)
        return DealResult(data, out, net, _taiwanese_next(state, winner))
    if game == Game.TIENGOW:
        mode = record.get("mode", "settle")
        if mode not in ("settle", "deal"):
            raise RuleViolation([Violation("mode", "Unknown entry mode {mode!r}.", {"mode": mode})])
        data = {k: v for k, v in record.items() if k not in ("mode", "rules")}
        data["banker"] = state.get("banker", 0)
        out = engines.run("tiengow", mode, _with_rules(data, rules))
        net = [int(x) for x in out.get("net", [0, 0, 0, 0])]
        nxt = out.get("next_banker")
        if nxt is None:
            last = data.get("last_trick") or {}
            nxt = last.get("winner", data["banker"]) if mode == "settle" else data["banker"]
        return DealResult({"mode": mode, **data}, out, net, {"banker": int(nxt)})
    raise NotAllowed(_("This game is not played at tables of four."))


def _tournament_of(table: Table) -> Tournament:
    return table.round.tournament


def _replay(table: Table, records: list[dict[str, Any]]) -> list[DealResult]:
    """Evaluate ``records`` in order from the table's initial state; raises RuleViolation with the
    deal number in front of each field of a later deal that breaks."""
    t = _tournament_of(table)
    state = initial_state(t.game)
    results = []
    for record in records:
        res = evaluate_deal(t.game, record, state, t.rules)
        results.append(res)
        state = res.state_after
    return results


def _deals(table: Table) -> list[Deal]:
    return list(table.deals.order_by("number"))


def _state_before(table: Table, deals: list[Deal], position: int) -> dict[str, Any]:
    """Carried state before deal at 0-based ``position`` (stored records carry it already)."""
    t = _tournament_of(table)
    state = initial_state(t.game)
    if position == 0:
        return state
    # Re-evaluate the earlier deals (cheap; keeps the preview exact even after edits).
    for res in _replay(table, [d.record for d in deals[:position]]):
        state = res.state_after
    return state


def preview_deal(table: Table, record: dict[str, Any], *, replace_number: int | None = None) -> dict[str, Any]:
    """What saving ``record`` would give, without writing: ``{"output": engine output, "net":
    [4], "running": [4] (totals after it), "before": [4], "state_before", "state_after"}``.
    ``replace_number``: the deal being edited (its old result is left out of ``before``). Raises
    RuleViolation / MatchLocked / NotAllowed."""
    _check_open(table)
    deals = _deals(table)
    position = len(deals)
    if replace_number is not None:
        position = next((i for i, d in enumerate(deals) if d.number == replace_number), len(deals))
    state = _state_before(table, deals, position)
    res = evaluate_deal(_tournament_of(table).game, record, state, _tournament_of(table).rules)
    before = [0, 0, 0, 0]
    for d in deals[:position]:
        before = [a + b for a, b in zip(before, d.net or [0, 0, 0, 0], strict=True)]
    return {
        "output": res.output,
        "net": res.net,
        "before": before,
        "running": [a + b for a, b in zip(before, res.net, strict=True)],
        "state_before": state,
        "state_after": res.state_after,
        "record": res.record,
    }


def recompute_table(table: Table, *, save: bool = True) -> Table:
    """Rebuild every deal's ``net`` and carried state, the seats' ``total``, ``Table.state`` and
    the status (pending without deals, playing with deals; a confirmed table stays confirmed)
    from the records, in deal order. Raises RuleViolation if a record no longer passes."""
    deals = _deals(table)
    results = _replay(table, [d.record for d in deals])
    totals = [0, 0, 0, 0]
    for deal, res in zip(deals, results, strict=True):
        totals = [a + b for a, b in zip(totals, res.net, strict=True)]
        if save and (deal.net != res.net or deal.record != res.record):
            deal.net = res.net
            deal.record = res.record
            deal.save(update_fields=["net", "record", "updated_at"])
    table.state = results[-1].state_after if results else initial_state(_tournament_of(table).game)
    if table.status != Table.Status.CONFIRMED:
        limit = deal_limit(_tournament_of(table))
        if limit is not None and len(deals) >= limit:
            table.status = Table.Status.FINISHED
        else:
            table.status = Table.Status.PLAYING if deals else Table.Status.PENDING
    if save:
        table.save(update_fields=["state", "status", "updated_at"])
        for seat in table.seats.all():
            if seat.total != totals[seat.seat]:
                seat.total = totals[seat.seat]
                seat.save(update_fields=["total"])
    return table


def deal_limit(tournament: Tournament) -> int | None:
    """Deals per table in the fixed-hands round format (DESIGN.md 3: "N hands per round"), else
    ``None`` (no limit; the organiser closes the round)."""
    if tournament.round_format == RoundFormat.FIXED_HANDS and tournament.hands_per_round:
        return tournament.hands_per_round
    return None


def _check_open(table: Table) -> None:
    rnd = table.round
    if rnd.status == Round.Status.DRAFT:
        raise NotAllowed(_("This round is still a draft: publish it before entering deals."))
    if rnd.status == Round.Status.CLOSED or table.status == Table.Status.CONFIRMED:
        raise MatchLocked(_("This table is locked: its round is closed or its result confirmed."))


STALE_MESSAGE = _("This table was changed by someone else in the meantime. Reload the page and try again.")


def parse_version(raw: Any) -> int:
    """The table version a web form carried (a hidden ``version`` field), as an int >= 0.

    Every web write must carry the version it was built from: a missing, empty, negative or
    non-numeric value is refused exactly like a stale one (:class:`StaleVersion`, "changed by
    someone else, reload"), so the optimistic-concurrency check cannot be bypassed."""
    text = str(raw).strip() if raw is not None else ""
    if not text.isascii() or not text.isdigit():
        raise StaleVersion(STALE_MESSAGE)
    return int(text)


def _check_version(locked: Table, expected_version: int | None) -> None:
    if expected_version is not None and locked.version != expected_version:
        raise StaleVersion(STALE_MESSAGE)


def _lock(table: Table, expected_version: int | None) -> Table:
    locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
    _check_version(locked, expected_version)
    _check_open(locked)
    return locked


def _bump(table: Table) -> None:
    table.version += 1
    table.save(update_fields=["version", "updated_at"])


def _audit(table: Table, user, action: str, deal_id: int | None, old, new, reason: str = "") -> None:
    AuditEntry.objects.create(
        tournament=table.round.tournament,
        table=table,
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        object_type="deal",
        object_id=deal_id,
        reason=reason,
        old=old,
        new=new,
    )


def add_deal(table: Table, record: dict[str, Any], user, *, expected_version: int | None = None) -> Deal:
    """Append a deal with ``record``; recompute the table. Raises RuleViolation (nothing saved),
    StaleVersion, MatchLocked, NotAllowed."""
    with transaction.atomic():
        locked = _lock(table, expected_version)
        deals = _deals(locked)
        t = locked.round.tournament
        limit = deal_limit(t)
        if limit is not None and len(deals) >= limit:
            raise MatchLocked(_("This table has played its {limit} deals (fixed number of hands per round).").format(limit=limit))
        state = _state_before(locked, deals, len(deals))
        res = evaluate_deal(t.game, record, state, t.rules)
        number = (deals[-1].number if deals else 0) + 1
        deal = Deal.objects.create(table=locked, number=number, record=res.record, net=res.net, entered_by=user if getattr(user, "is_authenticated", False) else None)
        recompute_table(locked)
        _bump(locked)
        _audit(locked, user, AuditEntry.Action.CREATE, deal.pk, None, {"number": number, "record": res.record, "net": res.net})
    table.refresh_from_db()
    return deal


def update_deal(deal: Deal, record: dict[str, Any], user, *, expected_version: int | None = None, reason: str = "") -> Deal:
    """Replace the record of ``deal``; every later deal is re-evaluated with the new carried state
    (a later deal that no longer passes rolls the whole edit back). Raises like :func:`add_deal`."""
    with transaction.atomic():
        locked = _lock(deal.table, expected_version)
        deal = Deal.objects.select_for_update().get(pk=deal.pk)
        old = {"number": deal.number, "record": deal.record, "net": deal.net}
        deals = _deals(locked)
        position = next(i for i, d in enumerate(deals) if d.pk == deal.pk)
        t = locked.round.tournament
        res = evaluate_deal(t.game, record, _state_before(locked, deals, position), t.rules)
        deal.record = res.record
        deal.net = res.net
        deal.save(update_fields=["record", "net", "updated_at"])
        recompute_table(locked)
        _bump(locked)
        deal.refresh_from_db()
        _audit(locked, user, AuditEntry.Action.UPDATE, deal.pk, old, {"number": deal.number, "record": deal.record, "net": deal.net}, reason)
    return deal


def delete_deal(deal: Deal, user, *, expected_version: int | None = None, reason: str = "") -> None:
    """Delete ``deal``; later deals are renumbered and re-evaluated. Raises like :func:`add_deal`."""
    with transaction.atomic():
        locked = _lock(deal.table, expected_version)
        deal = Deal.objects.select_for_update().get(pk=deal.pk)
        old = {"number": deal.number, "record": deal.record, "net": deal.net}
        deal_id, number = deal.pk, deal.number
        deal.delete()
        for later in locked.deals.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number"])
        recompute_table(locked)
        _bump(locked)
        _audit(locked, user, AuditEntry.Action.DELETE, deal_id, old, None, reason)


# --------------------------------------------------------------------------------------------
# Standings


@dataclass
class StandingRow:
    """One line of the four-player standings: ``rank`` (shared on equal totals; ``None`` for a
    player who has not played a table yet), ``player_id``,
    ``name``, ``affiliation``, ``played`` (tables with at least one deal), ``total`` (sum of the
    player's table totals), ``substitute`` and ``withdrawn``."""

    rank: int | None
    player_id: int
    name: str
    affiliation: str
    played: int
    total: int
    substitute: bool
    withdrawn: bool


def standings(tournament: Tournament, *, through_round: int | None = None) -> list[StandingRow]:
    """Players ranked by total points over their tables (issue 6 item 4: "Standings by total
    points"), ties share a rank and are listed by name. One query, whatever the field size.

    A player who has played no table yet (``played == 0``: not seated, or only at tables without
    deals) has no total to compare: they are listed after everyone who has played, unranked
    (``rank=None``), so that a 0 never ranks above players with negative totals."""
    seat_filter = Q()
    if through_round is not None:
        seat_filter &= Q(seats__table__round__number__lte=through_round)
    qs = (
        Player.objects.filter(tournament=tournament)
        .annotate(
            points=Coalesce(Sum("seats__total", filter=seat_filter), Value(0), output_field=IntegerField()),
            played=Count("seats", filter=seat_filter & ~Q(seats__table__status=Table.Status.PENDING)),
        )
        .order_by("-points", "name", "pk")
    )
    players = sorted(qs, key=lambda p: p.played == 0)  # stable: keeps points/name order within each group
    rows: list[StandingRow] = []
    previous, rank = None, 0
    for index, p in enumerate(players, start=1):
        if p.played and p.points != previous:
            rank, previous = index, p.points
        rows.append(
            StandingRow(
                rank=rank if p.played else None,
                player_id=p.pk,
                name=p.name,
                affiliation=p.affiliation,
                played=p.played,
                total=p.points,
                substitute=p.is_substitute,
                withdrawn=p.withdrawn_after_round is not None,
            )
        )
    return rows


def check_four_player(tournament: Tournament) -> None:
    """Raise :class:`ServiceError` unless ``tournament`` is a four-player game."""
    if tournament.game not in FOUR_PLAYER_GAMES:
        raise ServiceError(_("This tournament is played by teams, not at tables of four."))


# --------------------------------------------------------------------------------------------
# Round lifecycle for rounds of tables


def publish_table_round(rnd: Round) -> Round:
    """Publish a draft round of tables: seats become public and referees may enter deals; the
    tournament moves from registration to running. (``services.rounds.publish_round`` needs Tai
    Pan matches; this is its four-player counterpart.) Raises :class:`NotAllowed` when the round is
    not a draft or has no tables."""
    with transaction.atomic():
        locked = Round.objects.select_for_update().get(pk=rnd.pk)
        if locked.status != Round.Status.DRAFT:
            raise NotAllowed(_("Only a draft round can be published; round {number} is {status}.").format(number=locked.number, status=locked.get_status_display()))
        if not locked.tables.exists():
            raise NotAllowed(_("Round {number} has no tables yet.").format(number=locked.number))
        locked.status = Round.Status.PUBLISHED
        locked.save(update_fields=["status"])
        Tournament.objects.filter(pk=locked.tournament_id, status=Tournament.Status.SETUP).update(status=Tournament.Status.RUNNING)
    rnd.status = locked.status
    return rnd


def close_table_round(rnd: Round) -> Round:
    """Close a published or running round of tables once every table is confirmed (DESIGN.md 3:
    "a round closes only when every match is confirmed"; ``services.rounds.close_round`` does the
    state change). Raises :class:`NotAllowed` naming the tables still open."""
    open_tables = list(rnd.tables.exclude(status=Table.Status.CONFIRMED).order_by("number").values_list("number", flat=True))
    if open_tables:
        raise NotAllowed(
            _("Round {number} cannot be closed: the result of table(s) {tables} is not confirmed yet.").format(
                number=rnd.number, tables=", ".join(str(t) for t in open_tables)
            )
        )
    from scoring.draw.rounds import close_round

    return close_round(rnd)


def rebuild_tables(tournament: Tournament | None = None) -> int:
    """Recompute every four-player table (of ``tournament``, or all) from its deal records: deal
    ``net``, carried state, seat totals, status (DESIGN.md 1: derived data can always be rebuilt;
    for ``manage.py rebuild_scores``). Returns the number of tables. Raises RuleViolation if a
    stored record no longer passes its engine (nothing of that table is changed)."""
    qs = Table.objects.select_related("round__tournament").order_by("pk")
    if tournament is not None:
        qs = qs.filter(round__tournament=tournament)
    count = 0
    for table in qs:
        with transaction.atomic():
            recompute_table(table)
        count += 1
    return count


# --------------------------------------------------------------------------------------------
# Confirmation by a second person


def entered_by_users(table: Table) -> set[int]:
    """Ids of the users who entered, edited or deleted deals of ``table``."""
    users = set(table.deals.exclude(entered_by=None).values_list("entered_by_id", flat=True))
    users |= set(
        AuditEntry.objects.filter(table=table, object_type="deal").exclude(user=None).values_list("user_id", flat=True)
    )
    return users


def confirm_table(table: Table, user, *, totals: list[int] | None = None, expected_version: int | None = None) -> Confirmation:
    """Confirm a table's result as a second person (DESIGN.md 3; the four-player counterpart of
    ``services.results.confirm_match``).

    The table needs deals and must not be confirmed; ``user`` must differ from everyone who
    entered or changed its deals; ``totals`` (4 ints by seat, re-typed from the score sheet) is
    required when the tournament asks for blind confirmation and must equal the seat totals.
    In the fixed-hands round format (DESIGN.md 3, "N hands per round") the table must have
    exactly ``hands_per_round`` deals. ``expected_version``: the table version the page was built
    from (:class:`StaleVersion` when it changed; the web always passes one).
    Raises :class:`NotAllowed` (``field="totals"`` for the totals) and saves nothing then.
    Afterwards the table is locked until reopened. Audit: ``confirm``."""
    if not getattr(user, "is_authenticated", False):
        raise NotAllowed(_("Log in to confirm a result."))
    with transaction.atomic():
        locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        _check_version(locked, expected_version)
        if locked.status == Table.Status.CONFIRMED:
            raise NotAllowed(_("This table is already confirmed."))
        count = locked.deals.count()
        if not count:
            raise NotAllowed(_("A table without deals cannot be confirmed."))
        limit = deal_limit(locked.round.tournament)
        if limit is not None and count != limit:
            raise NotAllowed(
                _("This table has {count} of its {limit} deals (fixed number of hands per round): enter every deal before confirming.").format(
                    count=count, limit=limit
                )
            )
        if locked.round.status in (Round.Status.DRAFT, Round.Status.CLOSED):
            raise NotAllowed(_("Only a table of a published or running round can be confirmed."))
        if user.pk in entered_by_users(locked):
            raise NotAllowed(_("A different person must confirm the result than the one who entered the deals."))
        seat_totals = [s.total for s in locked.seats.order_by("seat")]
        if totals is None and locked.round.tournament.blind_confirmation:
            raise ServiceError(_("Type the final totals from the score sheet."), field="totals")
        if totals is not None and list(totals) != seat_totals:
            raise NotAllowed(
                _("The totals you typed ({typed}) do not match the entered deals. Check the score sheet and the deals.").format(
                    typed=" / ".join(str(x) for x in totals)
                ),
                field="totals",
            )
        try:
            with transaction.atomic():
                confirmation = Confirmation.objects.create(table=locked, confirmed_by=user, totals=seat_totals)
        except IntegrityError:
            raise NotAllowed(_("This table is already confirmed.")) from None
        locked.status = Table.Status.CONFIRMED
        locked.version += 1
        locked.save(update_fields=["status", "version", "updated_at"])
        _audit_table(locked, user, AuditEntry.Action.CONFIRM, new={"totals": seat_totals})
    table.refresh_from_db()
    return confirmation


def reopen_table(table: Table, user, reason: str, *, expected_version: int | None = None) -> Table:
    """Reopen a confirmed table (organiser; the view checks the role) with a ``reason``: the
    confirmation is kept with who/when/why, the table can be edited again. Raises
    :class:`NotAllowed` when it is not confirmed, the round is closed, or the reason is empty;
    :class:`StaleVersion` when ``expected_version`` is given and the table changed."""
    if not (reason or "").strip():
        raise NotAllowed(_("Give a reason for reopening."), field="reason")
    with transaction.atomic():
        locked = Table.objects.select_for_update().select_related("round__tournament").get(pk=table.pk)
        _check_version(locked, expected_version)
        if locked.status != Table.Status.CONFIRMED:
            raise NotAllowed(_("Only a confirmed table can be reopened."))
        if locked.round.status == Round.Status.CLOSED:
            raise NotAllowed(_("The round is closed; its tables cannot be reopened."))
        Confirmation.objects.filter(table=locked, active=True).update(
            active=False, reopened_by=user, reopened_at=timezone.now(), reopen_reason=reason
        )
        locked.status = Table.Status.PLAYING
        recompute_table(locked)
        locked.version += 1
        locked.save(update_fields=["version", "updated_at"])
        _audit_table(locked, user, AuditEntry.Action.REOPEN, reason=reason)
    table.refresh_from_db()
    return table


def _audit_table(table: Table, user, action: str, *, new=None, reason: str = "") -> None:
    AuditEntry.objects.create(
        tournament=table.round.tournament,
        table=table,
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        object_type="table",
        object_id=table.pk,
        reason=reason,
        new=new,
    )
