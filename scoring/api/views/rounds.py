"""The organiser's round actions (issue 23 item 9, ``docs/api.md``), the same as the buttons of the
round pages and through the same services and policy (:mod:`scoring.draw.pairing`,
:mod:`scoring.draw.seating`, :mod:`scoring.draw.rounds`):

- ``POST .../rounds/draw``: draw the next round as a draft: pair it (Tai Pan, Swiss; round 1 by
  ``method`` and ``seed``) or seat it (four-player games, by ``seed``). 201 with the round.
- ``POST .../rounds/{number}/draw``: draw the draft round ``number`` again (a new pairing or
  seating of the entrants present now; its tables are replaced). 200 with the round.
- ``POST .../rounds/{number}/publish``: publish a draft (``accept_warnings`` for rematches and
  second byes); a refusal is 409 with ``problems`` and ``needs_confirmation``.
- ``POST .../rounds/{number}/start``: a published round is in progress.
- ``POST .../rounds/{number}/close``: close a round whose every result is confirmed; the refusal
  (409) names the tables still open.

Organisers only (403 for referees and everyone else, 401 without credentials); the services check
the role again inside the tournament's lock. Every answer is the round as it now is
(:class:`RoundActionSerializer`: the round's tables as ``GET .../rounds/{number}`` shows them,
plus the draft's ``warnings``). Writes take an ``Idempotency-Key`` like every other write.
"""
from __future__ import annotations

from django.db import transaction
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring import tasks
from scoring.api import representation
from scoring.api.errors import body, error
from scoring.api.serializers import ErrorSerializer, RoundSerializer
from scoring.api.views.members import OrganiserView
from scoring.draw import rounds
from scoring.draw.pairing_seeding import METHODS
from scoring.errors import PairingImpossible
from scoring.models import Round, Tournament
from scoring.participants.entrants import MAX_SEED

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input (an unknown `method`, a `seed` out of range)."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
    403: OpenApiResponse(ErrorSerializer, description="Not an organiser of this tournament."),
    404: OpenApiResponse(ErrorSerializer, description="No such tournament or round."),
    409: OpenApiResponse(ErrorSerializer, description="`conflict`: not possible in the round's state (the message says "
                                                      "why: an earlier round not closed, not a draft, open tables, "
                                                      "players missing for tables of four); `no_pairing`: no pairing "
                                                      "without a rematch exists (`blocking`: the teams that block it); "
                                                      "`publish_refused`: the draft has problems (`problems`, "
                                                      "`needs_confirmation`)."),
    422: OpenApiResponse(ErrorSerializer, description="`idempotency_key_reused`."),
}


class DrawSerializer(serializers.Serializer):
    method = serializers.ChoiceField(
        choices=list(METHODS), required=False,
        help_text="Round 1 of a team game: `random` (by `seed`), `seeded` or `rating` (slide: 1 v n/2+1), `fold` or "
                  "`fold_rating` (fold: 1 v n); round 1 of a four-player game: the order of its pot draw (one player of "
                  "each seeding quarter per table; slide and fold alike). Default: the tournament's "
                  "`first_round_method`. Later rounds ignore it.")
    seed = serializers.IntegerField(
        required=False, min_value=0, max_value=MAX_SEED,
        help_text="The random seed (the same seed gives the same draw). Default: from the tournament's seed and the "
                  "round number; drawing a draft again keeps its seed unless another is given.")


class PublishSerializer(serializers.Serializer):
    accept_warnings = serializers.BooleanField(
        default=False, help_text="Publish although the draft has a rematch or a second bye (against the rules; the "
                                 "organiser decides). Double bookings, missing or absent teams are always refused.")


class RoundActionSerializer(RoundSerializer):
    warnings = serializers.ListField(child=serializers.CharField(), help_text="A draft's warnings (rematches, second "
                                                                             "byes, repeat meetings at tables of four); "
                                                                             "empty for other rounds.")


def _schema(summary: str, request=None, *, description: str = "", created: bool = False, operation_id: str | None = None):
    ok = {201: RoundActionSerializer} if created else {200: RoundActionSerializer}
    return extend_schema(request=request, responses={**ok, **ERRORS}, tags=["rounds"], summary=summary, operation_id=operation_id,
                         description=description)


class RoundActionView(OrganiserView):
    """Base: the organiser's tournament and round, and the answer (the round as it now is)."""

    def round(self, t: Tournament, number: int) -> Round:
        return get_object_or_404(Round.objects.select_related("tournament"), tournament=t, number=number)

    def answer(self, t: Tournament, number: int, *, status_code: int = status.HTTP_200_OK) -> Response:
        rnd = Round.objects.select_related("tournament").get(tournament=t, number=number)
        data = dict(representation.round_detail(self.request, t, rnd))
        data["warnings"] = [str(w) for w in rounds.draft_warnings(rnd)] if rnd.status == Round.Status.DRAFT else []
        headers = {}
        if status_code == status.HTTP_201_CREATED:
            headers["Location"] = data["url"]
        return Response(RoundActionSerializer(data).data, status=status_code, headers=headers)


def _no_pairing(exc: PairingImpossible) -> Response:
    data = body("no_pairing", [error("", exc.message)])
    data["blocking"] = list(exc.blocking)
    return Response(data, status=status.HTTP_409_CONFLICT)


def _draw(t: Tournament, actor, data: dict, draft: Round | None) -> Round:
    """Pair (teams) or seat (players) the next round, or the draft ``draft`` again."""
    return rounds.draw_round(t, actor, draft=draft, method=data.get("method"), seed=data.get("seed"))


class DrawNextView(RoundActionView):
    @_schema("Draw the next round as a draft (pair or seat it)", DrawSerializer, created=True,
             operation_id="tournaments_rounds_draw_next", description=(
        "Team games: the Swiss pairing of the next round (round 1 by `method`), with club avoidance when the "
        "tournament has it on; four-player games: the seating, four to a table (round 1 by `method`; a draft already there is "
        "seated again). Refused while an earlier round is open (409, the message names its open tables)."))
    def post(self, request, slug):
        t = self.tournament(slug)
        data = self.valid(DrawSerializer)
        try:
            rnd = _draw(t, self.actor(), data, None)
        except PairingImpossible as exc:
            return _no_pairing(exc)
        return self.answer(t, rnd.number, status_code=status.HTTP_201_CREATED)


class DrawAgainView(RoundActionView):
    @_schema("Draw a draft round again", DrawSerializer, operation_id="tournaments_rounds_draw_again", description=(
        "The draft's tables (hand edits included) are replaced by a new pairing or seating of the entrants "
        "present now. Only the latest round, only while it is a draft (409)."))
    def post(self, request, slug, number):
        t = self.tournament(slug)
        rnd = self.round(t, number)
        data = self.valid(DrawSerializer)
        try:
            _draw(t, self.actor(), data, rnd)
        except PairingImpossible as exc:
            return _no_pairing(exc)
        return self.answer(t, number)


class PublishView(RoundActionView):
    @_schema("Publish a draft round", PublishSerializer, description=(
        "Its tables and score sheets become public and results can be entered; a tournament in registration "
        "starts running. A draft with problems is refused with 409 `publish_refused`: `problems` lists them and "
        "`needs_confirmation` is true when only rematches and second byes stop it (send `accept_warnings`)."))
    def post(self, request, slug, number):
        t = self.tournament(slug)
        rnd = self.round(t, number)
        data = self.valid(PublishSerializer)
        try:
            rounds.publish_round(rnd, self.actor(), accept_warnings=data["accept_warnings"])
        except rounds.PublishRefused as exc:
            refusal = body("publish_refused", [error("", exc.message)])
            refusal.update(problems=[str(p) for p in exc.problems], needs_confirmation=exc.needs_confirmation)
            return Response(refusal, status=status.HTTP_409_CONFLICT)
        if not tasks.build_round_pack.app.conf.task_always_eager:  # with a worker, as the page does
            base = request.build_absolute_uri("/")
            transaction.on_commit(lambda: tasks.start_round_pack(rnd, base_url=base))
        return self.answer(t, number)


class StartView(RoundActionView):
    @_schema("Start a published round", None, description="The round is in progress. Only a published round (409).")
    def post(self, request, slug, number):
        t = self.tournament(slug)
        rounds.start_round(self.round(t, number), self.actor())
        return self.answer(t, number)


class CloseView(RoundActionView):
    @_schema("Close a round", None, description=(
        "Only when every result (byes excepted) is confirmed; otherwise 409 naming the tables still open. The next "
        "round can then be drawn."))
    def post(self, request, slug, number):
        t = self.tournament(slug)
        rounds.close_round(self.round(t, number), self.actor())
        return self.answer(t, number)
