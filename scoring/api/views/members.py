"""Organiser actions on a tournament's members (``docs/api.md``, ``docs/accounts.md``), the same
as on the members page and through the same services and policy
(:mod:`scoring.participants.invitations`):

- ``GET .../members``: the organisers and referees, with the login links not used yet;
- ``POST .../invitations``: invite someone (a new username gets an account without a password,
  or one of the tournament's own members) and get a one-time login link, returned once;
- ``DELETE .../invitations/{id}``: revoke a link that was not used;
- ``POST .../members/{id}/password``: set a member's password.

Organisers only (403 for everyone else, 401 without credentials); the services check the role
again inside the tournament's lock. A token or link is never stored, only its hash.
"""
from __future__ import annotations

from django.core.exceptions import PermissionDenied, ValidationError
from django.shortcuts import get_object_or_404
from drf_spectacular.utils import OpenApiResponse, extend_schema
from rest_framework import exceptions, serializers, status
from rest_framework.response import Response

from scoring import policy
from scoring.api.serializers import ErrorSerializer
from scoring.api.views.base import ApiView, tournament_or_404
from scoring.models import Membership, Tournament
from scoring.participants import invitations
from scoring.policy import Perm

ROLES = [Membership.Role.REFEREE.value, Membership.Role.HEAD_REFEREE.value, Membership.Role.ORGANISER.value]
ERRORS = {
    400: OpenApiResponse(ErrorSerializer, description="Invalid input (a field is missing or malformed, a password "
                                                      "too weak)."),
    401: OpenApiResponse(ErrorSerializer, description="No credentials, or an unknown token."),
    403: OpenApiResponse(ErrorSerializer, description="Not an organiser of this tournament."),
    404: OpenApiResponse(ErrorSerializer, description="No such tournament, member or login link."),
    409: OpenApiResponse(ErrorSerializer, description="`conflict`: an account this organiser may not handle (staff, "
                                                      "one's own password, a member of a tournament the organiser "
                                                      "does not run), the last organiser made referee, a link used "
                                                      "or revoked already."),
}


class InvitationSummarySerializer(serializers.Serializer):
    id = serializers.IntegerField()
    role = serializers.ChoiceField(choices=ROLES)
    expires_at = serializers.DateTimeField()


class MemberSerializer(serializers.Serializer):
    id = serializers.IntegerField(help_text="The membership's id (for `members/{id}/password`).")
    username = serializers.CharField()
    email = serializers.CharField(allow_blank=True)
    role = serializers.ChoiceField(choices=ROLES)
    has_password = serializers.BooleanField(help_text="False for an account made by an invitation and never given a "
                                                      "password.")
    invitations = InvitationSummarySerializer(many=True, help_text="Login links not used yet.")


class InviteSerializer(serializers.Serializer):
    username = serializers.CharField(max_length=150, help_text="A new username (an account without a password is "
                                                              "made) or one of the tournament's members.")
    role = serializers.ChoiceField(choices=ROLES, default=Membership.Role.REFEREE.value)
    email = serializers.EmailField(required=False, allow_blank=True)
    hours = serializers.IntegerField(required=False, min_value=1, max_value=invitations.MAX_HOURS,
                                     help_text="How long the link works (default 24).")


class InvitationSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    username = serializers.CharField()
    role = serializers.ChoiceField(choices=ROLES)
    expires_at = serializers.DateTimeField()
    token = serializers.CharField(allow_null=True, help_text="Shown only in this answer; the server keeps its hash only "
                                                             "(null in a replay through Idempotency-Key).")
    url = serializers.CharField(allow_null=True, help_text="The login link (the token in the fragment); it works once "
                                                           "(null in a replay through Idempotency-Key).")


class PasswordSerializer(serializers.Serializer):
    password = serializers.CharField(max_length=128, trim_whitespace=False)


class OrganiserView(ApiView):
    """Base: the tournament, once the actor is one of its organisers (401 / 403)."""

    def tournament(self, slug: str) -> Tournament:
        t = tournament_or_404(slug)
        actor = self.actor()
        if not getattr(actor, "is_authenticated", False) and not policy.is_entrant(actor):
            raise exceptions.NotAuthenticated()
        if not policy.has_perm(actor, Perm.MANAGE, t):
            raise PermissionDenied
        return t

    def valid(self, serializer_class) -> dict:
        serializer = serializer_class(data=self.request.data)
        serializer.is_valid(raise_exception=True)
        return serializer.validated_data


class MembersView(OrganiserView):
    @extend_schema(responses={200: MemberSerializer(many=True), **ERRORS}, tags=["members"],
                   summary="The organisers and referees (organisers only)")
    def get(self, request, slug):
        t = self.tournament(slug)
        pending: dict[int, list] = {}
        for inv in invitations.pending(t):
            pending.setdefault(inv.user_id, []).append({"id": inv.pk, "role": inv.role, "expires_at": inv.expires_at})
        rows = [{"id": m.pk, "username": m.user.get_username(), "email": m.user.email, "role": m.role,
                 "has_password": m.user.has_usable_password(), "invitations": pending.get(m.user_id, [])}
                for m in t.memberships.select_related("user").order_by("role", "user__username")]
        return Response(MemberSerializer(rows, many=True).data)


class InvitationsView(OrganiserView):
    @extend_schema(request=InviteSerializer, responses={201: InvitationSerializer, **ERRORS}, tags=["members"],
                   summary="Invite a referee or organiser with a one-time login link",
                   description="Gives the person the role (a new username gets an account without a password) and "
                               "returns a login link that works once, until `expires_at`. The token is in this "
                               "answer only: a replay of it (`Idempotency-Key`) has `token` and `url` null, "
                               "as secrets are never stored. A new link for the same person revokes the old one.")
    def post(self, request, slug):
        t = self.tournament(slug)
        data = self.valid(InviteSerializer)
        invitation, token = invitations.invite(t, self.actor(), role=data["role"], username=data["username"],
                                               email=data.get("email", ""), hours=data.get("hours"))
        body = {"id": invitation.pk, "username": invitation.user.get_username(), "role": invitation.role,
                "expires_at": invitation.expires_at, "token": token,
                "url": request.build_absolute_uri(invitations.path_of(token))}
        response = Response(InvitationSerializer(body).data, status=status.HTTP_201_CREATED)
        response["Cache-Control"] = "no-store"
        # Never kept with an Idempotency-Key: a replay answers null here (scoring.api.idempotency).
        response.secret_fields = ("token", "url")
        return response


class InvitationView(OrganiserView):
    @extend_schema(request=None, responses={204: None, **ERRORS}, tags=["members"],
                   summary="Revoke a login link that was not used")
    def delete(self, request, slug, pk):
        t = self.tournament(slug)
        invitations.revoke(t, pk, self.actor())
        return Response(status=status.HTTP_204_NO_CONTENT)


class MemberPasswordView(OrganiserView):
    @extend_schema(request=PasswordSerializer, responses={204: None, **ERRORS}, tags=["members"],
                   summary="Set a member's password",
                   description="Django's password rules apply (400 with their messages). The member's other "
                               "sessions end. Not for one's own password, staff accounts or members of a "
                               "tournament the caller does not organise (409).")
    def post(self, request, slug, pk):
        t = self.tournament(slug)
        data = self.valid(PasswordSerializer)
        membership = get_object_or_404(Membership, tournament=t, pk=pk)
        try:
            invitations.set_password(t, membership.user_id, data["password"], self.actor())
        except ValidationError as exc:
            raise exceptions.ValidationError({"password": list(exc.messages)}) from None
        return Response(status=status.HTTP_204_NO_CONTENT)



