"""Validate a trick-by-trick Tien Gow deal record and derive columns, winners and payments.

Rule source: the Tien Gow rule text ("Een beurt spelen", "Puntentelling en einde") and docs/engines/tiengow.md.
A record (the ``deal`` command's input)::

    {"banker": 0, "hands": [[8 tiles] x 4] (optional),
     "tricks": [{"leader": 0 (optional), "winner": 0 (optional, checked),
                 "plays": [{"seat": 0, "tiles": ["6-6"], "face_up": true (optional for the leader)}, ... 4 plays]}],
     "partial": false (optional: true allows a record that stops before the end)}

Checks (each a violation with its field path, all collected):
- the first trick is led by the banker, every later one by the winner of the previous trick;
- plays are listed in play order from the leader; the leader plays a legal group face up;
- every follower plays as many tiles as the leader; a face-up follower must beat the current high
  group (same kind and counts, strictly higher rank; the Supreme neither beats nor is beaten);
  anything may be discarded face down, even a group that would beat;
- early death: on the last trick, when it is a single (rules option ``early_death``), a player who
  has no column yet must discard face down;
- tiles come from the player's hand (when ``hands`` is given; the hands are the 32-tile set) and no
  tile is played more often than the set has it; every player plays exactly eight tiles;
- an optional ``winner`` per trick must be the derived winner.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from engines.errors import Collector
from engines.i18n import _
from engines.tiengow.groups import Group, GroupKind, beats, identify
from engines.tiengow.options import DEFAULT_OPTIONS, Options
from engines.tiengow.settlement import (
    ImmediateEvent,
    ImmediateGroup,
    LastTrick,
    LastTrickGroup,
    Settlement,
    settle,
)
from engines.tiengow.tiles import FULL_SET, LITTLE_THREE, Tile, check_copies, parse_tiles

TILES_PER_SEAT = 8


@dataclass(frozen=True)
class Play:
    """One seat's play in a trick: ``tiles`` and whether they were played face up."""

    seat: int
    tiles: tuple[Tile, ...]
    face_up: bool


@dataclass(frozen=True)
class TrickResult:
    """A validated trick: ``leader``, ``winner``, the winning ``group``, the index of the winning play,
    the seats that were early-dead on it, and whether it was the deal's last trick."""

    index: int
    leader: int
    winner: int
    group: Group
    winning_play: int
    plays: tuple[Play, ...]
    early_dead: tuple[int, ...] = ()
    last: bool = False

    @property
    def size(self) -> int:
        """Tiles per player in this trick (= columns won)."""
        return self.group.size

    def to_json(self) -> dict[str, Any]:
        """``{"index", "leader", "winner", "group", "size", "winning_play", "early_death", "last"}``."""
        return {
            "index": self.index,
            "leader": self.leader,
            "winner": self.winner,
            "group": self.group.to_json(),
            "size": self.size,
            "winning_play": self.winning_play,
            "early_death": list(self.early_dead),
            "last": self.last,
        }


@dataclass
class DealResult:
    """A derived deal: ``columns`` per seat, the ``tricks``, the ``settlement`` (``None`` for an
    unfinished partial record), and for a partial record the ``next_leader``."""

    banker: int
    columns: list[int]
    tricks: list[TrickResult]
    complete: bool
    settlement: Settlement
    last_trick: LastTrick | None
    immediate: list[ImmediateEvent] = field(default_factory=list)
    next_leader: int | None = None
    tiles_left: int = 0

    def settle_input(self) -> dict[str, Any]:
        """The equivalent ``settle`` command input (settlement level)."""
        lt = self.last_trick
        return {
            "banker": self.banker,
            "columns": list(self.columns) if self.complete else None,
            "last_trick": None if lt is None else {
                "winner": lt.winner, "group": lt.group.value, "leader": lt.leader,
                "led_with": lt.led_with, "won_with": lt.won_with,
            },
            "immediate": [{"winner": e.winner, "group": e.group.value} for e in self.immediate],
        }

    def to_json(self) -> dict[str, Any]:
        """The ``deal`` command output (docs/engines/tiengow.md)."""
        out = self.settlement.to_json()
        out.update({
            "columns": list(self.columns),
            "tricks": [t.to_json() for t in self.tricks],
            "complete": self.complete,
            "next_leader": self.next_leader,
            "tiles_left": self.tiles_left,
            "last_trick": self.settle_input()["last_trick"],
            "settlement": self.settle_input(),
        })
        return out


def _seat(raw: Any, field_name: str, errors: Collector) -> int | None:
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 3:
        errors.add(field_name, _("A seat is a number 0 to 3, not {value!r}."), value=raw)
        return None
    return raw


def last_trick_of(trick: TrickResult) -> LastTrick:
    """The settlement-level description of a deal's last trick."""
    group = trick.group
    if group.kind is GroupKind.SUPREME:
        kind = LastTrickGroup.SUPREME
    elif group.is_quartet:
        kind = LastTrickGroup.QUARTET
    elif group.kind is GroupKind.SINGLE and group.tiles[0] == LITTLE_THREE:
        kind = LastTrickGroup.LITTLE_THREE
    else:
        kind = LastTrickGroup.ORDINARY
    single = group.size == 1
    return LastTrick(
        winner=trick.winner,
        group=kind,
        leader=trick.leader,
        led_with=trick.plays[0].tiles[0].code if single else None,
        won_with=group.tiles[0] if single else None,
    )


#: The fields of a deal record, a trick and a play; any other is refused.
DEAL_KEYS = frozenset({"banker", "partial", "hands", "tricks", "rules"})
TRICK_KEYS = frozenset({"leader", "plays", "winner"})
PLAY_KEYS = frozenset({"seat", "tiles", "face_up"})


def play_deal(data: dict[str, Any], options: Options = DEFAULT_OPTIONS) -> DealResult:
    """Validate the record ``data`` (see module docstring) and derive everything.

    Raises :class:`engines.errors.RuleViolation` listing every violation (fields such as
    ``tricks[2].plays[1].face_up``).
    """
    errors = Collector()
    errors.refuse_unknown(data, DEAL_KEYS)
    banker = _seat(data.get("banker"), "banker", errors)
    partial = data.get("partial", False)
    if not isinstance(partial, bool):
        errors.add("partial", _("Expected true or false."))
        partial = False

    remaining: list[Counter[str]] | None = None
    raw_hands = data.get("hands")
    if raw_hands is not None:
        if not isinstance(raw_hands, list) or len(raw_hands) != 4:
            errors.add("hands", _("Expected four hands (seats 0 to 3) of eight tiles each."))
        else:
            parsed = [parse_tiles(h, f"hands[{s}]", errors, min_count=TILES_PER_SEAT, max_count=TILES_PER_SEAT)
                      for s, h in enumerate(raw_hands)]
            if all(p is not None for p in parsed):
                used: Counter[str] = Counter()
                for s, hand in enumerate(parsed):
                    assert hand is not None
                    check_copies(hand, f"hands[{s}]", errors, already=used)
                    used.update(t.code for t in hand)
                if used == FULL_SET:
                    remaining = [Counter(t.code for t in hand) for hand in parsed if hand is not None]

    raw_tricks = data.get("tricks")
    if not isinstance(raw_tricks, list) or (not raw_tricks and not partial):
        errors.add("tricks", _("Expected a list of tricks."))
        raw_tricks = []

    columns = [0, 0, 0, 0]
    played = 0  # tiles played per seat so far
    played_total: Counter[str] = Counter()
    results: list[TrickResult] = []
    expected_leader: int | None = banker
    broken = bool(errors)
    for i, raw in enumerate(raw_tricks):
        f = f"tricks[{i}]"
        before = errors.count
        if played >= TILES_PER_SEAT:
            errors.add(f, _("The deal is over once every player has played eight tiles; this trick is too many."))
            break
        if not isinstance(raw, dict):
            errors.add(f, _("A trick is an object with \"leader\" and \"plays\"."))
            expected_leader = None
            broken = True
            continue
        errors.refuse_unknown(raw, TRICK_KEYS, f"{f}.")
        raw_leader = raw.get("leader")
        if raw_leader is None:  # derivable: the banker, then the previous winner (or the first play's seat)
            raw_leader = expected_leader
            first = raw["plays"][0] if isinstance(raw.get("plays"), list) and raw["plays"] else None
            if raw_leader is None and isinstance(first, dict):
                raw_leader = first.get("seat")
        leader = _seat(raw_leader, f"{f}.leader", errors)
        if leader is not None and expected_leader is not None and leader != expected_leader:
            if i == 0:
                errors.add(f"{f}.leader", _("The banker (seat {expected}) leads the first trick, not seat {seat}."),
                           expected=expected_leader, seat=leader)
            else:
                errors.add(f"{f}.leader", _("Seat {expected} won the previous trick and leads this one, not seat {seat}."),
                           expected=expected_leader, seat=leader)
        if leader is None:
            leader = expected_leader
        raw_plays = raw.get("plays")
        if not isinstance(raw_plays, list) or len(raw_plays) != 4:
            errors.add(f"{f}.plays", _("A trick has exactly four plays, one per seat, in play order from the leader."))
            expected_leader = None
            broken = True
            continue
        plays: list[Play | None] = []
        for j, rp in enumerate(raw_plays):
            pf = f"{f}.plays[{j}]"
            if not isinstance(rp, dict):
                errors.add(pf, _("A play is an object with \"seat\", \"tiles\" and \"face_up\"."))
                plays.append(None)
                continue
            errors.refuse_unknown(rp, PLAY_KEYS, f"{pf}.")
            seat = _seat(rp.get("seat"), f"{pf}.seat", errors)
            if seat is not None and leader is not None and seat != (leader + j) % 4:
                errors.add(f"{pf}.seat", _("Plays are listed in play order from the leader: expected seat {expected}, not {seat}."),
                           expected=(leader + j) % 4, seat=seat)
                seat = None
            tiles = parse_tiles(rp.get("tiles"), f"{pf}.tiles", errors, min_count=1, max_count=4)
            face_up = rp.get("face_up", True if j == 0 else None)
            if not isinstance(face_up, bool):
                errors.add(f"{pf}.face_up", _("Say whether the tiles were played face up (true) or discarded face down (false)."))
                face_up = None
            elif j == 0 and not face_up:
                errors.add(f"{pf}.face_up", _("The leader plays face up."))
            if seat is None or tiles is None or face_up is None:
                plays.append(None)
            else:
                plays.append(Play(seat, tuple(tiles), face_up))

        lead = plays[0]
        if lead is None:
            expected_leader = None
            broken = True
            continue
        n = len(lead.tiles)
        lead_group, reason = identify(lead.tiles, options)
        if lead_group is None:
            errors.add(f"{f}.plays[0].tiles", _("The lead is not a legal group: {reason}"), reason=reason)
        left = TILES_PER_SEAT - played
        if n > left:
            errors.add(f"{f}.plays[0].tiles", _("Only {left} tiles per player are left, so the lead has at most {left} tiles."), left=left)
        is_last = played + n == TILES_PER_SEAT
        for j, p in enumerate(plays):
            if p is None or j == 0:
                continue
            if len(p.tiles) != n:
                errors.add(f"{f}.plays[{j}].tiles", _("Every player plays as many tiles as the leader: {count}, not {got}."),
                           count=n, got=len(p.tiles))
        # tile ownership / copies
        for j, p in enumerate(plays):
            if p is None:
                continue
            for k, tile in enumerate(p.tiles):
                tf = f"{f}.plays[{j}].tiles[{k}]"
                played_total[tile.code] += 1
                if remaining is not None:
                    if remaining[p.seat][tile.code] <= 0:
                        errors.add(tf, _("Seat {seat} does not hold {tile} (any more)."), seat=p.seat, tile=tile.code)
                    else:
                        remaining[p.seat][tile.code] -= 1
                elif played_total[tile.code] > tile.copies:
                    errors.add(tf, _("{tile} is played more often than the set has it ({copies})."), tile=tile.code, copies=tile.copies)
        # who wins
        early_dead: list[int] = []
        if lead_group is not None and all(p is not None for p in plays):
            dead_applies = not broken and is_last and (options.early_death == "last_trick" or (options.early_death == "last_single" and n == 1))
            current, holder, holder_index = lead_group, lead.seat, 0
            for j, p in enumerate(plays[1:], start=1):
                assert p is not None
                if dead_applies and columns[p.seat] == 0:
                    early_dead.append(p.seat)
                if not p.face_up:
                    continue
                pf = f"{f}.plays[{j}]"
                if dead_applies and columns[p.seat] == 0:
                    errors.add(f"{pf}.face_up", _("Early death: seat {seat} has no column yet and must discard face down on the last single trick."),
                               seat=p.seat)
                    continue
                if len(p.tiles) != n:
                    continue
                group, reason = identify(p.tiles, options)
                if group is None:
                    errors.add(f"{pf}.face_up", _("Seat {seat} cannot win with {tiles}: not a group ({reason}). Losing tiles are discarded face down."),
                               seat=p.seat, tiles=" ".join(t.code for t in p.tiles), reason=reason)
                    continue
                ok, reason = beats(group, current)
                if not ok:
                    errors.add(f"{pf}.face_up", _("Seat {seat}'s {tiles} does not beat the current high group {current}: {reason} Losing tiles are discarded face down."),
                               seat=p.seat, tiles=" ".join(group.tiles), current=" ".join(current.tiles), reason=reason)
                    continue
                current, holder, holder_index = group, p.seat, j
            claimed = raw.get("winner")
            if claimed is not None and claimed != holder:
                errors.add(f"{f}.winner", _("The record says seat {claimed} won this trick, but seat {seat} did."), claimed=claimed, seat=holder)
            if errors.count == before and not broken:
                columns[holder] += n
                results.append(TrickResult(i, lead.seat, holder, current, holder_index,
                                           tuple(p for p in plays if p is not None), tuple(early_dead), is_last))
                expected_leader = holder
            else:
                expected_leader = None
                broken = True
        else:
            expected_leader = None
            broken = True
        played += n
    if played < TILES_PER_SEAT and not partial and not broken:
        errors.add("tricks", _("The record ends after {count} tiles per player; a deal ends when all eight have been played."), count=played)
    errors.raise_if_any()
    assert banker is not None

    complete = played == TILES_PER_SEAT
    immediate: list[ImmediateEvent] = []
    for t in results:
        if t.last and not options.immediate_on_last_trick:
            continue
        if t.group.kind is GroupKind.SUPREME:
            immediate.append(ImmediateEvent(t.winner, ImmediateGroup.SUPREME, t.index))
        elif t.group.is_quartet:
            immediate.append(ImmediateEvent(t.winner, ImmediateGroup.QUARTET, t.index))
    last = last_trick_of(results[-1]) if complete else None
    settlement = settle(banker, columns if complete else None, last, immediate, options)
    return DealResult(
        banker=banker, columns=columns, tricks=results, complete=complete, settlement=settlement,
        last_trick=last, immediate=immediate,
        next_leader=None if complete else (results[-1].winner if results else banker),
        tiles_left=TILES_PER_SEAT - played,
    )
