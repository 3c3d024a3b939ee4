"""Check-in, no-show, withdraw and return through the API (issue 23 items 3 and 9; ``docs/api.md``),
the same services and policy as the pages (:mod:`scoring.participants.checkins`,
:mod:`scoring.draw.noshow`):

- ``GET .../checkins``: the check-in list of the next round to draw (``?round=N`` a draft round,
  ``?q=`` a search), with "n of m checked in" (organisers);
- ``PUT``/``DELETE .../checkins/{entrant}``: tick / untick a team or player (organisers; an
  entrant through its private link, ``Authorization: Link <token>``, for itself only);
- ``POST``/``DELETE .../checkins/mine``: the entrant's own tap through its private link;
- ``POST .../rounds/{n}/no-show``: a team or player did not show up after the draw (organisers);
- ``POST .../entrants/{entrant}/withdraw`` and ``.../return``: withdraw after a round, return
  from a round (organisers).

``{entrant}`` is a team's id (Tai Pan) or a player's id (four-player games). Refusals are the
API's error shape (:mod:`scoring.api.errors`): 409 ``conflict`` for "Round N is already drawn:
ask the organiser." and every other state refusal, 403 for the wrong actor.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

from scoring import policy
from scoring.api.serializers import ErrorSerializer
from scoring.api.views.base import ApiView, tournament_or_404
from scoring.draw import noshow
from scoring.games.base import EntrantKind
from scoring.kinds import kind_for
from scoring.models import Round, Tournament
from scoring.params import whole_number
from scoring.participants import checkins
from scoring.policy import Perm

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input (a field missing or malformed, no reason)."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
    403: OpenApiResponse(ErrorSerializer, description="Not an organiser (or, through a link, not this entrant)."),
    404: OpenApiResponse(ErrorSerializer, description="No such tournament, round, entrant or result."),
    409: OpenApiResponse(ErrorSerializer, description="`conflict`: check-in is off, the round is already drawn "
                                                      "(\"Round N is already drawn: ask the organiser.\"), the entrant "
                                                      "is withdrawn, the result has started, ..."),
}
TAGS = ["check-in"]


class CheckInRowSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The team's (Tai Pan) or player's id.")
    name = serializers.CharField()
    registered = serializers.BooleanField(help_text="Joined and not withdrawn in this round.")
    checked_in = serializers.BooleanField()
    absence = serializers.CharField(allow_blank=True, help_text="Why it will not be drawn (translated), or empty.")
    changed_by = serializers.CharField(allow_blank=True, help_text="Who ticked or unticked it last.")
    changed_at = serializers.DateTimeField(allow_null=True)


class CheckInListSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round the list is for.")
    drawn = serializers.BooleanField(help_text="The round is a draft already: pair (seat) it again to use a change.")
    checked_in = serializers.IntegerField()
    expected = serializers.IntegerField(help_text="Entrants registered for the round (joined, not withdrawn).")
    entrants = CheckInRowSerializer(many=True)


class CheckInBodySerializer(serializers.Serializer):
    round = serializers.IntegerField(required=False, min_value=1, max_value=999,
                                     help_text="The round the check-in is for (default: the next round to draw). A tap "
                                               "for a round already drawn is refused (409).")


class CheckInSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    entrant = serializers.IntegerField()
    checked_in = serializers.BooleanField()
    drawn = serializers.BooleanField(help_text="The round was a draft already (organisers): it shows the change as a "
                                               "problem until it is paired (seated) again.")


class NoShowSerializer(serializers.Serializer):
    result = serializers.IntegerField(help_text="The match's (table's) id.")
    absent = serializers.IntegerField(help_text="The team (player) that did not show up.")
    substitute = serializers.IntegerField(required=False, help_text="Four-player tables: the player who takes the seat.")
    rule = serializers.ChoiceField(choices=["forfeit", "bye"], default="forfeit",
                                   help_text="Tai Pan: a forfeit win for the team that is there (the tournament's "
                                             "`forfeit_score` and `forfeit_points`) or a bye for it.")
    reason = serializers.CharField(max_length=250)


class NoShowDoneSerializer(serializers.Serializer):
    result = serializers.IntegerField()
    rule = serializers.ChoiceField(choices=["forfeit", "bye", "substitute"])
    status = serializers.CharField()


class WithdrawSerializer(serializers.Serializer):
    after_round = serializers.IntegerField(min_value=0, max_value=999)
    reason = serializers.CharField(max_length=250, required=False, allow_blank=True)


class ReturnSerializer(serializers.Serializer):
    from_round = serializers.IntegerField(required=False, min_value=1, max_value=999,
                                          help_text="The first round played again (default: the next round to draw).")
    reason = serializers.CharField(max_length=250, required=False, allow_blank=True)


class WithdrawalSerializer(serializers.Serializer):
    entrant = serializers.IntegerField()
    after_round = serializers.IntegerField()
    returns_round = serializers.IntegerField(allow_null=True)
    reason = serializers.CharField(allow_blank=True)
    return_reason = serializers.CharField(allow_blank=True)


def _withdrawal(row) -> dict:
    return {"entrant": row.team_id or row.player_id, "after_round": row.after_round, "returns_round": row.returns_round,
            "reason": row.reason, "return_reason": row.return_reason}


class HallView(ApiView):
    """Base: the tournament, once the actor holds credentials (401); what it may do is the
    service's decision (403 / 409)."""

    def tournament(self, slug: str, *, organiser: bool = True) -> Tournament:
        t = tournament_or_404(slug)
        actor = self.actor()
        if not getattr(actor, "is_authenticated", False) and not policy.is_entrant(actor):
            raise exceptions.NotAuthenticated()
        if organiser and not policy.has_perm(actor, Perm.MANAGE, t):
            raise PermissionDenied
        return t

    def valid(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data if self.request.data else {})
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def tick(self, t: Tournament, entrant_id: int, present: bool) -> Response:
        data = self.valid(CheckInBodySerializer)
        out = checkins.set_checkin(t, self.actor(), entrant_id, present, round_number=data.get("round"))
        body = {"round": out.round_number, "entrant": entrant_id, "checked_in": out.present, "drawn": out.drawn}
        return Response(CheckInSerializer(body).data)


class CheckInListView(HallView):
    @extend_schema(responses={200: CheckInListSerializer, **ERRORS}, tags=TAGS,
                   parameters=[OpenApiParameter("round", int, required=False, description="Default: the next round to draw."),
                               OpenApiParameter("q", str, required=False, description="A part of a name or affiliation.")],
                   summary="The check-in list of the next round (organisers)")
    def get(self, request, slug):
        t = self.tournament(slug)
        number = whole_number(request.query_params.get("round", "")) or None
        listing = checkins.checkin_list(t, number, query=request.query_params.get("q", "")[:100])
        rows = [{"id": r.entrant.pk, "name": r.entrant.name, "registered": r.registered, "checked_in": r.checked_in,
                 "absence": r.absence, "changed_by": r.by, "changed_at": r.at} for r in listing.rows]
        body = {"round": listing.number, "drawn": listing.drawn, "checked_in": listing.checked_in,
                "expected": listing.expected, "entrants": rows}
        return Response(CheckInListSerializer(body).data)


class CheckInView(HallView):
    @extend_schema(request=CheckInBodySerializer, responses={200: CheckInSerializer, **ERRORS}, tags=TAGS,
                   summary="Check a team or player in (organisers; an entrant's link for itself)")
    def put(self, request, slug, pk):
        return self.tick(self.tournament(slug, organiser=False), pk, True)

    @extend_schema(request=CheckInBodySerializer, responses={200: CheckInSerializer, **ERRORS}, tags=TAGS,
                   summary="Undo a check-in (organisers; an entrant's link for itself)")
    def delete(self, request, slug, pk):
        return self.tick(self.tournament(slug, organiser=False), pk, False)


class MyCheckInView(HallView):
    def mine(self, slug: str) -> tuple[Tournament, int]:
        t = self.tournament(slug, organiser=False)
        actor = self.actor()
        if not policy.is_entrant(actor):
            raise PermissionDenied
        return t, actor.team_id or actor.player_id

    @extend_schema(request=CheckInBodySerializer, responses={200: CheckInSerializer, **ERRORS}, tags=TAGS,
                   summary="Check in through the private link (`Authorization: Link <token>`)")
    def post(self, request, slug):
        t, entrant_id = self.mine(slug)
        return self.tick(t, entrant_id, True)

    @extend_schema(request=CheckInBodySerializer, responses={200: CheckInSerializer, **ERRORS}, tags=TAGS,
                   summary="Undo one's own check-in through the private link")
    def delete(self, request, slug):
        t, entrant_id = self.mine(slug)
        return self.tick(t, entrant_id, False)


#: The no-show rule per kind of entrants (:mod:`scoring.draw.noshow`).
NO_SHOW = {
    EntrantKind.TEAMS: lambda c, actor, d: (d["rule"], noshow.match_no_show(
        c, actor, absent_team_id=d["absent"], reason=d["reason"], rule=d["rule"])),
    EntrantKind.PLAYERS: lambda c, actor, d: ("substitute", noshow.table_no_show(
        c, actor, absent_player_id=d["absent"], substitute_id=d.get("substitute") or 0, reason=d["reason"])),
}


class NoShowView(HallView):
    @extend_schema(request=NoShowSerializer, responses={200: NoShowDoneSerializer, **ERRORS}, tags=TAGS,
                   summary="Record a no-show after the draw (organisers)",
                   description="Tai Pan: a forfeit win for the team that is there (`rule`, default), or a bye "
                               "for it. Four-player games: "
                               "`substitute` takes the seat of `absent`. Only before the first record; the reason "
                               "is kept in the audit trail.")
    def post(self, request, slug, number):
        t = self.tournament(slug)
        data = self.valid(NoShowSerializer)
        rnd = get_object_or_404(Round, tournament=t, number=number)
        kind = kind_for(t.adapter)
        container = get_object_or_404(kind.container_model, round=rnd, pk=data["result"])
        container.round = rnd
        rule, done = NO_SHOW[t.adapter.entrants](container, self.actor(), data)
        return Response(NoShowDoneSerializer({"result": done.pk, "rule": rule, "status": done.status}).data)


class WithdrawView(HallView):
    @extend_schema(request=WithdrawSerializer, responses={201: WithdrawalSerializer, **ERRORS}, tags=TAGS,
                   summary="Withdraw a team or player after a round (organisers)")
    def post(self, request, slug, pk):
        t = self.tournament(slug)
        data = self.valid(WithdrawSerializer)
        row = checkins.withdraw(t, self.actor(), pk, after_round=data["after_round"], reason=data.get("reason", ""))
        return Response(WithdrawalSerializer(_withdrawal(row)).data, status=status.HTTP_201_CREATED)


class ReturnView(HallView):
    @extend_schema(request=ReturnSerializer, responses={200: WithdrawalSerializer, **ERRORS}, tags=TAGS,
                   summary="A withdrawn team or player returns from a round (organisers)")
    def post(self, request, slug, pk):
        t = self.tournament(slug)
        data = self.valid(ReturnSerializer)
        row = checkins.reinstate(t, self.actor(), pk, from_round=data.get("from_round"), reason=data.get("reason", ""))
        return Response(WithdrawalSerializer(_withdrawal(row)).data)
