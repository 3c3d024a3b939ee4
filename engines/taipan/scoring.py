"""Hand and match scoring at summary level: ``score``, ``check-totals``, ``match`` (docs/engines/taipan.md).

A hand summary (the ``score`` input, what ``Hand.record`` stores)::

    {"calls": {"N": "tai_pan"}, "first_out": "N"|null, "double_victory": null|"NS"|"EW",
     "card_points": {"NS": 55, "EW": 45}|null}

Rule source: NSKT rules, Tai Pan section ("Punten", "Taipan", "Groot Taipan", "Einde"), the variant
text for ``failed_call: "opponents_gain"``, and the decisions of docs/engines/taipan.md.
"""
from __future__ import annotations

from typing import Any

from engines.errors import Collector, RuleViolation
from engines.i18n import _
from engines.taipan.rules import get_rules
from engines.taipan.seats import OTHER_TEAM, SEATS, TEAM_OF, TEAMS

CALLS: tuple[str, ...] = ("tai_pan", "grand_tai_pan")
CARD_POINTS_MIN = -25
CARD_POINTS_MAX = 125
CARD_POINTS_TOTAL = 100


def _is_int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def validate_calls(raw: Any, rules: dict[str, Any], errors: Collector, prefix: str = "") -> dict[str, str]:
    """Check a ``calls`` object (seat -> ``"tai_pan"``/``"grand_tai_pan"``), recording problems
    under ``{prefix}calls.SEAT``; return the valid calls. One call per player; Grand Tai Pan only
    when ``rules["grand_allowed"]``."""
    calls: dict[str, str] = {}
    if raw is None:
        return calls
    if not isinstance(raw, dict):
        errors.add(f"{prefix}calls", _("Calls must be an object mapping a seat to its call."))
        return calls
    for seat, call in raw.items():
        field = f"{prefix}calls.{seat}"
        if seat not in SEATS:
            errors.add(field, _("Unknown seat {seat!r}; seats are N, E, S and W."), seat=seat)
            continue
        if call is None:
            continue
        if isinstance(call, list):
            if len(call) == 1 and call[0] in CALLS:
                call = call[0]
            else:
                errors.add(field, _("A player makes at most one call per hand."))
                continue
        if call not in CALLS:
            errors.add(field, _("Unknown call {call!r}; calls are tai_pan and grand_tai_pan."), call=call)
            continue
        if call == "grand_tai_pan" and not rules["grand_allowed"]:
            errors.add(field, _("Grand Tai Pan is not allowed under these rules."))
            continue
        calls[seat] = call
    return calls


#: The fields of a hand summary (the ``score`` input also takes ``rules``); any other is refused.
HAND_KEYS = frozenset({"calls", "first_out", "double_victory", "card_points"})
#: The fields of the ``check-totals`` and ``match`` inputs; any other is refused.
CHECK_TOTALS_KEYS = frozenset({"calls", "totals", "rules"})
MATCH_KEYS = frozenset({"hands", "rules"})


def validate_hand(data: Any, rules: dict[str, Any], prefix: str = "") -> tuple[Collector, dict[str, Any]]:
    """Validate one hand summary; return the collector (possibly empty) and the normalised summary
    ``{"calls", "first_out", "double_victory", "card_points"}``. Fields are reported as
    ``{prefix}first_out``, ``{prefix}card_points.NS`` etc. (docs/engines/taipan.md "Validation")."""
    errors = Collector()
    if not isinstance(data, dict):
        errors.add(prefix.rstrip(".") or "", _("A hand must be an object."))
        return errors, {}
    errors.refuse_unknown(data, HAND_KEYS | ({"rules"} if not prefix else set()), prefix)
    calls = validate_calls(data.get("calls"), rules, errors, prefix)
    first_out = data.get("first_out")
    if first_out is not None and first_out not in SEATS:
        errors.add(f"{prefix}first_out", _("Unknown seat {seat!r}; seats are N, E, S and W."), seat=first_out)
        first_out = None
        bad_first = True
    else:
        bad_first = False
    dv = data.get("double_victory")
    if dv is not None and dv not in TEAMS:
        errors.add(f"{prefix}double_victory", _("Double victory must be NS, EW or empty, not {value!r}."), value=dv)
        dv = None
    if calls and first_out is None and not bad_first:
        errors.add(f"{prefix}first_out", _("A call needs the player who went out first."))
    if dv is not None and first_out is not None and TEAM_OF[first_out] != dv:
        errors.add(f"{prefix}double_victory",
                   _("A double victory for {team} needs a player of {team} out first, not {seat}."),
                   team=dv, seat=first_out)
    raw_points = data.get("card_points")
    points: dict[str, int] | None = None
    if dv is not None:
        if raw_points is not None:
            errors.add(f"{prefix}card_points", _("Card points are not counted on a double victory; leave them empty."))
    else:
        if raw_points is None:
            errors.add(f"{prefix}card_points", _("Card points are needed unless a team made a double victory."))
        elif not isinstance(raw_points, dict):
            errors.add(f"{prefix}card_points", _("Card points must be an object with NS and EW."))
        else:
            ok = True
            for key in raw_points:
                if key not in TEAMS:
                    errors.add(f"{prefix}card_points.{key}", _("Unknown team {team!r}; teams are NS and EW."), team=key)
                    ok = False
            for team in TEAMS:
                value = raw_points.get(team)
                field = f"{prefix}card_points.{team}"
                if value is None:
                    errors.add(field, _("Card points of {team} are missing."), team=team)
                    ok = False
                elif not _is_int(value):
                    errors.add(field, _("Card points must be a whole number, not {value!r}."), value=value)
                    ok = False
                else:
                    if value % 5:
                        errors.add(field, _("Card points must be a multiple of 5, not {value}."), value=value)
                        ok = False
                    if not CARD_POINTS_MIN <= value <= CARD_POINTS_MAX:
                        errors.add(field, _("Card points must lie between {low} and {high}, not {value}."),
                                   low=CARD_POINTS_MIN, high=CARD_POINTS_MAX, value=value)
                        ok = False
            if ok:
                total = raw_points["NS"] + raw_points["EW"]
                if total != CARD_POINTS_TOTAL:
                    errors.add(f"{prefix}card_points", _("Card points of both teams must add up to {total}, not {value}."),
                               total=CARD_POINTS_TOTAL, value=total)
                else:
                    points = {"NS": raw_points["NS"], "EW": raw_points["EW"]}
    return errors, {"calls": calls, "first_out": first_out, "double_victory": dv, "card_points": points}


def compute_score(summary: dict[str, Any], rules: dict[str, Any]) -> dict[str, Any]:
    """Score a VALID normalised summary: ``{"NS": {"card_points", "double_victory", "calls",
    "total"}, "EW": {...}}`` (points). ``calls`` is the net call points credited to that team."""
    out = {team: {"card_points": 0, "double_victory": 0, "calls": 0, "total": 0} for team in TEAMS}
    dv = summary["double_victory"]
    if dv is not None:
        out[dv]["double_victory"] = rules["double_victory_points"]
    elif summary["card_points"] is not None:
        for team in TEAMS:
            out[team]["card_points"] = summary["card_points"][team]
    for seat, call in summary["calls"].items():
        value = rules["grand_tai_pan_points"] if call == "grand_tai_pan" else rules["tai_pan_points"]
        team = TEAM_OF[seat]
        if summary["first_out"] == seat:
            out[team]["calls"] += value
        elif rules["failed_call"] == "opponents_gain":
            out[OTHER_TEAM[team]]["calls"] += value
        else:
            out[team]["calls"] -= value
    for team in TEAMS:
        row = out[team]
        row["total"] = row["card_points"] + row["double_victory"] + row["calls"]
    return out


def score(data: dict[str, Any]) -> dict[str, Any]:
    """Command ``score``: one hand summary (+ optional ``rules``) -> per-team score.

    Output ``{"NS": {"card_points", "double_victory", "calls", "total"}, "EW": {...}}``.
    Raises RuleViolation listing every violation (card points multiples of 5 in -25..125 summing to
    100, none on a double victory, double-victory team contains first_out, one call per player, a
    call needs first_out, Grand Tai Pan only when allowed). Source: docs/engines/taipan.md; NSKT rules.
    """
    rules = get_rules(data.get("rules"))
    errors, summary = validate_hand(data, rules)
    errors.raise_if_any()
    return compute_score(summary, rules)


def check_totals(data: dict[str, Any]) -> dict[str, Any]:
    """Command ``check-totals``: ``{"calls", "totals": {"NS", "EW"}}`` -> ``{"valid": true,
    "explanations": [{"first_out", "double_victory", "card_points"}, ...]}``.

    Every finishing situation (first out N/E/S/W, double victory or card points -25..125 in steps of
    5) whose score equals the totals is listed, ordered by first out (N, E, S, W), double victory
    first. No explanation -> RuleViolation on ``totals``. Source: docs/engines/taipan.md.
    """
    rules = get_rules(data.get("rules"))
    errors = Collector()
    errors.refuse_unknown(data, CHECK_TOTALS_KEYS)
    calls = validate_calls(data.get("calls"), rules, errors)
    totals = data.get("totals")
    if not isinstance(totals, dict):
        errors.add("totals", _("Totals must be an object with NS and EW."))
    else:
        for team in TEAMS:
            value = totals.get(team)
            if value is None:
                errors.add(f"totals.{team}", _("The total of {team} is missing."), team=team)
            elif not _is_int(value):
                errors.add(f"totals.{team}", _("A total must be a whole number, not {value!r}."), value=value)
            elif value % 5:
                errors.add(f"totals.{team}", _("A total must be a multiple of 5, not {value}."), value=value)
        for key in totals:
            if key not in TEAMS:
                errors.add(f"totals.{key}", _("Unknown team {team!r}; teams are NS and EW."), team=key)
    errors.raise_if_any()
    explanations = list(_explain(calls, {"NS": totals["NS"], "EW": totals["EW"]}, rules))
    if not explanations:
        errors.add("totals", _("No finishing situation gives the totals {ns}:{ew} with these calls."),
                   ns=totals["NS"], ew=totals["EW"])
        errors.raise_if_any()
    return {"valid": True, "explanations": explanations}


def _explain(calls: dict[str, str], totals: dict[str, int], rules: dict[str, Any]):
    for first_out in SEATS:
        base = {"calls": calls, "first_out": first_out}
        team = TEAM_OF[first_out]
        result = compute_score({**base, "double_victory": team, "card_points": None}, rules)
        if result["NS"]["total"] == totals["NS"] and result["EW"]["total"] == totals["EW"]:
            yield {"first_out": first_out, "double_victory": team, "card_points": None}
        for ns in range(CARD_POINTS_MIN, CARD_POINTS_MAX + 1, 5):
            points = {"NS": ns, "EW": CARD_POINTS_TOTAL - ns}
            result = compute_score({**base, "double_victory": None, "card_points": points}, rules)
            if result["NS"]["total"] == totals["NS"] and result["EW"]["total"] == totals["EW"]:
                yield {"first_out": first_out, "double_victory": None, "card_points": points}


def match_finished(running: dict[str, int], rules: dict[str, Any]) -> str | None:
    """The winning team after a hand, or None while the match goes on (docs/engines/taipan.md match end:
    a team at or above ``target`` and different totals -> the higher total wins)."""
    if max(running.values()) >= rules["target"] and running["NS"] != running["EW"]:
        return "NS" if running["NS"] > running["EW"] else "EW"
    return None


def match(data: dict[str, Any]) -> dict[str, Any]:
    """Command ``match``: ``{"hands": [hand summaries], "rules"?}`` ->
    ``{"hands": [{"NS": score, "EW": score, "running": {"NS", "EW"}}], "totals": {"NS", "EW"},
    "finished": bool, "winner": "NS"|"EW"|null, "finished_after": hand index|null}``.

    Every hand is validated (fields ``hands[i].card_points.NS`` ...); a hand after the match
    finished is a violation on ``hands[i]``. Source: docs/engines/taipan.md, NSKT rules "Einde".
    """
    rules = get_rules(data.get("rules"))
    errors = Collector()
    errors.refuse_unknown(data, MATCH_KEYS)
    hands = data.get("hands")
    if not isinstance(hands, list):
        errors.add("hands", _("Hands must be a list of hand records."))
        errors.raise_if_any()
    running = {"NS": 0, "EW": 0}
    out_hands: list[dict[str, Any]] = []
    winner: str | None = None
    finished_after: int | None = None
    for index, hand in enumerate(hands):
        prefix = f"hands[{index}]."
        if winner is not None:
            errors.add(f"hands[{index}]", _("The match was already finished after hand {number}; no more hands can be added."),
                       number=finished_after + 1)
        hand_errors, summary = validate_hand(hand, rules, prefix)
        if hand_errors:
            errors.extend(hand_errors)
            continue
        result = compute_score(summary, rules)
        if errors:
            continue
        running = {team: running[team] + result[team]["total"] for team in TEAMS}
        out_hands.append({"NS": result["NS"], "EW": result["EW"], "running": dict(running)})
        if winner is None:
            winner = match_finished(running, rules)
            if winner is not None:
                finished_after = index
    errors.raise_if_any()
    return {"hands": out_hands, "totals": running, "finished": winner is not None, "winner": winner,
            "finished_after": finished_after}


__all__ = ["CALLS", "check_totals", "compute_score", "match", "match_finished", "score", "validate_hand", "RuleViolation"]
