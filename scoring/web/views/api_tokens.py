"""The logged-in user's own API tokens for the REST API (issue 22 item 4; ``docs/api.md``):
``/account/api-token/`` lists them (name, prefix, created, expires, last used), issues a new one
and revokes one or all.

Any logged-in user manages their own tokens and nobody else's: a token acts with exactly the
user's roles (:mod:`scoring.policy`), so it grants nothing the pages do not. A new token is shown
once, in the answer to the POST that issued it (never stored: not in the session, a message or
the database, which keeps a hash), with ``Cache-Control: no-store``; the list shows only each
token's non-secret prefix.
"""
from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import HttpResponseBadRequest
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import add_never_cache_headers
from django.utils.translation import gettext as _t
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods

from scoring.participants import api_tokens
from scoring.web.forms.api_tokens import NewTokenForm


@login_required
@require_http_methods(["GET", "POST"])
def api_token(request):
    """GET: the user's tokens and the form for a new one. POST ``action=new`` (``name``,
    ``days``): a new token, shown once in this answer (or the form with its errors);
    ``action=revoke`` (``prefix``): that token of the user's is deleted; ``action=revoke_all``:
    every token of the user's. Anything else: 400."""
    form = NewTokenForm()
    issued = None
    if request.method == "POST":
        action = request.POST.get("action")
        if action == "new":
            form = NewTokenForm(request.POST)
            if form.is_valid():
                try:
                    issued = api_tokens.issue(request.user, form.cleaned_data["name"], form.cleaned_data["days"])
                except api_tokens.TooManyTokens as exc:
                    form.add_error(None, _t("You already have %(n)d tokens that have not expired: revoke one first.")
                                   % {"n": exc.limit})
                else:
                    form = NewTokenForm()
        elif action == "revoke":
            if api_tokens.revoke(request.user, request.POST.get("prefix", "")):
                messages.success(request, _t("The token was revoked: programs using it are refused from now on."))
            return redirect("scoring:api_token")
        elif action == "revoke_all":
            count = api_tokens.revoke_all(request.user)
            if count:
                messages.success(request, ngettext(
                    "%(n)d token was revoked: programs using it are refused from now on.",
                    "%(n)d tokens were revoked: programs using them are refused from now on.", count) % {"n": count})
            return redirect("scoring:api_token")
        else:
            return HttpResponseBadRequest()
    now = timezone.now()
    tokens = [(t, t.is_expired(now)) for t in api_tokens.tokens_of(request.user)]
    context = {"form": form, "issued": issued, "tokens": tokens, "limit": api_tokens.LIMIT,
               "docs_url": reverse("api:docs")}
    response = render(request, "account/api_token.html", context)
    add_never_cache_headers(response)
    return response
