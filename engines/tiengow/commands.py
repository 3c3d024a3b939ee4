"""The Tien Gow commands ``check``, ``deal`` and ``settle`` (JSON in, JSON out; docs/engines/tiengow.md)."""
from __future__ import annotations

from collections import Counter
from typing import Any

from engines.errors import Collector
from engines.i18n import _
from engines.tiengow.deal import play_deal
from engines.tiengow.groups import beats, identify
from engines.tiengow.options import resolve
from engines.tiengow.settlement import (
    ImmediateEvent,
    ImmediateGroup,
    LastTrick,
    LastTrickGroup,
    settle,
)
from engines.tiengow.tiles import BIG_SIX, LITTLE_THREE, normalise, parse_tiles

#: The fields of the ``check`` input; any other is refused (a misspelt ``rules`` would judge by the preset).
CHECK_KEYS = frozenset({"current", "play", "rules"})


def check_command(data: dict[str, Any]) -> dict[str, Any]:
    """Is ``play`` a legal play, and does it beat ``current``?

    Input ``{"current": null | [tiles], "play": [tiles], "rules"?}``. Output ``{"legal", "beats",
    "group": {"kind", "civil", "military", "rank", "family", "tiles"} | null, "current_group", "reason"}``.
    Leading (``current`` null): legal iff ``play`` is a group (one to four tiles); it then beats
    (it is the current high group). Following: legal iff as many tiles as ``current`` (anything may be
    discarded face down); beats iff it is a group of the same kind and civil/military counts with a
    strictly better rank (``rank`` 1 = strongest). ``reason``: why not legal / not beating, else null.
    Raises RuleViolation for unknown tiles, more copies than the set has within ``current`` or within
    ``play`` (the two are compared as given, not checked against each other), or a ``current`` that
    is not a group. Rule source: the Tien Gow rule text, docs/engines/tiengow.md.
    """
    options = resolve(data.get("rules"))
    errors = Collector()
    errors.refuse_unknown(data, CHECK_KEYS)
    raw_current = data.get("current")
    current_tiles = None
    if raw_current is not None:
        current_tiles = parse_tiles(raw_current, "current", errors, min_count=1, max_count=4)
    play = parse_tiles(data.get("play"), "play", errors, min_count=0)
    current_group = None
    if current_tiles is not None:
        current_group, reason = identify(current_tiles, options)
        if current_group is None:
            errors.add("current", _("The current high group is not a legal group: {reason}"), reason=reason)
    errors.raise_if_any()
    assert play is not None
    group, reason = identify(play, options) if play else (None, _("A group has one to four tiles."))
    if current_group is None:
        legal = group is not None
        return {"legal": legal, "beats": legal, "group": group.to_json() if group else None,
                "current_group": None, "reason": None if legal else reason}
    if len(play) != current_group.size:
        return {"legal": False, "beats": False, "group": group.to_json() if group else None,
                "current_group": current_group.to_json(),
                "reason": _("Every player plays as many tiles as the leader.")}
    if group is None:
        return {"legal": True, "beats": False, "group": None, "current_group": current_group.to_json(),
                "reason": reason}
    ok, why = beats(group, current_group)
    return {"legal": True, "beats": ok, "group": group.to_json(), "current_group": current_group.to_json(),
            "reason": None if ok else why}


def deal_command(data: dict[str, Any]) -> dict[str, Any]:
    """Validate a trick-by-trick deal record and derive columns, payments and the next banker.

    Input and checks: :mod:`engines.tiengow.deal`. Output ``{"columns": [4], "tricks": [{"winner",
    "group", "leader", ...}], "immediate": [{"winner", "group", "trick", "net"}], "immediate_net",
    "final": {"winner", "group", "multiplier", "factors", "catch", "transfers", "net"} | null,
    "net": [4], "next_banker", "last_trick", "settlement" (the equivalent settle input), "complete",
    "rules"}``. ``next_banker`` is always set: the last trick's winner, or ``banker`` while a partial
    record has no last trick. Raises RuleViolation with fields like ``tricks[3].plays[2].face_up``.
    """
    options = resolve(data.get("rules"))
    out = play_deal(data, options).to_json()
    out["rules"] = options.to_json()
    return out


def _seat(raw: Any, field_name: str, errors: Collector, *, required: bool = True) -> int | None:
    if (raw is None or raw == "") and not required:
        return None
    if isinstance(raw, bool) or not isinstance(raw, int) or not 0 <= raw <= 3:
        errors.add(field_name, _("A seat is a number 0 to 3, not {value!r}."), value=raw)
        return None
    return raw


def _enum(enum_type: Any, raw: Any, field_name: str, errors: Collector) -> Any:
    try:
        return enum_type(raw)
    except ValueError:
        errors.add(field_name, _("Expected one of {choices}, not {value!r}."),
                   choices=", ".join(e.value for e in enum_type), value=raw)
        return None


#: The fields of the ``settle`` input, its last trick and its immediate payments; any other is refused.
SETTLE_KEYS = frozenset({"banker", "columns", "last_trick", "immediate", "rules"})
LAST_TRICK_KEYS = frozenset({"winner", "group", "leader", "led_with", "won_with"})
IMMEDIATE_KEYS = frozenset({"winner", "group", "trick"})


def settle_command(data: dict[str, Any]) -> dict[str, Any]:
    """Settle a deal entered at settlement level.

    Input ``{"banker", "columns": [4 ints summing to 8] | null, "last_trick": null | {"winner",
    "group": "ordinary"|"quartet"|"supreme"|"little_three", "leader"?, "led_with"?, "won_with"?},
    "immediate": [{"winner", "group": "supreme"|"quartet"}], "rules"?}``; ``columns`` and
    ``last_trick`` are both null for immediate payments only. ``led_with``/``won_with`` describe a last
    single trick (the catch: led 1-2, won 2-4). Output ``{"net": [4], "immediate", "immediate_net",
    "final", "columns", "next_banker", "rules"}``; ``next_banker`` is always set: the last trick's
    winner, or ``banker`` when there is no last trick. Raises RuleViolation for impossible inputs
    (column totals, groups needing more columns than the winner has, a last quartet/Supreme missing
    from ``immediate``). Rule source: the Tien Gow rule text, docs/engines/tiengow.md.
    """
    options = resolve(data.get("rules"))
    errors = Collector()
    errors.refuse_unknown(data, SETTLE_KEYS)
    banker = _seat(data.get("banker"), "banker", errors)

    columns = data.get("columns")
    if columns is not None:
        if (not isinstance(columns, list) or len(columns) != 4
                or not all(isinstance(c, int) and not isinstance(c, bool) and c >= 0 for c in columns)):
            errors.add("columns", _("Columns are four whole numbers, one per seat."))
            columns = None
        elif sum(columns) != 8:
            errors.add("columns", _("The columns add up to 8 (one per tile a player played), not {total}."), total=sum(columns))
            columns = None
        bad_columns = columns is None
    else:
        bad_columns = False

    raw_last = data.get("last_trick")
    last: LastTrick | None = None
    if raw_last is not None:
        if not isinstance(raw_last, dict):
            errors.add("last_trick", _("The last trick is an object with \"winner\" and \"group\"."))
        else:
            errors.refuse_unknown(raw_last, LAST_TRICK_KEYS, "last_trick.")
            winner = _seat(raw_last.get("winner"), "last_trick.winner", errors)
            group = _enum(LastTrickGroup, raw_last.get("group", "ordinary"), "last_trick.group", errors)
            leader = _seat(raw_last.get("leader"), "last_trick.leader", errors, required=False)
            tiles: dict[str, str | None] = {}
            for key in ("led_with", "won_with"):
                value = raw_last.get(key)
                tiles[key] = None
                if value is not None and value != "":  # an empty form field means "not given"
                    code = normalise(value)
                    if code is None:
                        errors.add(f"last_trick.{key}", _("Unknown tile {tile!r}: write a tile by its pips as \"low-high\", each 1 to 6 (e.g. \"1-5\")."), tile=value)
                    tiles[key] = code
            led_with, won_with = tiles["led_with"], tiles["won_with"]
            if winner is not None and group is not None:
                if group in (LastTrickGroup.QUARTET, LastTrickGroup.SUPREME) and (led_with or won_with):
                    errors.add("last_trick", _("\"led_with\" and \"won_with\" only describe a last trick of single tiles."))
                if group is LastTrickGroup.LITTLE_THREE:
                    if leader is not None and leader != winner:
                        errors.add("last_trick.leader", _("The single Little Three wins only when led, so the leader is the winner."))
                    for key, code in (("led_with", led_with), ("won_with", won_with)):
                        if code is not None and code != LITTLE_THREE:
                            errors.add(f"last_trick.{key}", _("A last trick won by the Little Three is led and won with 1-2, not {tile}."), tile=code)
                elif group is LastTrickGroup.ORDINARY and won_with == LITTLE_THREE:
                    errors.add("last_trick.group", _("A last trick won with the single 1-2 has group \"little_three\"."))
                if leader is not None and leader == winner and led_with and won_with and led_with != won_with:
                    errors.add("last_trick.won_with", _("The leader won the trick, so it was won with the tile it was led with ({tile})."), tile=led_with)
                if leader is None and led_with == LITTLE_THREE and won_with == BIG_SIX:
                    errors.add("last_trick.leader", _("Say who led the 1-2 (the catch makes that player pay)."))
                if leader is not None and leader != winner and won_with == LITTLE_THREE:
                    errors.add("last_trick.won_with", _("The 1-2 never beats another tile, so it wins only when led."))
                last = LastTrick(winner, group, leader, led_with, won_with)

    if (columns is None) != (last is None) and not bad_columns and not errors:
        if columns is None:
            errors.add("columns", _("Give the columns per seat for the final settlement (or no last trick for immediate payments only)."))
        else:
            errors.add("last_trick", _("Give who won the last trick for the final settlement."))

    events: list[ImmediateEvent] = []
    raw_immediate = data.get("immediate", [])
    if raw_immediate is None:
        raw_immediate = []
    if not isinstance(raw_immediate, list):
        errors.add("immediate", _("Expected a list of immediate payments."))
        raw_immediate = []
    for i, raw in enumerate(raw_immediate):
        f = f"immediate[{i}]"
        if not isinstance(raw, dict):
            errors.add(f, _("An immediate payment is an object with \"winner\" and \"group\"."))
            continue
        errors.refuse_unknown(raw, IMMEDIATE_KEYS, f"{f}.")
        w = _seat(raw.get("winner"), f"{f}.winner", errors)
        g = _enum(ImmediateGroup, raw.get("group"), f"{f}.group", errors)
        if w is not None and g is not None:
            events.append(ImmediateEvent(w, g, raw.get("trick") if isinstance(raw.get("trick"), int) else None))
    kinds = Counter(e.group for e in events)
    if kinds[ImmediateGroup.SUPREME] > 1:
        errors.add("immediate", _("There is only one Supreme, so it is won at most once per deal."))
    needed = [0, 0, 0, 0]
    for e in events:
        needed[e.winner] += 2 if e.group is ImmediateGroup.SUPREME else 4
    if sum(needed) > 8:
        errors.add("immediate", _("These immediate groups need {count} columns; a deal has 8."), count=sum(needed))
    elif columns is not None:
        for seat in range(4):
            if needed[seat] > columns[seat]:
                errors.add("immediate", _("Seat {seat} has {columns} columns, too few for the immediate groups listed ({count})."),
                           seat=seat, columns=columns[seat], count=needed[seat])
    if columns is not None and last is not None:
        least = {LastTrickGroup.QUARTET: 4, LastTrickGroup.SUPREME: 2}.get(last.group, 1)
        if columns[last.winner] < least:
            errors.add("last_trick.winner", _("Seat {seat} won the last trick, so it has at least {count} columns, not {columns}."),
                       seat=last.winner, count=least, columns=columns[last.winner])
        if options.immediate_on_last_trick and last.group in (LastTrickGroup.QUARTET, LastTrickGroup.SUPREME):
            wanted = ImmediateGroup(last.group.value)
            if not any(e.winner == last.winner and e.group is wanted for e in events):
                errors.add("immediate", _("The last trick won with a {group} is also paid immediately: list it under immediate."),
                           group=last.group.value)
    errors.raise_if_any()
    assert banker is not None
    out = settle(banker, columns, last, events, options).to_json()
    out["rules"] = options.to_json()
    return out
