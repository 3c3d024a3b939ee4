"""The referee's Tai Pan rules check (issue 3 item 5): is this play legal, what is it, and why.

Public and read-only (a GET form, bookmarkable, no login needed). The judgement comes from the one
engine, ``engines.run("taipan", "play", ...)`` (DESIGN.md 2.1); the engine's reason is translated
with ``gettext(template).format(**params)``. With htmx the form swaps only the result panel.
"""
from __future__ import annotations

from django.shortcuts import render
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET

import engines
from engines.errors import RuleViolation
from engines.taipan.cards import rank_name
from scoring.web.forms.rules_check import RANK_LABELS, RulesCheckForm, picker_rows

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


@require_GET
def rules_check(request):
    """GET: the form; with any input, the engine's judgement next to it (or errors per field)."""
    submitted = bool(request.GET)
    form = RulesCheckForm(request.GET if submitted else None)
    result = None
    if submitted and form.is_valid():
        data = form.engine_input()
        try:
            out = engines.run("taipan", "play", data)
        except RuleViolation as exc:
            for violation in exc.violations:
                form.add_error(form.form_field_for(violation.field), translate_message(violation.template, violation.params))
        else:
            combination = out["combination"]
            result = {
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
    selected = {name: set(form.data.getlist(name)) if submitted else set() for name in ("current", "play", "hand")}
    context = {"form": form, "result": result, "submitted": submitted, "rows": picker_rows(), "selected": selected}
    template = "scoring/rules_check/panel.html" if request.htmx else "scoring/rules_check.html"
    return render(request, template, context)
