"""Tai Pan rules presets and options (docs/engines/taipan.md, "Rules presets").

Options (all overridable with ``{"preset": NAME, OPTION: value}``):

- ``target`` (int): match target; a team at or above it with a higher total wins the match.
- ``failed_call`` (str): ``"caller_team_loses"`` (NSKT rule text: the caller's team loses the call's
  points) or ``"opponents_gain"`` (variant rule text: the opponents receive them).
- ``grand_allowed`` (bool): whether Grand Tai Pan may be called.
- ``tai_pan_points`` / ``grand_tai_pan_points`` (int): value of a call.
- ``double_victory_points`` (int): bonus of a double victory (card points are not counted).
- ``dragon_last_trick`` (bool): a Dragon trick won on the hand's last trick is still given away.
- ``in_turn_bomb_ignores_wish`` (bool): an in-turn bomb without the wished rank is allowed even when
  the wish could be fulfilled; the wish stays (NSKT rule text, Mahjong section).
"""
from __future__ import annotations

from typing import Any

from engines.errors import Collector
from engines.i18n import _
from engines.rules import resolve_rules as resolve_options

DEFAULT_PRESET = "nskt"

FAILED_CALL_MODES = ("caller_team_loses", "opponents_gain")

_NSKT: dict[str, Any] = {
    "target": 800,
    "failed_call": "caller_team_loses",
    "grand_allowed": True,
    "tai_pan_points": 100,
    "grand_tai_pan_points": 200,
    "double_victory_points": 200,
    "dragon_last_trick": True,
    "in_turn_bomb_ignores_wish": True,
}

PRESETS: dict[str, dict[str, Any]] = {
    "nskt": dict(_NSKT),
    "standard": {**_NSKT, "target": 1000},
    "variant": {**_NSKT, "target": 1000, "failed_call": "opponents_gain"},
    "atp": {**_NSKT, "target": 1000, "grand_allowed": False, "double_victory_points": 100, "dragon_last_trick": False},
}


def resolve_rules(raw: Any) -> dict[str, Any]:
    """Effective options for an input's ``"rules"``: absent (``nskt``), a preset name, or
    ``{"preset": NAME, ...overrides}``. Returns a complete option dict with ``"preset"`` set.

    Raises :class:`engines.errors.RuleViolation` (fields ``rules``/``rules.*``) for an unknown
    preset, an unknown option, a wrongly typed value, an unknown ``failed_call`` mode or a negative
    amount. Source: docs/engines/taipan.md ("Rules presets").
    """
    options = resolve_options(raw, PRESETS, DEFAULT_PRESET)
    errors = Collector()
    if options["failed_call"] not in FAILED_CALL_MODES:
        errors.add("rules.failed_call", _("Unknown failed-call rule {value!r}; known: {known}."),
                   value=options["failed_call"], known=", ".join(FAILED_CALL_MODES))
    for key in ("target", "tai_pan_points", "grand_tai_pan_points", "double_victory_points"):
        if not isinstance(options[key], int) or options[key] < 0:
            errors.add(f"rules.{key}", _("Rules option {name!r} must be a whole number of at least 0."), name=key)
    errors.raise_if_any()
    return options


get_rules = resolve_rules
"""The name the Tai Pan modules (and the web app) have used for :func:`resolve_rules`."""
