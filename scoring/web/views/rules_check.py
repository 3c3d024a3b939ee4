"""The referee's rules check page (``/rules/<game>/``): is this play legal, what is it, and why.
Public and read-only (a GET form, bookmarkable, no login needed); the game's adapter provides the
form and the engine's judgement (Tai Pan: :mod:`scoring.games.taipan.rules_check`). With htmx the
form swaps only the result panel."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import render
from django.views.decorators.http import require_GET

from scoring.games import registry


@require_GET
def rules_check(request, game: str):
    """GET: the form; with any input, the engine's judgement next to it (or errors per field)."""
    try:
        tool = registry.get(game).rules_check
    except registry.UnknownGame:
        raise Http404 from None
    if tool is None:
        raise Http404
    submitted = bool(request.GET)
    form = tool.RulesCheckForm(request.GET if submitted else None)
    result = tool.judge(form) if submitted and form.is_valid() else None
    selected = {name: set(form.data.getlist(name)) if submitted else set() for name in ("current", "play", "hand")}
    context = {"game": game, "form": form, "result": result, "submitted": submitted, "rows": tool.picker_rows(), "selected": selected}
    template = "rules_check/panel.html" if request.htmx else "rules_check/page.html"
    return render(request, template, context)
