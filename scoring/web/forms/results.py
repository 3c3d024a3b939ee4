"""Forms of the referee pages (Tai Pan hand entry, edit/delete reasons, end, confirm, reopen).

The forms only collect what the referee typed and turn it into the engine's hand record
(INTERFACES.md, "Tai Pan hand record"); every rule check is the engine's (``engines.run("taipan",
...)`` through :mod:`scoring.results.matches`). Engine violations are put back next to the field
that caused them with :func:`add_violations` (field map in :data:`VIOLATION_FIELDS`).
"""
from __future__ import annotations

import re
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

SEATS = ("N", "E", "S", "W")

CALL_CHOICES = [
    ("", _("none")),
    ("tai_pan", _("Tai Pan")),
    ("grand_tai_pan", _("Grand Tai Pan")),
]
FIRST_OUT_CHOICES = [("", _("none"))] + [(s, s) for s in SEATS]
DOUBLE_VICTORY_CHOICES = [("", _("none")), ("NS", _("NS")), ("EW", _("EW"))]

#: Engine violation field (dotted path of the hand record) -> form field. Anything else is shown
#: as a non-field error at the top of the form.
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

_HAND_PREFIX = re.compile(r"^hands\[\d+\]\.?")


def violation_field(path: str) -> str | None:
    """The form field of engine violation ``path`` (``"card_points.NS"`` -> ``"card_points_ns"``;
    a ``hands[3].`` prefix from the engine's ``match`` command is ignored), or ``None`` for a
    non-field error."""
    path = _HAND_PREFIX.sub("", path or "")
    if path in VIOLATION_FIELDS:
        return VIOLATION_FIELDS[path]
    head = path.split(".", 1)[0]
    if head in ("card_points", "first_out", "double_victory"):
        return VIOLATION_FIELDS[head]
    if head == "calls":
        seat = path.split(".", 1)[1][:1] if "." in path else ""
        return VIOLATION_FIELDS.get(f"calls.{seat}", "call_n")
    return None


def violation_message(violation) -> str:
    """The translated message of an engine :class:`~engines.errors.Violation` (DESIGN.md 2)."""
    template = gettext(violation.template)
    try:
        return template.format(**violation.params) if violation.params else template
    except (KeyError, IndexError, ValueError):
        return violation.message


def add_violations(form: forms.Form, error) -> None:
    """Add every violation of ``error`` (a :class:`~engines.errors.RuleViolation`) to ``form``,
    next to the field it concerns (non-field error when the field is not on the form)."""
    ew_derived = getattr(form, "ew_derived", False)
    ns_flagged = any(violation_field(v.field) == "card_points_ns" for v in error.violations)
    for v in error.violations:
        name = violation_field(v.field)
        if name == "card_points_ew" and ew_derived:
            # EW was not typed (100 - NS): its violation repeats the NS one, or belongs to NS.
            if ns_flagged:
                continue
            name = "card_points_ns"
        if name not in form.fields:
            name = None
        form.add_error(name, violation_message(v))


def add_service_error(form: forms.Form, error) -> None:
    """Add a :class:`scoring.errors.ServiceError` to ``form`` (its ``field`` when the form
    has it, otherwise as a non-field error)."""
    name = error.field if getattr(error, "field", "") in form.fields else None
    form.add_error(name, str(error.message))


class VersionForm(forms.Form):
    """Base of every write form: carries the ``Match.version`` the page was built from, so a stale
    save is refused (``scoring.errors.StaleVersion``)."""

    version = forms.IntegerField(
        widget=forms.HiddenInput, required=True, min_value=0,
        error_messages={
            "required": _("This page is out of date: reload the match and try again."),
            "invalid": _("This page is out of date: reload the match and try again."),
            "min_value": _("This page is out of date: reload the match and try again."),
        },
    )

    def clean(self):
        """A missing or forged version is shown at the top of the form (the field is hidden)."""
        data = super().clean()
        errors = self._errors.pop("version", None) if self._errors else None
        if errors:
            self.add_error(None, errors)
        return data


class HandForm(VersionForm):
    """One Tai Pan hand as the referee types it: a call per player, first out, double victory and
    card points NS (EW is 100 - NS unless typed, so a sheet that does not add up can be entered and
    is refused by the engine with a clear message).

    :meth:`to_record` gives the engine's ``score`` input (DESIGN.md 2.1)."""

    call_n = forms.ChoiceField(label=_("Call N"), choices=CALL_CHOICES, required=False)
    call_e = forms.ChoiceField(label=_("Call E"), choices=CALL_CHOICES, required=False)
    call_s = forms.ChoiceField(label=_("Call S"), choices=CALL_CHOICES, required=False)
    call_w = forms.ChoiceField(label=_("Call W"), choices=CALL_CHOICES, required=False)
    first_out = forms.ChoiceField(label=_("First out"), choices=FIRST_OUT_CHOICES, required=False)
    double_victory = forms.ChoiceField(label=_("Double victory"), choices=DOUBLE_VICTORY_CHOICES, required=False)
    card_points_ns = forms.IntegerField(
        label=_("Card points NS"),
        required=False,
        widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}),
        help_text=_("Leave empty on a double victory."),
    )
    card_points_ew = forms.IntegerField(
        label=_("Card points EW"),
        required=False,
        widget=forms.NumberInput(attrs={"step": 5, "inputmode": "numeric"}),
        help_text=_("Leave empty to use 100 - NS."),
    )

    def __init__(self, *args, players: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        for seat in SEATS:
            name = (players or {}).get(seat)
            if name:
                self.fields[f"call_{seat.lower()}"].label = _("Call {seat} ({name})").format(seat=seat, name=name)

    def call_fields(self):
        """The four call fields in seat order N, E, S, W (for templates)."""
        return [self[f"call_{s.lower()}"] for s in SEATS]

    def to_record(self) -> dict[str, Any]:
        """The hand record (INTERFACES.md): ``{"calls", "first_out", "double_victory",
        "card_points"}``. Only call on a valid form."""
        data = self.cleaned_data
        calls = {s: data[f"call_{s.lower()}"] for s in SEATS if data.get(f"call_{s.lower()}")}
        ns = data.get("card_points_ns")
        ew = data.get("card_points_ew")
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

    @classmethod
    def initial_from_record(cls, record: dict[str, Any], version: int) -> dict[str, Any]:
        """Initial form data for an existing hand ``record`` (edit page)."""
        calls = record.get("calls") or {}
        cp = record.get("card_points") or {}
        initial: dict[str, Any] = {
            "version": version,
            "first_out": record.get("first_out") or "",
            "double_victory": record.get("double_victory") or "",
            "card_points_ns": cp.get("NS"),
            "card_points_ew": cp.get("EW"),
        }
        for s in SEATS:
            initial[f"call_{s.lower()}"] = calls.get(s) or ""
        return initial


class HandEditForm(HandForm):
    """Edit an entered hand: the hand fields plus a required reason (kept in the audit)."""

    reason = forms.CharField(label=_("Reason for the change"), max_length=500, widget=forms.TextInput)


class ReasonForm(VersionForm):
    """Delete a hand, reopen a match, restore an audit entry: a reason (required by default)."""

    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.TextInput)

    def __init__(self, *args, reason_required: bool = True, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["reason"].required = reason_required


class ConfirmForm(VersionForm):
    """Confirm a match result. With blind confirmation the confirmer types the final totals
    without seeing them (``totals_ns``/``totals_ew`` become required)."""

    totals_ns = forms.IntegerField(label=_("Final total NS"), required=False)
    totals_ew = forms.IntegerField(label=_("Final total EW"), required=False)

    def __init__(self, *args, blind: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.blind = blind
        if blind:
            self.fields["totals_ns"].required = True
            self.fields["totals_ew"].required = True
        else:
            del self.fields["totals_ns"]
            del self.fields["totals_ew"]

    def totals(self) -> dict[str, int] | None:
        """``{"NS": int, "EW": int}`` when blind, else ``None``."""
        if not self.blind:
            return None
        return {"NS": self.cleaned_data["totals_ns"], "EW": self.cleaned_data["totals_ew"]}
