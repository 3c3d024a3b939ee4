"""Season pages (issue 26 item 3, docs/players.md "Season ranking"): the list of seasons, a
season's ranking (also as projector view, ``?projector=1``, PDF and CSV/XLSX export) and the
managers' create and edit pages.

**Live.** The ranking page polls itself (``static/js/live.js``'s poll fallback, ``{% live_attrs %}``
without a tournament's event stream) and answers ``304 Not Modified`` until something it shows
changed: its ETag (:func:`season_state`) covers the season's own fields and, per tournament of
the season, its status and live counters (:class:`~scoring.models.LiveState`: the standings, the
entrants and the tournament itself), and the persons' last change (names), in two queries
whatever the number of tournaments; plus the URL, language, CSRF cookie and code as every
conditional page (:mod:`scoring.web.conditional`). Only anonymous visitors get 304s.

**Query count.** The ranking reads every finished tournament's places in one query
(:mod:`scoring.standings.final_places`), so the page's queries do not grow with the number of
finished tournaments (tests/seasons/test_pages.py asserts it).
"""
from __future__ import annotations

import hashlib
import json

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied, ValidationError
from django.db.models import Count, Max
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers, quote_etag
from django.utils.text import slugify
from django.utils.translation import get_language
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_http_methods, require_safe

from scoring import policy
from scoring.errors import StaleVersion
from scoring.io.season_export import season_dataset
from scoring.locking import parse_version
from scoring.models import Person, Season, Tournament
from scoring.participants import persons
from scoring.printing.seasons import cell_text
from scoring.printing.seasons import season_pdf as build_season_pdf
from scoring.seasons.manage import save_season
from scoring.seasons.ranking import points_text, ranking
from scoring.web.conditional import VARYING_HEADERS, code_version, eligible, live_poll, render_live
from scoring.web.forms.seasons import SeasonForm
from scoring.web.views.printing import pdf_response
from scoring.web.views.public import EXPORT_FORMATS, export_response, live_seconds, mark_screen, projector_page

#: The URL names a person's profile may have (built by another part of issue 26).
PROFILE_URLS = ("scoring:person_profile", "person_profile")


def profile_url(person_id: int) -> str | None:
    """The URL of a person's profile page (``/people/<pk>/``), or ``None`` when there is none."""
    for name in PROFILE_URLS:
        try:
            return reverse(name, args=[person_id])
        except NoReverseMatch:
            continue
    return None


def season_state(season: Season) -> list:
    """What the ranking page shows, cheaply (two queries): the season's fields, each tournament's
    status and live counters, and the persons' count and last change."""
    counters = list(Tournament.objects.filter(seasons=season).order_by("pk").values_list(
        "pk", "status", "name", "starts_on", "public_names", "live__epoch", "live__tournament_version",
        "live__standings_version", "live__entrants_version"))
    people = Person.objects.filter(entries__tournament__seasons=season).aggregate(n=Count("pk"), t=Max("updated_at"))
    return [season.pk, season.updated_at, counters, people]


def _etag(request, season: Season, state) -> str:
    parts = [state, request.get_full_path(), get_language(), request.META.get("CSRF_COOKIE") or "",
             [request.headers.get(h, "") for h in VARYING_HEADERS], code_version()]
    return quote_etag(hashlib.sha1(json.dumps(parts, default=str).encode()).hexdigest())


def _season(slug: str) -> Season:
    return get_object_or_404(Season.objects.select_related("created_by"), slug=slug)


@require_safe
def season_list(request):
    """Every season, newest first; a "new season" button for organisers."""
    seasons = Season.objects.annotate(n=Count("tournaments"))
    return render(request, "seasons/list.html", {"seasons": seasons, "can_create": policy.can_create_season(request.user)})


def _rows(result, request) -> list[dict]:
    """The ranking's rows for the template: rank, name, profile link, points, cells."""
    rows = []
    for row in result.rows:
        cells = [{"text": cell_text(c), "dropped": c is not None and not c.provisional and not c.counted,
                  "provisional": c is not None and c.provisional, "place": c.place if c else None} for c in row.cells]
        rows.append({"rank": row.rank, "name": row.name, "url": profile_url(row.person_id), "total": points_text(row.total),
                     "played": row.played, "cells": cells})
    return rows


@require_safe
def season_detail(request, slug):
    """A season's ranking (:func:`scoring.seasons.ranking.ranking`). ``?projector=1``: big type,
    every row paged through screen by screen. Conditional GET and live polls: module docstring."""
    season = _season(slug)
    state = None
    if eligible(request):
        state = season_state(season)
        etag = _etag(request, season, state)
        response = get_conditional_response(request, etag=etag)
        if response is not None:
            response["ETag"] = etag
            response._csp_exempt = True
            patch_cache_control(response, private=True, no_cache=True)
            return response
    result = ranking(season)
    rows = _rows(result, request)
    projector = projector_page(request, len(rows))
    mark_screen(rows, projector)
    context = {"season": season, "ranking": result, "rows": rows, "projector": projector, "live_seconds": live_seconds(),
               "can_manage": policy.can_manage_season(request.user, season), "live_poll": live_poll(request)}
    response = render_live(request, "seasons/detail.html", "seasons/_live.html", context)
    if state is not None:
        response["ETag"] = _etag(request, season, state)  # a first visit's new CSRF cookie
        patch_cache_control(response, private=True, no_cache=True)
        patch_vary_headers(response, ("Cookie",))
    patch_vary_headers(response, ("HX-Request", "HX-Target"))
    return response


@require_safe
def season_pdf(request, slug):
    """The ranking as a PDF (:mod:`scoring.printing.seasons`)."""
    season = _season(slug)
    return pdf_response(build_season_pdf(ranking(season)), f"{slugify(season.slug)}-ranking.pdf")


@require_safe
def season_export(request, slug):
    """The federation export (:mod:`scoring.io.season_export`) as CSV or XLSX (``?format=``):
    public names for everyone; ``?full=1``: full names, managers only, and the federation numbers
    the user may see (:func:`scoring.participants.persons.visible_numbers`)."""
    season = _season(slug)
    full = request.GET.get("full") == "1"
    if full and not policy.can_manage_season(request.user, season):
        raise PermissionDenied
    fmt = request.GET.get("format", "csv").lower()
    if fmt not in EXPORT_FORMATS:
        raise Http404(_t("Unknown export format."))
    name = f"{slugify(season.slug)}-ranking" + ("-full" if full else "")
    result = ranking(season)
    # A federation number only for whoever may see it (one rule, docs/players.md "Privacy"):
    # staff, or an organiser of a tournament whose entry carries it.
    shown = persons.visible_numbers(request.user, [row.federation_number for row in result.rows]) if full else set()
    return export_response(season_dataset(result, full=full, numbers_shown=shown), fmt, name)


def _form_page(request, season: Season | None):
    """The create/edit form; an edit carries the season's version (a stale one is a form error)."""
    form = SeasonForm(request.POST if request.method == "POST" else None, user=request.user, season=season)
    if request.method == "POST" and form.is_valid():
        try:
            version = None if season is None else parse_version(form.cleaned_data.get("version"))
            season = save_season(season, request.user, form.data_for_service(), expected_version=version)
        except StaleVersion as exc:
            form.add_error(None, exc.message)
        except ValidationError as exc:
            for field, errors in exc.message_dict.items():
                for error in errors:
                    form.add_error(field if field in form.fields else None, error)
        else:
            messages.success(request, _t("Season saved."))
            return redirect("scoring:season_detail", season.slug)
    return render(request, "seasons/form.html", {"form": form, "season": season})


@login_required
@require_http_methods(["GET", "POST"])
def season_create(request):
    """Create a season (organisers of a tournament; :func:`scoring.policy.can_create_season`)."""
    if not policy.can_create_season(request.user):
        raise PermissionDenied
    return _form_page(request, None)


@login_required
@require_http_methods(["GET", "POST"])
def season_edit(request, slug):
    """Edit a season (its managers; :func:`scoring.policy.can_manage_season`)."""
    season = _season(slug)
    if not policy.can_manage_season(request.user, season):
        raise PermissionDenied
    return _form_page(request, season)


