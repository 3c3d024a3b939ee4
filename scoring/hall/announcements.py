"""Announcements (docs/hall.md, "Announcements"): short messages of the organisers shown live on
the projector, the private-link pages and the referees' pages, until their end time or until an
organiser withdraws them (kept, never deleted).

The app posts automatic ones when a round's pairings are published and when a round starts
(receivers of :mod:`scoring.draw.signals`, connected in :meth:`scoring.apps.ScoringConfig.ready`):
each replaces the tournament's earlier automatic announcements and is shown for
:data:`AUTOMATIC_MINUTES` minutes, or until the round is closed.
"""
from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext, override
from django.utils.translation import gettext_lazy as _

from scoring import policy
from scoring.errors import NotAllowed, ServiceError
from scoring.live import state as live_state
from scoring.locking import lock
from scoring.models import ANNOUNCEMENT_MAX_LENGTH, Announcement, Tournament
from scoring.policy import Perm

#: How long an automatic announcement is shown, in minutes.
AUTOMATIC_MINUTES = 30
#: The longest an announcement can be shown, in days (a mistyped end time is refused).
MAX_DAYS = 7


def active(tournament: Tournament, now: datetime | None = None) -> list[Announcement]:
    """The announcements shown now, newest first."""
    return list(Announcement.objects.filter(tournament=tournament).active(now))


def post(tournament: Tournament, actor, *, text: str, ends_at: datetime | None = None,
         now: datetime | None = None) -> Announcement:
    """Post an announcement in ``tournament`` (organisers only: ``PermissionDenied``). ``text``:
    1 to :data:`~scoring.models.ANNOUNCEMENT_MAX_LENGTH` characters after trimming; ``ends_at``
    (optional, aware): in the future and at most :data:`MAX_DAYS` days ahead.
    :class:`~scoring.errors.ServiceError` (invalid input; the API's 400) with ``field`` ``text`` or
    ``ends_at`` otherwise."""
    now = now or timezone.now()
    text = " ".join(str(text or "").split())
    if not text:
        raise ServiceError(_("Write the announcement."), field="text")
    if len(text) > ANNOUNCEMENT_MAX_LENGTH:
        raise ServiceError(_("An announcement has at most {limit} characters; this one has {n}.").format(
            limit=ANNOUNCEMENT_MAX_LENGTH, n=len(text)), field="text")
    if ends_at is not None and not (now < ends_at <= now + timedelta(days=MAX_DAYS)):
        raise ServiceError(_("The end time must be in the future, at most {days} days from now.").format(days=MAX_DAYS),
                         field="ends_at")
    with transaction.atomic():
        locked = lock(Tournament, tournament.pk)
        policy.require(actor, Perm.MANAGE, locked)
        return Announcement.objects.create(tournament=locked, text=text, ends_at=ends_at, author=policy.user_of(actor))


def withdraw(announcement: Announcement, actor) -> Announcement:
    """Withdraw an announcement (organisers only): it disappears from every page. Withdrawing one
    twice is refused with :class:`NotAllowed`."""
    with transaction.atomic():
        locked = lock(Announcement.objects.select_related("tournament"), announcement.pk)
        policy.require(actor, Perm.MANAGE, locked.tournament)
        if locked.withdrawn_at is not None:
            raise NotAllowed(_("This announcement has been withdrawn already."))
        locked.withdrawn_at = timezone.now()
        locked.save(update_fields=["withdrawn_at"])
    return locked


def _automatic(tournament_id: int, text: Callable[[], str]) -> Announcement:
    """Post an automatic announcement, replacing the tournament's earlier automatic ones. ``text()``
    is called in the site's default language (every visitor sees the same stored message)."""
    now = timezone.now()
    with override(settings.LANGUAGE_CODE):
        stored = str(text())
    with transaction.atomic():
        locked = lock(Tournament, tournament_id)
        Announcement.objects.filter(tournament=locked, automatic=True, withdrawn_at__isnull=True).update(withdrawn_at=now)
        live_state.bump(locked.pk, live_state.HALL)
        return Announcement.objects.create(tournament=locked, text=stored, automatic=True,
                                           ends_at=now + timedelta(minutes=AUTOMATIC_MINUTES))


def on_round_published(sender, *, round, actor=None, **kwargs) -> None:  # noqa: A002 - the signal's name
    """Receiver of :data:`scoring.draw.signals.round_published`."""
    _automatic(round.tournament_id,
               lambda: gettext("Round {number} pairings are published: find your table.").format(number=round.number))


def on_round_started(sender, *, round, actor=None, **kwargs) -> None:  # noqa: A002
    """Receiver of :data:`scoring.draw.signals.round_started`."""
    _automatic(round.tournament_id, lambda: gettext("Round {number} has started.").format(number=round.number))


def on_round_closed(sender, *, round, actor=None, **kwargs) -> None:  # noqa: A002
    """Receiver of :data:`scoring.draw.signals.round_closed`: the automatic announcements (about
    the round just played: its pairings, its start) are withdrawn; the organisers' own stay."""
    if Announcement.objects.filter(tournament_id=round.tournament_id, automatic=True,
                                   withdrawn_at__isnull=True).update(withdrawn_at=timezone.now()):
        live_state.bump(round.tournament_id, live_state.HALL)


def connect() -> None:
    """Connect the receivers to the draw's signals (once; :meth:`scoring.apps.ScoringConfig.ready`)."""
    from scoring.draw.signals import round_closed, round_published, round_started

    round_published.connect(on_round_published, dispatch_uid="hall.announce_published")
    round_started.connect(on_round_started, dispatch_uid="hall.announce_started")
    round_closed.connect(on_round_closed, dispatch_uid="hall.withdraw_on_close")
