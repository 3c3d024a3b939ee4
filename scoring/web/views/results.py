"""Result pages, one set of views for Tai Pan matches and four-player tables (``kind``: ``"match"``
or ``"table"``, given by the URL): the public result page, the referee's entry page with a live
preview (htmx), editing and deleting a record, ending at the time limit and resuming, confirming,
reopening and restoring from the audit trail.

Views stay thin: every rule is the result sheet's (:mod:`scoring.results.sheet`), every score the
engine's through the game's adapter; the views only collect input, call the sheet and show its
errors next to the fields. Permissions are declared with
:func:`scoring.web.decorators.tournament_view` and checked again by the sheet.
"""
from __future__ import annotations

import re
import uuid
from collections.abc import Iterator, Mapping

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import policy
from scoring.errors import ServiceError, StaleVersion
from scoring.games.base import RuleViolation
from scoring.games.entry import violation_message
from scoring.locking import parse_version
from scoring.models import AuditEntry, Confirmation, ResultContainer, Round, Tournament
from scoring.policy import Perm
from scoring.results import audit, sheet
from scoring.results.storage import storage_of
from scoring.web.conditional import conditional, render_live, result_state
from scoring.web.decorators import actor_of, result_for, tournament_view, visible_result
from scoring.web.forms.results import ConfirmForm, DisputeForm, ReasonForm
from scoring.web.links import lost_link

STALE_STATUS = 409
#: What an entry form's submission token looks like (``uuid4().hex``; hyphens allowed).
_TOKEN = re.compile(r"[0-9A-Za-z-]{16,64}")

#: URL names per kind of result (the same views serve both).
URL_NAMES = {
    "match": {"detail": "match_detail", "enter": "match_enter", "preview": "hand_preview", "edit": "hand_edit",
              "delete": "hand_delete", "end": "match_end", "resume": "match_resume", "confirm": "match_confirm",
              "dispute": "match_dispute", "reopen": "match_reopen", "restore": "audit_restore",
              "sheet": "score_sheet_pdf"},
    "table": {"detail": "table_detail", "enter": "table_enter", "preview": "deal_preview", "edit": "deal_edit",
              "delete": "deal_delete", "end": "table_end", "resume": "table_resume", "confirm": "table_confirm",
              "dispute": "table_dispute", "reopen": "table_reopen", "restore": "table_audit_restore",
              "sheet": "table_sheet_pdf"},
}


class ResultURLs(Mapping):
    """The URLs of a result's pages and actions by key (``detail``, ``enter``, ``confirm``...,
    ``round``; record URLs take a number: see ``_record_url``), each reversed when first read: a
    round's page shows one or two of them per table, not all eleven."""

    __slots__ = ("_kind", "_slug", "_container", "_urls")

    def __init__(self, kind: str, tournament: Tournament, container: ResultContainer) -> None:
        self._kind, self._slug, self._container, self._urls = kind, tournament.slug, container, {}

    def _names(self) -> list[str]:
        return [key for key in URL_NAMES[self._kind] if key not in RECORD_ACTIONS] + ["round"]

    def __getitem__(self, key: str) -> str:
        url = self._urls.get(key)
        if url is None:
            if key == "round":
                url = reverse("scoring:round_pairings", args=[self._slug, self._container.round.number])
            elif key in URL_NAMES[self._kind] and key not in RECORD_ACTIONS:
                url = reverse(f"scoring:{URL_NAMES[self._kind][key]}", args=[self._slug, self._container.pk])
            else:
                raise KeyError(key)
            self._urls[key] = url
        return url

    def __iter__(self) -> Iterator[str]:
        return iter(self._names())

    def __len__(self) -> int:
        return len(self._names())


#: The URL names of ``URL_NAMES`` that take a record's number (not in :class:`ResultURLs`).
RECORD_ACTIONS = ("edit", "delete", "restore")


def urls_of(kind: str, tournament: Tournament, container: ResultContainer) -> ResultURLs:
    """The URLs of a result's pages and actions, a read-only mapping reversed on demand
    (:class:`ResultURLs`; record URLs take a number: see ``_record_url``)."""
    return ResultURLs(kind, tournament, container)


def _record_url(kind: str, action: str, tournament: Tournament, container: ResultContainer, number: int) -> str:
    return reverse(f"scoring:{URL_NAMES[kind][action]}", args=[tournament.slug, container.pk, number])


# --------------------------------------------------------------------------- page context


def record_rows(kind: str, tournament: Tournament, container: ResultContainer, records) -> list[dict]:
    """Display rows of ``records`` (in order): ``number``, ``cells`` (what was entered, under
    ``adapter.record_headers()``), ``scores`` and ``running`` per side, edit/delete URLs."""
    storage, adapter = storage_of(container), tournament.adapter
    rows, running = [], [0] * len(adapter.sides)
    for rec in records:
        scores = storage.scores(rec)
        running = [a + b for a, b in zip(running, scores, strict=True)]
        rows.append({
            "record": rec,
            "number": rec.number,
            "cells": adapter.record_cells(rec.record),
            "summary": adapter.summary(rec.record),
            "scores": list(scores),
            "running": list(running),
            "pairs": list(zip(scores, running, strict=True)),
            "edit_url": _record_url(kind, "edit", tournament, container, rec.number),
            "delete_url": _record_url(kind, "delete", tournament, container, rec.number),
        })
    return rows


def audit_rows(kind: str, tournament: Tournament, container: ResultContainer, entries) -> list[dict]:
    """Display rows of the audit trail: one translated sentence per entry, readable old and new
    values (no raw JSON), and whether and how it can be restored."""
    storage, adapter = storage_of(container), tournament.adapter
    number = storage.number(container)
    container_sentences = {
        AuditEntry.Action.END: _t("Ended at the time limit (table %(table)s)"),
        AuditEntry.Action.RESUME: _t("Play resumed after the time limit (table %(table)s)"),
        AuditEntry.Action.CONFIRM: _t("Result of table %(table)s confirmed"),
        AuditEntry.Action.REOPEN: _t("Result of table %(table)s reopened"),
        AuditEntry.Action.RESTORE: _t("End at the time limit restored (table %(table)s)"),
        AuditEntry.Action.DISPUTE: _t("Totals of table %(table)s disputed"),
    }
    rows = []
    for e in entries:
        if e.object_type == storage.record_type:
            snapshot = e.new or e.old or {}
            what = adapter.audit_sentence(e.action, snapshot.get("number", "?"))
            old_text = _record_text(adapter, storage, e.old)
            new_text = _record_text(adapter, storage, e.new)
        elif e.action == AuditEntry.Action.DISPUTE:
            what = container_sentences[e.action] % {"table": number}
            old_text = _result_text(adapter, e.old)
            new_text = _t("their totals: %(totals)s") % {"totals": _totals_text(adapter, (e.new or {}).get("totals"))}
        else:
            what = container_sentences.get(e.action, e.get_action_display()) % {"table": number}
            old_text, new_text = _result_text(adapter, e.old), _result_text(adapter, e.new)
        rows.append({
            "entry": e,
            "what": what,
            "old_text": old_text,
            "new_text": new_text,
            "restorable": e.action in sheet.RESTORABLE,
            "restore_label": _t("Restore the version before this change") if e.action == AuditEntry.Action.DELETE
            else _t("Restore this version"),
            "restore_url": _record_url(kind, "restore", tournament, container, e.pk),
        })
    return rows


def _record_text(adapter, storage, snapshot) -> str:
    if not snapshot:
        return ""
    scores = [snapshot["ns"], snapshot["ew"]] if "ns" in snapshot else list(snapshot.get("net") or [])
    labels = adapter.side_labels()
    head = " / ".join(f"{label} {score}" for label, score in zip(labels, scores, strict=False))
    summary = adapter.summary(snapshot.get("record") or {})
    return f"{head} ({summary})" if summary else head


def _totals_text(adapter, totals) -> str:
    """Totals per side with the side labels: ``"NS 400 / EW 300"``."""
    return " / ".join(f"{label} {t}" for label, t in zip(adapter.side_labels(), totals or [], strict=False))


def dispute_rows(adapter, disputes, *, show_entered: bool = True) -> list[dict]:
    """Display rows of a result's open disputes: who reported it, when, both versions of the
    totals (``entered``: what was entered then, left out for a side that must not see it before
    confirming blind) and the note."""
    return [{"dispute": d, "who": d.via_entrant, "when": d.created_at, "theirs": _totals_text(adapter, d.totals),
             "entered": _totals_text(adapter, d.entered_totals) if show_entered else "", "note": d.note} for d in disputes]


def _result_text(adapter, snapshot) -> str:
    if not snapshot:
        return ""
    status = snapshot.get("status")
    parts = [str(ResultContainer.Status(status).label) if status in ResultContainer.Status.values else str(status or "")]
    if "total_ns" in snapshot:
        parts.append(f"NS {snapshot.get('total_ns')} / EW {snapshot.get('total_ew')}")
        if status in ("finished", "confirmed"):
            parts.append(_t("winner %(team)s") % {"team": snapshot["winner"]} if snapshot.get("winner") else _t("draw"))
            if "points_ns" in snapshot:
                parts.append(_t("match points %(ns)s – %(ew)s") % {"ns": snapshot["points_ns"], "ew": snapshot.get("points_ew", 0)})
    elif snapshot.get("totals"):
        parts.append(" / ".join(f"{label} {t}" for label, t in zip(adapter.side_labels(), snapshot["totals"], strict=False)))
    if snapshot.get("ended") == ResultContainer.Ended.TIME:
        parts.append(str(ResultContainer.Ended.TIME.label))
    return ", ".join(p for p in parts if p)


def short_label(label: str) -> str:
    """A side's label short enough for a phone's column head: as it is up to 3 characters
    ("NS"), else its number ("Seat 2" -> "2") or its first letter ("East" -> "E")."""
    label = str(label)
    if len(label) <= 3:
        return label
    last = label.split()[-1]
    return last if last.isdigit() else label[:1]


def result_context(request, tournament: Tournament, container: ResultContainer, kind: str, **extra) -> dict:
    """Everything a result page shows. ``extra`` (forms, flags) overrides the defaults. What the
    page offers depends on the actor (:func:`scoring.web.decorators.actor_of`): a member, an
    entrant of this table through its private link, or the public."""
    storage, adapter = storage_of(container), tournament.adapter
    actor = actor_of(request)
    rnd = container.round
    records = list(storage.record_model.objects.filter(**{storage.record_fk: container}).order_by("number"))
    member = policy.has_perm(actor, Perm.VIEW_AUDIT, tournament)
    entrant = actor if policy.is_entrant(actor) and policy.is_side_of(actor, container) else None
    referee = policy.has_perm(actor, Perm.ENTER_RESULTS, tournament, result=container)
    may_enter = referee and sheet.may_enter(container, actor)
    bye = storage.is_bye(container)
    confirmed = container.status == container.Status.CONFIRMED
    open_round = rnd.is_open
    confirmations = list(Confirmation.objects.filter(**storage.audit_link(container))
                         .select_related("confirmed_by", "reopened_by").order_by("-confirmed_at", "-id")) if member else []
    active = next((c for c in confirmations if c.active), None)
    entries = list(AuditEntry.objects.filter(**storage.audit_link(container)).select_related("user").order_by("-created_at", "-id")) if member else []
    editable = may_enter and open_round and not confirmed and not bye
    totals = storage.totals(container)
    entered_it = entrant is not None and audit.has_changed(container, entrant)
    # Blind confirmation: the public (and a side that is to confirm) sees no totals (nor scores)
    # until the result is confirmed.
    hide_totals = sheet.totals_hidden(container, actor)
    sides = storage.sides(container, adapter)
    for side, total in zip(sides, totals, strict=False):
        side["total"] = total
    disputes = sheet.open_disputes(container) if (member or entrant) and not bye else []
    finished_open = open_round and not bye and container.status == container.Status.FINISHED
    can_dispute = (entrant is not None and finished_open and not entered_it
                   and policy.has_perm(actor, Perm.CONFIRM_RESULTS, tournament, result=container))
    entering = audit.entrants_who_entered(container) if entrant is not None else []
    # One rule for offering the confirmation and refusing it (sheet.confirm_refusal): the page
    # says why instead of offering a button that would only be refused.
    confirm_refusal = sheet.confirm_refusal(container, actor)
    ctx = {
        "tournament": tournament,
        "round": rnd,
        "container": container,
        "kind": kind,
        "adapter": adapter,
        "number": storage.number(container),
        "sides": sides,
        "side_labels": adapter.side_labels(),
        "record_headers": adapter.record_headers(),
        "record_noun": adapter.record_noun[0],
        "records_noun": adapter.record_noun[1],
        "rows": record_rows(kind, tournament, container, records),
        "totals": totals,
        "winner_name": storage.winner_name(container),
        "outcome_text": storage.outcome_text(container),
        "title": storage.title(container),
        "state_text": adapter.state_text(container.state) if hasattr(container, "state") else "",
        "bye": bye,
        "member": member,
        "referee": referee,
        "can_organise": policy.can_organise(actor, tournament),
        "can_referee": referee,
        "can_add": may_enter and sheet.can_add(container),
        "can_edit": editable,
        "can_end": editable and container.status in (container.Status.PENDING, container.Status.PLAYING),
        "can_resume": editable and container.ended == container.Ended.TIME,
        "can_confirm": not confirm_refusal,
        "confirm_refusal": confirm_refusal,
        "can_dispute": can_dispute,
        "can_reopen": confirmed and policy.has_perm(actor, policy.reopen_perm(rnd), tournament),
        "confirmation": active,
        "confirmations": confirmations,
        "audit": audit_rows(kind, tournament, container, entries) if member else [],
        "blind": tournament.blind_confirmation,
        "urls": urls_of(kind, tournament, container),
        "limit": adapter.record_limit(tournament),
        "reason_form": ReasonForm(),
        "end_form": ReasonForm(prefix="end"),
        "reopen_form": ReasonForm(prefix="reopen"),
        "restore_form": ReasonForm(prefix="restore"),
        "stale": False,
        "hide_totals": hide_totals,
        # The page re-reads its changing part while something can still change (htmx polling).
        "live": not bye and open_round,
        "entry_open": open_round and not bye and not confirmed,
        "record_columns": len(adapter.record_headers()) + len(adapter.sides) + 3,
        "side_columns": [(label, short_label(label)) for label in adapter.side_labels()],
        "show_tokens": False,
        "result_noun": storage.noun,
        # Private links (issue 15): the entrant of this table acting through its link, if any.
        "entrant": entrant,
        "entrant_home": reverse("scoring:entrant_home", args=[tournament.slug]) if entrant is not None else "",
        "entered_it": entered_it,
        "other_side_enters": entrant is not None and bool(entering) and entering[0] != entrant.link_id,
        "player_entry": tournament.player_entry,
        "disputes": dispute_rows(adapter, disputes, show_entered=member or entered_it or not tournament.blind_confirmation),
    }
    ctx.update(extra)
    return ctx


def _container(request, tournament, kind, pk) -> ResultContainer:
    return visible_result(request, tournament, kind, pk)


def _names(container: ResultContainer, tournament: Tournament) -> dict[str, str]:
    return storage_of(container).names(container, tournament.adapter)


def _entry(tournament, container, data=None, initial=None):
    return tournament.adapter.entry(data, names=_names(container, tournament), initial=initial, settings=tournament)


def _version(request) -> int:
    return parse_version(request.POST.get("version"))


# --------------------------------------------------------------------------- public page


@require_GET
@tournament_view()
@conditional(result_state)
def detail(request, pk, *, tournament, kind):
    """The result page: sides, every record with its scores and running totals, status, how it
    ended and the winner; members also see the confirmation history, the audit trail and the
    referee's actions. A poll that finds the result unchanged gets 304
    (:mod:`scoring.web.conditional`)."""
    container = _container(request, tournament, kind, pk)
    return render_live(request, "results/detail.html", "results/_live.html", result_context(request, tournament, container, kind))


# --------------------------------------------------------------------------- entry


def _submission_token(request) -> str:
    """The entry form's idempotency key: the posted one when the form comes back (an error), a new
    random one for a new form (:func:`scoring.results.sheet.add_record`)."""
    posted = request.POST.get("submission", "") if request.method == "POST" else ""
    if _TOKEN.fullmatch(posted or ""):
        return posted
    return uuid.uuid4().hex


def error_fields(entry) -> list[dict]:
    """The fields of ``entry`` that carry an error, in page order, as ``{"label", "id"}`` (the
    banner at the top of the form links to them; the messages themselves stand at the fields)."""
    out = []
    for form in entry.forms:
        prefix = entry.form_label(form)
        for name in form.errors:
            if name == "__all__" or name not in form.fields:
                continue
            label = " · ".join(str(x) for x in (prefix, form.fields[name].label) if x)
            out.append({"label": label, "id": form[name].auto_id})
        for key in getattr(form, "group_errors", {}) or {}:
            out.append({"label": str(form.GROUP_LABELS[key]), "id": f"{key}_errors"})
    return out


def named_errors(form) -> list[dict]:
    """The errors of a plain form (a reason, a confirmation) as ``{"label", "id", "message"}``,
    fields in form order and then the form's own errors (``label`` and ``id`` empty): banners and
    messages say which field an error is about ("Reason: This field is required."), as the entry
    page's banner does (:func:`error_fields`)."""
    out = []
    for name, errors in form.errors.items():
        field = form.fields.get(name)
        for message in errors:
            if field is None:
                out.append({"label": "", "id": "", "message": message})
            else:
                out.append({"label": str(field.label or name), "id": form[name].auto_id, "message": message})
    return sorted(out, key=lambda e: not e["label"])


def _render_entry(request, tournament, container, kind, entry, *, status=200, number=None, stale=False, reason_form=None,
                  **extra):
    ctx = result_context(request, tournament, container, kind, entry=entry, editing=number, stale=stale,
                         reason_form=reason_form or ReasonForm(), submission=_submission_token(request),
                         show_tokens=True, error_fields=error_fields(entry) if entry.bound else [], **extra)
    ctx["preview_url"] = ctx["urls"]["preview"] + (f"?hand={number}" if number else "")
    ctx["form_action"] = _record_url(kind, "edit", tournament, container, number) if number else ctx["urls"]["enter"]
    return render(request, "results/enter.html", ctx, status=status)


@require_http_methods(["GET", "POST"])
@tournament_view()
def enter(request, pk, *, tournament, kind):
    """The referee's entry page (the QR code of the score sheet opens it): the records so far with
    their running totals, then the next record's form with a live preview. POST saves the record
    and comes back here at the new record (``#record-N``, highlighted); engine violations stand
    next to their field, the typed input is kept and nothing is saved.

    The form carries a ``submission`` token: a repeated POST of the same form (a retry after a
    dropped connection) is answered with the record already stored, never a second one.

    A visitor who is not logged in (the referee scanning the QR code) goes to the login page,
    which comes back here and offers the public result page to whoever only wants to look
    (:class:`scoring.web.views.account.LoginView`). Logged-in users who may not enter results (a
    member of another tournament) are sent to the result page on GET with a note; a POST by them
    is refused (403)."""
    actor = actor_of(request)
    if policy.is_entrant(actor):
        # A side of the table through its private link: its own result, with player entry on,
        # unless another side enters it (that side confirms instead).
        container = _container(request, tournament, kind, pk)
        allowed = sheet.may_enter(container, actor)
    else:
        allowed = policy.has_perm(actor, Perm.ENTER_RESULTS, tournament)
    if not allowed:
        if not request.user.is_authenticated and not policy.is_entrant(actor) and not lost_link(request):
            return redirect_to_login(request.get_full_path())
        if request.method == "GET":
            container = _container(request, tournament, kind, pk)
            if policy.is_entrant(actor):
                messages.info(request, _entrant_refusal(tournament, container, actor))
            elif request.user.is_authenticated:
                messages.info(request, _t("Only the tournament's referees and organisers enter results."))
            return redirect(urls_of(kind, tournament, container)["detail"])
        raise PermissionDenied  # the 403 page speaks to a side's phone of its link
    container = _container(request, tournament, kind, pk)
    if request.method == "GET":
        return _render_entry(request, tournament, container, kind, _entry(tournament, container))
    entry = _entry(tournament, container, request.POST)
    if not entry.is_valid():
        try:
            sheet.check_can_add(container)  # a finished or confirmed result: say so first
        except ServiceError as err:
            entry.add_error("", err.message)
        return _render_entry(request, tournament, container, kind, entry, status=400)
    try:
        rec = sheet.add_record(container, entry.record(), actor, expected_version=_version(request),
                               submission=request.POST.get("submission") or None)
    except RuleViolation as err:
        entry.add_violations(err)
    except StaleVersion as err:
        entry.add_error("", err.message)
        container.refresh_from_db()
        return _render_entry(request, tournament, container, kind, entry, status=STALE_STATUS, stale=True)
    except ServiceError as err:
        entry.add_error(err.field, err.message)
    else:
        noun = str(tournament.adapter.record_noun[0])
        text = _t("%(noun)s %(number)s was already saved.") if rec.replayed else _t("%(noun)s %(number)s saved.")
        messages.success(request, text % {"noun": noun.capitalize(), "number": rec.number})
        return redirect(urls_of(kind, tournament, container)["enter"] + f"#record-{rec.number}")
    container.refresh_from_db()
    return _render_entry(request, tournament, container, kind, entry, status=400)


def _entrant_refusal(tournament: Tournament, container: ResultContainer, actor) -> str:
    """Why an entrant may not enter this result, in words."""
    if not tournament.player_entry:
        return _t("The organiser has not turned on player entry: the referees enter the results.")
    if not policy.is_side_of(actor, container):
        return _t("Through your link you enter only the results of your own table.")
    try:
        sheet.check_may_enter(container, actor)
    except ServiceError as err:
        return str(err.message)
    return _t("Nothing can be entered in this result's state.")


def _entering(request, tournament, kind, pk) -> ResultContainer:
    """The result for a view that changes records (preview, edit, delete, end, resume): members
    with the permission, or the entering side of this very table through its link (403 for
    anyone else)."""
    container = result_for(request, tournament, kind, pk, Perm.ENTER_RESULTS)
    if not sheet.may_enter(container, actor_of(request)):
        raise PermissionDenied
    return container


def _replace_number(request) -> int | None:
    raw = request.GET.get("hand") or request.POST.get("replace_number") or ""
    return int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 6 else None


@require_POST
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def preview(request, pk, *, tournament, kind):
    """htmx: the scores of the record being typed and the running totals after it, or every
    error (next to each field, swapped out of band). ``?hand=N``: an edit of record N."""
    container = _entering(request, tournament, kind, pk)
    adapter = tournament.adapter
    entry = _entry(tournament, container, request.POST)
    result = None
    if entry.is_valid():
        try:
            result = sheet.preview(container, entry.record(), replace_number=_replace_number(request))
        except RuleViolation as err:
            entry.add_violations(err)
        except ServiceError as err:
            entry.add_error(err.field, err.message)
    names = _names(container, tournament)
    ctx = {
        "tournament": tournament,
        "adapter": adapter,
        "entry": entry,
        "errors": entry.error_lines() if result is None else [],
        "preview": result,
        "side_labels": adapter.side_labels(),
        "side_names": [names.get(k, "") for k in adapter.sides],
        "items": adapter.preview_items(result.outcome, names) if result else [],
        "payments": adapter.payments(result.outcome, names) if result else [],
        "state_after": adapter.state_text(result.outcome.state_after) if result else "",
        "winner_name": names.get(adapter.sides[result.evaluation.winner], "") if result and result.evaluation.winner is not None else "",
    }
    return render(request, "results/_preview.html", ctx)


def _record_or_conflict(request, tournament, container, kind, number):
    """``(record, None)``, or ``(None, the 409 conflict page)`` when record ``number`` is gone and the
    POST was built from an older version of the result: a colleague deleted it (or renumbered the
    records) in the meantime, which is the same race as any other and answers the same "changed by
    someone else, reload" conflict, the entry page with the result as it is now (its "Reload" leads
    to the result). A record that is not there for any other reason is a 404."""
    storage = storage_of(container)
    rec = storage.record_model.objects.filter(**{storage.record_fk: container, "number": number}).first()
    if rec is not None:
        return rec, None
    if request.method == "POST":
        try:
            stale = parse_version(request.POST.get("version")) != container.version
        except StaleVersion:
            stale = True
        if stale:
            entry = _entry(tournament, container)
            messages.error(request, StaleVersion().message)
            return None, _render_entry(request, tournament, container, kind, entry, status=STALE_STATUS, stale=True,
                                       reload_url=urls_of(kind, tournament, container)["detail"])
    raise Http404()


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def edit(request, pk, number, *, tournament, kind):
    """Edit record ``number`` with a reason; later records, totals and state follow."""
    container = _entering(request, tournament, kind, pk)
    rec, conflict = _record_or_conflict(request, tournament, container, kind, number)
    if conflict is not None:
        return conflict
    if request.method == "GET":
        return _render_entry(request, tournament, container, kind, _entry(tournament, container, initial=rec.record), number=number)
    entry = _entry(tournament, container, request.POST)
    reason_form = ReasonForm(request.POST)
    valid = entry.is_valid() & reason_form.is_valid()
    if valid:
        try:
            sheet.edit_record(container, number, entry.record(), actor_of(request), expected_version=_version(request),
                              reason=reason_form.cleaned_data["reason"])
        except RuleViolation as err:
            entry.add_violations(err)
        except StaleVersion as err:
            entry.add_error("", err.message)
            container.refresh_from_db()
            return _render_entry(request, tournament, container, kind, entry, status=STALE_STATUS, number=number,
                                 stale=True, reason_form=reason_form)
        except ServiceError as err:
            entry.add_error(err.field, err.message)
        else:
            noun = str(tournament.adapter.record_noun[0])
            messages.success(request, _t("%(noun)s %(number)s changed.") % {"noun": noun.capitalize(), "number": number})
            return redirect(urls_of(kind, tournament, container)["detail"])
    container.refresh_from_db()
    return _render_entry(request, tournament, container, kind, entry, status=400, number=number, reason_form=reason_form)


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def delete(request, pk, number, *, tournament, kind):
    """Delete record ``number`` with a reason (GET asks for the reason)."""
    container = _entering(request, tournament, kind, pk)
    rec, conflict = _record_or_conflict(request, tournament, container, kind, number)
    if conflict is not None:
        return conflict
    form = ReasonForm(request.POST or None)
    stale = False
    if request.method == "POST" and form.is_valid():
        try:
            sheet.delete_record(container, number, actor_of(request), expected_version=_version(request),
                                reason=form.cleaned_data["reason"])
        except StaleVersion as err:
            form.add_error(None, err.message)
            stale = True
        except (ServiceError, RuleViolation) as err:
            _add_error(form, err)
        else:
            noun = str(tournament.adapter.record_noun[0])
            messages.success(request, _t("%(noun)s %(number)s deleted.") % {"noun": noun.capitalize(), "number": number})
            return redirect(urls_of(kind, tournament, container)["detail"])
        container.refresh_from_db()
    rows = record_rows(kind, tournament, container, [rec])
    ctx = result_context(request, tournament, container, kind, form=form, row=rows[0], stale=stale, deleting=number)
    status = STALE_STATUS if stale else (400 if request.method == "POST" else 200)
    return render(request, "results/delete.html", ctx, status=status)


def _add_error(form, err) -> None:
    if isinstance(err, RuleViolation):
        for v in err.violations:
            form.add_error(None, violation_message(v))
    else:
        form.add_error(err.field if err.field in form.fields else None, err.message)


# --------------------------------------------------------------------------- result actions


def _action(request, tournament, container, kind, form, run, success: str, form_key: str, after=None,
            template: str = "results/detail.html", extra: dict | None = None) -> HttpResponse:
    """Run ``run(form)`` for a valid ``form`` (the version comes from the page); show the result
    page again with the error next to the form otherwise (409 when the result changed)."""
    if form.is_valid():
        try:
            run(form)
        except StaleVersion as err:
            form.add_error(None, err.message)
            container.refresh_from_db()
            ctx = result_context(request, tournament, container, kind, stale=True, **{form_key: form}, **(extra or {}))
            ctx["reload_url"] = ctx["urls"]["detail"]  # this action's URL takes POST only
            ctx["form_errors"] = named_errors(form)
            return render(request, template, ctx, status=STALE_STATUS)
        except (ServiceError, RuleViolation) as err:
            _add_error(form, err)
        else:
            messages.success(request, success)
            if after is not None:
                after()
            return redirect(urls_of(kind, tournament, container)["detail"])
    container.refresh_from_db()
    if template == "results/detail.html":
        for error in named_errors(form):
            messages.error(request, f"{error['label']}: {error['message']}" if error["label"] else error["message"])
    ctx = result_context(request, tournament, container, kind, **{form_key: form}, **(extra or {}))
    ctx["form_errors"] = named_errors(form)
    return render(request, template, ctx, status=400)


def end_outcome(tournament: Tournament, container: ResultContainer) -> str:
    """What ending ``container`` at the time limit now would decide, in words (the adapter's
    evaluation with the time limit): "Team A wins 340 – 220", "A draw: 300 – 300", or the totals
    of a four-player table."""
    storage, adapter = storage_of(container), tournament.adapter
    records = [r.record for r in storage.records(container)]
    try:
        evaluation = adapter.evaluate(records, tournament, ended_at_time=True)
    except RuleViolation:
        return ""
    sides = storage.sides(container, adapter)
    scores = " – ".join(str(t) for t in evaluation.totals)
    if len(sides) == 2:
        if evaluation.winner is None:
            return _t("It ends in a draw: %(scores)s.") % {"scores": scores}
        return _t("%(side)s wins: %(scores)s.") % {"side": sides[evaluation.winner]["name"], "scores": scores}
    parts = ", ".join(f"{side['label']} {total}" for side, total in zip(sides, evaluation.totals, strict=False))
    return _t("The totals so far are the result: %(totals)s.") % {"totals": parts}


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def end(request, pk, *, tournament, kind):
    """End the result at the time limit, with a reason (Tai Pan: the higher total wins, equal is a
    draw; docs/tournaments.md). Undone with "resume play" until confirmed. GET is the confirmation step:
    what ending now would decide, the reason, and an explicit "Yes, end the match"."""
    container = _entering(request, tournament, kind, pk)
    if request.method == "GET":
        ctx = result_context(request, tournament, container, kind, end_outcome=end_outcome(tournament, container))
        return render(request, "results/end.html", ctx)
    form = ReasonForm(request.POST, prefix="end")

    def run(f):
        sheet.end_at_time(container, actor_of(request), expected_version=_version(request), reason=f.cleaned_data["reason"])

    return _action(request, tournament, container, kind, form, run, _t("Ended at the time limit."), "end_form",
                   template="results/end.html", extra={"end_outcome": end_outcome(tournament, container)})


@require_POST
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def resume(request, pk, *, tournament, kind):
    """Undo an end at the time limit (resume play), with a reason."""
    container = _entering(request, tournament, kind, pk)
    form = ReasonForm(request.POST, prefix="end")

    def run(f):
        sheet.resume_play(container, actor_of(request), expected_version=_version(request), reason=f.cleaned_data["reason"])

    return _action(request, tournament, container, kind, form, run, _t("Play resumed."), "end_form")


def _labels(container: ResultContainer, tournament: Tournament) -> list[str]:
    return [f"{s['label']} {s['name']}".strip() for s in storage_of(container).sides(container, tournament.adapter)]


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.CONFIRM_RESULTS, entrants=True)
def confirm(request, pk, *, tournament, kind):
    """Confirm the result as a second person (or, through a private link, as the other side of
    the table). The page shows the sides but, with blind confirmation, not the totals: the
    confirmer re-types them from the signed score sheet. A side confirming through its link may
    instead report that the totals are wrong (:func:`dispute`; the form is on this page)."""
    container = result_for(request, tournament, kind, pk, Perm.CONFIRM_RESULTS)
    actor = actor_of(request)
    labels = _labels(container, tournament)
    blind = tournament.blind_confirmation
    form = ConfirmForm(request.POST if request.method == "POST" else None, labels=labels, blind=blind)
    stale = False
    if request.method == "POST" and form.is_valid():
        try:
            sheet.confirm(container, actor, expected_version=_version(request), totals=form.totals())
        except StaleVersion as err:
            form.add_error(None, err.message)
            stale = True
        except ServiceError as err:
            form.add_error(err.field if err.field in form.fields else None, err.message)
        else:
            messages.success(request, _t("The result of table %(table)s is confirmed.") % {"table": storage_of(container).number(container)})
            return redirect(urls_of(kind, tournament, container)["detail"])
        container.refresh_from_db()
    dispute_form = DisputeForm(labels=labels, initial=_typed_totals(form))
    ctx = result_context(request, tournament, container, kind, confirm_form=form, stale=stale, dispute_form=dispute_form)
    status = STALE_STATUS if stale else (400 if request.method == "POST" else 200)
    return render(request, "results/confirm.html", ctx, status=status)


def _typed_totals(form) -> dict:
    """The totals typed in the confirm form (to carry into the dispute form after a mismatch)."""
    if not form.is_bound:
        return {}
    return {k: v for k, v in form.data.items() if k.startswith("total_")}


@require_POST
@tournament_view(Perm.CONFIRM_RESULTS, entrants=True)
def dispute(request, pk, *, tournament, kind):
    """"These totals are wrong": the side that is to confirm, through its private link, sends its
    own totals and a note to the referees instead of confirming (:func:`scoring.results.sheet.dispute`)."""
    actor = actor_of(request)
    if not policy.is_entrant(actor):
        raise PermissionDenied  # referees and organisers correct the result instead
    container = result_for(request, tournament, kind, pk, Perm.CONFIRM_RESULTS)
    labels = _labels(container, tournament)
    form = DisputeForm(request.POST, labels=labels)
    stale = False
    try:
        if not form.is_valid():
            # The result's state comes before the typed totals, as in the sheet (and the API).
            sheet.check_disputable(container, actor, expected_version=_version(request))
        else:
            sheet.dispute(container, actor, expected_version=_version(request), totals=form.totals(),
                          note=form.cleaned_data["note"])
            messages.warning(request, _t("Your totals were sent to the referees; a referee will settle the result."))
            return redirect(urls_of(kind, tournament, container)["detail"])
    except StaleVersion as err:
        form.add_error(None, err.message)
        stale = True
    except ServiceError as err:
        form.add_error(err.field if err.field in form.fields else None, err.message)
    container.refresh_from_db()
    confirm_form = ConfirmForm(labels=labels, blind=tournament.blind_confirmation)
    ctx = result_context(request, tournament, container, kind, confirm_form=confirm_form, dispute_form=form,
                         stale=stale, dispute_open=True)
    return render(request, "results/confirm.html", ctx, status=STALE_STATUS if stale else 400)


@require_POST
@tournament_view(Perm.REOPEN_RESULTS)
def reopen(request, pk, *, tournament, kind):
    """Reopen a confirmed result with a reason. In a closed round (organisers only) the round goes
    back to in progress: the user is told, and warned when a later round was paired already."""
    container = _container(request, tournament, kind, pk)
    form = ReasonForm(request.POST, prefix="reopen")
    rnd = container.round
    was_closed = rnd.status == Round.Status.CLOSED

    def run(f):
        sheet.reopen(container, request.user, f.cleaned_data["reason"], expected_version=_version(request))

    def tell():
        if was_closed:
            messages.warning(request, _t("Round %(number)s is in progress again: confirm this result again, then close the round again.")
                             % {"number": rnd.number})
        later = list(Round.objects.filter(tournament=tournament, number__gt=rnd.number).order_by("number").values_list("number", flat=True))
        if later:
            messages.warning(request, _t("Round %(later)s was already drawn on the old result; check whether it still holds.")
                             % {"later": ", ".join(map(str, later))})

    return _action(request, tournament, container, kind, form, run, _t("The result was reopened."), "reopen_form", after=tell)


@require_POST
@tournament_view(Perm.ENTER_RESULTS)
def restore(request, pk, entry_id, *, tournament, kind):
    """Restore the version an audit entry shows, with a reason."""
    container = _container(request, tournament, kind, pk)
    storage = storage_of(container)
    entry = get_object_or_404(AuditEntry, pk=entry_id, **{f"{storage.container_type}_id": container.pk})
    form = ReasonForm(request.POST, prefix="restore")

    def run(f):
        sheet.restore(container, entry, request.user, expected_version=_version(request), reason=f.cleaned_data["reason"])

    return _action(request, tournament, container, kind, form, run, _t("The earlier version was restored."), "restore_form")
