"""Login throttling per account with growing delays (issue 22 item 3, ``docs/accounts.md``),
built on django-axes (settings ``AXES_*`` in ``nskt/settings.py``):

- Failed logins are counted **per username, from every address together**
  (``"username"`` in ``AXES_LOCKOUT_PARAMETERS``): 8 guesses from 8 addresses count as 8. After
  ``AXES_FAILURE_LIMIT`` failures within the cool-off the account refuses every login, even the
  right password, until the cool-off has passed since the last counted failure.
- The cool-off **grows** (:func:`cool_off`, ``AXES_COOLOFF_TIME``): it doubles each time the
  account reaches the limit again within a day since its last successful login, from
  ``AXES_COOLOFF_MINUTES`` (default 1) up to ``AXES_COOLOFF_MAX_MINUTES`` (default 60). A
  referee who mistypes five times waits a minute; someone guessing gets five tries a minute, then
  five per two minutes, four, eight ... and at most five an hour.
- Attempts during a lockout are not counted (``AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT =
  False``): the owner trying again does not extend it. Failures keep their own expiry
  (``AXES_USE_ATTEMPT_EXPIRATION``), so a failure on another account never clears this one's;
  each counted failure moves the expiry of all the account's failures (from every address) to
  the end of the account's current cool-off (:func:`extend_expiry`), so they end together.
- A successful login (password or login link) clears the account's failures.

An organiser can always let a locked-out member in at once with a new login link (a link does not
go through the password check), and ``manage.py axes_reset_username NAME`` clears an account.
"""
from __future__ import annotations

from datetime import timedelta

from axes.helpers import get_client_username
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog, AccessLog
from django.conf import settings
from django.contrib.auth.signals import user_login_failed
from django.db.models import Max
from django.utils import timezone

#: How far back failures count towards the growing cool-off.
MEMORY = timedelta(hours=24)


def _base() -> timedelta:
    return timedelta(minutes=float(getattr(settings, "AXES_COOLOFF_MINUTES", 1)))


def _cap() -> timedelta:
    return timedelta(minutes=float(getattr(settings, "AXES_COOLOFF_MAX_MINUTES", 60)))


def failures_of(username: str | None, now=None) -> int:
    """Failed logins of ``username`` (all addresses) in the last 24 hours since its last
    successful login (axes' ``AccessFailureLog`` and ``AccessLog``)."""
    if not username:
        return 0
    now = now or timezone.now()
    since = now - MEMORY
    last_login = AccessLog.objects.filter(username=username, attempt_time__gte=since).aggregate(t=Max("attempt_time"))["t"]
    if last_login is not None:
        since = last_login
    return AccessFailureLog.objects.filter(username=username, attempt_time__gt=since).count()


def cool_off_for(failures: int) -> timedelta:
    """The cool-off after ``failures`` failed logins: the base until the limit is reached twice,
    then doubled for every further time (``limit`` failures more), at most the cap."""
    limit = max(1, int(settings.AXES_FAILURE_LIMIT))
    times = failures // limit
    factor = 2 ** min(max(0, times - 1), 20)
    return min(_base() * factor, _cap())


def cool_off(request=None) -> timedelta:
    """``AXES_COOLOFF_TIME``: the cool-off of the account this login request names, counting the
    failure being recorded (axes asks while recording it, before its log row exists, and sets
    that failure's expiry from the answer: the expiry then equals the lockout it starts)."""
    username = get_client_username(request) if request is not None and hasattr(request, "POST") else None
    return cool_off_for(failures_of(username) + 1)


def seconds_left(request, credentials=None) -> float:
    """Seconds until the account this request names may log in again (0 when not throttled)."""
    username = get_client_username(request, credentials)
    last = AccessAttempt.objects.filter(username=username).aggregate(t=Max("attempt_time"))["t"]
    if last is None:
        return 0.0
    return max(0.0, (last + cool_off(request) - timezone.now()).total_seconds())


def extend_expiry(sender, credentials=None, request=None, **kwargs) -> None:
    """Receiver of ``user_login_failed``, after axes' own: every recorded failure of the account
    expires no earlier than its latest failure plus the account's cool-off now (a failure from
    another address never ends a lockout early: its rows would otherwise expire one by one)."""
    if not getattr(settings, "AXES_ENABLED", False) or request is None or not getattr(settings, "AXES_USE_ATTEMPT_EXPIRATION", False):
        return
    username = get_client_username(request, credentials)
    last = AccessAttempt.objects.filter(username=username).aggregate(t=Max("attempt_time"))["t"]
    if last is None:
        return
    until = last + cool_off_for(failures_of(username))
    AccessAttemptExpiration.objects.filter(access_attempt__username=username, expires_at__lt=until).update(expires_at=until)


def connect() -> None:
    """Connect :func:`extend_expiry` (from ``ScoringConfig.ready``, after axes' receivers)."""
    user_login_failed.connect(extend_expiry, dispatch_uid="scoring.participants.logins.extend_expiry")
