"""Sichuan bloody battle: settlement of one deal (command ``settle``), docs/engines/sichuan.md and
the Sichuan rule text sections 3 and 5.

Events are applied in order. A win on a discard is paid by the discarder (base), a robbed added
kong by the robbed player (base), a self-draw by each remaining opponent (base + 1). Several
players may win on one discard. Winners leave the deal and never pay later charges. Kongs: exposed
2 from the supplier, added 1 from each active opponent, concealed 2 from each active opponent; a
robbed added kong earns nothing. The deal ends when three players have won or at wall exhaustion:
the kong income of not-ready non-winners is refunded to its payers, a flower pig (still holding its
void suit) pays 32 to each active non-pig, and every other not-ready active player pays each ready
active player that player's highest win value (2^min(fan, 5), no self-draw or situational fan).

Consistency of one deal (every tile is physical, rule text sections 2 and 3):

- A player's final hand is the hand of their win or their hand at wall exhaustion. When it is
  given, the player's kong events must match the kongs among its melds one to one, by tile and
  kind (exposed/added/concealed). A robbed added kong never became a kong: the robbed player keeps
  the pung, so their final hand shows ``pung XXXx claimed`` for it (also for a robbed kong whose
  kong event was not entered).
- No player may pung or kong their void suit: a kong event in the void suit of the player's final
  hand is a violation (``events[i].tile``), and so is such a meld in an exhaustion hand.
- No tile kind may show more than four copies over all final hands and the kongs revealed in the
  deal (a kong event not found in a given hand, or by a player whose hand is not given, reveals
  four copies; a robbed added kong three). Players who win on the same discard (or rob the same
  kong) share that one winning tile.
- A deal has ended when ``max_winners`` players have won or the wall ran out (``exhaustion``).
  Decision: by default an unfinished deal is settled as far as it goes (the acceptance cases S02,
  S16-S19 and S21 are such deals and a referee may enter a deal in parts); the output's ``ended``
  says whether it is over, and the rules option ``require_deal_end`` rejects an unfinished deal
  (field ``exhaustion``).

Quick entry (:mod:`engines.sichuan.quick`, docs/engines/sichuan.md "Quick entry"): a win may
carry ``"fan"`` (its raw fan, 0..QUICK_MAX_FAN; the cap is applied as for a hand) instead of
``"hand"``; its payer and the winners' leaving are checked as for a hand. An exhaustion entry
without tiles is ``{}``, ``{"ready_fan": F}`` or ``{"flower_pig": true}``. A kong event may leave
out its tile only when no win or exhaustion entry of the deal gives tiles.
"""
from __future__ import annotations

from collections import defaultdict
from dataclasses import dataclass
from typing import Any

from engines.errors import Collector, RuleViolation
from engines.i18n import _
from engines.mahjong.melds import Meld, MeldKind
from engines.mahjong.tiles import Suit, Tile, parse_tile
from engines.sichuan.options import resolve
from engines.sichuan.quick import QuickEnd, check_fan, is_quick_end, parse_quick_end, quick_score
from engines.sichuan.scoring import (
    VOID_SUITS,
    HandScore,
    SichuanHand,
    parse_hand,
    ready_check,
    require_winning,
    value_of,
)

__all__ = ["KONG_KINDS", "settle"]

KONG_KINDS = ("exposed", "added", "concealed")
"""Kinds of kong in a ``kong`` event."""

_PAYMENT_KEY = {"exposed": "exposed_kong_payment", "added": "added_kong_payment", "concealed": "concealed_kong_payment"}


@dataclass(slots=True)
class _Kong:
    index: int
    player: str
    kind: str
    tile: Tile | None  # None: a kong entered without its tile (a quick deal)
    supplier: str | None


@dataclass(slots=True)
class _Win:
    index: int
    player: str
    how: str
    source: str | None
    hand: SichuanHand | None  # None: a quick win (its value entered as ``fan``)
    score: HandScore


@dataclass(slots=True)
class _Final:
    """A player's final hand as given (``hand`` None if it did not parse), where it is (``prefix``,
    ``order`` = event index, or after every event for exhaustion) and its void suit if readable."""

    hand: SichuanHand | None
    prefix: str
    order: int
    void: Suit | None


#: The fields of the ``settle`` input and of its events; any other is refused.
SETTLE_KEYS = frozenset({"players", "events", "exhaustion", "rules"})
EVENT_KEYS = {"kong": frozenset({"type", "player", "kind", "tile", "supplier"}),
              "win": frozenset({"type", "player", "discarder", "robbed", "hand", "fan"})}



#: What a player who has won and left the deal cannot do any more, by the role the input gives them.
LEFT_DEAL = {
    "player": _("{name} has already won and left the deal, so cannot win or declare a kong here."),
    "supplier": _("{name} has already won and left the deal, so cannot supply a kong here."),
    "discarder": _("{name} has already won and left the deal, so cannot have discarded the winning tile here."),
    "robbed player": _("{name} has already won and left the deal, so cannot be robbed of a kong here."),
}


def _players(raw: Any, errors: Collector) -> list[str]:
    if not isinstance(raw, list) or len(raw) != 4 or not all(isinstance(p, str) and p.strip() for p in raw):
        errors.add("players", _("Give the four players as a list of four names."))
        return []
    if len(set(raw)) != 4:
        errors.add("players", _("The four player names must be different."))
        return []
    return list(raw)


def _check_party(name: Any, field: str, players: list[str], won: list[str], errors: Collector, *, role: str) -> bool:
    if name not in players:
        errors.add(field, _("Unknown player {name!r}; the players are {players}."), name=name, players=", ".join(players))
        return False
    if name in won:
        errors.add(field, LEFT_DEAL[role], name=name)
        return False
    return True


def settle(data: dict[str, Any]) -> dict[str, Any]:
    """Command ``settle`` (docs/engines/sichuan.md).

    Input: ``{"players": [4 names], "events": [{"type": "kong", "player", "kind":
    "exposed"|"added"|"concealed", "tile" (left out only in a quick deal), "supplier"?}, {"type":
    "win", "player", "discarder"?|"robbed"?, "hand": {score-hand input} | "fan": int}],
    "exhaustion": null | {PLAYER: {"void", "concealed", "melds"} | {} | {"ready_fan": int} |
    {"flower_pig": true}}, "rules"?}``. ``exhaustion`` gives the waiting hand (13 tiles + 1 per
    kong) of every player still in the deal when the wall ran out.
    Output: ``{"payments": [{"from", "to", "amount", "reason", "event"}], "net": {PLAYER: points},
    "wins": [{"player", "how", "from", "fan", "fan_raw", "fan_items", "base", "each", "payers",
    "total"}], "kongs": [{"player", "kind", "tile", "robbed", "refunded", "income"}],
    "exhaustion": null | {PLAYER: {"flower_pig", "ready", "waits", "value"}}, "active", "ended",
    "rules"}``. ``ended``: ``max_winners`` players have won or the wall ran out.
    ``event`` is the index of the event that caused a payment (null for exhaustion payments).
    Payment reasons: ``win_discard``, ``robbed_kong``, ``self_draw``, ``kong_exposed``,
    ``kong_added``, ``kong_concealed``, ``kong_refund``, ``flower_pig``, ``not_ready``.
    Raises :class:`RuleViolation` listing every problem (fields such as ``events[1].hand.concealed``),
    including kong events that do not match the final hands, a kong of the void suit, more than four
    copies of a tile in the deal, and (option ``require_deal_end``) an unfinished deal.
    """
    options = resolve(data.get("rules"))
    errors = Collector()
    errors.refuse_unknown(data, SETTLE_KEYS)
    players = _players(data.get("players"), errors)
    events = data.get("events", [])
    if not isinstance(events, list):
        errors.add("events", _("Events must be a list."))
        events = []
    errors.raise_if_any()

    max_winners = options["max_winners"]
    won: list[str] = []
    parsed: list[_Kong | _Win] = []
    finals: dict[str, _Final] = {}
    for i, ev in enumerate(events):
        f = f"events[{i}]"
        if not isinstance(ev, dict):
            errors.add(f, _("Each event must be an object with a type (kong or win)."))
            continue
        if len(won) >= max_winners:
            errors.add(f, _("The deal ended when {count} players had won; no event may follow."), count=max_winners)
            break
        kind_of_event = ev.get("type")
        errors.refuse_unknown(ev, EVENT_KEYS.get(kind_of_event, {"type", "player"}), f"{f}.")
        player = ev.get("player")
        if not _check_party(player, f"{f}.player", players, won, errors, role="player"):
            continue
        if kind_of_event == "kong":
            kong = _parse_kong(ev, f, player, players, won, errors)
            if kong is not None:
                kong.index = i
                parsed.append(kong)
        elif kind_of_event == "win":
            win = _parse_win_event(ev, f, player, players, won, errors, options)
            finals[player] = _Final(win.hand if win is not None else None, f"{f}.hand.", i, _raw_void(ev.get("hand")))
            if win is not None:
                win.index = i
                previous = parsed[-1] if parsed else None
                if (not options["multiple_winners"] and win.how == "discard" and isinstance(previous, _Win)
                        and previous.how == "discard" and previous.source == win.source and previous.index == i - 1):
                    errors.add(f, _("Only one player may win on a discard under these rules."))
                parsed.append(win)
            won.append(player)
        else:
            errors.add(f"{f}.type", _("An event type must be kong or win, not {value!r}."), value=kind_of_event)

    exhaustion_raw = data.get("exhaustion")
    active_end = [p for p in players if p not in won]
    hands: dict[str, SichuanHand | QuickEnd] = {}
    if exhaustion_raw is not None:
        hands = _parse_exhaustion(exhaustion_raw, players, won, active_end, errors, options)
        if isinstance(exhaustion_raw, dict):
            for name in active_end:
                if name in exhaustion_raw and not is_quick_end(exhaustion_raw[name]):
                    hand = hands.get(name)
                    finals[name] = _Final(hand if isinstance(hand, SichuanHand) else None, f"exhaustion.{name}.", len(events),
                                          _raw_void(exhaustion_raw[name]))
    _check_kong_tiles(parsed, events, exhaustion_raw, errors)
    ended = len(won) >= max_winners or exhaustion_raw is not None
    if options["require_deal_end"] and not ended:
        errors.add("exhaustion", _("The deal has not ended: {count} player(s) have won and there is no wall exhaustion; give the hands of the players still in the deal when the wall ran out."),
                   count=len(won))
    _check_deal(players, parsed, finals, errors)
    errors.raise_if_any()
    out = _compute(players, parsed, hands, exhaustion_raw is not None, options)
    out["ended"] = ended
    return out


def _check_kong_tiles(parsed: list[_Kong | _Win], events: list[Any], exhaustion: Any, errors: Collector) -> None:
    """A kong may be entered without its tile only in a quick deal: one in which no win and no
    exhaustion entry gives tiles (there is nothing to check the kong against). Otherwise the
    tile is needed (field ``events[i].tile``)."""
    tiled = any(isinstance(ev, dict) and ev.get("type") == "win" and "fan" not in ev for ev in events)
    if isinstance(exhaustion, dict):
        tiled = tiled or any(not is_quick_end(v) for v in exhaustion.values())
    if not tiled:
        return
    for item in parsed:
        if isinstance(item, _Kong) and item.tile is None:
            errors.add(f"events[{item.index}].tile", _("Give the kong's tile: this deal is entered with tiles, and its hands are checked against the kongs."))


def _raw_void(raw: Any) -> Suit | None:
    void = raw.get("void") if isinstance(raw, dict) else None
    return Suit(void) if void in VOID_SUITS else None


def _robbed_kongs(parsed: list[_Kong | _Win]) -> dict[int, int | None]:
    """For each robbing win (event index): the event index of the added kong it robbed (the latest
    added kong of the robbed player on that tile before it), or None if no kong event was entered."""
    out: dict[int, int | None] = {}
    for pos, item in enumerate(parsed):
        if isinstance(item, _Win) and item.how == "rob_added_kong":
            # A quick win names no tile: it robbed the robbed player's latest added kong.
            tile = item.hand.win.tile if item.hand is not None and item.hand.win is not None else None
            out[item.index] = None
            for earlier in reversed(parsed[:pos]):
                if (isinstance(earlier, _Kong) and earlier.player == item.source and earlier.kind == "added"
                        and (tile is None or earlier.tile is None or earlier.tile == tile)):
                    out[item.index] = earlier.index
                    break
    return out


def _shared_winning_tiles(parsed: list[_Win | _Kong]) -> set[int]:
    """Event indexes of wins whose winning tile is the one of the win just before them: several
    players winning on one discard (or robbing one kong) share that physical tile."""
    shared: set[int] = set()
    previous: _Win | None = None
    for item in parsed:
        if isinstance(item, _Win):
            if item.hand is None or item.hand.win is None:  # a quick win shows no tiles
                previous = None
                continue
            if (previous is not None and item.how != "self" and previous.how == item.how and previous.source == item.source
                    and previous.index == item.index - 1 and previous.hand is not None and previous.hand.win is not None
                    and previous.hand.win.tile == item.hand.win.tile):
                shared.add(item.index)
            previous = item
        else:
            previous = None
    return shared


def _check_deal(players: list[str], parsed: list[_Kong | _Win], finals: dict[str, _Final], errors: Collector) -> None:
    """Kong events against the final hands, the void suit, and at most four copies of a tile
    (see the module docstring). Adds every violation to ``errors``."""
    robbed_by_win = _robbed_kongs(parsed)
    robbed_events = {k for k in robbed_by_win.values() if k is not None}
    shared = _shared_winning_tiles(parsed)
    # Per player: (field, order, tile, robbed) of each kong they declared; a robbed kong without a
    # kong event is implied by the robbing win (once per robbed kong when several players rob it).
    declared: dict[str, list[tuple[_Kong | None, str, int, Tile, bool]]] = {p: [] for p in players}
    for item in parsed:
        if isinstance(item, _Kong):
            if item.tile is None:  # a quick deal's kong: nothing to check it against
                continue
            declared[item.player].append((item, f"events[{item.index}]", item.index, item.tile, item.index in robbed_events))
        elif item.hand is None:
            continue
        elif item.how == "rob_added_kong" and robbed_by_win[item.index] is None and item.index not in shared:
            assert item.source is not None and item.hand.win is not None
            declared[item.source].append((None, f"events[{item.index}].robbed", item.index, item.hand.win.tile, True))
    # tile index -> [(order, field, copies)]
    seen: dict[int, list[tuple[int, str, int]]] = defaultdict(list)
    for player in players:
        final = finals.get(player)
        kongs = declared[player]
        if final is not None and final.void is not None:
            for kong, field, _order, tile, _robbed in kongs:
                if kong is not None and tile.suit is final.void:
                    errors.add(f"{field}.tile", _("{player} cannot kong {tile}: it is of their void suit ({suit}), and the void suit cannot be punged or konged."),
                               player=player, tile=str(tile), suit=final.void.value)
            kongs = [k for k in kongs if k[0] is None or k[3].suit is not final.void]
        if final is None or final.hand is None:
            for _kong, field, order, tile, robbed in kongs:
                seen[tile.index].append((order, field if field.endswith(".robbed") else f"{field}.tile", 3 if robbed else 4))
            continue
        hand = final.hand
        prefix = final.prefix
        where = prefix.rstrip(".")
        open_kongs = [(i, m) for i, m in enumerate(hand.melds) if m.kind is MeldKind.kong and m.tile.suit is not hand.void]
        open_pungs = [(i, m) for i, m in enumerate(hand.melds) if m.kind is MeldKind.pung and m.tile.suit is not hand.void]
        for kong, field, order, tile, robbed in kongs:
            if robbed:
                found = _take(open_pungs, tile, None)
                if found is None:
                    target = f"{field}.tile" if kong is not None else field
                    errors.add(target, _("{player}'s added kong of {tile} was robbed, so {player} keeps the pung of {tile}; but the final hand ({where}) has no pung of {tile}."),
                               player=player, tile=str(tile), where=where)
                    seen[tile.index].append((order, target, 3))
                continue
            assert kong is not None
            if _take(open_kongs, tile, kong.kind) is not None:
                continue
            other = _take(open_kongs, tile, None)
            if other is not None:
                errors.add(f"{field}.kind", _("{player}'s kong of {tile} is {kind} here but {hand_kind} in the final hand ({where})."),
                           player=player, tile=str(tile), kind=kong.kind, hand_kind=other.exposure.value, where=where)
                continue
            errors.add(f"{field}.tile", _("{player} declares a kong of {tile} here, but the final hand ({where}) has no kong of {tile}."),
                       player=player, tile=str(tile), where=where)
            seen[tile.index].append((order, f"{field}.tile", 4))
        for i, meld in open_kongs:
            errors.add(f"{prefix}melds[{i}]", _("This kong ({meld}) has no kong event of {player}: enter the kong as an event (it earns kong money)."),
                       meld=str(meld), player=player)
        counts: dict[int, int] = defaultdict(int)
        for tile in hand.concealed:
            counts[tile.index] += 1
        if final.order in shared and hand.win is not None:
            counts[hand.win.tile.index] -= 1
        for tile_index, n in counts.items():
            if n > 0:
                seen[tile_index].append((final.order, f"{prefix}concealed", n))
        for i, meld in enumerate(hand.melds):
            for tile_index in {t.index for t in meld.tiles}:
                seen[tile_index].append((final.order, f"{prefix}melds[{i}]", sum(1 for t in meld.tiles if t.index == tile_index)))
    for tile_index in sorted(seen):
        places = sorted(seen[tile_index])
        total = sum(n for _o, _f, n in places)
        if total > 4:
            errors.add(places[-1][1], _("{count} copies of {tile} are revealed in this deal ({places}); there are only four."),
                       count=total, tile=str(Tile.from_index(tile_index)), places=", ".join(f"{f}: {n}" for _o, f, n in places))


def _take(melds: list[tuple[int, Meld]], tile: Tile, exposure: str | None) -> Meld | None:
    """Remove and return the first meld of ``tile`` (with ``exposure`` if given) from ``melds``."""
    for pos, (_i, meld) in enumerate(melds):
        if meld.tile == tile and (exposure is None or meld.exposure.value == exposure):
            del melds[pos]
            return meld
    return None


def _parse_kong(ev: dict[str, Any], f: str, player: str, players: list[str], won: list[str], errors: Collector) -> _Kong | None:
    kind = ev.get("kind")
    ok = True
    if kind not in KONG_KINDS:
        errors.add(f"{f}.kind", _("A kong is exposed, added or concealed, not {value!r}."), value=kind)
        ok = False
    tile: Tile | None = None
    if "tile" in ev:  # left out: a quick deal's kong (checked by _check_kong_tiles)
        try:
            tile = parse_tile(ev.get("tile"), f"{f}.tile", honours=False)
        except RuleViolation as exc:
            errors.extend(exc)
            ok = False
    supplier = ev.get("supplier")
    if kind == "exposed":
        if supplier is None:
            errors.add(f"{f}.supplier", _("An exposed kong needs the supplier: the player whose discard made it."))
            ok = False
        elif supplier == player:
            errors.add(f"{f}.supplier", _("The supplier of an exposed kong is another player."))
            ok = False
        elif not _check_party(supplier, f"{f}.supplier", players, won, errors, role="supplier"):
            ok = False
    elif supplier is not None:
        errors.add(f"{f}.supplier", _("Only an exposed kong has a supplier."))
        ok = False
    if not ok:
        return None
    return _Kong(0, player, kind, tile, supplier if kind == "exposed" else None)


def _parse_win_event(ev: dict[str, Any], f: str, player: str, players: list[str], won: list[str], errors: Collector,
                     options: dict[str, Any]) -> _Win | None:
    discarder = ev.get("discarder")
    robbed = ev.get("robbed")
    ok = True
    if discarder is not None and robbed is not None:
        errors.add(f, _("A win is on a discard (discarder) or by robbing a kong (robbed), not both."))
        return None
    source = discarder if discarder is not None else robbed
    how = "discard" if discarder is not None else "rob_added_kong" if robbed is not None else "self"
    if source is not None:
        field = f"{f}.discarder" if discarder is not None else f"{f}.robbed"
        if source == player:
            errors.add(field, _("A player cannot win on their own discard or kong."))
            ok = False
        elif not _check_party(source, field, players, won, errors, role="discarder" if discarder is not None else "robbed player"):
            ok = False
    if "fan" in ev:
        if "hand" in ev:
            errors.add(f"{f}.fan", _("A win gives either its hand (tiles) or its fan (quick entry), not both."))
            return None
        fan_raw = check_fan(ev.get("fan"), f"{f}.fan", errors)
        if fan_raw is None or not ok:
            return None
        return _Win(0, player, how, source, None, quick_score(fan_raw, options))
    try:
        hand = parse_hand(ev.get("hand"), f"{f}.hand.", options=options)
        score = require_winning(hand, options, f"{f}.hand.")
    except RuleViolation as exc:
        errors.extend(exc)
        return None
    assert hand.win is not None
    if hand.win.how != how:
        errors.add(f"{f}.hand.win.how", _("This win must have how {expected!r}, not {value!r}: a discarder means discard, robbed means rob_added_kong, neither means self."),
                   expected=how, value=hand.win.how)
        ok = False
    if not ok:
        return None
    return _Win(0, player, how, source, hand, score)


def _parse_exhaustion(raw: Any, players: list[str], won: list[str], active: list[str], errors: Collector,
                      options: dict[str, Any]) -> dict[str, SichuanHand | QuickEnd]:
    max_winners = options["max_winners"]
    if len(won) >= max_winners:
        errors.add("exhaustion", _("The deal ended when {count} players had won; there is no wall exhaustion."), count=max_winners)
        return {}
    if not isinstance(raw, dict):
        errors.add("exhaustion", _("Exhaustion must be null or an object with the waiting hand of every player still in the deal."))
        return {}
    hands: dict[str, SichuanHand | QuickEnd] = {}
    for name, hand_raw in raw.items():
        f = f"exhaustion.{name}"
        if name not in players:
            errors.add(f, _("Unknown player {name!r}; the players are {players}."), name=name, players=", ".join(players))
            continue
        if name in won:
            errors.add(f, _("{name} has already won and left the deal; give only the hands of players still in it."), name=name)
            continue
        if is_quick_end(hand_raw):
            quick = parse_quick_end(hand_raw, f, errors)
            if quick is not None:
                hands[name] = quick
            continue
        try:
            hands[name] = parse_hand(hand_raw, f"{f}.", winning=False, allow_void=True, options=options)
        except RuleViolation as exc:
            errors.extend(exc)
    missing = [p for p in active if p not in raw]
    if missing:
        errors.add("exhaustion", _("At wall exhaustion give the hand of every player still in the deal; missing: {names}."), names=", ".join(missing))
    return hands


def _compute(players: list[str], parsed: list[_Kong | _Win], hands: dict[str, SichuanHand | QuickEnd], exhausted: bool,
             options: dict[str, Any]) -> dict[str, Any]:
    payments: list[dict[str, Any]] = []

    def pay(payer: str, receiver: str, amount: int, reason: str, event: int | None = None) -> None:
        if amount > 0:
            payments.append({"from": payer, "to": receiver, "amount": amount, "reason": reason, "event": event})

    # A robbed added kong earns nothing: the latest added kong of the robbed player on that tile.
    robbed_kongs = {k for k in _robbed_kongs(parsed).values() if k is not None}

    active = list(players)
    income: dict[str, list[tuple[str, int]]] = {p: [] for p in players}
    kong_rows: list[dict[str, Any]] = []
    win_rows: list[dict[str, Any]] = []
    for item in parsed:
        others = [p for p in (players if options["winners_pay_later_charges"] else active) if p != item.player]
        if isinstance(item, _Kong):
            robbed = item.index in robbed_kongs
            amount = options[_PAYMENT_KEY[item.kind]]
            payers = [] if robbed else ([item.supplier] if item.kind == "exposed" else others)
            for payer in payers:
                assert payer is not None
                pay(payer, item.player, amount, f"kong_{item.kind}", item.index)
                income[item.player].append((payer, amount))
            kong_rows.append({"player": item.player, "kind": item.kind, "tile": str(item.tile) if item.tile else None, "robbed": robbed,
                              "refunded": False, "income": amount * len(payers)})
        else:
            each = value_of(item.score, options, how=item.how)
            payers = [item.source] if item.source is not None else others
            reason = {"discard": "win_discard", "rob_added_kong": "robbed_kong", "self": "self_draw"}[item.how]
            for payer in payers:
                assert payer is not None
                pay(payer, item.player, each, reason, item.index)
            win_rows.append({"player": item.player, "how": item.how, "from": item.source, "fan": item.score.fan,
                             "fan_raw": item.score.fan_raw, "fan_items": item.score.fan_items, "base": item.score.base,
                             "each": each, "payers": payers, "total": each * len(payers)})
            active.remove(item.player)

    exhaustion_out: dict[str, Any] | None = None
    if exhausted:
        exhaustion_out = {}
        pigs: list[str] = []
        ready: dict[str, int] = {}
        for name in active:
            hand = hands[name]
            waits: list[Tile] = []
            value: int | None = None
            if isinstance(hand, QuickEnd):
                pig = hand.flower_pig
                if not pig and hand.ready_fan is not None:
                    bonus = options["self_draw_bonus"] if options["ready_value_self_draw"] else 0
                    value = quick_score(hand.ready_fan, options).base + bonus
            else:
                pig = hand.holds_void
                if not pig:
                    waits, value = ready_check(hand, options)
            if pig:
                pigs.append(name)
            elif value is not None:
                ready[name] = value
            exhaustion_out[name] = {"flower_pig": pig, "ready": value is not None, "waits": [str(t) for t in waits],
                                    "value": value}
        not_ready = [p for p in active if p not in ready]
        if options["refund_kongs"]:
            for name in not_ready:
                for payer, amount in income[name]:
                    if payer in active or options["refund_to_winners"]:
                        pay(name, payer, amount, "kong_refund")
                if income[name]:
                    for row in kong_rows:
                        if row["player"] == name and not row["robbed"]:
                            row["refunded"] = True
        for pig in pigs:
            for other in active:
                if other not in pigs:
                    pay(pig, other, options["flower_pig_payment"], "flower_pig")
        for name in not_ready:
            if name in pigs:
                continue
            for other, value in ready.items():
                pay(name, other, value, "not_ready")

    net = {p: 0 for p in players}
    for row in payments:
        net[row["from"]] -= row["amount"]
        net[row["to"]] += row["amount"]
    return {
        "payments": payments,
        "net": net,
        "wins": win_rows,
        "kongs": kong_rows,
        "exhaustion": exhaustion_out,
        "active": active,
        "rules": options["preset"],
    }
