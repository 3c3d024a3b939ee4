"""The cross table of a tournament (public page and PDF) and the organiser's federation export
(docs/tournaments.md "Cross table" and "Federation export"). The numbers come from
:func:`scoring.standings.crosstable.cross_table` and :func:`scoring.io.federation.federation_dataset`;
nothing is computed here. Public output names players through
:func:`scoring.participants.names.public_name`; the federation export (organisers only) carries
full names and federation numbers."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_safe

from scoring.io import datasets
from scoring.io.federation import federation_dataset
from scoring.participants.names import public_name
from scoring.policy import Perm
from scoring.printing.crosstable import crosstable_pdf as build_crosstable_pdf
from scoring.printing.crosstable import legend
from scoring.standings.crosstable import cross_table
from scoring.web.context import tournament_context
from scoring.web.decorators import tournament_view
from scoring.web.views.printing import pdf_response
from scoring.web.views.public import export_response


def _public_table(tournament):
    return cross_table(tournament, name_of=lambda p: public_name(p, tournament))


@require_safe
@tournament_view()
def crosstable(request, *, tournament):
    """The cross table (public): a row per entrant in standings order, a column per round that is
    not a draft, then the totals; the round columns scroll sideways on a phone with the first
    column kept in view. A fixed number of queries whatever the field's size."""
    table = _public_table(tournament)
    context = tournament_context(request, tournament, crosstable=table, legend=legend(table),
                                 after=table.played_through)
    return render(request, "standings/crosstable.html", context)


@require_safe
@tournament_view()
def crosstable_pdf(request, *, tournament):
    """The cross table as a PDF (A4 landscape, the head on every page; public names)."""
    return pdf_response(build_crosstable_pdf(tournament), f"{slugify(tournament.slug)}-crosstable.pdf")


@require_safe
@tournament_view(Perm.MANAGE)
def federation_export(request, *, tournament):
    """The federation export (organisers only): ``?format=csv`` (default) or ``xlsx``; full
    names and federation numbers, formula-like text written as text."""
    fmt = request.GET.get("format", "csv").lower()
    if fmt not in datasets.FORMATS:
        raise Http404(_t("Unknown export format."))
    return export_response(federation_dataset(tournament), fmt, f"{slugify(tournament.slug)}-federation")
