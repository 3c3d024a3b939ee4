"""Builders for the season tests: finished tournaments with given final places of people."""
from __future__ import annotations

from scoring.models import FinalPlace, Person, Season, Tournament
from tests.factories import PlayerFactory, TournamentFactory


def person(name: str, number: str | None = None) -> Person:
    """A person called ``name`` (federation ``number``)."""
    return Person.objects.create(name=name, federation_number=number)


def finished_with_places(places: dict[Person, int], *, field: int | None = None, status=Tournament.Status.FINISHED,
                         **kwargs) -> Tournament:
    """A four-player tournament in ``status`` whose entrants (one per person, linked) ended on
    ``places`` (ties: the same place; ``tied`` counted here), stored as final places."""
    t = TournamentFactory(game="sichuan", **kwargs)
    Tournament.objects.filter(pk=t.pk).update(status=status)
    t.refresh_from_db()
    counts = {}
    for place in places.values():
        counts[place] = counts.get(place, 0) + 1
    size = field or len(places)
    for p, place in places.items():
        player = PlayerFactory(tournament=t, name=p.name, person=p)
        FinalPlace.objects.create(tournament=t, player=player, place=place, tied=counts[place], field=size)
    return t


def season(tournaments, **kwargs) -> Season:
    """A season of ``tournaments`` (Formula 1, every result counts unless told otherwise)."""
    s = Season.objects.create(name=kwargs.pop("name", "Season"), slug=kwargs.pop("slug", "s1"), **kwargs)
    s.tournaments.set(tournaments)
    return s


