"""The hall of a round through the API (issue 23 items 2, 4, 5, 9; ``docs/api.md``), the same
services and policy as the pages (:mod:`scoring.hall`, :mod:`scoring.web.views.hall_board`):

- ``GET .../rounds/{n}/times-up``: the round's call and the tables it would end (organisers);
  ``POST``: call time's up (``grace_minutes``: 0 ends at once, else entry goes on until then);
  ``POST .../times-up/apply``: apply it now (idempotent: ``ended`` is ``[]`` the second time);
- ``GET .../rounds/{n}/assignments``: the referees' tables (members who may enter results);
  ``PUT``: set one referee's zone (``"1-10, 14"``, organisers); ``POST .../tables/{t}/claim``:
  a referee claims a table;
- ``GET .../rounds/{n}/board``: the progress board (organisers, head referees);
- ``POST .../{matches|tables}/{id}/referee-call``: a side (its private link) or a referee calls
  a referee; ``POST .../rounds/{n}/tables/{t}/referee-call/answer``: a referee answers it.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.http import Http404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

from scoring import policy, tasks
from scoring.api.serializers import ErrorSerializer
from scoring.api.views.base import ApiView, tournament_or_404, visible_result, visible_round
from scoring.hall import board, calls, times_up, zones
from scoring.models import Round, TimesUp
from scoring.policy import Perm

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input (a table list that does not parse, table 0 or "
                                                      "beyond the round, a grace out of range)."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
    403: OpenApiResponse(ErrorSerializer, description="The permission policy refuses the caller."),
    404: OpenApiResponse(ErrorSerializer, description="No such tournament, round, result or member."),
    409: OpenApiResponse(ErrorSerializer, description="`conflict`: not possible in the round's state (not published "
                                                      "or running, time's up already called, tables in another "
                                                      "referee's zone)."),
}


class TimesUpSerializer(serializers.Serializer):
    called_at = serializers.DateTimeField(allow_null=True)
    grace_minutes = serializers.IntegerField()
    grace_until = serializers.DateTimeField(allow_null=True, help_text="Entry goes on until then (null: no grace).")
    applied_at = serializers.DateTimeField(allow_null=True)
    ended = serializers.ListField(child=serializers.IntegerField(), help_text="The table numbers it ended.")
    scheduled = serializers.BooleanField(help_text="True when a worker will apply it at `grace_until`; otherwise "
                                                   "call `apply` then.")


class PendingSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="number")
    title = serializers.CharField()
    status = serializers.CharField()
    outcome = serializers.CharField(help_text="What ending it now would decide, in words.")


class TimesUpStateSerializer(serializers.Serializer):
    call = TimesUpSerializer(allow_null=True)
    would_end = PendingSerializer(many=True)


class CallTimesUpSerializer(serializers.Serializer):
    grace_minutes = serializers.IntegerField(required=False, default=0, min_value=0,
                                             max_value=times_up.MAX_GRACE_MINUTES,
                                             help_text="Minutes to finish the hand in play (0: end now).")


class EndedSerializer(serializers.Serializer):
    ended = serializers.ListField(child=serializers.IntegerField())


class ZoneSerializer(serializers.Serializer):
    referee = serializers.CharField(help_text="The referee's username.")
    tables = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    claimed = serializers.ListField(child=serializers.IntegerField(), read_only=True)
    text = serializers.CharField(read_only=True, help_text="The tables as ranges (\"1-10, 14\").")


class SetZoneSerializer(serializers.Serializer):
    referee = serializers.CharField(help_text="The referee's username (a referee, head referee or organiser).")
    tables = serializers.CharField(allow_blank=True, max_length=500, help_text="Ranges or lists: \"1-10, 14, 20-22\".")
    take_over = serializers.BooleanField(required=False, default=False,
                                         help_text="Move tables in another referee's zone to this one.")


class ClaimSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    referee = serializers.CharField()
    claimed = serializers.BooleanField()


class BoardRowSerializer(serializers.Serializer):
    table = serializers.IntegerField(source="number")
    id = serializers.IntegerField(source="pk")
    title = serializers.CharField()
    state = serializers.ChoiceField(choices=list(board.STATES))
    bye = serializers.BooleanField()
    records = serializers.IntegerField()
    totals = serializers.ListField(child=serializers.IntegerField())
    last_record = serializers.DateTimeField(allow_null=True)
    minutes_since = serializers.IntegerField(allow_null=True)
    disputes = serializers.IntegerField()
    referee = serializers.CharField(allow_blank=True)
    claimed = serializers.BooleanField()
    needs_referee_since = serializers.DateTimeField(allow_null=True, source="call.called_at", default=None)
    attention = serializers.ChoiceField(choices=["needs_referee", "disputed", "stale", "none"],
                                        source="attention_name")


class BoardSerializer(serializers.Serializer):
    round = serializers.IntegerField()
    status = serializers.CharField()
    unfinished = serializers.ListField(child=serializers.IntegerField(),
                                       help_text="Tables that keep the round from closing.")
    tables = BoardRowSerializer(many=True)


class RefereeCallSerializer(serializers.Serializer):
    table = serializers.IntegerField()
    called_at = serializers.DateTimeField()
    answered_at = serializers.DateTimeField(allow_null=True)


class AnsweredSerializer(serializers.Serializer):
    answered = serializers.IntegerField(help_text="How many open calls were answered (0: none was open).")


ATTENTION = {board.NEEDS_REFEREE: "needs_referee", board.DISPUTED: "disputed", board.STALE: "stale",
             board.NOTHING: "none"}


class HallView(ApiView):
    """Base: the round, once the actor holds ``perm`` in its tournament (401 / 403 / 404)."""

    def round(self, slug: str, number: int, perm: Perm) -> Round:
        t = tournament_or_404(slug)
        actor = self.actor()
        if not getattr(actor, "is_authenticated", False) and not policy.is_entrant(actor):
            raise exceptions.NotAuthenticated()
        if not policy.has_perm(actor, perm, t):
            raise PermissionDenied
        return visible_round(actor, t, number)

    def valid(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


def _call_data(call: TimesUp | None, scheduled: bool = False) -> dict | None:
    if call is None:
        return None
    return {"called_at": call.called_at, "grace_minutes": call.grace_minutes, "grace_until": call.grace_until,
            "applied_at": call.applied_at, "ended": call.ended, "scheduled": scheduled}


class TimesUpView(HallView):
    @extend_schema(responses={200: TimesUpStateSerializer, **ERRORS}, tags=["hall"],
                   summary="Time's up: the round's call and the tables it would end (organisers)")
    def get(self, request, slug, number):
        rnd = self.round(slug, number, Perm.MANAGE)
        data = {"call": _call_data(times_up.current(rnd)), "would_end": times_up.preview(rnd)}
        return Response(TimesUpStateSerializer(data).data)

    @extend_schema(request=CallTimesUpSerializer, responses={200: TimesUpSerializer, **ERRORS}, tags=["hall"],
                   summary="Call time's up for the round (organisers)",
                   description="Without `grace_minutes` every unfinished match or table is ended at the time limit "
                               "at once, by its game's rule, with one audit entry each (`ended`). With a grace, "
                               "entry goes on until `grace_until`; then a worker applies it (`scheduled`) or the "
                               "client calls `times-up/apply`. A hand saved after the end is refused (409).")
    def post(self, request, slug, number):
        rnd = self.round(slug, number, Perm.MANAGE)
        data = self.valid(CallTimesUpSerializer)
        call = times_up.call(rnd, self.actor(), grace_minutes=data["grace_minutes"])
        scheduled = not call.applied and tasks.schedule_times_up(call)
        return Response(TimesUpSerializer(_call_data(call, scheduled)).data)


class TimesUpApplyView(HallView):
    @extend_schema(request=None, responses={200: EndedSerializer, **ERRORS}, tags=["hall"],
                   summary="Apply a called time's up now (organisers; idempotent)")
    def post(self, request, slug, number):
        rnd = self.round(slug, number, Perm.MANAGE)
        return Response({"ended": times_up.apply(rnd, self.actor())})


class AssignmentsView(HallView):
    @extend_schema(responses={200: ZoneSerializer(many=True), **ERRORS}, tags=["hall"],
                   summary="The referees' tables in the round (referees, head referees, organisers)")
    def get(self, request, slug, number):
        rnd = self.round(slug, number, Perm.ENTER_RESULTS)
        return Response(ZoneSerializer(_zones(rnd), many=True).data)

    @extend_schema(request=SetZoneSerializer, responses={200: ZoneSerializer, **ERRORS}, tags=["hall"],
                   summary="Set one referee's zone (organisers)",
                   description="The zone replaces the referee's tables in the round; an empty `tables` clears it. "
                               "Tables of another referee are refused (409) unless `take_over`.")
    def put(self, request, slug, number):
        rnd = self.round(slug, number, Perm.MANAGE)
        data = self.valid(SetZoneSerializer)
        referee = get_user_model().objects.filter(username=data["referee"]).first()
        if referee is None:
            raise Http404
        zones.set_zone(rnd, referee, data["tables"], self.actor(), take_over=data["take_over"])
        row = next(z for z in _zones(rnd, [referee]) if z["referee"] == referee.get_username())
        return Response(ZoneSerializer(row).data)


def _zones(rnd: Round, people=None) -> list[dict]:
    have = zones.assignments(rnd)
    out = []
    for person in people if people is not None else zones.referees(rnd.tournament):
        mine = sorted(t for t, a in have.items() if a.referee_id == person.pk)
        out.append({"referee": person.get_username(), "tables": mine, "text": zones.format_tables(mine),
                    "claimed": sorted(t for t in mine if have[t].claimed)})
    return out


class ClaimView(HallView):
    @extend_schema(request=None, responses={200: ClaimSerializer, **ERRORS}, tags=["hall"],
                   summary="Claim a table: it becomes the caller's for the round (referees)")
    def post(self, request, slug, number, table):
        rnd = self.round(slug, number, Perm.ENTER_RESULTS)
        a = zones.claim(rnd, table, self.actor())
        return Response({"table": a.table, "referee": a.referee.get_username(), "claimed": a.claimed})


class BoardView(HallView):
    @extend_schema(responses={200: BoardSerializer, **ERRORS}, tags=["hall"],
                   summary="The progress board: every table, most urgent first (organisers, head referees)")
    def get(self, request, slug, number):
        rnd = self.round(slug, number, Perm.VIEW_BOARD)
        rows = board.rows(rnd)
        for row in rows:
            row.attention_name = ATTENTION[row.attention]
        data = {"round": rnd.number, "status": rnd.status, "unfinished": sorted(r.number for r in rows if r.unfinished),
                "tables": rows}
        return Response(BoardSerializer(data).data)


class RefereeCallView(ApiView):
    kind = "match"

    @extend_schema(request=None, responses={201: RefereeCallSerializer, 200: RefereeCallSerializer, **ERRORS},
                   tags=["hall"], summary="Call a referee to this table (its sides' private links, referees)",
                   description="201 with a new call; 200 with the call already open (one per table).")
    def post(self, request, slug, pk):
        actor = self.actor()
        if not getattr(actor, "is_authenticated", False) and not policy.is_entrant(actor):
            raise exceptions.NotAuthenticated()
        container = visible_result(actor, tournament_or_404(slug), self.kind, pk)
        call, created = calls.call(container, actor)
        body = {"table": call.table, "called_at": call.called_at, "answered_at": call.answered_at}
        return Response(RefereeCallSerializer(body).data, status=status.HTTP_201_CREATED if created else status.HTTP_200_OK)


class AnswerCallView(HallView):
    @extend_schema(request=None, responses={200: AnsweredSerializer, **ERRORS}, tags=["hall"],
                   summary="Mark the call for a referee at a table answered (referees)")
    def post(self, request, slug, number, table):
        rnd = self.round(slug, number, Perm.ENTER_RESULTS)
        return Response({"answered": calls.answer(rnd, table, self.actor())})
