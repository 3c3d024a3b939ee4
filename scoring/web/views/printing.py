"""PDF downloads: a result's score sheet, a round's pack of score sheets (built in the background
with progress, :mod:`scoring.tasks`) and the standings. Draft rounds are organisers' only."""
from __future__ import annotations

from django.contrib import messages
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_GET, require_POST, require_safe

from scoring import files, policy, tasks
from scoring.kinds import kind_of
from scoring.models import Round, TaskState
from scoring.policy import Perm
from scoring.printing import sheets
from scoring.printing.standings import standings_pdf as build_standings_pdf
from scoring.web.decorators import actor_of, tournament_view, visible_result, visible_round
from scoring.web.views.public import rounds_with_progress, standing_after


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    """``data`` as an inline PDF named ``filename``."""
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def stored_pdf_response(stored, filename: str) -> FileResponse:
    """A stored PDF (an open file of the storage, :mod:`scoring.files`) streamed inline as
    ``filename``; the response closes the file."""
    return FileResponse(stored, content_type="application/pdf", filename=filename)


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


@require_GET
@tournament_view()
def score_sheet(request, pk, *, tournament, kind):
    """The score sheet of one match or table (public once its round is published), printed for the
    visitor: with blind confirmation the empty sheet while the result's totals are hidden from
    them (:func:`scoring.results.sheet.totals_hidden`)."""
    container = visible_result(request, tournament, kind, pk)
    data = sheets.score_sheet_pdf(container, base_url=_base_url(request), viewer=actor_of(request))
    number = kind_of(container).number(container)
    return pdf_response(data, f"{tournament.slug}-r{container.round.number}-t{number}.pdf")


@require_safe
@tournament_view()
def round_pack(request, number, *, tournament):
    """Every score sheet of a round in one PDF (public download), as the public sees it (with blind
    confirmation an unconfirmed result's sheet is the empty one, whoever downloads it). Never built inside this request:
    the file the background job built for the round's current state is served; otherwise the job
    is started (or found running, or failed) and the visitor goes to its progress page, which links
    to the PDF when it is ready; a pack whose file was cleaned (:func:`scoring.tasks.clean_files`) is
built again. (Without a worker, ``REDIS_URL`` unset, Celery is eager and the
    job runs in-process: the embedded default for small events.)"""
    rnd = visible_round(request, tournament, number)
    state = tasks.current_round_pack(rnd)
    if state is None or (state.status == "done" and not files.exists(state.result_path)):
        state = tasks.start_round_pack(rnd, base_url=_base_url(request))  # never built, or its file was cleaned
    stored = tasks.pack_file(state)
    if stored is not None:
        return stored_pdf_response(stored, f"{tournament.slug}-round-{rnd.number}.pdf")
    return redirect("scoring:round_pack_status", tournament.slug, rnd.number, state.pk)


@require_GET
@tournament_view()
def standings_pdf(request, *, tournament):
    """The standings as a PDF, headed "after round N" as the standings page is
    (:func:`scoring.web.views.public.standing_after`)."""
    played = rounds_with_progress(tournament, tournament.rounds.exclude(status=Round.Status.DRAFT))
    after = standing_after(list(played))["round"]
    return pdf_response(build_standings_pdf(tournament, after_round=after), f"{tournament.slug}-standings.pdf")


@require_POST
@tournament_view(Perm.ENTER_RESULTS)
def round_pack_build(request, number, *, tournament):
    """Build the round pack anew in the background ("Build again": even when nothing printed on it
    changed, the stored file is replaced; a build still running is reused) and go to its progress
    page."""
    rnd = visible_round(request, tournament, number)
    state = tasks.start_round_pack(rnd, base_url=_base_url(request), rebuild=True)
    if getattr(state, "not_queued", None):
        messages.error(request, _t(state.not_queued))  # the last good pack is still served
    return redirect("scoring:round_pack_status", tournament.slug, rnd.number, state.pk)


def _task_state(rnd: Round, task_id: int) -> TaskState:
    state = get_object_or_404(TaskState, pk=task_id, kind=tasks.KIND_ROUND_PACK)
    if not state.key.startswith(f"{tasks.KIND_ROUND_PACK}:{rnd.pk}:"):
        raise Http404
    return state


@require_GET
@tournament_view()
def round_pack_status(request, number, task_id, *, tournament):
    """Progress page of a background round pack; the progress part polls every second (htmx)
    until the pack is done (then the download link) or failed (then why, and "build again" for
    referees and organisers); a job that stopped moving counts as failed (:func:`scoring.tasks.settle`)."""
    rnd = visible_round(request, tournament, number)
    state = tasks.settle(_task_state(rnd, task_id))
    context = {"tournament": tournament, "round": rnd, "state": state,
               "can_build": policy.has_perm(request.user, Perm.ENTER_RESULTS, tournament)}
    template = "printing/_pack_progress.html" if request.htmx else "printing/pack.html"
    return render(request, template, context)


@require_GET
@tournament_view()
def round_pack_download(request, number, task_id, *, tournament):
    """The PDF written by the background round pack, streamed from the file storage (whichever
    host built it); 404 while it is not done or when its file is gone."""
    rnd = visible_round(request, tournament, number)
    stored = tasks.pack_file(_task_state(rnd, task_id))
    if stored is None:
        raise Http404
    return stored_pdf_response(stored, f"{tournament.slug}-round-{rnd.number}.pdf")
