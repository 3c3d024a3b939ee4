"""The ``score`` command of the Taiwanese 16-tile engine (docs/engines/taiwanese.md, the Taiwanese rule text).

Input::

    {"round_wind": "E", "dealer": "E", "streak": 0, "seat": "S",
     "flowers": ["fl2", "se2"], "melds": ["pung 555z claimed", "kong 1111s exposed"],
     "concealed": "123p 456p 789p 222p 99p",            # includes the winning tile
     "win": {"tile": "6p", "how": "discard"|"self"|"rob_added_kong"|"eight_flowers"|"seven_rob_one",
             "discarder": "N", "robbed": "N", "after_kong": false, "last_wall_tile": false,
             "last_discard": false},
     "flags": ["heavenly_hand"|"earthly_hand"|"heavenly_ready"|"earthly_ready"],
     "rules": {"base": 3, "per_tai": 2, "cap": null}}

A winning hand is five sets and a pair: the melds (a kong counts as one set) plus the concealed
tiles, so ``len(concealed) == 17 - 3 * len(melds)``. For the flower wins (七搶一, 八朵花) the
concealed tiles are the 16 - 3 * len(melds) tiles held, ``flowers`` lists all eight flowers after the
win and ``win.tile`` is the flower that completed them.

Output::

    {"tai_items": {"half_flush": 4, ...}, "tai_raw": 6, "tai": 6, "dealer_tai": 1,
     "pay": {"W": 15, "N": 15, "E": 17}, "winner_total": 47, "waits": ["3p", "6p"],
     "payments": [{"from": "W", "to": "S", "tai": 6, "dealer_tai": 0, "amount": 15}, ...],
     "net": {"E": -17, "S": 47, "W": -15, "N": -15}, "winner": "S", "seat_wind": "S",
     "decomposition": {"sets": ["pung 555z claimed", "chow 123p", ...], "pair": "99p"} | null,
     "rules": {...}}

``tai`` is the hand tai after the cap; ``dealer_tai`` (1 + 2N) is the dealer tai used in the
payments that involve the dealer (0 when the dealer neither wins nor pays). Each payer pays
``base + per_tai * (tai + dealer tai if the payment is between the dealer and the winner)``.
The decomposition (and the set the winning tile completes) giving the most tai is scored.
Every problem with the input is reported as a :class:`engines.errors.RuleViolation`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.errors import Collector, RuleViolation, Violation
from engines.i18n import _
from engines.mahjong.hand import check_counts, count_tiles, decompositions, waits
from engines.mahjong.melds import Exposure, Meld, MeldKind, parse_meld
from engines.mahjong.tiles import TILES, Tile, format_tiles, parse_tile, parse_tiles
from engines.taiwanese.dealer import SEATS, dealer_tai
from engines.taiwanese.options import resolve
from engines.taiwanese.patterns import (
    FLAGS,
    FLOWER_NAMES,
    HAND_FLAGS,
    ScoredSet,
    WinContext,
    flower_win_items,
    hand_items,
)

HOW = ("discard", "self", "rob_added_kong", "eight_flowers", "seven_rob_one")
FLOWER_WINS = ("eight_flowers", "seven_rob_one")
SETS_NEEDED = 5
INPUT_KEYS = {"round_wind", "dealer", "streak", "seat", "flowers", "melds", "concealed", "win", "flags", "rules"}
WIN_KEYS = {"tile", "how", "discarder", "robbed", "after_kong", "last_wall_tile", "last_discard"}

#: The payer of a win who cannot be its winner, by the input field naming them.
WINNER_PAYS = {
    "discarder": _("The winner cannot have discarded the winning tile."),
    "robbed": _("The winner cannot be the player robbed."),
}


@dataclass(frozen=True)
class ScoreInput:
    """A validated ``score`` input (seats are ``"E"``, ``"S"``, ``"W"``, ``"N"``)."""

    round_wind: str
    dealer: str
    streak: int
    seat: str
    seat_wind: str
    flowers: tuple[str, ...]
    melds: tuple[Meld, ...]
    concealed: tuple[Tile, ...]
    win_tile: Tile | None  # None for a flower win
    win_flower: str | None
    how: str
    payers: tuple[str, ...]
    after_kong: bool
    last_wall_tile: bool
    last_discard: bool
    flags: tuple[str, ...]


def score(data: dict[str, Any]) -> dict[str, Any]:
    """The ``score`` command: tai items, tai, dealer tai, payment per seat and waits of one win.

    Shapes: see the module docstring. Raises :class:`RuleViolation` listing every problem (unknown
    tile, wrong tile count, fifth copy, not a winning hand, bad seat/wind, inconsistent win).
    Source: the Taiwanese rule text (tai table, "Betalen: basis plus tai", dealer), docs/engines/taiwanese.md.
    """
    opts = resolve(data.get("rules"))
    if "tai" in data:
        return _quick_score(data, opts)
    hand = parse_input(data, opts)

    if hand.how in FLOWER_WINS:
        items = flower_win_items(hand.how, hand.flowers, _wind_number(hand.seat_wind), hand.flags, opts)
        waits_list = _waits(hand.concealed, hand.melds)
        shown = None
    else:
        items, shown, waits_list = best_items(hand, opts)
    out = settle_payments(hand.seat, hand.dealer, hand.streak, hand.payers, sum(items.values()), opts)
    return _output(items, out, [str(t) for t in waits_list], hand.seat_wind, shown, opts)


def _output(items: dict[str, int], out: dict[str, Any], waits_list: list[str], seat_wind: str, shown: dict[str, Any] | None,
            opts: dict[str, Any]) -> dict[str, Any]:
    """The ``score`` output in its documented key order (the module docstring)."""
    return {"tai_items": items, "tai_raw": out["tai_raw"], "tai": out["tai"], "dealer_tai": out["dealer_tai"],
            "pay": out["pay"], "winner_total": out["winner_total"], "waits": waits_list, "payments": out["payments"],
            "net": out["net"], "winner": out["winner"], "seat_wind": seat_wind, "decomposition": shown, "rules": opts}


def settle_payments(seat: str, dealer: str, streak: int, payers: tuple[str, ...], tai_raw: int,
                    opts: dict[str, Any]) -> dict[str, Any]:
    """The payments of a win worth ``tai_raw`` hand tai by ``seat``, paid by ``payers``: the cap
    (``cap``), the dealer tai 1 + 2N (``dealer_tai_per_streak``, N = ``streak``) in a payment
    between the dealer and the winner (``dealer_tai_scope``), each payment ``base + per_tai *
    counted tai`` (rule text "Betalen: basis plus tai"). Returns ``{"tai_raw", "tai",
    "dealer_tai", "pay": {seat: amount}, "winner_total", "payments", "net", "winner"}``."""
    cap = opts["cap"]
    tai = tai_raw if cap is None else min(tai_raw, cap)
    dtai = dealer_tai(streak, opts["dealer_tai_per_streak"])
    payments = []
    used_dealer_tai = 0
    for payer in payers:
        if opts["dealer_tai_scope"] == "dealer_wins_only":
            involved = seat == dealer
        else:
            involved = dealer in (payer, seat)
        extra = dtai if involved else 0
        counted = tai + extra
        if cap is not None and opts["cap_includes_dealer_tai"]:
            counted = min(tai_raw + extra, cap)
        if extra:
            used_dealer_tai = dtai
        amount = opts["base"] + opts["per_tai"] * counted
        payments.append({"from": payer, "to": seat, "tai": tai, "dealer_tai": extra, "amount": amount})
    pay = {p["from"]: p["amount"] for p in payments}
    winner_total = sum(pay.values())
    net = {s: 0 for s in SEATS}
    for p in payments:
        net[p["from"]] -= p["amount"]
    net[seat] = winner_total
    return {"tai_raw": tai_raw, "tai": tai, "dealer_tai": used_dealer_tai, "pay": pay, "winner_total": winner_total,
            "payments": payments, "net": net, "winner": seat}


#: The fields of a quick ``score`` input (the hand tai instead of the tiles) and of its win.
QUICK_KEYS = {"round_wind", "dealer", "streak", "seat", "tai", "win", "rules"}
QUICK_WIN_KEYS = {"how", "discarder", "robbed"}
#: The most hand tai a quick input may give (a typing error above it; the rule text's largest
#: items, 16 tai hands plus flowers, stay below).
QUICK_MAX_TAI = 100


def _quick_score(data: dict[str, Any], opts: dict[str, Any]) -> dict[str, Any]:
    """``score`` of a quick input ``{"seat", "tai", "win": {"how", "discarder"?|"robbed"?},
    "round_wind", "dealer", "streak", "rules"?}`` (docs/engines/taiwanese.md, "Quick entry"):
    the payments exactly as for a hand of ``tai`` hand tai; no tai items, waits or decomposition.
    Raises :class:`RuleViolation` listing every problem (tiles given too, unknown fields, bad
    seats, a payer that does not fit the way of winning, tai outside 0..QUICK_MAX_TAI)."""
    errors = Collector()
    tiles = sorted(data.keys() & {"flowers", "melds", "concealed", "flags"})
    if tiles:
        errors.add("tai", _("A win gives either its tiles ({fields}) or its tai (quick entry), not both."), fields=", ".join(tiles))
    errors.refuse_unknown(data, QUICK_KEYS | set(tiles))
    for key in ("round_wind", "dealer", "seat"):
        if data.get(key) not in SEATS:
            errors.add(key, _("{name} must be one of E, S, W, N, not {value!r}."), name=key, value=data.get(key))
    streak = data.get("streak", 0)
    if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
        errors.add("streak", _("The streak (times the dealer stayed) must be a whole number of at least 0, not {value!r}."), value=streak)
    tai = data.get("tai")
    if isinstance(tai, bool) or not isinstance(tai, int) or not 0 <= tai <= QUICK_MAX_TAI:
        errors.add("tai", _("The tai must be a whole number from 0 to {most}, not {value!r}."), most=QUICK_MAX_TAI, value=tai)
    win = data.get("win")
    if not isinstance(win, dict):
        errors.add("win", _("Give the win as an object such as {{\"how\": \"self\"}}."))
        errors.raise_if_any()
    errors.refuse_unknown(win, QUICK_WIN_KEYS, "win.")
    how = win.get("how")
    if how not in HOW:
        errors.add("win.how", _("The way of winning must be one of {allowed}, not {value!r}."), allowed=", ".join(HOW), value=how)
    seat = data.get("seat")
    payers = _payers(win, how, seat if seat in SEATS else None, errors)
    errors.raise_if_any()
    out = settle_payments(seat, data["dealer"], streak, payers, tai, opts)
    return _output({}, out, [], _seat_wind(seat, data["dealer"], opts), None, opts)



#: The input field naming who pays a win, by how it was won (a self-draw: every other seat pays).
PAYER_KEYS = {"discard": "discarder", "rob_added_kong": "robbed", "seven_rob_one": "robbed"}


def _payers(win: dict[str, Any], how: Any, seat: str | None, errors: Collector) -> tuple[str, ...]:
    """Who pays the win of ``seat`` (a seat, or ``None`` when the input's seat is not valid) won
    ``how``: the discarder or robbed player that ``win`` names (a seat other than the winner's;
    only the field that ``how`` has, docs/engines/taiwanese.md), else every other seat for a self-draw. The
    quick and full inputs share it; violations go to ``errors``, the payers found are returned
    (``()`` when they cannot be told)."""
    needed = PAYER_KEYS.get(how)
    for key in ("discarder", "robbed"):
        if key != needed and win.get(key) is not None:
            errors.add(f"win.{key}", _("A win by {how} has no {name}."), how=how, name=key)
    if needed:
        other = win.get(needed)
        if other not in SEATS:
            errors.add(f"win.{needed}", _("{name} must be one of E, S, W, N, not {value!r}."), name=needed, value=other)
        elif seat is not None and other == seat:
            errors.add(f"win.{needed}", WINNER_PAYS[needed])
        else:
            return (other,)
        return ()
    if seat is None:
        return ()
    return tuple(SEATS[(SEATS.index(seat) + k) % 4] for k in (1, 2, 3))


def _seat_wind(seat: str, dealer: str, opts: dict[str, Any]) -> str:
    if opts["seat_wind"] == "dealer_is_east":
        return SEATS[(SEATS.index(seat) - SEATS.index(dealer)) % 4]
    return seat


# --------------------------------------------------------------------------- scoring


def best_items(hand: ScoreInput, opts: dict[str, Any]) -> tuple[dict[str, int], dict[str, Any], list[Tile]]:
    """The tai items of the best decomposition of a complete hand, that decomposition, and the waits.

    Every decomposition of the concealed tiles into sets + pair is tried with every set (or the pair)
    the winning tile can have completed; the highest total tai wins (the first one on a tie).
    Raises :class:`RuleViolation` (field ``concealed``) when the tiles are no winning hand.
    """
    assert hand.win_tile is not None
    sets_needed = SETS_NEEDED - len(hand.melds)
    found = decompositions(list(hand.concealed), sets_needed)
    if not found:
        raise RuleViolation([_violation(
            "concealed",
            _("The concealed tiles {tiles} with the melds do not form five sets and a pair."),
            tiles=format_tiles(hand.concealed, sort=True),
        )])
    before = list(hand.concealed)
    before.remove(hand.win_tile)
    waits_list = _waits(tuple(before), hand.melds)
    meld_sets = [_meld_set(m) for m in hand.melds]
    win = hand.win_tile
    best: tuple[int, dict[str, int], dict[str, Any]] | None = None
    for deco in found:
        parts = [_set_parts(s) for s in deco.sets]
        pair = deco.pair
        # Where can the winning tile sit?  index into parts, or -1 for the pair.
        slots = [i for i, (_kind, tiles) in enumerate(parts) if win in tiles]
        if pair == win:
            slots.append(-1)
        for slot in slots:
            sets = list(meld_sets)
            for i, (kind, tiles) in enumerate(parts):
                completed_by_other = i == slot and hand.how in ("discard", "rob_added_kong")
                sets.append(ScoredSet(kind, tiles[0].suit.value, tiles[0].number, False,
                                      kind != "chow" and not completed_by_other))
            ctx = WinContext(
                how=hand.how,
                seat_wind=_wind_number(hand.seat_wind),
                round_wind=_wind_number(hand.round_wind),
                flowers=hand.flowers,
                waits=len(waits_list),
                shape_single=_shape_single(parts[slot] if slot >= 0 else None, win),
                after_kong=hand.after_kong,
                last_wall_tile=hand.last_wall_tile,
                last_discard=hand.last_discard,
                flags=hand.flags,
            )
            items = hand_items(sets, (pair.suit.value, pair.number), ctx, opts)
            total = sum(items.values())
            if best is None or total > best[0]:
                shown = {
                    "sets": [str(m) for m in hand.melds] + [f"{kind} {format_tiles(tiles)}" for kind, tiles in parts],
                    "pair": format_tiles([pair, pair]),
                    "winning_tile_in": "pair" if slot < 0 else f"{parts[slot][0]} {format_tiles(parts[slot][1])}",
                }
                best = (total, items, shown)
    assert best is not None
    return best[1], best[2], waits_list


def _set_parts(s: tuple[MeldKind, Tile]) -> tuple[str, tuple[Tile, ...]]:
    """(kind, tiles) of one set ``(MeldKind, first tile)`` of a core decomposition."""
    kind, tile = s
    if kind is MeldKind.chow:
        return kind.value, (tile, TILES[tile.index + 1], TILES[tile.index + 2])
    return kind.value, (tile,) * 3


def _meld_set(meld: Meld) -> ScoredSet:
    tile = meld.tile
    return ScoredSet(meld.kind.value, tile.suit.value, tile.number, meld.exposure is not Exposure.concealed,
                     meld.kind is not MeldKind.chow and meld.exposure is Exposure.concealed)


def _shape_single(part: tuple[str, tuple[Tile, ...]] | None, win: Tile) -> bool:
    """The winning tile completes a pair, the middle of a chow, or an edge (12-3 / 7-89)."""
    if part is None:
        return True
    kind, tiles = part
    if kind != "chow":
        return False
    if win == tiles[1]:
        return True
    return (win == tiles[2] and tiles[0].number == 1) or (win == tiles[0] and tiles[2].number == 9)


def _waits(concealed_before: tuple[Tile, ...], melds: tuple[Meld, ...]) -> list[Tile]:
    """Formal waits of the concealed tiles before the win (honours included, no seven pairs).

    docs/engines/taiwanese.md: single wait = exactly one formal wait before the win. A formal wait counts even
    when all four copies of the tile are the player's own (in the hand or the melds): ``11m 234m
    444m`` waiting on ``1m 234m 4444m`` waits on 1m and 4m, so winning on 1m is no single wait."""
    sets_needed = SETS_NEEDED - len(melds)
    if len(concealed_before) != 3 * sets_needed + 1:
        return []
    return sorted(waits(list(concealed_before), sets_needed, seven_pairs=False, honours=True, include_exhausted=True))


def _wind_number(wind: str) -> int:
    return SEATS.index(wind) + 1


def _violation(field: str, template: str, **params: Any) -> Violation:
    return Violation(field, template, params)


# --------------------------------------------------------------------------- input


def parse_input(data: dict[str, Any], opts: dict[str, Any]) -> ScoreInput:
    """Validate a ``score`` input and return it typed; raises :class:`RuleViolation` listing every problem.

    Checks: seats/winds are E/S/W/N; streak a whole number >= 0; flowers fl1..fl4/se1..se4 without
    repeats; melds and concealed tiles parse; 17 tiles (16 for a flower win) counting a kong as 3;
    at most four copies of a tile; the winning tile is among the concealed tiles; the discarder /
    robbed player is another seat; the win flags fit the way of winning; flags are known and fit.
    """
    errors = Collector()
    errors.refuse_unknown(data, INPUT_KEYS)

    def seat_field(name: str, required: bool = True) -> str | None:
        value = data.get(name)
        if value is None and not required:
            return None
        if value not in SEATS:
            errors.add(name, _("{name} must be one of E, S, W, N, not {value!r}."), name=name, value=value)
            return None
        return value

    round_wind = seat_field("round_wind")
    dealer = seat_field("dealer")
    seat = seat_field("seat")
    streak = data.get("streak", 0)
    if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
        errors.add("streak", _("The streak (times the dealer stayed) must be a whole number of at least 0, not {value!r}."), value=streak)
        streak = 0

    flowers = _parse_flowers(data.get("flowers", []), errors)
    melds: list[Meld] = []
    raw_melds = data.get("melds", [])
    if raw_melds is None:
        raw_melds = []
    if not isinstance(raw_melds, list):
        errors.add("melds", _("Melds must be a list such as [\"pung 111m claimed\"]."))
        raw_melds = []
    for i, text in enumerate(raw_melds):
        try:
            melds.append(parse_meld(text, f"melds[{i}]", honours=True))
        except RuleViolation as exc:
            errors.extend(exc)
    concealed: list[Tile] = []
    if "concealed" not in data:
        errors.add("concealed", _("Give the concealed tiles, including the winning tile."))
    else:
        try:
            concealed = parse_tiles(data["concealed"], "concealed", honours=True)
        except RuleViolation as exc:
            errors.extend(exc)

    win = data.get("win")
    if not isinstance(win, dict):
        errors.add("win", _("Give the win as an object such as {{\"tile\": \"5p\", \"how\": \"self\"}}."))
        errors.raise_if_any()
    errors.refuse_unknown(win, WIN_KEYS, "win.")
    how = win.get("how")
    if how not in HOW:
        errors.add("win.how", _("The way of winning must be one of {allowed}, not {value!r}."), allowed=", ".join(HOW), value=how)
        errors.raise_if_any()

    flags_in = data.get("flags", [])
    flags: list[str] = []
    if flags_in is None:
        flags_in = []
    if not isinstance(flags_in, list):
        errors.add("flags", _("Flags must be a list such as [\"heavenly_hand\"]."))
        flags_in = []
    for i, flag in enumerate(flags_in):
        if not isinstance(flag, str) or flag not in FLAGS:
            errors.add(f"flags[{i}]", _("Unknown flag {value!r}; known: {known}."), value=flag, known=", ".join(FLAGS))
        elif flag in flags:
            errors.add(f"flags[{i}]", _("The flag {value!r} is given twice."), value=flag)
        else:
            flags.append(flag)

    flags_bool = {}
    for key in ("after_kong", "last_wall_tile", "last_discard"):
        value = win.get(key, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            errors.add(f"win.{key}", _("{name} must be true or false, not {value!r}."), name=key, value=value)
            value = False
        flags_bool[key] = value

    # The winning tile.
    win_tile: Tile | None = None
    win_flower: str | None = None
    tile_text = win.get("tile")
    if how in FLOWER_WINS:
        if tile_text not in FLOWER_NAMES:
            errors.add("win.tile", _("For {how} the winning tile is the flower that completed the eight (fl1..fl4, se1..se4), not {value!r}."), how=how, value=tile_text)
        else:
            win_flower = tile_text
            if win_flower not in flowers:
                errors.add("win.tile", _("The winning flower {tile} must be among the flowers."), tile=win_flower)
        if len(flowers) != 8:
            errors.add("flowers", _("For {how} the flowers must list all eight flowers after the win; {count} given."), how=how, count=len(flowers))
    else:
        try:
            win_tile = parse_tile(tile_text if isinstance(tile_text, str) else "", "win.tile", honours=True)
        except RuleViolation as exc:
            errors.extend(exc)
        if win_tile is not None and concealed and win_tile not in concealed:
            errors.add("win.tile", _("The winning tile {tile} must be among the concealed tiles (they include the winning tile)."), tile=str(win_tile))
        if len(flowers) == 8:
            errors.add("flowers", _("With all eight flowers the hand is won at once: use how \"eight_flowers\" or \"seven_rob_one\"."))

    # Tile counts: five sets and a pair (17 tiles, a kong counting as one set); 16 for a flower win;
    # at most four copies of a tile across hand and melds.
    if "concealed" in data and (concealed or not errors):
        check_counts(errors, concealed, melds, expected_sets=SETS_NEEDED, winning=how not in FLOWER_WINS)
    counts = count_tiles(concealed, melds)
    if how == "rob_added_kong" and win_tile is not None and counts[win_tile.index] > 1:
        errors.add("win.tile", _("A robbed kong tile {tile} is the fourth copy: the other three are in the robbed player's pung, so the winner cannot hold another."), tile=str(win_tile))

    # Who pays.
    payers = _payers(win, how, seat, errors)

    # Situations.
    if flags_bool["after_kong"]:
        if how != "self":
            errors.add("win.after_kong", _("Winning on the replacement tile after a kong is a self-draw (how \"self\")."))
        elif not any(m.kind is MeldKind.kong for m in melds):
            errors.add("win.after_kong", _("Winning after a kong needs a kong among the melds."))
    if flags_bool["last_wall_tile"] and how != "self":
        errors.add("win.last_wall_tile", _("The last wall tile is a self-draw (how \"self\")."))
    if flags_bool["last_discard"] and how != "discard":
        errors.add("win.last_discard", _("The last discard is won on a discard (how \"discard\")."))
    open_melds = any(m.exposure is not Exposure.concealed for m in melds)
    hand_flags = [f for f in flags if f in HAND_FLAGS]
    ready_flags = [f for f in flags if f not in HAND_FLAGS]
    if len(hand_flags) + len(ready_flags) > 1:
        errors.add("flags", _("Only one of heavenly_hand, earthly_hand, heavenly_ready and earthly_ready can apply."))
    if flags and open_melds:
        errors.add("flags", _("{flag} needs a hand without claimed melds."), flag=flags[0])
    if "heavenly_hand" in flags and seat is not None and dealer is not None:
        if seat != dealer or how != "self":
            errors.add("flags", _("heavenly_hand is the dealer winning on the dealt tiles: the winner must be the dealer and how \"self\"."))
    if "earthly_hand" in flags and seat is not None and seat == dealer:
        errors.add("flags", _("earthly_hand is won by a player who is not the dealer."))
    if hand_flags and how in FLOWER_WINS:
        errors.add("flags", _("{flag} cannot go with a flower win."), flag=hand_flags[0])

    errors.raise_if_any()
    assert round_wind and dealer and seat
    seat_wind = _seat_wind(seat, dealer, opts)
    return ScoreInput(
        round_wind=round_wind, dealer=dealer, streak=streak, seat=seat, seat_wind=seat_wind,
        flowers=tuple(flowers), melds=tuple(melds), concealed=tuple(concealed), win_tile=win_tile,
        win_flower=win_flower, how=how, payers=payers, after_kong=flags_bool["after_kong"],
        last_wall_tile=flags_bool["last_wall_tile"], last_discard=flags_bool["last_discard"], flags=tuple(flags),
    )


def _parse_flowers(raw: Any, errors: Collector) -> list[str]:
    if raw is None:
        return []
    if not isinstance(raw, list):
        errors.add("flowers", _("Flowers must be a list such as [\"fl1\", \"se3\"]."))
        return []
    out: list[str] = []
    for i, name in enumerate(raw):
        key = name.lower() if isinstance(name, str) else name
        if key not in FLOWER_NAMES:
            errors.add(f"flowers[{i}]", _("Unknown flower {value!r}: flowers are fl1..fl4, seasons se1..se4."), value=name)
        elif key in out:
            errors.add(f"flowers[{i}]", _("There is only one {value}."), value=key)
        else:
            out.append(key)
    return sorted(out, key=FLOWER_NAMES.index)


__all__ = ["QUICK_MAX_TAI", "ScoreInput", "best_items", "parse_input", "score", "settle_payments"]
