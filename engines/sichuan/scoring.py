"""Sichuan bloody battle: one hand's fan (command ``score-hand``), docs/engines/sichuan.md and
the Sichuan rule text section 4 ("Winnende handen en puntenpatronen") and 5 ("Puntentelling").

Fan items (identifier: fan):
``all_pungs`` 1, ``seven_pairs`` 2, ``outside_hand`` 2 (every set and the pair contain a 1 or 9),
``all_258_pungs`` 3 (every set a pung/kong of 2, 5 or 8 and the pair too; replaces all pungs),
``full_flush`` 2, ``gold_hook`` 1 (single-pair wait with four declared melds), ``root`` +1 per
tile kind with all four copies in the final hand (kongs included), ``kong_replacement`` 1
(self-draw on one's own replacement tile), ``robbed_kong`` 1, ``last_tile`` 1 (self-draw of the
last wall tile or a win on the final discard). A basic hand is 0 fan. The reading with the most
(raw) fan is scored. Base = 2^min(fan, 5) (32 at the cap); a self-draw pays base + 1 per opponent.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.errors import Collector, RuleViolation
from engines.i18n import _
from engines.mahjong.hand import (
    Decomposition,
    check_counts,
    count_tiles,
    decompositions,
    decompositions_of_counts,
    is_winning_counts,
    waits,
)
from engines.mahjong.melds import Meld, MeldKind, parse_meld
from engines.mahjong.tiles import TILES, Suit, Tile, format_tiles, parse_tile, parse_tiles
from engines.sichuan.options import DEFAULT as DEFAULT_OPTIONS
from engines.sichuan.options import resolve

__all__ = [
    "HOWS", "VOID_SUITS", "HandScore", "SichuanHand", "Win", "evaluate", "hand_waits", "parse_hand", "ready_check", "require_winning",
    "score_hand", "value_of",
]

HOWS = ("discard", "self", "rob_added_kong")
"""How a hand is won: on a discard, by self-draw, or by robbing an added kong."""

VOID_SUITS = ("m", "p", "s")
"""The suits a player can declare void: m (characters), p (dots), s (bamboo)."""
_PATTERNS = ("all_pungs", "all_258_pungs", "seven_pairs", "outside_hand", "full_flush")
_VOID: dict[str, Suit] = {name: Suit(name) for name in VOID_SUITS}


@dataclass(frozen=True, slots=True)
class Win:
    """The winning tile and how it was won (``how`` in :data:`HOWS`)."""

    tile: Tile
    how: str
    after_kong: bool = False
    last_tile: bool = False


@dataclass(frozen=True, slots=True)
class SichuanHand:
    """A validated hand: ``void`` suit, declared ``melds``, ``concealed`` tiles (with the winning
    tile when ``win`` is set; without it for a waiting hand at wall exhaustion)."""

    void: Suit
    melds: tuple[Meld, ...]
    concealed: tuple[Tile, ...]
    win: Win | None = None

    @property
    def holds_void(self) -> bool:
        """True if a tile of the void suit is still in hand or melds (a flower pig at exhaustion)."""
        return any(t.suit is self.void for t in self.concealed) or any(m.tile.suit is self.void for m in self.melds)


@dataclass(slots=True)
class HandScore:
    """The best reading of a winning hand: ``fan_items`` (identifier -> fan, in rule-text order),
    ``fan_raw`` (their sum), ``fan`` (capped), ``base`` (2^fan), ``reading`` (description)."""

    fan_items: dict[str, int]
    fan_raw: int
    fan: int
    base: int
    reading: dict[str, Any] = field(default_factory=dict)


#: The fields of a hand and of its win; any other is refused.
HAND_KEYS = frozenset({"void", "melds", "concealed", "win"})
WIN_KEYS = frozenset({"tile", "how", "after_kong", "last_tile"})


def _fail(field_name: str, template: str, **params: Any) -> None:
    errors = Collector()
    errors.add(field_name, template, **params)
    errors.raise_if_any()


def parse_hand(data: Any, prefix: str, *, winning: bool = True, allow_void: bool = False,
               options: dict[str, Any] | None = None) -> SichuanHand:
    """Validate and parse a hand object ``{"void", "melds", "concealed", "win"}``.

    ``prefix`` is put before every field name (``"events[2].hand."``). ``winning=False`` reads a
    waiting hand (no ``win``, 13 tiles + 1 per kong); ``allow_void`` accepts concealed void-suit
    tiles (a flower pig at exhaustion); a pung or kong of the void suit is never allowed ("Je kunt
    niet pung, kong of winnen", rule text section 2). Checks: known tiles, no honours, no chows among the melds (claimed
    chows are invalid in Sichuan), the void suit absent, the winning tile among the concealed
    tiles, tile counts (docs/engines/sichuan.md; a kong counts as one set), at most four copies of a tile,
    a kong replacement win needs a kong, a robbed kong's tile is held once. ``options`` (default
    preset if None) matters only for ``kong_as_two_pairs`` (seven pairs with declared kongs).
    Raises :class:`RuleViolation` listing every problem found.
    """
    errors = Collector()
    if not isinstance(data, dict):
        _fail(prefix.rstrip("."), _("A hand must be an object with void, melds, concealed and win."))
    # the ``score`` command's input is a hand plus its ``rules``
    errors.refuse_unknown(data, (HAND_KEYS if winning else HAND_KEYS - {"win"}) | ({"rules"} if not prefix else set()), prefix)
    void_raw = data.get("void")
    void: Suit | None = None
    if void_raw in VOID_SUITS:
        void = _VOID[void_raw]
    else:
        errors.add(f"{prefix}void", _("The void suit must be m (characters), p (dots) or s (bamboo), not {value!r}."), value=void_raw)
    melds: list[Meld] = []
    raw_melds = data.get("melds", [])
    if raw_melds is None:
        raw_melds = []
    if not isinstance(raw_melds, list):
        errors.add(f"{prefix}melds", _("Melds must be a list such as [\"pung 111m claimed\"]."))
        raw_melds = []
    for i, raw_meld in enumerate(raw_melds):
        try:
            meld = parse_meld(raw_meld, f"{prefix}melds[{i}]", honours=False)
        except RuleViolation as exc:
            errors.extend(exc)
            continue
        if meld.kind is MeldKind.chow:
            errors.add(f"{prefix}melds[{i}]", _("Sichuan has no chows: the claimed chow {meld} is not allowed."), meld=format_tiles(meld.tiles))
        melds.append(meld)
    concealed: list[Tile] = []
    if "concealed" not in data:
        errors.add(f"{prefix}concealed", _("The concealed tiles are missing."))
    else:
        try:
            concealed = parse_tiles(data["concealed"], f"{prefix}concealed", honours=False)
        except RuleViolation as exc:
            errors.extend(exc)
    win: Win | None = None
    if winning:
        win = _parse_win(data.get("win"), f"{prefix}win", errors)
    if errors:
        errors.raise_if_any()
    counted = Collector()
    check_counts(counted, concealed, melds, expected_sets=4, field_prefix=prefix, winning=winning)
    kongs = sum(1 for m in melds if m.kind is MeldKind.kong)
    seven_with_kongs = melds and len(concealed) == 14 - 4 * kongs - (0 if winning else 1)
    pairs_like = counted and len(melds) == kongs and all(c in (0, 2, 4) for c in count_tiles(concealed))
    for violation in counted.violations:
        if seven_with_kongs and "copies" not in violation.template:
            if (options or DEFAULT_OPTIONS)["kong_as_two_pairs"] and len(melds) == kongs:
                continue  # seven pairs with declared kongs as two pairs each
            if winning and pairs_like:
                errors.add(violation.field, _("A declared kong is never two pairs, so seven pairs has no melds: with {melds} meld(s) the concealed part must be {sets} sets and a pair ({expected} tiles)."),
                           melds=len(melds), sets=4 - len(melds), expected=3 * (4 - len(melds)) + 2)
                continue
        errors.append(violation)
    errors.more += counted.more
    assert void is not None
    if allow_void:
        for i, meld in enumerate(melds):
            if meld.tile.suit is void:
                errors.add(f"{prefix}melds[{i}]", _("A player cannot pung or kong the void suit ({suit}), but this meld is {meld}."),
                           suit=void.value, meld=str(meld))
    else:
        held = [t for t in concealed if t.suit is void]
        if held:
            errors.add(f"{prefix}concealed", _("The void suit ({suit}) must be absent from a winning hand, but it holds {tiles}."),
                       suit=void.value, tiles=format_tiles(held))
        for i, meld in enumerate(melds):
            if meld.tile.suit is void:
                errors.add(f"{prefix}melds[{i}]", _("The void suit ({suit}) must be absent, but this meld is {meld}."),
                           suit=void.value, meld=str(meld))
        if win is not None and win.tile.suit is void:
            errors.add(f"{prefix}win.tile", _("The winning tile {tile} is of the void suit."), tile=str(win.tile))
    if win is not None:
        if win.tile not in concealed:
            errors.add(f"{prefix}win.tile", _("The winning tile {tile} must be among the concealed tiles (concealed includes the winning tile)."),
                       tile=str(win.tile))
        if win.after_kong and win.how == "self" and not any(m.kind is MeldKind.kong for m in melds):
            errors.add(f"{prefix}win.after_kong", _("A win on a kong replacement tile needs a kong among the melds."))
        if win.how == "rob_added_kong":
            held = sum(1 for t in concealed if t == win.tile) + sum(1 for m in melds for t in m.tiles if t == win.tile)
            if held > 1:
                errors.add(f"{prefix}win.tile", _("Robbing an added kong of {tile} takes its fourth copy; the other three are in the robbed pung, so the hand can hold only one {tile}."),
                           tile=str(win.tile))
    errors.raise_if_any()
    return SichuanHand(void, tuple(melds), tuple(concealed), win)


def _parse_win(raw: Any, prefix: str, errors: Collector) -> Win | None:
    if not isinstance(raw, dict):
        errors.add(prefix, _("Say how the hand was won: {{\"tile\": \"5p\", \"how\": \"discard\"}}."))
        return None
    errors.refuse_unknown(raw, WIN_KEYS, f"{prefix}.")
    tile: Tile | None = None
    try:
        tile = parse_tile(raw.get("tile"), f"{prefix}.tile", honours=False)
    except RuleViolation as exc:
        errors.extend(exc)
    how = raw.get("how")
    if how not in HOWS:
        errors.add(f"{prefix}.how", _("How the hand was won must be one of {allowed}, not {value!r}."), allowed=", ".join(HOWS), value=how)
    flags = {}
    for name in ("after_kong", "last_tile"):
        value = raw.get(name, False)
        if value is None:
            value = False
        if not isinstance(value, bool):
            errors.add(f"{prefix}.{name}", _("{name} must be true or false, not {value!r}."), name=name, value=value)
        flags[name] = bool(value)
    if tile is None or how not in HOWS:
        return None
    return Win(tile, how, flags["after_kong"], flags["last_tile"])


# ---------------------------------------------------------------------------------------------
# Fan

def _seven_pairs_possible(counts: list[int], melds: tuple[Meld, ...], options: dict[str, Any]) -> bool:
    if 1 in counts or 3 in counts:  # an odd count: never pairs only
        return False
    allowed = (0, 2, 4) if options["four_as_two_pairs"] else (0, 2)
    if melds:
        if not options["kong_as_two_pairs"] or any(m.kind is not MeldKind.kong for m in melds):
            return False
        if not all(c in allowed for c in counts) or sum(counts) != 14 - 4 * len(melds):
            return False
        held = {t.index for t in TILES if counts[t.index]}
        return options["four_as_two_pairs"] or not any(m.tile.index in held for m in melds)
    return sum(counts) == 14 and all(c in allowed for c in counts)


def _standard_readings(concealed: tuple[Tile, ...] | list[Tile], melds: tuple[Meld, ...], options: dict[str, Any]) -> list[Decomposition]:
    readings = decompositions(concealed, 4 - len(melds))
    if not options["concealed_chows"]:
        readings = [d for d in readings if all(k is not MeldKind.chow for k, _t in d.sets)]
    return readings


def _pattern_items(sets: list[tuple[MeldKind, Tile]], pair: Tile | None, one_suit: bool, options: dict[str, Any]) -> dict[str, int]:
    """Pattern fan of one reading (``pair`` None = seven pairs)."""
    items: dict[str, int] = {}
    if pair is not None:
        if all(k is not MeldKind.chow for k, _t in sets):
            all_258 = all(t.number in (2, 5, 8) for _k, t in sets) and (
                pair.number in (2, 5, 8) or not options["all_258_pair_required"])
            if all_258:
                if not options["all_258_replaces_all_pungs"]:
                    items["all_pungs"] = 1
                items["all_258_pungs"] = 3
            else:
                items["all_pungs"] = 1
        outside = (pair.number in (1, 9) or options["outside_hand"] == "every_set") and all(
            (t.number in (1, 7)) if k is MeldKind.chow else (t.number in (1, 9)) for k, t in sets)
        if outside:
            items["outside_hand"] = 2
    else:
        items["seven_pairs"] = 2
    if one_suit:
        items["full_flush"] = 2
    if not options["patterns_add_up"] and len(items) > 1:
        best = max(items, key=lambda k: items[k])
        items = {best: items[best]}
    return items


def evaluate(hand: SichuanHand, options: dict[str, Any], *, situational: bool = True) -> HandScore | None:
    """The best-scoring reading of a complete hand (concealed includes the winning tile), or None
    if the tiles are not a winning hand. ``situational=False`` leaves out kong replacement, robbed
    kong and last tile (used for the ready-hand check at wall exhaustion). docs/engines/sichuan.md.
    """
    melds = hand.melds
    concealed_counts = count_tiles(hand.concealed)
    counts = list(concealed_counts)
    for meld in melds:
        for tile in meld.tiles:
            counts[tile.index] += 1
    readings = decompositions_of_counts(concealed_counts, 4 - len(melds))
    if not options["concealed_chows"]:
        readings = [d for d in readings if all(k is not MeldKind.chow for k, _t in d.sets)]
    seven = _seven_pairs_possible(concealed_counts, melds, options)
    if not readings and not seven:
        return None
    one_suit = sum(1 for off in (0, 9, 18) if any(counts[off:off + 9])) == 1
    common: dict[str, int] = {}
    if len(melds) == 4 and options["gold_hook"]:
        common["gold_hook"] = options["gold_hook"]
    if 4 in counts:
        kong_kinds = {m.tile.index for m in melds if m.kind is MeldKind.kong}
        roots = sum(1 for i, c in enumerate(counts) if c == 4 and (options["root_includes_kongs"] or i not in kong_kinds))
        if roots:
            common["root"] = roots
    win = hand.win
    if situational and win is not None:
        if win.after_kong and (win.how == "self" or (win.how == "discard" and options["kong_replacement_on_discard"])):
            common["kong_replacement"] = 1
        if win.how == "rob_added_kong":
            common["robbed_kong"] = 1
        if win.last_tile and (win.how == "self" or (win.how == "discard" and options["last_tile_on_discard"])):
            common["last_tile"] = 1
    meld_sets = [(m.kind, m.tile) for m in melds]
    cap = options["fan_cap"]
    best: tuple[int, dict[str, int], Decomposition | None] | None = None
    candidates: list[tuple[dict[str, int], Decomposition | None]] = [
        (_pattern_items(meld_sets + list(d.sets), d.pair, one_suit, options), d) for d in readings]
    if seven:
        candidates.append((_pattern_items([], None, one_suit, options), None))
    for items, reading in candidates:
        full = {**items, **common}
        raw = sum(full.values())
        if best is None or raw > best[0]:
            best = (raw, full, reading)
    assert best is not None
    raw, full, chosen = best
    fan = raw if cap is None else min(raw, cap)
    sets = [str(m) for m in melds]
    if chosen is not None:
        description = {"kind": "standard", "sets": sets + chosen.describe()}
    else:
        pairs = [format_tiles([TILES[i]] * 2) for i, c in enumerate(concealed_counts) for _n in range(c // 2)]
        description = {"kind": "seven_pairs", "sets": sets + [f"pair {p}" for p in pairs]}
    return HandScore(full, raw, fan, 2 ** fan, description)


def value_of(score: HandScore, options: dict[str, Any], *, how: str) -> int:
    """What each payer pays for ``score``: base on a discard or robbed kong, base + self-draw bonus
    (1) on a self-draw (docs/engines/sichuan.md: 33 at the cap)."""
    return score.base + (options["self_draw_bonus"] if how == "self" else 0)


def _complete(concealed: list[Tile], melds: tuple[Meld, ...], options: dict[str, Any]) -> bool:
    counts = count_tiles(concealed)
    if options["concealed_chows"]:
        if is_winning_counts(counts, 4 - len(melds)):
            return True
    elif _standard_readings(concealed, melds, options):
        return True
    return _seven_pairs_possible(counts, melds, options)


def hand_waits(void: Suit, melds: tuple[Meld, ...], waiting: list[Tile], options: dict[str, Any]) -> list[Tile]:
    """Formal waits of a waiting hand (3n+1 concealed tiles): tile kinds outside the void suit,
    not already held four times (hand and melds), that complete it under ``options``."""
    if options["concealed_chows"] and not (melds and options["kong_as_two_pairs"]):
        found = waits(waiting, 4 - len(melds), seven_pairs=not melds, honours=False,
                      visible=[t for m in melds for t in m.tiles], four_as_two_pairs=options["four_as_two_pairs"])
        return [t for t in found if t.suit is not void]
    held = count_tiles(waiting, melds)
    out = []
    for tile in TILES[:27]:
        if tile.suit is void or held[tile.index] >= 4:
            continue
        if _complete([*waiting, tile], melds, options):
            out.append(tile)
    return out


def ready_check(hand: SichuanHand, options: dict[str, Any]) -> tuple[list[Tile], int | None]:
    """Ready-hand check at wall exhaustion (docs/engines/sichuan.md): the waits of a waiting hand and its
    highest win value 2^min(fan, cap) over them, without self-draw or situational fan (plus the
    self-draw bonus if ``ready_value_self_draw``). ``([], None)`` when not ready."""
    found = hand_waits(hand.void, hand.melds, list(hand.concealed), options)
    best: int | None = None
    for tile in found:
        complete = SichuanHand(hand.void, hand.melds, (*hand.concealed, tile), Win(tile, "discard"))
        score = evaluate(complete, options, situational=False)
        if score is None:  # pragma: no cover - a wait always completes
            continue
        value = value_of(score, options, how="self" if options["ready_value_self_draw"] else "discard")
        best = value if best is None else max(best, value)
    return found, best


def score_hand(data: dict[str, Any]) -> dict[str, Any]:
    """Command ``score-hand`` (docs/engines/sichuan.md).

    Input: ``{"void": "s", "melds": ["pung 111m claimed", ...], "concealed": "123m 456m 55p ...",
    "win": {"tile": "5p", "how": "discard"|"self"|"rob_added_kong", "after_kong": bool,
    "last_tile": bool}, "rules"?: ...}``.
    Output: ``{"fan_items": {name: fan}, "fan_raw", "fan", "base", "capped", "waits": ["2p", ...],
    "reading": {"kind", "sets"}, "each_pays", "payers", "rules"}``. ``each_pays`` is base, or base + 1
    on a self-draw; ``payers`` is ``"discarder"``, ``"robbed"`` or ``"each_active_opponent"``.
    Raises :class:`RuleViolation` for bad tiles, a void-suit tile, a claimed chow, a wrong tile
    count, a fifth copy, or tiles that are not a winning hand.
    """
    options = resolve(data.get("rules"))
    hand = parse_hand(data, "", options=options)
    score = require_winning(hand, options, "")
    assert hand.win is not None
    waiting = list(hand.concealed)
    waiting.remove(hand.win.tile)
    found = hand_waits(hand.void, hand.melds, waiting, options)
    how = hand.win.how
    return {
        "fan_items": score.fan_items,
        "fan_raw": score.fan_raw,
        "fan": score.fan,
        "base": score.base,
        "capped": score.fan < score.fan_raw,
        "waits": [str(t) for t in found],
        "reading": score.reading,
        "each_pays": value_of(score, options, how=how),
        "payers": {"discard": "discarder", "rob_added_kong": "robbed", "self": "each_active_opponent"}[how],
        "rules": options["preset"],
    }


def _not_winning(hand: SichuanHand, prefix: str) -> None:
    if hand.melds and all(c in (0, 2, 4) for c in count_tiles(hand.concealed)):
        _fail(f"{prefix}concealed", _("These tiles are not a winning hand: with melds they must be {sets} sets and a pair; a declared kong is never two pairs and seven pairs has no melds."),
              sets=4 - len(hand.melds))
    _fail(f"{prefix}concealed", _("These tiles are not a winning hand: they are neither {sets} sets and a pair nor seven pairs."),
          sets=4 - len(hand.melds))


def require_winning(hand: SichuanHand, options: dict[str, Any], prefix: str) -> HandScore:
    """The :func:`evaluate` score of ``hand``; raises :class:`RuleViolation` (field
    ``{prefix}concealed``) when it is not a winning hand."""
    score = evaluate(hand, options)
    if score is None:
        _not_winning(hand, prefix)
    assert score is not None
    return score
