"""django-tables2 listings of the public and organiser pages (named "listings": "table" means a
four-player table in this app).

:class:`StandingsTable` renders ``scoring.standings.teams.standings()`` rows (``StandingRow``
dataclasses): rank (shared on ties), team, players, played, won/drawn/lost, match points, point
difference, points scored, Buchholz, then one column per tie-break of the tournament in its order
(DESIGN.md 3, issue 2 item 7, issue 4 item 5). Rows are already ranked: columns are not sortable.
"""
from __future__ import annotations

from numbers import Number

import django_tables2 as tables
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

NUM = {"th": {"class": "num"}, "td": {"class": "num"}}


def format_number(value) -> str:
    """Integers as is, fractions with at most 2 decimals (e.g. median Buchholz 7.5)."""
    if value is None:
        return "—"
    if isinstance(value, bool) or not isinstance(value, Number):
        return str(value)
    if float(value).is_integer():
        return str(int(value))
    return f"{value:.2f}".rstrip("0").rstrip(".")


class NumberColumn(tables.Column):
    """A right-aligned number column (fractions rounded for display)."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("attrs", NUM)
        kwargs.setdefault("orderable", False)
        super().__init__(*args, **kwargs)

    def render(self, value):
        return format_number(value)


class TieBreakColumn(NumberColumn):
    """A tie-break value from ``StandingRow.tiebreaks[key]``."""

    def __init__(self, key: str, **kwargs):
        self.key = key
        super().__init__(accessor=tables.A(f"tiebreaks__{key}"), default="—", **kwargs)


class StandingsTable(tables.Table):
    """The standings; ``tiebreak_columns``: ``[(key, label), ...]`` in the tournament's order.

    ``slug`` links team names to the team breakdown page. Withdrawn teams are marked.
    """

    rank = NumberColumn(verbose_name=_("Rank"))
    name = tables.Column(verbose_name=_("Team"), orderable=False)
    players = tables.Column(verbose_name=_("Players"), orderable=False, attrs={"td": {"class": "players"}, "th": {"class": "players"}})
    played = NumberColumn(verbose_name=_("Played"))
    won = NumberColumn(verbose_name=_("Won"))
    drawn = NumberColumn(verbose_name=_("Drawn"))
    lost = NumberColumn(verbose_name=_("Lost"))
    match_points = NumberColumn(verbose_name=_("Match points"), attrs={"th": {"class": "num"}, "td": {"class": "num strong"}})
    point_difference = NumberColumn(verbose_name=_("Point difference"))
    points_scored = NumberColumn(verbose_name=_("Points scored"))
    buchholz = NumberColumn(verbose_name=_("Buchholz"))

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        empty_text = _("No teams yet.")
        row_attrs = {"class": lambda record: "withdrawn" if getattr(record, "withdrawn", False) else ""}

    def __init__(self, data, *, slug: str, tiebreak_columns=(), **kwargs):
        self.slug = slug
        shown = {"point_difference", "points_scored", "buchholz"}
        extra = [(f"tb_{key}", TieBreakColumn(key, verbose_name=label)) for key, label in tiebreak_columns if key not in shown]
        super().__init__(data, extra_columns=extra, **kwargs)

    def render_name(self, value, record):
        url = reverse("scoring:team_breakdown", args=[self.slug, record.team_id])
        if getattr(record, "withdrawn", False):
            return format_html('<a href="{}">{}</a> <span class="muted">({})</span>', url, value, _("withdrawn"))
        return format_html('<a href="{}">{}</a>', url, value)


class TeamTable(tables.Table):
    """Organiser team list: name, players, affiliation, seed, late entry, withdrawal, edit link."""

    name = tables.Column(verbose_name=_("Team"))
    players = tables.Column(verbose_name=_("Players"), empty_values=(), orderable=False)
    affiliation = tables.Column(verbose_name=_("Affiliation"))
    seed = NumberColumn(verbose_name=_("Seed"), orderable=True)
    joined_round = NumberColumn(verbose_name=_("Joined in round"), orderable=True)
    withdrawn_after_round = NumberColumn(verbose_name=_("Withdrawn after round"), orderable=True, default="")
    edit = tables.Column(verbose_name="", empty_values=(), orderable=False)

    class Meta:
        attrs = {"class": "teams"}
        empty_text = _("No teams registered yet.")
        row_attrs = {"class": lambda record: "withdrawn" if record.withdrawn_after_round is not None else ""}

    def __init__(self, data, *, slug: str, **kwargs):
        self.slug = slug
        super().__init__(data, **kwargs)

    def render_players(self, record):
        return record.player_names

    def render_withdrawn_after_round(self, value):
        return format_number(value)

    def render_edit(self, record):
        return format_html('<a href="{}">{}</a>', reverse("scoring:team_edit", args=[self.slug, record.pk]), _("Edit"))


class PlayerListTable(tables.Table):
    """Registered players of a four-player tournament (organiser view)."""

    name = tables.Column(verbose_name=_("name"))
    affiliation = tables.Column(verbose_name=_("affiliation"))
    seed = NumberColumn(verbose_name=_("seed"))
    joined_round = NumberColumn(verbose_name=_("joined in round"))
    withdrawn_after_round = NumberColumn(verbose_name=_("withdrawn after round"), default="")
    is_substitute = tables.BooleanColumn(verbose_name=_("substitute"))

    class Meta:
        orderable = False
        attrs = {"class": "players"}
        empty_text = _("No players yet.")

    def __init__(self, data, *, slug: str, **kwargs):
        self.slug = slug
        super().__init__(data, **kwargs)

    def render_name(self, value, record):
        return format_html('<a href="{}">{}</a>', reverse("scoring:player_edit", args=[self.slug, record.pk]), value)


class PlayerStandingsTable(tables.Table):
    """Four-player standings by total points."""

    rank = NumberColumn(verbose_name=_("Rank"), default="")
    name = tables.Column(verbose_name=_("Player"), orderable=False)
    affiliation = tables.Column(verbose_name=_("Affiliation"), orderable=False)
    played = NumberColumn(verbose_name=_("Tables"))
    total = NumberColumn(verbose_name=_("Total points"), attrs={"th": {"class": "num"}, "td": {"class": "num strong"}})

    class Meta:
        orderable = False
        attrs = {"class": "standings"}
        empty_text = _("No players yet.")

    def render_name(self, value, record):
        marks = [str(m) for m, on in ((_("substitute"), record.substitute), (_("withdrawn"), record.withdrawn)) if on]
        return f"{value} ({', '.join(marks)})" if marks else value
