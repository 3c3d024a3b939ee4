"""Random whole hands played by a random legal-move player (for property tests and benchmarks).

:func:`random_hand` deals a shuffled deck, optionally exchanges and calls, then lets random players
choose among the plays :func:`engines.taipan.combinations.plays` offers (honouring the wish), with
occasional out-of-turn bombs. It keeps its own simple bookkeeping of tricks and players out
(independent of :mod:`engines.taipan.replay`) and returns the ``replay`` input, the result it
expects (``first_out``, ``out_order``, ``double_victory``, ``card_points``) and, for every play or
pass, the ``play`` command input that judged it.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engines.taipan.cards import DECK, DRAGON, MAHJONG, PHOENIX, Card
from engines.taipan.combinations import Combination, CombinationType, HandIndex, plays
from engines.taipan.rules import PRESETS

ORDER = ("N", "W", "S", "E")
TEAM = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
PARTNER_OF = {"N": "S", "S": "N", "E": "W", "W": "E"}


@dataclass
class Simulated:
    """A generated hand: ``replay_input``, ``expected`` result, and ``judged`` (one ``play``
    command input per play/pass event, with the event index)."""

    replay_input: dict[str, Any]
    expected: dict[str, Any]
    judged: list[tuple[int, dict[str, Any]]] = field(default_factory=list)


def _table_json(combo: Combination | None) -> dict[str, Any] | None:
    if combo is None:
        return None
    out: dict[str, Any] = {"cards": [c.code for c in combo.cards]}
    if combo.phoenix_as is not None:
        out["phoenix_as"] = combo.phoenix_as
    return out


def random_hand(rng: random.Random, *, preset: str = "nskt", exchange: bool = True, calls: bool = True,
                bomb_rate: float = 0.15, pass_rate: float = 0.35) -> Simulated:
    """Generate one whole legal hand with ``rng`` (see the module docstring)."""
    rules = PRESETS[preset]
    deck = list(DECK)
    rng.shuffle(deck)
    deal = {seat: deck[i * 14:(i + 1) * 14] for i, seat in enumerate(("N", "E", "S", "W"))}
    hands = {s: set(cs) for s, cs in deal.items()}
    data: dict[str, Any] = {"rules": preset, "deal": {s: [c.code for c in cs] for s, cs in deal.items()}}
    if exchange:
        ex: dict[str, dict[str, str]] = {}
        moves = []
        for seat in ("N", "E", "S", "W"):
            gifts = rng.sample(sorted(hands[seat]), 3)
            others = [s for s in ("N", "E", "S", "W") if s != seat]
            ex[seat] = {o: c.code for o, c in zip(others, gifts, strict=True)}
            moves += [(seat, o, c) for o, c in zip(others, gifts, strict=True)]
        for seat, _o, c in moves:
            hands[seat].discard(c)
        for _s, other, c in moves:
            hands[other].add(c)
        data["exchange"] = ex
    made_calls: dict[str, str] = {}
    late_callers: list[str] = []
    if calls:
        for seat in ("N", "E", "S", "W"):
            roll = rng.random()
            if roll < 0.05 and rules["grand_allowed"]:
                made_calls[seat] = "grand_tai_pan"
            elif roll < 0.12:
                made_calls[seat] = "tai_pan"
            elif roll < 0.17:
                late_callers.append(seat)
    data["calls"] = dict(made_calls)
    events: list[dict[str, Any]] = []
    judged: list[tuple[int, dict[str, Any]]] = []
    out: list[str] = []
    won = {s: [] for s in ORDER}
    played: set[str] = set()
    turn = next(s for s in ORDER if MAHJONG in hands[s])
    table: Combination | None = None
    owner: str | None = None
    trick: list[Card] = []
    passes = 0
    wish: int | None = None
    dv: str | None = None

    def is_in(seat: str) -> bool:
        return seat not in out

    def after(seat: str) -> str:
        i = ORDER.index(seat)
        for k in range(1, 5):
            if is_in(ORDER[(i + k) % 4]):
                return ORDER[(i + k) % 4]
        return seat

    def give_trick(winner: str, last: bool) -> None:
        nonlocal trick
        if table is not None and table.type is CombinationType.SINGLE and DRAGON in table.cards and (not last or rules["dragon_last_trick"]):
            to = rng.choice([s for s in ORDER if TEAM[s] != TEAM[winner]])
            events.append({"seat": winner, "action": "gift", "to": to})
            won[to].extend(trick)
        else:
            won[winner].extend(trick)
        trick = []

    while True:
        for seat in list(late_callers):  # a late Tai Pan before the first card, now and then
            if seat not in played and rng.random() < 0.3:
                events.append({"seat": seat, "action": "call"})
                made_calls[seat] = "tai_pan"
                late_callers.remove(seat)
        # an out-of-turn bomb now and then
        if table is not None and table.type is not CombinationType.DOG and rng.random() < bomb_rate:
            bombers = [s for s in ORDER if is_in(s) and s != turn]
            rng.shuffle(bombers)
            bombed = False
            for s in bombers:
                options = [c for c in plays(hands[s], table) if c.is_bomb]
                if options:
                    combo = rng.choice(options)
                    judged.append((len(events), {"current": _table_json(table), "play": [c.code for c in combo.cards],
                                                 "hand": [c.code for c in sorted(hands[s])], "wish": wish,
                                                 "in_turn": False, "rules": preset}))
                    events.append({"seat": s, "action": "bomb", "cards": [c.code for c in combo.cards]})
                    seat, bombed = s, True
                    break
            if not bombed:
                seat = None
        else:
            seat = None
        if seat is None:
            seat = turn
            index = HandIndex(hands[seat])
            options = list(plays(index, table))
            must = wish is not None and any(c.has_rank(wish) for c in options)
            if must:
                options = [c for c in options if c.has_rank(wish) or (c.is_bomb and rules["in_turn_bomb_ignores_wish"])]
            context = {"current": _table_json(table), "hand": [c.code for c in sorted(hands[seat])], "wish": wish,
                       "in_turn": True, "rules": preset}
            can_pass = table is not None and not must
            if can_pass and (not options or rng.random() < pass_rate):
                judged.append((len(events), {**context, "play": []}))
                events.append({"seat": seat, "action": "pass"})
                passes += 1
                others = [s for s in ORDER if is_in(s) and s != owner]
                if passes >= len(others):
                    winner = owner
                    give_trick(winner, False)
                    table, owner, passes = None, None, 0
                    turn = winner if is_in(winner) else after(winner)
                else:
                    turn = after(seat)
                continue
            non_bombs = [c for c in options if not c.is_bomb]
            combo = rng.choice(non_bombs if non_bombs and rng.random() < 0.9 else options)
            judged.append((len(events), {**context, "play": [c.code for c in combo.cards]}))
            event: dict[str, Any] = {"seat": seat, "action": "play", "cards": [c.code for c in combo.cards]}
            if PHOENIX in combo.cards and combo.length > 1:
                event["phoenix_as"] = combo.phoenix_as
            events.append(event)
        else:
            combo = next(c for c in plays(hands[seat], table) if c.is_bomb and [x.code for x in c.cards] == events[-1]["cards"])
        # apply the play of `seat`
        if wish is not None and combo.has_rank(wish):
            wish = None
        if MAHJONG in combo.cards:
            wish = rng.choice([None] + list(range(2, 15)))
            events[-1]["wish"] = wish
        hands[seat] -= set(combo.cards)
        played.add(seat)
        trick.extend(combo.cards)
        table, owner, passes = combo, seat, 0
        if not hands[seat]:
            out.append(seat)
        if len(out) == 2 and TEAM[out[0]] == TEAM[out[1]]:
            dv = TEAM[out[0]]
            break
        if combo.type is CombinationType.DOG:
            won[seat].extend(trick)
            trick, table, owner = [], None, None
            partner = PARTNER_OF[seat]
            turn = partner if is_in(partner) else after(partner)
            if len(out) == 3:
                break
            continue
        if len(out) == 3:
            give_trick(seat, True)
            break
        turn = after(seat)
    data["events"] = events
    data["calls"] = {s: c for s, c in made_calls.items() if not any(e.get("action") == "call" and e["seat"] == s for e in events)}
    if dv:
        expected = {"first_out": out[0], "out_order": list(out), "double_victory": dv, "card_points": None}
    else:
        tail = next(s for s in ORDER if is_in(s))
        won[out[0]].extend(won.pop(tail))
        points = {"NS": 0, "EW": 0}
        for s, cs in won.items():
            points[TEAM[s]] += sum(c.points for c in cs)
        points["EW" if TEAM[tail] == "NS" else "NS"] += sum(c.points for c in hands[tail])
        expected = {"first_out": out[0], "out_order": out + [tail], "double_victory": None, "card_points": points}
    expected["calls"] = dict(made_calls)
    return Simulated(data, expected, judged)
