"""Check-in pages (issue 23 item 3; docs/hall.md "Check-in"): the organiser's searchable list
(tick and untick with big buttons, htmx search as you type, "38 of 40 checked in"), the
entrant's one tap on its private-link page, and the no-show page of a drawn round. Every write
goes through :mod:`scoring.participants.checkins` or :mod:`scoring.draw.noshow`."""
from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import PermissionDenied
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring import policy
from scoring.draw import noshow
from scoring.errors import ServiceError
from scoring.games.base import EntrantKind
from scoring.kinds import kind_for
from scoring.models import Player, Round
from scoring.params import whole_number
from scoring.participants import checkins
from scoring.policy import Perm
from scoring.web.context import tournament_context
from scoring.web.decorators import tournament_view


def _number(raw) -> int | None:
    return whole_number(str(raw or "").strip()) if raw not in (None, "") else None


def _list_context(request, tournament, number: int | None = None) -> dict:
    q = (request.GET.get("q") or request.POST.get("q") or "")[:100]
    listing = checkins.checkin_list(tournament, number, query=q)
    latest = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return tournament_context(request, tournament, listing=listing, q=q, latest_round=latest)


@require_safe
@tournament_view(Perm.MANAGE)
def checkin_list(request, *, tournament):
    """The organiser's check-in list of the next round to draw (``?round=N``: the draft round
    N), searched by ``?q=`` (htmx: only the rows and the count are swapped)."""
    number = _number(request.GET.get("round"))
    ctx = _list_context(request, tournament, number)
    template = "participants/_checkin_rows.html" if request.htmx else "participants/checkin.html"
    return render(request, template, ctx)


@require_POST
@tournament_view(Perm.MANAGE)
def checkin_toggle(request, pk, *, tournament):
    """Tick (``present=1``) or untick (``present=0``) entrant ``pk`` for ``round``; htmx gets the
    rows and the count back, a plain form a redirect with a message."""
    present = request.POST.get("present") == "1"
    number = _number(request.POST.get("round"))
    try:
        out = checkins.set_checkin(tournament, request.user, pk, present, round_number=number)
    except ServiceError as exc:
        if request.htmx:
            ctx = _list_context(request, tournament, number)
            ctx["error"] = str(exc)
            return render(request, "participants/_checkin_rows.html", ctx, status=409)
        messages.error(request, str(exc))
        return redirect("scoring:checkin", tournament.slug)
    if request.htmx:
        return render(request, "participants/_checkin_rows.html", _list_context(request, tournament, out.round_number))
    if out.drawn:
        messages.warning(request, _t("Round %(number)d is a draft already: pair (seat) it again to use this check-in.")
                         % {"number": out.round_number})
    return redirect("scoring:checkin", tournament.slug)


@require_POST
@tournament_view()
def entrant_checkin(request, *, tournament):
    """The entrant's one tap on its private-link page: check in (``present=1``) or undo
    (``present=0``) for the round shown on the page (``round``)."""
    actor = request.actor
    if not policy.is_entrant(actor):
        raise PermissionDenied
    entrant_id = actor.team_id or actor.player_id
    try:
        out = checkins.set_checkin(tournament, actor, entrant_id, request.POST.get("present") != "0",
                                   round_number=_number(request.POST.get("round")))
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        if out.present:
            messages.success(request, _t("You are checked in for round %(number)d.") % {"number": out.round_number})
        else:
            messages.info(request, _t("Your check-in for round %(number)d is undone.") % {"number": out.round_number})
    return redirect("scoring:entrant_home", tournament.slug)


def checkin_card(tournament, actor) -> dict | None:
    """What the entrant's page shows about check-in (``None`` when check-in is off):
    ``{"number", "checked_in", "registered"}`` for the next round to draw, only between rounds
    (:func:`scoring.participants.checkins.entrant_checkin_open`, the rule the service applies);
    mid-round ``{"number", "closed": "Check-in for round N opens when ..."}``, a small note."""
    if not tournament.checkin_required:
        return None
    number = checkins.open_round(tournament)
    if not checkins.entrant_checkin_open(tournament):
        return {"number": number, "closed": checkins.entrant_closed_text(tournament)}
    entrant = actor.link.entrant
    return {"number": number, "checked_in": checkins.is_checked_in(tournament, entrant, number),
            "registered": checkins.is_registered(tournament, entrant, number)}


#: The no-show rule per kind of entrants (:mod:`scoring.draw.noshow`): a forfeit or a bye for the
#: team that is there, or a substitute in the seat.
NO_SHOW = {
    EntrantKind.TEAMS: lambda c, actor, absent, _sub, reason, rule: noshow.match_no_show(
        c, actor, absent_team_id=absent, reason=reason, rule=rule),
    EntrantKind.PLAYERS: lambda c, actor, absent, sub, reason, _rule: noshow.table_no_show(
        c, actor, absent_player_id=absent, substitute_id=sub, reason=reason),
}
#: The entrants at a result: ``[(id, name)]``.
SIDES = {
    EntrantKind.TEAMS: lambda m: [(m.team_ns_id, m.team_ns.name), (m.team_ew_id, m.team_ew.name)],
    EntrantKind.PLAYERS: lambda t: [(s.player_id, s.player.name) for s in t.seats.select_related("player").order_by("seat")],
}
#: Whether a substitute is chosen (four-player tables).
SUBSTITUTES = {EntrantKind.TEAMS: False, EntrantKind.PLAYERS: True}


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
def no_show(request, number, *, tournament):
    """The no-show rule of a drawn round (:mod:`scoring.draw.noshow`): per match (table) that has
    not started, record who did not show up and why; a match becomes a forfeit win or a bye for
    the team that is there, at a table of four a substitute takes the seat."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    kind = kind_for(tournament.adapter)
    error = ""
    if request.method == "POST":
        container = get_object_or_404(kind.container_model, round=rnd, pk=_number(request.POST.get("result")) or 0)
        container.round = rnd
        absent = _number(request.POST.get("absent")) or 0
        reason = request.POST.get("reason", "")
        try:
            NO_SHOW[tournament.adapter.entrants](container, request.user, absent, _number(request.POST.get("substitute")) or 0,
                                                 reason, request.POST.get("rule", noshow.FORFEIT))
        except ServiceError as exc:
            error = str(exc)
        else:
            messages.success(request, _t("The no-show is recorded."))
            return redirect("scoring:no_show", tournament.slug, rnd.number)
    side_of = SIDES[tournament.adapter.entrants]
    results = [{"container": c, "number": kind.number(c), "sides": side_of(c), "started": c.status != c.Status.PENDING,
                "decided": kind.decided_without_records(c)}
               for c in kind.queryset().filter(round=rnd).order_by(kind.number_field) if not kind.is_bye(c)]
    seated = Player.objects.filter(seats__table__round=rnd).values_list("pk", flat=True)
    substitutes = list(tournament.players.exclude(pk__in=list(seated)).order_by("-is_substitute", "name")) \
        if SUBSTITUTES[tournament.adapter.entrants] else []
    ctx = tournament_context(request, tournament, round=rnd, results=results, substitutes=substitutes, error=error,
                             rules=not SUBSTITUTES[tournament.adapter.entrants])
    return render(request, "rounds/no_show.html", ctx, status=400 if error else 200)
