"""Seasons in the API (issue 26 item 3, docs/api.md "Seasons"): the same services and policy as
the pages (:mod:`scoring.seasons`):

- ``GET /seasons``, ``GET /seasons/{slug}``, ``GET /seasons/{slug}/ranking``: public reads;
  names are public names (:func:`scoring.participants.names.person_public_name`), no federation
  numbers;
- ``POST /seasons``: create (a token of a user who organises a tournament);
- ``PATCH /seasons/{slug}``: change (the season's managers), only the fields sent.
"""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

from scoring.api.serializers import ErrorSerializer
from scoring.api.views.base import ApiView
from scoring.api.views.reads import read_schema
from scoring.models import PointsPreset, Season
from scoring.seasons.manage import save_season
from scoring.seasons.ranking import PRESET_TABLES, by_date, ranking
from scoring.standings.placement import as_number

WRITE_ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input (a field malformed, an unknown tournament or "
                                                      "user, a slug taken, a tournament the caller does not organise)."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
    403: OpenApiResponse(ErrorSerializer, description="Not a manager of this season (create: organises no tournament)."),
    404: OpenApiResponse(ErrorSerializer, description="No such season."),
    409: OpenApiResponse(ErrorSerializer, description="`stale_version`: the season changed since the `version` sent."),
}


class SeasonTournamentSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    starts_on = serializers.DateField(allow_null=True)
    status = serializers.CharField()
    provisional = serializers.BooleanField(help_text="Running: its results are shown but not counted.")


class SeasonSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    description = serializers.CharField(allow_blank=True)
    preset = serializers.ChoiceField(choices=PointsPreset.values)
    points_table = serializers.ListField(child=serializers.IntegerField(), allow_null=True,
                                         help_text="Points for place 1, 2, ...; null for `field` (field size - place + 1).")
    participation = serializers.IntegerField(help_text="Points for a place beyond the table.")
    best_n = serializers.IntegerField(allow_null=True, help_text="How many results count; null: all.")
    tournaments = SeasonTournamentSerializer(many=True)
    version = serializers.IntegerField(help_text="Increases on every change; send it back with a PATCH.")


class SeasonWriteSerializer(serializers.Serializer):
    name = serializers.CharField(max_length=200, required=False)
    slug = serializers.CharField(max_length=80, required=False, allow_blank=True)
    description = serializers.CharField(required=False, allow_blank=True)
    preset = serializers.ChoiceField(choices=PointsPreset.values, required=False)
    points_table = serializers.ListField(child=serializers.IntegerField(min_value=0), required=False,
                                         help_text="With preset `custom`: points for place 1, 2, ...")
    participation = serializers.IntegerField(min_value=0, required=False)
    best_n = serializers.IntegerField(min_value=1, required=False, allow_null=True)
    tournaments = serializers.ListField(child=serializers.CharField(), required=False,
                                        help_text="Tournament slugs (replaces the list); new ones must be organised by the caller; "
                                                  "one already in the season stays unless the caller organises it.")
    managers = serializers.ListField(child=serializers.CharField(), required=False,
                                     help_text="Co-managers' usernames (replaces the list).")
    version = serializers.IntegerField(min_value=0, required=False,
                                       help_text="PATCH: the `version` the change was built from; a stale one is a 409.")


class SeasonResultSerializer(serializers.Serializer):
    tournament = serializers.CharField(help_text="The tournament's slug.")
    place = serializers.IntegerField()
    tied = serializers.IntegerField(help_text="Entrants sharing the place (they share its points).")
    points = serializers.FloatField()
    counted = serializers.BooleanField(help_text="Among the best N.")
    provisional = serializers.BooleanField()


class SeasonRankingRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    person_id = serializers.IntegerField()
    name = serializers.CharField(help_text="The public name (first name and initial when any entry asks for it).")
    points = serializers.FloatField(help_text="Counted points (exact values rounded to two decimals).")
    played = serializers.IntegerField(help_text="Finished tournaments played.")
    best_place = serializers.IntegerField(allow_null=True)
    results = SeasonResultSerializer(many=True)


class SeasonRankingSerializer(serializers.Serializer):
    season = SeasonSerializer()
    rows = SeasonRankingRowSerializer(many=True)


def season_data(season: Season) -> dict:
    """A season's settings and tournaments (by date, as the ranking; prefetch ``tournaments`` for
    a list) for :class:`SeasonSerializer`."""
    table = None if season.preset == PointsPreset.FIELD else (
        list(season.points_table) if season.preset == PointsPreset.CUSTOM else PRESET_TABLES[season.preset])
    ordered = sorted(season.tournaments.all(), key=by_date)
    tournaments = [{"slug": t.slug, "name": t.name, "starts_on": t.starts_on, "status": t.status,
                    "provisional": t.status == t.Status.RUNNING} for t in ordered]
    return {"slug": season.slug, "name": season.name, "description": season.description, "preset": season.preset,
            "points_table": table, "participation": season.participation, "best_n": season.best_n,
            "tournaments": tournaments, "version": season.version}


def ranking_data(season: Season) -> dict:
    """The ranking for :class:`SeasonRankingSerializer` (public names)."""
    result = ranking(season)
    slugs = {t.pk: t.slug for t in result.tournaments}
    rows = [{"rank": row.rank, "person_id": row.person_id, "name": row.name, "points": as_number(row.total),
             "played": row.played, "best_place": row.best_place,
             "results": [{"tournament": slugs[c.tournament_id], "place": c.place, "tied": c.tied, "points": as_number(c.points),
                          "counted": c.counted, "provisional": c.provisional} for c in row.cells if c is not None]}
            for row in result.rows]
    return {"season": season_data(season), "rows": rows}


class SeasonWriteMixin:
    """Runs :func:`scoring.seasons.manage.save_season` for the actor; its errors as API errors."""

    def save(self, season: Season | None) -> Season:
        actor = self.actor()
        if not getattr(actor, "is_authenticated", False):
            raise exceptions.NotAuthenticated()
        serializer = SeasonWriteSerializer(data=self.request.data, partial=season is not None)
        serializer.is_valid(raise_exception=True)
        data = dict(serializer.validated_data)
        version = data.pop("version", None) if season is not None else None
        try:
            return save_season(season, actor, data, expected_version=version)
        except ValidationError as exc:
            raise exceptions.ValidationError(exc.message_dict) from None


class SeasonListView(SeasonWriteMixin, ApiView):
    @read_schema(SeasonSerializer(many=True), tags=["seasons"], summary="Every season, newest first")
    def get(self, request):
        seasons = Season.objects.prefetch_related("tournaments")
        return Response(SeasonSerializer([season_data(s) for s in seasons], many=True).data)

    @extend_schema(request=SeasonWriteSerializer, responses={201: SeasonSerializer, **WRITE_ERRORS}, tags=["seasons"],
                   summary="Create a season (organisers of a tournament)")
    def post(self, request):
        season = self.save(None)
        return Response(SeasonSerializer(season_data(season)).data, status=status.HTTP_201_CREATED)


class SeasonDetailView(SeasonWriteMixin, ApiView):
    @read_schema(SeasonSerializer, tags=["seasons"], summary="A season: points table, best N, tournaments")
    def get(self, request, slug):
        return Response(SeasonSerializer(season_data(get_object_or_404(Season, slug=slug))).data)

    @extend_schema(request=SeasonWriteSerializer, responses={200: SeasonSerializer, **WRITE_ERRORS}, tags=["seasons"],
                   summary="Change a season (its managers); only the fields sent")
    def patch(self, request, slug):
        season = self.save(get_object_or_404(Season, slug=slug))
        return Response(SeasonSerializer(season_data(season)).data)


class SeasonRankingView(ApiView):
    @read_schema(SeasonRankingSerializer, tags=["seasons"], summary="A season's ranking (docs/players.md \"Season ranking\")")
    def get(self, request, slug):
        return Response(SeasonRankingSerializer(ranking_data(get_object_or_404(Season, slug=slug))).data)
