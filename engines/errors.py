"""The one error type every rule engine raises.

A :class:`RuleViolation` carries every violation found in one input, each a :class:`Violation`
with the input ``field`` it concerns (a dotted path such as ``card_points.NS`` or
``hands[3].first_out``) and a human-readable English ``message``. The message is built from a
translatable ``template`` (marked with :func:`engines.i18n._`) and ``params`` so the web layer can
show it in Dutch: ``gettext(v.template).format(**v.params)``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from engines.i18n import _


@dataclass(frozen=True)
class Violation:
    """One broken rule: ``field`` (dotted input path, ``""`` for the whole input) and message.

    ``template`` is the untranslated message, a :meth:`str.format` template: ``{name}``
    placeholders that ``params`` fills, ``{{`` and ``}}`` for a literal brace (also without
    params).
    """

    field: str
    template: str
    params: dict[str, Any] = field(default_factory=dict)

    @property
    def message(self) -> str:
        """The English message with parameters filled in (and ``{{``/``}}`` as single braces); a
        template that does not format with its params is shown as written."""
        try:
            return self.template.format(**self.params)
        except (KeyError, IndexError, ValueError):
            return self.template

    def to_json(self) -> dict[str, str]:
        """``{"field": ..., "message": ...}`` as printed by the CLI."""
        return {"field": self.field, "message": self.message}


class RuleViolation(Exception):
    """Raised by an engine when its input breaks the rules; carries every violation found.

    ``violations``: a non-empty list of :class:`Violation`. ``to_json()`` gives the CLI's
    ``{"errors": [{"field", "message"}, ...]}`` object.
    """

    def __init__(self, violations: list[Violation]):
        if not violations:
            raise ValueError("RuleViolation needs at least one violation")
        self.violations = list(violations)
        super().__init__("; ".join(f"{v.field}: {v.message}" if v.field else v.message for v in self.violations))

    def to_json(self) -> dict[str, list[dict[str, str]]]:
        """The CLI error object."""
        return {"errors": [v.to_json() for v in self.violations]}

    def by_field(self) -> dict[str, list[str]]:
        """Messages grouped by field (for forms)."""
        out: dict[str, list[str]] = {}
        for v in self.violations:
            out.setdefault(v.field, []).append(v.message)
        return out


class Collector:
    """Accumulates violations while validating, then raises them together.

    Usage::

        errors = Collector()
        if x % 5:
            errors.add("card_points.NS", _("Card points must be a multiple of 5, not {value}."), value=x)
        errors.raise_if_any()
    """

    def __init__(self) -> None:
        self.violations: list[Violation] = []

    def add(self, field: str, template: str, **params: Any) -> None:
        """Record one violation of ``field``."""
        self.violations.append(Violation(field, template, params))

    def extend(self, error: RuleViolation, prefix: str = "") -> None:
        """Record every violation of ``error``, with ``prefix`` put before each field."""
        for v in error.violations:
            name = f"{prefix}{'.' if prefix and v.field and not v.field.startswith('[') else ''}{v.field}"
            self.violations.append(Violation(name, v.template, v.params))

    def refuse_unknown(self, data: Any, allowed: set[str] | frozenset[str], prefix: str = "") -> None:
        """Record "Unknown field" for every key of the object ``data`` that is not in ``allowed``
        (a misspelt or invented field is an error, never silently kept); ``prefix`` goes before
        each field (``"events[0]."``). Does nothing when ``data`` is not an object."""
        if isinstance(data, dict):
            for key in sorted(set(data) - set(allowed), key=str):
                self.add(f"{prefix}{key}", _("Unknown field {name!r}."), name=key)

    def __bool__(self) -> bool:
        return bool(self.violations)

    def raise_if_any(self) -> None:
        """Raise :class:`RuleViolation` if anything was recorded."""
        if self.violations:
            raise RuleViolation(self.violations)
