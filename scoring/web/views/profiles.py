"""A person's public profile across tournaments (``/people/<pk>/``, issue 26 item 2,
docs/players.md "Player profiles"): every tournament entered with the rank and points, every
match or table linking to its page, and the statistics per game with small inline SVG charts.
Public, outside the tournaments' addresses; the same data as the API's
``/api/v1/people/{id}`` (:func:`scoring.profiles.load.profile`)."""
from __future__ import annotations

from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe

from scoring.models import Person
from scoring.profiles.load import profile
from scoring.web.charts import bar_chart


@require_safe
def person_profile(request, pk):
    """The profile page of person ``pk`` (404 when there is none); a fixed number of queries."""
    person = get_object_or_404(Person, pk=pk)
    data = profile(person)
    games = [{"game": g, "charts": [bar_chart(s) for s in g.statistics.charts if s.values]} for g in data.games]
    return render(request, "players/profile.html", {"profile": data, "games": games})
