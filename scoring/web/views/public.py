"""Public, read-only pages (no login): tournament list and overview, a round's tables (pairings or
seatings), the standings (also a projector view), and CSV/XLSX exports. Draft rounds are visible
to the tournament's organisers only (:mod:`scoring.policy`). The numbers come from the standings
and the result sheet; nothing is computed here. The player side (find my table, team and player
pages) is :mod:`scoring.web.views.players`.

Live pages: the standings and a round's page poll their own URL (htmx, every
:func:`live_seconds` seconds, ``settings.LIVE_POLL_SECONDS``) and swap only the region that changes
(``hx-select``); no full reloads. The projector views show every row and page through them in
the browser (``static/js/projector.js`` measures how many rows fit the screen); without
JavaScript the server shows :data:`PROJECTOR_ROWS` rows per screen and a ``<noscript>`` refresh
cycles through the screens."""
from __future__ import annotations

from django.conf import settings
from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_safe
from django.views.decorators.vary import vary_on_headers

from scoring import policy
from scoring.draw.rounds import draft_warnings
from scoring.games.base import EntrantKind
from scoring.io import datasets
from scoring.kinds import kind_for
from scoring.models import ResultContainer, Round, Tournament
from scoring.params import plain_int
from scoring.policy import Perm
from scoring.results import sheet
from scoring.standings import standings_for, standings_key
from scoring.standings.counting import SETTLED, counted_q
from scoring.standings.placement import stored as stored_placement
from scoring.standings.player_tiebreaks import REGISTRY as PLAYER_TIEBREAKS
from scoring.standings.player_tiebreaks import keys_of as player_tiebreak_keys
from scoring.standings.tiebreaks import NSKT_DEFAULT, REGISTRY
from scoring.web import compact
from scoring.web.conditional import conditional, render_live, round_state, standings_counters
from scoring.web.context import ENTRANT_PAGES, tournament_context
from scoring.web.decorators import actor_of, tournament_view, visible_round
from scoring.web.listings import player_grid, team_grid
from scoring.web.views.result_context import urls_of

#: Export formats: ``?format=`` value -> (content type, file extension).
EXPORT_FORMATS = datasets.FORMATS

#: Projector view without JavaScript: rows per screen (``?rows=N`` overrides, 5..200; the script
#: measures the screen instead) and seconds per screen (both ways; ``settings.PROJECTOR_SECONDS``).
PROJECTOR_ROWS = 12
PROJECTOR_SECONDS = 20


def live_seconds() -> int:
    """Seconds between two polls of a live page (``settings.LIVE_POLL_SECONDS``, default 15)."""
    return int(getattr(settings, "LIVE_POLL_SECONDS", 15))


def int_param(request, name: str, default: int | None = None, *, low: int = 0, high: int = 10_000) -> int | None:
    """Query parameter ``name`` as an int within ``low..high``; ``default`` when absent or not a
    plain ASCII number (``"²"``, ``"-1"``, ``"x"``; :func:`scoring.params.plain_int`), so a bad
    value never raises."""
    value = plain_int(request.GET.get(name))
    if value is None:
        return default
    return min(max(value, low), high)


def projector_page(request, count: int) -> dict | None:
    """For ``?projector=1``: the projector context of a listing of ``count`` rows: ``first`` and
    ``last`` (0-based, exclusive) rows of the screen shown without JavaScript, ``page``, ``pages``,
    ``rows`` (per screen), ``seconds`` and ``next_url`` (where the ``<noscript>`` refresh goes,
    cycling back to the first screen). Without ``?projector=1``: ``None``."""
    if request.GET.get("projector") != "1":
        return None
    per_page = int_param(request, "rows", PROJECTOR_ROWS, low=5, high=200)
    pages = max(1, -(-count // per_page))
    page = int_param(request, "page", 1, low=1, high=pages)
    query = request.GET.copy()
    query["page"] = str(page % pages + 1)
    seconds = int(getattr(settings, "PROJECTOR_SECONDS", PROJECTOR_SECONDS))
    return {"page": page, "pages": pages, "rows": per_page, "seconds": seconds,
            "first": (page - 1) * per_page, "last": page * per_page, "next_url": "?" + query.urlencode()}


def mark_screen(rows: list, projector: dict | None) -> None:
    """Mark the rows not on the projector's server-side screen ``off`` (hidden until the script
    pages through them itself); rows are objects or dicts."""
    for i, row in enumerate(rows):
        off = projector is not None and not (projector["first"] <= i < projector["last"])
        if isinstance(row, dict):
            row["off"] = off
        else:
            row.off = off


def _team_tiebreaks(tournament: Tournament) -> list[dict]:
    out = []
    for key in tournament.tiebreaks or NSKT_DEFAULT:
        cls = REGISTRY.get(key)
        out.append({"key": key, "label": getattr(cls, "label", key), "byes": getattr(cls, "byes_and_withdrawals", "")})
    return out


def _player_tiebreaks(tournament: Tournament) -> list[dict]:
    """The player tie-breaks, applied only with placement points (none without them)."""
    if not stored_placement(tournament.placement).enabled:
        return []
    return [{"key": key, "label": PLAYER_TIEBREAKS[key].label, "byes": PLAYER_TIEBREAKS[key].explanation}
            for key in player_tiebreak_keys(tournament.tiebreaks)]


#: The tie-break descriptions of each kind of entrant.
TIEBREAK_DESCRIPTIONS = {EntrantKind.TEAMS: _team_tiebreaks, EntrantKind.PLAYERS: _player_tiebreaks}


def tiebreak_descriptions(tournament: Tournament) -> list[dict]:
    """The tournament's tie-breaks in order: ``[{"key", "label", "byes"}]`` (``byes``: how the
    tie-break treats byes and withdrawals, or for players what it counts). An empty setting
    means the default order (teams: NSKT; players: :data:`scoring.standings.player_tiebreaks.DEFAULT_ORDER`)."""
    return TIEBREAK_DESCRIPTIONS[tournament.adapter.entrants](tournament)


def _visible_rounds(request, tournament: Tournament):
    rounds = tournament.rounds.all()
    if not policy.has_perm(request.user, Perm.VIEW_DRAFTS, tournament):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds


#: A finished result (confirmed or not): the round page's progress.
FINISHED = (ResultContainer.Status.FINISHED, ResultContainer.Status.CONFIRMED)


def rounds_with_progress(tournament: Tournament, rounds):
    """``rounds`` (a queryset) with ``table_count``, ``counted`` (the results the standings count,
    :func:`scoring.standings.counting.counted_q`) and ``settled`` (confirmed, or byes) annotated;
    one query."""
    related = kind_for(tournament.adapter).round_related
    return rounds.annotate(
        table_count=Count(related),
        counted=Count(related, filter=counted_q(tournament, related)),
        settled=Count(related, filter=SETTLED[tournament.adapter.entrants]),
    )


def standing_after(rounds: list, through_round: int | None = None) -> dict:
    """What the standings stand after, from :func:`rounds_with_progress` rows of the public
    rounds: ``{"round": N or None, "provisional": bool}``: the last round with counted results
    (or ``through_round`` when asked for), provisional while a result up to it is unconfirmed."""
    counted = [r.number for r in rounds if r.counted]
    number = through_round if through_round is not None else max(counted, default=None)
    if number is None:
        return {"round": None, "provisional": False}
    provisional = any(r.settled < r.table_count for r in rounds if r.number <= number)
    return {"round": number, "provisional": provisional}


#: The label of the "find my table" box per kind of entrant.
FIND_LABELS = {EntrantKind.TEAMS: _("Your name or your team's name"), EntrantKind.PLAYERS: _("Your name")}


def current_round(rounds: list):
    """The latest round the public sees (published, in progress or closed), or ``None``."""
    public = [r for r in rounds if r.status != Round.Status.DRAFT]
    return public[-1] if public else None


@require_safe
def tournament_list(request):
    """All tournaments, newest first."""
    tournaments = Tournament.objects.all()
    can_create = request.user.is_authenticated and (request.user.is_staff or request.user.has_perm("scoring.add_tournament"))
    return render(request, "tournaments/list.html", {"tournaments": tournaments, "can_create": can_create})


@require_safe
@tournament_view()
def tournament_detail(request, *, tournament):
    """A tournament's home: the current round (its tables, how many results are in), "find my
    table" (by team or player name), standings links, the seasons it counts for, every round
    (drafts only for organisers) and, for organisers, the organiser's actions."""
    rounds = list(rounds_with_progress(tournament, _visible_rounds(request, tournament)))
    context = tournament_context(
        request, tournament,
        rounds=rounds,
        current=current_round(rounds),
        find_label=FIND_LABELS[tournament.adapter.entrants],
        after=standing_after([r for r in rounds if r.status != Round.Status.DRAFT]),
        entrant_count=ENTRANT_PAGES[tournament.adapter.entrants]["count"](tournament),
        tiebreaks=tiebreak_descriptions(tournament),
        placement=stored_placement(tournament.placement),
        seasons=list(tournament.seasons.order_by("name").only("slug", "name")),
    )
    return render(request, "tournaments/detail.html", context)


def hide_totals(request, tournament: Tournament, container) -> bool:
    """With blind confirmation, a result's totals stay hidden until it is confirmed
    (:func:`scoring.results.sheet.totals_hidden`), from everyone but the members and the side that
    entered it: asked for this request's actor (:func:`scoring.web.decorators.actor_of`, the
    entrant of a link this phone holds too), as the result page does."""
    return sheet.totals_hidden(container, actor_of(request))


def score_text(totals: list[int]) -> str:
    """A result's totals in one line: ``"800 – 300"`` for two sides, ``"18 / -6 / -6 / -6"`` for
    four seats."""
    return (" – " if len(totals) == 2 else " / ").join(str(t) for t in totals)


@require_safe
@tournament_view()
@conditional(round_state)
def round_page(request, number, *, tournament):
    """The tables of one round: table number, the sides (teams NS and EW, or four seated players),
    the result so far and why the table was drawn (the pairing reason or repeat meetings); a
    fixed number of queries. Live: polls itself (:func:`live_seconds`); a poll that finds the
    round unchanged gets 304 (:mod:`scoring.web.conditional`). ``?projector=1``: large type,
    cycling screens (:func:`projector_page`)."""
    rnd = visible_round(request, tournament, number)
    kind = kind_for(tournament.adapter)
    adapter = tournament.adapter
    headings = adapter.side_headings()
    per_seat = len(headings) > 2  # four seats: each total beside its player, not in one line
    rows = []
    for c in kind.in_round(rnd):
        c.round = rnd
        sides, totals = kind.sides(c, adapter), kind.totals(c)
        hidden = hide_totals(request, tournament, c)
        # A table being played shows its state, not its running score (that is on its own page):
        # the round page changes only when a table's state or final score does (docs/results.md).
        shown = c.status in FINISHED and not hidden
        for side, heading, total in zip(sides, headings, totals, strict=False):
            side["heading"] = heading
            side["shown_total"] = total if per_seat and shown else None
        rows.append({"container": c, "number": kind.number(c), "sides": sides,
                     "bye": kind.is_bye(c), "totals": totals, "reason": kind.note(c),
                     "score": "" if per_seat or not shown else score_text(totals), "hidden": hidden,
                     "urls": urls_of(kind, tournament, c)})
    projector = projector_page(request, len(rows))
    mark_screen(rows, projector)
    playing = [r for r in rows if not r["bye"]]
    progress = {"tables": len(playing),
                "finished": sum(1 for r in playing if r["container"].status in FINISHED),
                "confirmed": sum(1 for r in playing if r["container"].status == ResultContainer.Status.CONFIRMED)}
    context = tournament_context(
        request, tournament,
        round=rnd, rows=rows, projector=projector, kind=kind.key, progress=progress, per_seat=per_seat,
        rounds=list(_visible_rounds(request, tournament).only("id", "tournament", "number", "status")),
        draft_warnings=draft_warnings(rnd) if rnd.status == Round.Status.DRAFT and not projector else [],
        side_labels=adapter.side_labels(), side_headings=headings, result_noun=kind.noun,
        redraw=ENTRANT_PAGES[adapter.entrants]["redraw"](tournament, rnd.number),
        live_seconds=live_seconds(),
    )
    return render_live(request, "rounds/round.html", "rounds/_live.html", context)


#: The standings grid of each kind of entrant (:mod:`scoring.web.listings`).
LISTINGS = {
    EntrantKind.TEAMS: lambda rows, t, tiebreaks: team_grid(rows, slug=t.slug, tiebreak_columns=[(tb["key"], tb["label"]) for tb in tiebreaks]),
    EntrantKind.PLAYERS: lambda rows, t, tiebreaks: player_grid(rows, slug=t.slug, placement=stored_placement(t.placement).enabled),
}
#: Columns the projector leaves out (besides the all-zero tie-breaks).
PROJECTOR_HIDDEN = {"players", "affiliation"}


def standings_state(request, tournament: Tournament) -> list:
    """The standings page's state for its ETag: the tournament's standings counter and page
    counters (:func:`scoring.web.conditional.standings_counters`, one query whatever the field's
    size; ``?round=`` is in the ETag's path). The standings themselves are kept under their exact
    state key (:func:`scoring.standings.standings_key`), read only when the page is rendered."""
    return standings_counters(tournament)


def standings_page_state(request, tournament: Tournament) -> list:
    """What the standings page's ETag and shared live region cover besides the URL: the
    standings' state (:func:`standings_state`) and the view chosen for this request (full or
    compact: it may come from the ``Sec-CH-UA-Mobile`` header, :func:`scoring.web.compact.view_mode`).
    The phone's own entrant needs nothing more: a held link is in the ETag already (and keeps
    the region from being shared), ``?team=`` is in the URL."""
    return [standings_state(request, tournament), compact.view_mode(request)]


def _with_query(request, **changes) -> str:
    """This page's query string with ``changes`` (``None``: removed), e.g. ``?all=1&round=3``."""
    query = request.GET.copy()
    for name, value in changes.items():
        query.pop(name, None)
        if value is not None:
            query[name] = str(value)
    return "?" + query.urlencode()


def _compact_context(request, tournament: Tournament, table, mode: str, projector: dict | None) -> dict:
    """The compact view's rows (:func:`scoring.web.compact.compact_rows`, the own row marked
    ``mine``) and the links between the two views; in the full view only the links. A small
    field (:data:`scoring.web.compact.SHOW_ALL_UP_TO`) is written as the compact view (every row,
    as cards on a phone) off the projector."""
    kind = tournament.adapter.entrants
    if not projector and len(table.rows) <= compact.SHOW_ALL_UP_TO:
        mode = compact.COMPACT
    own = compact.index_of(table.rows, compact.own_entrant(request, kind), kind)
    if own is not None:
        table.rows[own].mine = True
    context = {"view": mode, "full_url": _with_query(request, all=1), "compact_url": _with_query(request, all=0),
               "own_row": table.rows[own] if own is not None else None,
               "can_compact": len(table.rows) > compact.SHOW_ALL_UP_TO, "top_rows": compact.TOP_ROWS}
    if mode == compact.COMPACT:
        context["compact_rows"] = compact.compact_rows(table.rows, own, kind)
    return context


@require_safe
@vary_on_headers("Sec-CH-UA-Mobile")
@tournament_view()
@conditional(standings_page_state)
def standings(request, *, tournament):
    """The standings (a fixed number of queries whatever the number of entrants), saying after
    which round they stand (:func:`standing_after`); ``?round=N``: after round N. Live: polls
    itself; a poll that finds them unchanged gets 304 (:mod:`scoring.web.conditional`).
    Phones get the compact view (the top rows and their own team's neighbourhood,
    :mod:`scoring.web.compact`), desktops the full table (``?all=1`` / ``?all=0`` choose).
    ``?projector=1``: big type, no players column nor all-zero tie-break columns, every row paged
    through screen by screen (:func:`projector_page`)."""
    through_round = int_param(request, "round", None, low=1, high=999)
    tiebreaks = tiebreak_descriptions(tournament)
    rows = standings_for(tournament, through_round=through_round, key=standings_key(tournament, through_round=through_round))
    projector = projector_page(request, len(rows))
    table = LISTINGS[tournament.adapter.entrants](rows, tournament, tiebreaks)
    if projector:
        table = table.without(PROJECTOR_HIDDEN | table.zero_columns)
    mark_screen(table.rows, projector)
    played = list(rounds_with_progress(tournament, tournament.rounds.exclude(status=Round.Status.DRAFT)))
    context = tournament_context(request, tournament, table=table, tiebreaks=tiebreaks, projector=projector,
                                 placement=stored_placement(tournament.placement), through_round=through_round, played_rounds=[r.number for r in played],
                                 round_urls=[(r.number, _with_query(request, round=r.number)) for r in played],
                                 all_rounds_url=_with_query(request, round=None),
                                 after=standing_after(played, through_round), live_seconds=live_seconds(),
                                 **_compact_context(request, tournament, table, compact.view_mode(request), projector))
    return render_live(request, "standings/standings.html", "standings/_live.html", context)


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
    """A round's tables as CSV or XLSX (drafts: organisers only); under blind confirmation an
    unconfirmed result's totals are left empty for whoever may not see them."""
    rnd = visible_round(request, tournament, number)
    actor = actor_of(request)
    dataset = datasets.round_dataset(rnd, totals_hidden=lambda container: sheet.totals_hidden(container, actor))
    return export_response(dataset, _export_format(request), f"{slugify(tournament.slug)}-round-{rnd.number}")
