"""Offline-first entry (docs/results.md, "Saving without a connection"): the installable web app's
manifest and service worker, a fresh CSRF token for the phone's outbox, and the JSON answer of the
entry page's POST that the outbox reads.

The outbox (static/js/outbox.js) sends a hand saved without a connection later, by itself, with
the same form fields the entry page posts (its ``submission`` token, the ``version`` the page was
based on and the ``chain`` of earlier outbox hands of the same table) and ``Accept:
application/json``; the entry view (:func:`scoring.web.views.results.enter`) hands such a POST to
:func:`save_hand`, which calls the same service as the form (:func:`scoring.results.sheet.add_record`,
the same role checks and version check) and answers with a status code and JSON instead of a page:

- ``201`` ``{"ok": true, "number": n, "replayed": false, "version": v}``: stored as record ``n``;
  ``v`` is the result's version right after it.
- ``200`` ``{"ok": true, "number": n, "replayed": true, "version": null}``: this token was stored
  before (the first answer was lost); nothing new is written.
- ``400`` ``{"ok": false, "code": "invalid" | "refused", "message": ..., "errors": [...]}``: the
  input breaks the rules, or the service refused it (nothing stored).
- ``409`` ``{"ok": false, "code": "stale" | "locked", "message": ...}``: the result changed
  since the page (someone else saved, edited, confirmed), or it is finished or confirmed.
- ``409`` ``{"ok": false, "code": "owner", ...}``: the hand was entered on this phone as someone
  else (its ``entered_as``, :func:`scoring.policy.actor_key`) than this request is: it is not
  stored, and the outbox keeps it waiting for that person (a referee's session ran out and a
  colleague logged in on the same phone).
- ``401`` ``{"code": "login"}`` (the login ran out: the hand stays waiting) and ``403``
  ``{"code": "forbidden"}`` (this phone may not enter this result).
"""
from __future__ import annotations

import re

from django.http import HttpResponse, JsonResponse
from django.middleware.csrf import get_token
from django.shortcuts import render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _t
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET

from scoring.errors import Locked, ServiceError, StaleVersion
from scoring.games.base import RuleViolation
from scoring.games.entry import more_message, violation_message
from scoring.locking import parse_version
from scoring.models import ResultContainer, Tournament
from scoring.policy import actor_key
from scoring.results import sheet
from scoring.results.sheet import Action

#: One idempotency key of a ``chain`` (``uuid4().hex`` or the outbox's 32 hex digits).
_TOKEN = re.compile(r"[0-9A-Za-z-]{16,64}")
#: The icons of the web app (static/img/), with their sizes in pixels.
ICONS = ((192, "img/app-icon-192.png"), (512, "img/app-icon-512.png"))


def wants_json(request) -> bool:
    """Whether a POST comes from the outbox (``Accept: application/json``) and wants the JSON
    answer instead of a page."""
    return "application/json" in request.headers.get("Accept", "")


def answer(status: int, **data) -> JsonResponse:
    """A JSON answer of the outbox's POST with ``status``; never cached."""
    response = JsonResponse(data, status=status)
    response["Cache-Control"] = "no-store"
    return response


def not_logged_in() -> JsonResponse:
    """401: the login (or the private link's session) ran out; the hand stays in the outbox."""
    return answer(401, ok=False, code="login", message=_t("Log in again to send the hands that are waiting."))


def forbidden(message: str = "") -> JsonResponse:
    """403: this phone may not enter this result (another side enters, a link that no longer works)."""
    return answer(403, ok=False, code="forbidden", message=message or _t("You may not enter results here."))


def chain_of(request) -> tuple[str, ...]:
    """The posted ``chain``: comma-separated idempotency keys of the earlier outbox hands of the
    same table, in order (empty for an ordinary form). Raises :class:`~scoring.errors.ServiceError`
    for a damaged value."""
    raw = (request.POST.get("chain") or "").strip()
    tokens = tuple(t for t in raw.split(",") if t) if raw else ()
    if any(not _TOKEN.fullmatch(t) for t in tokens):
        raise ServiceError(_t("This form is damaged: reload the page and enter it again."))
    return tokens


def _errors(err: RuleViolation) -> list[str]:
    lines = [str(violation_message(v)) for v in err.violations]
    return lines + ([str(more_message(err.more))] if err.more else [])


def save_hand(request, tournament: Tournament, container: ResultContainer, entry, actor) -> JsonResponse:
    """Store the outbox's hand (``entry``: the game's bound entry form) with
    :func:`scoring.results.sheet.add_record` and answer with JSON (the module's docstring lists
    the answers). The caller checked who may enter, as for the form."""
    entered_as = request.POST.get("entered_as")
    if entered_as and entered_as != (actor_key(actor) or ""):
        return answer(409, ok=False, code="owner",
                      message=_t("This hand was entered on this phone by someone else: it waits until they are logged in again."))
    if not entry.is_valid():
        refused = sheet.refusal(container, Action.ADD, actor)
        if refused is not None:
            return answer(409, ok=False, code="locked", message=str(refused.message))
        return answer(400, ok=False, code="invalid", message=_t("The input breaks the rules."),
                      errors=[str(e) for e in entry.error_lines()])
    try:
        rec = sheet.add_record(container, entry.record(), actor, expected_version=parse_version(request.POST.get("version")),
                               submission=request.POST.get("submission") or None, chain=chain_of(request))
    except RuleViolation as err:
        return answer(400, ok=False, code="invalid", message=_t("The input breaks the rules."), errors=_errors(err))
    except StaleVersion as err:
        return answer(409, ok=False, code="stale", message=str(err.message))
    except Locked as err:
        return answer(409, ok=False, code="locked", message=str(err.message))
    except ServiceError as err:
        return answer(400, ok=False, code="refused", message=str(err.message))
    if rec.replayed:
        return answer(200, ok=True, number=rec.number, replayed=True, version=None)
    container.refresh_from_db(fields=["version"])
    return answer(201, ok=True, number=rec.number, replayed=False, version=container.version)


@never_cache
@require_GET
def csrf_token(request):
    """A fresh CSRF token for the outbox (JSON ``{"token": ...}``): the token in a page kept offline
    may have expired (a login in between); the outbox asks for this one before it sends."""
    return answer(200, token=get_token(request))


@require_GET
def manifest(request):
    """The web app manifest: the app opens at "My tables" as a standalone app. Served by Django so
    that the icons' addresses are the static files' (hashed in production)."""
    data = {
        "name": _t("NSKT tournaments"),
        "short_name": _t("NSKT"),
        "start_url": reverse("scoring:my_tables"),
        "scope": "/",
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1d4e89",
        "icons": [{"src": static(path), "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
                  for size, path in ICONS],
    }
    response = JsonResponse(data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False})
    response["Cache-Control"] = "max-age=3600"
    return response


@require_GET
def service_worker(request):
    """The service worker (templates/offline/sw.js), served from the site's root so that its scope
    covers every entry page; the browser checks it for updates on every navigation (no-cache)."""
    response: HttpResponse = render(request, "offline/sw.js", {}, content_type="text/javascript; charset=utf-8")
    response["Cache-Control"] = "no-cache"
    response["Service-Worker-Allowed"] = "/"
    return response

