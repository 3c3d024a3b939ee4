"""A lost database connection never becomes a 500 (issue 22 item 6, ``docs/operations.md``).

:class:`DatabaseUnavailableMiddleware` sits near the top of ``MIDDLEWARE``. When a request fails
with Django's ``OperationalError`` or ``InterfaceError`` (a dropped or refused connection, a
server restart, and likewise a lock timeout or deadlock the database gave up on), wherever in
the view, its template or an inner middleware:

- the connections are closed (the next query opens a new one);
- before a write (any method but ``GET``, ``HEAD``, ``OPTIONS``) every persistent connection is
  checked (:func:`check_before_write`) and a dead one closed, so a write never meets a
  connection that died between two requests (a database restart); reads skip that round trip;
- a safe request (``GET``, ``HEAD``, ``OPTIONS``) is run once more, whole; its answer counts if
  the second run succeeds;
- a write, or a read that fails twice, is answered ``503 Service Unavailable`` with
  ``Retry-After`` (:data:`RETRY_AFTER` seconds): a short translated page, or under ``/api/`` the
  API's JSON error ``{"code": "service_unavailable", "errors": [...]}``.

A write that failed stored nothing (each write runs in one transaction: the result sheet's, the
API's idempotency claim); if the connection dropped after the commit, the retry with the same
``Idempotency-Key`` returns the stored answer (:mod:`scoring.api.idempotency`), and the pages'
entry forms carry their own ``submission`` token (:mod:`scoring.results.retry`).

Django turns an exception into a 500 answer inside each middleware layer, so the failure is
noticed by a ``got_request_exception`` receiver (:func:`_note_failure`) that marks the request;
the middleware then replaces that answer.
"""
from __future__ import annotations

import logging
import sys

from django.conf import settings
from django.core.signals import got_request_exception
from django.db import InterfaceError, OperationalError, connections
from django.http import HttpResponse, JsonResponse
from django.template.loader import render_to_string
from django.utils import translation
from django.utils.translation import gettext as _

log = logging.getLogger(__name__)

#: Seconds a client is asked to wait before trying again.
RETRY_AFTER = 5
#: Methods run once more after a lost connection.
SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
#: The request attribute that holds the database failure of the current run.
MARK = "_nskt_database_failure"
#: Paths answered with the API's JSON errors.
API_PREFIX = "/api/"


def database_failure(exc: BaseException | None) -> bool:
    """Whether ``exc`` (or an exception it was raised from) is a database connection failure."""
    seen = 0
    while exc is not None and seen < 10:
        if isinstance(exc, (OperationalError, InterfaceError)):
            return True
        exc, seen = exc.__cause__ or exc.__context__, seen + 1
    return False


def _note_failure(sender, request=None, **kwargs) -> None:
    """``got_request_exception`` receiver: mark ``request`` when the exception being handled is a
    database failure."""
    if request is not None and database_failure(sys.exc_info()[1]):
        setattr(request, MARK, sys.exc_info()[1])


got_request_exception.connect(_note_failure, dispatch_uid="nskt-database-unavailable")


def reset_connections() -> None:
    """Close every open database connection outside a transaction (a broken one cannot be
    reused; the next query connects again). Errors of closing a dead connection are ignored."""
    for conn in connections.all(initialized_only=True):
        if not conn.in_atomic_block:
            reset_connection(conn)


def check_before_write() -> None:
    """Close every persistent connection that no longer answers (Django's ``is_usable``: a
    ``SELECT 1``), so that a write starts on a live one. Called before each write only: reads do
    without the check (a read on a dead connection is run once more,
    :class:`DatabaseUnavailableMiddleware`), which spares every page and poll a round trip
    (``CONN_HEALTH_CHECKS`` is off in ``nskt.settings``)."""
    for conn in connections.all(initialized_only=True):
        if conn.connection is None or conn.in_atomic_block:
            continue
        try:
            usable = conn.is_usable()
        except Exception:  # noqa: BLE001 - a connection that cannot even answer is not usable
            usable = False
        if not usable:
            reset_connection(conn)


def reset_connection(conn) -> None:
    """Close ``conn``, ignoring the errors of closing a dead connection."""
    try:
        conn.close()
    except Exception:  # noqa: BLE001 - the connection is gone either way
        log.debug("closing a failed database connection", exc_info=True)


def unavailable(request):
    """The 503 answer to ``request``: JSON under ``/api/``, otherwise a short page, both in the
    request's language, with ``Retry-After``. A write's answer says that nothing was saved; a
    read's does not (it saved nothing to begin with)."""
    language = getattr(request, "LANGUAGE_CODE", None) or settings.LANGUAGE_CODE
    with translation.override(language):
        if request.method in ("GET", "HEAD", "OPTIONS"):
            message = _("The database could not be reached for a moment; try again in a few seconds.")
        else:
            message = _("The database could not be reached for a moment. Nothing was saved; try again in a few seconds.")
        if request.path_info.startswith(API_PREFIX):
            response = JsonResponse({"code": "service_unavailable", "errors": [{"field": "", "message": message}]},
                                    status=503)
        else:
            response = HttpResponse(render_to_string("503.html", {"message": message, "language": language}),
                                    status=503)
    response["Retry-After"] = str(RETRY_AFTER)
    response["Cache-Control"] = "no-store"
    return response


class DatabaseUnavailableMiddleware:
    """Answers a lost database connection with one more try (safe requests) or a 503 with
    ``Retry-After`` (writes), never a 500 (see the module docstring)."""

    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if request.method not in SAFE_METHODS:
            check_before_write()
        response = self.get_response(request)
        failure = getattr(request, MARK, None)
        if failure is None:
            return response
        reset_connections()
        if request.method in SAFE_METHODS:
            setattr(request, MARK, None)
            log.warning("database failure on %s %s, trying once more: %s", request.method, request.path, failure)
            response = self.get_response(request)
            failure = getattr(request, MARK, None)
            if failure is None:
                return response
            reset_connections()
        log.warning("database failure on %s %s, answered 503: %s", request.method, request.path, failure)
        return unavailable(request)
