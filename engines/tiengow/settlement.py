"""Tien Gow payments: immediate (Supreme / quartet) and the final settlement of a deal.

Rule source: the Tien Gow rule text ("Puntentelling en einde") with the docs/engines/tiengow.md decisions; every
choice is a rules option (:mod:`engines.tiengow.options`). Amounts are points; seats 0..3.

- Immediate: the winner of a trick won with the Supreme gets ``supreme_payment`` (2) from each
  opponent, with a quartet ``quartet_payment`` (4); doubled between the banker and anyone. Paid on
  every trick including the last, never multiplied further.
- Final (last-trick winner W against each opponent O with c columns): O pays 4 - c (5 for none);
  over four, W pays O the surplus. Doubled when the banker is W or O, doubled for a last trick won
  by a quartet, the Supreme or the singleton 1-2 (Little Three), doubled again for a sweep of 8.
- The catch: last single trick led with 1-2 and won by 2-4: the leader also pays the positive
  amounts the other two owe, exactly as computed.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any

from engines.tiengow.options import DEFAULT_OPTIONS, Options
from engines.tiengow.tiles import BIG_SIX, LITTLE_THREE

SEATS = (0, 1, 2, 3)

INITIAL_BANKER = 0
"""The banker of a table's first deal. The rule text draws a random banker ("Een willekeurige
bankier speelt als eerste"); the tournament seats its players so that seat 0 is that banker.
Every later deal's banker is the previous deal's ``next_banker``."""


class ImmediateGroup(StrEnum):
    """What earns an immediate payment."""

    SUPREME = "supreme"
    QUARTET = "quartet"


class LastTrickGroup(StrEnum):
    """How the last trick was won (for the final multiplier)."""

    ORDINARY = "ordinary"
    QUARTET = "quartet"
    SUPREME = "supreme"
    LITTLE_THREE = "little_three"


@dataclass(frozen=True)
class ImmediateEvent:
    """A trick won with the Supreme or a quartet by seat ``winner`` (``trick``: index, if known)."""

    winner: int
    group: ImmediateGroup
    trick: int | None = None


@dataclass(frozen=True)
class LastTrick:
    """The last trick: its ``winner`` and how it was won; for the catch also the ``leader``, the tile
    it was led with (``led_with``) and the tile that won it (``won_with``), singles only."""

    winner: int
    group: LastTrickGroup = LastTrickGroup.ORDINARY
    leader: int | None = None
    led_with: str | None = None
    won_with: str | None = None

    @property
    def is_catch(self) -> bool:
        """Last single trick led with the Little Three 1-2 by someone else and won by the Big Six 2-4."""
        return (self.leader is not None and self.leader != self.winner
                and self.led_with == LITTLE_THREE and self.won_with == BIG_SIX)


@dataclass(frozen=True)
class Transfer:
    """``payer`` pays ``payee`` ``amount`` points (> 0). ``base``: before multipliers; ``factors``:
    names of the multipliers applied; ``on_behalf_of``: the seat whose debt the payer took over (catch)."""

    payer: int
    payee: int
    amount: int
    base: int
    factors: tuple[str, ...] = ()
    on_behalf_of: int | None = None

    def to_json(self) -> dict[str, Any]:
        """JSON form (``from``/``to``)."""
        return {"from": self.payer, "to": self.payee, "amount": self.amount, "base": self.base,
                "factors": list(self.factors), "on_behalf_of": self.on_behalf_of}


@dataclass
class Settlement:
    """Everything paid in one deal. ``immediate``: (event, per-seat net) pairs; ``final_transfers``;
    ``final_net``, ``immediate_net``, ``net``: four ints each, summing to zero."""

    banker: int
    columns: list[int] | None
    last_trick: LastTrick | None
    immediate: list[tuple[ImmediateEvent, list[int]]] = field(default_factory=list)
    final_transfers: list[Transfer] = field(default_factory=list)
    final_factors: tuple[str, ...] = ()
    final_multiplier: int = 1
    immediate_net: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    final_net: list[int] | None = None
    net: list[int] = field(default_factory=lambda: [0, 0, 0, 0])

    @property
    def next_banker(self) -> int:
        """The banker of the next deal: the winner of the last trick ("De winnaar van de laatste slag
        wordt de volgende bankier", the Tien Gow rule text), or the current banker when there is no last
        trick (immediate payments only, or a partial record)."""
        return self.last_trick.winner if self.last_trick else self.banker

    def to_json(self) -> dict[str, Any]:
        """``{"net", "immediate", "immediate_net", "final", "columns", "next_banker"}``."""
        final = None
        if self.final_net is not None and self.last_trick is not None:
            lt = self.last_trick
            final = {
                "winner": lt.winner,
                "group": lt.group.value,
                "multiplier": self.final_multiplier,
                "factors": list(self.final_factors),
                "catch": lt.is_catch,
                "transfers": [t.to_json() for t in self.final_transfers],
                "net": list(self.final_net),
            }
        return {
            "net": list(self.net),
            "immediate": [
                {"winner": e.winner, "group": e.group.value, "trick": e.trick, "net": list(n)} for e, n in self.immediate
            ],
            "immediate_net": list(self.immediate_net),
            "final": final,
            "columns": list(self.columns) if self.columns is not None else None,
            "next_banker": self.next_banker,
        }


def immediate_payment(event: ImmediateEvent, banker: int, options: Options = DEFAULT_OPTIONS) -> list[int]:
    """Per-seat net of one immediate payment (winner +, each opponent -)."""
    base = options.supreme_payment if event.group is ImmediateGroup.SUPREME else options.quartet_payment
    net = [0, 0, 0, 0]
    for seat in SEATS:
        if seat == event.winner:
            continue
        amount = base * (2 if options.immediate_banker_double and banker in (seat, event.winner) else 1)
        net[seat] -= amount
        net[event.winner] += amount
    return net


def final_transfers(banker: int, columns: list[int], last: LastTrick, options: Options = DEFAULT_OPTIONS) -> tuple[list[Transfer], tuple[str, ...], int]:
    """The final settlement's transfers, the names of the deal-wide multipliers and their product.

    ``columns``: four ints summing to 8; ``last``: the last trick. Rule source: module docstring.
    """
    winner = last.winner
    factors: list[str] = []
    multiplier = 1
    if last.group is not LastTrickGroup.ORDINARY and options.last_trick_multiplier != 1:
        factors.append(f"last_{last.group.value}")
        multiplier *= options.last_trick_multiplier
    if columns[winner] == 8 and options.sweep_multiplier != 1:
        factors.append("sweep")
        multiplier *= options.sweep_multiplier
    owed: dict[int, Transfer] = {}
    transfers: list[Transfer] = []
    for seat in SEATS:
        if seat == winner:
            continue
        c = columns[seat]
        if c == 0:
            base = options.zero_column_payment
        elif c < options.par_columns:
            base = options.par_columns - c
        elif options.winner_pays_surplus:
            base = -(c - options.par_columns)
        else:
            base = 0
        if base == 0:
            continue
        seat_factors = list(factors)
        amount = abs(base) * multiplier
        if options.banker_double and banker in (seat, winner):
            seat_factors.insert(0, "banker")
            amount *= 2
        if base > 0:
            t = Transfer(seat, winner, amount, base, tuple(seat_factors))
            owed[seat] = t
        else:
            t = Transfer(winner, seat, amount, -base, tuple(seat_factors))
        transfers.append(t)
    if options.little_three_catch and last.is_catch and last.leader is not None:
        caught = last.leader
        moved: list[Transfer] = []
        for t in transfers:
            if t.payer in owed and t.payer != caught and t is owed[t.payer]:
                extra = ("catch",) + ((f"x{options.catch_multiplier}",) if options.catch_multiplier != 1 else ())
                moved.append(Transfer(caught, winner, t.amount * options.catch_multiplier, t.base, t.factors + extra, on_behalf_of=t.payer))
            else:
                moved.append(t)
        transfers = moved
    return transfers, tuple(factors), multiplier


def settle(
    banker: int,
    columns: list[int] | None,
    last_trick: LastTrick | None,
    immediate: list[ImmediateEvent],
    options: Options = DEFAULT_OPTIONS,
) -> Settlement:
    """Compute every payment of a deal (inputs assumed valid; :func:`engines.tiengow.commands.settle_command`
    validates JSON). ``columns`` and ``last_trick`` are both ``None`` for immediate payments only."""
    result = Settlement(banker=banker, columns=list(columns) if columns is not None else None, last_trick=last_trick)
    final: list[int] | None = None
    if columns is not None and last_trick is not None:
        transfers, factors, multiplier = final_transfers(banker, columns, last_trick, options)
        final = [0, 0, 0, 0]
        for t in transfers:
            final[t.payer] -= t.amount
            final[t.payee] += t.amount
        result.final_transfers = transfers
        result.final_factors = factors
        result.final_multiplier = multiplier
        result.final_net = final
    scale = result.final_multiplier if options.multiply_immediate else 1
    for event in immediate:
        net = [amount * scale for amount in immediate_payment(event, banker, options)]
        result.immediate.append((event, net))
        result.immediate_net = [a + b for a, b in zip(result.immediate_net, net, strict=True)]
    result.net = list(result.immediate_net)
    if final is not None:
        result.net = [a + b for a, b in zip(result.net, final, strict=True)]
    return result
