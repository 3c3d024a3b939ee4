"""The hall in the API (``docs/api.md``, docs/hall.md): the round clock and the announcements,
through the same services and policy as the pages (:mod:`scoring.hall.clock`,
:mod:`scoring.hall.announcements`):

- ``GET .../clock``: the current round's clock (the latest published or in-progress round);
  ``GET .../rounds/{number}/clock``: a round's clock. Public once the round is published; the
  answer holds the server's time (``server_time``, ``server_ms``), so a client can correct for its
  own clock's offset. ``Cache-Control: no-store`` (it changes every second).
- ``POST .../rounds/{number}/clock/{start|pause|resume|extend}`` with the ``version`` the client
  read (and ``minutes`` for ``extend``): organisers only; a stale version is 409
  ``stale_version``, an action the clock's state does not allow 409 ``conflict``.
- ``GET .../announcements``: the ones shown now; ``POST`` posts one (organisers);
  ``DELETE .../announcements/{id}`` withdraws it (organisers).
"""
from __future__ import annotations

from datetime import timedelta

from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.response import Response

from scoring.api.serializers import ErrorSerializer
from scoring.api.views.base import ApiView, tournament_or_404, visible_round
from scoring.api.views.members import OrganiserView
from scoring.hall import announcements, clock
from scoring.models import ANNOUNCEMENT_MAX_LENGTH, Announcement, Round, RoundClock

ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input (a field missing or malformed)."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
    403: OpenApiResponse(ErrorSerializer, description="Not an organiser of this tournament."),
    404: OpenApiResponse(ErrorSerializer, description="No such tournament, round or announcement."),
    409: OpenApiResponse(ErrorSerializer, description="`stale_version`: the clock changed since the client read it "
                                                      "(read it again); `conflict`: not possible in the clock's or "
                                                      "the round's state, or withdrawn already."),
}


class ClockSerializer(serializers.Serializer):
    round = serializers.IntegerField(help_text="The round's number.")
    status = serializers.ChoiceField(choices=RoundClock.Status.values,
                                     help_text="`idle` (not started), `running` or `paused`.")
    remaining = serializers.FloatField(help_text="Seconds left at `server_time` (never below 0).")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="When time is up (running only).")
    server_time = serializers.DateTimeField(help_text="The server's time of this answer: the truth.")
    server_ms = serializers.IntegerField(help_text="The same in milliseconds since 1970 (for a client's clock offset).")
    warning = serializers.FloatField(help_text="The warning shows this many seconds before the end.")
    warning_on = serializers.BooleanField()
    times_up = serializers.BooleanField()
    version = serializers.IntegerField(help_text="Send it back with an action.")


class ClockActionSerializer(serializers.Serializer):
    version = serializers.IntegerField(min_value=0, help_text="The clock's `version` the client read.")


class ExtendSerializer(ClockActionSerializer):
    minutes = serializers.IntegerField(min_value=-clock.MAX_EXTEND_MINUTES, max_value=clock.MAX_EXTEND_MINUTES,
                                       help_text="Minutes to add (negative: to take off; the clock stops at 0).")


class AnnouncementSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    text = serializers.CharField()
    ends_at = serializers.DateTimeField(allow_null=True)
    automatic = serializers.BooleanField(help_text="Posted by the app (pairings published, round started).")
    created_at = serializers.DateTimeField()


class PostAnnouncementSerializer(serializers.Serializer):
    text = serializers.CharField(max_length=ANNOUNCEMENT_MAX_LENGTH)
    ends_at = serializers.DateTimeField(required=False, allow_null=True, help_text="Shown until then (optional).")
    minutes = serializers.IntegerField(required=False, min_value=1, max_value=announcements.MAX_DAYS * 24 * 60,
                                       help_text="Or: shown this many minutes from now (not both).")

    def validate(self, attrs):
        """Refuses ``minutes`` together with an ``ends_at`` (400 on ``minutes``): one of them says
        how long it is shown."""
        if attrs.get("minutes") and attrs.get("ends_at"):
            raise serializers.ValidationError({"minutes": _("Give minutes or an end time, not both.")})
        return attrs


def _clock_answer(rnd: Round) -> Response:
    response = Response(ClockSerializer(clock.state(clock.clock_of(rnd))).data)
    response["Cache-Control"] = "no-store"
    return response


def _announcement(a: Announcement) -> dict:
    return {"id": a.pk, "text": a.text, "ends_at": a.ends_at, "automatic": a.automatic, "created_at": a.created_at}


class CurrentClockView(ApiView):
    @extend_schema(responses={200: ClockSerializer, 404: ERRORS[404]}, tags=["hall"],
                   summary="The current round's clock",
                   description="The clock of the latest published or in-progress round (404 when there is none).")
    def get(self, request, slug):
        rnd = clock.current_round(tournament_or_404(slug))
        if rnd is None:
            raise Http404
        return _clock_answer(Round.objects.select_related("tournament", "clock").get(pk=rnd.pk))


class RoundClockView(ApiView):
    @extend_schema(responses={200: ClockSerializer, 404: ERRORS[404]}, tags=["hall"], summary="A round's clock")
    def get(self, request, slug, number):
        rnd = visible_round(self.actor(), tournament_or_404(slug), number)
        if rnd.status == Round.Status.DRAFT:
            raise Http404
        return _clock_answer(rnd)


class ClockActionView(OrganiserView):
    """``action``: ``start``, ``pause``, ``resume`` or ``extend`` (from the URL)."""

    action = ""

    def post(self, request, slug, number):
        t = self.tournament(slug)
        rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=t, number=number)
        if self.action == "extend":
            data = self.valid(ExtendSerializer)
            clock.extend(rnd, self.actor(), minutes=data["minutes"], version=data["version"])
        else:
            data = self.valid(ClockActionSerializer)
            clock.ACTIONS[self.action](rnd, self.actor(), version=data["version"])
        rnd = Round.objects.select_related("tournament", "clock").get(pk=rnd.pk)
        return _clock_answer(rnd)


def _action_view(name: str, request_serializer, summary: str, description: str = ""):
    decorated = extend_schema(request=request_serializer, responses={200: ClockSerializer, **ERRORS}, tags=["hall"],
                              summary=summary, description=description)(ClockActionView.post)
    return type(f"Clock{name.title()}View", (ClockActionView,), {"action": name, "post": decorated})


ClockStartView = _action_view("start", ClockActionSerializer, "Start the round's clock (organisers)",
                              "From the tournament's round length; 409 when it was started already.")
ClockPauseView = _action_view("pause", ClockActionSerializer, "Pause the running clock (organisers)")
ClockResumeView = _action_view("resume", ClockActionSerializer, "Resume the paused clock (organisers)")
ClockExtendView = _action_view("extend", ExtendSerializer, "Add or take off minutes (organisers)",
                               "In any state; the clock never goes below 0 (taking off more than is left ends the "
                               "time now).")


class AnnouncementsView(OrganiserView):
    @extend_schema(responses={200: AnnouncementSerializer(many=True), 404: ERRORS[404]}, tags=["hall"],
                   summary="The announcements shown now", description="Public; newest first.")
    def get(self, request, slug):
        t = tournament_or_404(slug)
        return Response(AnnouncementSerializer([_announcement(a) for a in announcements.active(t)], many=True).data)

    @extend_schema(request=PostAnnouncementSerializer, responses={201: AnnouncementSerializer, **ERRORS},
                   tags=["hall"], summary="Post an announcement (organisers)",
                   description=f"At most {ANNOUNCEMENT_MAX_LENGTH} characters, shown on the projector, the private-link "
                               "pages and the referees' pages until `ends_at` (or `minutes` from now), or until it is "
                               "withdrawn.")
    def post(self, request, slug):
        t = self.tournament(slug)
        data = self.valid(PostAnnouncementSerializer)
        ends_at = data.get("ends_at")
        if data.get("minutes"):
            ends_at = timezone.now() + timedelta(minutes=data["minutes"])
        made = announcements.post(t, self.actor(), text=data["text"], ends_at=ends_at)
        return Response(AnnouncementSerializer(_announcement(made)).data, status=status.HTTP_201_CREATED)


class AnnouncementView(OrganiserView):
    @extend_schema(request=None, responses={204: None, **ERRORS}, tags=["hall"],
                   summary="Withdraw an announcement (organisers)")
    def delete(self, request, slug, pk):
        t = self.tournament(slug)
        announcements.withdraw(get_object_or_404(Announcement, pk=pk, tournament=t), self.actor())
        return Response(status=status.HTTP_204_NO_CONTENT)
