"""Organiser pages: create, edit and finish a tournament, its entrants (teams of two
with a CSV import, or individual players), drawing the next round (Swiss pairing of teams, or
seating players four to a table), editing a draft pairing, and publishing, starting and closing
rounds.

Every view declares the permission it needs (:func:`scoring.web.decorators.tournament_view`;
creating a tournament needs a staff user or the ``scoring.add_tournament`` permission, and the
creator becomes its organiser); the services check it again. Write views accept POST only
(CSRF-protected); service errors are shown as messages or next to the form field concerned.
"""
from __future__ import annotations

from functools import wraps

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from scoring import tasks
from scoring.draw import pairing, rounds, seating
from scoring.draw.lifecycle import next_round_number
from scoring.errors import NotAllowed, ServiceError
from scoring.games.base import EntrantKind
from scoring.io import datasets, entrants_csv, tournament_json
from scoring.live import state as live_state
from scoring.models import Match, Membership, Player, Round, TaskState, Team
from scoring.participants import checkins, persons
from scoring.policy import Perm
from scoring.web.context import ENTRANT_PAGES, tournament_context
from scoring.web.decorators import tournament_view
from scoring.web.forms.organiser import (
    DraftPairingFormSet,
    EntrantsImportForm,
    PairRoundForm,
    PlayerForm,
    SeatRoundForm,
    TeamForm,
    TournamentForm,
    WithdrawForm,
)
from scoring.web.listings import PlayerListTable, TeamTable

ORGANISER = Membership.Role.ORGANISER


WRONG_KIND = {
    EntrantKind.TEAMS: _("This tournament has individual players, not teams."),
    EntrantKind.PLAYERS: _("This tournament has teams, not individual players."),
}


def entrants(kind: EntrantKind):
    """Decorator: the view is for tournaments whose entrants are of ``kind`` (teams, or individual
    players); the other kind goes to its own entrants page with a message."""

    def decorator(view):
        @wraps(view)
        def wrapped(request, *args, tournament, **kwargs):
            if tournament.adapter.entrants != kind:
                messages.info(request, WRONG_KIND[kind])
                return redirect(tournament_context(request, tournament)["nav"]["entrants"])
            return view(request, *args, tournament=tournament, **kwargs)

        return wrapped

    return decorator


# --- tournaments -----------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request):
    """Create a tournament; the creator becomes its organiser (a :class:`Membership`)."""
    if not (request.user.is_staff or request.user.has_perm("scoring.add_tournament")):
        raise PermissionDenied
    form = TournamentForm(request.POST or None, game=request.GET.get("game"))
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            tournament = form.save()
            Membership.objects.create(tournament=tournament, user=request.user, role=ORGANISER)
        messages.success(request, ENTRANT_PAGES[tournament.adapter.entrants]["created"])
        return redirect("scoring:tournament_detail", tournament.slug)
    return render(request, "tournaments/form.html", {"form": form, "tournament": None})


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
def tournament_edit(request, *, tournament):
    """Edit a tournament's settings (game, rules, format and tie-breaks fixed once round 1
    exists); finish or resume it."""
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        tournament = form.save()
        messages.success(request, _t("Tournament saved."))
        return redirect("scoring:tournament_detail", tournament.slug)
    return render(request, "tournaments/form.html", tournament_context(request, tournament, form=form))


@require_POST
@tournament_view(Perm.MANAGE)
def tournament_state(request, *, tournament):
    """Finish a running tournament (every round closed) or resume a finished one."""
    action = rounds.finish_tournament if request.POST.get("action") == "finish" else rounds.resume_tournament
    try:
        action(tournament, request.user)
    except ServiceError as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, _t("The tournament is %(status)s.") % {"status": tournament.get_status_display().lower()})
    return redirect("scoring:tournament_detail", tournament.slug)


@require_safe
@tournament_view(Perm.MANAGE)
def tournament_export(request, *, tournament):
    """Download the whole tournament as JSON (the same text as ``manage.py export_tournament
    SLUG``, re-importable with ``import_tournament``): a complete backup of every game
    (entrants, rounds, tables or matches with every record, confirmations, members)."""
    response = HttpResponse(tournament_json.dumps(tournament_json.export_tournament(tournament)),
                            content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response


# --- teams ------------------------------------------------------------------------------------

@require_safe
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.TEAMS)
def team_list(request, *, tournament):
    """All teams with players, affiliation, seed, late entry and withdrawal."""
    teams = tournament.teams.select_related("first_player", "second_player").order_by("name")
    sort = request.GET.get("sort", "")
    # Only a column of the listing (``-`` for descending); anything else keeps the default order.
    table = TeamTable(teams, slug=tournament.slug, order_by=sort if sort.removeprefix("-") in TeamTable.base_columns else None)
    return render(request, "participants/teams.html", tournament_context(request, tournament, table=table, team_count=len(teams)))


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.TEAMS)
def team_create(request, *, tournament):
    """Register a team of two players."""
    form = TeamForm(request.POST or None, tournament=tournament, initial={"joined_round": next_round_number(tournament)})
    if request.method == "POST" and form.is_valid():
        team = form.save()
        messages.success(request, _t("Team %(name)s registered.") % {"name": team.name})
        if "another" in request.POST:
            return redirect("scoring:team_create", tournament.slug)
        return redirect("scoring:team_list", tournament.slug)
    return render(request, "participants/team_form.html", tournament_context(request, tournament, form=form, team=None))


def _team_withdrawal_changed(request, tournament, team, was: int | None, form) -> bool:
    """A change of the form's "withdrawn after round" goes through the withdrawal service (who,
    when, kept as history): withdraw, return, or return and withdraw again after another round.
    False (the error on the field) when the service refuses."""
    new = form.cleaned_data.get("withdrawn_after_round")
    team.withdrawn_after_round = was  # the service writes the column
    if new == was:
        return True
    try:
        if was is not None:
            checkins.reinstate(tournament, request.user, team.pk)
        if new is not None:
            checkins.withdraw(tournament, request.user, team.pk, after_round=new)
    except ServiceError as exc:
        form.add_error("withdrawn_after_round", str(exc))
        return False
    team.refresh_from_db(fields=["withdrawn_after_round", "updated_at"])
    return True


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.TEAMS)
def team_edit(request, pk, *, tournament):
    """Edit a team; ``action=withdraw`` withdraws it after the last round played so far (it is not
    paired again; its results are kept); ``action=delete`` deletes a team that was never paired."""
    team = get_object_or_404(Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk)
    action = request.POST.get("action") if request.method == "POST" else None
    if action == "return":
        try:
            back = checkins.reinstate(tournament, request.user, team.pk, reason=request.POST.get("reason", ""))
        except ServiceError as exc:
            messages.error(request, str(exc))
        else:
            messages.success(request, _t("%(name)s is back from round %(round)d.") % {"name": team.name, "round": back.returns_round})
        return redirect("scoring:team_list", tournament.slug)
    if action == "withdraw":
        # After the last round that is (being) played; a draft round is re-paired without the team.
        played = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number")
        last = played.values_list("number", flat=True).first() or 0
        try:
            checkins.withdraw(tournament, request.user, team.pk, after_round=last, reason=request.POST.get("reason", ""))
        except ServiceError as exc:
            messages.error(request, str(exc))
            return redirect("scoring:team_list", tournament.slug)
        messages.success(request, _t("%(name)s withdrawn after round %(round)d.") % {"name": team.name, "round": last})
        drafts = Round.objects.filter(tournament=tournament, status=Round.Status.DRAFT, number__gt=last)
        drafts = drafts.filter(Q(matches__team_ns=team) | Q(matches__team_ew=team)).distinct()
        for rnd in drafts:
            messages.warning(request, _t("%(name)s is still in the draft pairing of round %(round)d: edit or re-pair it.") % {
                "name": team.name, "round": rnd.number})
        return redirect("scoring:team_list", tournament.slug)
    if action == "delete":
        # Only a team that was never paired (a mistaken registration); otherwise withdraw it.
        if Match.objects.filter(Q(team_ns=team) | Q(team_ew=team)).exists():
            messages.error(request, _t("%(name)s has been paired already: withdraw it instead.") % {"name": team.name})
            return redirect("scoring:team_edit", tournament.slug, team.pk)
        with transaction.atomic():
            players = [team.first_player, team.second_player]
            team.delete()
            for player in players:
                player.delete()
            persons.drop_empty([p.person_id for p in players])
            live_state.bump(tournament.pk, live_state.ENTRANTS, live_state.STANDINGS)
        messages.success(request, _t("Team %(name)s deleted.") % {"name": team.name})
        return redirect("scoring:team_list", tournament.slug)
    was_withdrawn = team.withdrawn_after_round
    form = TeamForm(request.POST or None, instance=team, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        if _team_withdrawal_changed(request, tournament, team, was_withdrawn, form):
            form.save()
            messages.success(request, _t("Team %(name)s saved.") % {"name": team.name})
            return redirect("scoring:team_list", tournament.slug)
    return render(request, "participants/team_form.html", tournament_context(request, tournament, form=form, team=team,
                                                                             split_entries=persons.shared_entries([team.first_player, team.second_player]),
                                                                             history=checkins.history(tournament, team)))


#: What the import pages of each kind of entrant show.
IMPORT_PAGES = {
    "teams": {"title": _("Import teams (CSV)"), "list_url": "scoring:team_list", "example_url": "scoring:teams_import_example",
              "import_url": "scoring:teams_import",
              "done": _("%(count)d teams imported."),
              "columns": _("Columns: name, player1, player2 (required), affiliation, seed, joined_round, rating, number1, number2 (optional; number1 and number2: the players' federation numbers).")},
    "players": {"title": _("Import players (CSV)"), "list_url": "scoring:players", "example_url": "scoring:players_import_example",
                "import_url": "scoring:players_import",
                "done": _("%(count)d players imported."),
                "columns": _("Columns: name (required), affiliation, seed, joined_round, substitute (yes or no), rating, federation_number (optional).")},
}


def _import_page(request, tournament, kind: entrants_csv.EntrantKind):
    """Upload a CSV of entrants: a small file is imported here (every row validated like the
    form, errors by line and column, nothing saved unless every row is good); a large one
    (``settings.IMPORT_INLINE_ROWS``) by a background job with progress (:func:`import_status`)."""
    form = EntrantsImportForm(request.POST or None, request.FILES or None)
    page = IMPORT_PAGES[kind.key]
    report = None
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data["file"].read()
        if entrants_csv.count_rows(data) > settings.IMPORT_INLINE_ROWS:
            state = tasks.start_import(tournament, kind.key, data)
            return redirect("scoring:import_status", tournament.slug, state.pk)
        report = entrants_csv.import_entrants(kind, tournament, data)
        if report.ok:
            messages.success(request, page["done"] % {"count": report.created})
            return redirect(page["list_url"], tournament.slug)
    errors = [{"row": row, "field": field, "message": message} for row, field, message in (report.errors if report else [])]
    ctx = tournament_context(request, tournament, form=form, report=report, report_errors=errors, page=page, kind=kind.key,
                             inline_rows=settings.IMPORT_INLINE_ROWS, max_rows=entrants_csv.MAX_ROWS,
                             max_mb=f"{entrants_csv.MAX_BYTES / 1_000_000:g}")
    return render(request, "participants/import.html", ctx)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.TEAMS)
def teams_import(request, *, tournament):
    """Import teams from CSV (:func:`_import_page`, :mod:`scoring.io.entrants_csv`)."""
    return _import_page(request, tournament, entrants_csv.TEAMS)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.PLAYERS)
def players_import(request, *, tournament):
    """Import players of a four-player tournament from CSV (:func:`_import_page`)."""
    return _import_page(request, tournament, entrants_csv.PLAYERS)


def _csv_download(dataset, filename: str, fmt: str = "csv") -> HttpResponse:
    content_type, ext = datasets.FORMATS[fmt]
    response = HttpResponse(datasets.export(dataset, fmt), content_type=content_type)
    response["Content-Disposition"] = f'attachment; filename="{filename}.{ext}"'
    return response


@require_safe
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.TEAMS)
def teams_import_example(request, *, tournament):
    """An example CSV of the teams import: the header row with every column and two teams."""
    return _csv_download(entrants_csv.example_dataset(entrants_csv.TEAMS), "teams-example")


@require_safe
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.PLAYERS)
def players_import_example(request, *, tournament):
    """An example CSV of the players import: the header row with every column and three players."""
    return _csv_download(entrants_csv.example_dataset(entrants_csv.PLAYERS), "players-example")


def _export_format(request) -> str:
    fmt = request.GET.get("format", "csv")
    if fmt not in datasets.FORMATS:
        raise Http404(_t("Unknown export format."))
    return fmt


@require_safe
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.TEAMS)
def teams_export(request, *, tournament):
    """The teams as CSV or XLSX in the import's columns (formula-like names written as text)."""
    ds = entrants_csv.entrants_dataset(tournament, entrants_csv.TEAMS)
    return _csv_download(ds, f"{tournament.slug}-teams", _export_format(request))


@require_safe
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.PLAYERS)
def players_export(request, *, tournament):
    """The players as CSV or XLSX in the import's columns (formula-like names written as text)."""
    ds = entrants_csv.entrants_dataset(tournament, entrants_csv.PLAYERS)
    return _csv_download(ds, f"{tournament.slug}-players", _export_format(request))


@require_safe
@tournament_view(Perm.MANAGE)
def import_status(request, task_id, *, tournament):
    """Progress of a background CSV import (polled every second with htmx until it is done or
    failed; a job that stopped moving counts as failed), then its report: the number imported, or
    every error by line and column (nothing imported)."""
    state = get_object_or_404(TaskState, pk=task_id, kind=tasks.KIND_IMPORT, key__startswith=f"{tasks.KIND_IMPORT}:{tournament.pk}:")
    state = tasks.settle(state)
    kind = state.key.split(":")[2]
    report = tasks.import_report(state)
    errors = [{"row": row, "field": field, "message": message} for row, field, message in (report.errors if report else [])]
    ctx = tournament_context(request, tournament, state=state, report=report, report_errors=errors, page=IMPORT_PAGES[kind], kind=kind)
    template = "participants/_import_progress.html" if request.htmx else "participants/import_status.html"
    return render(request, template, ctx)


# --- players ----------------------------------------------------------------------------------

@require_http_methods(["GET", "POST"])
@tournament_view()
@entrants(EntrantKind.PLAYERS)
def players(request, *, tournament):
    """The registered players (public); organisers also register players here (POST)."""
    ctx = tournament_context(request, tournament)
    if request.method == "POST" and not ctx["can_organise"]:
        if not request.user.is_authenticated:
            return redirect_to_login(request.get_full_path())
        raise PermissionDenied
    form = PlayerForm(request.POST if request.method == "POST" else None, instance=Player(tournament=tournament),
                      initial={"joined_round": seating.seating_status(tournament)["round_number"]})
    if request.method == "POST" and form.is_valid():
        player = form.save()
        messages.success(request, _t("Player %(name)s registered.") % {"name": player.name})
        return redirect("scoring:players", tournament.slug)
    qs = list(tournament.players.order_by("name"))
    ctx.update(form=form, players=qs, status=seating.seating_status(tournament),
               table=PlayerListTable(qs, slug=tournament.slug) if ctx["can_organise"] else None)
    return render(request, "participants/players.html", ctx, status=400 if request.method == "POST" else 200)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.PLAYERS)
def player_edit(request, pk, *, tournament):
    """Edit a player's registration (late entry round, substitute); withdraw or reinstate."""
    player = get_object_or_404(Player, pk=pk, tournament=tournament)
    status = seating.seating_status(tournament)
    form = PlayerForm(request.POST if request.method == "POST" else None, instance=player)
    withdraw = WithdrawForm(initial={"after_round": max(status["round_number"] - 1, player.joined_round - 1, 1)}, player=player)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _t("Player %(name)s saved.") % {"name": player.name})
        return redirect("scoring:players", tournament.slug)
    ctx = tournament_context(request, tournament, form=form, withdraw=withdraw, player=player, history=checkins.history(tournament, player),
                             split_entries=persons.shared_entries([player]))
    return render(request, "participants/player_form.html", ctx, status=400 if request.method == "POST" else 200)


@require_POST
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.PLAYERS)
def player_withdraw(request, pk, *, tournament):
    """Withdraw a player after a round (results kept) or reinstate them."""
    player = get_object_or_404(Player, pk=pk, tournament=tournament)
    form = WithdrawForm(request.POST, player=player)
    if not form.is_valid():
        ctx = tournament_context(request, tournament, form=PlayerForm(instance=player), withdraw=form, player=player)
        return render(request, "participants/player_form.html", ctx, status=400)
    reason = form.cleaned_data.get("reason", "")
    try:
        if form.cleaned_data["reinstate"]:
            back = checkins.reinstate(tournament, request.user, player.pk, from_round=form.cleaned_data.get("from_round"), reason=reason)
            messages.success(request, _t("%(name)s is back from round %(round)d.") % {"name": player.name, "round": back.returns_round})
        else:
            out = checkins.withdraw(tournament, request.user, player.pk, after_round=form.cleaned_data["after_round"], reason=reason)
            messages.success(request, _t("%(name)s withdrawn after round %(number)s.") % {"name": player.name, "number": out.after_round})
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("scoring:player_edit", tournament.slug, player.pk)
    return redirect("scoring:players", tournament.slug)


# --- drawing rounds ----------------------------------------------------------------------------

def _pairing_error(request, exc: ServiceError) -> None:
    message = str(exc)
    blocking = getattr(exc, "blocking", None)
    if blocking and not all(name in message for name in blocking):
        message = _t("%(message)s Teams that block the pairing: %(teams)s.") % {"message": message, "teams": ", ".join(blocking)}
    messages.error(request, message)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.TEAMS)
def round_pair(request, *, tournament):
    """Pair the next round as a draft (Swiss; round 1 random or by seed, chosen on the page), or,
    when the latest round is still a draft, pair that draft again (``again=1``: its tables are
    replaced). Shows which teams block the pairing when no rematch-free pairing exists."""
    latest = tournament.rounds.order_by("-number").first()
    draft = latest if latest is not None and latest.status == Round.Status.DRAFT else None
    number = draft.number if draft else next_round_number(tournament)
    # The tournament's own round-1 method is chosen beforehand; "automatic" leaves the choice open.
    form = PairRoundForm(request.POST if request.method == "POST" else None,
                         initial={"method": tournament.first_round_method or None})
    if request.method == "POST" and form.is_valid():
        method = form.cleaned_data.get("method") or None
        try:
            if draft is not None and request.POST.get("again"):
                rnd = pairing.repair_draft(draft, request.user, method=method)
                done = _t("Round %(number)d paired again as a draft. Check it, then publish it.")
            else:
                rnd = pairing.pair_next_round(tournament, request.user, method=method)
                done = _t("Round %(number)d paired as a draft. Check it, then publish it.")
        except ServiceError as exc:
            _pairing_error(request, exc)
            return redirect("scoring:tournament_detail", tournament.slug)
        messages.success(request, done % {"number": rnd.number})
        return redirect("scoring:round_pairings", tournament.slug, rnd.number)
    absent = checkins.absences(tournament, number)
    present = [t for t in tournament.teams.all() if t.pk not in absent]
    ctx = tournament_context(request, tournament, number=number, draft=draft, form=form, absent=checkins.absent_names(tournament, number, absent),
                             absent_round=number if draft else None,
                             present=len(present), seeded=sum(1 for t in present if t.seed is not None),
                             rated=sum(1 for t in present if t.rating is not None))
    return render(request, "rounds/pair.html", ctx, status=400 if request.method == "POST" else 200)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.PLAYERS)
def round_seat(request, *, tournament):
    """Seat the next round (or seat the draft round again): players four to a table by total
    score, avoiding repeat opponents; says how many substitutes are needed."""
    form = SeatRoundForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            outcome = seating.seat_round(tournament, request.user, seed=form.cleaned_data.get("seed"))
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            if outcome.club_notes:
                messages.warning(request, _t("Same-club pairs that could not be avoided: %(notes)s") % {"notes": "; ".join(outcome.club_notes)})
            if outcome.repeat_notes:
                messages.warning(request, _t("Repeat meetings that could not be avoided: %(notes)s") % {"notes": "; ".join(outcome.repeat_notes)})
            else:
                messages.success(request, _t("Round %(number)s seated without repeat meetings.") % {"number": outcome.round.number})
            return redirect("scoring:round_tables", tournament.slug, outcome.round.number)
    status = seating.seating_status(tournament)
    ctx = tournament_context(request, tournament, form=form, status=status, absent=checkins.absent_names(tournament, status["round_number"]),
                             absent_round=status["round_number"] if status["reseat"] else None)
    return render(request, "rounds/seat.html", ctx, status=400 if request.method == "POST" else 200)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.MANAGE)
@entrants(EntrantKind.TEAMS)
def round_edit(request, number, *, tournament):
    """Edit a draft round's pairing by hand (:func:`scoring.draw.pairing.set_draft_pairing`);
    warnings (rematch, double booking, missing team) are shown after saving."""
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    if rnd.status != Round.Status.DRAFT:
        messages.error(request, _t("Only a draft round can be edited."))
        return redirect("scoring:round_pairings", tournament.slug, rnd.number)
    teams = tournament.teams.order_by("name")
    initial = [{"team_ns": m["team_ns_id"], "team_ew": m["team_ew_id"]}
               for m in rnd.matches.order_by("table").values("team_ns_id", "team_ew_id")]
    formset = DraftPairingFormSet(request.POST or None, initial=initial, teams=teams, prefix="t")
    if request.method == "POST" and formset.is_valid():
        try:
            warnings = pairing.set_draft_pairing(rnd, formset.pairs(), request.user)
        except ServiceError as exc:
            formset._non_form_errors = formset.error_class([str(exc)])
        else:
            if warnings:  # listed on the round page (draft warnings) after the redirect
                messages.warning(request, ngettext("Draft pairing saved with %(count)d warning.",
                                                   "Draft pairing saved with %(count)d warnings.", len(warnings)) % {"count": len(warnings)})
            else:
                messages.success(request, _t("Draft pairing saved."))
            return redirect("scoring:round_pairings", tournament.slug, rnd.number)
    warnings = pairing.draft_warnings(rnd) if request.method == "GET" else []
    return render(request, "rounds/edit.html", tournament_context(request, tournament, round=rnd, formset=formset, draft_warnings=warnings))


def _round_action(request, tournament, number, action, done_message, **options):
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        action(rnd, request.user, **options)
    except (NotAllowed, ServiceError) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done_message % {"number": rnd.number})
    return redirect("scoring:round_pairings", tournament.slug, rnd.number)


@require_POST
@tournament_view(Perm.MANAGE)
def round_publish(request, number, *, tournament):
    """Publish a draft round: its tables and score sheets become public. A draft with a double
    booking, an absent or missing team is refused; one with a rematch or a second bye only with
    the "publish anyway" box ticked (``publish_anyway``)."""
    accept = request.POST.get("publish_anyway") in ("1", "on", "true")
    response = _round_action(request, tournament, number, rounds.publish_round, _t("Round %(number)d published."), accept_warnings=accept)
    rnd = Round.objects.filter(tournament=tournament, number=number).first()
    if rnd is not None and rnd.is_public and not tasks.build_round_pack.app.conf.task_always_eager:
        # With a worker, the round pack is built now, so pack.pdf serves a stored file.
        tasks.start_round_pack(rnd, base_url=request.build_absolute_uri("/"))
    return response


@require_POST
@tournament_view(Perm.MANAGE)
def round_start(request, number, *, tournament):
    """Start a published round (in progress)."""
    return _round_action(request, tournament, number, rounds.start_round, _t("Round %(number)d started."))


@require_POST
@tournament_view(Perm.MANAGE)
def round_close(request, number, *, tournament):
    """Close a round (only when every result is confirmed); the next round can then be drawn."""
    return _round_action(request, tournament, number, rounds.close_round, _t("Round %(number)d closed."))
