"""How an entrant (a Tai Pan team of two, or a player of a four-player game) is validated, the same
way whether it is typed into the organiser's form or read from a CSV row (issue 12 item 2): the
organiser forms (:mod:`scoring.web.forms.organiser`) declare their fields with :class:`TextField`
and :class:`WholeNumberField` and check duplicates with :func:`name_key`; the CSV imports
(:mod:`scoring.io.entrants_csv`) validate every row with :class:`TeamEntry` / :class:`PlayerEntry`,
built from the same fields and rules.

- Text: at most 120 characters (the model's column); no control characters (NUL, tab, line
  breaks), no zero-width or bidirectional control characters (invisible look-alikes, reversed
  text), no unassigned or private-use code points; surrounding spaces are stripped.
- Whole numbers: ASCII digits only (``²``, ``٣`` or ``１`` are refused, not read as 2, 3, 1), within
  bounds: a seed 1..:data:`MAX_SEED` (a signed 32-bit integer, every database's integer column), a
  round 1..:data:`MAX_ROUND`.
- Names are the same when they are the same after Unicode compatibility normalisation, dropping
  accents (combining marks), case folding and collapsing spaces (``Draken``, ``DRAKEN``,
  ``Ｄｒａｋｅｎ``, ``Dráken`` are one team): :func:`name_key`, which every path that stores a name
  (team and player forms, CSV imports, tournament JSON import) compares with.
"""
from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable

from django import forms
from django.core.validators import ProhibitNullCharactersValidator
from django.utils.translation import gettext_lazy as _

from scoring.params import whole_number

#: Longest name or affiliation (the models' ``max_length``).
MAX_TEXT = 120
#: Highest seed: a signed 32-bit integer (larger values overflowed into a server error).
MAX_SEED = 2**31 - 1
#: Highest round number (a tournament has a handful of rounds).
MAX_ROUND = 999

#: Unicode categories refused in names: controls, format characters (zero-width space and joiners,
#: bidirectional controls, the BOM, soft hyphen), surrogates, private use, unassigned, line and
#: paragraph separators.
REFUSED_CATEGORIES = {"Cc", "Cf", "Cs", "Co", "Cn", "Zl", "Zp"}

_SPACES = re.compile(r"\s+")


def refused_character(text: str) -> tuple[int, str] | None:
    """``(position, character)`` (1-based) of the first character a name may not hold, or ``None``."""
    for i, ch in enumerate(text, start=1):
        if unicodedata.category(ch) in REFUSED_CATEGORIES:
            return i, ch
    return None


def validate_text(value: str) -> None:
    """Raise ``ValidationError`` when ``value`` holds a refused character (see the module)."""
    found = refused_character(value or "")
    if found is not None:
        position, ch = found
        raise forms.ValidationError(
            _("Character %(position)d is an invisible or control character (U+%(code)04X), which a name may not hold."),
            code="refused_character", params={"position": position, "code": ord(ch)})


def fold(text: str) -> str:
    """``text`` with case and accents folded: case folded, then NFKD (compatibility decomposition:
    full-width letters become ASCII, ``á`` becomes ``a`` plus a combining accent), then every
    combining mark dropped (``"Ｊádé"`` -> ``"jade"``, ``"Straße"`` -> ``"strasse"``)."""
    decomposed = unicodedata.normalize("NFKD", unicodedata.normalize("NFKD", text or "").casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def name_key(name: str) -> str:
    """The comparison key of a name: accents and case folded (:func:`fold`), inner spaces collapsed,
    trimmed. Two names with the same key are the same name (``Zwaluw``, ``Zwalúw``, ``ZWALUW``)."""
    return _SPACES.sub(" ", fold(name)).strip()


class TextField(forms.CharField):
    """A name or affiliation: stripped, at most :data:`MAX_TEXT` characters, no refused characters."""

    def __init__(self, *, max_length: int = MAX_TEXT, **kwargs):
        super().__init__(max_length=max_length, strip=True, **kwargs)
        # validate_text names the NUL byte with its position like every other control character.
        self.validators = [v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)] + [validate_text]


class WholeNumberField(forms.IntegerField):
    """A whole number written with the ASCII digits 0-9 only (with ``signed``, an optional minus
    sign before them), within ``min_value..max_value``."""

    default_error_messages = {"invalid": _("Enter a whole number written with the digits 0-9.")}

    def __init__(self, *, signed: bool = False, **kwargs):
        super().__init__(**kwargs)
        self.signed = signed

    def to_python(self, value):
        if value in self.empty_values:
            return None
        if isinstance(value, bool):
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        if isinstance(value, int):
            return value
        number = whole_number(str(value).strip(), signed=self.signed)
        if number is None:
            raise forms.ValidationError(self.error_messages["invalid"], code="invalid")
        return number


def seed_field(**kwargs) -> WholeNumberField:
    """A seed: 1..:data:`MAX_SEED`, optional."""
    return WholeNumberField(label=kwargs.pop("label", _("seed")), required=False, min_value=1, max_value=MAX_SEED, **kwargs)


def rating_field(**kwargs) -> WholeNumberField:
    """A rating (strength, higher is stronger): 0..:data:`MAX_SEED`, optional."""
    return WholeNumberField(label=kwargs.pop("label", _("rating")), required=False, min_value=0, max_value=MAX_SEED, **kwargs)


def round_field(low: int = 1, **kwargs) -> WholeNumberField:
    """A round number ``low``..:data:`MAX_ROUND`."""
    return WholeNumberField(min_value=low, max_value=MAX_ROUND, **kwargs)


def clean_number(value: str | None) -> str:
    """A federation (or student) number as stored: ASCII letters and digits only, upper case,
    after Unicode compatibility normalisation (``" nl 123 "``, ``"nl-123"``, ``"NL.123"``,
    full-width ``"ＮＬ１２３"`` -> ``"NL123"``); empty for none."""
    return "".join(c for c in unicodedata.normalize("NFKC", value or "") if c.isascii() and c.isalnum()).upper()


class FederationNumberField(TextField):
    """An optional federation or student number (at most 40 characters; stored by
    :func:`clean_number`). The same number is the same person in every tournament."""

    def __init__(self, **kwargs):
        kwargs.setdefault("label", _("federation number"))
        kwargs.setdefault("help_text", _("Optional. A federation or student number; the same number is the same person in every tournament."))
        super().__init__(max_length=40, required=False, **kwargs)

    def clean(self, value):
        return clean_number(super().clean(value))


def duplicate_of(name: str, names: Iterable[str]) -> str | None:
    """The first of ``names`` that is the same name as ``name`` (:func:`name_key`), or ``None``."""
    key = name_key(name)
    return next((other for other in names if name_key(other) == key), None)


class TeamEntry(forms.Form):
    """A team as one CSV row gives it (the same fields and rules as the organiser's team form):
    ``name``, ``player1``, ``player2`` (required), ``number1``/``number2`` (their federation numbers), ``affiliation``, ``seed``, ``joined_round``
    (at least ``first_open``, the first round not drawn yet; empty: that round), ``rating``."""

    name = TextField(label=_("name"))
    player1 = TextField(label=_("First player"))
    player2 = TextField(label=_("Second player"))
    number1 = FederationNumberField(label=_("federation number of the first player"))
    number2 = FederationNumberField(label=_("federation number of the second player"))
    affiliation = TextField(label=_("affiliation"), required=False)
    seed = seed_field()
    joined_round = round_field(label=_("joined in round"), required=False)
    rating = rating_field()

    def __init__(self, *args, first_open: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.first_open = first_open

    def clean_joined_round(self):
        value = self.cleaned_data.get("joined_round")
        if value is None:
            return self.first_open
        if value < self.first_open:
            raise forms.ValidationError(
                _("Round %(round)d is already paired or played: a team can join round %(first)d at the earliest.")
                % {"round": value, "first": self.first_open})
        return value

    def clean(self):
        data = super().clean()
        first, second = data.get("player1"), data.get("player2")
        if first and second and name_key(first) == name_key(second):
            self.add_error("player2", _("The two players must be different people."))
        if data.get("number1") and data.get("number1") == data.get("number2"):
            self.add_error("number2", _("The two players have the same federation number."))
        return data


TRUE_WORDS = {"1", "yes", "y", "true", "ja", "j", "x", "waar"}
FALSE_WORDS = {"", "0", "no", "n", "false", "nee", "onwaar"}


class YesNoField(forms.Field):
    """``yes``/``no`` in a CSV cell (also 1/0, true/false, ja/nee, x); anything else is refused."""

    default_error_messages = {"invalid": _("Write yes or no.")}

    def to_python(self, value):
        text = str(value or "").strip().casefold()
        if text in TRUE_WORDS:
            return True
        if text in FALSE_WORDS:
            return False
        raise forms.ValidationError(self.error_messages["invalid"], code="invalid")


class PlayerEntry(forms.Form):
    """A player of a four-player tournament as one CSV row gives it (the same fields and rules as
    the organiser's player form): ``name`` (required), ``federation_number``, ``affiliation``, ``seed``, ``joined_round``
    (1..:data:`MAX_ROUND`; empty: ``first_open``, the first round not seated yet), ``substitute``,
    ``rating``."""

    name = TextField(label=_("name"))
    federation_number = FederationNumberField()
    affiliation = TextField(label=_("affiliation"), required=False)
    seed = seed_field()
    joined_round = round_field(label=_("joined in round"), required=False)
    substitute = YesNoField(label=_("substitute"), required=False)
    rating = rating_field()

    def __init__(self, *args, first_open: int = 1, **kwargs):
        super().__init__(*args, **kwargs)
        self.first_open = first_open

    def clean_joined_round(self):
        value = self.cleaned_data.get("joined_round")
        return self.first_open if value is None else value
