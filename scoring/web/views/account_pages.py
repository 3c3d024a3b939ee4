"""The logged-in user's own account page and the ways into an account (``docs/accounts.md``):

- ``/account/`` (:func:`account_home`): who you are, your tournaments and roles, your password
  (change it; or set one after a login link), the language, and the API tokens page.
- ``/account/set-password/`` (:func:`set_own_password`): your own password. Without the old one
  for an account that has none, or for an hour after logging in with a login link (the link proved
  who you are, as a reset mail would); otherwise with the old one. Django's
  ``/accounts/password_change/`` leads here and its ``done/`` page to the account page
  (``nskt.urls``): the "password changed" message is set by this view itself, so nobody sees it
  without a change.
- ``/invite/#<token>`` (:func:`open_invitation`): a one-time login link. The token is in the
  URL's fragment, which browsers never send to the server; ``static/js/invite.js`` posts it. A
  working link logs its holder in and leads to the account page. On a phone where someone is
  logged in already the page asks first (nobody switches accounts by scanning by mistake).
- :func:`locked_out`: django-axes' lockout answer (``AXES_LOCKOUT_CALLABLE``): the login page's
  layout with a translated message saying how long to wait, status 429 with ``Retry-After``.

Password reset is Django's own views (``django.contrib.auth.urls``) with this site's templates
(``templates/registration/``), only when mail is configured (``nskt.urls``).
"""
from __future__ import annotations

import math
import time

from django.conf import settings
from django.contrib import messages
from django.contrib.auth import login, update_session_auth_hash
from django.contrib.auth.decorators import login_required
from django.contrib.auth.forms import PasswordChangeForm, SetPasswordForm
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _t
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_safe

from scoring.participants import invitations, logins

#: Session key: until when (epoch seconds) this session may set a password without the old one.
INVITED_UNTIL = "nskt_invited_until"
#: Seconds after a login link's use during which the password may be set without the old one.
SET_PASSWORD_SECONDS = 3600


def may_set_without_old(request) -> bool:
    """True when the user may set a password without typing the old one: the account has no
    usable password, or this session opened a login link less than an hour ago."""
    return not request.user.has_usable_password() or request.session.get(INVITED_UNTIL, 0) > time.time()


@never_cache
@require_safe
@login_required
def account_home(request):
    """The account page."""
    memberships = request.user.memberships.select_related("tournament").order_by("-tournament__created_at")
    ctx = {"memberships": memberships, "set_without_old": may_set_without_old(request),
           "has_password": request.user.has_usable_password()}
    return render(request, "account/home.html", ctx)


@never_cache
@require_http_methods(["GET", "POST"])
@login_required
def set_own_password(request):
    """The user's own password: without the old one when :func:`may_set_without_old`, else
    Django's password change form (old password, new one twice). A change keeps this session,
    ends the others, and leads to the account page with a message saying so."""
    without_old = may_set_without_old(request)
    form_class = SetPasswordForm if without_old else PasswordChangeForm
    form = form_class(request.user, request.POST or None)
    if request.method == "POST" and form.is_valid():
        had_password = request.user.has_usable_password()
        form.save()
        update_session_auth_hash(request, form.user)
        request.session.pop(INVITED_UNTIL, None)
        if had_password:
            messages.success(request, _t("Your password was changed. Your other sessions (other phones or "
                                         "computers) are logged out."))
        else:
            messages.success(request, _t("Your password was saved: from now on you can also log in with it."))
        return redirect("scoring:account")
    template = "account/set_password.html" if without_old else "registration/password_change_form.html"
    return render(request, template, {"form": form}, status=400 if request.method == "POST" else 200)


@never_cache
@ensure_csrf_cookie
@require_http_methods(["GET", "POST"])
def open_invitation(request):
    """GET: the page whose script posts the token from the address's fragment (or where the code
    is typed). POST: a working link logs its holder in (once) and leads to the account page;
    anything else is refused with the same message (400)."""
    error = ""
    status = 200
    if request.method == "POST":
        invitation = invitations.accept(request.POST.get("code", ""))
        if invitation is not None:
            login(request, invitation.user, backend="django.contrib.auth.backends.ModelBackend")
            request.session[INVITED_UNTIL] = time.time() + SET_PASSWORD_SECONDS
            messages.success(request, _t("Welcome, %(user)s: you are logged in as %(role)s of %(tournament)s.") % {
                "user": invitation.user.get_username(), "role": invitation.get_role_display().lower(),
                "tournament": invitation.tournament.name})
            return redirect("scoring:account")
        error = _t("This login link does not work: it was used already, it expired, or the organiser made a new one. "
                   "Ask the organiser for a new one.")
        status = 400
    response = render(request, "account/invitation_open.html", {"error": error}, status=status)
    response["Cache-Control"] = "no-store"
    return response


def locked_out(request, original_response=None, credentials=None):
    """django-axes' answer to a login while the account is throttled (``AXES_LOCKOUT_CALLABLE``):
    the site's page saying how long to wait (429, ``Retry-After`` in seconds)."""
    wait = logins.seconds_left(request, credentials)
    ctx = {"minutes": max(1, math.ceil(wait / 60)), "mail_configured": getattr(settings, "MAIL_CONFIGURED", False)}
    response = render(request, "registration/locked_out.html", ctx, status=429)
    response["Retry-After"] = str(max(1, math.ceil(wait)))
    return response
