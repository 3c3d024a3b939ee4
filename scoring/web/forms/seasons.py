"""The season form of the management pages (issue 26 item 3). It only collects the values; the
checks and the save are :func:`scoring.seasons.manage.save_season`, shared with the API."""
from __future__ import annotations

from django import forms
from django.utils.text import capfirst
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.models import PointsPreset, Season, Tournament


class SeasonForm(forms.Form):
    """Name, slug, description, points (preset, own table, participation), best N, the
    tournaments (those the user organises and those already in the season) and co-managers."""

    name = forms.CharField(label=_("name"), max_length=200)
    slug = forms.SlugField(label=_("slug"), max_length=80, required=False,
                           help_text=_("The season's address: /seasons/<slug>/. Empty: from the name."))
    description = forms.CharField(label=_("description"), widget=forms.Textarea(attrs={"rows": 3}), required=False)
    preset = forms.ChoiceField(label=_("points per place"), choices=PointsPreset.choices, initial=PointsPreset.FORMULA1)
    points_table = forms.CharField(label=_("own points table"), required=False,
                                   help_text=_("Points for place 1, 2, ... separated by commas, e.g. 10, 8, 6, 5, 4, 3, 2, 1."))
    participation = forms.IntegerField(label=_("participation points"), min_value=0, max_value=10_000, initial=0,
                                       help_text=_("Points for a place beyond the table."))
    best_n = forms.IntegerField(label=_("best results counted"), min_value=1, max_value=10_000, required=False,
                                help_text=_("Empty: every result counts."))
    tournaments = forms.ModelMultipleChoiceField(label=_("tournaments"), queryset=Tournament.objects.none(), required=False,
                                                 widget=forms.CheckboxSelectMultiple)
    managers = forms.CharField(label=_("co-managers"), required=False,
                               help_text=_("Usernames separated by spaces; they may edit the season too."))

    version = forms.IntegerField(widget=forms.HiddenInput, required=False)

    def __init__(self, data=None, *args, user, season: Season | None = None, **kwargs):
        if season is not None and data is None:
            kwargs.setdefault("initial", {"version": season.version,
                "name": season.name, "slug": season.slug, "description": season.description, "preset": season.preset,
                "points_table": ", ".join(str(p) for p in season.points_table), "participation": season.participation,
                "best_n": season.best_n, "tournaments": list(season.tournaments.values_list("pk", flat=True)),
                "managers": " ".join(season.managers.values_list("username", flat=True))})
        super().__init__(data, *args, **kwargs)
        for field in self.fields.values():
            if field.label:  # explicit labels are not capitalised by Django (only model verbose names are)
                field.label = capfirst(field.label)
        mine = policy.organised_tournaments(user)
        choices = Tournament.objects.filter(pk__in=mine.values("pk"))
        if season is not None:
            choices = choices | Tournament.objects.filter(seasons=season)
        self.fields["tournaments"].queryset = choices.distinct().order_by("-starts_on", "-created_at")

    def data_for_service(self) -> dict:
        """The cleaned values in the shape :func:`scoring.seasons.manage.save_season` takes."""
        data = dict(self.cleaned_data)
        data["tournaments"] = [t.pk for t in data["tournaments"]]
        return data
