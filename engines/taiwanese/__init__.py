"""Taiwanese 16-tile mahjong engine (the Taiwanese rule text, docs/engines/taiwanese.md).

Commands: ``score`` (:func:`engines.taiwanese.scoring.score`): tai items, tai, dealer tai, the
payment of each paying seat and the waits of one win. Python helpers for the tournament side:
:func:`initial_hand_state` and :func:`next_hand_state` (the carried ``{"dealer", "streak",
"round_wind"}`` before the first hand and after each), :func:`next_dealer_state` (dealer and
streak only) and :func:`dealer_tai`.
Rules presets (the same three names in every engine package): ``PRESETS``, ``DEFAULT_PRESET``
(``"standard"``) and ``resolve_rules(raw)``, from :mod:`engines.taiwanese.options`; tai table:
:mod:`engines.taiwanese.patterns`.
"""
from __future__ import annotations

from engines.taiwanese.dealer import (
    SEATS,
    dealer_tai,
    initial_hand_state,
    next_dealer_state,
    next_hand_state,
    next_seat,
)
from engines.taiwanese.options import DEFAULT_PRESET, PRESETS, resolve_rules
from engines.taiwanese.scoring import score

COMMANDS = {"score": score}

__all__ = [
    "COMMANDS", "DEFAULT_PRESET", "PRESETS", "SEATS", "dealer_tai", "initial_hand_state", "next_dealer_state",
    "next_hand_state", "next_seat", "resolve_rules", "score",
]
