"""Accounts at the venue (issue 22 item 3, ``docs/accounts.md``): one-time login links
(invitations) and passwords set by an organiser.

- **Invite** (:func:`invite`): an organiser gives a person a role in their tournament (a new
  account, made without a password, or one of their own members) and gets a login link, shown
  once as address and QR code. Issuing a new link for the same person revokes the old one.
- **Token**: :data:`TOKEN_LENGTH` characters from :data:`ALPHABET` (lower-case letters and digits
  without the look-alikes ``0 o 1 l i``), about 119 bits from :mod:`secrets`; typed in groups of
  four, case, spaces and dashes do not matter (:func:`normalise`). Only ``SHA-256(token)`` is
  stored: a backup holds no working link.
- **Use** (:func:`accept`): the invitation row is locked and checked inside the lock (not used,
  not revoked, not expired), then marked used: two phones opening the same link at once give one
  login, never two.
- **Set a password** (:func:`set_password`): an organiser sets a member's password directly
  (Django's password validators apply); the member's other sessions end (Django's session hash).

Whose account an organiser may handle (:func:`check_account`, and :func:`refusals` for the members
page, which hides the buttons with the reason): never a staff or superuser
account, never their own password (the account page does that), and only an account all of whose
memberships are in tournaments the organiser organises. An organiser can therefore never take
over someone who also works for another tournament: that person is added by username and logs in
with their own password.
"""
from __future__ import annotations

import hashlib
import re
import secrets
from datetime import timedelta

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.password_validation import validate_password
from django.db import transaction
from django.http import Http404
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed
from scoring.locking import lock
from scoring.models import Invitation, Membership, Tournament
from scoring.participants.members import ORGANISER, find_user, require_organiser, set_role_locked

#: Characters of a token: no ``0 o 1 l i`` (look-alikes when typed from a screen).
ALPHABET = "23456789abcdefghjkmnpqrstuvwxyz"
#: Characters per token (31 ** 24: about 119 bits).
TOKEN_LENGTH = 24
#: Hours a new link works unless the organiser chooses otherwise (``INVITATION_HOURS``).
DEFAULT_HOURS = 24
#: The longest an organiser may let a link work (a week).
MAX_HOURS = 24 * 7
_TOKEN = re.compile(f"[{ALPHABET}]{{{TOKEN_LENGTH}}}")


def new_token() -> str:
    """A fresh random token (:data:`TOKEN_LENGTH` characters of :data:`ALPHABET`)."""
    return "".join(secrets.choice(ALPHABET) for _ in range(TOKEN_LENGTH))


def hash_of(token: str) -> str:
    """SHA-256 (hex) of a token: what the database keeps."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


def normalise(raw: str) -> str:
    """A token as typed or scanned: case, spaces and dashes do not matter."""
    return re.sub(r"[\s\-]", "", raw or "").lower()[:100]


def grouped(token: str) -> str:
    """The token in groups of four for typing: ``abcd-efgh-...``."""
    return "-".join(token[i:i + 4] for i in range(0, len(token), 4))


def path_of(token: str) -> str:
    """The link without the host: ``/invite/#<token>`` (the token travels in the fragment, which
    browsers never send to the server, so no access log holds it)."""
    return f"{reverse('scoring:open_invitation')}#{token}"


def default_hours() -> int:
    """Hours a new link works by default (setting ``INVITATION_HOURS``, else 24)."""
    return int(getattr(settings, "INVITATION_HOURS", DEFAULT_HOURS))


# --------------------------------------------------------------------------- whose account


#: Why an organiser may not handle a staff or superuser account.
STAFF_ONLY = _("Only a site administrator can handle this account.")
#: Why an organiser may not handle an account that is also a member of a tournament they do not run.
OTHER_TOURNAMENT = _("This account also works in another tournament; only its own organisers or a site "
                     "administrator can give it a login link or a password.")


def _reason(actor, user, theirs: set[int], mine: set[int]):
    """The refusal (a lazy message) or ``None``: ``theirs`` are the ids of ``user``'s tournaments,
    ``mine`` those ``actor`` organises."""
    if actor is policy.SYSTEM or getattr(actor, "is_superuser", False):
        return None
    if user.is_staff or user.is_superuser:
        return STAFF_ONLY
    if not theirs <= mine:
        return OTHER_TOURNAMENT
    return None


def _organised_by(actor) -> set[int]:
    """Ids of the tournaments ``actor`` organises (none for SYSTEM or an anonymous actor)."""
    if policy.user_of(actor) is None:
        return set()
    return set(Membership.objects.filter(user=actor, role=ORGANISER).values_list("tournament_id", flat=True))


def refusals(actor, tournament: Tournament) -> dict[int, str]:
    """For the members page: ``{user id: reason}`` for each member of ``tournament`` whom
    ``actor`` may not give a login link or a password (:data:`STAFF_ONLY`,
    :data:`OTHER_TOURNAMENT`); members missing from the dict may be handled. The same answer as
    :func:`check_account`, read in two queries for any number of members (no lock: the actions
    check again inside it)."""
    rows = list(Membership.objects.filter(user__memberships__tournament=tournament)
                .values_list("user_id", "tournament_id", "user__is_staff", "user__is_superuser"))
    theirs: dict[int, set[int]] = {}
    flags: dict[int, tuple[bool, bool]] = {}
    for user_id, tournament_id, is_staff, is_superuser in rows:
        theirs.setdefault(user_id, set()).add(tournament_id)
        flags[user_id] = (is_staff, is_superuser)
    mine = _organised_by(actor)
    out = {}
    for user_id, ids in theirs.items():
        is_staff, is_superuser = flags[user_id]
        user = get_user_model()(pk=user_id, is_staff=is_staff, is_superuser=is_superuser)
        reason = _reason(actor, user, ids, mine)
        if reason is not None:
            out[user_id] = str(reason)
    return out


def check_account(actor, tournament: Tournament, user, *, new_member: bool = False) -> None:
    """Inside the tournament's lock: raise :class:`NotAllowed` unless ``actor`` (an organiser of
    ``tournament``) may make a login link for, or set the password of, ``user``: not a staff or
    superuser account (:data:`STAFF_ONLY`; only a superuser may), and every tournament ``user``
    is a member of is organised by ``actor`` (else :data:`OTHER_TOURNAMENT`); ``user`` must be a
    member of ``tournament`` already, or ``new_member`` (about to be added). The members page
    asks :func:`refusals` for the same answer before offering the buttons."""
    if actor is policy.SYSTEM or getattr(actor, "is_superuser", False):
        return
    theirs = set(Membership.objects.filter(user=user).values_list("tournament_id", flat=True))
    if not (user.is_staff or user.is_superuser) and (not theirs or (tournament.pk not in theirs and not new_member)):
        raise NotAllowed(_("This account is not a member of your tournament: add it by username; its owner logs in "
                           "with their own password."), field="username")
    reason = _reason(actor, user, theirs, _organised_by(actor))
    if reason is not None:
        raise NotAllowed(reason, field="username")


# --------------------------------------------------------------------------- invitations


def invite(tournament: Tournament, actor, *, role: str, username: str = "", user=None, email: str = "",
           hours: int | None = None) -> tuple[Invitation, str]:
    """Give a person ``role`` in ``tournament`` and a new one-time login link; returns
    ``(invitation, token)``. The token is returned here only, never stored.

    The person is ``user``, or the account called ``username`` (made, without a password and
    with ``email``, when there is none). Their earlier links in this tournament are revoked. The
    link works for ``hours`` (default :func:`default_hours`, 1 to :data:`MAX_HOURS`). Raises
    ``PermissionDenied`` unless ``actor`` is an organiser, :class:`NotAllowed` for an account the
    actor may not handle (:func:`check_account`) or a last organiser made referee."""
    hours = default_hours() if hours is None else int(hours)
    if not 1 <= hours <= MAX_HOURS:
        raise NotAllowed(_("A link works between 1 hour and 7 days."), field="hours")
    if role not in Membership.Role.values:
        raise NotAllowed(_("Unknown role."), field="role")
    token = new_token()
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        require_organiser(actor, locked)
        if user is None:
            username = (username or "").strip()
            if not username:
                raise NotAllowed(_("Choose a username."), field="username")
            user = find_user(username)
        if user is None:
            user = get_user_model().objects.create_user(username=username, email=(email or "").strip(), password=None)
        else:
            check_account(actor, locked, user, new_member=True)
        set_role_locked(locked, user, role)
        now = timezone.now()
        Invitation.objects.filter(tournament=locked, user=user, used_at__isnull=True,
                                  revoked_at__isnull=True).update(revoked_at=now)
        invitation = Invitation.objects.create(tournament=locked, user=user, role=role, token_hash=hash_of(token),
                                               created_by=policy.user_of(actor), created_at=now,
                                               expires_at=now + timedelta(hours=hours))
    policy.forget_roles(user)
    return invitation, token


def revoke(tournament: Tournament, invitation_id: int, actor) -> Invitation:
    """Revoke a link of ``tournament`` that was not used yet (:class:`NotAllowed` when it was used
    or revoked; ``Http404`` when ``tournament`` has no such link, so another tournament's links
    cannot be told apart from missing ones)."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        require_organiser(actor, locked)
        invitation = Invitation.objects.select_for_update().select_related("user").filter(
            tournament=locked, pk=invitation_id).first()
        if invitation is None:  # another tournament's link is not there at all (not "used")
            raise Http404(_("There is no such login link in this tournament."))
        if invitation.used_at is not None or invitation.revoked_at is not None:
            raise NotAllowed(_("This login link was used or revoked already."))
        invitation.revoked_at = timezone.now()
        invitation.save(update_fields=["revoked_at"])
    return invitation


def pending(tournament: Tournament):
    """The links of ``tournament`` that still work, newest first, with their user."""
    return (Invitation.objects.filter(tournament=tournament, used_at__isnull=True, revoked_at__isnull=True,
                                      expires_at__gt=timezone.now()).select_related("user").order_by("-created_at"))


def accept(raw: str) -> Invitation | None:
    """Use a link: the invitation of token ``raw`` (as typed or scanned) when it still works,
    marked used in the same transaction (row lock: of two simultaneous uses exactly one gets
    it), else ``None``. The caller logs ``invitation.user`` in.

    The link's maker must still be allowed to give this account a login link, checked at use as
    at making (:func:`_reason`): an account that has since joined a tournament the maker does not
    organise, or become staff, is not opened by it (no take-over through a link kept from before).
    A link whose maker was deleted opens only an account of the link's own tournament alone."""
    token = normalise(raw)
    if not _TOKEN.fullmatch(token):
        return None
    with transaction.atomic():
        invitation = (Invitation.objects.select_for_update(of=("self",)).select_related("user", "tournament", "created_by")
                      .filter(token_hash=hash_of(token)).first())
        if invitation is None or not invitation.is_pending() or not invitation.user.is_active:
            return None
        if not _maker_may_still(invitation):
            return None
        invitation.used_at = timezone.now()
        invitation.save(update_fields=["used_at"])
    return invitation


def _maker_may_still(invitation: Invitation) -> bool:
    """Whether the maker of ``invitation`` may still give its user a login link (see
    :func:`accept`), read inside the link's lock."""
    user = invitation.user
    theirs = set(Membership.objects.filter(user=user).values_list("tournament_id", flat=True))
    maker = invitation.created_by
    if maker is None:
        return not (user.is_staff or user.is_superuser) and theirs <= {invitation.tournament_id}
    if not maker.is_active:
        return False
    mine = _organised_by(maker)
    if invitation.tournament_id not in mine and not maker.is_superuser:
        return False
    return _reason(maker, user, theirs, mine) is None


# --------------------------------------------------------------------------- passwords


def set_password(tournament: Tournament, user_id: int, password: str, actor):
    """An organiser sets the password of ``user_id``, a member of ``tournament`` (Django's password
    validators apply: ``ValidationError``). Not one's own (the account page asks for the old
    one). Returns the user."""
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        require_organiser(actor, locked)
        membership = Membership.objects.select_related("user").filter(tournament=locked, user_id=user_id).first()
        if membership is None:
            raise NotAllowed(_("This member was removed already."))
        user = get_user_model().objects.select_for_update().get(pk=membership.user_id)
        if policy.user_of(actor) is not None and user.pk == actor.pk:
            raise NotAllowed(_("Change your own password on your account page."))
        check_account(actor, locked, user)
        validate_password(password, user)
        user.set_password(password)
        user.save(update_fields=["password"])
    return user

