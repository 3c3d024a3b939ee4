"""Entry forms of one record (a hand or a deal), the same face for every game.

An :class:`Entry` wraps the Django form(s) of one game's record: ``is_valid()``, ``record()`` (the
record as the engine reads it, built from the cleaned data), ``add_violations(RuleViolation)``
(each engine violation next to the field it concerns; unmapped ones as non-field errors, without
the engine's internal field path), ``add_error(field, message)`` (a service error) and
``error_lines()`` (every error as "label: message", for a preview). Forms only collect what the
referee typed; every rule check is the engine's.

Engine messages are English templates with parameters (``engines.errors.Violation``); they are
shown translated through :func:`violation_message`. An engine keeps at most the first 50
violations and counts the rest (``RuleViolation.more``); :func:`more_message` says how many were
left out ("… and 1.234 more errors."), after the 50 shown.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Any

from django import forms
from django.utils.formats import number_format
from django.utils.text import capfirst
from django.utils.translation import gettext, ngettext

from engines.errors import RuleViolation

_INDEX = re.compile(r"\[(\d+)\]")
_RECORD_PREFIX = re.compile(r"^(records|hands)\[\d+\]\.?")


def capitalise_labels(form: forms.Form) -> None:
    """Start every label of ``form`` with a capital (the msgids are lowercase fragments, reused in
    sentences; as a field label they read as a heading)."""
    for field in form.fields.values():
        if field.label:
            field.label = capfirst(field.label)


def violation_message(violation) -> str:
    """The translated message of an engine :class:`~engines.errors.Violation` (docs/engines/index.md)."""
    template = gettext(violation.template)
    try:
        return template.format(**violation.params)
    except (KeyError, IndexError, ValueError):
        return violation.message


def more_message(more: int) -> str:
    """The translated line after the violations shown when ``more`` further ones were found and
    not kept ("… and 1,234 more errors."; the number grouped as the language groups it)."""
    return ngettext("… and %(count)s more error.", "… and %(count)s more errors.", more) % {
        "count": number_format(more, force_grouping=True)}


def violation_messages(exc: RuleViolation) -> list[tuple[str, str]]:
    """Every violation of ``exc`` as ``(field, translated message)``, in the engine's order, and
    ``("", more_message(...))`` last when violations were left out (:attr:`RuleViolation.more`)."""
    out = [(v.field, violation_message(v)) for v in exc.violations]
    if getattr(exc, "more", 0):
        out.append(("", more_message(exc.more)))
    return out


def split_path(path: str) -> list[str]:
    """A violation's field as parts: ``"events[2].hand.win.tile"`` -> ``["events", "2", "hand",
    "win", "tile"]``. A leading ``records[i].``/``hands[i].`` (a whole-result check) is dropped."""
    path = _RECORD_PREFIX.sub("", path or "")
    return [p for p in _INDEX.sub(r".\1", path).split(".") if p != ""]


class Entry:
    """Base of the per-game entry objects; subclasses implement :meth:`build`, :meth:`record` and
    :meth:`locate` and set :attr:`form` (the form that takes non-field errors)."""

    form: forms.Form
    #: Parameter values of engine messages shown in words on the page (the mahjong seats "E" ..
    #: "N" as "East" .. "North"); ``{}``: shown as the engine gives them.
    PARAM_WORDS: dict[str, Any] = {}

    def __init__(self, data=None, *, names: dict[str, str] | None = None, initial: dict[str, Any] | None = None,
                 prefix: str = "rec", settings: Any = None):
        self.bound = data is not None
        self.names = names or {}
        self.prefix = prefix
        self.settings = settings
        self.build(data, initial or {})

    def build(self, data, initial: dict[str, Any]) -> None:
        """Create the form(s) from POST ``data`` (or ``None``) and a stored record ``initial``."""
        raise NotImplementedError

    @property
    def forms(self) -> list[forms.Form]:
        """Every form of the entry, in page order."""
        return [self.form]

    def nothing_entered(self) -> bool:
        """True when the bound entry holds nothing but what it started with (no form changed, e.g.
        right after switching between quick and full entry): a preview then shows nothing
        rather than "required" errors for a form not filled in yet."""
        return self.bound and not any(f.has_changed() for f in self.forms)

    def is_valid(self) -> bool:
        """True when every form is valid."""
        return all([f.is_valid() for f in self.forms])

    def record(self) -> dict[str, Any]:
        """The record as the engine reads it. Only call after :meth:`is_valid`."""
        raise NotImplementedError

    def locate(self, parts: list[str]) -> tuple[forms.Form, str | None] | None:
        """The form and field of an engine violation's path parts (``None``: non-field)."""
        return None

    def add_violations(self, exc: RuleViolation) -> None:
        """Put each engine violation next to its field (or its group of fields, ``group_errors``);
        unmapped ones become non-field errors. A message already shown at the same place is not
        repeated."""
        for v in exc.violations:
            if self.PARAM_WORDS:
                v = replace(v, params={k: str(self.PARAM_WORDS[x]) if isinstance(x, str) and x in self.PARAM_WORDS else x
                                       for k, x in v.params.items()})
            message = violation_message(v)
            target = self.locate(split_path(v.field)) if v.field else None
            form, name = target if target is not None else (self.form, None)
            groups = getattr(form, "group_errors", None)
            if groups is not None and name in getattr(form, "GROUP_LABELS", {}):
                if message not in groups.setdefault(name, []):
                    groups[name].append(message)
                continue
            name = name if name in form.fields else None
            if message not in [str(e) for e in form.errors.get(name or "__all__", [])]:
                form.add_error(name, message)
        if getattr(exc, "more", 0):
            self.form.add_error(None, more_message(exc.more))

    def add_error(self, field: str, message) -> None:
        """A service error (a field name, or ``""`` for the whole entry)."""
        self.form.add_error(field if field in self.form.fields else None, message)

    def non_field_errors(self) -> list[str]:
        """The errors about the entry as a whole."""
        return [str(e) for e in self.form.non_field_errors()]

    def form_label(self, form: forms.Form) -> str:
        """A prefix naming ``form`` in error lines (``"Event 2"``), ``""`` for the main form."""
        return ""

    def error_lines(self) -> list[str]:
        """Every error as "label: message" lines in form order (a field's label, never an
        internal field path); each line once."""
        out: list[str] = []
        for form in self.forms:
            prefix = self.form_label(form)
            groups = getattr(form, "group_errors", {})
            items = [(form.fields[name].label if name in form.fields else "", errs) for name, errs in form.errors.items()]
            items += [(form.GROUP_LABELS[key], errs) for key, errs in groups.items()]
            for label, errs in items:
                label = " · ".join(str(x) for x in (prefix, label) if x)
                for e in errs:
                    line = f"{label}: {e}" if label else str(e)
                    if line not in out:
                        out.append(line)
        return out

    def has_errors(self) -> bool:
        """True when any form (or field group) carries an error."""
        return any(f.errors or getattr(f, "group_errors", None) for f in self.forms)
