"""The cross table (public) and the federation export (organisers only) in the API, from the same
services as the pages (:func:`scoring.standings.crosstable.cross_table`,
:func:`scoring.io.federation.federation_rows`); docs/api.md "Cross table" and "Federation export".
The cross table names players through :func:`scoring.participants.names.public_name`; the
federation export carries full names and federation numbers and needs an organiser's
credentials (401 without, 403 for anyone else)."""
from __future__ import annotations

from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers
from rest_framework.response import Response

from scoring.api.serializers import ErrorSerializer
from scoring.api.views.base import ApiView, tournament_or_404
from scoring.api.views.members import OrganiserView
from scoring.api.views.reads import read_schema
from scoring.io.federation import federation_rows
from scoring.participants.names import public_name
from scoring.standings.crosstable import cross_table
from scoring.standings.placement import as_number


class ColumnSerializer(serializers.Serializer):
    key = serializers.CharField(help_text="`match_points`, a tie-break's key, `points_scored`, `total`, `placement_points`.")
    label = serializers.CharField()


class CellSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    state = serializers.ChoiceField(choices=["played", "pending", "bye", "none"],
                                    help_text="`pending`: paired or seated, the result does not count yet; `none`: "
                                              "not in this round (the other fields empty).")
    table = serializers.IntegerField(allow_null=True)
    result_id = serializers.IntegerField(allow_null=True, help_text="The match's or table's id.")
    opponents = serializers.ListField(child=serializers.IntegerField(), help_text="The opponents' row numbers.")
    opponent_ids = serializers.ListField(child=serializers.IntegerField(), help_text="The opponents' team or player ids.")
    side = serializers.CharField(allow_blank=True, help_text="Tai Pan `NS`/`EW`; four-player the seat's label, in the "
                                                             "request's language (\"Oost\").")
    side_key = serializers.CharField(allow_blank=True, help_text="The side as the game's side key, never translated (the "
                                                                 "tournament's `sides`): Tai Pan `NS`/`EW`; four-player "
                                                                 "`E`/`S`/`W`/`N`, Tien Gow `0`..`3`.")
    seat = serializers.IntegerField(allow_null=True, help_text="Four-player: the seat, 0 to 3.")
    outcome = serializers.CharField(allow_blank=True, help_text="Tai Pan `W`, `D` or `L` once played.")
    points = serializers.FloatField(allow_null=True, help_text="Tai Pan match points; four-player placement points.")
    scored = serializers.IntegerField(allow_null=True)
    conceded = serializers.IntegerField(allow_null=True)
    place = serializers.IntegerField(allow_null=True, help_text="Four-player: the place at the table (ties share).")
    forfeit = serializers.CharField(allow_blank=True, help_text="Tai Pan: `won`, `lost` or empty.")
    text = serializers.CharField(allow_blank=True, help_text='The cell as the page shows it ("12 NS W 850-400").')


class CrossTableRowSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="The row's number (unique); cells name opponents by it.")
    rank = serializers.IntegerField(allow_null=True, help_text="The standings' rank (shared on ties).")
    entrant_id = serializers.IntegerField()
    name = serializers.CharField()
    players = serializers.ListField(child=serializers.CharField(), help_text="Tai Pan: both players' public names.")
    affiliation = serializers.CharField(allow_blank=True)
    withdrawn = serializers.BooleanField()
    cells = CellSerializer(many=True, help_text="One per round of `rounds` (state `none`: the entrant did not play "
                                                "that round).")
    totals = serializers.DictField(child=serializers.FloatField(allow_null=True), help_text="By the keys of `columns`.")


class CrossTableSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    entrants = serializers.ChoiceField(choices=["teams", "players"])
    rounds = serializers.ListField(child=serializers.IntegerField())
    columns = ColumnSerializer(many=True)
    rows = CrossTableRowSerializer(many=True)


#: The API's cell of a round the entrant did not play.
NO_CELL = {"state": "none", "table": None, "result_id": None, "opponents": [], "opponent_ids": [], "side": "", "side_key": "",
           "seat": None, "outcome": "", "points": None, "scored": None, "conceded": None, "place": None,
           "forfeit": "", "text": ""}


def _cell(cell, number: int) -> dict:
    if cell is None:
        return {"round": number, **NO_CELL}
    data = {k: getattr(cell, k) for k in ("round", "state", "table", "result_id", "opponents", "opponent_ids", "side",
                                          "side_key", "seat", "outcome", "scored", "conceded", "place", "forfeit")}
    return {**data, "points": as_number(cell.points), "text": cell.text()}


class CrossTableView(ApiView):
    """``GET /api/v1/tournaments/{slug}/crosstable``."""

    @read_schema(CrossTableSerializer, tags=["standings"], summary="The cross table: who met whom, result per round",
                 description="A row per entrant in standings order, a cell per round that is not a draft (null where "
                             "the entrant did not play), the totals the standings show. Players' names as the "
                             "public sees them.")
    def get(self, request, slug):
        t = tournament_or_404(slug)
        table = cross_table(t, name_of=lambda p: public_name(p, t))
        rows = [{"number": r.number, "rank": r.rank, "entrant_id": r.entrant_id, "name": r.name, "players": r.players,
                 "affiliation": r.affiliation, "withdrawn": r.withdrawn, "cells": [_cell(c, n) for c, n in zip(r.cells, table.rounds, strict=True)],
                 "totals": {k: as_number(v) for k, v in r.totals.items()}} for r in table.rows]
        data = {"tournament": t.slug, "entrants": table.entrants, "rounds": table.rounds,
                "columns": [{"key": k, "label": str(label)} for k, label in table.columns], "rows": rows}
        return Response(CrossTableSerializer(data).data)


class FederationPlayerSerializer(serializers.Serializer):
    name = serializers.CharField(help_text="The full name.")
    federation_number = serializers.CharField(allow_blank=True)


class FederationRoundSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    opponent = serializers.CharField(allow_blank=True, help_text="The opponent team's name, or the other players' names.")
    result = serializers.CharField(allow_blank=True, help_text='"W 850-400", "W forfeit", "bye W", four-player "2nd 12".')


class FederationRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField(allow_null=True)
    name = serializers.CharField(help_text="The team's or the player's name.")
    affiliation = serializers.CharField(allow_blank=True)
    players = FederationPlayerSerializer(many=True, help_text="Tai Pan: both players; four-player: the player.")
    totals = serializers.DictField(child=serializers.FloatField(allow_null=True))
    rounds = FederationRoundSerializer(many=True)


class FederationExportSerializer(serializers.Serializer):
    tournament = serializers.CharField()
    entrants = serializers.ChoiceField(choices=["teams", "players"])
    rounds = serializers.ListField(child=serializers.IntegerField())
    columns = ColumnSerializer(many=True)
    rows = FederationRowSerializer(many=True)


class FederationExportView(OrganiserView):
    """``GET /api/v1/tournaments/{slug}/federation-export`` (organisers only)."""

    @extend_schema(responses={200: FederationExportSerializer,
                              401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
                              403: OpenApiResponse(ErrorSerializer, description="Not an organiser of this tournament."),
                              404: OpenApiResponse(ErrorSerializer, description="No such tournament.")},
                   tags=["standings"], summary="The federation export: ranking and results with full names (organisers only)")
    def get(self, request, slug):
        t = self.tournament(slug)
        data = federation_rows(t)
        data["columns"] = [{"key": k, "label": str(label)} for k, label in data["columns"]]
        response = Response(FederationExportSerializer({"tournament": t.slug, **data}).data)
        response["Cache-Control"] = "private, no-store"
        return response
