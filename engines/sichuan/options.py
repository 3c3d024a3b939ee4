"""Rules presets of the Sichuan bloody-battle engine (the Sichuan rule text, docs/engines/sichuan.md).

Every ambiguity docs/engines/sichuan.md decides is a named option here, with the decided value as default
(preset ``"default"``). Inputs override options through :func:`engines.rules.resolve_rules`:
``"rules": {"preset": "default", "fan_cap": 4}``.

Hand patterns
``outside_hand`` (str, ``"every_set_and_pair"``)
    Buitenhand (2 fan): ``"every_set_and_pair"``: every set and the pair contain a 1 or 9
    (docs/engines/sichuan.md); ``"every_set"``: every set contains a 1 or 9, the pair may be any tile.
``patterns_add_up`` (bool, True)
    The hand patterns (all pungs, seven pairs, outside hand, all 2/5/8 pungs, full flush) add up;
    False: only the highest of them counts (roots, gold hook and situational fan still add).
``all_258_replaces_all_pungs`` (bool, True)
    All 2/5/8 pungs (3) replaces all pungs (1) instead of adding to it.
``all_258_pair_required`` (bool, True)
    All 2/5/8 pungs needs the pair to be a 2, 5 or 8 too.
``root_includes_kongs`` (bool, True)
    Root: +1 per tile kind with all four copies in the final hand, declared kongs included.
``four_as_two_pairs`` (bool, True)
    Seven pairs may hold four equal concealed tiles as two pairs (rule text).
``kong_as_two_pairs`` (bool, False)
    A declared kong is never two pairs, so seven pairs has no melds (docs/engines/sichuan.md); True lets
    declared kongs count as two pairs of a seven-pairs hand.
``concealed_chows`` (bool, True)
    Chows inside the concealed hand are allowed (claimed chows never are: "Geen chows").
``gold_hook`` (int, 1)
    Single-pair wait with four declared melds.

Situational fan
``kong_replacement_on_discard`` (bool, False)
    Kong replacement +1 only for a self-draw on one's own replacement tile (docs/engines/sichuan.md); True
    also gives it to a discard win flagged ``after_kong``.
``last_tile_on_discard`` (bool, True)
    Last tile: self-draw of the last wall tile or a win on the final discard (docs/engines/sichuan.md);
    False: self-draw only.

Payments
``fan_cap`` (int or None, 5)
    Base = 2^min(fan, fan_cap): 5 fan / 32 (rule text). None: no cap.
``self_draw_bonus`` (int, 1)
    On a self-draw each remaining opponent pays base + this (33 at the cap).
``exposed_kong_payment`` (int, 2) / ``added_kong_payment`` (int, 1) / ``concealed_kong_payment`` (int, 2)
    Exposed kong: from its supplier; added: from each active opponent (seed002 literal);
    concealed: from each active opponent. A robbed added kong earns nothing.
``winners_pay_later_charges`` (bool, False)
    Winners leave the hand and never pay later charges (rule text).
``multiple_winners`` (bool, True)
    Several winners on one discard (rule text).
``max_winners`` (int, 3)
    The hand ends when this many players have won.

Wall exhaustion
``refund_kongs`` (bool, True)
    Kong income of not-ready non-winners is refunded to its payers (docs/engines/sichuan.md).
``refund_to_winners`` (bool, True)
    Payers who have won get their kong payments back too (acceptance case S23).
``flower_pig_payment`` (int, 32)
    A flower pig (still holding its void suit) pays this to each active non-pig.
``ready_value_self_draw`` (bool, False)
    Ready-hand check value: each not-ready player pays each ready player 2^min(fan, cap) of that
    player's best wait, without self-draw or situational fan (docs/engines/sichuan.md); True adds the
    self-draw bonus.

Deal end
``require_deal_end`` (bool, False)
    ``settle`` accepts a deal that has not ended (fewer than ``max_winners`` wins and no wall
    exhaustion) and settles the events so far: acceptance cases S02, S16-S19 and S21 settle such
    deals, and a referee may enter a deal in parts. True rejects an unfinished deal (field
    ``exhaustion``). Either way the output's ``ended`` says whether the deal is over.
"""
from __future__ import annotations

from typing import Any

from engines.errors import Collector
from engines.i18n import _
from engines.rules import resolve_rules as resolve_options

DEFAULT: dict[str, Any] = {
    "outside_hand": "every_set_and_pair",
    "patterns_add_up": True,
    "all_258_replaces_all_pungs": True,
    "all_258_pair_required": True,
    "root_includes_kongs": True,
    "four_as_two_pairs": True,
    "kong_as_two_pairs": False,
    "concealed_chows": True,
    "gold_hook": 1,
    "kong_replacement_on_discard": False,
    "last_tile_on_discard": True,
    "fan_cap": 5,
    "self_draw_bonus": 1,
    "exposed_kong_payment": 2,
    "added_kong_payment": 1,
    "concealed_kong_payment": 2,
    "winners_pay_later_charges": False,
    "multiple_winners": True,
    "max_winners": 3,
    "refund_kongs": True,
    "refund_to_winners": True,
    "flower_pig_payment": 32,
    "ready_value_self_draw": False,
    "require_deal_end": False,
}

PRESETS: dict[str, dict[str, Any]] = {"default": DEFAULT}
DEFAULT_PRESET = "default"

CHOICES: dict[str, tuple[str, ...]] = {"outside_hand": ("every_set_and_pair", "every_set")}

_NON_NEGATIVE = ("gold_hook", "self_draw_bonus", "exposed_kong_payment", "added_kong_payment",
                 "concealed_kong_payment", "flower_pig_payment")


def resolve_rules(raw: Any) -> dict[str, Any]:
    """The effective options for an input's ``"rules"`` (absent: ``default``, a preset name, or
    ``{"preset": NAME, ...overrides}``): a complete option dict with ``"preset"`` set.

    Raises :class:`engines.errors.RuleViolation` (field ``rules.<option>``) for an unknown preset or
    option, a value of the wrong type, a negative amount or an unknown choice.
    """
    if raw is None or (isinstance(raw, str) and raw in PRESETS):
        key = DEFAULT_PRESET if raw is None else raw
        cached = _RESOLVED.get(key)
        if cached is None:
            cached = _RESOLVED[key] = _resolve(key)
        return dict(cached)
    return _resolve(raw)


_RESOLVED: dict[str, dict[str, Any]] = {}

resolve = resolve_rules
"""The older name of :func:`resolve_rules`."""


def _resolve(raw: Any) -> dict[str, Any]:
    options = resolve_options(raw, PRESETS, DEFAULT_PRESET)
    errors = Collector()
    for key in _NON_NEGATIVE:
        value = options[key]
        if not isinstance(value, int) or value < 0:
            errors.add(f"rules.{key}", _("Rules option {name!r} must be a whole number of at least 0, not {value!r}."), name=key, value=value)
    cap = options["fan_cap"]
    if cap is not None and (not isinstance(cap, int) or cap < 0):
        errors.add("rules.fan_cap", _("The fan cap must be null or a whole number of at least 0, not {value!r}."), value=cap)
    if not isinstance(options["max_winners"], int) or not 1 <= options["max_winners"] <= 3:
        errors.add("rules.max_winners", _("Rules option {name!r} must be 1, 2 or 3, not {value!r}."), name="max_winners", value=options["max_winners"])
    for key, allowed in CHOICES.items():
        if options[key] not in allowed:
            errors.add(f"rules.{key}", _("Rules option {name!r} must be one of {allowed}, not {value!r}."), name=key, allowed=", ".join(allowed), value=options[key])
    errors.raise_if_any()
    return options
