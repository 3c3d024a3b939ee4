"""Forms of the four-player side: players, seating, and deal entry for Sichuan, Taiwanese and Tien Gow.

Deal entry is wrapped per game in a small "entry" object (:class:`SichuanEntry`,
:class:`TaiwaneseEntry`, :class:`TienGowEntry`) with the same face: ``is_valid()``, ``record()``
(the ``Deal.record`` built from the cleaned data, see :mod:`scoring.results.tables`),
``add_violations(RuleViolation)`` (each engine violation next to its form field; unmapped ones as
non-field errors) and ``from_record(record)`` (initial data to edit a stored deal). Engine messages
are translated with ``gettext(template).format(**params)`` (engines/errors.py).
"""
from __future__ import annotations

import json
import re
from typing import Any

from django import forms
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from engines.errors import RuleViolation
from scoring.models import Game, Player
from scoring.web.forms.results import violation_message

SEATS = ("E", "S", "W", "N")
SEAT_NAMES = {"E": _("East"), "S": _("South"), "W": _("West"), "N": _("North")}

#: Tien Gow tile names (DESIGN.md 2.4, rules/tiengow.txt "Opstelling"): English name -> msgid
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

#: Tile code -> English name, in the rule text's order (fallback when the engine has no names).
TIENGOW_TILES: dict[str, str] = {
    "6-6": "Heaven", "1-1": "Earth", "4-4": "Man", "1-3": "Goose", "5-5": "Plum", "3-3": "Long Three",
    "2-2": "Bench", "5-6": "Axe", "4-6": "Partition", "1-6": "Long Leg Seven", "1-5": "Big Head Six",
    "4-5": "Nine", "3-6": "Nine", "3-5": "Eight", "2-6": "Eight", "3-4": "Seven", "2-5": "Seven",
    "2-4": "Big Six", "1-4": "Five", "2-3": "Five", "1-2": "Little Three",
}


def tiengow_tile_names() -> dict[str, Any]:
    """Tile code -> name in the active language (lazy). The English names come from
    ``engines.tiengow.names.TILE_NAMES`` when the engine provides it (``(English, Dutch)``
    tuples, a str, or a dict with ``"en"``), else from :data:`TIENGOW_TILES`; each is translated through
    :data:`TIENGOW_NAME_MSGIDS`."""
    english = dict(TIENGOW_TILES)
    try:
        from engines.tiengow.names import TILE_NAMES  # type: ignore[import-not-found]
    except ImportError:
        TILE_NAMES = {}
    for code, name in TILE_NAMES.items():
        value = name.get("en") if isinstance(name, dict) else (name[0] if isinstance(name, (tuple, list)) else name)
        if isinstance(value, str):
            english[code] = value
    return {code: TIENGOW_NAME_MSGIDS.get(name, name) for code, name in english.items()}


def tiengow_tile_choices(blank: bool = True) -> list[tuple[str, str]]:
    """``[(code, "Heaven 6-6"), ...]`` in the rule text's order."""
    names = tiengow_tile_names()
    choices = [(code, f"{names.get(code, '')} {code}".strip()) for code in TIENGOW_TILES]
    return ([("", "---")] if blank else []) + choices




_INDEX = re.compile(r"\[(\d+)\]")


def split_path(path: str) -> list[str]:
    """``"events[2].hand.win.tile"`` -> ``["events", "2", "hand", "win", "tile"]``."""
    return [p for p in _INDEX.sub(r".\1", path or "").split(".") if p != ""]


def seat_choices(seats: list[str] | None, names: dict[str, str] | None, blank: str | None = "---") -> list[tuple[str, str]]:
    """Choices for a seat select: ``[("E", "East - Anna"), ...]``."""
    names = names or {}
    out = [("", blank)] if blank is not None else []
    for s in seats or SEATS:
        label = f"{SEAT_NAMES[s]} - {names[s]}" if s in names else str(SEAT_NAMES[s])
        out.append((s, label))
    return out


def split_melds(text: str) -> list[str]:
    """Melds typed one per line or separated by commas/semicolons: ``"pung 111m claimed, kong 5555p exposed"``."""
    return [m.strip() for m in re.split(r"[,;\n]+", text or "") if m.strip()]


# --------------------------------------------------------------------------------------------
# Players


#: Highest round number a player form accepts (sane bound; a tournament has a handful of rounds).
MAX_ROUND = 999

#: Highest seating seed (a signed 32-bit integer: fits every database's integer column and
#: ``random.Random``; larger values used to overflow into a server error).
MAX_SEED = 2**31 - 1


def same_name_exists(tournament, name: str, exclude_pk: int | None = None) -> bool:
    """True if another player of ``tournament`` has ``name`` (case and surrounding spaces ignored)."""
    if tournament is None or not name:
        return False
    qs = Player.objects.filter(tournament=tournament, name__iexact=name.strip())
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return qs.exists()


class PlayerForm(forms.ModelForm):
    """Register or edit an individual player (organiser).

    Bounds: the name is unique within the tournament (case-insensitive), so that standings,
    seatings and score sheets are unambiguous; ``joined_round`` is 1..:data:`MAX_ROUND` (round 1
    is the first round; there is no round 0); when the player is already withdrawn after round
    W, ``joined_round`` is at most W + 1 (joining after the withdrawal would never seat them).
    Pass the player's tournament as ``instance=Player(tournament=...)`` when registering.
    """

    joined_round = forms.IntegerField(label=_("joined in round"), min_value=1, max_value=MAX_ROUND, initial=1)

    class Meta:
        model = Player
        fields = ["name", "affiliation", "seed", "joined_round", "is_substitute"]

    def clean_name(self):
        name = (self.cleaned_data.get("name") or "").strip()
        tournament = getattr(self.instance, "tournament", None) if self.instance.tournament_id else None
        if same_name_exists(tournament, name, exclude_pk=self.instance.pk):
            raise forms.ValidationError(gettext("A player named {name} is already registered in this tournament.").format(name=name))
        return name

    def clean(self):
        data = super().clean()
        joined, withdrawn = data.get("joined_round"), self.instance.withdrawn_after_round
        if joined is not None and withdrawn is not None and joined > withdrawn + 1:
            self.add_error("joined_round", gettext("This player is withdrawn after round {number}; they cannot join later than round {last}.").format(number=withdrawn, last=withdrawn + 1))
        return data


class WithdrawForm(forms.Form):
    """Withdraw a player after a round (kept in the standings, never seated again).

    Bounds for ``after_round``: at least 1 (there is no round 0: a player who will not play at all
    is simply edited or never registered) and at least ``joined_round - 1`` of ``player`` (a late
    entrant may still withdraw before their first round, "after round joined - 1"); at most
    :data:`MAX_ROUND`. When ``reinstate`` is ticked the round is not checked.
    """

    after_round = forms.IntegerField(label=_("withdrawn after round"), min_value=1, max_value=MAX_ROUND)
    reinstate = forms.BooleanField(label=_("reinstate instead"), required=False)

    def __init__(self, *args, player: Player | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player

    def clean(self):
        data = super().clean()
        if data.get("reinstate"):
            self.errors.pop("after_round", None)
            return data
        after = data.get("after_round")
        if after is not None and self.player is not None and after < self.player.joined_round - 1:
            self.add_error(
                "after_round",
                gettext("This player joins in round {joined}; withdraw them after round {first} or later.").format(
                    joined=self.player.joined_round, first=max(1, self.player.joined_round - 1)
                ),
            )
        return data


class SeatRoundForm(forms.Form):
    """Seat the next round; an empty seed uses the tournament's seed and the round number. The
    seed is bounded to 0..:data:`MAX_SEED`."""

    seed = forms.IntegerField(label=_("seed"), required=False, min_value=0, max_value=MAX_SEED)


class ConfirmTableForm(forms.Form):
    """Confirm a table's result; with blind confirmation the confirmer re-types the four totals."""

    def __init__(self, *args, labels=None, blind=False, **kwargs):
        super().__init__(*args, **kwargs)
        self.blind = blind
        for i, label in enumerate(labels or ["1", "2", "3", "4"]):
            self.fields[f"total_{i}"] = forms.IntegerField(label=label, required=blind)

    def totals(self) -> list[int] | None:
        values = [self.cleaned_data.get(f"total_{i}") for i in range(4)]
        return None if all(v is None for v in values) else [v or 0 for v in values]


class ReopenTableForm(forms.Form):
    """Reopen a confirmed table (organiser), with the reason kept in the audit trail."""

    reason = forms.CharField(label=_("reason"), max_length=500)


# --------------------------------------------------------------------------------------------
# Deal entry common part


class EntryBase:
    """Shared behaviour of the per-game entry objects."""

    game: str = ""

    def __init__(self, data=None, *, names: dict[str, str] | None = None, initial: dict[str, Any] | None = None, prefix: str = "deal"):
        self.bound = data is not None
        self.names = names or {}
        self.prefix = prefix
        self.build(data, initial or {})

    # subclasses: build(), is_valid(), record(), locate(parts) -> (form, field) | None, from_record()
    non_field_errors_list: list[str]

    @property
    def forms(self) -> list[forms.Form]:
        return [self.form]

    def add_violations(self, exc: RuleViolation) -> None:
        """Put each engine violation next to its field (or its group of fields, see
        ``group_errors``); unmapped ones become non-field errors, without the engine's internal
        field path. A message already shown at the same place is not repeated."""
        for v in exc.violations:
            message = violation_message(v)
            target = self.locate(split_path(v.field)) if v.field else None
            form, name = target if target is not None else (self.form, None)
            groups = getattr(form, "group_errors", None)
            if groups is not None and name in getattr(form, "GROUP_LABELS", {}):
                if message not in groups.setdefault(name, []):
                    groups[name].append(message)
                continue
            name = name if name in form.fields else None
            if message not in [str(e) for e in form.errors.get(name or "__all__", [])]:
                form.add_error(name, message)

    def add_error(self, field: str, message) -> None:
        """A service error (field name or "" for the whole entry)."""
        self.form.add_error(field if field in self.form.fields else None, message)


# --------------------------------------------------------------------------------------------
# Sichuan (DESIGN.md 2.2 settle input)


class SichuanEventForm(forms.Form):
    """One event of a Sichuan deal: a kong or a win (the winning hand typed in MPSZ)."""

    TYPES = [("", "---"), ("win", _("win")), ("kong", _("kong"))]
    KINDS = [("", "---"), ("exposed", _("exposed")), ("concealed", _("concealed")), ("added", _("added"))]
    HOWS = [("discard", _("on a discard")), ("self", _("self-draw")), ("rob_added_kong", _("robbing an added kong"))]
    SUITS = [("m", _("characters (m)")), ("p", _("dots (p)")), ("s", _("bamboo (s)"))]

    type = forms.ChoiceField(label=_("event"), choices=TYPES, required=False)
    player = forms.ChoiceField(label=_("player"), required=False)
    kind = forms.ChoiceField(label=_("kong kind"), choices=KINDS, required=False)
    tile = forms.CharField(label=_("kong tile"), required=False, max_length=4)
    source = forms.ChoiceField(label=_("from (discarder / supplier / robbed)"), required=False)
    void = forms.ChoiceField(label=_("void suit"), choices=SUITS, required=False)
    melds = forms.CharField(label=_("melds"), required=False, max_length=200, help_text=_("e.g. pung 111m claimed, kong 5555p exposed"))
    concealed = forms.CharField(label=_("concealed tiles"), required=False, max_length=120, help_text=_("MPSZ, winning tile included"))
    win_tile = forms.CharField(label=_("winning tile"), required=False, max_length=4)
    how = forms.ChoiceField(label=_("how"), choices=HOWS, required=False)
    after_kong = forms.BooleanField(label=_("on a kong replacement"), required=False)
    last_tile = forms.BooleanField(label=_("last tile"), required=False)

    def __init__(self, *args, seat_names=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = seat_choices(None, seat_names)
        self.fields["source"].choices = seat_choices(None, seat_names)

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
            self.fields[f"concealed_{s}"] = forms.CharField(label=who, required=False, max_length=120)
            self.fields[f"melds_{s}"] = forms.CharField(label=_("melds"), required=False, max_length=200)

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


class SichuanEntry(EntryBase):
    """A Sichuan deal: event rows (wins and kongs in order) and the wall exhaustion (DESIGN.md 2.2)."""

    game = Game.SICHUAN
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

    @property
    def forms(self):
        return [*self.formset.forms, self.form]

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


# --------------------------------------------------------------------------------------------
# Taiwanese (DESIGN.md 2.3 score input)


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

    winner = forms.ChoiceField(label=_("winner"))
    how = forms.ChoiceField(label=_("how"), choices=HOWS, required=False)
    source = forms.ChoiceField(label=_("discarder / robbed player"), required=False)
    flowers = forms.CharField(label=_("flowers"), required=False, max_length=80, help_text=_("e.g. fl1 se3"))
    melds = forms.CharField(label=_("melds"), required=False, max_length=300, help_text=_("e.g. pung 555z claimed, chow 234m claimed"))
    concealed = forms.CharField(label=_("concealed tiles"), required=False, max_length=150, help_text=_("MPSZ, winning tile included"))
    win_tile = forms.CharField(label=_("winning tile"), required=False, max_length=4)
    after_kong = forms.BooleanField(label=_("on a kong replacement"), required=False)
    last_wall_tile = forms.BooleanField(label=_("last wall tile"), required=False)
    last_discard = forms.BooleanField(label=_("last discard"), required=False)
    flags = forms.MultipleChoiceField(label=_("special situations"), choices=FLAGS, required=False, widget=forms.CheckboxSelectMultiple)

    def __init__(self, *args, seat_names=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["winner"].choices = seat_choices(None, seat_names) + [("draw", gettext("draw (nobody won)"))]
        self.fields["source"].choices = seat_choices(None, seat_names)

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


class TaiwaneseEntry(EntryBase):
    """Taiwanese deal entry (engine ``score``)."""

    game = Game.TAIWANESE
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


# --------------------------------------------------------------------------------------------
# Tien Gow (DESIGN.md 2.4 settle / deal input)


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
    IMMEDIATE_GROUPS = [("", "---"), ("supreme", _("Supreme")), ("quartet", _("quartet"))]
    IMMEDIATE_ROWS = 4
    #: Errors about a group of fields rather than one (shown at the group's fieldset), by key.
    GROUP_LABELS = {"columns": _("Columns won per player")}

    mode = forms.ChoiceField(label=_("entry mode"), choices=MODES, initial="settle")
    last_winner = forms.ChoiceField(label=_("last trick won by"), required=False)
    last_group = forms.ChoiceField(label=_("last trick won with"), choices=LAST_GROUPS, required=False)
    last_leader = forms.ChoiceField(label=_("last trick led by"), required=False)
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
        choices = [("", "---")] + [(s, f"{int(s) + 1} - {names[s]}" if s in names else str(int(s) + 1)) for s in seats]
        for name in ("last_winner", "last_leader"):
            self.fields[name].choices = choices
        tiles = tiengow_tile_choices()
        self.fields["led_with"].choices = tiles
        self.fields["won_with"].choices = tiles
        for i in range(4):
            label = f"{i + 1} - {names[str(i)]}" if str(i) in names else f"{i + 1}"
            self.fields[f"columns_{i}"] = forms.IntegerField(label=label, required=False, min_value=0, max_value=8)
        for k in range(self.IMMEDIATE_ROWS):
            self.fields[f"imm_winner_{k}"] = forms.ChoiceField(label=_("won by"), choices=choices, required=False)
            self.fields[f"imm_group_{k}"] = forms.ChoiceField(label=_("with"), choices=self.IMMEDIATE_GROUPS, required=False)

    def column_fields(self):
        return [self[f"columns_{i}"] for i in range(4)]

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


class TienGowEntry(EntryBase):
    """Tien Gow deal entry (engine ``settle`` or ``deal``); the banker is carried."""

    game = Game.TIENGOW

    def build(self, data, initial):
        self.form = TienGowForm(data, initial=self.initial_from(initial), prefix=self.prefix, seat_names=self.names)
        self._imm_index: list[int] = []

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
        return {"mode": "settle", "columns": None if all(c is None for c in cols) else cols, "last_trick": last, "immediate": immediate}

    @staticmethod
    def initial_from(record: dict[str, Any]) -> dict[str, Any]:
        if not record:
            return {"mode": "settle"}
        if record.get("mode") == "deal":
            body = {k: v for k, v in record.items() if k not in ("mode", "banker")}
            return {"mode": "deal", "tricks": json.dumps(body)}
        out: dict[str, Any] = {"mode": "settle"}
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
                return self.form, f"imm_group_{k}" if len(parts) > 2 and parts[2] == "group" else f"imm_winner_{k}"
        return None


ENTRIES = {Game.SICHUAN: SichuanEntry, Game.TAIWANESE: TaiwaneseEntry, Game.TIENGOW: TienGowEntry}


def entry_for(game: str, data=None, *, names=None, initial=None) -> EntryBase:
    """The deal entry object of ``game`` (bound to POST ``data`` when given)."""
    return ENTRIES[game](data, names=names, initial=initial)
