"""The hall pages of a round (issue 23 items 2, 4, 5; docs/hall.md): the progress board (organisers
and head referees, :data:`~scoring.policy.Perm.VIEW_BOARD`) with time's up and closing the round,
the referee zones (organisers), claiming a table, and a side's call for a referee. Every write is
a service of :mod:`scoring.hall` (the same as the REST API's, :mod:`scoring.api.views.hall_board`).

The board polls itself (htmx, its ``#live`` region) and answers ``304 Not Modified`` when nothing
changed: its ETag is the board's state (:func:`scoring.hall.board.state`, one query) with who
looks, the path, the language and the code (:func:`board_etag`), as the public pages do
(:mod:`scoring.web.conditional`) but for a member.
"""
from __future__ import annotations

import hashlib
import json

from django import forms
from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.cache import get_conditional_response, patch_cache_control, patch_vary_headers, quote_etag
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import get_language, ngettext
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST

from scoring import tasks
from scoring.draw import rounds
from scoring.errors import ServiceError
from scoring.hall import board, calls, times_up, zones
from scoring.kinds import kind_for
from scoring.models import Round
from scoring.policy import Perm
from scoring.results import presenter
from scoring.web.conditional import VARYING_HEADERS, code_version, live_poll
from scoring.web.context import tournament_context
from scoring.web.decorators import actor_of, tournament_view, visible_result, visible_round
from scoring.web.views.public import live_seconds
from scoring.web.views.result_context import urls_of


def _round(tournament, number: int) -> Round:
    return get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)


def _back(request, default: str) -> str:
    """The ``next`` the form carried when it is a path of this site, else ``default``."""
    target = request.POST.get("next") or ""
    if target and url_has_allowed_host_and_scheme(target, allowed_hosts={request.get_host()}, require_https=request.is_secure()):
        return target
    return default


# --------------------------------------------------------------------------- the board


def board_etag(request, rnd: Round) -> str:
    """The board's ETag: its state (:func:`scoring.hall.board.state`), who looks (a member's page
    shows their actions), the path, the language, the CSRF cookie, the htmx headers and the code.
    Pages showing a message get none (:func:`board_page`): what they show is not in it."""
    parts = [board.state(rnd), request.user.pk, request.get_full_path(), get_language(),
             request.META.get("CSRF_COOKIE") or "", [request.headers.get(h, "") for h in VARYING_HEADERS],
             code_version()]
    return quote_etag(hashlib.sha1(json.dumps(parts, default=str).encode()).hexdigest())


def board_context(request, tournament, rnd: Round) -> dict:
    """What the board page and its live region show (the rows read in a fixed number of queries)."""
    kind = kind_for(tournament.adapter)
    rows = board.rows(rnd)
    for row in rows:
        row.totals_text = presenter.totals_text(tournament.adapter, row.totals)
        row.names = [side["name"] for side in row.sides if side["name"]]
        row.urls = {"detail": reverse(kind.url_name("detail"), args=[tournament.slug, row.pk]),
                    "enter": reverse(kind.url_name("enter"), args=[tournament.slug, row.pk])}
    call = times_up.current(rnd)
    return tournament_context(
        request, tournament, round=rnd, rows=rows, summary=board.summary(rows), times_up=call,
        unfinished=sorted(row.number for row in rows if row.unfinished), kind=kind, live_seconds=live_seconds(),
        stale_minutes=board.STALE_MINUTES, records_noun=tournament.adapter.record_noun)


@require_http_methods(["GET", "HEAD"])
@tournament_view(Perm.VIEW_BOARD)
def board_page(request, number, *, tournament):
    """The progress board of round ``number``: every table with its state, records, totals, time
    since the last record, disputes, referee and calls, most urgent first; polls itself, 304 when
    nothing changed. A page with a message waiting (the refusal to close, after a redirect) is
    always rendered and carries no ETag: a 304 would show the page kept from before, with its old
    message, and leave the new one unshown."""
    rnd = visible_round(request, tournament, number)
    live = live_poll(request)
    flash = not live and bool(len(messages.get_messages(request)))
    etag = board_etag(request, rnd)
    response = None if flash else get_conditional_response(request, etag=etag)
    if response is None:
        context = board_context(request, tournament, rnd)
        response = render(request, "hall/_board_live.html" if live else "hall/board.html", context)
        etag = board_etag(request, rnd)  # a first visit's new CSRF cookie
    if not flash:
        response["ETag"] = etag
    patch_cache_control(response, private=True, no_cache=True)
    patch_vary_headers(response, ("Cookie", "HX-Request", "HX-Target"))
    return response


@require_POST
@tournament_view(Perm.MANAGE)
def board_close(request, number, *, tournament):
    """Close the round from the board; refused while a table is not confirmed, and the message
    names them (:func:`scoring.draw.rounds.close_round`)."""
    rnd = _round(tournament, number)
    try:
        rounds.close_round(rnd, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _t("Round %(number)d closed.") % {"number": rnd.number})
    return redirect("scoring:round_board", tournament.slug, rnd.number)


# --------------------------------------------------------------------------- time's up


def _ended(n: int) -> str:
    """The message after time's up was applied: how many tables it ended."""
    return ngettext("Time's up: {n} table ended at the time limit.", "Time's up: {n} tables ended at the time limit.",
                    n).format(n=n)


class TimesUpForm(forms.Form):
    grace_minutes = forms.IntegerField(
        label=_("Minutes to finish the hand in play"), min_value=0, max_value=times_up.MAX_GRACE_MINUTES, initial=0,
        help_text=_("0: end now. Otherwise entry goes on until then and the tables are ended afterwards."))


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
def times_up_page(request, number, *, tournament):
    """Time's up, with a confirmation step: GET lists the tables it would end and what each would
    decide (:func:`scoring.hall.times_up.preview`); POST calls it (with the grace, if any)."""
    rnd = _round(tournament, number)
    form = TimesUpForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            call = times_up.call(rnd, request.user, grace_minutes=form.cleaned_data["grace_minutes"])
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            if call.applied:
                messages.success(request, _ended(len(call.ended)))
            else:
                queued = tasks.schedule_times_up(call)
                messages.success(request, _t("Time's up called: finish the hand in play. The tables are ended at {time}.")
                                 .format(time=_local(call.grace_until)) if queued else
                                 _t("Time's up called: finish the hand in play. Press “Apply now” at {time}.")
                                 .format(time=_local(call.grace_until)))
            return redirect("scoring:round_board", tournament.slug, rnd.number)
    context = tournament_context(request, tournament, round=rnd, form=form, pending=times_up.preview(rnd),
                                 times_up=times_up.current(rnd))
    return render(request, "hall/times_up.html", context, status=400 if form.errors else 200)


def _local(moment) -> str:
    return timezone.localtime(moment).strftime("%H:%M")


@require_POST
@tournament_view(Perm.MANAGE)
def times_up_apply(request, number, *, tournament):
    """"Apply now": end the unfinished tables of a called time's up (idempotent)."""
    rnd = _round(tournament, number)
    try:
        ended = times_up.apply(rnd, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _ended(len(ended)))
    return redirect("scoring:round_board", tournament.slug, rnd.number)


# --------------------------------------------------------------------------- zones and claims


class ZoneForm(forms.Form):
    tables = forms.CharField(label=_("Tables"), required=False, max_length=500,
                             help_text=_("Ranges or lists, e.g. 1-10, 14, 20-22. Empty: no tables."))
    take_over = forms.BooleanField(label=_("Take over tables that are in another referee's zone"), required=False)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
def zones_page(request, number, *, tournament):
    """The referees' zones of round ``number``: one form per referee (their tables as ranges);
    a bad zone is refused with the reason next to its field."""
    rnd = _round(tournament, number)
    people = zones.referees(tournament)
    have = zones.zones(rnd)
    claimed = {a.table for a in zones.assignments(rnd).values() if a.claimed}
    posted = request.POST.get("referee") if request.method == "POST" else None
    rows, status = [], 200
    for person in people:
        prefix = f"r{person.pk}"
        bound = posted == str(person.pk)
        form = ZoneForm(request.POST if bound else None, prefix=prefix,
                        initial={"tables": zones.format_tables(have.get(person.pk, []))})
        if bound and form.is_valid():
            try:
                numbers = zones.set_zone(rnd, person, form.cleaned_data["tables"], request.user,
                                         take_over=form.cleaned_data["take_over"])
            except ServiceError as exc:
                form.add_error("tables" if exc.field in ("tables", "") else None, str(exc))
                status = 400
            else:
                messages.success(request, _t("Zone of {name}: {tables}.").format(
                    name=person.get_username(), tables=zones.format_tables(numbers) or "–"))
                return redirect("scoring:round_zones", tournament.slug, rnd.number)
        rows.append({"user": person, "form": form, "tables": have.get(person.pk, []),
                     "claimed": sorted(set(have.get(person.pk, [])) & claimed)})
    context = tournament_context(request, tournament, round=rnd, rows=rows, table_count=zones.table_count(rnd))
    return render(request, "hall/zones.html", context, status=status)


@require_POST
@tournament_view(Perm.ENTER_RESULTS)
def claim_table(request, number, table, *, tournament):
    """A referee claims table ``table`` of round ``number``; back to where they came from."""
    rnd = _round(tournament, number)
    try:
        zones.claim(rnd, table, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _t("Table {number} is yours in this round.").format(number=table))
    return redirect(_back(request, reverse("scoring:my_tables")))


@require_POST
@tournament_view(Perm.ENTER_RESULTS)
def answer_call(request, number, table, *, tournament):
    """A referee marks the call for a referee at table ``table`` answered."""
    rnd = _round(tournament, number)
    calls.answer(rnd, table, request.user)
    messages.success(request, _t("The call at table {number} is answered.").format(number=table))
    return redirect(_back(request, reverse("scoring:my_tables")))


@require_POST
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def call_referee(request, pk, *, tournament, kind):
    """A side (through its private link) or a referee calls a referee to this table; back to the
    page the button was on. 403 for an entrant of another table."""
    container = visible_result(request, tournament, kind, pk)
    actor = actor_of(request)
    if not calls.may_call(actor, container):
        raise PermissionDenied
    try:
        _call, created = calls.call(container, actor)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _t("A referee is on the way.") if created else _t("A referee was called already."))
    return redirect(_back(request, urls_of(kind, tournament, container)["detail"]))
