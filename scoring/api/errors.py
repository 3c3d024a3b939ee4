"""Every refusal of the API as one JSON shape: ``{"code": str, "errors": [{"field", "message"}]}``.

``field`` names the place in the request the error is about (``"version"``, ``"reason"``,
``"totals"``, ``"record.card_points.NS"``) or is ``""`` for the request as a whole; ``message``
is the same translated text the pages show. The status tells what kind of refusal it is:

======  =====================  =====================================================================
status  code                   raised by
======  =====================  =====================================================================
400     ``parse_error``        a body that is not JSON or is nested too deep (:mod:`.parsers`; for
                               the engine commands also one that is not a JSON object)
400     ``invalid``            a missing or malformed field, an engine rule violation (``RuleViolation``:
                               one error per violation, next to its field), a service refusal about
                               the input (``ServiceError``: no reason given, totals not numbers)
401     ``not_authenticated``  a write without credentials, or with an unknown token
403     ``permission_denied``  the policy (:mod:`scoring.policy`) refuses the actor
404     ``not_found``          no such tournament, round, result, record, game or command; a draft
                               round the actor may not see
405     ``method_not_allowed``
409     ``stale_version``      the result changed since the client read it (``StaleVersion``)
409     ``conflict``           the action is not possible in the result's state (``Locked``,
                               ``NotAllowed``: confirmed, finished, closed round, own entries ...)
409     ``no_pairing``         no pairing without a rematch exists (the round API,
                               :mod:`.views.rounds`; ``blocking``: the teams that block it)
409     ``publish_refused``    a draft round with problems (the round API; ``problems``,
                               ``needs_confirmation``)
413     ``too_large``          a request body over the limit
415     ``unsupported_...``    a body that is not ``application/json`` (``unsupported_media_type``)
429     ``throttled``          too many requests (``Retry-After`` says when to try again)
======  =====================  =====================================================================

Nothing here decides anything: the policy and the result sheet raise, this module only reports.
"""
from __future__ import annotations

from typing import Any

from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.utils.translation import gettext as _
from rest_framework import exceptions, status
from rest_framework.response import Response
from rest_framework.views import set_rollback

from scoring.errors import Locked, NotAllowed, ServiceError, StaleVersion, wait_phrase
from scoring.games.base import RuleViolation
from scoring.games.entry import more_message, split_path, violation_message


def error(field: str, message: Any) -> dict[str, str]:
    """One error item."""
    return {"field": field, "message": str(message)}


def body(code: str, errors: list[dict[str, str]]) -> dict[str, Any]:
    """The error envelope."""
    return {"code": code, "errors": errors}


def record_field(path: str, prefix: str = "record") -> str:
    """The request field of an engine violation on the record sent as ``prefix``:
    ``"card_points.NS"`` -> ``"record.card_points.NS"``; a whole-result check (``"hands[3].x"``)
    loses its position like on the pages (:func:`scoring.games.entry.split_path`); ``""`` ->
    ``"record"``."""
    parts = split_path(path)
    if not parts:
        return prefix
    text = ".".join(parts)
    return f"{prefix}.{text}" if prefix else text


def violation_errors(exc: RuleViolation, prefix: str = "record") -> list[dict[str, str]]:
    """Every violation of ``exc`` as an error item, translated like on the pages
    (:func:`scoring.games.entry.violation_message`), each once; when the engine left violations
    out (more than 50), a last item on ``prefix`` says how many."""
    out: list[dict[str, str]] = []
    for v in exc.violations:
        item = error(record_field(v.field, prefix), violation_message(v))
        if item not in out:
            out.append(item)
    if getattr(exc, "more", 0):
        out.append(error(prefix, more_message(exc.more)))
    return out


def _flatten(detail: Any, field: str = "") -> list[dict[str, str]]:
    """DRF validation details (nested dicts and lists of messages) as error items with dotted
    field paths."""
    if isinstance(detail, dict):
        out = []
        for key, value in detail.items():
            name = "" if key in ("non_field_errors", "detail") else str(key)
            out += _flatten(value, f"{field}.{name}" if field and name else field or name)
        return out
    if isinstance(detail, list):
        out = []
        for i, value in enumerate(detail):
            if isinstance(value, (dict, list)):
                out += _flatten(value, f"{field}[{i}]")
            else:
                out += _flatten(value, field)
        return out
    return [error(field, detail)]


def _service_status(exc: ServiceError) -> tuple[int, str]:
    if isinstance(exc, StaleVersion):
        return status.HTTP_409_CONFLICT, "stale_version"
    if isinstance(exc, (Locked, NotAllowed)):
        return status.HTTP_409_CONFLICT, "conflict"
    return status.HTTP_400_BAD_REQUEST, "invalid"


def exception_handler(exc: Exception, context: dict) -> Response | None:
    """DRF's ``EXCEPTION_HANDLER`` for the API (see the module docstring). Unknown exceptions
    return ``None`` (a 500, logged by Django)."""
    if isinstance(exc, RuleViolation):
        set_rollback()
        return Response(body("invalid", violation_errors(exc)), status=status.HTTP_400_BAD_REQUEST)
    if isinstance(exc, ServiceError):
        set_rollback()
        code, name = _service_status(exc)
        return Response(body(name, [error(exc.field, exc.message)]), status=code)
    if isinstance(exc, Http404):
        exc = exceptions.NotFound(*exc.args)
    elif isinstance(exc, PermissionDenied):
        exc = exceptions.PermissionDenied(*exc.args)
    if not isinstance(exc, exceptions.APIException):
        return None
    headers = {}
    if getattr(exc, "auth_header", None):
        headers["WWW-Authenticate"] = exc.auth_header
    if getattr(exc, "wait", None):
        headers["Retry-After"] = f"{int(exc.wait)}"
    if isinstance(exc, exceptions.ValidationError):
        errors = _flatten(exc.detail)
    else:
        detail = exc.detail
        errors = _flatten(detail) if isinstance(detail, (dict, list)) else [error("", detail)]
    code = exc.default_code if not isinstance(exc, exceptions.ValidationError) else "invalid"
    if isinstance(exc, exceptions.NotFound):
        errors = [error("", _("Not found."))]
    elif isinstance(exc, exceptions.Throttled):
        # DRF's own text is half translated ("... Expected available in N seconds.").
        errors = [error("", _("Too many requests: try again in %(wait)s.") % {"wait": wait_phrase(exc.wait or 1)})]
    set_rollback()
    return Response(body(code, errors), status=exc.status_code, headers=headers)
