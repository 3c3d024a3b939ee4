"""Sichuan bloody battle (血战到底) engine, the Sichuan rule text and docs/engines/sichuan.md.

Commands: ``score-hand`` (fan of one winning hand) and ``settle`` (payments of one deal: wins,
kongs, wall exhaustion). Rules presets (the same three names in every engine package): ``PRESETS``,
``DEFAULT_PRESET`` (``"default"``) and ``resolve_rules(raw)``, from :mod:`engines.sichuan.options`.
"""
from engines.sichuan.options import DEFAULT_PRESET, PRESETS, resolve, resolve_rules
from engines.sichuan.scoring import score_hand
from engines.sichuan.settle import settle

COMMANDS = {"score-hand": score_hand, "settle": settle}

__all__ = ["COMMANDS", "DEFAULT_PRESET", "PRESETS", "resolve", "resolve_rules", "score_hand", "settle"]
