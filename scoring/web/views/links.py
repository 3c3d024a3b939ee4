"""Private links on the pages (issue 15, ``docs/private-links.md``).

Entrants:

- ``/p/#<token>`` (:func:`open_link`): the address printed on the entrants' cards. The
  token is in the URL's *fragment*, which browsers never send to the server: it appears in no
  access log, proxy log or ``Referer``. The page's script (``static/js/link.js``) reads it,
  removes it from the address bar and posts it (a POST body is never logged); without a script,
  or when typing the code from the card, the same form is filled in by hand. The server resolves
  it (failed attempts rate-limited per client address, a working link per link), keeps the link in the phone's session
  (:func:`scoring.web.links.remember`) and redirects to the entrant's page, whose address holds
  no token.
- ``/t/<slug>/mine/`` (:func:`entrant_home`): the entrant's page: its table in the current round
  with what it may do there (enter, confirm, a dispute waiting), and its own matches or tables.
- ``/t/<slug>/mine/forget/`` (:func:`forget_link`): this phone lets go of the link.

Organisers (``/t/<slug>/links/...``): every entrant with its link's state; show a link (address
and QR code, to be scanned from the organiser's screen), regenerate, revoke; print every card
(:mod:`scoring.printing.cards`). The score sheets carry no private link (issue 22): a sheet lies
on the table for both sides.
"""
from __future__ import annotations

import qrcode
import qrcode.image.svg
from django.contrib import messages
from django.db.models import Q
from django.http import Http404
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _t
from django.views.decorators.cache import never_cache
from django.views.decorators.csrf import ensure_csrf_cookie
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring import policy
from scoring.errors import wait_phrase
from scoring.games.base import EntrantKind
from scoring.kinds import kind_for
from scoring.models import EntrantLink, Match, Round, Tournament
from scoring.participants import links
from scoring.printing import cards
from scoring.results import sheet
from scoring.results.sheet import Action
from scoring.web.context import tournament_context
from scoring.web.decorators import too_many_requests, tournament_view
from scoring.web.links import TooManyRequests, forget, held_links, open_attempt, remember
from scoring.web.views.checkins import checkin_card
from scoring.web.views.players import player_tables, team_matches
from scoring.web.views.printing import pdf_response
from scoring.web.views.public import current_round, live_seconds
from scoring.web.views.result_context import urls_of

#: What an entrant's page reads, per kind of entrant: its matches (Tai Pan) or tables.
OWN_RESULTS = {
    EntrantKind.TEAMS: lambda request, t, link: team_matches(request, t, link.team),
    EntrantKind.PLAYERS: lambda request, t, link: player_tables(request, t, link.player),
}
#: The entrant's result in a round, per kind of entrant.
OWN_RESULT = {
    EntrantKind.TEAMS: lambda rnd, link: Match.objects.with_teams().filter(Q(team_ns=link.team_id) | Q(team_ew=link.team_id),
                                                                           round=rnd).first(),
    EntrantKind.PLAYERS: lambda rnd, link: kind_for(rnd.tournament.adapter).queryset().filter(
        round=rnd, seats__player=link.player_id).first(),
}
#: Templates of the entrant's list of results (the team page's and the player page's own parts).
OWN_TEMPLATES = {EntrantKind.TEAMS: "links/_team_matches.html", EntrantKind.PLAYERS: "links/_player_tables.html"}


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


def _no_store(response):
    """Pages that show or take a token are never cached (nor kept by the browser's history cache).
    (Their ``Referer`` stays the site's ``same-origin``: a fragment is never in it, and
    ``no-referrer`` would make the browser send ``Origin: null``, which the CSRF check refuses.)"""
    response["Cache-Control"] = "no-store"
    return response


# --------------------------------------------------------------------------- entrants


@never_cache
@ensure_csrf_cookie
@require_http_methods(["GET", "POST"])
def open_link(request):
    """The address of a private link (``/p/#<token>``): GET is the page whose script posts the
    token from the fragment (or where the code is typed); POST resolves it, keeps the link in the
    session and redirects to the entrant's page. A right code always opens (limited per link,
    ``settings.LINK_RATE``); wrong codes from one client address beyond a few an hour are answered
    429 with a growing delay, the form shown again (:func:`scoring.web.links.open_attempt`)."""
    error = ""
    status = 200
    if request.method == "POST" and not links.normalise(request.POST.get("code", "")):
        # Nothing typed: not a wrong code (and not counted as one).
        error = _t("Type the code from your card first.")
        status = 400
    elif request.method == "POST":
        try:
            link = open_attempt(request, request.POST.get("code", ""))
        except links.TooManyFailures as exc:
            # A wrong code after many from this network: the form again, to type the right one
            # (which opens at once), with how long a wrong one is refused.
            error = _t("Too many wrong codes from this network. Check the code on your card and type it again: "
                       "the right code opens at once. Otherwise wait %(wait)s.") % {"wait": wait_phrase(exc.retry_after)}
            response = render(request, "links/open.html", {"error": error, "held": held_links(request)}, status=429)
            response["Retry-After"] = str(exc.retry_after)
            return _no_store(response)
        except TooManyRequests as exc:
            return too_many_requests(request, exc)
        if link is not None:
            remember(request, link)
            return redirect("scoring:entrant_home", link.tournament.slug)
        error = _t("This link does not work: it was typed wrong, or the organiser made a new one. Ask the organiser "
                   "for your card.")
        status = 400
    response = render(request, "links/open.html", {"error": error, "held": held_links(request)}, status=status)
    return _no_store(response)


def _current(tournament: Tournament, link: EntrantLink):
    """The entrant's result in the current round (latest published or running one) with what the
    entrant may do there, or ``None``."""
    rnd = current_round(list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number")))
    if rnd is None:
        return None
    container = OWN_RESULT[tournament.adapter.entrants](rnd, link)
    if container is None:
        return None
    container.round = rnd
    return container


@require_safe
@tournament_view()
def entrant_home(request, *, tournament):
    """The entrant's own page (reached through its private link, no account): its table in the
    current round with the actions it may take there, and its own matches or tables. Visitors
    without the tournament's link are told how to open it. Until the tournament is finished the
    table card re-reads itself (``poll``, every :func:`~scoring.web.views.public.live_seconds`),
    also before a round is published and between rounds, so the table of a round just published
    appears without a reload (with the announcement that says "find your table")."""
    actor = request.actor
    if not policy.is_entrant(actor):
        return render(request, "links/no_link.html", tournament_context(request, tournament), status=403)
    link = actor.link
    kind = tournament.adapter.entrants
    results, next_table = OWN_RESULTS[kind](request, tournament, link)
    container = _current(tournament, link)
    current = None
    if container is not None and not kind_for(tournament.adapter).is_bye(container):
        rs = sheet.load(container)
        entering = rs.entering_links
        current = {
            "container": container,
            "urls": urls_of(rs.kind, tournament, container),
            "can_add": rs.allows(Action.ADD, actor),
            "can_confirm": rs.allows(Action.CONFIRM, actor),
            "we_enter": bool(entering) and entering[0] == actor.link_id,
            "they_enter": bool(entering) and entering[0] != actor.link_id,
            "disputes": rs.open_disputes,
            # Verification per hand: the records this side may acknowledge now, and all pending ones.
            "to_acknowledge": len(rs.acknowledgeable(actor)),
            "pending": sum(1 for r in rs.records if not r.is_acknowledged) if tournament.verifies_each_record else 0,
            "record_disputes": rs.open_record_disputes if tournament.verifies_each_record else [],
        }
    context = tournament_context(request, tournament, link=link, entrant=actor, results=results, next_table=next_table,
                                 current=current, own_template=OWN_TEMPLATES[kind], checkin=checkin_card(tournament, actor),
                                 poll=tournament.status != Tournament.Status.FINISHED, live_seconds=live_seconds())
    return render(request, "links/home.html", context)


@require_POST
@tournament_view()
def forget_link(request, *, tournament):
    """This phone lets go of the tournament's link (the link keeps working elsewhere)."""
    forget(request, tournament.pk)
    messages.info(request, _t("This phone no longer holds your link. Scan your card to open it again."))
    return redirect(tournament.get_absolute_url())


# --------------------------------------------------------------------------- organisers


@never_cache
@require_safe
@tournament_view(policy.Perm.MANAGE)
def links_page(request, *, tournament):
    """Every entrant with its private link's state (active or revoked, since when) and the
    actions: show, regenerate, revoke; the cards; which paper carries what."""
    rows = links.ensure_links(tournament)
    rnd = current_round(list(tournament.rounds.order_by("number")))
    context = tournament_context(request, tournament, rows=rows, round=rnd)
    return render(request, "links/organiser.html", context)


def _link(tournament: Tournament, pk: int) -> EntrantLink:
    return get_object_or_404(EntrantLink.objects.select_related("team", "player"), tournament=tournament, pk=pk)


@require_safe
@tournament_view(policy.Perm.MANAGE)
def link_detail(request, pk, *, tournament):
    """One entrant's link (its address, code and QR code) for the organiser to show or send."""
    link = _link(tournament, pk)
    url = links.url_of(link, _base_url(request))
    svg = qrcode.make(url, image_factory=qrcode.image.svg.SvgPathImage, box_size=10, border=2).to_string(encoding="unicode")
    context = tournament_context(request, tournament, link=link, url=url, code=links.grouped(links.token_of(link)), svg=svg)
    return _no_store(render(request, "links/detail.html", context))


@require_POST
@tournament_view(policy.Perm.MANAGE)
def link_action(request, pk, action, *, tournament):
    """Regenerate (a new token; the old one and every phone holding it stop working) or revoke a
    link."""
    link = _link(tournament, pk)
    if action == "regenerate":
        links.regenerate(link)
        messages.success(request, _t("%(entrant)s has a new link; the old one no longer works. Print the card again.")
                         % {"entrant": link.entrant})
    elif action == "revoke":
        links.revoke(link)
        messages.success(request, _t("The link of %(entrant)s no longer works.") % {"entrant": link.entrant})
    else:
        raise Http404
    return redirect(reverse("scoring:links", args=[tournament.slug]) + f"#link-{link.pk}")


@never_cache
@require_safe
@tournament_view(policy.Perm.MANAGE)
def link_cards(request, *, tournament):
    """Every entrant's card (name, QR code and code of its private link) as a PDF."""
    data = cards.entrant_cards_pdf(tournament, base_url=_base_url(request))
    return _no_store(pdf_response(data, f"{tournament.slug}-cards.pdf"))
