"""Result writes (authenticated): enter, edit and delete records, end at the time limit and
resume, confirm and reopen, through the result sheet (:mod:`scoring.results.sheet`) exactly as
the referee's pages do, with the same permission policy (:mod:`scoring.policy`).

Every write carries the ``version`` of the result the client read; the sheet compares it inside
the row lock, so nothing the client did not see is overwritten or confirmed (409
``stale_version``). Each successful write answers with the whole result as it now is (its new
``version`` and ``ETag`` included). A refused write changes nothing: the sheet runs in one
transaction and refuses before it writes.

Order of the checks, as on the pages: the result must be visible to the actor (404), the actor
must hold the action's permission in the tournament (403, asked of the policy before the input
is read), then the input (400) and the sheet's own rules (403, 409, 400).
"""
from __future__ import annotations

from django.http import Http404
from django.urls import reverse
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.response import Response

from scoring.api import representation
from scoring.api.serializers import (
    AcknowledgeSerializer,
    ConfirmSerializer,
    DisagreeSerializer,
    DisputeSerializer,
    ErrorSerializer,
    ReasonSerializer,
    RecordCreateSerializer,
    RecordEditSerializer,
    ResultSerializer,
)
from scoring.api.views.base import ApiView, tournament_or_404, visible_result
from scoring.api.views.reads import RecordListReadMixin, RecordReadMixin, result_etag
from scoring.kinds import kind_of
from scoring.models import ResultContainer
from scoring.results import sheet
from scoring.results.sheet import Action

WRITE_ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input: a missing or malformed field, an engine rule "
                                                      "violation (one error per violation, next to its field)."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
    403: OpenApiResponse(ErrorSerializer, description="The permission policy refuses the caller."),
    404: OpenApiResponse(ErrorSerializer, description="No such result or record, or a draft round the caller may not see."),
    409: OpenApiResponse(ErrorSerializer, description="`stale_version`: the result changed since the client read it; "
                                                      "`conflict`: not possible in the result's state."),
    413: OpenApiResponse(ErrorSerializer, description="The request body is over 64 KiB."),
    422: OpenApiResponse(ErrorSerializer, description="`idempotency_key_reused`: the `Idempotency-Key` was used "
                                                      "before for a different request."),
    503: OpenApiResponse(ErrorSerializer, description="`service_unavailable`: the database could not be reached; "
                                                      "nothing was stored. Retry after `Retry-After` seconds, "
                                                      "with the same `Idempotency-Key`."),
}


def write_schema(request, *, summary: str, description: str = "", created: bool = False, parameters=()):
    ok = {201: ResultSerializer} if created else {200: ResultSerializer}
    return extend_schema(request=request, responses={**ok, **WRITE_ERRORS}, tags=["results"], summary=summary,
                         description=description, parameters=list(parameters))


#: DELETE carries its fields as query parameters (a JSON body is read too).
DELETE_PARAMETERS = [
    OpenApiParameter("version", int, OpenApiParameter.QUERY, required=True,
                     description="The result's `version` the client read."),
    OpenApiParameter("reason", str, OpenApiParameter.QUERY, required=True, description="Why (kept in the audit trail)."),
]


class ResultWriteView(ApiView):
    """Base of the writes of one kind of result (``kind``: ``match`` or ``table``)."""

    kind = "match"

    def result(self, slug: str, pk: int, action: Action) -> ResultContainer:
        """The visible match or table, once the actor holds the permission ``action`` needs on it
        (:meth:`scoring.results.sheet.ResultSheet.require_permission`, ``PermissionDenied`` ->
        403): a member's role in the tournament, or a private link's own table."""
        container = visible_result(self.actor(), tournament_or_404(slug), self.kind, pk)
        sheet.load(container).require_permission(action, self.actor())
        return container

    def valid(self, serializer_class, data=None) -> dict:
        serializer = serializer_class(data=self.request.data if data is None else data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data

    def answer(self, container: ResultContainer, *, status_code: int = status.HTTP_200_OK, headers=None) -> Response:
        """The result as it is now (re-read: the sheet changed it in its own transaction)."""
        fresh = kind_of(container).queryset().get(pk=container.pk)
        t = fresh.round.tournament
        data = ResultSerializer(representation.result_detail(self.request, t, fresh)).data
        return Response(data, status=status_code, headers={"ETag": result_etag(fresh), **(headers or {})})


def _record_exists(container: ResultContainer, number: int) -> None:
    if kind_of(container).record(container, number) is None:
        raise Http404


class RecordsView(RecordListReadMixin, ResultWriteView):
    """``.../records``: the records (GET) and entering the next one (POST)."""

    @write_schema(RecordCreateSerializer, created=True, summary="Enter the next record (hand or deal)",
                  description="The record is checked by the game's engine; violations come back as 400 with one "
                              "error per violation, `field` pointing into `record` (`record.card_points.NS`). The "
                              "first record moves a published round to in progress. Refused on a finished, "
                              "confirmed or bye result, or in a draft or closed round (409).")
    def post(self, request, slug, pk):
        container = self.result(slug, pk, Action.ADD)
        data = self.valid(RecordCreateSerializer)
        rec = sheet.add_record(container, data["record"], self.actor(), expected_version=data["version"])
        location = request.build_absolute_uri(
            reverse(f"api:{self.kind}-record", args=[slug, container.pk, rec.number]))
        return self.answer(container, status_code=status.HTTP_201_CREATED, headers={"Location": location})


class RecordView(RecordReadMixin, ResultWriteView):
    """``.../records/{number}``: one record (GET), replacing it (PUT) or deleting it (DELETE)."""

    @write_schema(RecordEditSerializer, summary="Replace a record",
                  description="Later records, the totals and the carried state follow. Allowed on a finished "
                              "result, refused on a confirmed one (reopen it first). A reason is required.")
    def put(self, request, slug, pk, number):
        container = self.result(slug, pk, Action.CHANGE)
        data = self.valid(RecordEditSerializer)
        _record_exists(container, number)
        sheet.edit_record(container, number, data["record"], self.actor(), expected_version=data["version"],
                          reason=data["reason"])
        return self.answer(container)

    @write_schema(None, summary="Delete a record", parameters=DELETE_PARAMETERS,
                  description="Later records move up one number. `version` and `reason` as query parameters (or "
                              "in a JSON body).")
    def delete(self, request, slug, pk, number):
        container = self.result(slug, pk, Action.CHANGE)
        data = self.valid(ReasonSerializer, data=request.data or request.query_params)
        _record_exists(container, number)
        sheet.delete_record(container, number, self.actor(), expected_version=data["version"],
                            reason=data["reason"])
        return self.answer(container)


class EndView(ResultWriteView):
    @write_schema(ReasonSerializer, summary="End the result at the time limit",
                  description="Tai Pan: the higher total wins, equal totals are a draw; four-player: the totals "
                              "are the result. A reason is required; undone by `resume` until confirmed.")
    def post(self, request, slug, pk):
        container = self.result(slug, pk, Action.END)
        data = self.valid(ReasonSerializer)
        sheet.end_at_time(container, self.actor(), expected_version=data["version"], reason=data["reason"])
        return self.answer(container)


class ResumeView(ResultWriteView):
    @write_schema(ReasonSerializer, summary="Resume play after ending at the time limit")
    def post(self, request, slug, pk):
        container = self.result(slug, pk, Action.RESUME)
        data = self.valid(ReasonSerializer)
        sheet.resume_play(container, self.actor(), expected_version=data["version"], reason=data["reason"])
        return self.answer(container)


class ConfirmView(ResultWriteView):
    @write_schema(ConfirmSerializer, summary="Confirm a finished result as a second person",
                  description="Confirms exactly the version the client read. Refused for the person who entered, "
                              "changed, ended or resumed the result, for an unfinished result and outside an open "
                              "round. With blind confirmation the totals re-typed from the score sheet are "
                              "required and must match.")
    def post(self, request, slug, pk):
        container = self.result(slug, pk, Action.CONFIRM)
        data = self.valid(ConfirmSerializer)
        sheet.confirm(container, self.actor(), expected_version=data["version"], totals=data.get("totals"))
        return self.answer(container)


class ReopenView(ResultWriteView):
    @write_schema(ReasonSerializer, summary="Reopen a confirmed result",
                  description="Referees and organisers while the round is open; in a closed round only an "
                              "organiser, and the round goes back to in progress. A reason is required.")
    def post(self, request, slug, pk):
        container = self.result(slug, pk, Action.REOPEN)
        data = self.valid(ReasonSerializer)
        sheet.reopen(container, self.actor(), data["reason"], expected_version=data["version"])
        return self.answer(container)


class DisputeView(ResultWriteView):
    @write_schema(DisputeSerializer, summary="Dispute the totals of a finished result (private links)",
                  description="Through a private link only (`Authorization: Link <token>`): the side that is to "
                              "confirm reports its own final totals and a note instead of confirming; a referee sees "
                              "both versions and settles the result. Refused for users (403: referees and organisers "
                              "correct the result instead) and for the side that entered or changed the result (409).")
    def post(self, request, slug, pk):
        container = self.result(slug, pk, Action.DISPUTE)
        sheet.forbid_early(container, Action.DISPUTE, self.actor())  # referees and organisers correct it instead
        data = self.valid(DisputeSerializer)
        sheet.dispute(container, self.actor(), expected_version=data["version"], totals=data.get("totals"),
                      note=data.get("note", ""))
        return self.answer(container)


class AcknowledgeView(ResultWriteView):
    @write_schema(AcknowledgeSerializer, summary="Acknowledge a record (verification per hand)",
                  description="The other side of the table (through its link), or a referee or organiser on its "
                              "behalf, acknowledges one record in the `revision` it read; a record edited since is "
                              "409 `stale_version`. Refused for the side that entered the result, for an acknowledged "
                              "record and when the tournament verifies at the end of the match (409). The result's "
                              "`version` does not change (records and totals are the same).")
    def post(self, request, slug, pk, number):
        container = self.result(slug, pk, Action.ACKNOWLEDGE)
        _record_exists(container, number)
        data = self.valid(AcknowledgeSerializer)
        sheet.acknowledge(container, number, self.actor(), revision=data["revision"])
        return self.answer(container)


class DisagreeView(ResultWriteView):
    @write_schema(DisagreeSerializer, summary="Disagree with a record (verification per hand, private links)",
                  description="Through a private link only: the side that would acknowledge the record reports its own "
                              "scores of it and a note instead; a referee sees both versions, corrects the record if "
                              "needed and acknowledges it on the side's behalf. Refused for users (403: referees and "
                              "organisers correct the record instead).")
    def post(self, request, slug, pk, number):
        container = self.result(slug, pk, Action.DISAGREE)
        sheet.forbid_early(container, Action.DISAGREE, self.actor(), number=number)  # referees correct it instead
        _record_exists(container, number)
        data = self.valid(DisagreeSerializer)
        sheet.disagree(container, number, self.actor(), revision=data["revision"], scores=data.get("scores"),
                       note=data.get("note", ""))
        return self.answer(container)
