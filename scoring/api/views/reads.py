"""Public, read-only endpoints: tournaments, rounds with their tables (pairings or seatings),
standings with the tie-break values, and each match or table with its records and totals.

Draft rounds exist only for the tournament's organisers (:func:`scoring.policy.round_visible`):
everyone else gets 404 for them and never sees them listed. No output names a user or shows
the audit trail.
"""
from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from django.utils.translation import gettext as _
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework.exceptions import ValidationError
from rest_framework.response import Response

from scoring import policy
from scoring.api import etags, representation
from scoring.api.serializers import (
    ErrorSerializer,
    IndexSerializer,
    RecordSerializer,
    ResultSerializer,
    RoundSerializer,
    RoundSummarySerializer,
    StandingsSerializer,
    TournamentSerializer,
    TournamentSummarySerializer,
)
from scoring.api.views.base import ApiView, tournament_or_404, visible_result, visible_round
from scoring.kinds import kind_of
from scoring.models import Tournament
from scoring.params import plain_int
from scoring.standings import players as player_standings
from scoring.standings import teams as team_standings
from scoring.standings.cache import get_or_compute, state_key

NOT_FOUND = OpenApiResponse(ErrorSerializer, description="No such object, or a draft round the caller may not see.")
NOT_MODIFIED = OpenApiResponse(description="Not modified: the `If-None-Match` names the current `ETag`.")
UNAUTHORIZED = OpenApiResponse(ErrorSerializer, description="An unknown token (reads need none).")
THROTTLED = OpenApiResponse(ErrorSerializer, description="Too many requests; `Retry-After` says when to try again.")
IF_NONE_MATCH = OpenApiParameter("If-None-Match", str, OpenApiParameter.HEADER, required=False,
                                 description="An `ETag` read before: 304 without a body when nothing changed.")


def read_schema(response, *, tags: list[str], summary: str, parameters=(), description: str = "", extra=None):
    """``extend_schema`` of a read endpoint (200, 304, 404; ``extra``: further responses by status)."""
    responses = {200: response, 304: NOT_MODIFIED, 401: UNAUTHORIZED, 404: NOT_FOUND, 429: THROTTLED, **(extra or {})}
    return extend_schema(responses=responses, tags=tags, summary=summary,
                         parameters=[IF_NONE_MATCH, *parameters], description=description)


class IndexView(ApiView):
    """``/api/v1/``: links to the collections, the schema and the docs."""

    @read_schema(IndexSerializer, tags=["index"], summary="Links to the API's collections")
    def get(self, request):
        def url(name):
            return request.build_absolute_uri(reverse(f"api:{name}"))

        return Response(IndexSerializer({"tournaments": url("tournament-list"), "engines": url("engine-list"),
                                         "schema": url("schema"), "docs": url("docs")}).data)


class TournamentListView(ApiView):
    @read_schema(TournamentSummarySerializer(many=True), tags=["tournaments"], summary="All tournaments, newest first")
    def get(self, request):
        data = [representation.tournament_summary(request, t) for t in Tournament.objects.all()]
        return Response(TournamentSummarySerializer(data, many=True).data)


class TournamentDetailView(ApiView):
    @read_schema(TournamentSerializer, tags=["tournaments"], summary="A tournament: settings, tie-breaks, rounds")
    def get(self, request, slug):
        t = tournament_or_404(slug)
        return Response(TournamentSerializer(representation.tournament_detail(request, self.actor(), t)).data)


class RoundListView(ApiView):
    @read_schema(RoundSummarySerializer(many=True), tags=["rounds"], summary="The rounds the caller may see")
    def get(self, request, slug):
        t = tournament_or_404(slug)
        return Response(RoundSummarySerializer(representation.round_summaries(request, self.actor(), t), many=True).data)


class RoundDetailView(ApiView):
    @read_schema(RoundSerializer, tags=["rounds"], summary="A round with its tables (pairings or seatings)",
                 description="Each table with its sides (teams NS/EW, or four seated players), status, totals so "
                             "far and version. A draft round is 404 except for the tournament's organisers.")
    def get(self, request, slug, number):
        t = tournament_or_404(slug)
        rnd = visible_round(self.actor(), t, number)
        return Response(RoundSerializer(representation.round_detail(request, t, rnd)).data)


#: The standings of each kind of entrant, computed (``scoring.standings`` keeps them in the cache
#: under ``state_key(tournament, "teams"|"players", through_round)``, read here once for the
#: ``ETag`` and the cache both).
COMPUTE = {"teams": team_standings.standings, "players": player_standings.standings}

ROUND_PARAMETER = OpenApiParameter("round", int, OpenApiParameter.QUERY, required=False,
                                   description="The standings after this round: the number of a round of the "
                                               "tournament the caller sees (default: every played round). "
                                               "Anything else is 400 with an error on `round`.")


def through_round_of(request, actor, tournament: Tournament) -> int | None:
    """``?round=``: ``None`` when absent, else the number of a round of ``tournament`` the actor
    sees; a value that is not a plain whole number (:func:`scoring.params.plain_int`: ``abc``,
    ``-1``, ``null``, ``1.0``) or names no such round (``0``, ``99`` of four rounds) is 400 with
    an error on ``round``."""
    raw = request.query_params.get("round")
    if raw is None:
        return None
    number = plain_int(raw)
    if number is None:
        raise ValidationError({"round": [_("A round is given by its number, a whole number such as 3.")]})
    rounds = [r for r in tournament.rounds.all() if policy.round_visible(actor, r)]
    if not any(r.number == number for r in rounds):
        if not rounds:
            raise ValidationError({"round": [_("This tournament has no rounds yet.")]})
        raise ValidationError({"round": [_("This tournament has no round %(number)s: give a round from %(first)s to "
                                           "%(last)s.") % {"number": number, "first": min(r.number for r in rounds),
                                                           "last": max(r.number for r in rounds)}]})
    return number


class StandingsView(ApiView):
    @read_schema(StandingsSerializer, tags=["standings"], summary="The standings with the tie-break values",
                 parameters=[ROUND_PARAMETER],
                 extra={400: OpenApiResponse(ErrorSerializer, description="`round` is not a round of the tournament.")},
                 description="Tai Pan: teams by match points, then the tournament's tie-breaks (each row carries "
                             "every tie-break value by key). Four-player games: players by total points. "
                             "Finished results of published rounds count; with blind confirmation only "
                             "confirmed ones, for every caller. The `ETag` is the standings cache's state key "
                             "(it changes when a result that counts changes, not with every hand of a match "
                             "being played): a 304 costs one aggregate query.")
    def get(self, request, slug):
        t = tournament_or_404(slug)
        through_round = through_round_of(request, self.actor(), t)
        entrants = str(t.adapter.entrants)
        key = state_key(t, entrants, through_round)  # the key the standings cache (and the pages) use
        etag = etags.make("standings", key)
        if etags.matches(request, etag):
            return etags.not_modified(etag)
        rows = get_or_compute(key, lambda: COMPUTE[entrants](t, through_round=through_round))
        data = representation.standings(t, rows, through_round)
        return Response(StandingsSerializer(data).data, headers={"ETag": etag})


def result_etag(container) -> str:
    """A result's ``ETag``: its version (raised by every write of the result sheet), its round's
    status and what its sides show (names, affiliations, players), all read already."""
    kind = kind_of(container)
    sides = [(s["key"], s["name"], s.get("affiliation") or "", list(s.get("players") or []))
             for s in kind.sides(container, container.round.tournament.adapter)]
    # ``updated_at`` too: an acknowledgement of a record (verification per hand) changes what the
    # result shows without changing its version.
    return etags.make("result", kind.key, container.pk, container.version, container.updated_at.isoformat(),
                      container.round.status, sides)


class ResultDetailView(ApiView):
    """A match (``/matches/{id}``, Tai Pan) or a four-player table (``/tables/{id}``)."""

    kind = "match"

    @read_schema(ResultSerializer, tags=["results"], summary="A result with its records and totals",
                 description="The `ETag` follows the result's `version` (and its acknowledgements).")
    def get(self, request, slug, pk):
        t = tournament_or_404(slug)
        container = visible_result(self.actor(), t, self.kind, pk)
        etag = result_etag(container)
        if etags.matches(request, etag):
            return etags.not_modified(etag)
        return Response(ResultSerializer(representation.result_detail(request, t, container)).data, headers={"ETag": etag})


def find_record(request, t, container, number: int) -> dict:
    """Record ``number`` of ``container`` as the API shows it, else 404."""
    for row in representation.records(request, t, container):
        if row["number"] == number:
            return row
    raise Http404


class RecordListReadMixin:
    @read_schema(RecordSerializer(many=True), tags=["results"], summary="The records (hands or deals) of a result")
    def get(self, request, slug, pk):
        t = tournament_or_404(slug)
        container = visible_result(self.actor(), t, self.kind, pk)
        return Response(RecordSerializer(representation.records(request, t, container), many=True).data)


class RecordReadMixin:
    @read_schema(RecordSerializer, tags=["results"], summary="One record (hand or deal) of a result")
    def get(self, request, slug, pk, number):
        t = tournament_or_404(slug)
        container = visible_result(self.actor(), t, self.kind, pk)
        return Response(RecordSerializer(find_record(request, t, container, number)).data)
