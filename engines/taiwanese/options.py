"""Rules presets of the Taiwanese 16-tile engine (the Taiwanese rule text, docs/engines/taiwanese.md).

Every choice the rule text leaves open, and every decision taken in docs/engines/taiwanese.md, is a named option
here with the decided default. Inputs select a preset and override options through
:func:`engines.rules.resolve_rules` (``"rules": {"preset": "standard", "cap": 16}``).

Options (all presets define all of them):

``base`` (int, 3) / ``per_tai`` (int, 2)
    Each payer pays ``base + per_tai * tai`` (rule text, "Betalen: basis plus tai").
``cap`` (int or None, None)
    Maximum hand tai. Applied to the hand tai before the dealer tai is added (docs/engines/taiwanese.md).
``cap_includes_dealer_tai`` (bool, False)
    True: the cap applies to hand tai + dealer tai of each payment instead.
``dealer_tai_per_streak`` (int, 2)
    Dealer tai = 1 + this * N, N = times the dealer stayed (docs/engines/taiwanese.md: 1 + 2N).
``dealer_tai_scope`` (str, ``"dealer_payments"``)
    ``"dealer_payments"``: dealer tai only in a payment between the dealer and the winner
    (docs/engines/taiwanese.md); ``"dealer_wins_only"``: only when the dealer is the winner (the dealer pays no dealer tai).
``bu_qiu_adds_self_drawn`` (bool, False)
    不求 (concealed hand, self-drawn) is 3 in total; True adds 自摸 self_drawn 1 on top of it.
``concealed_on_self_draw`` (bool, False)
    門清 only on a discard (or robbed kong) win; True also counts it on a self-draw (next to 不求).
``ping_hu_allows_self_draw`` / ``ping_hu_allows_single_wait`` / ``ping_hu_allows_flowers`` (bool, False)
    平胡 = no flowers, no honours, five chows, not self-drawn, not a single wait (docs/engines/taiwanese.md).
``all_claimed_on_self_draw`` (bool, False) / ``all_claimed_adds_single_wait`` (bool, False)
    全求 = every set claimed, 2 tai on a discard, no extra single wait (docs/engines/taiwanese.md).
``single_wait`` (str, ``"formal"``)
    ``"formal"``: 獨聽 when the hand before the win had exactly one formal wait (docs/engines/taiwanese.md);
    ``"shape"``: when the winning tile completes an edge, closed or pair wait in the scored
    decomposition.
``flower_kong_adds_own_flower`` (bool, True)
    花槓 2 plus the own flower in it (docs/engines/taiwanese.md); False: the flower kong absorbs its own flower.
``big_patterns_absorb`` (bool, True)
    大三元/小三元 absorb their dragon pungs, 小四喜/大四喜 absorb wind pungs (docs/engines/taiwanese.md).
``flag_hands_absorb_win_items`` (bool, True)
    天胡/地胡 absorb the way-of-winning items (不求, 門清, 自摸, 獨聽) as in acceptance case T37.
``flower_wins_absorb_flowers`` (bool, True)
    七搶一/八朵花 absorb the flower tai (own flower, flower kong) (acceptance case T35).
``all_honours`` (int, 16)
    字一色 is not in the Wikibooks table; the rule text cites 16 tai or more. 0 switches it off.
``seat_wind`` (str, ``"dealer_is_east"``)
    ``"dealer_is_east"``: the seat wind is counted from the dealer (the dealer sits East, rule text
    "wie de eerste dealer (Oost) is"); ``"seat"``: the seat letter is the seat wind.
``draw_keeps_dealer`` (bool, True)
    A drawn hand keeps the dealer and increments N (docs/engines/taiwanese.md), used by
    :func:`engines.taiwanese.dealer.next_dealer_state`.
"""
from __future__ import annotations

from typing import Any

from engines.errors import Collector
from engines.i18n import _
from engines.rules import resolve_rules as resolve_options

STANDARD: dict[str, Any] = {
    "base": 3,
    "per_tai": 2,
    "cap": None,
    "cap_includes_dealer_tai": False,
    "dealer_tai_per_streak": 2,
    "dealer_tai_scope": "dealer_payments",
    "bu_qiu_adds_self_drawn": False,
    "concealed_on_self_draw": False,
    "ping_hu_allows_self_draw": False,
    "ping_hu_allows_single_wait": False,
    "ping_hu_allows_flowers": False,
    "all_claimed_on_self_draw": False,
    "all_claimed_adds_single_wait": False,
    "single_wait": "formal",
    "flower_kong_adds_own_flower": True,
    "big_patterns_absorb": True,
    "flag_hands_absorb_win_items": True,
    "flower_wins_absorb_flowers": True,
    "all_honours": 16,
    "seat_wind": "dealer_is_east",
    "draw_keeps_dealer": True,
}

PRESETS: dict[str, dict[str, Any]] = {
    # The rule text's own values (Wikipedia example: base 3, 2 per tai, no limit).
    "standard": STANDARD,
    # The common maximum of the Chinese Wikipedia (16 tai).
    "cap16": {**STANDARD, "cap": 16},
}

DEFAULT_PRESET = "standard"

#: Allowed values of the string options.
CHOICES: dict[str, tuple[str, ...]] = {
    "dealer_tai_scope": ("dealer_payments", "dealer_wins_only"),
    "single_wait": ("formal", "shape"),
    "seat_wind": ("dealer_is_east", "seat"),
}


def resolve_rules(raw: Any) -> dict[str, Any]:
    """The effective options for an input's ``"rules"`` (absent: ``standard``, a preset name, or
    ``{"preset": NAME, ...overrides}``): a complete option dict with ``"preset"`` set.

    Raises :class:`engines.errors.RuleViolation` (field ``rules.<option>``) for an unknown preset or
    option, a value of the wrong type, a negative amount or an unknown choice.
    """
    options = resolve_options(raw, PRESETS, DEFAULT_PRESET)
    errors = Collector()
    for key in ("base", "per_tai", "dealer_tai_per_streak", "all_honours"):
        value = options[key]
        if not isinstance(value, int) or value < 0:
            errors.add(f"rules.{key}", _("Rules option {name!r} must be a whole number of at least 0, not {value!r}."), name=key, value=value)
    cap = options["cap"]
    if cap is not None and (not isinstance(cap, int) or cap < 0):
        errors.add("rules.cap", _("The cap must be null or a whole number of tai of at least 0, not {value!r}."), value=cap)
    for key, allowed in CHOICES.items():
        if options[key] not in allowed:
            errors.add(f"rules.{key}", _("Rules option {name!r} must be one of {allowed}, not {value!r}."), name=key, allowed=", ".join(allowed), value=options[key])
    errors.raise_if_any()
    return options


resolve = resolve_rules
"""The older name of :func:`resolve_rules`."""
