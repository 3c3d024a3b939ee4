"""The logged-in user's own account: the login page, which says what a login to a result's
entry page is for. (The user's API tokens: :mod:`scoring.web.views.api_tokens`.)
"""
from __future__ import annotations

from urllib.parse import urlsplit

from django.contrib.auth import views as auth_views
from django.shortcuts import render
from django.urls import Resolver404, resolve, reverse

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


def csrf_failure(request, reason: str = ""):
    """``CSRF_FAILURE_VIEW``: a form sent with a stale or missing CSRF token (the page was open
    while its phone logged in or out, opened a login link, or sat for a long time) gets the site's
    own page, in the request's language, saying that nothing was saved and how to send it again,
    with a link that reloads the page the form came from (403). ``reason`` (Django's, English) is
    not shown."""
    return render(request, "403_csrf.html", {"again_url": request.get_full_path()}, status=403)
