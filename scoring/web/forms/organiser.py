"""Organiser forms: tournament settings, members, teams, teams CSV import, draft pairing edits,
players of four-player tournaments, seating.

Forms validate what the engine and the models need and keep the posted input when invalid (plain
Django forms). Rules presets and overrides are validated by the game's adapter
(:meth:`scoring.games.base.GameAdapter.resolve_rules`, docs/engines/index.md); each violation is shown
next to the form field it concerns. Tie-breaks are chosen from ``scoring.standings.tiebreaks.REGISTRY``
(docs/tournaments.md, issue 4 item 5).
"""
from __future__ import annotations

import json

from django import forms
from django.db import transaction
from django.db.models import Q
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.games import registry
from scoring.games.base import RuleViolation
from scoring.games.entry import capitalise_labels, more_message, violation_message
from scoring.io import entrants_csv
from scoring.models import FirstRoundMethod, Match, Player, RoundFormat, Team, Tournament
from scoring.participants.entrants import (
    MAX_SEED,
    TextField,
    WholeNumberField,
    duplicate_of,
    name_key,
    rating_field,
    round_field,
    seed_field,
)
from scoring.standings.tiebreaks import NSKT_DEFAULT, REGISTRY


class TournamentForm(forms.ModelForm):
    """Create or edit a tournament.

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
        help_text=_('A JSON object of options that differ from the preset, e.g. {"target": 1000}.'),
    )

    FIXED_AFTER_START = ("game", "rules_preset", "rules_overrides", "round_format", "hands_per_round", "entry_mode")

    class Meta:
        model = Tournament
        fields = ["name", "slug", "game", "round_format", "hands_per_round", "seed", "first_round_method", "avoid_same_club",
                  "blind_confirmation", "player_entry", "verification", "entry_mode", "checkin_required", "forfeit_score", "forfeit_points",
                  "venue", "starts_on", "round_minutes", "clock_warning_minutes"]
        widgets = {"starts_on": forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"), "verification": forms.RadioSelect,
                   "entry_mode": forms.RadioSelect}
        labels = {"slug": _("Web address")}
        help_texts = {"slug": _("The short name in the tournament's address (/t/…/): letters, digits and hyphens; filled in from the name.")}

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        instance = self.instance
        # Left out (an older form or script): the tournament keeps its setting (a new one: at the end).
        self.fields["verification"].required = False
        self.fields["entry_mode"].required = False
        for name in ("round_minutes", "clock_warning_minutes"):
            self.fields[name].required = False
            self.fields[name].widget.attrs.update(min=0 if name == "clock_warning_minutes" else 1, max=600)
        self.registry = dict(REGISTRY)
        choices = [("", "---------")] + [(key, cls.label) for key, cls in self.registry.items()]
        current = list(instance.tiebreaks or NSKT_DEFAULT)  # empty: the NSKT default order
        self.tiebreak_names = []
        for i in range(1, len(self.registry) + 1):
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
        self.locked = bool(instance.pk) and instance.rounds.exists()
        if self.locked:
            for name in (*self.FIXED_AFTER_START, *self.tiebreak_names):
                self.fields[name].disabled = True
                self.fields[name].help_text = _("Fixed once round 1 exists.")

    def _describe_presets(self) -> None:
        """The preset select: one group of options per game (``preset_groups``, the page shows
        only the chosen game's), each preset with what it means (its target)."""
        self.preset_groups = []
        self.default_presets: dict[str, str] = {}
        choices: list = [("", gettext("the game's default"))]
        for adapter in registry.all_games():
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
        if data.get("round_format") == RoundFormat.FIXED_HANDS and not data.get("hands_per_round"):
            self.add_error("hands_per_round", _("Give the number of hands per round for the fixed-hands format."))
        order = [data.get(n) for n in self.tiebreak_names if data.get(n)]
        seen = set()
        for name in self.tiebreak_names:
            key = data.get(name)
            if key and key in seen:
                self.add_error(name, _("This tie-break is already chosen above."))
            seen.add(key)
        data["tiebreaks"] = order
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
            tournament.tiebreaks = self.cleaned_data.get("tiebreaks", [])
        if commit:
            tournament.save()
        return tournament


class TeamForm(forms.ModelForm):
    """Register or edit a Tai Pan team: two players (by name), name, affiliation, seed, late entry
    (``joined_round``) and withdrawal (``withdrawn_after_round``; results are kept). The fields and
    rules are those of a CSV row (:mod:`scoring.participants.entrants`): no invisible or control
    characters, whole numbers in ASCII digits within bounds, names compared with case and accents
    folded."""

    name = TextField(label=capfirst(_("name")))
    affiliation = TextField(label=capfirst(_("affiliation")), required=False)
    first_player_name = TextField(label=_("First player"))
    second_player_name = TextField(label=_("Second player"))
    seed = seed_field(label=capfirst(_("seed")))
    rating = rating_field(label=capfirst(_("rating")), help_text=_("A whole number, higher is stronger (round 1 by rating)."))
    joined_round = round_field(label=capfirst(_("joined in round")), required=False,
                               help_text=_("Late entry: the first round this team may be paired."))
    withdrawn_after_round = round_field(0, label=capfirst(_("withdrawn after round")), required=False,
                                        help_text=_("The team is not paired after this round; its results are kept. 0: before round 1."))

    class Meta:
        model = Team
        fields = ["name", "affiliation", "first_player_name", "second_player_name", "seed", "rating", "joined_round",
                  "withdrawn_after_round"]

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        if self.instance.pk:
            self.fields["first_player_name"].initial = self.instance.first_player.name
            self.fields["second_player_name"].initial = self.instance.second_player.name

    def clean_name(self):
        name = self.cleaned_data["name"]
        others = Team.objects.filter(tournament=self.tournament).exclude(pk=self.instance.pk).values_list("name", flat=True)
        clash = duplicate_of(name, others)
        if clash is not None:
            raise forms.ValidationError(_("There is already a team called %(name)s.") % {"name": clash})
        return name

    def next_unpaired_round(self) -> int:
        """The first round not paired yet (a draft counts as paired): last round number + 1."""
        last = self.tournament.rounds.order_by("-number").values_list("number", flat=True).first() if self.tournament.pk else None
        return (last or 0) + 1

    def clean_joined_round(self):
        """A late entry joins a round that is not paired yet: at least :meth:`next_unpaired_round`
        (checked when the value is new or changed; a team already paired keeps its first round)."""
        value = self.cleaned_data.get("joined_round")
        if value is None:
            return 1
        if value < 1:
            raise forms.ValidationError(_("Rounds are numbered from 1."))
        if self.instance.pk and value == self.instance.joined_round:
            return value
        first_open = self.next_unpaired_round()
        if value < first_open:
            raise forms.ValidationError(
                _("Round %(round)d is already paired or played: a team can join round %(first)d at the earliest.")
                % {"round": value, "first": first_open})
        if self.instance.pk and Match.objects.filter(Q(team_ns=self.instance) | Q(team_ew=self.instance)).exists():
            raise forms.ValidationError(_("This team has been paired already: its first round cannot change."))
        return value

    def clean(self):
        data = super().clean()
        first = data.get("first_player_name") or ""
        second = data.get("second_player_name") or ""
        if first and second and name_key(first) == name_key(second):
            self.add_error("second_player_name", _("The two players must be different people."))
        joined, withdrawn = data.get("joined_round"), data.get("withdrawn_after_round")
        if joined and withdrawn is not None and withdrawn and withdrawn < joined:
            self.add_error("withdrawn_after_round", _("A team cannot withdraw before the round it joins."))
        return data

    @transaction.atomic
    def save(self, commit: bool = True) -> Team:
        team = super().save(commit=False)
        team.tournament = self.tournament
        names = (self.cleaned_data["first_player_name"].strip(), self.cleaned_data["second_player_name"].strip())
        if team.pk:
            players = [team.first_player, team.second_player]
            for player, name in zip(players, names, strict=True):
                player.name = name
                player.affiliation = team.affiliation
                player.save(update_fields=["name", "affiliation", "updated_at"])
        else:
            team.first_player, team.second_player = (
                Player.objects.create(tournament=self.tournament, name=name, affiliation=team.affiliation) for name in names
            )
        team.save()
        return team


class EntrantsImportForm(forms.Form):
    """Upload a CSV of teams or players (columns as :mod:`scoring.io.entrants_csv` reads them);
    at most :data:`scoring.io.entrants_csv.MAX_BYTES`."""

    file = forms.FileField(label=_("CSV file"))

    MAX_BYTES = entrants_csv.MAX_BYTES

    def clean_file(self):
        upload = self.cleaned_data["file"]
        if upload.size > self.MAX_BYTES:
            raise forms.ValidationError(
                _("The file is too large (%(size)s MB): at most %(limit)s MB. Split it into smaller files.")
                % {"size": f"{upload.size / 1_000_000:.1f}", "limit": f"{self.MAX_BYTES / 1_000_000:g}"})
        # A problem of the whole file (empty, more rows than the limit) is told here, at the upload,
        # not later by a background job as an error on "line 0".
        data = upload.read()
        upload.seek(0)
        _headers, _rows, failed = entrants_csv.read_rows(data)
        if failed is not None and failed.errors[0][0] == 0:
            raise forms.ValidationError(failed.errors[0][2])
        return upload


#: The teams import form (the same form for players).
TeamsImportForm = EntrantsImportForm


class DraftPairingRowForm(forms.Form):
    """One table of a draft round: team NS and team EW (empty EW: a bye)."""

    team_ns = forms.ModelChoiceField(label=capfirst(_("team NS")), queryset=Team.objects.none(), required=False)
    team_ew = forms.ModelChoiceField(
        label=capfirst(_("team EW")), queryset=Team.objects.none(), required=False, empty_label=_("(bye)"),
    )

    def __init__(self, *args, teams=None, **kwargs):
        super().__init__(*args, **kwargs)
        if teams is not None:
            self.fields["team_ns"].queryset = teams
            self.fields["team_ew"].queryset = teams

    def clean(self):
        data = super().clean()
        ns, ew = data.get("team_ns"), data.get("team_ew")
        if ew and not ns:
            self.add_error("team_ns", _("Choose team NS for this table."))
        if ns and ew and ns == ew:
            self.add_error("team_ew", _("A team cannot play itself."))
        return data


class BaseDraftPairingFormSet(forms.BaseFormSet):
    """Rows of :class:`DraftPairingRowForm`; ``pairs()`` gives ``[(ns_id, ew_id|None), ...]``."""

    def __init__(self, *args, teams=None, **kwargs):
        self.teams = teams
        super().__init__(*args, **kwargs)
        # ModelChoiceField iterates its queryset per row: evaluate the teams once for every row.
        if teams is not None:
            cached = list(teams)
            for form in self.forms:
                for name in ("team_ns", "team_ew"):
                    field = form.fields[name]
                    field.queryset = teams
                    field.choices = [("", field.empty_label)] + [(t.pk, str(t)) for t in cached]

    def get_form_kwargs(self, index):
        kwargs = super().get_form_kwargs(index)
        kwargs["teams"] = self.teams
        return kwargs

    def pairs(self) -> list[tuple[int, int | None]]:
        out = []
        for form in self.forms:
            ns = form.cleaned_data.get("team_ns")
            if ns is None:
                continue
            ew = form.cleaned_data.get("team_ew")
            out.append((ns.pk, ew.pk if ew else None))
        return out


DraftPairingFormSet = forms.formset_factory(DraftPairingRowForm, formset=BaseDraftPairingFormSet, extra=2)


# --- players of four-player tournaments ----------------------------------------------------

def same_name_exists(tournament, name: str, exclude_pk: int | None = None) -> bool:
    """True if another player of ``tournament`` has ``name`` (compared with case and accents folded
    and spaces collapsed: :func:`scoring.participants.entrants.name_key`)."""
    if tournament is None or not name:
        return False
    qs = Player.objects.filter(tournament=tournament)
    if exclude_pk is not None:
        qs = qs.exclude(pk=exclude_pk)
    return duplicate_of(name, qs.values_list("name", flat=True)) is not None


class PlayerForm(forms.ModelForm):
    """Register or edit an individual player (organiser).

    The fields and rules are those of a CSV row (:mod:`scoring.participants.entrants`). Bounds: the
    name is unique within the tournament (case and accents folded), so that standings, seatings
    and score sheets are unambiguous; ``joined_round`` is 1..:data:`MAX_ROUND` (round 1 is the first
    round; there is no round 0); when the player is already withdrawn after round W,
    ``joined_round`` is at most W + 1 (joining after the withdrawal would never seat them).
    Pass the player's tournament as ``instance=Player(tournament=...)`` when registering.
    """

    name = TextField(label=capfirst(_("name")))
    affiliation = TextField(label=capfirst(_("affiliation")), required=False)
    seed = seed_field(label=capfirst(_("seed")))
    rating = rating_field(label=capfirst(_("rating")), help_text=_("A whole number, higher is stronger."))
    joined_round = round_field(label=capfirst(_("joined in round")), initial=1)

    class Meta:
        model = Player
        fields = ["name", "affiliation", "seed", "rating", "joined_round", "is_substitute"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        capitalise_labels(self)

    def clean_name(self):
        name = self.cleaned_data.get("name") or ""
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

    after_round = round_field(label=capfirst(_("withdrawn after round")))
    reinstate = forms.BooleanField(label=capfirst(_("reinstate instead")), required=False)
    from_round = round_field(label=capfirst(_("back from round")), required=False,
                             help_text=_("When reinstating: the first round they play again (empty: the next round drawn)."))
    reason = TextField(label=capfirst(_("reason")), required=False, max_length=250)

    def __init__(self, *args, player: Player | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        self.player = player
        capitalise_labels(self)

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


class PairRoundForm(forms.Form):
    """Pair the next round, or pair the draft again. Round 1 by one of the methods of
    :mod:`scoring.draw.pairing_seeding` (random from the tournament's seed; by seed number or
    rating, slide or fold): the page asks, the tournament's default chosen beforehand (later
    rounds are Swiss)."""

    METHODS = [(value, label) for value, label in FirstRoundMethod.choices if value]

    method = forms.ChoiceField(label=_("Round 1 pairing"), choices=METHODS, required=False, widget=forms.RadioSelect)


class SeatRoundForm(forms.Form):
    """Seat the next round; an empty seed uses the tournament's seed and the round number. The
    seed is bounded to 0..:data:`MAX_SEED`."""

    seed = WholeNumberField(label=pgettext_lazy("random draw", "seed"), required=False, min_value=0, max_value=MAX_SEED)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        capitalise_labels(self)
