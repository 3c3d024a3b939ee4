"""Entry of one Taiwanese 16-tile deal: the winner's hand, or a draw (engine ``score`` input,
docs/engines/taiwanese.md; dealer and streak are carried by the adapter)."""
from __future__ import annotations

from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import RuleViolation
from engines.taiwanese.scoring import QUICK_MAX_TAI
from scoring.games.entry import Entry, capitalise_labels
from scoring.games.mahjong_forms import SEAT_NAMES, seat_toggles, split_melds, tile_picker, tile_sets
from scoring.games.quick import QuickOrFullEntry


class TaiwaneseForm(forms.Form):
    """A Taiwanese deal: the winner's hand, or a draw (dealer and streak are carried)."""

    HOWS = [
        ("discard", _("on a discard")),
        ("self", _("self-draw")),
        ("rob_added_kong", _("robbing an added kong")),
        ("eight_flowers", _("eight flowers")),
        ("seven_rob_one", _("seven flowers robbing one")),
    ]
    FLAGS = [
        ("heavenly_hand", _("heavenly hand")),
        ("earthly_hand", _("earthly hand")),
        ("heavenly_ready", _("heavenly ready")),
        ("earthly_ready", _("earthly ready")),
    ]

    winner = forms.ChoiceField(label=_("winner"), widget=forms.RadioSelect)
    how = forms.ChoiceField(label=_("how"), choices=HOWS, required=False, widget=forms.RadioSelect)
    source = forms.ChoiceField(label=_("discarder / robbed player"), required=False, widget=forms.RadioSelect)
    flowers = forms.CharField(label=_("flowers"), required=False, max_length=80, help_text=_("e.g. fl1 se3"),
                              widget=forms.TextInput(attrs={"data-tiles": "flowers"}))
    melds = forms.CharField(label=_("melds"), required=False, max_length=300, help_text=_("e.g. pung 555z claimed, chow 234m claimed"),
                            widget=forms.TextInput(attrs={"data-tiles": "melds"}))
    concealed = forms.CharField(label=_("concealed tiles"), required=False, max_length=150, help_text=_("MPSZ, winning tile included"),
                                widget=forms.TextInput(attrs={"data-tiles": "hand"}))
    win_tile = forms.CharField(label=_("winning tile"), required=False, max_length=4, widget=forms.TextInput(attrs={"data-tiles": "win"}))
    after_kong = forms.BooleanField(label=_("on a kong replacement"), required=False)
    last_wall_tile = forms.BooleanField(label=_("last wall tile"), required=False)
    last_discard = forms.BooleanField(label=_("last discard"), required=False)
    flags = forms.MultipleChoiceField(label=_("special situations"), choices=FLAGS, required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, seat_names=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = seat_toggles(seat_names) + [("draw", gettext("draw (nobody won)"))]
        self.fields["source"].choices = seat_toggles(seat_names, blank=gettext("nobody"))
        capitalise_labels(self)

    def clean(self):
        d = super().clean()
        if d.get("winner") and d["winner"] != "draw":
            if not d.get("concealed"):
                self.add_error("concealed", gettext("Type the winning hand."))
            if not d.get("win_tile") and d.get("how") not in ("eight_flowers", "seven_rob_one"):
                self.add_error("win_tile", gettext("Type the winning tile."))
            if d.get("how") in ("discard", "rob_added_kong") and not d.get("source"):
                self.add_error("source", gettext("Choose who discarded (or whose kong was robbed)."))
            if d.get("source") and d.get("source") == d.get("winner"):
                self.add_error("source", gettext("The winner cannot pay themselves."))
        return d


class TaiwaneseEntry(Entry):
    """Taiwanese deal entry (engine ``score``)."""

    PARAM_WORDS = SEAT_NAMES


    _FIELDS = {
        "seat": "winner",
        "flowers": "flowers",
        "melds": "melds",
        "concealed": "concealed",
        "win.tile": "win_tile",
        "win.how": "how",
        "win.discarder": "source",
        "win.robbed": "source",
        "win.after_kong": "after_kong",
        "win.last_wall_tile": "last_wall_tile",
        "win.last_discard": "last_discard",
        "win": "win_tile",
        "flags": "flags",
    }

    def build(self, data, initial):
        self.form = TaiwaneseForm(data, initial=self.initial_from(initial), prefix=self.prefix, seat_names=self.names)
        self.tiles = tile_picker(honours=True, flowers=True)
        self.tile_sets = tile_sets("mpsz")

    def is_valid(self) -> bool:
        return self.form.is_valid()

    def record(self) -> dict[str, Any]:
        d = self.form.cleaned_data
        if d["winner"] == "draw":
            return {"draw": True}
        how = d.get("how") or "discard"
        win: dict[str, Any] = {"tile": (d.get("win_tile") or "").strip(), "how": how}
        if d.get("source"):
            # Passed whatever the way of winning, so the engine refuses a contradiction (a
            # self-draw with a discarder) instead of the form silently dropping it.
            win["robbed" if how in ("rob_added_kong", "seven_rob_one") else "discarder"] = d["source"]
        for flag in ("after_kong", "last_wall_tile", "last_discard"):
            if d.get(flag):
                win[flag] = True
        return {
            "seat": d["winner"],
            "flowers": (d.get("flowers") or "").replace(",", " ").split(),
            "melds": split_melds(d.get("melds", "")),
            "concealed": (d.get("concealed") or "").strip(),
            "win": win,
            "flags": list(d.get("flags") or []),
        }

    @staticmethod
    def initial_from(record: dict[str, Any]) -> dict[str, Any]:
        if not record:
            return {}
        if record.get("draw"):
            return {"winner": "draw"}
        win = record.get("win") or {}
        return {
            "winner": record.get("seat"),
            "how": win.get("how", "discard"),
            "source": win.get("discarder") or win.get("robbed") or "",
            "flowers": " ".join(record.get("flowers") or []),
            "melds": ", ".join(record.get("melds") or []),
            "concealed": record.get("concealed", ""),
            "win_tile": win.get("tile", ""),
            "after_kong": win.get("after_kong", False),
            "last_wall_tile": win.get("last_wall_tile", False),
            "last_discard": win.get("last_discard", False),
            "flags": record.get("flags") or [],
        }

    def locate(self, parts):
        plain = [p for p in parts if not p.isdigit()]
        for n in range(len(plain), 0, -1):
            key = ".".join(plain[:n])
            if key in self._FIELDS:
                return self.form, self._FIELDS[key]
        if plain[:1] in (["dealer"], ["streak"], ["round_wind"]):
            return self.form, None
        return None


# --------------------------------------------------------------------------- quick entry

#: Tai buttons of the keypad without a lower cap (0..15); more is typed in "other".
KEYPAD_TOP = 15


def tai_keypad_top(settings) -> tuple[int, bool]:
    """The highest tai button and whether an "other" field is needed: the tournament's cap when
    it is at most :data:`KEYPAD_TOP`, else :data:`KEYPAD_TOP` and an "other" number field."""
    try:
        cap = engines.resolve_rules("taiwanese", getattr(settings, "rules", None) or None)["cap"]
    except RuleViolation:
        cap = None
    if cap is not None and cap <= KEYPAD_TOP:
        return int(cap), False
    return KEYPAD_TOP, True


class TaiwaneseQuickForm(forms.Form):
    """A quick Taiwanese deal: the winner (or a draw), from whom (or self-drawn) and the hand tai
    from a keypad; dealer, streak and round wind are carried (docs/engines/taiwanese.md)."""

    winner = forms.ChoiceField(label=_("winner"), widget=forms.RadioSelect)
    source = forms.ChoiceField(label=_("from"), required=False, widget=forms.RadioSelect)
    tai = forms.TypedChoiceField(label=_("tai"), coerce=int, required=False, widget=forms.RadioSelect, empty_value=None,
                                 help_text=_("The hand tai, flowers included; the dealer tai is added."))
    tai_other = forms.IntegerField(label=_("other tai"), required=False, min_value=0, max_value=QUICK_MAX_TAI,
                                   widget=forms.NumberInput(attrs={"inputmode": "numeric"}))
    robbed = forms.BooleanField(label=_("by robbing an added kong"), required=False)

    def __init__(self, *args, seat_names=None, settings=None, **kwargs):
        super().__init__(*args, **kwargs)
        top, self.other = tai_keypad_top(settings)
        self.fields["winner"].choices = seat_toggles(seat_names) + [("draw", gettext("draw (nobody won)"))]
        self.fields["source"].choices = [("self", gettext("self"))] + seat_toggles(seat_names)
        self.fields["tai"].choices = [(n, str(n)) for n in range(top + 1)]
        if not self.other:
            del self.fields["tai_other"]
        capitalise_labels(self)

    def clean(self):
        d = super().clean()
        if d.get("winner") and d["winner"] != "draw":
            if not d.get("source"):
                self.add_error("source", gettext("Choose who paid, or self-drawn."))
            elif d.get("robbed") and d["source"] == "self":
                self.add_error("source", gettext("Choose whose kong was robbed."))
            if d.get("tai_other") is not None:
                d["tai"] = d["tai_other"]
            if d.get("tai") is None and "tai_other" not in self.errors:  # a wrong "more tai" says so itself
                self.add_error("tai", gettext("Tap the tai."))
        return d


class TaiwaneseQuickEntry(Entry):
    """Quick Taiwanese deal entry: ``{"seat", "tai", "win": {"how", "discarder"?|"robbed"?}}``
    or ``{"draw": true}`` (engine ``score``, docs/engines/taiwanese.md "Quick entry")."""

    PARAM_WORDS = SEAT_NAMES

    _FIELDS = {"seat": "winner", "tai": "tai", "win": "source", "flowers": "tai", "melds": "tai", "concealed": "tai"}

    def build(self, data, initial):
        self.form = TaiwaneseQuickForm(data, initial=self.initial_from(initial), prefix=self.prefix, seat_names=self.names,
                                       settings=self.settings)

    def is_valid(self) -> bool:
        return self.form.is_valid()

    def record(self) -> dict[str, Any]:
        d = self.form.cleaned_data
        if d["winner"] == "draw":
            return {"draw": True}
        source = d["source"] if d["source"] != "self" else None
        how = "self" if source is None else "rob_added_kong" if d.get("robbed") else "discard"
        win: dict[str, Any] = {"how": how}
        if source:
            win["robbed" if how == "rob_added_kong" else "discarder"] = source
        return {"seat": d["winner"], "tai": d["tai"], "win": win}

    def initial_from(self, record: dict[str, Any]) -> dict[str, Any]:
        if not record:
            return {}
        if record.get("draw"):
            return {"winner": "draw"}
        win = record.get("win") or {}
        tai = record.get("tai")
        out = {"winner": record.get("seat"), "source": win.get("discarder") or win.get("robbed") or "self",
               "robbed": win.get("how") == "rob_added_kong", "tai": tai}
        if isinstance(tai, int) and tai > tai_keypad_top(self.settings)[0]:
            out["tai_other"] = tai
        return out

    def locate(self, parts):
        if parts[:1] and parts[0] in self._FIELDS:
            return self.form, self._FIELDS[parts[0]]
        if parts[:1] in (["dealer"], ["streak"], ["round_wind"]):
            return self.form, None
        return None


class TaiwaneseDealEntry(QuickOrFullEntry):
    """A Taiwanese deal, quick or with every tile (:mod:`scoring.games.quick`)."""

    quick_class = TaiwaneseQuickEntry
    full_class = TaiwaneseEntry
    quick_template = "games/taiwanese/quick.html"
    full_template = "games/taiwanese/entry.html"

    @staticmethod
    def is_quick_record(record: dict[str, Any]) -> bool:
        """A win given by its tai, or a draw (the same in both modes)."""
        return "tai" in record or bool(record.get("draw"))
