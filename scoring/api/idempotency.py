"""``Idempotency-Key`` on API writes (issue 22 item 6, ``docs/api.md``): a client that sends a
write again after a lost answer (a dropped connection, a timeout, a 503) gets the first answer
back, and the write is stored once.

- A write (``POST``, ``PUT``, ``PATCH``, ``DELETE``) may carry ``Idempotency-Key: <1 to 255
  visible ASCII characters>`` (a UUID is a good choice). Keys belong to the actor: a user (token
  or session) or a private link; the same key of two actors never meet.
- The first request with a key claims it inside the write's own transaction (a row of
  :class:`scoring.models.IdempotentAnswer`, unique per actor and key). A successful answer
  (2xx) is stored in that row before the transaction commits, so the row exists exactly when the
  write was stored. A refused write (4xx) rolls back with its claim: a retry is checked afresh.
- A retry with the same key and the same request (method, path with query, JSON body) gets the
  stored status, body, ``Location`` and ``ETag`` again, with ``Idempotent-Replayed: true``, and
  changes nothing. A retry while the first request still runs waits on the claim (the unique
  row's lock) and then gets the stored answer.
- **Secrets are never stored.** An answer that carries one (a login link's ``token`` and
  ``url``) names those fields in ``response.secret_fields``; they are kept as ``null``, so a
  replay says the write happened but gives no working secret (a database backup holds none).
  A client that lost such an answer makes a new login link.
- The same key with another request is refused: 422 ``idempotency_key_reused``.
- Keys are kept :data:`KEEP_HOURS` hours (``settings.IDEMPOTENCY_KEY_HOURS``); after that the
  key is new again.

Requests without the header, and requests without an actor (which the API refuses anyway) work
as before.
"""
from __future__ import annotations

import functools
import hashlib
import json
import logging
from datetime import timedelta

from django.conf import settings
from django.db import DatabaseError, IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import exceptions, status
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response

from scoring.models import IdempotentAnswer
from scoring.policy import actor_key

log = logging.getLogger(__name__)

#: The request header (as in the IETF draft "The Idempotency-Key HTTP Header Field").
HEADER = "Idempotency-Key"
META_KEY = "HTTP_IDEMPOTENCY_KEY"
#: The answer header that marks a stored answer given again.
REPLAYED = "Idempotent-Replayed"
#: Answer headers kept with the answer.
KEPT_HEADERS = ("Location", "ETag")
#: Default lifetime of a key, in hours.
KEEP_HOURS = 24


class KeyReused(exceptions.APIException):
    """422: the key was used before for another request (another body, path or method)."""

    status_code = status.HTTP_422_UNPROCESSABLE_ENTITY
    default_code = "idempotency_key_reused"
    default_detail = {HEADER: _("This Idempotency-Key was already used for a different request; "
                                "send a new key for a new request.")}


def keep_hours() -> float:
    """How long a key is kept, in hours (``settings.IDEMPOTENCY_KEY_HOURS``, default 24)."""
    return float(getattr(settings, "IDEMPOTENCY_KEY_HOURS", KEEP_HOURS))


def key_of(request) -> str | None:
    """The request's ``Idempotency-Key``, or ``None`` without one. Raises ``ValidationError``
    (400, on the field ``Idempotency-Key``) for an empty, over-long or non-ASCII key."""
    raw = request.META.get(META_KEY)
    if raw is None:
        return None
    key = raw.strip()
    if not 1 <= len(key) <= 255 or not key.isascii() or not key.isprintable():
        raise exceptions.ValidationError(
            {HEADER: _("Send 1 to 255 visible ASCII characters (for example a UUID) as the Idempotency-Key.")})
    return key



def fingerprint(request) -> str:
    """SHA-256 (hex) of the request's method, path with query and parsed JSON body (key order
    and spacing do not matter). Reads ``request.data``: a body the parser refuses raises its
    error (400/413/415) here."""
    payload = [request.method, request.get_full_path(), request.data]
    text = json.dumps(payload, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()


def _replay(row: IdempotentAnswer) -> Response:
    return Response(row.body, status=row.status, headers={**row.headers, REPLAYED: "true"})


def _claim(actor: str, key: str, print_: str) -> IdempotentAnswer | Response:
    """Claim ``key`` for ``actor`` (in the caller's transaction): the new row, or the stored
    answer of an earlier request. A concurrent first request holds the row's lock until it ends;
    the insert waits for it. Raises :class:`KeyReused` for another request's key."""
    now = timezone.now()
    IdempotentAnswer.objects.filter(actor=actor, key=key, created_at__lt=now - timedelta(hours=keep_hours())).delete()
    try:
        with transaction.atomic():
            return IdempotentAnswer.objects.create(actor=actor, key=key, fingerprint=print_, created_at=now)
    except IntegrityError:
        row = IdempotentAnswer.objects.select_for_update().get(actor=actor, key=key)
    if row.fingerprint != print_:
        raise KeyReused
    return _replay(row)


def _store(row: IdempotentAnswer, response) -> None:
    row.status = response.status_code
    body = json.loads(JSONRenderer().render(response.data)) if response.data is not None else None
    if isinstance(body, dict):
        for name in getattr(response, "secret_fields", ()):
            if name in body:
                body[name] = None
    row.body = body
    row.headers = {name: response[name] for name in KEPT_HEADERS if response.has_header(name)}
    row.save(update_fields=["status", "body", "headers"])


def _purge() -> None:
    """Delete every expired key (one indexed statement, after the write committed). Best effort:
    the write is stored and its answer ready, so a database failure here is only logged (the
    next write purges)."""
    try:
        IdempotentAnswer.objects.filter(created_at__lt=timezone.now() - timedelta(hours=keep_hours())).delete()
    except DatabaseError:
        log.warning("expired idempotency keys not purged", exc_info=True)


def idempotent(handler):
    """Wrap a view's write ``handler(request, *args, **kwargs)`` in one transaction, the answer
    it reads included (a failure before the end stores nothing); with an ``Idempotency-Key``
    (and an actor) the key's claim is in that transaction too, and the successful answer is
    stored with it; a retry gets that answer (see the module docstring)."""

    @functools.wraps(handler)
    def run(request, *args, **kwargs):
        key = key_of(request)
        actor = actor_key(request.user) if key is not None else None
        if actor is None:
            with transaction.atomic():  # the answer is read in the write's transaction too
                return handler(request, *args, **kwargs)
        print_ = fingerprint(request)
        with transaction.atomic():
            claimed = _claim(actor, key, print_)
            if isinstance(claimed, Response):
                return claimed
            response = handler(request, *args, **kwargs)
            if 200 <= response.status_code < 300:
                _store(claimed, response)
            else:
                claimed.delete()
        transaction.on_commit(_purge)
        return response

    return run
