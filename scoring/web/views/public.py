"""Public, read-only pages (no login): tournament list and overview, a round's tables (pairings or
seatings), the standings (also a projector view), a team's tie-break breakdown, and CSV/XLSX
exports. Draft rounds are visible to the tournament's organisers only (:mod:`scoring.policy`).
The numbers come from the standings and the result sheet; nothing is computed here."""
from __future__ import annotations

from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils.text import slugify
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_safe

from scoring import policy
from scoring.draw.rounds import draft_warnings
from scoring.games.base import EntrantKind
from scoring.io import datasets
from scoring.models import Round, Team, Tournament
from scoring.policy import Perm
from scoring.results.storage import storage_for
from scoring.standings import standings_for, standings_key
from scoring.standings import teams as team_standings_service
from scoring.standings.tiebreaks import NSKT_DEFAULT, REGISTRY
from scoring.web.conditional import conditional, round_state
from scoring.web.context import ENTRANT_PAGES, tournament_context
from scoring.web.decorators import tournament_view, visible_round
from scoring.web.listings import PlayerStandingsTable, standings_listing
from scoring.web.views.results import urls_of

#: Export formats: ``?format=`` value -> (content type, file extension).
EXPORT_FORMATS = datasets.FORMATS

#: Projector view: rows per screen (``?rows=N`` overrides, 5..200) and seconds per screen.
PROJECTOR_ROWS = 20
PROJECTOR_SECONDS = 30


def int_param(request, name: str, default: int | None = None, *, low: int = 0, high: int = 10_000) -> int | None:
    """Query parameter ``name`` as an int within ``low..high``; ``default`` when absent or not a
    plain ASCII number (``"²"``, ``"-1"``, ``"x"``), so a bad value never raises."""
    raw = request.GET.get(name, "")
    if not (raw.isascii() and raw.isdigit() and len(raw) <= 6):
        return default
    return min(max(int(raw), low), high)


def projector_page(request, items: list) -> tuple[list, dict | None]:
    """For ``?projector=1``: the slice of ``items`` shown on this screen and the projector context
    (``page``, ``pages``, ``next_url``: the page the auto-refresh goes to, cycling back to the
    first). Without ``?projector=1``: ``(items, None)``."""
    if request.GET.get("projector") != "1":
        return items, None
    per_page = int_param(request, "rows", PROJECTOR_ROWS, low=5, high=200)
    pages = max(1, -(-len(items) // per_page))
    page = int_param(request, "page", 1, low=1, high=pages)
    query = request.GET.copy()
    query["page"] = str(page % pages + 1)
    info = {"page": page, "pages": pages, "seconds": PROJECTOR_SECONDS, "next_url": "?" + query.urlencode()}
    return items[(page - 1) * per_page: page * per_page], info


def tiebreak_descriptions(tournament: Tournament) -> list[dict]:
    """The tournament's tie-breaks in order: ``[{"key", "label", "byes"}]`` (``byes``: how the
    tie-break treats byes and withdrawals). An empty setting means the NSKT default order."""
    out = []
    for key in tournament.tiebreaks or NSKT_DEFAULT:
        cls = REGISTRY.get(key)
        out.append({"key": key, "label": getattr(cls, "label", key), "byes": getattr(cls, "byes_and_withdrawals", "")})
    return out


def _visible_rounds(request, tournament: Tournament):
    rounds = tournament.rounds.all()
    if not policy.has_perm(request.user, Perm.VIEW_DRAFTS, tournament):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds


@require_safe
def tournament_list(request):
    """All tournaments, newest first."""
    tournaments = Tournament.objects.all()
    can_create = request.user.is_authenticated and (request.user.is_staff or request.user.has_perm("scoring.add_tournament"))
    return render(request, "tournaments/list.html", {"tournaments": tournaments, "can_create": can_create})


@require_safe
@tournament_view()
def tournament_detail(request, *, tournament):
    """A tournament's overview: rounds (drafts only for organisers) with their table counts, and
    links to pairings, standings and, for members, the organiser and referee pages."""
    storage = storage_for(tournament.adapter)
    rounds = _visible_rounds(request, tournament).annotate(table_count=Count(storage.round_related, distinct=True))
    context = tournament_context(
        request, tournament,
        rounds=list(rounds),
        entrant_count=ENTRANT_PAGES[tournament.adapter.entrants]["count"](tournament),
        tiebreaks=tiebreak_descriptions(tournament),
    )
    return render(request, "tournaments/detail.html", context)


@require_safe
@tournament_view()
@conditional(round_state)
def round_page(request, number, *, tournament):
    """The tables of one round: table number, the sides (teams NS and EW, or four seated players),
    the result so far and why the table was drawn (the pairing reason or repeat meetings); a
    fixed number of queries. ``?projector=1``: large type, cycling screens. A poll that finds
    the round unchanged gets 304 (:mod:`scoring.web.conditional`)."""
    rnd = visible_round(request, tournament, number)
    storage = storage_for(tournament.adapter)
    adapter = tournament.adapter
    rows = []
    for c in storage.in_round(rnd):
        c.round = rnd
        rows.append({"container": c, "number": storage.number(c), "sides": storage.sides(c, adapter),
                     "bye": storage.is_bye(c), "totals": storage.totals(c), "reason": storage.note(c),
                     "urls": urls_of(storage.container_type, tournament, c)})
    shown, projector = projector_page(request, rows)
    context = tournament_context(
        request, tournament,
        round=rnd, rows=shown, projector=projector, kind=storage.container_type,
        rounds=list(_visible_rounds(request, tournament).only("id", "tournament", "number", "status")),
        draft_warnings=draft_warnings(rnd) if rnd.status == Round.Status.DRAFT and not projector else [],
        side_labels=adapter.side_labels(),
        redraw=ENTRANT_PAGES[adapter.entrants]["redraw"](tournament, rnd.number),
    )
    return render(request, "rounds/round.html", context)


#: The standings listing of each kind of entrant and the template writing it out: the Tai Pan
#: standings (up to a thousand teams) with every cell computed in the view, the four-player
#: standings through django-tables2.
LISTINGS = {
    EntrantKind.TEAMS: (lambda rows, t, tiebreaks: standings_listing(rows, slug=t.slug, tiebreak_columns=[(tb["key"], tb["label"]) for tb in tiebreaks]),
                        "standings/_lean_table.html"),
    EntrantKind.PLAYERS: (lambda rows, t, tiebreaks: PlayerStandingsTable(rows), "standings/_tables2_table.html"),
}


def standings_state(request, tournament: Tournament) -> str:
    """The standings' state key for ``?round=`` (:func:`scoring.standings.standings_key`), read
    once per request: the page's ETag and its standings use the same."""
    if not hasattr(request, "standings_key"):
        through_round = int_param(request, "round", None, low=1, high=999)
        request.standings_key = standings_key(tournament, through_round=through_round)
    return request.standings_key


@require_safe
@tournament_view()
@conditional(standings_state)
def standings(request, *, tournament):
    """The standings (a fixed number of queries whatever the number of entrants); ``?round=N``:
    after round N; ``?projector=1``: big type, :data:`PROJECTOR_ROWS` rows per screen, the next
    screen every :data:`PROJECTOR_SECONDS` seconds (cycling, re-reading the standings). A poll
    that finds them unchanged gets 304 (:mod:`scoring.web.conditional`)."""
    through_round = int_param(request, "round", None, low=1, high=999)
    tiebreaks = tiebreak_descriptions(tournament)
    rows = standings_for(tournament, through_round=through_round, key=standings_state(request, tournament))
    shown, projector = projector_page(request, rows)
    listing, table_template = LISTINGS[tournament.adapter.entrants]
    table = listing(shown, tournament, tiebreaks)
    played = tournament.rounds.exclude(status=Round.Status.DRAFT).values_list("number", flat=True)
    context = tournament_context(request, tournament, table=table, table_template=table_template, tiebreaks=tiebreaks, projector=projector,
                                 through_round=through_round, played_rounds=list(played))
    return render(request, "standings/standings.html", context)


@require_safe
@tournament_view()
def team_breakdown(request, pk, *, tournament):
    """One team: its matches round by round and the numbers behind each tie-break."""
    team = get_object_or_404(Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk)
    breakdown = team_standings_service.team_breakdown(tournament, team)
    context = tournament_context(request, tournament, team=team, breakdown=breakdown, tiebreaks=tiebreak_descriptions(tournament))
    return render(request, "standings/team.html", context)


def export_response(dataset, fmt: str, filename: str) -> HttpResponse:
    """A tablib dataset as a CSV (with a BOM, so spreadsheet programs read UTF-8) or XLSX download,
    formula-like text written as text (:func:`scoring.io.datasets.export`)."""
    content_type, ext = EXPORT_FORMATS[fmt]
    response = HttpResponse(datasets.export(dataset, fmt), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}.{ext}"'
    return response


def _export_format(request) -> str:
    fmt = request.GET.get("format", "csv").lower()
    if fmt not in EXPORT_FORMATS:
        raise Http404(_t("Unknown export format."))
    return fmt


@require_safe
@tournament_view()
def standings_export(request, *, tournament):
    """The standings as CSV (``?format=csv``, default) or XLSX (``?format=xlsx``)."""
    return export_response(datasets.standings_dataset(tournament), _export_format(request), f"{slugify(tournament.slug)}-standings")


@require_safe
@tournament_view()
def pairings_export(request, number, *, tournament):
    """A round's tables as CSV or XLSX (drafts: organisers only)."""
    rnd = visible_round(request, tournament, number)
    return export_response(datasets.round_dataset(rnd), _export_format(request), f"{slugify(tournament.slug)}-round-{rnd.number}")
