"""Who may see and do what: the one policy module (docs/tournaments.md "Roles").

Roles are per tournament (:class:`~scoring.models.Membership`): an **organiser** may do
everything in their tournament; a **referee** enters, confirms and reopens results; everyone else
(the public) reads published pages. Superusers count as organisers everywhere (the admin).

Decisions (the same for Tai Pan matches and four-player tables; ``docs/results.md``):

- A draft round (its pairing, its match and table pages, score sheets and round pack) is visible
  to the tournament's organisers only.
- Entering, editing, deleting and restoring records, ending a result at the time limit and
  resuming it: referees and organisers.
- Confirming: referees and organisers, never someone who entered or changed the result.
- Reopening a confirmed result: referees and organisers while its round is open; once the round
  is closed only an organiser, and the round goes back to in progress.
- Everything else (settings, members, entrants, drawing, publishing and closing rounds):
  organisers.
- The audit trail (who changed what) is shown to members only.

Views declare what they need (:func:`scoring.web.decorators.tournament_view`); the services check
the same permissions again with :func:`require` before every write.
"""
from __future__ import annotations

from enum import StrEnum

from django.core.exceptions import PermissionDenied

from scoring.models import Membership, Round, Tournament

ORGANISER = Membership.Role.ORGANISER
REFEREE = Membership.Role.REFEREE


class _System:
    """The actor of management commands, imports and the demo loader: trusted, holds every
    permission, recorded as no user in the audit trail. Views never use it."""

    is_authenticated = False
    is_superuser = False
    pk = None

    def __repr__(self) -> str:
        return "SYSTEM"


#: The actor of commands and imports (:class:`_System`).
SYSTEM = _System()


class Perm(StrEnum):
    """Permissions within one tournament."""

    #: See draft rounds (pairings, seatings, their pages and sheets).
    VIEW_DRAFTS = "view_drafts"
    #: Enter, edit, delete and restore records; end a result at the time limit or resume it.
    ENTER_RESULTS = "enter_results"
    #: Confirm a finished result as a second person.
    CONFIRM_RESULTS = "confirm_results"
    #: Reopen a confirmed result while its round is open.
    REOPEN_RESULTS = "reopen_results"
    #: Reopen a confirmed result of a closed round (the round goes back to in progress).
    REOPEN_CLOSED_ROUND = "reopen_closed_round"
    #: See who changed what (the audit trail) and the referee's tools.
    VIEW_AUDIT = "view_audit"
    #: Settings, members, entrants, drawing, publishing and closing rounds.
    MANAGE = "manage"


ROLE_PERMS: dict[str, frozenset[Perm]] = {
    ORGANISER: frozenset(Perm),
    REFEREE: frozenset({Perm.ENTER_RESULTS, Perm.CONFIRM_RESULTS, Perm.REOPEN_RESULTS, Perm.VIEW_AUDIT}),
}


def role_of(user, tournament: Tournament) -> str | None:
    """The user's role in ``tournament`` (``"organiser"``, ``"referee"``) or ``None``. The user's
    roles are read once per request (cached on the user object)."""
    if user is SYSTEM:
        return ORGANISER
    if not getattr(user, "is_authenticated", False):
        return None
    if user.is_superuser:
        return ORGANISER
    cache = getattr(user, "_nskt_roles", None)
    if cache is None:
        cache = dict(Membership.objects.filter(user=user).values_list("tournament_id", "role"))
        user._nskt_roles = cache
    return cache.get(tournament.pk)


def forget_roles(user) -> None:
    """Drop the roles cached on ``user`` (after a membership change in the same request)."""
    if hasattr(user, "_nskt_roles"):
        del user._nskt_roles


def has_perm(user, perm: Perm, tournament: Tournament) -> bool:
    """True if ``user`` holds ``perm`` in ``tournament``."""
    role = role_of(user, tournament)
    return role is not None and perm in ROLE_PERMS.get(role, frozenset())


def require(user, perm: Perm, tournament: Tournament) -> None:
    """Raise ``PermissionDenied`` unless ``user`` holds ``perm`` in ``tournament``."""
    if not has_perm(user, perm, tournament):
        raise PermissionDenied


def can_organise(user, tournament: Tournament) -> bool:
    """True for the tournament's organisers."""
    return has_perm(user, Perm.MANAGE, tournament)


def can_referee(user, tournament: Tournament) -> bool:
    """True for the tournament's referees and organisers (they may enter results)."""
    return has_perm(user, Perm.ENTER_RESULTS, tournament)


def round_visible(user, rnd: Round) -> bool:
    """A draft round is visible to organisers only; every other round to everyone."""
    return rnd.status != Round.Status.DRAFT or has_perm(user, Perm.VIEW_DRAFTS, rnd.tournament)


def reopen_perm(rnd: Round) -> Perm:
    """The permission needed to reopen a confirmed result of ``rnd``."""
    return Perm.REOPEN_CLOSED_ROUND if rnd.status == Round.Status.CLOSED else Perm.REOPEN_RESULTS


def perms_of(user, tournament: Tournament) -> frozenset[Perm]:
    """Every permission ``user`` holds in ``tournament`` (for templates: ``perms.manage``)."""
    role = role_of(user, tournament)
    return ROLE_PERMS.get(role, frozenset()) if role else frozenset()
