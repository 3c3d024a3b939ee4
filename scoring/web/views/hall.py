"""The hall on the pages (docs/hall.md): the round clock and the announcements.

- ``{% hall_bar %}`` (:mod:`scoring.templatetags.hall`, in ``templates/base.html``) shows them on
  the pages of :data:`HALL_PAGES` (big on the projector views, small elsewhere; on "Mijn tafels" one
  bar per tournament of the context's ``hall_tournaments``) through :func:`bar_items`;
- ``clock.json`` (:func:`clock_json`): the current round's clock with the server's time, read by
  ``static/js/clock.js`` at load, every 30 s, on reconnect and when the page is shown again;
  ``Cache-Control: no-store``;
- ``hall/`` (:func:`hall_news`): the announcements region, polled by htmx with ETags (a poll that
  finds nothing new is a 304, :mod:`scoring.web.conditional`);
- the organisers' clock buttons (:func:`clock_action`, on the round page) and the announcements
  page (:func:`announcements_page`, :func:`announcement_withdraw`), through the services of
  :mod:`scoring.hall`.
"""
from __future__ import annotations

import math
from datetime import timedelta

from django import forms
from django.contrib import messages
from django.http import Http404, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring.errors import ServiceError
from scoring.hall import announcements, clock
from scoring.kinds import KINDS
from scoring.models import ANNOUNCEMENT_MAX_LENGTH, Announcement, Round, RoundClock, Tournament
from scoring.policy import Perm
from scoring.web.conditional import conditional, tournament_counters
from scoring.web.context import tournament_context
from scoring.web.decorators import tournament_view
from scoring.web.views.public import live_seconds

#: The pages showing the hall bar (besides any page with ``projector`` or ``hall_tournaments`` in
#: its context): the entry pages, the private-link page, "Mijn tafels", the progress board and the
#: time's up page (those two check their own permission).
HALL_PAGES = frozenset({"entrant_home", "my_tables", "round_board", "round_times_up", *(kind.url_names["enter"] for kind in KINDS.values())})
#: Pages showing the hall bar to organisers only (the round page, with the clock's buttons).
ORGANISER_PAGES = frozenset({"round_pairings", "round_tables", "announcements"})


def bar_item(tournament: Tournament, *, big: bool = False) -> dict:
    """What the hall bar shows of ``tournament`` (two queries): ``clock`` (the current round's
    :func:`scoring.hall.clock.state`, or ``None``), ``minutes_left`` (rounded up, for pages
    without JavaScript), ``news`` (the active announcements), the URLs and ``big``."""
    now = timezone.now()
    rnd = clock.current_round(tournament)
    state = clock.state(clock.clock_of(rnd), now) if rnd is not None else None
    return {
        "tournament": tournament, "big": big, "clock": state, "news": announcements.active(tournament, now),
        "minutes_left": math.ceil(state["remaining"] / 60) if state else None,
        "clock_url": _url("scoring:hall_clock", tournament), "news_url": _url("scoring:hall_news", tournament),
        "poll_seconds": live_seconds(),
    }


def _url(name: str, tournament: Tournament) -> str:
    return reverse(name, args=[tournament.slug])


def bar_items(context) -> list[dict]:
    """The hall bars of a page: one per tournament of ``hall_tournaments`` in the context, else
    the context's ``tournament`` on a projector view, a page of :data:`HALL_PAGES` or, for
    organisers, of :data:`ORGANISER_PAGES`; none elsewhere."""
    many = context.get("hall_tournaments")
    if many:
        return [bar_item(t) for t in many]
    tournament, request = context.get("tournament"), context.get("request")
    if not isinstance(tournament, Tournament) or not tournament.pk:
        return []
    match = getattr(request, "resolver_match", None)
    if context.get("projector"):
        return [bar_item(tournament, big=True)]
    if match is not None and (match.url_name in HALL_PAGES
                              or (match.url_name in ORGANISER_PAGES and context.get("can_organise"))):
        return [bar_item(tournament)]
    return []


#: The extend buttons on the round page, in minutes.
EXTEND_STEPS = (-5, -1, 1, 5)


def controls(context) -> dict | None:
    """The clock buttons' context for the round page: ``state`` and ``described`` of the context
    ``round``'s clock and the ``steps`` (:data:`EXTEND_STEPS`), or ``None`` when the user is not an
    organiser or the round is not open. ``described`` of a running clock is only "running" (the
    hall bar above counts down live); paused and not started say the time left, which stands still."""
    rnd = context.get("round")
    if not context.get("can_organise") or not isinstance(rnd, Round) or not rnd.is_open:
        return None
    now = timezone.now()
    the_clock = clock.clock_of(rnd)
    # A running clock's time left is the hall bar's live count (clock.js), not a number frozen here.
    running = the_clock.status == RoundClock.Status.RUNNING
    described = str(the_clock.get_status_display()).lower() if running else clock.describe(the_clock, now)
    return {"state": clock.state(the_clock, now), "described": described, "steps": EXTEND_STEPS}


def _no_store(response):
    response["Cache-Control"] = "no-store"
    return response


@require_safe
@tournament_view()
def clock_json(request, *, tournament):
    """The current round's clock (:func:`scoring.hall.clock.state`: the server's time, the state,
    the remaining seconds), or ``{"status": "none", ...}`` without a current round. Never cached."""
    rnd = clock.current_round(tournament)
    if rnd is None:
        now = timezone.now()
        return _no_store(JsonResponse({"status": "none", "round": None, "server_ms": int(now.timestamp() * 1000),
                                       "server_time": now.isoformat(), "remaining": 0, "version": None}))
    return _no_store(JsonResponse(clock.state(clock.clock_of(rnd))))


def news_state(request, tournament: Tournament):
    """The ETag state of the announcements region: the active announcements (ids, in one query;
    expired ones drop out as time passes), the tournament's hall counter (a clock's change among
    others: the clock script reads it again when it changed) and its own counter (a round
    published or closed: which round's clock is shown; :mod:`scoring.live.state`)."""
    ids = list(Announcement.objects.filter(tournament=tournament).active().values_list("pk", flat=True))
    counters = tournament_counters(tournament)
    return [ids, counters["epoch"], counters["hall_version"], counters["tournament_version"], request.GET.get("big", "")]


@require_safe
@tournament_view()
@conditional(news_state)
def hall_news(request, *, tournament):
    """The announcements region of the hall bar (``?big=1``: the projector's), polled by htmx."""
    return render(request, "hall/_news.html", {"item": bar_item(tournament, big=request.GET.get("big") == "1")})


@require_POST
@tournament_view(Perm.MANAGE)
def clock_action(request, number, action, *, tournament):
    """Start, pause, resume or extend (``minutes``) round ``number``'s clock, with the ``version``
    the page showed; back to the round page with the outcome as a message."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)
    version = request.POST.get("version")
    done = {"start": _("Clock started."), "pause": _("Clock paused."), "resume": _("Clock resumed."),
            "extend": _("Clock changed.")}
    if action not in done:
        raise Http404
    try:
        if action == "extend":
            clock.extend(rnd, request.user, minutes=request.POST.get("minutes"), version=version)
        else:
            clock.ACTIONS[action](rnd, request.user, version=version)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, str(done[action]))
    return redirect("scoring:round_pairings", tournament.slug, rnd.number)


class AnnouncementForm(forms.Form):
    """An organiser's announcement: the text and, optionally, for how many minutes it is shown."""

    text = forms.CharField(label=_("Announcement"), max_length=ANNOUNCEMENT_MAX_LENGTH,
                           widget=forms.Textarea(attrs={"rows": 2, "maxlength": ANNOUNCEMENT_MAX_LENGTH}))
    minutes = forms.IntegerField(label=_("Show for (minutes)"), required=False, min_value=1,
                                 max_value=announcements.MAX_DAYS * 24 * 60,
                                 help_text=_("Empty: until you withdraw it."))


@require_http_methods(["GET", "HEAD", "POST"])
@tournament_view(Perm.MANAGE)
def announcements_page(request, *, tournament):
    """The organisers' announcements: post one, see the active ones and withdraw them."""
    form = AnnouncementForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        minutes = form.cleaned_data.get("minutes")
        ends_at = timezone.now() + timedelta(minutes=minutes) if minutes else None
        try:
            announcements.post(tournament, request.user, text=form.cleaned_data["text"], ends_at=ends_at)
        except ServiceError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        else:
            messages.success(request, _t("Announcement posted."))
            return redirect("scoring:announcements", tournament.slug)
    recent = Announcement.objects.filter(tournament=tournament).select_related("author")[:30]
    return render(request, "hall/announcements.html", tournament_context(
        request, tournament, form=form, active_ids={a.pk for a in announcements.active(tournament)}, recent=recent))


@require_POST
@tournament_view(Perm.MANAGE)
def announcement_withdraw(request, pk, *, tournament):
    """Withdraw an announcement; back to the announcements page."""
    try:
        announcements.withdraw(get_object_or_404(Announcement, pk=pk, tournament=tournament), request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _t("Announcement withdrawn."))
    return redirect("scoring:announcements", tournament.slug)
