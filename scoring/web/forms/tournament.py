"""The tournament settings form (organisers): only the chosen game's options (issue 24 item 4).

The game's adapter says which round formats it offers (:attr:`scoring.games.base.GameAdapter.round_formats`,
with its default format and count) and which groups of game-specific fields the form shows
(:attr:`~scoring.games.base.GameAdapter.form_groups`, the fields of each group in
:data:`FIELD_GROUPS`). Rules presets and overrides are validated by the adapter
(:meth:`~scoring.games.base.GameAdapter.resolve_rules`, docs/engines/index.md); each violation is
shown next to the form field it concerns. Tie-breaks are chosen from
``scoring.standings.tiebreaks.REGISTRY`` (docs/tournaments.md).
"""
from __future__ import annotations

import json

from django import forms
from django.core.exceptions import NON_FIELD_ERRORS
from django.utils.text import capfirst
from django.utils.translation import gettext
from django.utils.translation import gettext_lazy as _

from scoring.games import registry
from scoring.games.base import COUNTED_FORMATS, EntrantKind, GameAdapter, RuleViolation
from scoring.games.entry import more_message, violation_message
from scoring.models import PublicNames, Tournament
from scoring.standings.player_tiebreaks import tiebreak_registry
from scoring.web.forms.placement import FIELDS as PLACEMENT_FIELDS
from scoring.web.forms.placement import PlacementFields

__all__ = ["FIELD_GROUPS", "TournamentForm"]

#: The heading of the tie-break selects: what the tie-breaks come after, per kind of entrant.
TIEBREAK_LEGENDS = {
    EntrantKind.TEAMS: _("Tie-breaks (in order, after match points)"),
    EntrantKind.PLAYERS: _("Tie-breaks (in order, after placement points and total points)"),
}

#: The orders of a round-1 seating (the pot draw: slide and fold make the same pots, so the form
#: offers the plain orders; a stored fold method seats the same way).
SEATING_ORDERS = [
    ("", _("automatic (by seed number if every player has one, else random)")),
    ("random", _("random draw")),
    ("seeded", _("by seed number")),
    ("rating", _("by rating")),
]

#: The round-1 and club fields in the words of a seating of four-player tables (the model's own
#: label and help text speak of pairing teams): field -> (label, help text).
SEATING_WORDS = {
    "first_round_method": (
        _("round 1 seating"),
        _("The order that spreads the players over the tables in round 1: cut into four pots (the top quarter "
          "first), every table takes one player of each pot. Automatic: by seed number when every player has one, "
          "else random.")),
    "avoid_same_club": (
        _("avoid players of one club at a table"),
        _("Players of one club (affiliation) are not seated together when another seating avoids it without "
          "more repeat meetings.")),
}


#: The game-specific field groups of :class:`TournamentForm`: group -> its fields (a game shows the
#: groups of its adapter's ``form_groups``; the tie-break selects ``tiebreak_N`` are the group
#: ``"tiebreaks"``). A field of a group the game does not show is left out of the form.
FIELD_GROUPS = {
    "pairing": ("first_round_method", "avoid_same_club"),
    "forfeit": ("forfeit_score", "forfeit_points"),
    "tiebreaks": (),
    "placement": PLACEMENT_FIELDS,
    "entry": ("entry_mode",),
}


class TournamentForm(PlacementFields, forms.ModelForm):
    """Create or edit a tournament, with only the chosen game's options.

    The game is the posted one, else the tournament's, else ``game`` (a new tournament: the
    page's ``?game=``, default the model's). Its adapter says which round formats it offers (the
    ``round_format`` choices, named for the game, with its default format and count for a new
    tournament) and which field groups it shows (:data:`FIELD_GROUPS`); the fields of the other
    groups are left out, neither shown nor validated. The page carries the game it was drawn for
    (``form_game``): a post whose game differs is not saved but drawn again with the new game's
    options (:attr:`game_changed`), with or without JavaScript.

    ``rules_preset`` + ``rules_overrides`` (a JSON object of option overrides) make the stored
    ``rules`` value ``{"preset": NAME, ...overrides}``, validated by the engine. The tie-break order
    is one select per position (``tiebreak_1`` ...), chosen from the registry. Once round 1 exists
    the game, rules, round format, hands per round and tie-breaks are fixed (disabled fields).
    """

    rules_preset = forms.ChoiceField(
        label=_("Rules preset"), required=False,
        help_text=_("The presets of the chosen game; empty: the game's default preset."),
    )
    rules_overrides = forms.CharField(
        label=_("Rules overrides"), required=False,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text=_("A JSON object of options that differ from the preset."),
    )

    public_names = forms.ChoiceField(
        label=_("names on public pages"), choices=PublicNames.choices, required=False,
        help_text=_("How players' names are shown on public pages, exports and the API, unless a player chose otherwise."),
    )

    def clean_public_names(self):
        """Not posted (an older page, a script): the tournament's setting stays."""
        return self.cleaned_data.get("public_names") or self.instance.public_names or PublicNames.FULL

    FIXED_AFTER_START = ("game", "rules_preset", "rules_overrides", "round_format", "hands_per_round", "entry_mode")

    class Meta:
        model = Tournament
        fields = ["name", "slug", "game", "round_format", "hands_per_round", "seed", "first_round_method", "avoid_same_club",
                  "blind_confirmation", "player_entry", "verification", "entry_mode", "checkin_required", "forfeit_score", "forfeit_points",
                  "venue", "starts_on", "round_minutes", "clock_warning_minutes", "public_names"]
        widgets = {"starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"), "verification": forms.RadioSelect,
                   "entry_mode": forms.RadioSelect}
        labels = {"slug": _("Web address")}
        help_texts = {"slug": _("The short name in the tournament's address (/t/…/): letters, digits and hyphens; filled in from the name.")}

    form_game = forms.CharField(widget=forms.HiddenInput, required=False)

    def __init__(self, *args, game: str | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        instance = self.instance
        self.adapter = self._adapter(game)
        self.groups = tuple(self.adapter.form_groups) if self.adapter else ()
        drawn_for = self.data.get("form_game") if self.is_bound else ""
        self.game_changed = bool(drawn_for) and self.adapter is not None and drawn_for != self.adapter.key
        self._round_formats()
        if self.adapter is not None and self.adapter.override_example:
            self.fields["rules_overrides"].help_text = _(
                "A JSON object of options that differ from the preset, e.g. %(example)s.") % {"example": self.adapter.override_example}
        # Left out (an older form or script): the tournament keeps its setting (a new one: at the end).
        self.fields["verification"].required = False
        self.fields["entry_mode"].required = False
        for name in ("round_minutes", "clock_warning_minutes"):
            self.fields[name].required = False
            self.fields[name].widget.attrs.update(min=0 if name == "clock_warning_minutes" else 1, max=600)
        registry_, default_order = tiebreak_registry(self.adapter.entrants) if self.adapter else ({}, [])
        self.registry = dict(registry_)
        choices = [("", "---------")] + [(key, cls.label) for key, cls in self.registry.items()]
        stored_order = [key for key in (instance.tiebreaks or []) if key in self.registry]
        current = stored_order or list(default_order)  # empty: the game's default order
        self.tiebreak_names = []
        for group, names in FIELD_GROUPS.items():
            if group not in self.groups:
                for name in names:
                    self.fields.pop(name, None)
        for i in range(1, len(self.registry) + 1 if "tiebreaks" in self.groups else 1):
            name = f"tiebreak_{i}"
            self.fields[name] = forms.ChoiceField(
                label=_("Tie-break %(position)d") % {"position": i}, choices=choices, required=False,
                initial=current[i - 1] if i <= len(current) else "",
            )
            self.tiebreak_names.append(name)
        if instance.pk:
            raw = instance.rules
            if isinstance(raw, str):
                raw = {"preset": raw}
            raw = dict(raw or {})
            self.fields["rules_preset"].initial = raw.pop("preset", "")
            self.fields["rules_overrides"].initial = json.dumps(raw, ensure_ascii=False) if raw else ""
        self._describe_presets()
        self.shows_placement = "placement" in self.groups
        if self.shows_placement:
            self.init_placement(instance)
        self._entrant_words(instance)
        if self.shows_placement and not instance.pk and not self.is_bound:
            # A new four-player tournament ranks by placement points, as mahjong tournaments do.
            self.fields["placement_preset"].initial = "ema"
        self.locked = bool(instance.pk) and instance.rounds.exists()
        if self.locked:
            for name in (n for n in (*self.FIXED_AFTER_START, *self.tiebreak_names, *PLACEMENT_FIELDS) if n in self.fields):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fixed once round 1 exists.")
        self.fields["form_game"].initial = self.adapter.key if self.adapter else ""
        if game and not self.is_bound and not instance.pk:
            self.initial["game"] = game
        if self.game_changed:
            self._carry_over()

    def _entrant_words(self, instance) -> None:
        """The tie-break heading, and for four-player games the round-1 and club fields in the
        words of a seating (:data:`SEATING_WORDS`, :data:`SEATING_ORDERS`)."""
        self.tiebreak_legend = TIEBREAK_LEGENDS[self.adapter.entrants] if self.adapter else ""
        if self.adapter is not None and self.adapter.entrants == EntrantKind.PLAYERS:
            for name, (label, help_text) in SEATING_WORDS.items():
                if name in self.fields:
                    self.fields[name].label, self.fields[name].help_text = capfirst(label), help_text
            plain = {value for value, _label in SEATING_ORDERS}
            if "first_round_method" in self.fields and instance.first_round_method in plain:  # slide and fold: the same pots
                self.fields["first_round_method"].choices = SEATING_ORDERS

    def _carry_over(self) -> None:
        """The posted data, drawn again for the changed game: the new game's own fields at their
        initial values, its default preset and no overrides when the old preset is not its own."""
        data = self.data.copy()
        for name in self.tiebreak_names:  # the other game's tie-breaks are not this game's choices
            if data.get(name) and data[name] not in self.registry:
                data.pop(name)
        for name in (*self.tiebreak_names, *(n for g in self.groups for n in FIELD_GROUPS.get(g, ()))):
            if name not in data and self.fields[name].initial not in (None, ""):
                data[name] = self.fields[name].initial
        if data.get("rules_preset") not in self.adapter.presets():
            data["rules_preset"], data["rules_overrides"] = "", ""
        self.data = data

    def _adapter(self, game: str | None) -> GameAdapter | None:
        """The adapter of the game the form is for (see the class docstring); ``None`` for an
        unknown game (the game field says so)."""
        if self.instance.pk and self.instance.rounds.exists():
            key = self.instance.game  # fixed once round 1 exists
        elif self.is_bound and self.data.get("game"):
            key = self.data["game"]
        elif self.instance.pk:
            key = self.instance.game
        else:
            key = game or self.initial.get("game") or Tournament._meta.get_field("game").default
        try:
            return registry.get(key)
        except registry.UnknownGame:
            return None

    def _round_formats(self) -> None:
        """The round formats of the game (named for it); a new tournament, or one whose game
        changed, starts with the game's default format and count."""
        adapter = self.adapter
        if adapter is None:
            return
        field = self.fields["round_format"]
        field.choices = [(fmt, adapter.round_format_label(fmt)) for fmt in adapter.round_formats]
        field.help_text = _("How a table's result ends; the time limit always ends it.")
        self.fields["hands_per_round"].label = _("Number per round")
        self.fields["hands_per_round"].help_text = _("Hands (deals) per round, or wind rounds per round, as the format says.")
        stored = self.instance.game if self.instance.pk else None  # the game the tournament has now
        fresh = stored is None or stored != adapter.key
        if fresh:
            default = adapter.default_round_format()
            self.initial["round_format"] = default
            self.initial["hands_per_round"] = adapter.default_round_count(default)
        if self.game_changed:
            # Drawn again for the new game: its own format, not the old game's.
            data = self.data.copy()
            if data.get("round_format") not in adapter.round_formats:
                data["round_format"] = adapter.default_round_format()
                data["hands_per_round"] = adapter.default_round_count(data["round_format"]) or ""
            data["form_game"] = adapter.key
            self.data = data

    def format_counts(self) -> str:
        """JSON of the default count per round format of the game (``data-counts`` of the page's
        script): a number (0: no default) for a counted format, ``null`` for one without a count."""
        if self.adapter is None:
            return "{}"
        return json.dumps({fmt: (self.adapter.default_round_count(fmt) or 0) if fmt in COUNTED_FORMATS else None
                           for fmt in self.adapter.round_formats})

    def _describe_presets(self) -> None:
        """The preset select: the chosen game's presets only (``preset_groups``, one group), each
        with what it means (its target); every game's when the game is unknown."""
        self.preset_groups = []
        self.default_presets: dict[str, str] = {}
        choices: list = [("", gettext("the game's default"))]
        for adapter in [self.adapter] if self.adapter else registry.all_games():
            options = []
            self.default_presets[adapter.key] = adapter.default_preset()
            for name in adapter.presets():
                summary = adapter.preset_summary(name)
                default = gettext("default") if name == adapter.default_preset() else ""
                extra = ", ".join(str(x) for x in (summary, default) if x)
                options.append((name, f"{name} ({extra})" if extra else name))
            self.preset_groups.append({"game": adapter.key, "label": str(adapter.label), "options": options,
                                       "default": adapter.default_preset()})
            choices.append((str(adapter.label), options))
        self.fields["rules_preset"].choices = choices

    def preset_value(self) -> str:
        """The preset the select shows (posted, or the tournament's; a new tournament: the
        chosen game's default, so its target shows at once)."""
        value = self["rules_preset"].value()
        if not value and not self.is_bound and not self.instance.pk:
            return self.default_presets.get(self.game_value(), "")
        return value or ""

    def game_value(self) -> str:
        return self["game"].value() or ""

    def clean_round_minutes(self) -> int:
        """1 to 600 minutes; left out: the tournament keeps its length."""
        value = self.cleaned_data.get("round_minutes")
        if value is None:
            return self.instance.round_minutes or 90
        if not 1 <= value <= 600:
            raise forms.ValidationError(_("Between 1 and 600 minutes."))
        return value

    def clean_clock_warning_minutes(self) -> int:
        """0 (no warning) to 600 minutes; left out: the tournament keeps its warning."""
        value = self.cleaned_data.get("clock_warning_minutes")
        if value is None:
            return self.instance.clock_warning_minutes if self.instance.pk else 10
        if value > 600:
            raise forms.ValidationError(_("Between 0 and 600 minutes."))
        return value

    def clean_verification(self) -> str:
        return self.cleaned_data.get("verification") or self.instance.verification or Tournament.Verification.AT_END

    def clean_entry_mode(self) -> str:
        """Quick or full entry of four-player deals; left out: the tournament keeps its mode."""
        return self.cleaned_data.get("entry_mode") or self.instance.entry_mode or Tournament.EntryMode.QUICK

    def clean_slug(self):
        slug = self.cleaned_data["slug"]
        if self.instance.pk and self.locked and slug != self.instance.slug:
            # Printed score sheets and QR codes carry the slug.
            raise forms.ValidationError(_("The slug cannot change once round 1 exists."))
        return slug

    def clean_rules_overrides(self):
        text = (self.cleaned_data.get("rules_overrides") or "").strip()
        if not text:
            return {}
        try:
            value = json.loads(text)
        except ValueError as exc:
            raise forms.ValidationError(
                _("Not valid JSON (line %(line)s, column %(column)s): write an object such as {\"target\": 1000}.")
                % {"line": exc.lineno, "column": exc.colno}) from exc
        if not isinstance(value, dict):
            raise forms.ValidationError(_("The overrides must be a JSON object."))
        if "preset" in value:
            raise forms.ValidationError(_("Choose the preset in the preset field, not in the overrides."))
        return value

    def full_clean(self) -> None:
        """As Django's; a form drawn again for another game shows only that notice, no complaints
        about fields not filled in yet (it is never valid: the notice is an error)."""
        super().full_clean()
        if self.game_changed and self._errors:
            for name in [n for n in self._errors if n != NON_FIELD_ERRORS]:
                del self._errors[name]

    def clean(self):
        data = super().clean()
        game = data.get("game")
        overrides = data.get("rules_overrides")
        preset = (data.get("rules_preset") or "").strip()
        if game and overrides is not None and "rules_overrides" not in self.errors:
            rules = dict(overrides)
            if preset:
                rules = {"preset": preset, **rules}
            self._check_rules(game, rules)
            data["rules"] = rules
        if self.game_changed:
            raise forms.ValidationError(
                _("The game changed to %(game)s: the options below are now that game's. Check them and save again.")
                % {"game": self.adapter.label})
        if self.adapter is not None and "round_format" in data:
            if data.get("round_format") not in COUNTED_FORMATS:
                data["hands_per_round"] = None
            try:
                self.adapter.check_round_format(data.get("round_format"), data.get("hands_per_round"))
            except RuleViolation as exc:
                for v in exc.violations:
                    self.add_error(v.field, violation_message(v))
        order = [data.get(n) for n in self.tiebreak_names if data.get(n)]
        seen = set()
        for name in self.tiebreak_names:
            key = data.get(name)
            if key and key in seen:
                self.add_error(name, _("This tie-break is already chosen above."))
            seen.add(key)
        data["tiebreaks"] = order
        data["placement"] = self.clean_placement(data) if self.shows_placement else {}
        return data

    def _check_rules(self, game: str, rules: dict) -> None:
        try:
            registry.get(game).resolve_rules(rules or None)
        except registry.UnknownGame:
            self.add_error("game", _("No rule engine is installed for this game yet."))
        except RuleViolation as exc:
            for v in exc.violations:
                target = "rules_preset" if v.field in ("rules.preset", "rules") and "preset" in v.template.lower() else "rules_overrides"
                self.add_error(target, violation_message(v))
            if exc.more:
                self.add_error("rules_overrides", more_message(exc.more))

    def save(self, commit: bool = True) -> Tournament:
        tournament = super().save(commit=False)
        if not self.locked:
            tournament.rules = self.cleaned_data.get("rules", tournament.rules)
            # A game without the team tie-breaks keeps none (never a Tai Pan order on a four-player game).
            tournament.tiebreaks = self.cleaned_data.get("tiebreaks", []) if "tiebreaks" in self.groups else []
            tournament.placement = self.cleaned_data.get("placement", {})
        if commit:
            tournament.save()
        return tournament
