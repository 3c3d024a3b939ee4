"""Tai Pan (Tichu, NSKT style) rule engine (docs/engines/taipan.md).

Commands (``COMMANDS``; the CLI is ``python -m engines taipan COMMAND FILE``):

- ``score``: one hand summary -> per-team score.
- ``check-totals``: calls + recorded totals -> every finishing situation giving those totals.
- ``match``: a list of hand summaries -> per-hand scores, running totals, finished, winner.
- ``play``: judge one play against the combination on the table, the wish and optionally the hand.
- ``replay``: check a whole hand card by card and score it.

Rules presets (the same three names in every engine package): ``PRESETS`` (preset name -> complete
option dict), ``DEFAULT_PRESET`` (``"nskt"``) and ``resolve_rules(raw)``; see :mod:`engines.taipan.rules`.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.taipan.play import play
from engines.taipan.replay import replay
from engines.taipan.rules import DEFAULT_PRESET, PRESETS, resolve_rules
from engines.taipan.scoring import check_totals, match, score

COMMANDS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "score": score,
    "check-totals": check_totals,
    "match": match,
    "play": play,
    "replay": replay,
}

__all__ = ["COMMANDS", "DEFAULT_PRESET", "PRESETS", "check_totals", "match", "play", "replay", "resolve_rules", "score"]
