"""Sichuan bloody battle: quick entry (docs/engines/sichuan.md, "Quick entry"). A win may give
its value as ``"fan"`` instead of its ``"hand"``, and a player still in at wall exhaustion may be
given as ``{}`` (not ready), ``{"ready_fan": F}`` or ``{"flower_pig": true}`` instead of a hand;
the payments are those of the rule text sections 3 and 5 for that fan."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.errors import Collector
from engines.i18n import _
from engines.sichuan.scoring import HandScore

__all__ = ["QUICK_EXHAUSTION_KEYS", "QUICK_MAX_FAN", "QuickEnd", "check_fan", "is_quick_end", "parse_quick_end", "quick_score"]

#: The highest fan a quick win (``"fan"`` instead of ``"hand"``) or a quick ready hand
#: (``"ready_fan"``) may give: more than any hand of the fan table can score (full flush, seven
#: pairs, three roots and every situational fan come to 10), so a larger number is a typing error.
QUICK_MAX_FAN = 20
#: The fields of a quick player entry at wall exhaustion (instead of a hand).
QUICK_EXHAUSTION_KEYS = frozenset({"ready_fan", "flower_pig"})


@dataclass(frozen=True, slots=True)
class QuickEnd:
    """A player still in at wall exhaustion, entered without tiles: a flower pig, ready with the
    highest fan ``ready_fan`` of their waits, or neither (not ready)."""

    flower_pig: bool
    ready_fan: int | None


def is_quick_end(raw: Any) -> bool:
    """An exhaustion entry without tiles: an object with none of a hand's fields."""
    return isinstance(raw, dict) and not (raw.keys() & {"void", "melds", "concealed"})


def check_fan(value: Any, field: str, errors: Collector) -> int | None:
    """A quick fan value: a whole number 0..QUICK_MAX_FAN, else a violation at ``field``."""
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= QUICK_MAX_FAN:
        errors.add(field, _("The fan must be a whole number from 0 to {most}, not {value!r}."), most=QUICK_MAX_FAN, value=value)
        return None
    return value


def parse_quick_end(raw: dict[str, Any], f: str, errors: Collector) -> QuickEnd | None:
    """``{}`` (not ready), ``{"ready_fan": F}`` (ready, the best wait worth F fan) or
    ``{"flower_pig": true}``; anything else is a violation."""
    before = len(errors.violations)
    errors.refuse_unknown(raw, QUICK_EXHAUSTION_KEYS, f"{f}.")
    pig = raw.get("flower_pig", False)
    if not isinstance(pig, bool):
        errors.add(f"{f}.flower_pig", _("{name} must be true or false, not {value!r}."), name="flower_pig", value=pig)
    ready = raw.get("ready_fan")
    if ready is not None:
        ready = check_fan(ready, f"{f}.ready_fan", errors)
        if pig is True:
            errors.add(f"{f}.ready_fan", _("A flower pig still holds a tile of the void suit, so is not ready."))
    if len(errors.violations) > before:
        return None
    return QuickEnd(pig is True, ready)


def quick_score(fan_raw: int, options: dict[str, Any]) -> HandScore:
    """The :class:`HandScore` of a quick win worth ``fan_raw`` fan: the cap applied (``fan_cap``,
    rule text section 5: 5 fan / 32), base 2^fan, no fan items."""
    cap = options["fan_cap"]
    fan = fan_raw if cap is None else min(fan_raw, cap)
    return HandScore({}, fan_raw, fan, 2 ** fan, {"kind": "quick", "sets": []})
