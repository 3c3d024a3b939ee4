"""``GET /api/v1/people/{id}``: a person's profile across tournaments, the same numbers as the
profile page (:func:`scoring.profiles.load.profile`, docs/api.md "People"). Public; names are
public names; the federation number only for organisers of one of the person's tournaments."""
from __future__ import annotations

from typing import Any

from django.shortcuts import get_object_or_404
from django.urls import reverse
from rest_framework.response import Response

from scoring.api.serializers import PersonSerializer
from scoring.api.views.base import ApiView
from scoring.api.views.reads import read_schema
from scoring.models import Person
from scoring.profiles.load import Profile, may_see_federation_number, profile


def person_data(request, data: Profile, *, federation_number: bool) -> dict[str, Any]:
    """The API's representation of a profile (:class:`PersonSerializer`)."""
    def absolute(url: str) -> str:
        return request.build_absolute_uri(url)

    tournaments = [{
        "tournament": e.tournament.slug, "name": e.tournament.name, "game": e.tournament.game,
        "starts_on": e.tournament.starts_on, "entrant_id": e.team.pk if e.team else e.player.pk,
        "team": e.team.name if e.team else "", "partner": e.partner, "rank": e.rank, "points": e.points,
        "results": [{"kind": line.kind, "id": line.pk, "round": line.round, "table": line.table, "page": absolute(line.url),
                     "url": absolute(reverse(f"api:{line.kind}-detail", args=[e.tournament.slug, line.pk])),
                     "seat": line.seat, "opponents": line.opponents, "score": line.score, "mine": line.mine,
                     "outcome": line.outcome, "status": line.status, "hidden": line.hidden, "bye": line.bye}
                    for line in e.results],
    } for e in data.entries]
    statistics = [{
        "game": g.key, "label": str(g.label), "tournaments": g.tournaments,
        "items": [{"key": i.key, "label": str(i.label), "value": i.value} for i in g.statistics.items],
        "charts": [{"key": s.key, "title": str(s.title), "kind": s.kind, "labels": s.full_labels(), "values": s.values}
                   for s in g.statistics.charts],
    } for g in data.games]
    out = {"id": data.person.pk, "name": data.name, "page": absolute(reverse("scoring:person_profile", args=[data.person.pk])),
           "tournaments": tournaments, "statistics": statistics}
    if federation_number:
        out["federation_number"] = data.person.federation_number
    return out


class PersonView(ApiView):
    @read_schema(PersonSerializer, tags=["people"], summary="A person's profile across tournaments",
                 description="Every tournament the person entered (rank, points, every match or table) and the "
                             "statistics per game, as the profile page `/people/{id}/` shows them. Names are public "
                             "names; with blind confirmation a result that is not confirmed has no score and is left "
                             "out of the statistics. `federation_number` only for organisers of one of the "
                             "person's tournaments.")
    def get(self, request, pk):
        person = get_object_or_404(Person, pk=pk)
        data = profile(person)
        allowed = may_see_federation_number(self.actor(), person)
        return Response(PersonSerializer(person_data(request, data, federation_number=allowed)).data)
