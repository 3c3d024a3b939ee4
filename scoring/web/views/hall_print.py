"""A round's papers for the hall (issue 23 item 7, :mod:`scoring.printing.hall`): table number
cards, the list "name -> table" (a PDF for the wall and a page for the projector, paged like the
other projector views) and the pairings per table. Public once the round is published, like the
round's page; a draft's are organisers' only and carry the draft watermark."""
from __future__ import annotations

from django.shortcuts import render
from django.views.decorators.http import require_safe

from scoring.printing import hall
from scoring.web.context import tournament_context
from scoring.web.decorators import tournament_view, visible_round
from scoring.web.views.printing import pdf_response
from scoring.web.views.public import live_seconds, mark_screen, projector_page


@require_safe
@tournament_view()
def table_cards(request, number, *, tournament):
    """The round's table number cards: ``?size=A5`` (default A4), ``?tent=1`` to fold into a
    standing card."""
    rnd = visible_round(request, tournament, number)
    size = "A5" if request.GET.get("size", "").upper() == "A5" else "A4"
    tent = request.GET.get("tent") in ("1", "on", "true")
    data = hall.table_cards_pdf(rnd, size=size, tent=tent)
    return pdf_response(data, f"{tournament.slug}-r{rnd.number}-table-cards-{size.lower()}{'-tent' if tent else ''}.pdf")


@require_safe
@tournament_view()
def name_list_pdf(request, number, *, tournament):
    """The list "name -> table" of the round for the wall (A4, three columns)."""
    rnd = visible_round(request, tournament, number)
    return pdf_response(hall.name_list_pdf(rnd), f"{tournament.slug}-r{rnd.number}-names.pdf")


@require_safe
@tournament_view()
def pairings_pdf(request, number, *, tournament):
    """The pairings of the round per table (A4)."""
    rnd = visible_round(request, tournament, number)
    return pdf_response(hall.pairings_pdf(rnd), f"{tournament.slug}-r{rnd.number}-pairings.pdf")


@require_safe
@tournament_view()
def name_list(request, number, *, tournament):
    """The list "name -> table" as a page; ``?projector=1``: large type, paged screens cycling
    (:func:`scoring.web.views.public.projector_page`, ``static/js/projector.js``)."""
    rnd = visible_round(request, tournament, number)
    rows = [{"entry": e} for e in hall.name_entries(rnd)]
    projector = projector_page(request, len(rows))
    mark_screen(rows, projector)
    context = tournament_context(request, tournament, round=rnd, rows=rows, projector=projector,
                                 live_seconds=live_seconds())
    return render(request, "rounds/names.html", context)
