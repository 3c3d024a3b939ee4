"""The form of the API-token page: a name for the new token and how long it lives
(:mod:`scoring.participants.api_tokens`)."""
from __future__ import annotations

from django import forms
from django.utils.functional import lazy
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from scoring.participants import api_tokens
from scoring.participants.entrants import TextField


def _days(days: int) -> str:
    return ngettext("%(n)d day", "%(n)d days", days) % {"n": days}


#: "30 days" in the language of the request (evaluated when shown).
days_label = lazy(_days, str)


class NewTokenForm(forms.Form):
    """``name`` (1 to 60 characters, no control characters) and ``days`` (one of
    :data:`scoring.participants.api_tokens.PAGE_DAYS`, default 30)."""

    name = TextField(
        label=_("Name"), max_length=api_tokens.NAME_LENGTH,
        help_text=_("What the token is for, so you recognise it later: e.g. “scorer laptop”."),
    )
    days = forms.TypedChoiceField(
        label=_("Valid for"), coerce=int, initial=api_tokens.DEFAULT_DAYS,
        choices=[(d, days_label(d)) for d in api_tokens.PAGE_DAYS],
        help_text=_("After that the token stops working; issue a new one when you still need it."),
    )
