"""Entry of one Sichuan bloody-battle deal: event rows (wins and kongs in order) and the wall
exhaustion, as the engine's ``settle`` input (docs/engines/sichuan.md)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import RuleViolation
from scoring.games.entry import Entry, capitalise_labels
from scoring.games.mahjong_forms import SEAT_NAMES, SEATS, seat_toggles, split_melds, tile_picker, tile_sets
from scoring.games.quick import QuickOrFullEntry


class SichuanEventForm(forms.Form):
    """One event of a Sichuan deal: a kong or a win (the winning hand typed in MPSZ)."""

    TYPES = [("", _("none")), ("win", _("win")), ("kong", _("kong"))]
    KINDS = [("", "---"), ("exposed", _("exposed")), ("concealed", _("concealed")), ("added", _("added"))]
    HOWS = [("discard", _("on a discard")), ("self", _("self-draw")), ("rob_added_kong", _("robbing an added kong"))]
    SUITS = [("m", _("characters (m)")), ("p", _("dots (p)")), ("s", _("bamboo (s)"))]

    type = forms.ChoiceField(label=_("event"), choices=TYPES, required=False, widget=forms.RadioSelect)
    player = forms.ChoiceField(label=_("player"), required=False, widget=forms.RadioSelect)
    kind = forms.ChoiceField(label=_("kong kind"), choices=KINDS[1:], required=False, widget=forms.RadioSelect)
    tile = forms.CharField(label=_("kong tile"), required=False, max_length=4, widget=forms.TextInput(attrs={"data-tiles": "tile"}))
    source = forms.ChoiceField(label=_("from (discarder / supplier / robbed)"), required=False, widget=forms.RadioSelect)
    void = forms.ChoiceField(label=_("void suit"), choices=SUITS, required=False, widget=forms.RadioSelect)
    melds = forms.CharField(label=_("melds"), required=False, max_length=200, help_text=_("e.g. pung 111m claimed, kong 5555p exposed"),
                            widget=forms.TextInput(attrs={"data-tiles": "melds"}))
    concealed = forms.CharField(label=_("concealed tiles"), required=False, max_length=120, help_text=_("MPSZ, winning tile included"),
                                widget=forms.TextInput(attrs={"data-tiles": "hand"}))
    win_tile = forms.CharField(label=_("winning tile"), required=False, max_length=4, widget=forms.TextInput(attrs={"data-tiles": "win"}))
    how = forms.ChoiceField(label=_("how"), choices=HOWS, required=False, widget=forms.RadioSelect)
    after_kong = forms.BooleanField(label=_("on a kong replacement"), required=False)
    last_tile = forms.BooleanField(label=_("last tile"), required=False)

    def __init__(self, *args, seat_names=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = seat_toggles(seat_names)
        self.fields["source"].choices = seat_toggles(seat_names, blank=gettext("nobody"))
        capitalise_labels(self)

    def clean(self):
        data = super().clean()
        kind = data.get("type")
        if not kind:
            return data
        if not data.get("player"):
            self.add_error("player", gettext("Choose the player."))
        if kind == "kong":
            if not data.get("kind"):
                self.add_error("kind", gettext("Choose the kind of kong."))
            if not data.get("tile"):
                self.add_error("tile", gettext("Type the kong's tile, e.g. 5p."))
        if kind == "win":
            if not data.get("concealed"):
                self.add_error("concealed", gettext("Type the winning hand."))
            if not data.get("win_tile"):
                self.add_error("win_tile", gettext("Type the winning tile."))
            if not data.get("void"):
                self.add_error("void", gettext("Choose the void suit."))
        return data

    def event(self) -> dict[str, Any]:
        d = self.cleaned_data
        if d["type"] == "kong":
            ev = {"type": "kong", "player": d["player"], "kind": d["kind"], "tile": d["tile"].strip()}
            if d.get("source"):
                ev["supplier"] = d["source"]
            return ev
        how = d.get("how") or ("self" if not d.get("source") else "discard")
        ev = {
            "type": "win",
            "player": d["player"],
            "hand": {
                "void": d["void"],
                "melds": split_melds(d.get("melds", "")),
                "concealed": d["concealed"].strip(),
                "win": {"tile": d["win_tile"].strip(), "how": how, "after_kong": bool(d.get("after_kong")), "last_tile": bool(d.get("last_tile"))},
            },
        }
        if d.get("source"):
            ev["robbed" if how == "rob_added_kong" else "discarder"] = d["source"]
        return ev

    @staticmethod
    def initial_from(ev: dict[str, Any]) -> dict[str, Any]:
        if ev.get("type") == "kong":
            return {"type": "kong", "player": ev.get("player"), "kind": ev.get("kind"), "tile": ev.get("tile"), "source": ev.get("supplier", "")}
        hand = ev.get("hand") or {}
        win = hand.get("win") or {}
        return {
            "type": "win",
            "player": ev.get("player"),
            "source": ev.get("discarder") or ev.get("robbed") or "",
            "void": hand.get("void"),
            "melds": ", ".join(hand.get("melds") or []),
            "concealed": hand.get("concealed", ""),
            "win_tile": win.get("tile", ""),
            "how": win.get("how", "discard"),
            "after_kong": win.get("after_kong", False),
            "last_tile": win.get("last_tile", False),
        }


class SichuanExhaustionForm(forms.Form):
    """Wall exhaustion: the hands of the players still in (void suit, concealed tiles, melds)."""

    exhausted = forms.BooleanField(label=_("wall exhausted"), required=False)

    def __init__(self, *args, seat_names=None, **kwargs):
        super().__init__(*args, **kwargs)
        names = seat_names or {}
        for s in SEATS:
            who = f"{SEAT_NAMES[s]} - {names[s]}" if s in names else SEAT_NAMES[s]
            self.fields[f"void_{s}"] = forms.ChoiceField(label=_("void suit"), choices=[("", "---")] + SichuanEventForm.SUITS, required=False)
            self.fields[f"concealed_{s}"] = forms.CharField(label=who, required=False, max_length=120,
                                                           widget=forms.TextInput(attrs={"data-tiles": "hand"}))
            self.fields[f"melds_{s}"] = forms.CharField(label=_("melds"), required=False, max_length=200,
                                                       widget=forms.TextInput(attrs={"data-tiles": "melds"}))
        capitalise_labels(self)

    def seat_rows(self):
        return [(s, self[f"void_{s}"], self[f"concealed_{s}"], self[f"melds_{s}"]) for s in SEATS]

    def exhaustion(self) -> dict[str, Any] | None:
        d = self.cleaned_data
        if not d.get("exhausted"):
            return None
        out = {}
        for s in SEATS:
            if d.get(f"concealed_{s}") or d.get(f"melds_{s}"):
                out[s] = {"void": d.get(f"void_{s}") or "", "concealed": d[f"concealed_{s}"].strip(), "melds": split_melds(d.get(f"melds_{s}", ""))}
        return out

    @staticmethod
    def initial_from(ex: dict[str, Any] | None) -> dict[str, Any]:
        if ex is None:
            return {}
        out: dict[str, Any] = {"exhausted": True}
        for s, hand in ex.items():
            out[f"void_{s}"] = hand.get("void", "")
            out[f"concealed_{s}"] = hand.get("concealed", "")
            out[f"melds_{s}"] = ", ".join(hand.get("melds") or [])
        return out


class SichuanEntry(Entry):
    """A Sichuan deal: event rows (wins and kongs in order) and the wall exhaustion (docs/engines/sichuan.md)."""

    PARAM_WORDS = SEAT_NAMES


    EXTRA_ROWS = 6

    _EVENT_FIELDS = {
        ("player",): "player",
        ("kind",): "kind",
        ("tile",): "tile",
        ("supplier",): "source",
        ("discarder",): "source",
        ("robbed",): "source",
        ("hand", "void"): "void",
        ("hand", "melds"): "melds",
        ("hand", "concealed"): "concealed",
        ("hand", "win", "tile"): "win_tile",
        ("hand", "win", "how"): "how",
        ("hand", "win", "after_kong"): "after_kong",
        ("hand", "win", "last_tile"): "last_tile",
        ("hand", "win"): "win_tile",
        ("hand",): "concealed",
        ("type",): "type",
    }

    def build(self, data, initial):
        EventFormSet = forms.formset_factory(SichuanEventForm, extra=0, max_num=20)
        events = initial.get("events") or []
        rows = [SichuanEventForm.initial_from(ev) for ev in events]
        rows += [{} for _ in range(max(2, self.EXTRA_ROWS - len(rows)))]
        self.formset = EventFormSet(data, initial=rows, prefix=f"{self.prefix}-ev", form_kwargs={"seat_names": self.names})
        self.form = SichuanExhaustionForm(data, initial=SichuanExhaustionForm.initial_from(initial.get("exhaustion")), prefix=f"{self.prefix}-ex", seat_names=self.names)
        self._index: list[int] = []
        self.tiles = tile_picker()
        self.tile_sets = tile_sets("mps")

    @property
    def forms(self):
        return [*self.formset.forms, self.form]

    def form_label(self, form) -> str:
        """Errors of an event row start with its legend, "Event n"."""
        rows = list(self.formset.forms)
        return gettext("Event %(n)s") % {"n": rows.index(form) + 1} if form in rows else ""

    def is_valid(self) -> bool:
        ok = self.formset.is_valid() & self.form.is_valid()
        if ok and not any(f.cleaned_data.get("type") for f in self.formset.forms) and not self.form.cleaned_data.get("exhausted"):
            self.form.add_error(None, gettext("Enter at least one event, or mark the wall exhausted."))
            ok = False
        return ok

    def record(self) -> dict[str, Any]:
        events, self._index = [], []
        for i, f in enumerate(self.formset.forms):
            if f.cleaned_data.get("type"):
                events.append(f.event())
                self._index.append(i)
        return {"players": list(SEATS), "events": events, "exhaustion": self.form.exhaustion()}

    def locate(self, parts):
        if parts[:1] == ["events"] and len(parts) >= 2 and parts[1].isdigit():
            i = int(parts[1])
            if i < len(self._index):
                form = self.formset.forms[self._index[i]]
                rest = parts[2:]
                for n in range(len(rest), 0, -1):
                    key = tuple(p for p in rest[:n] if not p.isdigit())
                    if key in self._EVENT_FIELDS:
                        return form, self._EVENT_FIELDS[key]
                return form, None
        if parts[:1] == ["exhaustion"] and len(parts) >= 2 and parts[1] in SEATS:
            s = parts[1]
            sub = parts[2] if len(parts) > 2 else "concealed"
            name = {"void": f"void_{s}", "melds": f"melds_{s}"}.get(sub, f"concealed_{s}")
            return self.form, name
        if parts[:1] == ["exhaustion"]:
            return self.form, "exhausted"
        return None


# --------------------------------------------------------------------------- quick entry


def fan_keypad_top(settings) -> tuple[int, bool]:
    """The highest fan button and whether it is the cap: the tournament's fan cap (5 by default,
    rule text section 5: more fan pays the same, so its button reads "5+"), else 10 and no cap."""
    try:
        cap = engines.resolve_rules("sichuan", getattr(settings, "rules", None) or None)["fan_cap"]
    except RuleViolation:
        cap = 5
    return (10, False) if cap is None else (int(cap), True)


def fan_choices(top: tuple[int, bool]) -> list[tuple[int, str]]:
    """Keypad choices 0..top; the cap's button reads "5+" (any higher fan is entered as the cap)."""
    last, capped = top
    return [(n, f"{n}+" if capped and n == last else str(n)) for n in range(last + 1)]


class SichuanQuickEventForm(forms.Form):
    """One event of a quick Sichuan deal: a win (player, from whom or self-drawn, its fan from a
    keypad) or a kong (player, kind, supplier of an exposed kong), no tiles."""

    TYPES = [("win", _("win")), ("kong", _("kong"))]

    type = forms.ChoiceField(label=_("event"), choices=TYPES, required=False, widget=forms.RadioSelect, initial="win")
    player = forms.ChoiceField(label=_("player"), required=False, widget=forms.RadioSelect)
    source = forms.ChoiceField(label=_("from"), required=False, widget=forms.RadioSelect)
    fan = forms.TypedChoiceField(label=_("fan"), coerce=int, required=False, widget=forms.RadioSelect, empty_value=None)
    robbed = forms.BooleanField(label=_("by robbing an added kong"), required=False)
    kind = forms.ChoiceField(label=_("kong kind"), choices=SichuanEventForm.KINDS[1:], required=False, widget=forms.RadioSelect)

    def __init__(self, *args, seat_names=None, fan_top=(5, True), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = seat_toggles(seat_names)
        self.fields["source"].choices = [("self", gettext("self"))] + seat_toggles(seat_names)
        self.fields["fan"].choices = fan_choices(fan_top)
        capitalise_labels(self)

    def used(self) -> bool:
        """True when the row holds an event (a player was tapped)."""
        return bool(self.cleaned_data.get("player"))

    def clean(self):
        data = super().clean()
        if not data.get("player"):
            if data.get("source") or data.get("fan") is not None or data.get("kind"):
                self.add_error("player", gettext("Choose the player."))
            return data
        if data.get("type") == "kong":
            if not data.get("kind"):
                self.add_error("kind", gettext("Choose the kind of kong."))
            return data
        if not data.get("source"):
            self.add_error("source", gettext("Choose who paid, or self-drawn."))
        elif data.get("robbed") and data["source"] == "self":
            self.add_error("source", gettext("Choose whose kong was robbed."))
        if data.get("fan") is None:
            self.add_error("fan", gettext("Tap the fan."))
        return data

    def event(self) -> dict[str, Any]:
        d = self.cleaned_data
        source = d.get("source") if d.get("source") != "self" else None
        if d.get("type") == "kong":
            ev = {"type": "kong", "player": d["player"], "kind": d["kind"]}
            if source:
                ev["supplier"] = source
            return ev
        ev = {"type": "win", "player": d["player"], "fan": d["fan"]}
        if source:
            ev["robbed" if d.get("robbed") else "discarder"] = source
        return ev

    @staticmethod
    def initial_from(ev: dict[str, Any]) -> dict[str, Any]:
        if ev.get("type") == "kong":
            return {"type": "kong", "player": ev.get("player"), "kind": ev.get("kind"), "source": ev.get("supplier") or "self"}
        return {"type": "win", "player": ev.get("player"), "fan": ev.get("fan"),
                "source": ev.get("discarder") or ev.get("robbed") or "self", "robbed": "robbed" in ev}


class SichuanQuickEndForm(forms.Form):
    """Wall exhaustion in a quick deal: each player still in is not ready, a flower pig, or ready
    with the fan of their best wait."""

    exhausted = forms.BooleanField(label=_("wall exhausted"), required=False)

    def __init__(self, *args, seat_names=None, fan_top=(5, True), **kwargs):
        super().__init__(*args, **kwargs)
        names = seat_names or {}
        choices = [("", gettext("not ready")), ("pig", gettext("flower pig"))]
        choices += [(str(n), gettext("ready, %(fan)s fan") % {"fan": label}) for n, label in fan_choices(fan_top)]
        for s in SEATS:
            who = f"{SEAT_NAMES[s]} - {names[s]}" if s in names else SEAT_NAMES[s]
            self.fields[f"end_{s}"] = forms.ChoiceField(label=who, choices=choices, required=False)
        capitalise_labels(self)

    def seat_fields(self):
        return [self[f"end_{s}"] for s in SEATS]

    def exhaustion(self, winners: list[str]) -> dict[str, Any] | None:
        d = self.cleaned_data
        if not d.get("exhausted"):
            return None
        out: dict[str, Any] = {}
        for s in SEATS:
            if s in winners:
                continue
            value = d.get(f"end_{s}") or ""
            out[s] = {"flower_pig": True} if value == "pig" else {"ready_fan": int(value)} if value.isdigit() else {}
        return out

    @staticmethod
    def initial_from(ex: dict[str, Any] | None) -> dict[str, Any]:
        if ex is None:
            return {}
        out: dict[str, Any] = {"exhausted": True}
        for s, entry in ex.items():
            out[f"end_{s}"] = "pig" if entry.get("flower_pig") else str(entry["ready_fan"]) if "ready_fan" in entry else ""
        return out


class SichuanQuickEntry(Entry):
    """A quick Sichuan deal (docs/engines/sichuan.md, "Quick entry"): event rows of wins (who won,
    from whom, the fan) and kongs (who, which kind), and the wall exhaustion without tiles."""

    PARAM_WORDS = SEAT_NAMES

    ROWS = 6
    _EVENT_FIELDS = {"player": "player", "discarder": "source", "robbed": "source", "supplier": "source", "fan": "fan",
                     "kind": "kind", "tile": "kind", "type": "type"}

    def build(self, data, initial):
        top = fan_keypad_top(self.settings)
        EventFormSet = forms.formset_factory(SichuanQuickEventForm, extra=0, max_num=20)
        rows = [SichuanQuickEventForm.initial_from(ev) for ev in initial.get("events") or []]
        rows += [{} for _ in range(max(1, self.ROWS - len(rows)))]
        self.formset = EventFormSet(data, initial=rows, prefix=f"{self.prefix}-ev",
                                    form_kwargs={"seat_names": self.names, "fan_top": top})
        self.form = SichuanQuickEndForm(data, initial=SichuanQuickEndForm.initial_from(initial.get("exhaustion")),
                                        prefix=f"{self.prefix}-ex", seat_names=self.names, fan_top=top)
        self._index: list[int] = []

    @property
    def forms(self):
        return [*self.formset.forms, self.form]

    def form_label(self, form) -> str:
        rows = list(self.formset.forms)
        return gettext("Event %(n)s") % {"n": rows.index(form) + 1} if form in rows else ""

    def is_valid(self) -> bool:
        ok = self.formset.is_valid() & self.form.is_valid()
        if ok and not any(f.used() for f in self.formset.forms) and not self.form.cleaned_data.get("exhausted"):
            self.form.add_error(None, gettext("Enter at least one event, or mark the wall exhausted."))
            ok = False
        return ok

    def record(self) -> dict[str, Any]:
        events, self._index = [], []
        for i, f in enumerate(self.formset.forms):
            if f.used():
                events.append(f.event())
                self._index.append(i)
        winners = [ev["player"] for ev in events if ev["type"] == "win"]
        return {"players": list(SEATS), "events": events, "exhaustion": self.form.exhaustion(winners)}

    def locate(self, parts):
        if parts[:1] == ["events"] and len(parts) >= 2 and parts[1].isdigit():
            i = int(parts[1])
            if i < len(self._index):
                form = self.formset.forms[self._index[i]]
                return form, self._EVENT_FIELDS.get(parts[2] if len(parts) > 2 else "", None)
        if parts[:1] == ["exhaustion"] and len(parts) >= 2 and parts[1] in SEATS:
            return self.form, f"end_{parts[1]}"
        if parts[:1] == ["exhaustion"]:
            return self.form, "exhausted"
        return None


class SichuanDealEntry(QuickOrFullEntry):
    """A Sichuan deal, quick or with every tile (:mod:`scoring.games.quick`)."""

    quick_class = SichuanQuickEntry
    full_class = SichuanEntry
    quick_template = "games/sichuan/quick.html"
    full_template = "games/sichuan/entry.html"

    @staticmethod
    def is_quick_record(record: dict[str, Any]) -> bool:
        """No win gives a hand and no exhaustion entry gives tiles."""
        events = record.get("events") or []
        if any(ev.get("type") == "win" and "hand" in ev for ev in events):
            return False
        ex = record.get("exhaustion") or {}
        return not any(isinstance(v, dict) and "concealed" in v for v in ex.values())
