"""Conditional GET for the public pages that phones poll (standings, a round's tables, a result):
a poll that finds nothing changed is answered ``304 Not Modified`` without rendering the page.

A page's ETag is a digest of what the page shows, read cheaply before the view runs:

- the state of its data: the tournament's state counters (:mod:`scoring.live.state`), bumped in
  the transaction of every write a page shows, read by primary key: the standings
  (:func:`standings_counters`: the standings counter, the tournament's and the entrants'), a
  round's page (:func:`round_state`: the round's status and page counter), a result
  (:func:`result_state`: its version, state and round), the hall bar
  (``scoring.web.views.hall.news_state``: the hall counter and the active announcements); and the
  tournament's own fields;
- what else the same URL can show: the full path with its query (``?round=``, the projector's
  screen), the language, the CSRF cookie (the page embeds a token made from it), the htmx request
  headers (a partial), and the code (templates, translations and static files change on deploys).

A 304 costs one or two queries (the tournament with its counters, then a round's or a result's
state by primary keys), no
session write and no rendering, whatever the number of teams (``benchmarks/bench_conditional.py``).
The state queries are built by the ORM once per process and run again with each request's ids
(:class:`scoring.queries.CompiledQuery`).

**The round page** shows a table's state and, once it is finished, its score; the running score
of a table being played is on its result page. Its page counter moves with a table's state, a
finished table's score and the pairing (:mod:`scoring.live.signals`), not with a hand in a table
being played, so a phone following the round gets 304 while the hands are entered.

Only anonymous visitors without pending messages get ETags and 304s: a member's page shows their
name, role and actions, which the data's state does not cover. A phone holding private links
(issue 15) is anonymous too: its pages show the links it holds and, on its own table, the
entrant's actions; the ETag covers who acts (the link, with its token's hash) and the links held,
so opening, forgetting or losing a link (regenerated, revoked) gives new ETags. Every conditional page answers
``Cache-Control: private, no-cache`` (browsers keep it but ask again each time; shared caches
never keep it, it holds a CSRF token). A 304 carries no ``Content-Security-Policy``: the browser
keeps the one of the page it has (its nonces match that page).

**Live polls** (htmx's poll of a page's ``<div id="live">``, :func:`live_poll`) are answered with
that region only (:func:`render_live`; htmx swaps in ``#live`` of the answer), not the whole page,
and ``Vary: HX-Request, HX-Target`` keeps the browser from showing a fragment where the page was.

**Shared fragments.** Every phone in the hall polls the same few pages, and when a page changes
(a result in, the standings) each phone's poll would render the same region again. For a live poll by a visitor who gets the page everyone gets (anonymous, no private link
held or acted through, no messages) the rendered region is kept in Django's cache
(:func:`shared_key`: the page's state, the tournament's fields, the path with its query, the
language, the htmx headers and the code, the same as the ETag less what is the visitor's own) and
the next phone asking for the same state gets it without rendering. A region is kept only if its
rendering used nothing of the visitor's own: no CSRF token (``get_token``) and no CSP nonce;
otherwise it is rendered for each. A new state is a new key, so a kept region is never stale; a
cache that fails is a miss (in-process memory without Redis, so each gunicorn worker keeps its own;
Redis in production shares them, with each process's memory in front: :mod:`scoring.caching`).
"""
from __future__ import annotations

import hashlib
import json
import time
from collections.abc import Callable
from functools import cache, wraps

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import render
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers, quote_etag
from django.utils.translation import get_language

from scoring import caching
from scoring.kinds import KINDS, ResultKind, kind_for
from scoring.live import state as live_state
from scoring.models import LiveState, Round, Tournament
from scoring.printing.common import files_fingerprint
from scoring.queries import CompiledQuery
from scoring.web.links import held_links

#: Request headers that make the same URL answer something else (htmx partial requests).
VARYING_HEADERS = ("HX-Request", "HX-Target", "HX-Trigger", "HX-Boosted")
#: Seconds a shared live region is kept (a new state makes a new key anyway).
FRAGMENT_TIMEOUT = 5 * 60
#: Seconds a process's claim to render a shared region lasts; seconds another request waits for
#: that rendering, and between two looks (:func:`_render_shared`).
CLAIM_SECONDS, CLAIM_WAIT, CLAIM_POLL = 5, 0.3, 0.01
#: What is kept under a region's key when its rendering used something of the visitor's own.
OWN = ("own",)


@cache
def code_version() -> str:
    """A fingerprint of the files that shape the pages (templates, the app's code, translations,
    static files; :func:`scoring.printing.common.files_fingerprint`), computed once per process: a
    deploy gives new ETags."""
    return files_fingerprint((("templates", "**/*.html"), ("scoring", "**/*.py"), ("locale", "**/*.mo"), ("static", "**/*")))


def eligible(request) -> bool:
    """True for requests that may get a 304: safe, anonymous, no messages waiting to be shown."""
    if request.method not in ("GET", "HEAD") or request.user.is_authenticated:
        return False
    return not len(messages.get_messages(request))


def tournament_fields(tournament: Tournament) -> list:
    """What every tournament page shows of the tournament itself (name, place, status, game...)."""
    return [tournament.pk, tournament.name, tournament.slug, tournament.status, tournament.venue, str(tournament.starts_on),
            tournament.game, tournament.rules, str(tournament.round_format), tournament.hands_per_round,
            tournament.tiebreaks, tournament.placement, tournament.blind_confirmation, tournament.player_entry]


def etag_for(request, tournament: Tournament, state) -> str:
    """The quoted ETag of a page of ``tournament`` whose data is in ``state``. The CSRF secret
    is the one in effect for the request (``CSRF_COOKIE``: the cookie sent, or the one a page
    just rendered sets)."""
    actor = getattr(request, "actor", None)
    parts = [state, tournament_fields(tournament), request.get_full_path(), get_language(),
             request.META.get("CSRF_COOKIE") or "", [request.headers.get(h, "") for h in VARYING_HEADERS],
             code_version(), getattr(actor, "link_id", None), held_links(request, with_hash=True)]
    return quote_etag(hashlib.sha1(json.dumps(parts, default=str).encode()).hexdigest())


def live_poll(request) -> bool:
    """True for htmx's poll of a page's live region (the element ``id="live"`` polling its page)."""
    headers = request.headers
    return headers.get("HX-Request") == "true" and headers.get("HX-Target") == "live" and not headers.get("HX-Boosted")


def render_live(request, template: str, live_template: str, context: dict) -> HttpResponse:
    """The page ``template``, or for a live poll (:func:`live_poll`) its live region only
    (``live_template``, which ``template`` includes), with the same context."""
    return render(request, live_template if live_poll(request) else template, context)


def shared_key(request, tournament: Tournament, state) -> str | None:
    """The cache key of a live poll's region shared by every visitor who gets the same page, or
    ``None`` when this request's region may hold something of its own (not a live poll, a
    private link held or acted through). The caller has checked :func:`eligible`."""
    if request.method != "GET" or not live_poll(request):
        return None
    if getattr(getattr(request, "actor", None), "link_id", None) is not None or held_links(request):
        return None
    parts = [state, tournament_fields(tournament), request.get_full_path(), get_language(),
             [request.headers.get(h, "") for h in VARYING_HEADERS], code_version()]
    return "live:" + hashlib.sha1(json.dumps(parts, default=str).encode()).hexdigest()


def _personal_marks(request) -> tuple:
    """What a rendering leaves on the request when it used the visitor's own CSRF token or CSP
    nonce."""
    return bool(request.META.get("CSRF_COOKIE_NEEDS_UPDATE")), isinstance(getattr(request, "_csp_nonce", None), str)


def _cache_get(key: str):
    value = caching.get(key)
    return None if value is caching.MISSING or value is caching.UNAVAILABLE else value


def _cache_set(key: str, value) -> None:
    caching.set(key, value, FRAGMENT_TIMEOUT)


def _render_shared(request, key: str | None, render_view: Callable) -> HttpResponse:
    """The kept region under ``key`` if there is one, else ``render_view()``, kept under ``key``
    when it is a plain 200 whose rendering used no token nor nonce of the visitor.

    One process renders a region, the others wait for it: a hall of phones woken by one event
    asks for the same new region at once, and every worker that missed it would render it again.
    The first to miss claims the key (:func:`scoring.caching.claim`) and renders; a request that
    finds the key claimed waits up to :data:`CLAIM_WAIT` seconds for the region to be kept, and
    renders it itself after that (a renderer that failed or was slow). A region whose rendering
    turned out to be the visitor's own is marked so (:data:`OWN`): the next askers render theirs
    without waiting."""
    if key is None:
        return render_view()
    kept = caching.get(key)
    if kept is caching.UNAVAILABLE:  # the shared cache is down: render, claim and keep nothing
        return render_view()
    kept = None if kept is caching.MISSING else kept
    if kept is None and not caching.claim(key, CLAIM_SECONDS):
        kept = _kept_by_another(key)
    if kept is not None and kept != OWN:
        content_type, content = kept
        return HttpResponse(content, content_type=content_type)
    if kept == OWN:
        return render_view()
    before = _personal_marks(request)
    try:
        response = render_view()
    except BaseException:  # a 404 raised in the view, say: the next asker renders at once
        caching.release(key)
        raise
    if (response.status_code == 200 and not response.streaming and not response.cookies
            and not any(before) and not any(_personal_marks(request))):
        _cache_set(key, (response["Content-Type"], response.content))
    elif not any(before) and response.status_code == 200:
        _cache_set(key, OWN)
    else:
        caching.release(key)
    return response


def _kept_by_another(key: str):
    """The region another process is rendering under ``key`` once it is kept, or ``None`` after
    :data:`CLAIM_WAIT` seconds."""
    deadline = time.monotonic() + CLAIM_WAIT
    while time.monotonic() < deadline:
        time.sleep(CLAIM_POLL)
        kept = _cache_get(key)
        if kept is not None:
            return kept
    return None


def _varying(response: HttpResponse) -> HttpResponse:
    """``response`` marked as depending on the htmx headers (a live poll gets the region only)."""
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


def conditional(state_of: Callable) -> Callable:
    """Decorator for a view taking ``tournament`` (inside :func:`scoring.web.decorators.tournament_view`):
    ``state_of(request, tournament, *args, **kwargs)`` returns the state of the page's data, or
    ``None`` to leave the request alone (the view then answers it, a 404 for instance)."""

    def decorator(view: Callable) -> Callable:
        @wraps(view)
        def wrapped(request, *args, tournament, **kwargs):
            if not eligible(request):
                return _varying(view(request, *args, tournament=tournament, **kwargs))
            state = state_of(request, tournament, *args, **kwargs)
            if state is None:
                return _varying(view(request, *args, tournament=tournament, **kwargs))
            etag = etag_for(request, tournament, state)
            response = get_conditional_response(request, etag=etag)
            if response is None:
                response = _render_shared(request, shared_key(request, tournament, state),
                                          lambda: view(request, *args, tournament=tournament, **kwargs))
                if response.status_code != 200:
                    return response
                response["ETag"] = etag_for(request, tournament, state)  # a first visit's new CSRF cookie
            else:
                response["ETag"] = etag
                response._csp_exempt = True  # keep the policy (and nonces) of the page the browser has
            patch_cache_control(response, private=True, no_cache=True)
            patch_vary_headers(response, ("Cookie",))
            return _varying(response)

        return wrapped

    return decorator


# --------------------------------------------------------------------------- page states


#: The tournament's counters every public page's state holds (:mod:`scoring.live.state`): the
#: counters row's epoch, the tournament's own changes (its rounds: the navigation) and the
#: entrants' (the names shown).
PAGE_COUNTERS = ("epoch", "tournament_version", "entrants_version")


def _round_counters(tournament_id: int, number: int):
    """Round ``number``'s id, status and counters with the tournament's (:data:`scoring.live.state.ROUND_FIELDS`)."""
    return Round.objects.filter(tournament_id=tournament_id, number=number).order_by().values_list(*live_state.ROUND_FIELDS)[:1]


def _tournament_counters(tournament_id: int):
    """The tournament's counters (:data:`scoring.live.state.TOURNAMENT_FIELDS`)."""
    return LiveState.objects.filter(pk=tournament_id).values_list(*live_state.TOURNAMENT_FIELDS)[:1]


#: :func:`_round_counters` and :func:`_tournament_counters` compiled once per process (every poll
#: reads one of them).
ROUND_COUNTERS, TOURNAMENT_COUNTERS = CompiledQuery(_round_counters), CompiledQuery(_tournament_counters)


def tournament_counters(tournament: Tournament) -> dict:
    """The tournament's counters by name (:data:`scoring.live.state.TOURNAMENT_FIELDS`; ``None``
    each before the first change): the ones read with the tournament when it was loaded with
    ``select_related("live")`` (:func:`scoring.web.decorators.tournament_view`: no query, and the
    same snapshot as the tournament's fields), else one query by primary key."""
    if Tournament.live.is_cached(tournament):
        live = Tournament.live.related.get_cached_value(tournament)
        return {name: getattr(live, name) if live is not None else None for name in live_state.TOURNAMENT_FIELDS}
    rows = TOURNAMENT_COUNTERS.rows([tournament.pk])
    return dict(zip(live_state.TOURNAMENT_FIELDS, rows[0] if rows else (None,) * len(live_state.TOURNAMENT_FIELDS), strict=True))


def round_state(request, tournament: Tournament, number: int):
    """A published round's page state, one query by primary keys: the round's id and status, its
    page counter (moved by a table's state, a finished table's score and the pairing, never by a
    hand in a table being played) and the tournament's :data:`PAGE_COUNTERS`. ``None`` for a draft
    or unknown round (the view decides and reads the round itself)."""
    rows = ROUND_COUNTERS.rows([tournament.pk, int(number)])
    if not rows or rows[0][1] == Round.Status.DRAFT:
        return None
    row = rows[0]
    counters = dict(zip(live_state.TOURNAMENT_FIELDS, row[4:], strict=True))
    return [*row[:3], *(counters[name] for name in PAGE_COUNTERS)]


#: What a result page's state reads of the result (whose every change bumps its ``version`` or
#: ``updated_at``): its state and round (status 6th), and the tournament's :data:`PAGE_COUNTERS`.
RESULT_FIELDS = ("version", "updated_at", "status", "ended", "round__number", "round__status",
                 *(f"round__tournament__live__{name}" for name in PAGE_COUNTERS))


def result_state(request, tournament: Tournament, pk: int, *, kind: ResultKind):
    """A result of a published round: its version, state and the tournament's counters, one
    query by primary keys; ``None`` for a draft round's result, an unknown one or another kind
    (the view decides)."""
    if kind is not kind_for(tournament.adapter):
        return None
    rows = RESULT_QUERY.rows([int(pk), tournament.pk], (kind.key,))
    if not rows or rows[0][5] == Round.Status.DRAFT:
        return None
    return list(rows[0])


def _result_query(pk: int, tournament_id: int, key: str):
    """:func:`result_state`'s row of result ``pk`` of the kind ``key`` in the tournament."""
    return (KINDS[key].container_model.objects.filter(pk=pk, round__tournament_id=tournament_id)
            .order_by().values_list(*RESULT_FIELDS)[:1])


#: :func:`_result_query` compiled once per process and kind of result (every poll reads it).
RESULT_QUERY = CompiledQuery(_result_query)


def standings_counters(tournament: Tournament) -> list:
    """The standings page's state, one query by primary key: the tournament's
    :data:`PAGE_COUNTERS` and its standings counter."""
    counters = tournament_counters(tournament)
    return [counters[name] for name in (*PAGE_COUNTERS, "standings_version")]
