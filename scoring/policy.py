"""Per-tournament roles (DESIGN.md 3): organiser (everything in their tournament), referee (enter
and confirm results), public (read-only). Superusers count as organisers everywhere (admin).

Views use :func:`require_role`; templates use ``can_organise``/``can_referee`` from the view
context.
"""
from __future__ import annotations

from collections.abc import Callable
from functools import wraps

from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404

from scoring.models import Membership, Tournament

ORGANISER = Membership.Role.ORGANISER
REFEREE = Membership.Role.REFEREE


def role_of(user, tournament: Tournament) -> str | None:
    """The user's role in ``tournament`` (``"organiser"``, ``"referee"``) or ``None``."""
    if not getattr(user, "is_authenticated", False):
        return None
    if user.is_superuser:
        return ORGANISER
    cache = getattr(user, "_nskt_roles", None)
    if cache is None:
        cache = dict(Membership.objects.filter(user=user).values_list("tournament_id", "role"))
        user._nskt_roles = cache
    return cache.get(tournament.pk)


def can_organise(user, tournament: Tournament) -> bool:
    """True if the user is an organiser of ``tournament``."""
    return role_of(user, tournament) == ORGANISER


def can_referee(user, tournament: Tournament) -> bool:
    """True if the user may enter and confirm results in ``tournament`` (referee or organiser)."""
    return role_of(user, tournament) in (ORGANISER, REFEREE)


def require_role(role: str) -> Callable:
    """View decorator for views taking ``slug`` (the tournament's): anonymous users are sent to
    the login page, logged-in users without ``role`` (``"organiser"`` or ``"referee"``; an
    organiser passes a referee check) get 403. The view receives ``tournament`` as a keyword."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request, slug, *args, **kwargs):
            tournament = get_object_or_404(Tournament, slug=slug)
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path())
            allowed = can_organise(request.user, tournament) if role == ORGANISER else can_referee(request.user, tournament)
            if not allowed:
                raise PermissionDenied
            return view(request, *args, tournament=tournament, **kwargs)

        return wrapped

    return decorator
