"""The tournament form's placement points fields (issue 24 item 2; docs/tournaments.md "Placement
points"): a preset, or custom uma (four numbers), oka and tie rule, stored as
``Tournament.placement`` (:meth:`scoring.standings.placement.Placement.as_json`). Only four-player
games use it; a Tai Pan tournament stores ``{}``. :class:`PlacementFields` is mixed into
:class:`scoring.web.forms.organiser.TournamentForm`."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from scoring.games import registry
from scoring.standings.placement import CUSTOM, SEAT, SHARE, PlacementError, parse, stored
from scoring.standings.player_tiebreaks import USES_PLACEMENT

PRESET_CHOICES = [
    ("none", _("None: rank by total points")),
    ("ema", _("EMA table points 4 / 2 / 1 / 0 (ties share)")),
    ("ema_riichi", _("EMA Riichi uma 15 / 5 / −5 / −15 (ties share)")),
    ("pantheon", _("MahjongPantheon (Tenhou): uma 15 / 5 / −5 / −15, oka 20 (ties by seat)")),
    (CUSTOM, _("Custom values")),
]
TIE_CHOICES = [(SHARE, _("Equal totals share the points of their places")), (SEAT, _("Equal totals by seat, East first"))]
#: The form's field names, in order (for the template and for locking once round 1 exists).
FIELDS = ("placement_preset", "placement_uma", "placement_oka", "placement_ties")
#: Which of the parser's fields each form field shows the problems of.
ERROR_FIELDS = {"uma": "placement_uma", "oka": "placement_oka", "ties": "placement_ties"}


def uses_placement(game: str | None) -> bool:
    """True when ``game`` (a registry key) seats four players at a table (placement points apply)."""
    try:
        return bool(game) and USES_PLACEMENT[registry.get(game).entrants]
    except registry.UnknownGame:
        return False


class PlacementFields(forms.Form):
    """Placement points fields; call :meth:`init_placement` in ``__init__``, :meth:`clean_placement`
    in ``clean`` (returns the value to store) and store it in ``save``."""

    placement_preset = forms.ChoiceField(
        label=_("Placement points"), choices=PRESET_CHOICES, required=False,
        help_text=_("Four-player games: points per table by place, added up over the rounds; players rank by them, "
                    "then by total points, then by the tie-breaks."))
    placement_uma = forms.CharField(
        label=_("Custom placement points, place 1 to 4"), required=False,
        help_text=_("Four numbers separated by commas, e.g. 15, 5, -5, -15 (decimals with a point)."))
    placement_oka = forms.CharField(
        label=_("Oka"), required=False,
        help_text=_("Custom: a pot every player pays a quarter of and first place takes whole (e.g. 20 for "
                    "starting points 25,000 and return points 30,000); 0 or empty: none."))
    placement_ties = forms.ChoiceField(label=_("Equal totals"), choices=TIE_CHOICES, required=False)

    def init_placement(self, instance) -> None:
        """Initial values from the tournament's stored setting (a broken one shows as none);
        ``shows_placement``: False for a saved tournament whose game has no placement points."""
        self.shows_placement = not instance.pk or uses_placement(instance.game)
        rule = stored(instance.placement)
        self.fields["placement_preset"].initial = rule.preset
        self.fields["placement_ties"].initial = rule.ties
        if rule.preset == CUSTOM:
            self.fields["placement_uma"].initial = ", ".join(str(v) for v in rule.as_json()["uma"])
            self.fields["placement_oka"].initial = str(rule.as_json()["oka"])

    def clean_placement(self, data: dict) -> dict:
        """The setting to store: ``{}`` for Tai Pan or preset none, else
        :meth:`~scoring.standings.placement.Placement.as_json`; problems go to their fields."""
        preset = data.get("placement_preset") or "none"
        if not uses_placement(data.get("game")) or preset == "none":
            return {}
        value: dict = {"preset": preset}
        if preset == CUSTOM:
            uma = [part.strip() for part in (data.get("placement_uma") or "").split(",") if part.strip()]
            value.update(uma=uma, oka=(data.get("placement_oka") or "0").strip(), ties=data.get("placement_ties") or SHARE)
        try:
            return parse(value).as_json()
        except PlacementError as exc:
            shown: set[str] = set()
            for field, _message in exc.problems:  # one message per field, however many values are wrong
                if field not in shown:
                    shown.add(field)
                    self.add_error(ERROR_FIELDS.get(field, "placement_preset"), MESSAGES.get(field, MESSAGES["uma"]))
            return {}


MESSAGES = {
    "uma": _("Give four numbers between -1000 and 1000, place 1 to 4, separated by commas."),
    "oka": _("Give a number from 0 to 1000 (0: no oka)."),
    "ties": _("Choose how equal totals are placed."),
}
