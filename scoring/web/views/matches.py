"""Tai Pan match pages: the public match page (hands, running totals, status, confirmation, audit)
with the referee's hand entry on the same page, hand preview (htmx), edit/delete of a hand, end at
the time limit, confirm/reopen, restore from the audit, and the PDF downloads (score sheet, round
pack, standings) plus the background round pack (Celery, progress in ``TaskState``).

Views stay thin (DESIGN.md 1): every rule check and every score comes from the engine through
:mod:`scoring.results.matches`; roles are checked here with :func:`scoring.policy.require_role`
(issue 2 item 9, issue 4 items 3-4).
"""
from __future__ import annotations

import json
from pathlib import Path

from django.conf import settings
from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import get_language, gettext_noop
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from engines.errors import RuleViolation
from scoring.errors import ServiceError, StaleVersion
from scoring.models import AuditEntry, Hand, Match, Round, TaskState, Tournament
from scoring.policy import REFEREE, can_organise, can_referee, require_role
from scoring.results import matches as results
from scoring.web.forms.results import (
    SEATS,
    ConfirmForm,
    HandEditForm,
    HandForm,
    ReasonForm,
    add_service_error,
    add_violations,
)

CALL_SHORT = {"tai_pan": _("TP"), "grand_tai_pan": _("GTP")}
RESTORABLE = {AuditEntry.Action.CREATE, AuditEntry.Action.UPDATE, AuditEntry.Action.DELETE, AuditEntry.Action.RESTORE, AuditEntry.Action.END}
STALE_STATUS = 409


# --------------------------------------------------------------------------- helpers


def _match_queryset():
    return Match.objects.with_teams()


def _get_match(request, tournament: Tournament, pk: int) -> Match:
    """The match ``pk`` of ``tournament``; a match of a draft round is visible to members only."""
    match = get_object_or_404(_match_queryset(), pk=pk, round__tournament=tournament)
    if not match.round.is_public and not can_referee(request.user, tournament):
        raise Http404
    return match


def seat_players(match: Match) -> dict[str, str]:
    """Player names by seat: team NS's first player sits N, second S; team EW's first E, second W
    (``Team`` docstring)."""
    out = {"N": match.team_ns.first_player.name, "S": match.team_ns.second_player.name, "E": "", "W": ""}
    if match.team_ew_id:
        out["E"] = match.team_ew.first_player.name
        out["W"] = match.team_ew.second_player.name
    return out


def hand_rows(hands) -> list[dict]:
    """Display rows of ``hands`` for the match pages (:func:`scoring.results.matches.hand_rows`
    with the page's call abbreviations)."""
    return results.hand_rows(hands, CALL_SHORT)


# --------------------------------------------------------------------------- audit history

#: One translatable sentence per action and object (word order differs per language: "Hand 5
#: verwijderd"); marked here, translated when shown.
HAND_ACTIONS = {
    AuditEntry.Action.CREATE: gettext_noop("Hand %(number)s entered"),
    AuditEntry.Action.UPDATE: gettext_noop("Hand %(number)s changed"),
    AuditEntry.Action.DELETE: gettext_noop("Hand %(number)s deleted"),
    AuditEntry.Action.RESTORE: gettext_noop("Hand %(number)s restored"),
}
MATCH_ACTIONS = {
    AuditEntry.Action.END: gettext_noop("Match at table %(table)s ended at the time limit"),
    AuditEntry.Action.CONFIRM: gettext_noop("Result of table %(table)s confirmed"),
    AuditEntry.Action.REOPEN: gettext_noop("Match at table %(table)s reopened"),
    AuditEntry.Action.RESTORE: gettext_noop("End of the match at table %(table)s at the time limit restored"),
}
CALL_NAMES = {"tai_pan": _("Tai Pan"), "grand_tai_pan": _("Grand Tai Pan")}


def audit_action_text(entry: AuditEntry, match: Match) -> str:
    """What an audit entry did, as one translated sentence: ``"Hand 5 deleted"`` (the hand
    number of the snapshot, never a database id), ``"Result of table 3 confirmed"``."""
    if entry.object_type == "hand":
        snapshot = entry.new or entry.old or {}
        template = HAND_ACTIONS.get(entry.action)
        if template is not None:
            return _t(template) % {"number": snapshot.get("number", "?")}
    elif entry.object_type == "match":
        template = MATCH_ACTIONS.get(entry.action)
        if template is not None:
            return _t(template) % {"table": match.table}
    return f"{entry.get_action_display()} {entry.object_type}"


def hand_summary(snapshot: dict | None) -> str:
    """A hand snapshot (``results.hand_snapshot``) as text: ``"NS 175 / EW 25 (card points
    75 / 25), N Tai Pan, first out N"``; ``""`` for none."""
    if not snapshot:
        return ""
    record = snapshot.get("record") or {}
    parts = [_t("NS %(ns)s / EW %(ew)s") % {"ns": snapshot.get("ns", "?"), "ew": snapshot.get("ew", "?")}]
    cp = record.get("card_points") or {}
    if cp:
        parts[0] += " (" + _t("card points %(ns)s / %(ew)s") % {"ns": cp.get("NS", "?"), "ew": cp.get("EW", "?")} + ")"
    for seat in SEATS:
        call = (record.get("calls") or {}).get(seat)
        if call:
            parts.append(f"{seat} {CALL_NAMES.get(call, call)}")
    if record.get("double_victory"):
        parts.append(_t("double victory %(team)s") % {"team": record["double_victory"]})
    if record.get("first_out"):
        parts.append(_t("first out %(seat)s") % {"seat": record["first_out"]})
    return ", ".join(str(p) for p in parts)


def match_summary(snapshot: dict | None) -> str:
    """A match snapshot (``results.match_snapshot``) as text: ``"Finished, NS 800 / EW 0,
    winner Team Anna, match points 2 – 0"``; ``""`` for none."""
    if not snapshot:
        return ""
    status = snapshot.get("status")
    parts = [str(Match.Status(status).label) if status in Match.Status.values else str(status or "")]
    parts.append(_t("NS %(ns)s / EW %(ew)s") % {"ns": snapshot.get("total_ns", "?"), "ew": snapshot.get("total_ew", "?")})
    if status in (Match.Status.FINISHED, Match.Status.CONFIRMED):
        if snapshot.get("winner"):
            parts.append(_t("winner %(team)s") % {"team": snapshot["winner"]})
        else:
            parts.append(_t("draw"))
        parts.append(_t("match points %(ns)s – %(ew)s") % {"ns": snapshot.get("points_ns", 0), "ew": snapshot.get("points_ew", 0)})
    if snapshot.get("ended") == Match.Ended.TIME:
        parts.append(str(Match.Ended.TIME.label))
    return ", ".join(p for p in parts if p)


def restore_label(entry: AuditEntry) -> str:
    """The restore button of an audit row says which version it restores: the deleted hand (the
    version before this change) or the version this change made."""
    if entry.action == AuditEntry.Action.DELETE:
        return _t("Restore the version before this change")
    return _t("Restore this version")


def audit_rows(entries, match: Match) -> list[dict]:
    """Display rows of the match's audit entries: a sentence, readable old/new summaries, the raw
    JSON (for the curious) and whether/how it can be restored."""
    rows = []
    for e in entries:
        summary = hand_summary if e.object_type == "hand" else match_summary
        rows.append({
            "entry": e,
            "what": audit_action_text(e, match),
            "old_text": summary(e.old),
            "new_text": summary(e.new),
            "old": json.dumps(e.old, ensure_ascii=False, sort_keys=True) if e.old is not None else "",
            "new": json.dumps(e.new, ensure_ascii=False, sort_keys=True) if e.new is not None else "",
            "restorable": e.action in RESTORABLE,
            "restore_label": restore_label(e),
        })
    return rows


def _is_locked(match: Match) -> bool:
    return match.status == Match.Status.CONFIRMED


def _can_add(match: Match) -> bool:
    return (
        not match.is_bye
        and match.round.status != Round.Status.DRAFT
        and match.status in (Match.Status.PENDING, Match.Status.PLAYING)
    )


def match_context(request, match: Match, **forms) -> dict:
    """Everything the match page shows; ``forms`` replace the default (unbound) forms."""
    tournament = match.round.tournament
    referee = can_referee(request.user, tournament)
    hands = list(match.hands.select_related("entered_by").order_by("number"))
    audit = list(match.audit_entries.select_related("user").order_by("-created_at", "-id"))
    confirmations = list(match.confirmations.select_related("confirmed_by", "reopened_by").order_by("-confirmed_at", "-id"))
    players = seat_players(match)
    version = {"version": match.version}
    ctx = {
        "tournament": tournament,
        "match": match,
        "round": match.round,
        "players": players,
        "seats": [(s, players[s]) for s in SEATS],
        "rows": hand_rows(hands),
        "audit": audit_rows(audit, match),
        "confirmation": next((c for c in confirmations if c.active), None),
        "confirmations": confirmations,
        "can_referee": referee,
        "can_organise": can_organise(request.user, tournament),
        "can_add": referee and _can_add(match),
        "can_edit": referee and not _is_locked(match) and not match.is_bye,
        "locked": _is_locked(match),
        "blind": tournament.blind_confirmation,
        "hand_form": forms.get("hand_form") or HandForm(initial=version, players=players),
        "end_form": forms.get("end_form") or ReasonForm(initial=version, reason_required=False, prefix="end"),
        "confirm_form": forms.get("confirm_form") or ConfirmForm(initial=version, blind=tournament.blind_confirmation, prefix="confirm"),
        "reopen_form": forms.get("reopen_form") or ReasonForm(initial=version, prefix="reopen"),
        "restore_form": forms.get("restore_form") or ReasonForm(initial=version, prefix="restore"),
        "restore_entry_id": forms.get("restore_entry_id"),
        "stale": forms.get("stale", False),
    }
    acting = referee and not match.is_bye
    ctx["shown_forms"] = {
        "hand_form": ctx["can_add"],
        "end_form": acting and match.status in (Match.Status.PLAYING, Match.Status.PENDING),
        "confirm_form": acting and match.status == Match.Status.FINISHED,
        "reopen_form": acting and match.status == Match.Status.CONFIRMED,
        "restore_form": True,
    }
    return ctx


def _render_match(request, match: Match, status: int = 200, **forms) -> HttpResponse:
    """The match page; the errors of a posted form that the page does not show in the match's
    current state (a hand posted to a finished match, a second confirmation) become error
    messages at the top of the page, so a refused action never looks like nothing happened."""
    ctx = match_context(request, match, **forms)
    for key, shown in ctx["shown_forms"].items():
        form = forms.get(key)
        if form is None or shown or not form.is_bound or not form.errors:
            continue
        for errors in form.errors.values():
            for error in errors:
                messages.error(request, error)
    return render(request, "scoring/match_detail.html", ctx, status=status)


def _check_version(form, match: Match) -> None:
    """Raise :class:`StaleVersion` if the form's ``version`` is not the match's current one (for
    actions whose service takes no ``expected_version``)."""
    version = form.cleaned_data.get("version")
    if version is not None and version != match.version:
        raise StaleVersion()


def _detail_url(match: Match) -> str:
    return reverse("scoring:match_detail", args=[match.round.tournament.slug, match.pk])


# --------------------------------------------------------------------------- public pages


@require_GET
def match_detail(request, slug, pk):
    """Public match page: teams, players and seats, hands with per-hand scores and running
    totals, status, confirmation, audit; for referees also the entry and action forms."""
    tournament = get_object_or_404(Tournament, slug=slug)
    match = _get_match(request, tournament, pk)
    return _render_match(request, match)


# --------------------------------------------------------------------------- hand entry


@require_role(REFEREE)
@require_http_methods(["GET", "POST"])
def match_enter(request, pk, tournament):
    """Add the next hand (POST; GET goes to the entry form on the match page). Engine violations
    stand next to their field, the typed input is kept and nothing is saved."""
    match = _get_match(request, tournament, pk)
    if request.method == "GET":
        return redirect(_detail_url(match) + "#entry")
    players = seat_players(match)
    form = HandForm(request.POST, players=players)
    if not form.is_valid():
        try:
            results.check_can_add(match)  # a finished or confirmed match: say so first
        except ServiceError as err:
            add_service_error(form, err)
        return _render_match(request, match, hand_form=form)
    try:
        results.add_hand(match, form.to_record(), request.user, expected_version=form.cleaned_data.get("version"))
    except RuleViolation as err:
        add_violations(form, err)
    except StaleVersion as err:
        add_service_error(form, err)
        return _render_match(request, match, status=STALE_STATUS, hand_form=form, stale=True)
    except ServiceError as err:
        add_service_error(form, err)
    else:
        messages.success(request, _t("Hand saved."))
        return redirect(_detail_url(match))
    return _render_match(request, match, hand_form=form)


@require_role(REFEREE)
@require_POST
def hand_preview(request, pk, tournament):
    """htmx: the score of the hand being typed and the running totals after it, or the engine's
    violations (swapped next to each field, out of band). ``?hand=N`` previews an edit of hand N."""
    match = _get_match(request, tournament, pk)
    replace = request.GET.get("hand")
    replace_number = int(replace) if replace and replace.isdigit() else None
    form_class = HandEditForm if replace_number else HandForm
    form = form_class(request.POST, players=seat_players(match))
    preview = None
    form.is_valid()
    # The reason of an edit is not needed for a preview.
    form.errors.pop("reason", None)
    if not form.errors:
        try:
            preview = results.preview_hand(match, form.to_record(), replace_number=replace_number)
        except RuleViolation as err:
            add_violations(form, err)
        except ServiceError as err:
            add_service_error(form, err)
    winner = (preview or {}).get("winner")
    context = {
        "form": form,
        "preview": preview,
        "match": match,
        "winner_name": {"NS": match.team_ns.name, "EW": match.team_ew.name if match.team_ew_id else ""}.get(winner or "", ""),
    }
    return render(request, "scoring/partials/hand_preview.html", context)


def _get_hand(match: Match, number: int) -> Hand:
    return get_object_or_404(Hand, match=match, number=number)


@require_role(REFEREE)
@require_http_methods(["GET", "POST"])
def hand_edit(request, pk, number, tournament):
    """Edit hand ``number`` with a reason; totals and status follow (services.results)."""
    match = _get_match(request, tournament, pk)
    hand = _get_hand(match, number)
    players = seat_players(match)
    stale = False
    if request.method == "POST":
        form = HandEditForm(request.POST, players=players)
        if form.is_valid():
            try:
                results.update_hand(
                    hand,
                    form.to_record(),
                    request.user,
                    expected_version=form.cleaned_data.get("version"),
                    reason=form.cleaned_data["reason"],
                )
            except RuleViolation as err:
                add_violations(form, err)
            except StaleVersion as err:
                add_service_error(form, err)
                stale = True
            except ServiceError as err:
                add_service_error(form, err)
            else:
                messages.success(request, _t("Hand %(number)s changed.") % {"number": number})
                return redirect(_detail_url(match))
    else:
        form = HandEditForm(initial=HandForm.initial_from_record(hand.record, match.version), players=players)
    context = {
        "tournament": tournament,
        "match": match,
        "hand": hand,
        "form": form,
        "stale": stale,
        "players": players,
        "form_action": reverse("scoring:hand_edit", args=[tournament.slug, match.pk, number]),
        "preview_url": reverse("scoring:hand_preview", args=[tournament.slug, match.pk]) + f"?hand={number}",
    }
    return render(request, "scoring/hand_edit.html", context, status=STALE_STATUS if stale else 200)


@require_role(REFEREE)
@require_http_methods(["GET", "POST"])
def hand_delete(request, pk, number, tournament):
    """Delete hand ``number`` with a reason (GET asks for the reason)."""
    match = _get_match(request, tournament, pk)
    hand = _get_hand(match, number)
    stale = False
    if request.method == "POST":
        form = ReasonForm(request.POST)
        if form.is_valid():
            try:
                results.delete_hand(
                    hand, request.user, expected_version=form.cleaned_data.get("version"), reason=form.cleaned_data["reason"]
                )
            except StaleVersion as err:
                add_service_error(form, err)
                stale = True
            except ServiceError as err:
                add_service_error(form, err)
            else:
                messages.success(request, _t("Hand %(number)s deleted.") % {"number": number})
                return redirect(_detail_url(match))
    else:
        form = ReasonForm(initial={"version": match.version})
    row = hand_rows([hand])[0]
    context = {"tournament": tournament, "match": match, "hand": hand, "row": row, "form": form, "stale": stale}
    return render(request, "scoring/hand_delete.html", context, status=STALE_STATUS if stale else 200)


# --------------------------------------------------------------------------- match actions


def _match_action(request, match: Match, form, form_key: str, action, success: str, on_success=None, **extra) -> HttpResponse:
    """Run ``action(form)`` for a valid ``form``; re-render the match page with the error next to
    the form otherwise (409 for a stale version). ``on_success()`` may add further messages."""
    if form.is_valid():
        try:
            action(form)
        except StaleVersion as err:
            add_service_error(form, err)
            return _render_match(request, match, status=STALE_STATUS, stale=True, **{form_key: form}, **extra)
        except (ServiceError, RuleViolation) as err:
            if isinstance(err, RuleViolation):
                for v in err.violations:
                    form.add_error(None, v.message)
            else:
                add_service_error(form, err)
        else:
            messages.success(request, success)
            if on_success is not None:
                on_success()
            return redirect(_detail_url(match))
    return _render_match(request, match, **{form_key: form}, **extra)


@require_role(REFEREE)
@require_POST
def match_end(request, pk, tournament):
    """End the match at the time limit (higher total wins, equal is a draw; DESIGN.md 3)."""
    match = _get_match(request, tournament, pk)
    form = ReasonForm(request.POST, reason_required=False, prefix="end")

    def action(f):
        results.end_match_at_time(match, request.user, expected_version=f.cleaned_data.get("version"), reason=f.cleaned_data["reason"])

    return _match_action(request, match, form, "end_form", action, _t("The match was ended at the time limit."))


@require_role(REFEREE)
@require_http_methods(["GET", "POST"])
def match_confirm(request, pk, tournament):
    """Confirm the result (a different user from whoever entered the hands). With blind
    confirmation the GET page asks for the final totals without showing them."""
    match = _get_match(request, tournament, pk)
    blind = tournament.blind_confirmation
    if request.method == "GET":
        form = ConfirmForm(initial={"version": match.version}, blind=blind, prefix="confirm")
        return render(request, "scoring/match_confirm.html", {"tournament": tournament, "match": match, "form": form, "blind": blind})
    form = ConfirmForm(request.POST, blind=blind, prefix="confirm")

    def action(f):
        _check_version(f, match)
        results.confirm_match(match, request.user, totals=f.totals())

    if blind:
        # Re-render the blind page (never the totals) on an error.
        if form.is_valid():
            try:
                action(form)
            except ServiceError as err:
                add_service_error(form, err)
            else:
                messages.success(request, _t("The match result is confirmed."))
                return redirect(_detail_url(match))
        ctx = {"tournament": tournament, "match": match, "form": form, "blind": blind}
        return render(request, "scoring/match_confirm.html", ctx)
    return _match_action(request, match, form, "confirm_form", action, _t("The match result is confirmed."))


@require_role(REFEREE)
@require_POST
def match_reopen(request, pk, tournament):
    """Reopen a confirmed match with a reason (issue 4 item 3). A closed round goes back to in
    progress (the match must be confirmed and the round closed again): the user is told, and
    warned when a later round was already paired on the old result."""
    match = _get_match(request, tournament, pk)
    form = ReasonForm(request.POST, prefix="reopen")
    rnd = match.round
    was_closed = rnd.status == Round.Status.CLOSED

    def action(f):
        _check_version(f, match)
        results.reopen_match(match, request.user, f.cleaned_data["reason"])

    def tell():
        if was_closed:
            messages.warning(request, _t(
                "Round %(number)s is in progress again: confirm this match again, then close the round again.")
                % {"number": rnd.number})
        later = list(Round.objects.filter(tournament=tournament, number__gt=rnd.number)
                     .order_by("number").values_list("number", flat=True))
        if later:
            messages.warning(request, _t(
                "Round %(later)s has already been paired on the old result of this match; "
                "check whether that pairing still holds.") % {"later": ", ".join(map(str, later))})

    return _match_action(request, match, form, "reopen_form", action, _t("The match was reopened."), on_success=tell)


@require_role(REFEREE)
@require_POST
def audit_restore(request, pk, entry_id, tournament):
    """Restore the hand/match state of an audit entry (issue 4 item 4) with a reason (required,
    as for an edit, delete or reopen). A restore that would change nothing is refused."""
    match = _get_match(request, tournament, pk)
    entry = get_object_or_404(AuditEntry, pk=entry_id, match=match)
    form = ReasonForm(request.POST, prefix="restore")

    def action(f):
        _check_version(f, match)
        results.restore_audit_entry(entry, request.user, reason=f.cleaned_data["reason"])

    return _match_action(
        request, match, form, "restore_form", action, _t("The earlier version was restored."), restore_entry_id=entry.pk
    )


# --------------------------------------------------------------------------- PDFs


def _pdf_response(data: bytes, filename: str) -> HttpResponse:
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


def _get_round(request, tournament: Tournament, number: int) -> Round:
    rnd = get_object_or_404(Round, tournament=tournament, number=number)
    if not rnd.is_public and not can_referee(request.user, tournament):
        raise Http404
    return rnd


@require_GET
def score_sheet_pdf(request, slug, pk):
    """The score sheet of one match (public once the round is published)."""
    from scoring.printing import matches as pdf

    tournament = get_object_or_404(Tournament, slug=slug)
    match = _get_match(request, tournament, pk)
    data = pdf.score_sheet_pdf(match, base_url=_base_url(request))
    return _pdf_response(data, f"{tournament.slug}-r{match.round.number}-t{match.table}.pdf")


@require_GET
def round_pack_pdf(request, slug, number):
    """Every score sheet of a round in one PDF (public download). The PDF is built once per state
    of the round (``tasks.round_pack_key``) and kept in the cache (Redis in production), so
    repeated downloads by players do not rebuild it in the web process."""
    from django.core.cache import cache

    from scoring import tasks
    from scoring.printing import matches as pdf

    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = _get_round(request, tournament, number)
    base_url = _base_url(request)
    key = f"{tasks.round_pack_key(rnd)}:{base_url}:{get_language()}"
    data = cache.get_or_set(key, lambda: pdf.round_pack_pdf(rnd, base_url=base_url), timeout=6 * 3600)
    return _pdf_response(data, f"{tournament.slug}-round-{rnd.number}.pdf")


@require_GET
def standings_pdf(request, slug):
    """The standings as a PDF (services.standings)."""
    from scoring.printing import matches as pdf

    tournament = get_object_or_404(Tournament, slug=slug)
    return _pdf_response(pdf.standings_pdf(tournament), f"{tournament.slug}-standings.pdf")


# --------------------------------------------------------------------------- background round pack


@require_role(REFEREE)
@require_POST
def round_pack_build(request, number, tournament):
    """Start (or reuse) the background build of a round pack and go to its progress page."""
    from scoring import tasks

    rnd = _get_round(request, tournament, number)
    state = tasks.start_round_pack(rnd, base_url=_base_url(request))
    return redirect("scoring:round_pack_status", tournament.slug, rnd.number, state.pk)


def _task_state(rnd: Round, task_id: int) -> TaskState:
    state = get_object_or_404(TaskState, pk=task_id, kind="round_pack")
    if not state.key.startswith(f"round_pack:{rnd.pk}:"):
        raise Http404
    return state


@require_GET
def round_pack_status(request, slug, number, task_id):
    """Progress page of a background round pack; the progress part polls every second (htmx)
    until the pack is done, then shows the download link."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = _get_round(request, tournament, number)
    state = _task_state(rnd, task_id)
    context = {"tournament": tournament, "round": rnd, "state": state}
    template = "scoring/partials/round_pack_progress.html" if request.htmx else "scoring/match_round_pack.html"
    return render(request, template, context)


@require_GET
def round_pack_download(request, slug, number, task_id):
    """The PDF written by the background round pack."""
    tournament = get_object_or_404(Tournament, slug=slug)
    rnd = _get_round(request, tournament, number)
    state = _task_state(rnd, task_id)
    if state.status != "done" or not state.result_path:
        raise Http404
    path = Path(settings.MEDIA_ROOT) / state.result_path
    if not path.is_file():
        raise Http404
    return FileResponse(path.open("rb"), content_type="application/pdf", filename=f"{tournament.slug}-round-{rnd.number}.pdf")
