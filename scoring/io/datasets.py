"""Exports as tablib Datasets (``.export("csv")`` / ``.export("xlsx")``) for the download views
and the ``standings`` command: the standings and a round's tables, for every game."""
from __future__ import annotations

import tablib
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from scoring.models import Round, Tournament
from scoring.results.storage import storage_for
from scoring.standings import player_standings, team_standings
from scoring.standings.tiebreaks import REGISTRY


def standings_dataset(t: Tournament, *, through_round: int | None = None) -> tablib.Dataset:
    """The standings as a tablib Dataset (translated headers; one row per entrant, best first;
    Tai Pan: extra columns for the tournament's other tie-breaks). ``.export("csv")`` / ``("xlsx")``."""
    if not t.has_teams:
        return _player_standings_dataset(t, through_round)
    rows = team_standings(t, through_round=through_round)
    base = {"point_difference", "points_scored", "buchholz"}
    keys = [k for k in (rows[0].tiebreaks if rows else {}) if k not in base]
    headers = [_t("Rank"), _t("Team"), _t("Players"), _t("Affiliation"), _t("Played"), _t("Won"), _t("Drawn"),
               _t("Lost"), _t("Byes"), _t("Match points"), _t("Point difference"), _t("Points scored"), _t("Buchholz")]
    headers += [str(REGISTRY[k].label) for k in keys] + [_t("Withdrawn")]
    ds = tablib.Dataset(headers=headers, title=str(_("Standings"))[:31])
    for r in rows:
        ds.append([r.rank, r.name, r.players, r.affiliation, r.played, r.won, r.drawn, r.lost, r.byes,
                   r.match_points, r.point_difference, r.points_scored, r.buchholz]
                  + [r.tiebreaks.get(k) for k in keys] + [_t("yes") if r.withdrawn else ""])
    return ds


def _player_standings_dataset(t: Tournament, through_round: int | None) -> tablib.Dataset:
    headers = [_t("Rank"), _t("Player"), _t("Affiliation"), _t("Tables"), _t("Total points"), _t("Substitute"), _t("Withdrawn")]
    ds = tablib.Dataset(headers=headers, title=str(_("Standings"))[:31])
    for r in player_standings(t, through_round=through_round):
        ds.append([r.rank if r.rank is not None else "", r.name, r.affiliation, r.played, r.total,
                   _t("yes") if r.substitute else "", _t("yes") if r.withdrawn else ""])
    return ds


def round_dataset(rnd: Round) -> tablib.Dataset:
    """The tables of a round as a tablib Dataset: table number, every side (Tai Pan: both teams with
    their players, a bye has an empty EW side; four-player: the four seated players), the reason
    the table was drawn, its status and the totals per side."""
    adapter = rnd.tournament.adapter
    storage = storage_for(adapter)
    labels = adapter.side_labels()
    headers = [_t("Table")]
    for label in labels:
        headers += [f"{label}", _t("Players %(side)s") % {"side": label}] if rnd.tournament.has_teams else [label]
    headers += [_t("Note"), _t("Status")] + [_t("Total %(side)s") % {"side": label} for label in labels]
    ds = tablib.Dataset(headers=headers, title=(_t("Round") + f" {rnd.number}")[:31])
    order = "table" if storage.container_type == "match" else "number"
    for c in storage.queryset().filter(round=rnd).order_by(order):
        c.round = rnd
        row = [storage.number(c)]
        for side in storage.sides(c, adapter):
            if rnd.tournament.has_teams:
                row += [side["name"] or _t("bye"), " & ".join(name for _seat, name in side["players"])]
            else:
                row.append(side["name"])
        note = c.pairing_reason_text() if hasattr(c, "pairing_reason_text") else c.seating_note
        ds.append(row + [note, c.get_status_display()] + storage.totals(c))
    return ds
