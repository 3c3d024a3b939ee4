"""A simple random Tien Gow player: deals 32 tiles and plays a legal deal with random choices.

Used by property tests and benchmarks; deterministic for a given ``random.Random``. The simulator
tracks winners and columns itself (the Tien Gow rule text: leader plays any legal group, followers beat
face up or discard face down, early death on a last single trick) and settles at settlement level,
so its result can be compared with the ``deal`` command's derivation of the record.
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from engines.tiengow.groups import GroupKind, beats, legal_groups
from engines.tiengow.options import DEFAULT_OPTIONS, Options
from engines.tiengow.tiles import FULL_SET, LITTLE_THREE, TILES


@dataclass
class SimulatedDeal:
    """A generated deal: the ``record`` (``deal`` command input), the trick ``winners``, ``columns``,
    the settlement-level ``settle_input`` (``settle`` command input) and ``next_banker``."""

    record: dict[str, Any]
    winners: list[int] = field(default_factory=list)
    columns: list[int] = field(default_factory=lambda: [0, 0, 0, 0])
    settle_input: dict[str, Any] = field(default_factory=dict)
    next_banker: int = 0


def deal_hands(rng: random.Random) -> list[list[str]]:
    """Shuffle the 32 tiles and give eight to each of the four seats."""
    tiles = [code for code, n in sorted(FULL_SET.items()) for _ in range(n)]
    rng.shuffle(tiles)
    return [sorted(tiles[i * 8:(i + 1) * 8]) for i in range(4)]


def _take(hand: list[str], tiles: tuple[str, ...] | list[str]) -> None:
    for code in tiles:
        hand.remove(code)


def random_deal(
    rng: random.Random,
    *,
    banker: int | None = None,
    options: Options = DEFAULT_OPTIONS,
    beat_probability: float = 0.7,
    keep: frozenset[str] = frozenset(),
) -> SimulatedDeal:
    """Play one random legal deal. The leader picks a group size at random, then a group of that
    size. A follower able to beat does so face up with ``beat_probability``, otherwise discards
    random tiles face down (which is always legal). Tiles in ``keep`` (e.g. ``{"1-2", "2-4"}`` to
    provoke the Little-Three catch) are led or discarded only when nothing else is left."""
    hands = deal_hands(rng)
    if banker is None:
        banker = rng.randrange(4)
    remaining = [list(h) for h in hands]
    sim = SimulatedDeal(record={"banker": banker, "hands": hands, "tricks": []})
    immediate: list[dict[str, Any]] = []
    leader = banker
    last: dict[str, Any] = {}
    while remaining[leader]:
        groups = legal_groups([TILES[c] for c in remaining[leader]], options=options)
        spare = [g for g in groups if not keep.intersection(g.tiles)]
        groups = spare or groups
        size = rng.choice(sorted({g.size for g in groups}))
        lead = rng.choice([g for g in groups if g.size == size])
        n = lead.size
        is_last = len(remaining[leader]) == n
        dead = is_last and (options.early_death == "last_trick" or (options.early_death == "last_single" and n == 1))
        _take(remaining[leader], lead.tiles)
        plays = [{"seat": leader, "tiles": list(lead.tiles), "face_up": True}]
        current, holder = lead, leader
        for j in range(1, 4):
            seat = (leader + j) % 4
            hand = remaining[seat]
            beating = []
            if not (dead and sim.columns[seat] == 0):
                beating = [g for g in legal_groups([TILES[c] for c in hand], n, options) if beats(g, current)[0]]
            if beating and rng.random() < beat_probability:
                group = rng.choice(beating)
                tiles, face_up = list(group.tiles), True
                current, holder = group, seat
            else:
                spare = [c for c in hand if c not in keep]
                kept = [c for c in hand if c in keep]
                tiles = rng.sample(spare, n) if len(spare) >= n else spare + rng.sample(kept, n - len(spare))
                face_up = False
            _take(hand, tiles)
            plays.append({"seat": seat, "tiles": tiles, "face_up": face_up})
        sim.record["tricks"].append({"leader": leader, "plays": plays})
        sim.winners.append(holder)
        sim.columns[holder] += n
        if current.kind is GroupKind.SUPREME:
            kind = "supreme"
        elif n == 4:
            kind = "quartet"
        elif n == 1 and current.tiles[0] == LITTLE_THREE:
            kind = "little_three"
        else:
            kind = "ordinary"
        if kind in ("supreme", "quartet") and (not is_last or options.immediate_on_last_trick):
            immediate.append({"winner": holder, "group": kind})
        if is_last:
            last = {"winner": holder, "group": kind, "leader": leader,
                    "led_with": lead.tiles[0] if n == 1 else None,
                    "won_with": current.tiles[0] if n == 1 else None}
        leader = holder
    sim.next_banker = leader
    sim.settle_input = {"banker": banker, "columns": list(sim.columns), "last_trick": last,
                        "immediate": immediate, "rules": options.to_json()}
    return sim
