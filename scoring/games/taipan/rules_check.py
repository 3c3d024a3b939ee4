"""The referee's Tai Pan rules check: is this play legal, what is it, and why.

A referee picks the combination on the table, the cards played (none = a pass), the standing wish
and, optionally, the player's hand, each from a 56-card picker (:class:`RulesCheckForm`). Every
rule is judged by the engine (``engines.run("taipan", "play", ...)``, docs/engines/taipan.md,
:func:`judge`); its reason is translated with ``gettext(template).format(**params)``.
"""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import RuleViolation
from engines.taipan.cards import DECK, RANK_NAMES, SUITS, rank_name
from engines.taipan.rules import PRESETS
from scoring.games.entry import more_message

CARD_CHOICES = [(c.code, c.code) for c in DECK]

SUIT_LABELS = {"j": _("Jade"), "s": _("Swords"), "p": _("Pagodas"), "t": _("Stars")}
SPECIAL_LABELS = {"Mahjong": _("Mahjong"), "Dog": _("Dog"), "Phoenix": _("Phoenix"), "Dragon": _("Dragon")}
RANK_LABELS = {rank: name for rank, name in RANK_NAMES.items()}
WISH_CHOICES = [("", _("No wish"))] + [(str(rank), RANK_LABELS[rank]) for rank in range(2, 15)]
PHOENIX_CHOICES = [("", _("Let the engine choose"))] + [(str(rank), RANK_LABELS[rank]) for rank in range(2, 15)]
TABLE_PHOENIX_CHOICES = (
    [("", _("Automatic"))]
    + [(f"{rank}.5", f"{rank}.5") for rank in range(1, 15)]
    + [(str(rank), RANK_LABELS[rank]) for rank in range(2, 15)]
)
PRESET_LABELS = {"nskt": _("NSKT"), "standard": _("Standard (1000)"), "variant": _("Variant"), "atp": _("ATP")}
TURN_CHOICES = [("in_turn", _("On turn")), ("out_of_turn", _("Out of turn (bombs only)"))]


def picker_rows() -> list[tuple[str, list[tuple[str, str]]]]:
    """Rows for the card picker: one per suit (label, [(code, rank label)]) and one of specials."""
    rows = [(SUIT_LABELS[suit], [(RANK_NAMES[rank] + suit, RANK_NAMES[rank]) for rank in range(2, 15)]) for suit in SUITS]
    rows.append((_("Special cards"), [(code, label) for code, label in SPECIAL_LABELS.items()]))
    return rows


class RulesCheckForm(forms.Form):
    """Input of the rules check. Cleaned data maps directly onto the ``play`` command input via
    :meth:`engine_input`."""

    current = forms.MultipleChoiceField(label=_("Combination on the table"), choices=CARD_CHOICES, required=False,
                                        help_text=_("Leave empty when the player leads."))
    current_phoenix_as = forms.ChoiceField(
        label=_("Phoenix on the table"), choices=TABLE_PHOENIX_CHOICES, required=False,
        help_text=_("A Phoenix single: the rank it was played at (13.5 on a King, 1.5 when led). In a combination: "
                    "the rank it stands for. Automatic: 1.5 for a single, otherwise the highest reading."))
    play = forms.MultipleChoiceField(label=_("Cards played"), choices=CARD_CHOICES, required=False,
                                     help_text=_("Leave empty for a pass."))
    phoenix_as = forms.ChoiceField(label=_("Phoenix played as"), choices=PHOENIX_CHOICES, required=False)
    wish = forms.ChoiceField(label=_("Wish"), choices=WISH_CHOICES, required=False)
    turn = forms.ChoiceField(label=_("Turn"), choices=TURN_CHOICES, initial="in_turn", widget=forms.RadioSelect, required=False)
    hand = forms.MultipleChoiceField(label=_("The player's hand (optional)"), choices=CARD_CHOICES, required=False,
                                     help_text=_("Needed to check the wish. The cards played are added automatically."))
    preset = forms.ChoiceField(label=_("Rules"), choices=[(name, PRESET_LABELS.get(name, name)) for name in PRESETS],
                               initial="nskt", required=False)

    # engine field (prefix) -> form field
    FIELD_MAP = (("current.phoenix_as", "current_phoenix_as"), ("current", "current"), ("play", "play"),
                 ("phoenix_as", "phoenix_as"), ("hand", "hand"), ("wish", "wish"), ("in_turn", "turn"),
                 ("rules", "preset"))

    def engine_input(self) -> dict:
        """The ``play`` command input for the cleaned data (call only when the form is valid)."""
        data = self.cleaned_data
        order = {c.code: c.index for c in DECK}
        data_in: dict = {
            "current": None,
            "play": sorted(data["play"], key=order.__getitem__),
            "wish": int(data["wish"]) if data.get("wish") else None,
            "in_turn": data["turn"] != "out_of_turn",
            "rules": data["preset"] or "nskt",  # a link without the preset: the NSKT default
        }
        if data["current"]:
            data_in["current"] = {"cards": sorted(data["current"], key=order.__getitem__)}
            if data.get("current_phoenix_as"):
                value = float(data["current_phoenix_as"])
                data_in["current"]["phoenix_as"] = int(value) if value.is_integer() else value
        if data.get("phoenix_as"):
            data_in["phoenix_as"] = int(data["phoenix_as"])
        if data["hand"]:
            data_in["hand"] = sorted(set(data["hand"]) | set(data["play"]), key=order.__getitem__)
        return data_in

    def form_field_for(self, engine_field: str) -> str | None:
        """The form field an engine violation field belongs to (None: the whole form)."""
        for prefix, name in self.FIELD_MAP:
            if engine_field == prefix or engine_field.startswith(prefix + ".") or engine_field.startswith(prefix + "["):
                return name
        return None


TYPE_LABELS = {
    "single": _("single"),
    "pair": _("pair"),
    "triple": _("triple"),
    "full_house": _("full house"),
    "full house": _("full house"),
    "straight": _("straight"),
    "stairs": _("stairs"),
    "four_of_a_kind": _("four of a kind (bomb)"),
    "four of a kind": _("four of a kind (bomb)"),
    "straight_flush": _("straight flush (bomb)"),
    "straight flush": _("straight flush (bomb)"),
    "dog": _("Dog"),
}
NAMED_RANKS = {"Mahjong": _("Mahjong"), "Dragon": _("Dragon")}


def translate_message(template: str, params: dict) -> str:
    """An engine message in the active language: the template through gettext, combination type
    names and special rank names translated too."""
    shown = {}
    for key, value in params.items():
        if key in ("type", "current") and value in TYPE_LABELS:
            value = TYPE_LABELS[value]
        elif isinstance(value, str) and value in NAMED_RANKS:
            value = NAMED_RANKS[value]
        shown[key] = value
    return _t(template).format(**shown)


def _rank_label(rank) -> str:
    if rank is None:
        return ""
    name = rank_name(rank)
    return str(NAMED_RANKS.get(name, name))


def judge(form: RulesCheckForm) -> dict[str, Any] | None:
    """The engine's judgement of a valid ``form`` (engine ``play``): ``{"legal", "reason",
    "is_pass", "combination", "wish_checked", "wish_fulfilled", "wish", "had_wish"}`` with every
    text translated; on invalid input the engine's violations are added to the form's fields and
    ``None`` is returned."""
    data = form.engine_input()
    try:
        out = engines.run("taipan", "play", data)
    except RuleViolation as exc:
        for violation in exc.violations:
            form.add_error(form.form_field_for(violation.field), translate_message(violation.template, violation.params))
        if exc.more:
            form.add_error(None, more_message(exc.more))
        return None
    combination = out["combination"]
    return {
        "legal": out["legal"],
        "reason": translate_message(out["reason_template"], out["reason_params"]),
        "is_pass": not data["play"],
        "combination": combination and {
            "type": TYPE_LABELS.get(combination["type"], combination["type"]),
            "length": combination["length"],
            "rank": _rank_label(combination["rank"]),
            "phoenix_as": _rank_label(combination["phoenix_as"]) if combination["phoenix_as"] is not None else "",
            "bomb": combination["bomb"],
            "cards": combination["cards"],
        },
        "wish_checked": out["wish_checked"],
        "wish_fulfilled": out["wish_fulfilled"],
        "wish": RANK_LABELS.get(out["wish"]) if out["wish"] else None,
        "had_wish": data["wish"] is not None,
    }
