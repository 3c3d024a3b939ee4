"""The logged-in user's own account: their API token for the REST API (``docs/api.md``), and
the login page, which says what a login to a result's entry page is for.

Any logged-in user may create, replace or revoke their own token (and nobody else's): a token
acts with exactly the user's roles (:mod:`scoring.policy`), so it grants nothing the pages do not.
A new key is shown once, in the answer to the POST that made it (never stored in the session or
a message), with ``Cache-Control: no-store``.
"""
from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib import messages
from django.contrib.auth import views as auth_views
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import Resolver404, resolve, reverse
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_http_methods

from scoring.participants import api_tokens


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request):
    """GET: whether the user has a token (since when) and the buttons. POST ``action=new``:
    a new token (replacing the old one), shown once; ``action=revoke``: no token any more."""
    new_key = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "new":
            new_key = api_tokens.issue(request.user).key
        elif action == "revoke":
            if api_tokens.revoke(request.user):
                messages.success(request, _t("Your API token was revoked: programs using it are refused from now on."))
            return redirect("scoring:api_token")
        else:
            return HttpResponseBadRequest()
    context = {"token": api_tokens.token_of(request.user), "new_key": new_key, "docs_url": reverse("api:docs")}
    response = render(request, "account/api_token.html", context)
    add_never_cache_headers(response)
    return response


#: Entry pages (the score sheet's QR code) -> the public result page of the same result.
ENTRY_TO_DETAIL = {"scoring:match_enter": "scoring:match_detail", "scoring:table_enter": "scoring:table_detail"}


def public_page_for(next_url: str) -> str:
    """The public result page of the entry page ``next_url`` leads to after the login, or ``""``
    when ``next_url`` is no entry page."""
    try:
        match = resolve(urlsplit(next_url or "").path)
    except Resolver404:
        return ""
    detail = ENTRY_TO_DETAIL.get(match.view_name)
    return reverse(detail, kwargs={k: v for k, v in match.kwargs.items() if k in ("slug", "pk")}) if detail else ""


class LoginView(auth_views.LoginView):
    """Django's login page; when it leads on to a result's entry page (the referee scanned the
    score sheet's QR code) it says so and offers the public result page to whoever only wants to
    look (``public_url``)."""

    def get_context_data(self, **kwargs):
        """The login page's context plus ``public_url`` (see the class)."""
        ctx = super().get_context_data(**kwargs)
        ctx["public_url"] = public_page_for(ctx.get(self.redirect_field_name, ""))
        return ctx
