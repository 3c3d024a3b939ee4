"""PDF downloads: a result's score sheet, a round's pack of score sheets (built in the background
with progress, :mod:`scoring.tasks`) and the standings. Draft rounds are organisers' only."""
from __future__ import annotations

from pathlib import Path

from django.conf import settings
from django.core.cache import cache
from django.http import FileResponse, Http404, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_POST

from scoring import tasks
from scoring.models import Round, TaskState
from scoring.policy import Perm
from scoring.printing import sheets
from scoring.printing.standings import standings_pdf as build_standings_pdf
from scoring.results.storage import storage_of
from scoring.web.decorators import tournament_view, visible_result, visible_round


def pdf_response(data: bytes, filename: str) -> HttpResponse:
    """``data`` as an inline PDF named ``filename``."""
    response = HttpResponse(data, content_type="application/pdf")
    response["Content-Disposition"] = f'inline; filename="{filename}"'
    return response


def _base_url(request) -> str:
    return request.build_absolute_uri("/")


@require_GET
@tournament_view()
def score_sheet(request, pk, *, tournament, kind):
    """The score sheet of one match or table (public once its round is published)."""
    container = visible_result(request, tournament, kind, pk)
    data = sheets.score_sheet_pdf(container, base_url=_base_url(request))
    number = storage_of(container).number(container)
    return pdf_response(data, f"{tournament.slug}-r{container.round.number}-t{number}.pdf")


@require_GET
@tournament_view()
def round_pack(request, number, *, tournament):
    """Every score sheet of a round in one PDF (public download), built once per state of the
    round and kept in the cache, so repeated downloads do not rebuild it."""
    rnd = visible_round(request, tournament, number)
    base_url = _base_url(request)
    key = f"{tasks.round_pack_key(rnd)}:{base_url}:{get_language()}"
    try:
        data = cache.get(key)
    except Exception:  # noqa: BLE001 - a cache that is down is a miss
        data = None
    if data is None:
        data = sheets.round_pack_pdf(rnd, base_url=base_url)
        try:
            cache.set(key, data, 6 * 3600)
        except Exception:  # noqa: BLE001
            pass
    return pdf_response(data, f"{tournament.slug}-round-{rnd.number}.pdf")


@require_GET
@tournament_view()
def standings_pdf(request, *, tournament):
    """The standings as a PDF."""
    return pdf_response(build_standings_pdf(tournament), f"{tournament.slug}-standings.pdf")


@require_POST
@tournament_view(Perm.ENTER_RESULTS)
def round_pack_build(request, number, *, tournament):
    """Start (or reuse) the background build of a round pack and go to its progress page."""
    rnd = visible_round(request, tournament, number)
    state = tasks.start_round_pack(rnd, base_url=_base_url(request))
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
    until the pack is done, then shows the download link."""
    rnd = visible_round(request, tournament, number)
    state = _task_state(rnd, task_id)
    context = {"tournament": tournament, "round": rnd, "state": state}
    template = "printing/_pack_progress.html" if request.htmx else "printing/pack.html"
    return render(request, template, context)


@require_GET
@tournament_view()
def round_pack_download(request, number, task_id, *, tournament):
    """The PDF written by the background round pack."""
    rnd = visible_round(request, tournament, number)
    state = _task_state(rnd, task_id)
    if state.status != "done" or not state.result_path:
        raise Http404
    path = Path(settings.MEDIA_ROOT) / state.result_path
    if not path.is_file():
        raise Http404
    return FileResponse(path.open("rb"), content_type="application/pdf", filename=f"{tournament.slug}-round-{rnd.number}.pdf")
