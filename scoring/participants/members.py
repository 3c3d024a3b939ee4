"""The tournament's members: organisers and referees (per-tournament roles, docs/tournaments.md).

Every change locks the tournament row first and re-reads the memberships inside the lock (the
actor's own role too, never a cached one), so two organisers removing or demoting each other at
the same moment are serialised: a tournament always keeps at least one organiser.
"""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed
from scoring.locking import lock
from scoring.models import Membership, Tournament

ORGANISER = Membership.Role.ORGANISER


def require_organiser(actor, tournament: Tournament) -> None:
    """Inside the tournament's lock: the actor is an organiser now (read from the database), else
    ``PermissionDenied``."""
    if actor is policy.SYSTEM or getattr(actor, "is_superuser", False):
        return
    if not getattr(actor, "is_authenticated", False) or not Membership.objects.filter(
            tournament=tournament, user=actor, role=ORGANISER).exists():
        raise PermissionDenied


def set_role(tournament: Tournament, user, role: str, actor) -> tuple[Membership, bool]:
    """Give ``user`` the ``role`` in ``tournament`` (adding them, or changing their role).
    Returns ``(membership, created)``. The last organiser cannot become a referee
    (:class:`NotAllowed` on field ``role``)."""
    if role not in Membership.Role.values:
        raise NotAllowed(_("Unknown role."), field="role")
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        require_organiser(actor, locked)
        membership, created = set_role_locked(locked, user, role)
    policy.forget_roles(user)
    return membership, created


def set_role_locked(locked: Tournament, user, role: str) -> tuple[Membership, bool]:
    """The inside of :func:`set_role`, for a caller holding the tournament's lock (and having
    checked the actor): ``(membership, created)``; :class:`NotAllowed` for the last organiser."""
    if role not in Membership.Role.values:
        raise NotAllowed(_("Unknown role."), field="role")
    membership, created = Membership.objects.get_or_create(tournament=locked, user=user, defaults={"role": role})
    if not created and membership.role != role:
        if membership.role == ORGANISER and _organisers(locked) <= 1:
            raise NotAllowed(_("The last organiser cannot become a referee."), field="role")
        membership.role = role
        membership.save(update_fields=["role"])
    return membership, created


def create_member(tournament: Tournament, form, role: str, actor):
    """Create an account with Django's user creation ``form`` (valid) and give it ``role``."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        require_organiser(actor, locked)
        user = form.save()
        Membership.objects.create(tournament=locked, user=user, role=role)
    return user


def remove(tournament: Tournament, membership_id: int, actor) -> Membership:
    """Remove a membership. The last organiser cannot be removed (:class:`NotAllowed`)."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        require_organiser(actor, locked)
        membership = Membership.objects.select_related("user").filter(tournament=locked, pk=membership_id).first()
        if membership is None:
            raise NotAllowed(_("This member was removed already."))
        if membership.role == ORGANISER and _organisers(locked) <= 1:
            raise NotAllowed(_("The last organiser cannot be removed."))
        membership.delete()
    policy.forget_roles(membership.user)
    return membership


def _organisers(tournament: Tournament) -> int:
    return Membership.objects.filter(tournament=tournament, role=ORGANISER).count()


def find_user(username: str):
    """The user called ``username`` (case-insensitive), or ``None``."""
    return get_user_model().objects.filter(username__iexact=username.strip()).first()
