"""Forms of the result actions, the same for every game: a reason (edit, delete, end at the time
limit, resume, reopen, restore) and the confirmation (with blind confirmation: the final totals
re-typed, one per side). The version a page was built from is read separately
(:func:`scoring.locking.parse_version`), so a missing or forged one is refused like a stale one.
Record entry forms belong to the games (:mod:`scoring.games`)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.participants.entrants import WholeNumberField

#: Highest absolute total a confirmer can type (a bound, not a rule: keeps the database happy).
MAX_TOTAL = 10_000_000


class ReasonForm(forms.Form):
    """Why a result changes: kept in the audit trail. Required."""

    reason = forms.CharField(label=_("Reason"), max_length=500, widget=forms.TextInput)

    def clean_reason(self) -> str:
        reason = self.cleaned_data["reason"].strip()
        if not reason:
            raise forms.ValidationError(_("Give a reason."))
        return reason


class ConfirmForm(forms.Form):
    """Confirm a result; ``labels``: one per side (``"NS Team Anna"``, ``"East Bart"``). With blind
    confirmation every total is required (typed from the signed score sheet, never shown);
    otherwise they may be typed as a check."""

    def __init__(self, *args, labels: list[str], blind: bool = False, **kwargs):
        super().__init__(*args, **kwargs)
        self.blind = blind
        self.sides = len(labels)
        for i, label in enumerate(labels):
            self.fields[f"total_{i}"] = WholeNumberField(
                signed=True, label=_("Final total %(side)s") % {"side": label}, required=blind,
                min_value=-MAX_TOTAL, max_value=MAX_TOTAL, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))

    def totals(self) -> list[int] | None:
        """The typed totals in side order, or ``None`` when none was typed (not blind)."""
        values = [self.cleaned_data.get(f"total_{i}") for i in range(self.sides)]
        if all(v is None for v in values):
            return None
        return [v or 0 for v in values]


class DisputeForm(forms.Form):
    """"These totals are wrong" (a side confirming through its private link): the final totals as
    that side has them, one per side (required), and an optional note for the referee. Its fields
    are prefixed ``dispute-`` (it stands on the confirmation page next to :class:`ConfirmForm`)."""

    prefix = "dispute"

    def __init__(self, *args, labels: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = len(labels)
        for i, label in enumerate(labels):
            self.fields[f"total_{i}"] = WholeNumberField(
                signed=True, label=_("Final total %(side)s") % {"side": label}, required=True,
                min_value=-MAX_TOTAL, max_value=MAX_TOTAL, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
        self.fields["note"] = forms.CharField(
            label=_("What is wrong? (optional)"), required=False, max_length=1000,
            widget=forms.Textarea(attrs={"rows": 3}))

    def totals(self) -> list[int]:
        """The typed totals in side order."""
        return [self.cleaned_data[f"total_{i}"] for i in range(self.sides)]


class AcknowledgeForm(forms.Form):
    """One tap: acknowledge a record (verification per hand) in the revision the page showed."""

    revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)


class DisagreeForm(forms.Form):
    """"This hand (deal) is wrong" (verification per hand, a side through its private link): the
    record's scores as that side has them, one per side (required), and an optional note for the
    referee; the record's ``revision`` the page showed. Fields prefixed ``disagree-N-`` (one form
    per pending record on the page)."""

    revision = forms.IntegerField(min_value=1, widget=forms.HiddenInput)

    def __init__(self, *args, labels: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        self.sides = len(labels)
        for i, label in enumerate(labels):
            self.fields[f"score_{i}"] = WholeNumberField(
                signed=True, label=_("Score %(side)s") % {"side": label}, required=True,
                min_value=-MAX_TOTAL, max_value=MAX_TOTAL, widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
        self.fields["note"] = forms.CharField(
            label=_("What is wrong? (optional)"), required=False, max_length=1000,
            widget=forms.Textarea(attrs={"rows": 2}))

    def scores(self) -> list[int]:
        """The typed scores in side order."""
        return [self.cleaned_data[f"score_{i}"] for i in range(self.sides)]
