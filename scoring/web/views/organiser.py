"""Organiser pages: create/edit a tournament, members, teams (register, edit, withdraw, CSV
import), pair the next round, edit a draft pairing, publish/start/close a round.

Every view checks the role with :func:`scoring.policy.require_role` (creating a tournament needs a
staff user or the ``scoring.add_tournament`` permission; the creator becomes its organiser). Write
views accept POST only (CSRF-protected). The work is done by ``scoring.services``
(pairing, rounds, io); service errors are shown as messages or next to the form field concerned.
"""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.db.models import Q
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import gettext as _t
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from scoring.errors import NotAllowed, PairingImpossible, ServiceError
from scoring.models import FOUR_PLAYER_GAMES, Match, Membership, Round, Team
from scoring.policy import ORGANISER, require_role
from scoring.web.forms.organiser import (
    DraftPairingFormSet,
    MembershipForm,
    NewMemberForm,
    TeamForm,
    TeamsImportForm,
    TournamentForm,
)
from scoring.web.listings import TeamTable
from scoring.web.views.public import draft_warnings


def _context(tournament, **extra) -> dict:
    """Organiser pages are only rendered for organisers: both flags are true."""
    return {"tournament": tournament, "can_organise": True, "can_referee": True, **extra}


def team_game_only(view):
    """Teams and Swiss pairing are for Tai Pan (team) tournaments; four-player tournaments are
    sent to their players page (FOUR-PLAYER pages) or the overview."""
    @wraps(view)
    def wrapped(request, *args, tournament, **kwargs):
        if not tournament.is_team_game:
            messages.info(request, _t("This tournament has individual players, not teams."))
            try:
                return redirect("scoring:players", tournament.slug)
            except NoReverseMatch:
                return redirect("scoring:tournament_detail", tournament.slug)
        return view(request, *args, tournament=tournament, **kwargs)

    return wrapped


# --- tournaments -----------------------------------------------------------------------------

@login_required
@require_http_methods(["GET", "POST"])
def tournament_create(request):
    """Create a tournament; the creator becomes its organiser (a :class:`Membership`)."""
    if not (request.user.is_staff or request.user.has_perm("scoring.add_tournament")):
        raise PermissionDenied
    form = TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        with transaction.atomic():
            tournament = form.save()
            Membership.objects.create(tournament=tournament, user=request.user, role=ORGANISER)
        if tournament.game in FOUR_PLAYER_GAMES:
            messages.success(request, _t("Tournament created. Register the players next."))
        else:
            messages.success(request, _t("Tournament created. Register the teams next."))
        return redirect("scoring:tournament_detail", tournament.slug)
    return render(request, "scoring/tournament_form.html", {"form": form, "tournament": None})


@require_role(ORGANISER)
@require_http_methods(["GET", "POST"])
def tournament_edit(request, *, tournament):
    """Edit a tournament's settings (game, rules, format and tie-breaks fixed once round 1 exists)."""
    form = TournamentForm(request.POST or None, instance=tournament)
    if request.method == "POST" and form.is_valid():
        tournament = form.save()
        messages.success(request, _t("Tournament saved."))
        return redirect("scoring:tournament_detail", tournament.slug)
    return render(request, "scoring/tournament_form.html", _context(tournament, form=form))


@require_role(ORGANISER)
@require_http_methods(["GET", "POST"])
def members(request, *, tournament):
    """The tournament's organisers and referees; add a user by username, create an account for a
    new referee or organiser, change or remove a role (the last organiser cannot be removed)."""
    form = MembershipForm(request.POST if request.method == "POST" and "username" in request.POST else None)
    new_form = NewMemberForm(request.POST if request.method == "POST" and "new-username" in request.POST else None, prefix="new")
    if request.method == "POST" and "new-username" in request.POST:
        if new_form.is_valid():
            with transaction.atomic():
                user = new_form.save()
                Membership.objects.create(tournament=tournament, user=user, role=new_form.cleaned_data["role"])
            messages.success(request, _t("Account %(user)s created as %(role)s of this tournament.") % {
                "user": user.get_username(), "role": Membership.Role(new_form.cleaned_data["role"]).label})
            return redirect("scoring:members", tournament.slug)
    elif request.method == "POST":
        remove = request.POST.get("remove")
        if remove:
            membership = get_object_or_404(Membership, tournament=tournament, pk=remove)
            organisers = Membership.objects.filter(tournament=tournament, role=ORGANISER)
            if membership.role == ORGANISER and organisers.count() <= 1:
                messages.error(request, _t("The last organiser cannot be removed."))
            else:
                membership.delete()
                messages.success(request, _t("%(user)s removed.") % {"user": membership.user.get_username()})
            return redirect("scoring:members", tournament.slug)
        if form.is_valid():
            membership, created = Membership.objects.get_or_create(
                tournament=tournament, user=form.user, defaults={"role": form.cleaned_data["role"]}
            )
            role = form.cleaned_data["role"]
            if not created and membership.role != role:
                organisers = Membership.objects.filter(tournament=tournament, role=ORGANISER)
                if membership.role == ORGANISER and organisers.count() <= 1:
                    form.add_error("role", _t("The last organiser cannot become a referee."))
                else:
                    membership.role = role
                    membership.save(update_fields=["role"])
            if not form.errors:
                messages.success(request, _t("%(user)s is now %(role)s.") % {
                    "user": form.user.get_username(), "role": membership.get_role_display()})
                return redirect("scoring:members", tournament.slug)
    memberships = tournament.memberships.select_related("user").order_by("role", "user__username")
    return render(request, "scoring/members.html", _context(tournament, form=form, new_form=new_form, memberships=memberships))


@require_role(ORGANISER)
@team_game_only
def tournament_export(request, *, tournament):
    """Download the whole tournament as JSON (DESIGN.md 3; the same text as
    ``manage.py export_tournament SLUG``, re-importable with ``import_tournament``): a backup."""
    from scoring.io import transfer as io

    response = HttpResponse(io.dumps(io.export_tournament(tournament)), content_type="application/json; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{tournament.slug}.json"'
    return response


# --- teams ------------------------------------------------------------------------------------

@require_role(ORGANISER)
@team_game_only
def team_list(request, *, tournament):
    """All teams with players, affiliation, seed, late entry and withdrawal."""
    teams = tournament.teams.select_related("first_player", "second_player").order_by("name")
    table = TeamTable(teams, slug=tournament.slug, order_by=request.GET.get("sort"))
    return render(request, "scoring/team_list.html", _context(tournament, table=table, team_count=len(teams)))


@require_role(ORGANISER)
@team_game_only
@require_http_methods(["GET", "POST"])
def team_create(request, *, tournament):
    """Register a team of two players."""
    form = TeamForm(request.POST or None, tournament=tournament, initial={"joined_round": _next_round_number(tournament)})
    if request.method == "POST" and form.is_valid():
        team = form.save()
        messages.success(request, _t("Team %(name)s registered.") % {"name": team.name})
        if "another" in request.POST:
            return redirect("scoring:team_create", tournament.slug)
        return redirect("scoring:team_list", tournament.slug)
    return render(request, "scoring/team_form.html", _context(tournament, form=form, team=None))


@require_role(ORGANISER)
@team_game_only
@require_http_methods(["GET", "POST"])
def team_edit(request, pk, *, tournament):
    """Edit a team; ``action=withdraw`` withdraws it after the last round played so far (it is not
    paired again; its results are kept); ``action=delete`` deletes a team that was never paired."""
    team = get_object_or_404(Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk)
    if request.method == "POST" and request.POST.get("action") == "withdraw":
        # After the last round that is (being) played; a draft round is re-paired without the team.
        played = tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("-number")
        last = played.values_list("number", flat=True).first() or 0
        team.withdrawn_after_round = last
        team.save(update_fields=["withdrawn_after_round"])
        messages.success(request, _t("%(name)s withdrawn after round %(round)d.") % {"name": team.name, "round": last})
        drafts = Round.objects.filter(tournament=tournament, status=Round.Status.DRAFT, number__gt=last)
        drafts = drafts.filter(Q(matches__team_ns=team) | Q(matches__team_ew=team)).distinct()
        for rnd in drafts:
            messages.warning(request, _t("%(name)s is still in the draft pairing of round %(round)d: edit or re-pair it.") % {
                "name": team.name, "round": rnd.number})
        return redirect("scoring:team_list", tournament.slug)
    if request.method == "POST" and request.POST.get("action") == "delete":
        # Only a team that was never paired (a mistaken registration); otherwise withdraw it.
        if Match.objects.filter(Q(team_ns=team) | Q(team_ew=team)).exists():
            messages.error(request, _t("%(name)s has been paired already: withdraw it instead.") % {"name": team.name})
            return redirect("scoring:team_edit", tournament.slug, team.pk)
        with transaction.atomic():
            players = [team.first_player, team.second_player]
            team.delete()
            for player in players:
                player.delete()
        messages.success(request, _t("Team %(name)s deleted.") % {"name": team.name})
        return redirect("scoring:team_list", tournament.slug)
    form = TeamForm(request.POST or None, instance=team, tournament=tournament)
    if request.method == "POST" and form.is_valid():
        form.save()
        messages.success(request, _t("Team %(name)s saved.") % {"name": team.name})
        return redirect("scoring:team_list", tournament.slug)
    return render(request, "scoring/team_form.html", _context(tournament, form=form, team=team))


@require_role(ORGANISER)
@team_game_only
@require_http_methods(["GET", "POST"])
def teams_import(request, *, tournament):
    """Import teams from CSV: a row-by-row error report, and nothing imported when any row is wrong
    (``scoring.io.transfer.import_teams_csv``)."""
    from scoring.io import transfer as io

    form = TeamsImportForm(request.POST or None, request.FILES or None)
    report = None
    if request.method == "POST" and form.is_valid():
        try:
            report = io.import_teams_csv(tournament, form.cleaned_data["file"].read())
        except ServiceError as exc:
            form.add_error("file", str(exc))
        else:
            if _report_ok(report):
                count = _report_count(report)
                messages.success(request, _t("%(count)d teams imported.") % {"count": count})
                return redirect("scoring:team_list", tournament.slug)
    context = _context(tournament, form=form, report=report, report_errors=_report_errors(report))
    return render(request, "scoring/teams_import.html", context)


def _report_errors(report) -> list[dict]:
    """Normalise the import report's errors to ``[{"row", "field", "message"}]``."""
    if report is None:
        return []
    errors = getattr(report, "errors", None)
    if errors is None and isinstance(report, dict):
        errors = report.get("errors")
    out = []
    for e in errors or []:
        if isinstance(e, dict):
            out.append({"row": e.get("row", ""), "field": e.get("field", ""), "message": e.get("message", "")})
        elif isinstance(e, (tuple, list)):
            padded = list(e) + ["", "", ""]
            if len(e) == 2:
                out.append({"row": padded[0], "field": "", "message": padded[1]})
            else:
                out.append({"row": padded[0], "field": padded[1], "message": padded[2]})
        else:
            out.append({"row": getattr(e, "row", ""), "field": getattr(e, "field", ""), "message": getattr(e, "message", str(e))})
    return out


def _report_ok(report) -> bool:
    ok = getattr(report, "ok", None)
    if ok is None:
        return not _report_errors(report)
    return bool(ok() if callable(ok) else ok)


def _report_count(report) -> int:
    for name in ("created", "imported", "count", "teams"):
        value = getattr(report, name, None)
        if value is not None:
            return value if isinstance(value, int) else len(value)
    return 0


# --- rounds -----------------------------------------------------------------------------------

def _next_round_number(tournament) -> int:
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


@require_role(ORGANISER)
@team_game_only
@require_POST
def round_pair(request, *, tournament):
    """Pair the next round as a draft (``pairing.pair_next_round``); shows which teams block the
    pairing when no rematch-free pairing exists."""
    from scoring.draw import pairing

    try:
        rnd = pairing.pair_next_round(tournament)
    except PairingImpossible as exc:
        message = str(exc)
        if exc.blocking and not all(name in message for name in exc.blocking):
            message = _t("%(message)s Teams that block the pairing: %(teams)s.") % {
                "message": message, "teams": ", ".join(exc.blocking)}
        messages.error(request, message)
        return redirect("scoring:tournament_detail", tournament.slug)
    except ServiceError as exc:
        messages.error(request, str(exc))
        return redirect("scoring:tournament_detail", tournament.slug)
    messages.success(request, _t("Round %(number)d paired as a draft. Check it, then publish it.") % {"number": rnd.number})
    return redirect("scoring:round_pairings", tournament.slug, rnd.number)


@require_role(ORGANISER)
@team_game_only
@require_http_methods(["GET", "POST"])
def round_edit(request, number, *, tournament):
    """Edit a draft round's pairing by hand (``pairing.set_draft_pairing``); warnings (rematch,
    double booking, missing team) are shown after saving."""
    from scoring.draw import pairing

    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    if rnd.status != Round.Status.DRAFT:
        messages.error(request, _t("Only a draft round can be edited."))
        return redirect("scoring:round_pairings", tournament.slug, rnd.number)
    teams = tournament.teams.order_by("name")
    matches = list(rnd.matches.order_by("table").values("team_ns_id", "team_ew_id"))
    initial = [{"team_ns": m["team_ns_id"], "team_ew": m["team_ew_id"]} for m in matches]
    formset = DraftPairingFormSet(request.POST or None, initial=initial, teams=teams, prefix="t")
    if request.method == "POST" and formset.is_valid():
        try:
            warnings = pairing.set_draft_pairing(rnd, formset.pairs())
        except ServiceError as exc:
            formset._non_form_errors = formset.error_class([str(exc)])
        else:
            if warnings:  # listed on the round page (draft warnings) after the redirect
                messages.warning(request, ngettext(
                    "Draft pairing saved with %(count)d warning.", "Draft pairing saved with %(count)d warnings.",
                    len(warnings)) % {"count": len(warnings)})
            else:
                messages.success(request, _t("Draft pairing saved."))
            return redirect("scoring:round_pairings", tournament.slug, rnd.number)
    warnings = draft_warnings(rnd) if request.method == "GET" else []
    return render(request, "scoring/round_edit.html", _context(tournament, round=rnd, formset=formset, draft_warnings=warnings))


def _round_action(request, tournament, number, action, done_message, **options):
    from scoring.draw import rounds

    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    try:
        getattr(rounds, action)(rnd, **options)
    except (NotAllowed, ServiceError) as exc:
        messages.error(request, str(exc))
    else:
        messages.success(request, done_message % {"number": rnd.number})
    return redirect(reverse("scoring:round_pairings", args=[tournament.slug, rnd.number]))


@require_role(ORGANISER)
@require_POST
def round_publish(request, number, *, tournament):
    """Publish a draft round: its pairings and score sheets become public. A draft with a double
    booking, an absent or missing team is refused; one with a rematch or a second bye only with
    the "publish anyway" box ticked (``publish_anyway``; ``rounds.publish_round``)."""
    accept = request.POST.get("publish_anyway") in ("1", "on", "true")
    return _round_action(request, tournament, number, "publish_round", _t("Round %(number)d published."),
                         accept_warnings=accept)


@require_role(ORGANISER)
@require_POST
def round_start(request, number, *, tournament):
    """Start a published round (in progress: results can be entered)."""
    return _round_action(request, tournament, number, "start_round", _t("Round %(number)d started."))


@require_role(ORGANISER)
@require_POST
def round_close(request, number, *, tournament):
    """Close a round (only when every match is confirmed); the next round can then be paired."""
    return _round_action(request, tournament, number, "close_round", _t("Round %(number)d closed."))
