"""Public, read-only pages (no login): tournament list and overview, round pairings, standings
(also a projector view), a team's tie-break breakdown, and CSV/XLSX exports.

Draft rounds are visible to the tournament's organisers only (issue 4 item 2). The numbers come
from ``scoring.standings.teams`` and ``scoring.io.transfer``; nothing is computed here.
"""
from __future__ import annotations

from django.db.models import Count
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.text import slugify
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_safe

from scoring.models import Match, Round, Team, Tournament
from scoring.policy import can_organise, can_referee
from scoring.web.listings import StandingsTable

#: Export formats: ``?format=`` value -> (tablib format, content type, file extension).
EXPORT_FORMATS = {
    "csv": ("csv", "text/csv; charset=utf-8", "csv"),
    "xlsx": ("xlsx", "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx"),
}

#: Projector view: rows per screen (``?rows=N`` overrides, 5..200) and seconds per screen.
PROJECTOR_ROWS = 20
PROJECTOR_SECONDS = 30


def projector_page(request, items: list) -> tuple[list, dict | None]:
    """For ``?projector=1``: the slice of ``items`` shown on this screen and the projector
    context (``page``, ``pages``, ``next_url``: the page the auto-refresh goes to, cycling back
    to the first). Without ``?projector=1``: ``(items, None)``."""
    if request.GET.get("projector") != "1":
        return items, None
    rows = request.GET.get("rows", "")
    per_page = min(max(int(rows), 5), 200) if rows.isdigit() else PROJECTOR_ROWS
    pages = max(1, -(-len(items) // per_page))
    page = request.GET.get("page", "")
    page = min(max(int(page), 1), pages) if page.isdigit() else 1
    query = request.GET.copy()
    query["page"] = str(page % pages + 1)
    info = {"page": page, "pages": pages, "seconds": PROJECTOR_SECONDS, "next_url": "?" + query.urlencode()}
    return items[(page - 1) * per_page: page * per_page], info


def roles_context(request, tournament: Tournament) -> dict:
    """``can_organise``/``can_referee`` for the templates."""
    return {
        "tournament": tournament,
        "can_organise": can_organise(request.user, tournament),
        "can_referee": can_referee(request.user, tournament),
    }


@require_safe
def tournament_list(request):
    """All tournaments, newest first."""
    tournaments = Tournament.objects.all()
    can_create = request.user.is_authenticated and (request.user.is_staff or request.user.has_perm("scoring.add_tournament"))
    return render(request, "scoring/tournament_list.html", {"tournaments": tournaments, "can_create": can_create})


@require_safe
def tournament_detail(request, slug):
    """A tournament's overview: rounds (drafts only for organisers) with their table counts, and
    links to pairings, standings and, for members, the organiser and referee pages."""
    tournament = get_object_or_404(Tournament, slug=slug)
    context = roles_context(request, tournament)
    rounds = tournament.rounds.annotate(match_count=Count("matches", distinct=True), table_count=Count("tables", distinct=True))
    if not context["can_organise"]:
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    context.update(
        rounds=list(rounds),
        team_count=tournament.teams.count() if tournament.is_team_game else None,
        tiebreaks=tiebreak_descriptions(tournament),
    )
    return render(request, "scoring/tournament_detail.html", context)


def visible_round(request, tournament: Tournament, number: int) -> tuple[Round, dict]:
    """The round ``number`` of ``tournament`` if the user may see it (drafts: organisers only);
    raises Http404 otherwise. Returns ``(round, roles context)``."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    context = roles_context(request, tournament)
    if not rnd.is_public and not context["can_organise"]:
        raise Http404(_t("This round is not published yet."))
    return rnd, context


@require_safe
def round_pairings(request, slug, number):
    """The pairings of one round: table number, team NS, team EW (or bye), the result so far and
    the reason for each table (same score group, floated down, bye). A fixed number of queries."""
    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.is_team_game:
        return redirect("scoring:round_tables", tournament.slug, number)
    rnd, context = visible_round(request, tournament, number)
    matches = list(
        Match.objects.filter(round=rnd).with_teams().order_by("table")
    )
    for m in matches:
        m.reason = m.pairing_reason_text() or (_t("bye") if m.is_bye else "")
    rounds = tournament.rounds.all() if context["can_organise"] else tournament.rounds.exclude(status=Round.Status.DRAFT)
    shown, projector = projector_page(request, matches)
    context.update(
        draft_warnings=draft_warnings(rnd) if rnd.status == Round.Status.DRAFT and not projector else [],
        round=rnd,
        matches=shown,
        rounds=list(rounds.only("id", "number", "status")),
        projector=projector,
    )
    return render(request, "scoring/round_pairings.html", context)


def draft_warnings(rnd: Round) -> list[str]:
    """Translated warnings of a draft round's current tables (rematch, double booking, missing
    team, second bye, absent team), from the pairing service's own check
    (``scoring.draw.pairing_core.check_pairing``, messages ``pairing.WARNING_TEXTS``)."""
    from scoring.draw import pairing
    from scoring.draw.pairing_core import check_pairing

    entrants = pairing.entrants_for(rnd.tournament, before_round=rnd.number)
    names = {e.id: e.name for e in entrants}
    pairs = list(rnd.matches.order_by("table").values_list("team_ns_id", "team_ew_id"))
    out = []
    for w in check_pairing(entrants, pairs, rnd.number):
        template = pairing.WARNING_TEXTS.get(w.code)
        teams = " - ".join(names.get(t, str(t)) for t in w.teams)
        out.append(str(template).format(teams=teams) if template else f"{w.code}: {teams}")
    return out


def tiebreak_descriptions(tournament: Tournament) -> list[dict]:
    """The tournament's tie-breaks in order: ``[{"key", "label", "byes"}]`` (``byes``: how the
    tie-break treats byes and withdrawals). Unknown keys are shown by key. An empty list means the
    NSKT default order, as in the standings service."""
    from scoring.standings.tiebreaks import NSKT_DEFAULT, REGISTRY

    out = []
    for key in tournament.tiebreaks or NSKT_DEFAULT:  # empty: the NSKT default order (DESIGN.md 3)
        cls = REGISTRY.get(key)
        out.append({
            "key": key,
            "label": getattr(cls, "label", key),
            "byes": getattr(cls, "byes_and_withdrawals", ""),
        })
    return out


@require_safe
def standings(request, slug):
    """The standings table (a fixed number of queries whatever the number of teams);
    ``?projector=1``: big font, no navigation, :data:`PROJECTOR_ROWS` rows per screen, moving to
    the next screen every :data:`PROJECTOR_SECONDS` seconds (cycling, re-reading the standings);
    ``?round=N``: the standings after round N."""
    from scoring.standings import cache as standings_cache

    tournament = get_object_or_404(Tournament, slug=slug)
    if not tournament.is_team_game:
        return redirect("scoring:player_standings", tournament.slug)
    context = roles_context(request, tournament)
    through = request.GET.get("round")
    through_round = int(through) if through and through.isdigit() else None
    standings_key, rows = standings_cache.cached_standings_and_key(tournament, through_round=through_round)
    tiebreaks = tiebreak_descriptions(tournament)
    shown, projector = projector_page(request, rows)
    table = StandingsTable(shown, slug=tournament.slug, tiebreak_columns=[(tb["key"], tb["label"]) for tb in tiebreaks])
    played_rounds = tournament.rounds.exclude(status=Round.Status.DRAFT).values_list("number", flat=True)
    context.update(
        table=table,
        tiebreaks=tiebreaks,
        projector=projector,
        through_round=through_round,
        played_rounds=list(played_rounds),
        # The rendered table is cached per state of the standings (django-tables2 rendering is
        # the page's main cost; see benchmarks/load).
        standings_key=standings_key,
        projector_rows=request.GET.get("rows", ""),
    )
    return render(request, "scoring/standings.html", context)


@require_safe
def team_breakdown(request, slug, pk):
    """One team: its matches round by round and the numbers behind each tie-break."""
    from scoring.standings import teams as standings_service

    tournament = get_object_or_404(Tournament, slug=slug)
    team = get_object_or_404(Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk)
    context = roles_context(request, tournament)
    breakdown = standings_service.team_breakdown(tournament, team)
    context.update(team=team, breakdown=breakdown, tiebreaks=tiebreak_descriptions(tournament))
    return render(request, "scoring/team_breakdown.html", context)


def _export_response(dataset, fmt: str, filename: str) -> HttpResponse:
    tablib_format, content_type, ext = EXPORT_FORMATS[fmt]
    body = dataset.export(tablib_format)
    if isinstance(body, str):
        body = ("\ufeff" + body).encode("utf-8")  # BOM: spreadsheet programs read UTF-8 CSV correctly
    response = HttpResponse(body, content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}.{ext}"'
    return response


def _export_format(request) -> str:
    fmt = request.GET.get("format", "csv").lower()
    if fmt not in EXPORT_FORMATS:
        raise Http404(_t("Unknown export format."))
    return fmt


@require_safe
def standings_export(request, slug):
    """The standings as CSV (``?format=csv``, default) or XLSX (``?format=xlsx``)."""
    from scoring.io import transfer as io

    tournament = get_object_or_404(Tournament, slug=slug)
    fmt = _export_format(request)
    return _export_response(io.standings_dataset(tournament), fmt, f"{slugify(tournament.slug)}-standings")


@require_safe
def pairings_export(request, slug, number):
    """A round's pairings as CSV or XLSX (drafts: organisers only)."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd, _context = visible_round(request, tournament, number)
    fmt = _export_format(request)
    from scoring.io import transfer as io

    return _export_response(io.pairings_dataset(rnd), fmt, f"{slugify(tournament.slug)}-round-{rnd.number}")

