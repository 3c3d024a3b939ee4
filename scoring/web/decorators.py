"""View decorators that load the tournament (and round or result) and check the policy
(:mod:`scoring.policy`): views declare what they need instead of repeating the checks."""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils.translation import gettext as _

from scoring import policy
from scoring.models import ResultContainer, Round, Tournament
from scoring.policy import Perm
from scoring.results.storage import MATCHES, TABLES, Storage, storage_for

KINDS: dict[str, Storage] = {"match": MATCHES, "table": TABLES}


def tournament_view(perm: Perm | None = None) -> Callable:
    """Decorator for views taking ``slug``: the view receives ``tournament`` instead. With
    ``perm``, anonymous users go to the login page and logged-in users without the permission get
    403 (:func:`scoring.policy.has_perm`)."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament, slug=slug)
            if perm is not None:
                if not request.user.is_authenticated:
                    return redirect_to_login(request.get_full_path())
                if not policy.has_perm(request.user, perm, tournament):
                    raise PermissionDenied
            return view(request, *args, tournament=tournament, **kwargs)

        return wrapped

    return decorator


def visible_round(request, tournament: Tournament, number: int) -> Round:
    """Round ``number`` of ``tournament`` if the user may see it (drafts: organisers only), else
    404 (:func:`scoring.policy.round_visible`). A round already read for this request
    (``request.loaded_round``, by :func:`scoring.web.conditional.round_state`) is not read again."""
    rnd = getattr(request, "loaded_round", None)
    if rnd is None or rnd.tournament_id != tournament.pk or rnd.number != number:
        rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)
    if not policy.round_visible(request.user, rnd):
        raise Http404(_("This round is not published yet."))
    return rnd


def visible_result(request, tournament: Tournament, kind: str, pk: int) -> ResultContainer:
    """The match or table ``pk`` of ``tournament`` (``kind``: ``"match"`` or ``"table"``, the
    tournament's own kind) if its round is visible to the user, else 404."""
    storage = KINDS.get(kind)
    if storage is None or storage.container_model is not storage_for(tournament.adapter).container_model:
        raise Http404
    container = get_object_or_404(storage.queryset(), pk=pk, round__tournament=tournament)
    if not policy.round_visible(request.user, container.round):
        raise Http404(_("This round is not published yet."))
    return container
