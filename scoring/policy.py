"""Who may see and do what: the one policy module (docs/tournaments.md "Roles").

Roles are per tournament (:class:`~scoring.models.Membership`): an **organiser** may do
everything in their tournament; a **referee** enters, confirms and reopens results; a **head
referee** is a referee who also sees the progress board of a round (:data:`Perm.VIEW_BOARD`,
docs/hall.md); everyone else (the public) reads published pages. Superusers count as organisers
everywhere (the admin).

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

**Entrants through their private links** (issue 15, ``docs/private-links.md``) are actors too
(:class:`EntrantActor`, never a Django user), with the role :data:`ENTRANT`: entering and
confirming results, but only *per result* (``has_perm(actor, perm, tournament, result=...)``,
:func:`require_for_result`): a result of their own table, in a round that is not a draft, of a
tournament whose organiser turned player entry on. At the level of a whole tournament they hold
nothing (``has_perm`` without a result is False), so every check written for members refuses
them. Which side enters and which confirms is the result sheet's rule
(:mod:`scoring.results.sheet`).

Views declare what they need (:func:`scoring.web.decorators.tournament_view`); the services check
the same permissions again with :func:`require` (or :func:`require_for_result`) before every
write.
"""
from __future__ import annotations

from enum import StrEnum

from django.core.exceptions import PermissionDenied

from scoring.kinds import kind_of
from scoring.models import EntrantLink, Membership, ResultContainer, Round, Tournament

ORGANISER = Membership.Role.ORGANISER
REFEREE = Membership.Role.REFEREE
HEAD_REFEREE = Membership.Role.HEAD_REFEREE
#: The role of an entrant acting through its private link (:class:`EntrantActor`).
ENTRANT = "entrant"


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


class EntrantActor:
    """A Tai Pan team or a four-player player acting through its private link (issue 15): built
    per request from a link that was just checked to be active (:mod:`scoring.web.links`,
    :mod:`scoring.api.auth`). Not a Django user: ``is_authenticated`` is False, so it is never
    written into a user foreign key (records' ``entered_by``, confirmations, the audit's
    ``user``); the audit and confirmations name it through ``via_link``/``via_entrant``
    (:func:`via`)."""

    is_authenticated = False
    is_anonymous = False
    is_superuser = False
    is_active = True
    is_entrant = True

    def __init__(self, link: EntrantLink):
        self.link = link
        self.link_id = link.pk
        self.tournament_id = link.tournament_id
        self.team_id = link.team_id
        self.player_id = link.player_id
        self.name = str(link.entrant)

    #: Not a user id: no user's roles, tokens or rate-limit counters are ever confused with it.
    pk = None

    def __repr__(self) -> str:
        return f"EntrantActor(link={self.link_id}, {self.name!r})"

    def __str__(self) -> str:
        return self.name


def is_entrant(actor) -> bool:
    """True for an entrant acting through its private link."""
    return isinstance(actor, EntrantActor)


def actor_key(actor) -> str | None:
    """Who ``actor`` is, as a short text that a request can be compared with: ``"user:<id>"`` for
    a user, ``"link:<id>"`` for a private link (:class:`EntrantActor`), ``None`` for nobody. Used
    for the API's idempotency keys and for the phone's outbox (a hand waits for whoever entered it)."""
    if is_entrant(actor):
        return f"link:{actor.link_id}"
    if getattr(actor, "is_authenticated", False):
        return f"user:{actor.pk}"
    return None


def actor_name(actor) -> str:
    """The name shown for ``actor`` on its own phone: a user's full name (else the username), an
    entrant's name; ``""`` for nobody."""
    if is_entrant(actor):
        return actor.name
    if getattr(actor, "is_authenticated", False):
        return actor.get_full_name() or actor.get_username()
    return ""


def user_of(actor):
    """The Django user to record for ``actor`` in a user foreign key, or ``None`` (anonymous,
    :data:`SYSTEM`, an entrant)."""
    return actor if getattr(actor, "is_authenticated", False) else None


def via(actor) -> dict:
    """The ``via_link``/``via_entrant`` fields of an audit entry or confirmation made by ``actor``
    (empty values for everyone but an entrant)."""
    if is_entrant(actor):
        return {"via_link_id": actor.link_id, "via_entrant": actor.name[:250]}
    return {"via_link_id": None, "via_entrant": ""}


def identity(actor) -> tuple | None:
    """Who ``actor`` is, comparable across requests: ``("user", id)``, ``("link", id)``, or
    ``None`` for the anonymous visitor and :data:`SYSTEM`."""
    if is_entrant(actor):
        return ("link", actor.link_id)
    if getattr(actor, "is_authenticated", False):
        return ("user", actor.pk)
    return None


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
    #: See the progress board of a round (every table's state, disputes, calls for a referee).
    VIEW_BOARD = "view_board"
    #: Settings, members, entrants, drawing, publishing and closing rounds.
    MANAGE = "manage"


ROLE_PERMS: dict[str, frozenset[Perm]] = {
    ORGANISER: frozenset(Perm),
    REFEREE: frozenset({Perm.ENTER_RESULTS, Perm.CONFIRM_RESULTS, Perm.REOPEN_RESULTS, Perm.VIEW_AUDIT}),
    # A referee who also sees the progress board (docs/hall.md).
    HEAD_REFEREE: frozenset({Perm.ENTER_RESULTS, Perm.CONFIRM_RESULTS, Perm.REOPEN_RESULTS, Perm.VIEW_AUDIT,
                             Perm.VIEW_BOARD}),
    # Per result only (see has_perm): the entrant's own results, with player entry on.
    ENTRANT: frozenset({Perm.ENTER_RESULTS, Perm.CONFIRM_RESULTS}),
}
#: Roles whose permissions hold per result, never for a whole tournament.
PER_RESULT_ROLES = frozenset({ENTRANT})


def role_of(user, tournament: Tournament) -> str | None:
    """The user's role in ``tournament`` (``"organiser"``, ``"referee"``, ``"entrant"`` for an
    :class:`EntrantActor` of that tournament) or ``None``. The user's roles are read once per
    request (cached on the user object)."""
    if user is SYSTEM:
        return ORGANISER
    if is_entrant(user):
        return ENTRANT if user.tournament_id == tournament.pk else None
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


def has_perm(user, perm: Perm, tournament: Tournament, result: ResultContainer | None = None) -> bool:
    """True if ``user`` holds ``perm`` in ``tournament`` or, with ``result`` (a match or table of
    that tournament), on that result. Members' permissions hold on every result of their
    tournament; an entrant's (:data:`ENTRANT`) only on ``result`` when :func:`entrant_reaches`
    it, and never without a result."""
    role = role_of(user, tournament)
    if role is None or perm not in ROLE_PERMS.get(role, frozenset()):
        return False
    if result is not None and result.round.tournament_id != tournament.pk:
        return False
    if role in PER_RESULT_ROLES:
        return result is not None and entrant_reaches(user, result)
    return True


def require(user, perm: Perm, tournament: Tournament, result: ResultContainer | None = None) -> None:
    """Raise ``PermissionDenied`` unless ``user`` holds ``perm`` in ``tournament`` (on
    ``result`` when given, :func:`has_perm`)."""
    if not has_perm(user, perm, tournament, result=result):
        raise PermissionDenied


def require_for_result(actor, perm: Perm, result: ResultContainer) -> None:
    """Raise ``PermissionDenied`` unless ``actor`` holds ``perm`` on ``result`` (a match or
    table): a member of its tournament with the permission, or an entrant of that very table
    (:func:`entrant_reaches`). The result sheet asks this before every write."""
    require(actor, perm, result.round.tournament, result=result)


def is_side_of(actor, result: ResultContainer) -> bool:
    """True when the entrant ``actor`` sits at ``result``: one of the match's two teams, or one of
    the table's seated players (the result kind's check, :meth:`scoring.kinds.ResultKind.is_side`)."""
    return is_entrant(actor) and kind_of(result).is_side(actor, result)


def entrant_reaches(actor, result: ResultContainer) -> bool:
    """An entrant's permissions hold on ``result`` when it is a result of the entrant's own table
    (:func:`is_side_of`), its round is not a draft, and the tournament has player entry on."""
    rnd = result.round
    return (is_entrant(actor) and rnd.tournament_id == actor.tournament_id and rnd.status != Round.Status.DRAFT
            and rnd.tournament.player_entry and is_side_of(actor, result))


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
    """Every permission ``user`` holds in the whole of ``tournament`` (for templates:
    ``perms.manage``); an entrant's per-result permissions are not among them."""
    role = role_of(user, tournament)
    if role is None or role in PER_RESULT_ROLES:
        return frozenset()
    return ROLE_PERMS.get(role, frozenset())


# --------------------------------------------------------------------------- seasons


def can_manage_season(user, season) -> bool:
    """True for the season's creator, its co-managers and superusers (issue 26 item 3): they
    edit the season and download the full export (full names, federation numbers)."""
    if not getattr(user, "is_authenticated", False) or is_entrant(user):
        return False
    if user.is_superuser or season.created_by_id == user.pk:
        return True
    return season.managers.filter(pk=user.pk).exists()


def require_season(user, season) -> None:
    """Raise ``PermissionDenied`` unless ``user`` manages ``season`` (:func:`can_manage_season`)."""
    if not can_manage_season(user, season):
        raise PermissionDenied


def organised_tournaments(user):
    """The tournaments ``user`` organises (every tournament for a superuser): those a season
    manager may add to a season."""
    if not getattr(user, "is_authenticated", False) or is_entrant(user):
        return Tournament.objects.none()
    if user.is_superuser:
        return Tournament.objects.all()
    return Tournament.objects.filter(memberships__user=user, memberships__role=ORGANISER)


def can_create_season(user) -> bool:
    """True for a user who organises at least one tournament (or a superuser)."""
    return organised_tournaments(user).exists()
