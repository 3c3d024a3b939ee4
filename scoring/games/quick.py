"""Quick entry of a four-player deal beside full tile entry (docs/tournaments.md, "Entry mode").

A tournament's ``entry_mode`` is ``"quick"`` (the default: a referee enters who won, from whom and
the value; full tile entry stays on the page for disputes) or ``"full"`` (every deal tile by tile,
quick records refused by the adapter). :class:`QuickOrFullEntry` is the entry of a deal in either
mode: it holds a quick entry and a full entry (two :class:`~scoring.games.entry.Entry` objects,
field prefixes ``quick`` and the full entry's own) and delegates everything to the one chosen by
the ``mode`` radio (field ``entrymode``; a POST without it is full entry). Without JavaScript both parts are plain forms on the
page and the radio says which one is read; CSS shows only the chosen part where ``:has()`` works.

The record shapes are the engines' (docs/engines/sichuan.md and taiwanese.md, "Quick entry"); the
result lifecycle, preview and audit are the same for both modes (:mod:`scoring.results`).
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from engines.errors import RuleViolation, Violation
from scoring.games.entry import Entry
from scoring.games.mahjong_forms import SEAT_NAMES

QUICK = "quick"
FULL = "full"
#: The POST field that says which part of the entry is read.
MODE_FIELD = "entrymode"


def full_entry_only(settings: Any) -> bool:
    """True when the tournament (``settings``) enters every deal tile by tile (``entry_mode``
    ``"full"``); settings without the attribute (a script, a test double) allow quick records."""
    return getattr(settings, "entry_mode", QUICK) == FULL


def refuse_quick(settings: Any, field: str) -> None:
    """Raise :class:`RuleViolation` at ``field`` (the quick value of the record) when the
    tournament enters every deal tile by tile."""
    if full_entry_only(settings):
        raise RuleViolation([Violation(field, "This tournament enters every deal tile by tile: give the hand, not only its value.")])


def quick_win_text(who: Any, discarder: Any, robbed: Any, value: Any, unit: Any) -> str:
    """One quick win as a translated line: ``"East from South 3 fan"``, ``"East self-drawn 3
    fan"``, ``"East robbing South 1 fan"`` (``who`` a seat name; ``discarder`` / ``robbed`` seat
    keys or None)."""
    if discarder:
        how = _t("from %(seat)s") % {"seat": SEAT_NAMES.get(discarder, discarder)}
    elif robbed:
        how = _t("robbing %(seat)s") % {"seat": SEAT_NAMES.get(robbed, robbed)}
    else:
        how = _t("self-drawn")
    return f"{who} {how} {value} {unit}"


class ModeForm(forms.Form):
    """The quick/full switch of an entry (field ``entrymode``, no prefix)."""

    entrymode = forms.ChoiceField(label=_("entry mode"), choices=[(QUICK, _("quick")), (FULL, _("all tiles"))],
                                  widget=forms.RadioSelect, required=False)


class QuickOrFullEntry(Entry):
    """An entry with a quick part and a full part; see the module docstring. Subclasses set
    :attr:`quick_class` and :attr:`full_class` (``Entry`` classes) and :meth:`is_quick_record`."""

    quick_class: type[Entry]
    full_class: type[Entry]
    #: Template of the quick part and of the full part (context ``entry``: that part).
    quick_template = ""
    full_template = ""

    @staticmethod
    def is_quick_record(record: dict[str, Any]) -> bool:
        """True when a stored record was entered quickly (no tiles)."""
        raise NotImplementedError

    def build(self, data, initial):
        self.quick_allowed = not full_entry_only(self.settings)
        mode = FULL
        if self.quick_allowed:
            if data is not None:
                # The page always posts the radio; a POST without it (an older form, a script
                # posting the tile fields) is read as full entry.
                mode = QUICK if data.get(MODE_FIELD) == QUICK else FULL
            elif not initial or self.is_quick_record(initial):
                mode = QUICK
        self.mode = mode
        quick_initial = initial if initial and self.is_quick_record(initial) else {}
        full_initial = initial if initial and not self.is_quick_record(initial) else {}
        self.full = self.full_class(data, names=self.names, initial=full_initial, prefix=self.prefix, settings=self.settings)
        self.quick = (self.quick_class(data, names=self.names, initial=quick_initial, prefix=QUICK, settings=self.settings)
                      if self.quick_allowed else None)
        self.mode_form = ModeForm(data, initial={MODE_FIELD: mode}) if self.quick_allowed else None
        self.active = self.quick if mode == QUICK and self.quick is not None else self.full
        self.form = self.active.form
        self.tiles = getattr(self.full, "tiles", None)

    def __getattr__(self, name: str) -> Any:
        """Anything else (``formset``, ``tile_sets``) is the active part's."""
        if name.startswith("__") or name in ("active", "quick", "full"):
            raise AttributeError(name)
        return getattr(self.active, name)

    @property
    def forms(self):
        return self.active.forms

    def is_valid(self) -> bool:
        return self.active.is_valid()

    def record(self) -> dict[str, Any]:
        return self.active.record()

    def locate(self, parts):
        return self.active.locate(parts)

    def add_violations(self, exc: RuleViolation) -> None:
        self.active.add_violations(exc)

    def add_error(self, field: str, message) -> None:
        self.active.add_error(field, message)

    def non_field_errors(self) -> list[str]:
        return self.active.non_field_errors()

    def form_label(self, form) -> str:
        return self.active.form_label(form)

    def error_lines(self) -> list[str]:
        return self.active.error_lines()

    def has_errors(self) -> bool:
        return self.active.has_errors()
