"""Entry of one Tai Pan hand as the referee reads it off the score sheet: a call per player, first
out, double victory and card points (docs/engines/taipan.md ``score`` input). Every rule check is the
engine's; this form only collects and maps the engine's violations back to its fields."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.games.entry import Entry, more_message, split_path, violation_message

SEATS = ("N", "E", "S", "W")

CALL_CHOICES = [
    ("", _("none")),
    ("tai_pan", _("Tai Pan")),
    ("grand_tai_pan", _("Grand Tai Pan")),
]
FIRST_OUT_CHOICES = [("", _("none"))] + [(s, s) for s in SEATS]
DOUBLE_VICTORY_CHOICES = [("", _("none")), ("NS", "NS"), ("EW", "EW")]

#: Engine violation field (dotted path of the hand record) -> form field.
VIOLATION_FIELDS: dict[str, str] = {
    "card_points": "card_points_ns",
    "card_points.NS": "card_points_ns",
    "card_points.EW": "card_points_ew",
    "calls": "call_n",
    "calls.N": "call_n",
    "calls.E": "call_e",
    "calls.S": "call_s",
    "calls.W": "call_w",
    "first_out": "first_out",
    "double_victory": "double_victory",
}


def violation_field(parts: list[str]) -> str | None:
    """The form field of an engine violation's path parts (``["card_points", "NS"]`` ->
    ``"card_points_ns"``), or ``None`` for a non-field error."""
    path = ".".join(parts)
    if path in VIOLATION_FIELDS:
        return VIOLATION_FIELDS[path]
    head = parts[0] if parts else ""
    if head in ("card_points", "first_out", "double_victory"):
        return VIOLATION_FIELDS[head]
    if head == "calls":
        seat = parts[1][:1] if len(parts) > 1 else ""
        return VIOLATION_FIELDS.get(f"calls.{seat}", "call_n")
    return None


#: Quick values of the card points NS on the entry page (one tap each; the referee types any
#: other multiple of 5). -25 and 125 are the extremes of one team (the Phoenix), which a phone's
#: numeric keypad cannot always type.
CARD_POINT_CHIPS = (-25, 0, 25, 50, 75, 100, 125)


def _points_widget() -> forms.TextInput:
    # A text field with the numeric keypad: type=number drops a typed "-" on some phones and
    # changes the value on a scroll; the engine checks the value.
    return forms.TextInput(attrs={"inputmode": "numeric", "pattern": "-?[0-9]*", "autocomplete": "off", "size": 5})


class HandForm(forms.Form):
    """One Tai Pan hand: a call per player, first out, double victory and card points NS (EW is
    100 - NS unless typed, so a sheet that does not add up can be entered and is refused by the
    engine with a clear message). Calls, first out and double victory are radio buttons (shown as
    large toggle buttons on the entry page, ``templates/games/taipan/entry.html``)."""

    call_n = forms.ChoiceField(label=_("Call N"), choices=CALL_CHOICES, required=False, widget=forms.RadioSelect, initial="")
    call_e = forms.ChoiceField(label=_("Call E"), choices=CALL_CHOICES, required=False, widget=forms.RadioSelect, initial="")
    call_s = forms.ChoiceField(label=_("Call S"), choices=CALL_CHOICES, required=False, widget=forms.RadioSelect, initial="")
    call_w = forms.ChoiceField(label=_("Call W"), choices=CALL_CHOICES, required=False, widget=forms.RadioSelect, initial="")
    first_out = forms.ChoiceField(label=_("First out"), choices=FIRST_OUT_CHOICES, required=False, widget=forms.RadioSelect)
    double_victory = forms.ChoiceField(label=_("Double victory"), choices=DOUBLE_VICTORY_CHOICES, required=False,
                                       widget=forms.RadioSelect, initial="")
    card_points_ns = forms.IntegerField(
        label=_("Card points NS"), required=False, min_value=-10_000, max_value=10_000, widget=_points_widget(),
        help_text=_("Leave empty on a double victory."),
    )
    card_points_ew = forms.IntegerField(
        label=_("Card points EW"), required=False, min_value=-10_000, max_value=10_000, widget=_points_widget(),
        help_text=_("Leave empty to use 100 - NS."),
    )

    def __init__(self, *args, players: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players or {}
        for seat in SEATS:
            name = (players or {}).get(seat)
            if name:
                self.fields[f"call_{seat.lower()}"].label = _("Call {seat} ({name})").format(seat=seat, name=name)

    def call_fields(self):
        """The four call fields in seat order N, E, S, W (for templates)."""
        return [self[f"call_{s.lower()}"] for s in SEATS]

    def call_rows(self):
        """``(seat, player name, bound call field)`` in seat order N, E, S, W (for templates)."""
        return [(s, (self.players or {}).get(s, ""), self[f"call_{s.lower()}"]) for s in SEATS]

    def chips(self):
        """The quick values of the card points NS (:data:`CARD_POINT_CHIPS`)."""
        return CARD_POINT_CHIPS


def initial_from_record(record: dict[str, Any]) -> dict[str, Any]:
    """Initial form data for a stored hand ``record`` (edit page). The EW card points are left
    empty when they are 100 - NS, as the entry page leaves them (then they follow a changed NS
    instead of contradicting it); only an EW that is not 100 - NS is filled in."""
    calls = record.get("calls") or {}
    cp = record.get("card_points") or {}
    ns, ew = cp.get("NS"), cp.get("EW")
    initial: dict[str, Any] = {
        "first_out": record.get("first_out") or "",
        "double_victory": record.get("double_victory") or "",
        "card_points_ns": ns,
        "card_points_ew": None if isinstance(ns, int) and ew == 100 - ns else ew,
    }
    for s in SEATS:
        initial[f"call_{s.lower()}"] = calls.get(s) or ""
    return initial


class TaiPanEntry(Entry):
    """Entry of one Tai Pan hand (engine ``score`` input)."""

    def build(self, data, initial):
        self.form = HandForm(data, initial=initial_from_record(initial) if initial else None, prefix=None,
                             players=self.names)
        self.ew_derived = False

    def record(self) -> dict[str, Any]:
        """``{"calls", "first_out", "double_victory", "card_points"}`` (docs/engines/taipan.md)."""
        data = self.form.cleaned_data
        calls = {s: data[f"call_{s.lower()}"] for s in SEATS if data.get(f"call_{s.lower()}")}
        ns, ew = data.get("card_points_ns"), data.get("card_points_ew")
        self.ew_derived = ew is None
        if ns is None and ew is None:
            card_points = None
        else:
            if ns is None:
                ns = 100 - ew
            if ew is None:
                ew = 100 - ns
            card_points = {"NS": ns, "EW": ew}
        return {
            "calls": calls,
            "first_out": data.get("first_out") or None,
            "double_victory": data.get("double_victory") or None,
            "card_points": card_points,
        }

    def locate(self, parts):
        name = violation_field(parts)
        return (self.form, name) if name else None

    def add_violations(self, exc) -> None:
        """As :meth:`Entry.add_violations`, but when EW was not typed (100 - NS) its violation
        repeats the NS one, or belongs to NS."""
        ns_flagged = any(violation_field(split_path(v.field)) == "card_points_ns" for v in exc.violations)
        for v in exc.violations:
            name = violation_field(split_path(v.field))
            if name == "card_points_ew" and self.ew_derived:
                if ns_flagged:
                    continue
                name = "card_points_ns"
            self.form.add_error(name if name in self.form.fields else None, violation_message(v))
        if exc.more:
            self.form.add_error(None, more_message(exc.more))
