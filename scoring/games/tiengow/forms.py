"""Entry of one Tien Gow deal: at settlement level (columns, immediate payments, the last trick) or
trick by trick as JSON (engine ``settle``/``deal`` input, docs/engines/tiengow.md; the banker is carried)."""
from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

from django import forms
from django.utils.html import format_html
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import RuleViolation
from engines.tiengow.names import TILE_NAMES
from scoring.games.entry import Entry, capitalise_labels

#: Tien Gow tile names (docs/engines/tiengow.md, the Tien Gow rule text "Opstelling"): English name -> msgid
#: marked for translation (the Dutch names of the rule text come from the catalogue: Hemel, Aarde,
#: Mens, Gans, Pruim, Dubbele Drie, Plank, Bijl, Scheidingspartitie, Lange Poot Zeven, Grote Kop
#: Zes; negen, acht, zeven, Grote Zes, vijf, Kleine Drie).
TIENGOW_NAME_MSGIDS: dict[str, Any] = {
    "Heaven": _("Heaven"),
    "Earth": _("Earth"),
    "Man": _("Man"),
    "Goose": _("Goose"),
    "Plum": _("Plum"),
    "Long Three": _("Long Three"),
    "Bench": _("Bench"),
    "Axe": _("Axe"),
    "Partition": _("Partition"),
    "Long Leg Seven": _("Long Leg Seven"),
    "Big Head Six": _("Big Head Six"),
    "Nine": _("Nine"),
    "Eight": _("Eight"),
    "Seven": _("Seven"),
    "Big Six": _("Big Six"),
    "Five": _("Five"),
    "Little Three": _("Little Three"),
}

def tiengow_tile_names() -> dict[str, Any]:
    """Tile code -> name in the active language (lazy), in the rule text's order: the engine's
    English names (``engines.tiengow.names.TILE_NAMES``) translated through
    :data:`TIENGOW_NAME_MSGIDS`."""
    return {code: TIENGOW_NAME_MSGIDS.get(english, english) for code, (english, _dutch) in TILE_NAMES.items()}


def tiengow_tile_choices(blank: bool = True) -> list[tuple[str, str]]:
    """``[(code, "Heaven 6-6"), ...]`` in the rule text's order."""
    choices = [(code, f"{name} {code}") for code, name in tiengow_tile_names().items()]
    return ([("", "---")] if blank else []) + choices


class TienGowForm(forms.Form):
    """A Tien Gow deal at settlement level (columns, immediate Supreme/quartet wins, the last
    trick) or as a trick-by-trick JSON record (engine ``deal``)."""

    MODES = [("settle", _("settlement")), ("deal", _("trick by trick"))]
    LAST_GROUPS = [
        ("ordinary", _("ordinary")),
        ("quartet", _("quartet")),
        ("supreme", _("Supreme")),
        ("little_three", _("Little Three (single 1-2)")),
    ]
    IMMEDIATE_GROUPS = [("", "–"), ("supreme", _("Supreme")), ("quartet", _("quartet"))]
    IMMEDIATE_ROWS = 4
    #: Errors about a group of fields rather than one (shown at the group's fieldset), by key.
    GROUP_LABELS = {"columns": _("Columns won per player")}

    mode = forms.ChoiceField(label=_("entry mode"), choices=MODES, initial="settle", widget=forms.RadioSelect)
    last_winner = forms.ChoiceField(label=_("last trick won by"), required=False, widget=forms.RadioSelect)
    last_group = forms.ChoiceField(label=_("last trick won with"), choices=LAST_GROUPS, required=False, widget=forms.RadioSelect)
    last_leader = forms.ChoiceField(label=_("last trick led by"), required=False, widget=forms.RadioSelect)
    led_with = forms.ChoiceField(label=_("led with"), required=False)
    won_with = forms.ChoiceField(label=_("won with"), required=False)
    tricks = forms.CharField(
        label=_("trick-by-trick record (JSON)"),
        required=False,
        widget=forms.Textarea(attrs={"rows": 6}),
        help_text=_('{"hands": [[8 tiles] x 4], "tricks": [{"leader": 0, "plays": [{"seat": 0, "tiles": ["6-6"], "face_up": true}, ...]}]}'),
    )

    def __init__(self, *args, seat_names=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.group_errors: dict[str, list[str]] = {}
        seats = [str(i) for i in range(4)]
        names = seat_names or {}
        self.seat_names = names
        choices = [("", "–")] + [(s, format_html("<b>{}</b><small>{}</small>", int(s) + 1, names.get(s, ""))) for s in seats]
        for name in ("last_winner", "last_leader"):
            self.fields[name].choices = choices
        tiles = tiengow_tile_choices()
        self.fields["led_with"].choices = tiles
        self.fields["won_with"].choices = tiles
        for i in range(4):
            label = f"{i + 1} - {names[str(i)]}" if str(i) in names else f"{i + 1}"
            self.fields[f"columns_{i}"] = forms.IntegerField(
                label=label, required=False, min_value=0, max_value=8,
                widget=forms.NumberInput(attrs={"inputmode": "numeric", "data-columns": str(i)}))
        for k in range(self.IMMEDIATE_ROWS):
            self.fields[f"imm_winner_{k}"] = forms.ChoiceField(label=_("won by"), choices=choices, required=False, widget=forms.RadioSelect)
            self.fields[f"imm_group_{k}"] = forms.ChoiceField(label=_("with"), choices=self.IMMEDIATE_GROUPS, required=False,
                                                              widget=forms.RadioSelect)
        capitalise_labels(self)

    def column_fields(self):
        return [self[f"columns_{i}"] for i in range(4)]

    def column_cells(self):
        """The columns per seat for the quick face: ``[(seat number 1..4, player name, bound
        field)]``."""
        return [(i + 1, self.seat_names.get(str(i), ""), self[f"columns_{i}"]) for i in range(4)]

    #: The keypad's digits: a player takes 0..8 columns (eight tiles each, the Tien Gow rule text).
    KEYPAD = tuple(range(9))

    def column_errors(self) -> list[str]:
        """Errors about the columns together (e.g. "the columns add up to 8"), shown at the
        columns fieldset."""
        return self.group_errors.get("columns", [])

    def immediate_rows(self):
        return [(self[f"imm_winner_{k}"], self[f"imm_group_{k}"]) for k in range(self.IMMEDIATE_ROWS)]

    def clean(self):
        d = super().clean()
        if d.get("mode") == "deal":
            try:
                parsed = json.loads(d.get("tricks") or "")
            except ValueError as exc:
                self.add_error("tricks", gettext("Not valid JSON: {error}").format(error=exc))
                return d
            if not isinstance(parsed, dict):
                self.add_error("tricks", gettext("The record must be a JSON object."))
            d["tricks_parsed"] = parsed
            return d
        cols = [d.get(f"columns_{i}") for i in range(4)]
        if any(c is not None for c in cols) and any(c is None for c in cols):
            for i, c in enumerate(cols):
                if c is None:
                    self.add_error(f"columns_{i}", gettext("Enter every player's columns (0 for none)."))
        if any(c is not None for c in cols) and not d.get("last_winner"):
            self.add_error("last_winner", gettext("Who won the last trick?"))
        for k in range(self.IMMEDIATE_ROWS):
            if bool(d.get(f"imm_winner_{k}")) != bool(d.get(f"imm_group_{k}")):
                self.add_error(f"imm_group_{k}", gettext("Give both the player and the group."))
        if all(c is None for c in cols) and not any(d.get(f"imm_winner_{k}") for k in range(self.IMMEDIATE_ROWS)):
            self.add_error(None, gettext("Enter the columns or an immediate payment."))
        return d


class TienGowEntry(Entry):
    """Tien Gow deal entry (engine ``settle`` or ``deal``); the banker is carried."""

    def add_violations(self, exc: RuleViolation) -> None:
        """As :meth:`Entry.add_violations`, with the engine's seats (0..3, in ``seat`` params)
        named as the page names them, 1..4 ("Seat 2" is the engine's seat 1)."""
        shifted = [replace(v, params={**v.params, "seat": v.params["seat"] + 1})
                   if isinstance(v.params.get("seat"), int) else v for v in exc.violations]
        super().add_violations(RuleViolation(shifted, exc.more))

    def build(self, data, initial):
        self.form = TienGowForm(data, initial=self.initial_from(initial), prefix=self.prefix, seat_names=self.names)
        #: The banker written into the record being edited (``None`` for a new deal: the page shows
        #: the table's carried banker then).
        self.stored_banker: int | None = int(initial["banker"]) if isinstance(initial.get("banker"), int) else None
        self.tile_names = list(tiengow_tile_names().items())
        self._imm_index: list[int | None] = []

    def is_valid(self) -> bool:
        return self.form.is_valid()

    def record(self) -> dict[str, Any]:
        d = self.form.cleaned_data
        if d["mode"] == "deal":
            parsed = dict(d.get("tricks_parsed") or {})
            parsed.pop("banker", None)
            return {"mode": "deal", **parsed}
        cols = [d.get(f"columns_{i}") for i in range(4)]
        last = None
        if d.get("last_winner"):
            last = {"winner": int(d["last_winner"]), "group": d.get("last_group") or "ordinary"}
            if d.get("last_leader"):
                last["leader"] = int(d["last_leader"])
            if d.get("led_with"):
                last["led_with"] = d["led_with"]
            if d.get("won_with"):
                last["won_with"] = d["won_with"]
        immediate, self._imm_index = [], []
        for k in range(TienGowForm.IMMEDIATE_ROWS):
            if d.get(f"imm_winner_{k}"):
                immediate.append({"winner": int(d[f"imm_winner_{k}"]), "group": d[f"imm_group_{k}"]})
                self._imm_index.append(k)
        if last and last["group"] in ("quartet", "supreme") and self._immediate_on_last_trick():
            # Quick entry: a last trick won with a quartet or the Supreme is also paid at once
            # (the Tien Gow rule text; option immediate_on_last_trick): listed for the referee unless
            # they listed it themselves.
            if not any(imm == {"winner": last["winner"], "group": last["group"]} for imm in immediate):
                immediate.append({"winner": last["winner"], "group": last["group"]})
                self._imm_index.append(None)
        return {"mode": "settle", "columns": None if all(c is None for c in cols) else cols, "last_trick": last, "immediate": immediate}

    def _immediate_on_last_trick(self) -> bool:
        """The tournament's rules option ``immediate_on_last_trick`` (docs/engines/tiengow.md);
        ``False`` when the rules cannot be read (the engine then says what is wrong)."""
        raw = getattr(self.settings, "rules", None)
        try:
            return bool(engines.resolve_rules("tiengow", None if raw in (None, "", {}) else raw).get("immediate_on_last_trick"))
        except RuleViolation:
            return False

    @staticmethod
    def initial_from(record: dict[str, Any]) -> dict[str, Any]:
        if not record:
            return {"mode": "settle", "last_group": "ordinary"}
        if record.get("mode") == "deal":
            body = {k: v for k, v in record.items() if k not in ("mode", "banker")}
            return {"mode": "deal", "tricks": json.dumps(body)}
        out: dict[str, Any] = {"mode": "settle", "last_group": "ordinary"}
        for i, c in enumerate(record.get("columns") or []):
            out[f"columns_{i}"] = c
        last = record.get("last_trick") or {}
        if last:
            out.update(
                last_winner=str(last.get("winner", "")),
                last_group=last.get("group", "ordinary"),
                last_leader=str(last["leader"]) if "leader" in last else "",
                led_with=last.get("led_with", ""),
                won_with=last.get("won_with", ""),
            )
        for k, imm in enumerate(record.get("immediate") or []):
            out[f"imm_winner_{k}"] = str(imm.get("winner", ""))
            out[f"imm_group_{k}"] = imm.get("group", "")
        return out

    def locate(self, parts):
        if not parts:
            return None
        if self.form.cleaned_data.get("mode") == "deal":
            return self.form, "tricks" if parts[0] in ("hands", "tricks") else None
        head = parts[0]
        if head == "columns":
            if len(parts) > 1 and parts[1].isdigit() and int(parts[1]) < 4:
                return self.form, f"columns_{parts[1]}"
            return self.form, "columns"
        if head == "last_trick":
            sub = parts[1] if len(parts) > 1 else "winner"
            return self.form, {"winner": "last_winner", "group": "last_group", "leader": "last_leader", "led_with": "led_with", "won_with": "won_with"}.get(sub, "last_winner")
        if head == "immediate" and len(parts) > 1 and parts[1].isdigit():
            i = int(parts[1])
            if i < len(self._imm_index):
                k = self._imm_index[i]
                if k is None:  # added for the last trick (record())
                    return self.form, "last_group"
                return self.form, f"imm_group_{k}" if len(parts) > 2 and parts[2] == "group" else f"imm_winner_{k}"
        return None
