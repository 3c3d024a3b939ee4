"""The members page of a tournament (organisers only, ``docs/accounts.md``): its organisers and
referees, adding a user by username, creating an account with a first password, inviting someone
with a one-time login link (shown once as address, code and QR code, to be scanned from the
organiser's screen or printed), a new link for a member, revoking a link, and setting a member's
password. The same actions are in the REST API (:mod:`scoring.api.views.members`) through the
same services (:mod:`scoring.participants.members`, :mod:`scoring.participants.invitations`)."""
from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _t
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.errors import ServiceError
from scoring.models import Invitation, Membership
from scoring.params import whole_number
from scoring.participants import invitations
from scoring.participants import members as members_service
from scoring.policy import Perm
from scoring.web.context import tournament_context
from scoring.web.decorators import tournament_view
from scoring.web.forms.members import InviteForm, MemberPasswordForm, MembershipForm, NewMemberForm


def _page(request, tournament, *, status: int = 200, **forms):
    """The members page with its forms (``forms`` replace the empty ones). Each membership gets
    ``refusal``: why this organiser may not give it a login link or a password, or ``None``
    (:func:`scoring.participants.invitations.refusals`)."""
    request.session.pop(NEW_LINK, None)  # a link made but never shown is not kept
    refusals = invitations.refusals(request.user, tournament)
    memberships = list(tournament.memberships.select_related("user").order_by("role", "user__username"))
    for m in memberships:
        m.refusal = refusals.get(m.user_id)
    ctx = {
        "form": MembershipForm(),
        "new_form": NewMemberForm(prefix="new"),
        "invite_form": InviteForm(prefix="invite"),
        **forms,
        "memberships": memberships,
        "invitations": invitations.pending(tournament),
    }
    return render(request, "participants/members.html", tournament_context(request, tournament, **ctx), status=status)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
def members(request, *, tournament):
    """The tournament's organisers and referees; add a user by username, create an account for a
    new referee or organiser, change or remove a role (the last organiser cannot be removed)."""
    post = request.method == "POST"
    form = MembershipForm(request.POST if post and "username" in request.POST else None)
    new_form = NewMemberForm(request.POST if post and "new-username" in request.POST else None, prefix="new")
    if post and "new-username" in request.POST:
        if new_form.is_valid():
            role = new_form.cleaned_data["role"]
            user = members_service.create_member(tournament, new_form, role, request.user)
            messages.success(request, _t("Account %(user)s created as %(role)s of this tournament.") % {
                "user": user.get_username(), "role": Membership.Role(role).label})
            return redirect("scoring:members", tournament.slug)
    elif post and request.POST.get("remove"):
        try:
            membership = members_service.remove(tournament, whole_number(request.POST["remove"]) or 0, request.user)
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _t("%(user)s removed.") % {"user": membership.user.get_username()})
        return redirect("scoring:members", tournament.slug)
    elif post and form.is_valid():
        try:
            membership, _created = members_service.set_role(tournament, form.user, form.cleaned_data["role"], request.user)
        except ServiceError as exc:
            form.add_error("role", str(exc))
        else:
            messages.success(request, _t("%(user)s is now %(role)s.") % {
                "user": form.user.get_username(), "role": membership.get_role_display()})
            return redirect("scoring:members", tournament.slug)
    return _page(request, tournament, status=400 if post else 200, form=form, new_form=new_form)


#: Session key: ``{"id": invitation id, "token": token}`` of the link just made, kept only from
#: the POST that made it until the GET of :func:`member_invitation` that shows it once.
NEW_LINK = "nskt_new_login_link"


def _made(request, tournament, invitation, token: str):
    """After a POST that made a link (Post/Redirect/Get): the token goes into the session and the
    browser to :func:`member_invitation`, so reloading the shown page never makes a new link.

    Why the session: the page must draw the QR code, which needs the token on the server, and a
    token in the redirect's address would reach access logs (a fragment would not, but then the
    server cannot draw the code). The session row holds it only until the redirect is followed,
    normally well under a second (a redirect not followed is dropped at the next members page); it is never logged and never written to any other table (the invitation keeps its
    hash only)."""
    request.session[NEW_LINK] = {"id": invitation.pk, "token": token}
    return redirect("scoring:member_invitation", tournament.slug, invitation.pk)


@never_cache
@require_safe
@tournament_view(Perm.MANAGE)
def member_invitation(request, pk, *, tournament):
    """The login link ``pk`` just made, shown once (address, code and QR code; ``no-store``). The
    token is taken out of the session as it is shown: a reload, or the page opened later, says
    the link was shown already and offers a new one (a button, never silently)."""
    invitation = get_object_or_404(Invitation.objects.select_related("user"), tournament=tournament, pk=pk)
    new = request.session.pop(NEW_LINK, None)
    token = new["token"] if new and new.get("id") == invitation.pk and invitation.is_pending() else ""
    ctx = {"invitation": invitation}
    if token:
        url = request.build_absolute_uri(invitations.path_of(token))
        svg = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2)
        ctx.update(url=url, svg=svg.to_string(encoding="unicode"), code=invitations.grouped(token))
    else:
        ctx["membership"] = Membership.objects.filter(tournament=tournament, user_id=invitation.user_id).first()
    response = render(request, "participants/invitation.html", tournament_context(request, tournament, **ctx))
    response["Cache-Control"] = "no-store"
    return response


@never_cache
@require_POST
@tournament_view(Perm.MANAGE)
def member_invite(request, *, tournament):
    """Invite someone (a new username, or a member) with a one-time login link; shown by
    :func:`member_invitation` after a redirect."""
    form = InviteForm(request.POST, prefix="invite")
    if form.is_valid():
        data = form.cleaned_data
        try:
            invitation, token = invitations.invite(tournament, request.user, role=data["role"], username=data["username"],
                                                   email=data["email"], hours=data["hours"])
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            return _made(request, tournament, invitation, token)
    return _page(request, tournament, status=400, invite_form=form)


@never_cache
@require_POST
@tournament_view(Perm.MANAGE)
def member_link(request, pk, *, tournament):
    """A new login link for member ``pk`` (a membership of this tournament), with their role; the
    old link stops working."""
    membership = get_object_or_404(Membership.objects.select_related("user"), tournament=tournament, pk=pk)
    try:
        invitation, token = invitations.invite(tournament, request.user, role=membership.role, user=membership.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("scoring:members", tournament.slug)
    return _made(request, tournament, invitation, token)


@require_POST
@tournament_view(Perm.MANAGE)
def invitation_revoke(request, pk, *, tournament):
    """Revoke a login link that was not used yet."""
    try:
        invitation = invitations.revoke(tournament, pk, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _t("The login link of %(user)s no longer works.") % {"user": invitation.user.get_username()})
    return redirect("scoring:members", tournament.slug)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
def member_password(request, pk, *, tournament):
    """Set the password of member ``pk`` (a membership of this tournament)."""
    membership = get_object_or_404(Membership.objects.select_related("user"), tournament=tournament, pk=pk)
    refusal = invitations.refusals(request.user, tournament).get(membership.user_id)
    if refusal is not None:  # said at once, before anyone types a password (the service checks again)
        ctx = tournament_context(request, tournament, form=None, membership=membership, refusal=refusal)
        return render(request, "participants/member_password.html", ctx, status=409 if request.method == "POST" else 200)
    form = MemberPasswordForm(membership.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            invitations.set_password(tournament, membership.user_id, form.cleaned_data["new_password1"], request.user)
        except ServiceError as exc:
            form.add_error(None, str(exc))
        except ValidationError as exc:
            form.add_error("new_password2", exc)
        else:
            messages.success(request, _t("The password of %(user)s was set. Tell them in person.") % {
                "user": membership.user.get_username()})
            return redirect("scoring:members", tournament.slug)
    ctx = tournament_context(request, tournament, form=form, membership=membership)
    return render(request, "participants/member_password.html", ctx, status=400 if request.method == "POST" else 200)
