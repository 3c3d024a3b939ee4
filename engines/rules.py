"""Rules presets and overrides, shared by every engine.

An input's ``"rules"`` is absent (the game's default preset), a preset name, or
``{"preset": NAME, ...overrides}``. Unknown preset or option names are violations of field
``rules`` (docs/engines/index.md). Each engine passes its own presets table.
"""
from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from engines.errors import Collector, suggestion
from engines.i18n import _


def resolve_rules(
    raw: Any,
    presets: Mapping[str, Mapping[str, Any]],
    default: str,
) -> dict[str, Any]:
    """Return the effective options dict (with ``"preset"`` set) for ``raw``.

    ``presets``: preset name -> complete option dict. Overrides must name known options and keep
    the preset value's type (bool stays bool, int stays int, ``None`` allows int or None).
    Raises :class:`RuleViolation` listing every problem.
    """
    errors = Collector()
    if raw is None:
        raw = default
    if isinstance(raw, str):
        raw = {"preset": raw}
    if not isinstance(raw, dict):
        _raise_one("rules", _("Rules must be a preset name or an object."))
    name = raw.get("preset", default)
    if not isinstance(name, str) or name not in presets:
        errors.add("rules.preset", _("Unknown rules preset {name!r}; known: {known}."), name=name, known=", ".join(presets))
        errors.raise_if_any()
    options = dict(presets[name])
    for key, value in raw.items():
        if key == "preset":
            continue
        if key not in options:
            close = suggestion(key, options)
            if close is None:
                errors.add(f"rules.{key}", _("Unknown rules option {name!r}."), name=key)
            else:
                errors.add(f"rules.{key}", _("Unknown rules option {name!r}; did you mean {suggestion!r}?"), name=key,
                           suggestion=close)
            continue
        expected = options[key]
        if not _same_kind(expected, value):
            errors.add(f"rules.{key}", _("Rules option {name!r} has a value of the wrong type: {value!r}."), name=key, value=value)
            continue
        options[key] = value
    errors.raise_if_any()
    options["preset"] = name
    return options


def _same_kind(expected: Any, value: Any) -> bool:
    """True if override ``value`` may replace the preset's ``expected`` value: the same kind (a bool
    stays a bool, a number a number, text text). ``null`` replaces only a number or ``null`` (a
    limit that may be switched off, such as a cap; each engine checks its own options further),
    never a bool or a text option; a ``null`` preset value also takes a number or text."""
    if value is None:
        return expected is None or isinstance(expected, (int, float)) and not isinstance(expected, bool)
    if expected is None:
        return isinstance(value, (int, float, str)) and not isinstance(value, bool)
    if isinstance(expected, bool):
        return isinstance(value, bool)
    if isinstance(expected, (int, float)):
        return isinstance(value, (int, float)) and not isinstance(value, bool)
    return isinstance(value, type(expected))


def _raise_one(field: str, message: str) -> None:
    errors = Collector()
    errors.add(field, message)
    errors.raise_if_any()
