"""Result pages, one set of views for Tai Pan matches and four-player tables (``kind``: the
URL's :class:`~scoring.kinds.ResultKind`): the public result page, the referee's entry page with a
live preview (htmx), editing and deleting a record. The result's actions (ending at the time
limit and resuming, confirming, disputing, reopening and restoring) are in
:mod:`scoring.web.views.result_actions`; what the pages show in
:mod:`scoring.web.views.result_context`.

Views stay thin: every rule is the result sheet's (:func:`scoring.results.sheet.refusal` before
showing an action, the sheet's writes again inside the lock), every score the engine's through
the game's adapter; the views only collect input, call the sheet and show its errors next to the
fields. Permissions are declared with :func:`scoring.web.decorators.tournament_view`.
"""
from __future__ import annotations

import re
import uuid

from django.contrib import messages
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import PermissionDenied
from django.http import Http404
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from scoring import policy
from scoring.errors import ServiceError, StaleVersion
from scoring.games.base import RuleViolation
from scoring.games.entry import more_message, violation_message
from scoring.kinds import kind_of
from scoring.locking import parse_version
from scoring.models import ResultContainer, Tournament
from scoring.params import whole_number
from scoring.policy import Perm
from scoring.results import sheet
from scoring.results.sheet import Action, Code
from scoring.web.conditional import conditional, render_live, result_state
from scoring.web.decorators import actor_of, tournament_view, visible_result
from scoring.web.forms.results import ReasonForm
from scoring.web.links import lost_link
from scoring.web.views import outbox
from scoring.web.views.result_context import (
    error_fields,
    record_rows,
    record_url,
    result_context,
    urls_of,
)

STALE_STATUS = 409
#: What an entry form's submission token looks like (``uuid4().hex``; hyphens allowed).
_TOKEN = re.compile(r"[0-9A-Za-z-]{16,64}")


def _container(request, tournament, kind, pk) -> ResultContainer:
    return visible_result(request, tournament, kind, pk)


def _names(container: ResultContainer, tournament: Tournament) -> dict[str, str]:
    return kind_of(container).names(container, tournament.adapter)


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


def _render_entry(request, tournament, container, kind, entry, *, status=200, number=None, stale=False, reason_form=None,
                  **extra):
    ctx = result_context(request, tournament, container, kind, entry=entry, editing=number, stale=stale,
                         reason_form=reason_form or ReasonForm(), submission=_submission_token(request),
                         show_tokens=True, error_fields=error_fields(entry) if entry.bound else [], **extra)
    # Nothing can be entered (time's up ended the result, a colleague finished it): the refusal is
    # the one banner at the top, the typed input is shown below it, not saved.
    ctx["locked_out"] = not (ctx["can_add"] or (number and ctx["can_edit"]))
    ctx["preview_url"] = ctx["urls"]["preview"] + (f"?hand={number}" if number else "")
    ctx["form_action"] = record_url(kind, "edit", tournament, container, number) if number else ctx["urls"]["enter"]
    return render(request, "results/enter.html", ctx, status=status)


@require_http_methods(["GET", "POST"])
@tournament_view()
def enter(request, pk, *, tournament, kind):
    """The referee's entry page (the QR code of the score sheet opens it): the records so far with
    their running totals, then the next record's form with a live preview. POST saves the record
    and comes back here at the new record (``#record-N``, highlighted); engine violations stand
    next to their field, the typed input is kept and nothing is saved. A save that lost the race
    to a colleague's record (409) shows one banner, the records as they are now and the form for
    the next number with the typed input kept as "your input (not saved)": it is saved only with
    the tick ``confirm_new`` (this is another record, not the one just saved).

    The form carries a ``submission`` token: a repeated POST of the same form (a retry after a
    dropped connection) is answered with the record already stored, never a second one. A POST
    from the phone's outbox (``Accept: application/json``) gets a JSON answer with a status code
    instead of a page (:mod:`scoring.web.views.outbox`).

    A visitor who is not logged in (the referee scanning the QR code) goes to the login page,
    which comes back here and offers the public result page to whoever only wants to look
    (:class:`scoring.web.views.account.LoginView`). Logged-in users who may not enter results (a
    member of another tournament) are sent to the result page on GET with a note; a POST by them
    is refused (403)."""
    actor = actor_of(request)
    outbox_post = request.method == "POST" and outbox.wants_json(request)
    if not request.user.is_authenticated and not policy.is_entrant(actor) and not lost_link(request):
        return outbox.not_logged_in() if outbox_post else redirect_to_login(request.get_full_path())
    container = _container(request, tournament, kind, pk)
    refused = sheet.refusal(container, Action.ENTER, actor)
    if refused is not None:
        return _may_not_enter(request, tournament, kind, container, refused, outbox_post)
    if request.method == "GET":
        return _render_entry(request, tournament, container, kind, _entry(tournament, container))
    entry = _entry(tournament, container, request.POST)
    if outbox_post:  # the phone's outbox: the same service, a JSON answer
        return outbox.save_hand(request, tournament, container, entry, actor)
    if not entry.is_valid():
        refused = sheet.refusal(container, Action.ADD, actor)  # a finished or confirmed result: say so first
        if refused is not None:
            entry.add_error("", refused.message)
        return _render_entry(request, tournament, container, kind, entry, status=400)
    if request.POST.get("after_conflict") and not request.POST.get("confirm_new"):
        # Input kept after a conflict is saved only once the referee ticked that it is another record.
        return _render_entry(request, tournament, container, kind, entry, status=400, stale=True, stale_new=True,
                             confirm_missing=True)
    try:
        rec = sheet.add_record(container, entry.record(), actor, expected_version=_version(request),
                               submission=request.POST.get("submission") or None, chain=outbox.chain_of(request))
    except RuleViolation as err:
        entry.add_violations(err)
    except StaleVersion:
        return _lost_race(request, tournament, container, kind, entry)
    except ServiceError as err:
        entry.add_error(err.field, err.message)
    else:
        noun = str(tournament.adapter.record_noun[0])
        text = _t("%(noun)s %(number)s was already saved.") if rec.replayed else _t("%(noun)s %(number)s saved.")
        messages.success(request, text % {"noun": noun.capitalize(), "number": rec.number})
        return redirect(urls_of(kind, tournament, container)["enter"] + f"#record-{rec.number}")
    container.refresh_from_db()
    return _render_entry(request, tournament, container, kind, entry, status=400)


def _may_not_enter(request, tournament, kind, container, refused, outbox_post):
    """The answer to a phone that may not enter this result (``refused``): the result page with a
    note on GET, a JSON 403 to the outbox, else 403 (the 403 page speaks to a side's phone of its
    link)."""
    if outbox_post:
        return outbox.forbidden(str(refused.message))
    if request.method == "GET":
        if policy.is_entrant(actor_of(request)) or request.user.is_authenticated:
            messages.info(request, str(refused))
        return redirect(urls_of(kind, tournament, container)["detail"])
    raise PermissionDenied


def _lost_race(request, tournament, container, kind, entry):
    """The 409 page of a new record whose save found the result changed: one banner
    (results/_stale.html). When someone saved the record being typed first (``record_number``:
    the number the form was for), the page shows the records as they are now and the form for
    the next number, the typed input kept as "your input (not saved)", saved only with a
    deliberate tick (never a duplicate by a second tap on "Save")."""
    container.refresh_from_db()
    typed = whole_number(request.POST.get("record_number") or "", max_digits=5)
    saved_first = typed is not None and len(kind.records(container)) >= typed
    return _render_entry(request, tournament, container, kind, entry, status=STALE_STATUS, stale=True,
                         stale_new=saved_first)


def _entering(request, tournament, kind, pk) -> ResultContainer:
    """The result for a view that changes records (preview, edit, delete, end, resume): members
    with the permission, or the entering side of this very table through its link (403 for
    anyone else)."""
    container = visible_result(request, tournament, kind, pk)
    if sheet.refusal(container, Action.ENTER, actor_of(request)) is not None:
        raise PermissionDenied
    return container


def _replace_number(request) -> int | None:
    raw = request.GET.get("hand") or request.POST.get("replace_number") or ""
    return whole_number(raw, max_digits=5)


@require_POST
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def preview(request, pk, *, tournament, kind):
    """htmx: the scores of the record being typed and the running totals after it, or every
    error (next to each field, swapped out of band). ``?hand=N``: an edit of record N."""
    container = _entering(request, tournament, kind, pk)
    adapter = tournament.adapter
    entry = _entry(tournament, container, request.POST)
    result = None
    if entry.nothing_entered() and _replace_number(request) is None:
        return render(request, "results/_preview.html", {"tournament": tournament, "adapter": adapter})
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


def _changing(request, tournament, kind, pk) -> ResultContainer:
    """The result for a view that edits or deletes a record: :func:`_entering`, and 403 for a side
    from which blind confirmation hides the records (``Code.RECORDS_HIDDEN``): the page would show them."""
    container = _entering(request, tournament, kind, pk)
    refused = sheet.refusal(container, Action.CHANGE, actor_of(request))
    if refused is not None and refused.code == Code.RECORDS_HIDDEN:
        raise PermissionDenied
    return container


def _record_or_conflict(request, tournament, container, kind, number):
    """``(record, None)``, or ``(None, the 409 conflict page)`` when record ``number`` is gone and the
    POST was built from an older version of the result: a colleague deleted it (or renumbered the
    records) in the meantime, which is the same race as any other and answers the same "changed by
    someone else, reload" conflict, the entry page with the result as it is now (its "Reload" leads
    to the result). A record that is not there for any other reason is a 404."""
    rec = kind.record(container, number)
    if rec is not None:
        return rec, None
    if request.method == "POST":
        try:
            stale = parse_version(request.POST.get("version")) != container.version
        except StaleVersion:
            stale = True
        if stale:
            entry = _entry(tournament, container)  # the one banner of results/_stale.html says it
            return None, _render_entry(request, tournament, container, kind, entry, status=STALE_STATUS, stale=True,
                                       reload_url=urls_of(kind, tournament, container)["detail"])
    raise Http404()


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def edit(request, pk, number, *, tournament, kind):
    """Edit record ``number`` with a reason; later records, totals and state follow."""
    container = _changing(request, tournament, kind, pk)
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
        except StaleVersion:  # the one banner of results/_stale.html says it
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
    container = _changing(request, tournament, kind, pk)
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
        if err.more:
            form.add_error(None, more_message(err.more))
    else:
        form.add_error(err.field if err.field in form.fields else None, err.message)


