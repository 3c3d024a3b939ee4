"""A result's actions after entry, one set of views for matches and tables: ending at the time
limit and resuming play, confirming, disputing (a side through its private link), reopening and
restoring from the audit trail. Each collects its form, calls the result sheet
(:mod:`scoring.results.sheet`, which decides every rule inside the lock) and shows the result
page again with the sheet's error next to the form."""
from __future__ import annotations

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_http_methods, require_POST

from scoring.errors import ServiceError, StaleVersion
from scoring.games.base import RuleViolation
from scoring.kinds import kind_of
from scoring.models import AuditEntry, ResultContainer, Round, Tournament
from scoring.policy import Perm
from scoring.results import presenter, sheet
from scoring.results.sheet import Action
from scoring.web.decorators import actor_of, result_for, tournament_view
from scoring.web.forms.results import AcknowledgeForm, ConfirmForm, DisagreeForm, DisputeForm, ReasonForm
from scoring.web.views.result_context import named_errors, result_context, urls_of
from scoring.web.views.results import STALE_STATUS, _add_error, _container, _entering, _version

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


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.ENTER_RESULTS, entrants=True)
def end(request, pk, *, tournament, kind):
    """End the result at the time limit, with a reason (Tai Pan: the higher total wins, equal is a
    draw; docs/tournaments.md). Undone with "resume play" until confirmed. GET is the confirmation step:
    what ending now would decide, the reason, and an explicit "Yes, end the match"."""
    container = _entering(request, tournament, kind, pk)
    if request.method == "GET":
        ctx = result_context(request, tournament, container, kind, end_outcome=presenter.end_outcome(container))
        return render(request, "results/end.html", ctx)
    form = ReasonForm(request.POST, prefix="end")

    def run(f):
        sheet.end_at_time(container, actor_of(request), expected_version=_version(request), reason=f.cleaned_data["reason"])

    return _action(request, tournament, container, kind, form, run, _t("Ended at the time limit."), "end_form",
                   template="results/end.html", extra={"end_outcome": presenter.end_outcome(container)})


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
    return [f"{s['label']} {s['name']}".strip() for s in kind_of(container).sides(container, tournament.adapter)]


@require_http_methods(["GET", "POST"])
@tournament_view(Perm.CONFIRM_RESULTS, entrants=True)
def confirm(request, pk, *, tournament, kind):
    """Confirm the result as a second person (or, through a private link, as the other side of
    the table). The page shows the sides but, with blind confirmation, not the totals: the
    confirmer re-types them from the signed score sheet. A side confirming through its link may
    instead report that the totals are wrong (:func:`dispute`; the form is on this page)."""
    container = result_for(request, tournament, kind, pk, Action.CONFIRM)
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
            messages.success(request, _t("The result of table %(table)s is confirmed.") % {"table": kind.number(container)})
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
    container = result_for(request, tournament, kind, pk, Action.DISPUTE)
    sheet.forbid_early(container, Action.DISPUTE, actor)  # referees and organisers correct the result instead
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
    entry = get_object_or_404(AuditEntry, pk=entry_id, **{f"{kind.key}_id": container.pk})
    form = ReasonForm(request.POST, prefix="restore")

    def run(f):
        sheet.restore(container, entry, request.user, expected_version=_version(request), reason=f.cleaned_data["reason"])

    return _action(request, tournament, container, kind, form, run, _t("The earlier version was restored."), "restore_form")


# --------------------------------------------------------------------------- verification per hand


def _record_action(request, tournament, kind, pk, number, action: Action, form, run, success: str) -> HttpResponse:
    """Run ``run(form)`` on record ``number`` for a valid ``form`` and go back to the result page
    (303) with ``success``, or with the sheet's refusal or the form's error as a message: a one-tap
    action from the record list (the list shows what it needs again)."""
    container = result_for(request, tournament, kind, pk, action)
    url = urls_of(kind, tournament, container)["detail"]
    if not form.is_valid():
        for error in named_errors(form):
            messages.error(request, f"{error['label']}: {error['message']}" if error["label"] else error["message"])
        return redirect(f"{url}#record-{number}")
    try:
        run(container, form)
    except (ServiceError, RuleViolation) as err:
        messages.error(request, str(getattr(err, "message", err)))
    else:
        messages.success(request, success)
    return redirect(f"{url}#record-{number}")


@require_POST
@tournament_view(Perm.CONFIRM_RESULTS, entrants=True)
def acknowledge(request, pk, number, *, tournament, kind):
    """One tap: the other side (or a referee or organiser on its behalf) acknowledges record
    ``number`` in the revision its page showed (:func:`scoring.results.sheet.acknowledge`)."""

    def run(container, f):
        sheet.acknowledge(container, number, actor_of(request), revision=f.cleaned_data["revision"])

    noun = str(tournament.adapter.record_noun[0])
    return _record_action(request, tournament, kind, pk, number, Action.ACKNOWLEDGE, AcknowledgeForm(request.POST), run,
                          _t("%(noun)s %(number)s acknowledged.") % {"noun": noun.capitalize(), "number": number})


@require_POST
@tournament_view(Perm.CONFIRM_RESULTS, entrants=True)
def disagree(request, pk, number, *, tournament, kind):
    """"This hand is wrong": the side that would acknowledge record ``number`` sends its own scores
    of it and a note to the referees (:func:`scoring.results.sheet.disagree`); referees and
    organisers correct the record instead (403)."""
    container = result_for(request, tournament, kind, pk, Action.DISAGREE)
    sheet.forbid_early(container, Action.DISAGREE, actor_of(request), number=number)  # referees correct it instead
    form = DisagreeForm(request.POST, labels=_labels(container, tournament), prefix=f"disagree-{number}")

    def run(container, f):
        sheet.disagree(container, number, actor_of(request), revision=f.cleaned_data["revision"], scores=f.scores(),
                       note=f.cleaned_data["note"])

    return _record_action(request, tournament, kind, pk, number, Action.DISAGREE, form, run,
                          _t("Your version was sent to the referees; a referee will settle it."))
