"""Stones: a framework-free rule engine with the contract of docs/engines/index.md.

Four players each write down the stones they won or lost in a deal; the numbers must add up to 0.
The rules presets say what one stone is worth (``stake``) and whether a deal where nobody wins
anything (all zeros) counts (``empty_deals``). Command ``score``: input ``{"points": [int, int,
int, int], "rules": ...}``; output ``{"points": [...], "net": [...], "stake": int}`` with ``net`` the
points times the stake. Every problem found is raised as one :class:`engines.errors.RuleViolation`.
"""
from __future__ import annotations

from typing import Any

from engines.errors import Collector
from engines.rules import resolve_rules as _resolve

PRESETS: dict[str, dict[str, Any]] = {
    "plain": {"stake": 1, "empty_deals": True},
    "double": {"stake": 2, "empty_deals": False},
}
DEFAULT_PRESET = "plain"
SEATS = 4


def resolve_rules(raw: Any) -> dict[str, Any]:
    """The effective options of a ``"rules"`` value (absent, a preset name or ``{"preset": NAME,
    ...overrides}``), with ``"preset"`` set. Raises RuleViolation (fields ``rules``/``rules.*``),
    also for a stake below 1."""
    options = _resolve(raw, PRESETS, DEFAULT_PRESET)
    if options["stake"] < 1:
        errors = Collector()
        errors.add("rules.stake", "A stone is worth at least 1, not {stake}.", stake=options["stake"])
        errors.raise_if_any()
    return options


def score(data: dict[str, Any]) -> dict[str, Any]:
    """Score one deal: ``{"points": [4 ints]}`` -> ``{"points", "net", "stake"}``. Raises
    RuleViolation: ``points`` not a list of four whole numbers (``points``/``points[i]``), points
    not adding up to 0 (``points``), an all-zero deal when the rules refuse one (``points``), and
    the ``rules`` violations of :func:`resolve_rules`."""
    options = resolve_rules(data.get("rules"))
    errors = Collector()
    points = data.get("points")
    if not isinstance(points, list) or len(points) != SEATS:
        errors.add("points", "Give the points of the four players as a list of four numbers.")
        errors.raise_if_any()
    for i, value in enumerate(points):
        if not isinstance(value, int) or isinstance(value, bool):
            errors.add(f"points[{i}]", "Points are whole numbers, not {value!r}.", value=value)
    errors.raise_if_any()
    if sum(points) != 0:
        errors.add("points", "The points must add up to 0, not {total}.", total=sum(points))
    elif not options["empty_deals"] and not any(points):
        errors.add("points", "These rules do not count a deal where nobody wins.")
    errors.raise_if_any()
    return {"points": list(points), "net": [p * options["stake"] for p in points], "stake": options["stake"]}


COMMANDS = {"score": score}

__all__ = ["COMMANDS", "DEFAULT_PRESET", "PRESETS", "resolve_rules", "score"]
