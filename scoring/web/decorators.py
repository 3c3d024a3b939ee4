"""View decorators that load the tournament (and round or result) and check the policy
(:mod:`scoring.policy`): views declare what they need instead of repeating the checks."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404
from django.template.loader import render_to_string
from django.utils.translation import gettext as _

from scoring import policy
from scoring.kinds import ResultKind, kind_for
from scoring.models import ResultContainer, Round, Tournament
from scoring.policy import Perm
from scoring.results import sheet
from scoring.results.sheet import Action
from scoring.web.links import TooManyRequests, actor_for, lost_link


def too_many_requests(request, exc: TooManyRequests) -> HttpResponse:
    """429 with ``Retry-After``: too many requests through one private link or from one address."""
    html = render_to_string("links/too_many.html", {"retry_after": exc.retry_after}, request=request)
    response = HttpResponse(html, status=429)
    response["Retry-After"] = str(exc.retry_after)
    return response


def tournament_view(perm: Perm | None = None, *, entrants: bool = False) -> Callable:
    """Decorator for views taking ``slug``: the view receives ``tournament`` instead, and
    ``request.actor`` is who acts there (:func:`scoring.web.links.actor_for`: a member, an entrant
    through its private link, or the user). With ``perm``, anonymous users go to the login page and
    logged-in users without the permission get 403 (:func:`scoring.policy.has_perm`).

    ``entrants=True`` lets an entrant (:class:`scoring.policy.EntrantActor`) through to the view,
    which must then check ``perm`` on the result it acts on (:func:`result_for`): an entrant holds
    its permissions per result, never for the whole tournament."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request, slug, *args, **kwargs):
            # With its live counters (scoring.models.LiveState) in the same query: a polled page's
            # state then needs no query of its own (scoring.web.conditional.tournament_counters).
            tournament = get_object_or_404(Tournament.objects.select_related("live"), slug=slug)
            try:
                request.actor = actor_for(request, tournament)
            except TooManyRequests as exc:
                return too_many_requests(request, exc)
            if perm is not None and not (entrants and policy.is_entrant(request.actor)):
                if not request.user.is_authenticated:
                    if entrants and lost_link(request):
                        raise PermissionDenied  # the 403 page says the phone's link stopped working
                    return redirect_to_login(request.get_full_path())
                if not policy.has_perm(request.user, perm, tournament):
                    raise PermissionDenied
            return view(request, *args, tournament=tournament, **kwargs)

        return wrapped

    return decorator


def actor_of(request):
    """The actor :func:`tournament_view` found for this request (the user outside such views)."""
    return getattr(request, "actor", request.user)


def visible_round(request, tournament: Tournament, number: int) -> Round:
    """Round ``number`` of ``tournament`` if the user may see it (drafts: organisers only), else
    404 (:func:`scoring.policy.round_visible`)."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)
    if not policy.round_visible(actor_of(request), rnd):
        raise Http404(_("This round is not published yet."))
    return rnd


def visible_result(request, tournament: Tournament, kind: ResultKind, pk: int) -> ResultContainer:
    """The match or table ``pk`` of ``tournament`` (``kind``: the URL's kind of result,
    :mod:`scoring.kinds`, which must be the tournament's own) if its round is visible to the
    user, else 404."""
    if kind is not kind_for(tournament.adapter):
        raise Http404
    container = get_object_or_404(kind.queryset(), pk=pk, round__tournament=tournament)
    if not policy.round_visible(actor_of(request), container.round):
        raise Http404(_("This round is not published yet."))
    return container


def result_for(request, tournament: Tournament, kind: ResultKind, pk: int, action: Action) -> ResultContainer:
    """The visible result (:func:`visible_result`) once the actor holds the permission ``action``
    needs on it (403 otherwise; :meth:`scoring.results.result.ResultSheet.require_permission`):
    for members their role in the tournament, for an entrant its own table."""
    container = visible_result(request, tournament, kind, pk)
    sheet.load(container).require_permission(action, actor_of(request))
    return container
