"""Organiser forms: members, teams, teams CSV import, draft pairing edits, players of four-player
tournaments, seating; the tournament settings form is :mod:`scoring.web.forms.tournament`
(re-exported here).

Forms validate what the engine and the models need and keep the posted input when invalid (plain
Django forms).
"""
from __future__ import annotations

from django import forms
from django.db import transaction
from django.db.models import Q
from django.utils.text import capfirst
from django.utils.translation import gettext, pgettext_lazy
from django.utils.translation import gettext_lazy as _

from scoring.games.entry import capitalise_labels
from scoring.io import entrants_csv
from scoring.models import FirstRoundMethod, Match, Player, PublicNames, Team, Tournament
from scoring.participants import persons
from scoring.participants.entrants import (
    MAX_SEED,
    FederationNumberField,
    TextField,
    WholeNumberField,
    duplicate_of,
    name_key,
    rating_field,
    round_field,
    seed_field,
)
from scoring.web.forms.tournament import FIELD_GROUPS, TournamentForm  # noqa: F401 - re-exported (views, tests)

#: A player's own public-name setting: empty (the tournament's), full, short.
PUBLIC_NAME_CHOICES = [("", _("as the tournament shows names")), *PublicNames.choices]


class TeamForm(forms.ModelForm):
    """Register or edit a Tai Pan team: two players (by name), name, affiliation, seed, late entry
    (``joined_round``) and withdrawal (``withdrawn_after_round``; results are kept). The fields and
    rules are those of a CSV row (:mod:`scoring.participants.entrants`): no invisible or control
    characters, whole numbers in ASCII digits within bounds, names compared with case and accents
    folded."""

    name = TextField(label=capfirst(_("name")))
    affiliation = TextField(label=capfirst(_("affiliation")), required=False)
    first_player_name = TextField(label=_("First player"))
    first_player_number = FederationNumberField(label=_("Federation number of the first player"))
    first_player_public = forms.ChoiceField(label=_("Name of the first player on public pages"), required=False,
                                            choices=PUBLIC_NAME_CHOICES)
    second_player_name = TextField(label=_("Second player"))
    second_player_number = FederationNumberField(label=_("Federation number of the second player"))
    second_player_public = forms.ChoiceField(label=_("Name of the second player on public pages"), required=False,
                                             choices=PUBLIC_NAME_CHOICES)
    seed = seed_field(label=capfirst(_("seed")))
    rating = rating_field(label=capfirst(_("rating")), help_text=_("A whole number, higher is stronger (round 1 by rating)."))
    joined_round = round_field(label=capfirst(_("joined in round")), required=False,
                               help_text=_("Late entry: the first round this team may be paired."))
    withdrawn_after_round = round_field(0, label=capfirst(_("withdrawn after round")), required=False,
                                        help_text=_("The team is not paired after this round; its results are kept. 0: before round 1."))

    class Meta:
        model = Team
        fields = ["name", "affiliation", "first_player_name", "first_player_number", "first_player_public",
                  "second_player_name", "second_player_number", "second_player_public", "seed", "rating", "joined_round",
                  "withdrawn_after_round"]

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament
        if self.instance.pk:
            for prefix, player in (("first", self.instance.first_player), ("second", self.instance.second_player)):
                self.fields[f"{prefix}_player_name"].initial = player.name
                self.fields[f"{prefix}_player_number"].initial = player.federation_number
                self.fields[f"{prefix}_player_public"].initial = player.public_name

    def _players(self) -> tuple[Player | None, Player | None]:
        if self.instance.pk:
            return self.instance.first_player, self.instance.second_player
        return None, None

    def _clean_number(self, prefix: str) -> str:
        number = self.cleaned_data.get(f"{prefix}_player_number") or ""
        own = self._players()[0 if prefix == "first" else 1]
        others = [p.pk for p in self._players() if p is not None]
        clash = persons.number_clash(self.tournament, number, exclude_pk=own.pk if own else None)
        if clash is not None and clash.pk not in others:
            raise forms.ValidationError(_("%(name)s already has this federation number in this tournament.") % {"name": clash.name})
        return number

    def clean_first_player_number(self):
        return self._clean_number("first")

    def clean_second_player_number(self):
        return self._clean_number("second")

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
        if data.get("first_player_number") and data.get("first_player_number") == data.get("second_player_number"):
            self.add_error("second_player_number", _("The two players have the same federation number."))
        for prefix in ("first", "second"):
            current = getattr(self.instance, f"{prefix}_player", None) if self.instance.pk else None
            error = persons.number_error(data.get(f"{prefix}_player_number"), data.get(f"{prefix}_player_name") or "", current)
            if error and f"{prefix}_player_number" not in self.errors:
                self.add_error(f"{prefix}_player_number", error)
        joined, withdrawn = data.get("joined_round"), data.get("withdrawn_after_round")
        if joined and withdrawn is not None and withdrawn and withdrawn < joined:
            self.add_error("withdrawn_after_round", _("A team cannot withdraw before the round it joins."))
        return data

    @transaction.atomic
    def save(self, commit: bool = True) -> Team:
        team = super().save(commit=False)
        team.tournament = self.tournament
        players = [team.first_player, team.second_player] if team.pk else [Player(tournament=self.tournament),
                                                                            Player(tournament=self.tournament)]
        for player, prefix in zip(players, ("first", "second"), strict=True):
            player.name = self.cleaned_data[f"{prefix}_player_name"].strip()
            player.affiliation = team.affiliation
            player.public_name = self.cleaned_data.get(f"{prefix}_player_public") or ""
            player.federation_number = self.cleaned_data.get(f"{prefix}_player_number") or ""
        was = dict(Player.objects.filter(pk__in=[p.pk for p in players if p.pk]).values_list("pk", "federation_number"))
        if team.pk:  # clear both numbers first: two players may swap them
            Player.objects.filter(pk__in=[p.pk for p in players]).update(federation_number="")
        for player in players:
            player.save()
            persons.link(player, was=was.get(player.pk))
        team.first_player, team.second_player = players
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

    federation_number = FederationNumberField()

    class Meta:
        model = Player
        fields = ["name", "federation_number", "affiliation", "seed", "rating", "joined_round", "is_substitute",
                  "public_name"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["public_name"].choices = PUBLIC_NAME_CHOICES
        self.fields["public_name"].label = _("Name on public pages")
        capitalise_labels(self)

    def clean_federation_number(self):
        number = self.cleaned_data.get("federation_number") or ""
        tournament = self.instance.tournament if self.instance.tournament_id else None
        clash = persons.number_clash(tournament, number, exclude_pk=self.instance.pk)
        if clash is not None:
            raise forms.ValidationError(_("%(name)s already has this federation number in this tournament.") % {"name": clash.name})
        return number

    @transaction.atomic
    def save(self, commit: bool = True) -> Player:
        """Save the entry and link it to its person (:func:`scoring.participants.persons.link`)."""
        was = self.initial.get("federation_number") if self.instance.pk else None
        player = super().save(commit=True)
        return persons.link(player, was=was)

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
        error = persons.number_error(data.get("federation_number"), data.get("name") or "", self.instance)
        if error and "federation_number" not in self.errors:
            self.add_error("federation_number", error)
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
