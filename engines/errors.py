"""The one error type every rule engine raises.

A :class:`RuleViolation` carries every violation found in one input, each a :class:`Violation`
with the input ``field`` it concerns (a dotted path such as ``card_points.NS`` or
``hands[3].first_out``) and a human-readable English ``message``. The message is built from a
translatable ``template`` (marked with :func:`engines.i18n._`) and ``params`` so the web layer can
show it in Dutch: ``gettext(v.template).format(**v.params)``.

An input can break the rules many times over (a list of a million unknown tiles): a
:class:`Collector` keeps the first :data:`LIMIT` violations and only counts the rest, and a
:class:`RuleViolation` carries those (``violations``) plus that count (``more``); the command line
prints ``{"errors": [...first 50], "more_errors": N}`` (docs/engines/index.md).
"""
from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from difflib import get_close_matches
from typing import Any

from engines.i18n import _

#: At most this many violations are kept and shown; the rest are counted (``RuleViolation.more``).
LIMIT = 50


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

    ``violations``: a non-empty list of at most :data:`LIMIT` :class:`Violation` (a longer list is
    cut there); ``more``: how many further violations were found and not kept (0 when none).
    ``to_json()`` gives the CLI's ``{"errors": [{"field", "message"}, ...]}`` object, with
    ``"more_errors": more`` when ``more`` is not 0.
    """

    def __init__(self, violations: Iterable[Violation], more: int = 0):
        kept = list(violations)
        if not kept:
            raise ValueError("RuleViolation needs at least one violation")
        self.violations = kept[:LIMIT]
        self.more = more + len(kept) - len(self.violations)
        text = "; ".join(f"{v.field}: {v.message}" if v.field else v.message for v in self.violations)
        super().__init__(f"{text}; and {self.more:,} more" if self.more else text)

    @property
    def count(self) -> int:
        """Every violation found: those kept plus :attr:`more`."""
        return len(self.violations) + self.more

    def to_json(self) -> dict[str, Any]:
        """The CLI error object: ``{"errors": [...], "more_errors": N}`` (``more_errors`` only
        when violations were left out)."""
        out: dict[str, Any] = {"errors": [v.to_json() for v in self.violations]}
        if self.more:
            out["more_errors"] = self.more
        return out

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

    Only the first :data:`LIMIT` violations are kept (``violations``); the others are counted
    (``more``), so a huge input that breaks a rule on every element costs a counter, not memory.
    ``count`` is every violation recorded, kept or not.
    """

    def __init__(self) -> None:
        self.violations: list[Violation] = []
        self.more = 0

    @property
    def count(self) -> int:
        """How many violations were recorded (kept and counted)."""
        return len(self.violations) + self.more

    @property
    def full(self) -> bool:
        """True once :data:`LIMIT` violations are kept (further ones are only counted)."""
        return len(self.violations) >= LIMIT

    def add(self, field: str, template: str, **params: Any) -> None:
        """Record one violation of ``field``."""
        if len(self.violations) < LIMIT:
            self.violations.append(Violation(field, template, params))
        else:
            self.more += 1

    def append(self, violation: Violation) -> None:
        """Record ``violation`` as it is."""
        if len(self.violations) < LIMIT:
            self.violations.append(violation)
        else:
            self.more += 1

    def extend(self, error: RuleViolation | Collector, prefix: str = "") -> None:
        """Record every violation of ``error`` (a :class:`RuleViolation` or another collector,
        counted ones included), with ``prefix`` put before each field."""
        for v in error.violations:
            name = f"{prefix}{'.' if prefix and v.field and not v.field.startswith('[') else ''}{v.field}"
            self.append(Violation(name, v.template, v.params))
        self.more += error.more

    def refuse_unknown(self, data: Any, allowed: Iterable[str], prefix: str = "") -> None:
        """Record "Unknown field" for every key of the object ``data`` that is not in ``allowed``
        (a misspelt or invented field is an error, never silently kept), with a "did you mean"
        when a known field is close (:func:`unknown_field`); ``prefix`` goes before each field
        (``"events[0]."``). Does nothing when ``data`` is not an object."""
        if isinstance(data, dict):
            extra = data.keys() - allowed
            if extra:
                for key in sorted(extra, key=str):
                    self.append(unknown_field(f"{prefix}{key}", key, allowed))

    def __bool__(self) -> bool:
        return bool(self.violations)

    def raise_if_any(self) -> None:
        """Raise :class:`RuleViolation` if anything was recorded."""
        if self.violations:
            raise RuleViolation(self.violations, self.more)


def suggestion(name: Any, known: Iterable[str]) -> str | None:
    """The known name closest to a misspelt ``name`` (:func:`difflib.get_close_matches`, cut-off
    0.6), or ``None`` when none is close or ``name`` is not text."""
    if not isinstance(name, str):
        return None
    close = get_close_matches(name, sorted(str(k) for k in known), n=1)
    return close[0] if close else None


def unknown_field(field: str, name: Any, known: Iterable[str]) -> Violation:
    """The violation "Unknown field" of ``field`` whose key is ``name``, with "did you mean" the
    closest of the ``known`` fields when one is close (``"wsh"`` -> ``"wish"``)."""
    close = suggestion(name, known)
    if close is None:
        return Violation(field, _("Unknown field {name!r}."), {"name": name})
    return Violation(field, _("Unknown field {name!r}; did you mean {suggestion!r}?"), {"name": name, "suggestion": close})
