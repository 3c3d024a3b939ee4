"""Exports as tablib Datasets (``.export("csv")`` / ``.export("xlsx")``) for the download views
and the ``standings`` command: the standings and a round's tables, for every game."""
from __future__ import annotations

import tablib
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from scoring.games.base import EntrantKind
from scoring.models import Round, Tournament
from scoring.results.storage import storage_for
from scoring.standings import player_standings, team_standings
from scoring.standings.tiebreaks import REGISTRY


def standings_dataset(t: Tournament, *, through_round: int | None = None) -> tablib.Dataset:
    """The standings as a tablib Dataset (translated headers; one row per entrant, best first;
    Tai Pan: extra columns for the tournament's other tie-breaks). ``.export("csv")`` / ``("xlsx")``."""
    return BY_ENTRANTS[t.adapter.entrants](t, through_round)


def _team_standings_dataset(t: Tournament, through_round: int | None) -> tablib.Dataset:
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
    rows, with_players = [], False
    for c in storage.in_round(rnd):
        c.round = rnd
        sides = storage.sides(c, adapter)
        with_players = with_players or any(side["players"] for side in sides)
        rows.append((storage.number(c), sides, storage.note(c), c.get_status_display(), storage.totals(c)))
    headers = [_t("Table")]
    for label in labels:
        headers += [label] + ([_t("Players %(side)s") % {"side": label}] if with_players else [])
    headers += [_t("Note"), _t("Status")] + [_t("Total %(side)s") % {"side": label} for label in labels]
    ds = tablib.Dataset(headers=headers, title=(_t("Round") + f" {rnd.number}")[:31])
    for number, sides, note, status, totals in rows:
        row = [number]
        for side in sides:
            row.append(side["name"] or _t("bye"))
            if with_players:
                row.append(" & ".join(name for _seat, name in side["players"]))
        ds.append(row + [note, status] + totals)
    return ds


BY_ENTRANTS = {EntrantKind.TEAMS: _team_standings_dataset, EntrantKind.PLAYERS: _player_standings_dataset}
