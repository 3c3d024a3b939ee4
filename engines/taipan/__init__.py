"""Tai Pan (Tichu, NSKT style) rule engine (DESIGN.md 2.1).

Commands (``COMMANDS``; the CLI is ``python -m engines taipan COMMAND FILE``):

- ``score``: one hand summary -> per-team score.
- ``check-totals``: calls + recorded totals -> every finishing situation giving those totals.
- ``match``: a list of hand summaries -> per-hand scores, running totals, finished, winner.
- ``play``: judge one play against the combination on the table, the wish and optionally the hand.
- ``replay``: check a whole hand card by card and score it.
"""
from __future__ import annotations

from collections.abc import Callable
from typing import Any

from engines.taipan.play import play
from engines.taipan.replay import replay
from engines.taipan.scoring import check_totals, match, score

COMMANDS: dict[str, Callable[[dict[str, Any]], dict[str, Any]]] = {
    "score": score,
    "check-totals": check_totals,
    "match": match,
    "play": play,
    "replay": replay,
}
