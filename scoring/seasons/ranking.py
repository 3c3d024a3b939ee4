"""Season ranking (issue 26 item 3, docs/players.md "Season ranking").

A :class:`~scoring.models.Season` turns each person's final place in each of its tournaments into
points (:func:`place_points`, the season's table: a preset or its own list) and ranks the people by
their best ``best_n`` results (all when ``None``).

**Places.** A finished tournament's places are the standings' ranks (:mod:`scoring.standings`,
never recomputed here), kept per entrant as :class:`~scoring.models.FinalPlace` rows written when
the tournament finishes (:func:`record_final_places`, also ``manage.py rebuild_final_places``) and
deleted when it is resumed. So the season page reads every tournament's places in ONE query,
whatever the number of tournaments. A finished tournament without rows (finished before seasons
existed, or imported) gets them on its first reading. Tai Pan: both players of a team get the
team's place; four-player games: the player's own place. Entrants that were never ranked (no
table played) have no place; entries not linked to a person are not in a season.

**Running tournaments** are shown as provisional: their current places and points from the
standings cache, marked and never counted (not in the total, the best N nor the tie-breaks); this
costs a few queries per running tournament. Tournaments in registration show nothing yet.

**Ties in a tournament** share the points of the places they cover equally: two players tied for
2nd under Formula 1 each get (18 + 15) / 2 = 16.5. Points are exact fractions.

**Tie-breaks** of the season: 1) counted points, 2) the better best place (finished tournaments),
3) more first places, then more second places, ..., 4) more finished tournaments played. People
equal on all four share the rank and are listed by name.
"""
from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from datetime import date
from fractions import Fraction

from scoring.models import FinalPlace, Player, PointsPreset, Season, Tournament
from scoring.participants.names import person_public_name
from scoring.standings.final_places import current_places, record_final_places

#: The fixed tables of the presets (``field`` depends on the tournament: :func:`table_for`).
PRESET_TABLES = {
    PointsPreset.FORMULA1: [25, 18, 15, 12, 10, 8, 6, 4, 2, 1],
    PointsPreset.TOP20: list(range(20, 0, -1)),
}


def table_for(season: Season, field_size: int) -> list[int]:
    """The points for place 1, 2, ... in a tournament of ``field_size`` ranked entrants (teams in
    Tai Pan): the preset's table, for ``field`` ``[field_size, field_size - 1, ..., 1]`` (an
    entrant gets one point per entrant placed below, plus one), for ``custom`` the season's own
    ``points_table``."""
    if season.preset == PointsPreset.FIELD:
        return list(range(field_size, 0, -1))
    if season.preset == PointsPreset.CUSTOM:
        return [int(p) for p in season.points_table]
    return PRESET_TABLES.get(season.preset, PRESET_TABLES[PointsPreset.FORMULA1])


def place_points(table: list[int], place: int, tied: int = 1, participation: int = 0) -> Fraction:
    """Points for ``place`` (1-based) shared by ``tied`` entrants: the mean of the table's values
    for places ``place .. place + tied - 1``, a place beyond the table worth ``participation``.
    ``place_points([25, 18, 15], 2, 2) == Fraction(33, 2)``."""
    tied = max(1, tied)
    values = [table[p - 1] if p <= len(table) else participation for p in range(place, place + tied)]
    return Fraction(sum(values), tied)


# --------------------------------------------------------------------------- ranking


@dataclass
class Result:
    """One person's result in one tournament: ``place`` (shared by ``tied``), ``points``,
    ``counted`` (among the best N), ``provisional`` (the tournament is still running)."""

    tournament_id: int
    place: int
    tied: int
    points: Fraction
    provisional: bool = False
    counted: bool = False


@dataclass
class Row:
    """One line of the season ranking. ``rank`` shared on equal tie-breaks; ``name``: the public
    name (:func:`scoring.participants.names.person_public_name`), ``full_name`` and
    ``federation_number`` for the manager's export only; ``results`` by tournament id;
    ``cells``: the results in the season's tournament order (``None``: not played)."""

    person_id: int
    full_name: str
    federation_number: str
    name: str = ""
    rank: int = 0
    total: Fraction = Fraction(0)
    played: int = 0
    best_place: int | None = None
    results: dict[int, Result] = field(default_factory=dict)
    cells: list = field(default_factory=list)


@dataclass
class Ranking:
    """The season's ranking: its ``tournaments`` (by date), which are ``provisional`` (running)
    and the ``rows`` in rank order."""

    season: Season
    tournaments: list[Tournament]
    provisional: set[int]
    rows: list[Row]


PLACE_COLUMNS = ("tournament_id", "place", "tied", "field", "player__person_id", "player__person__name",
                 "player__person__federation_number")


def _final_rows(finished: list[Tournament]) -> list[tuple]:
    """The finished tournaments' final places of players linked to a person (one query; a
    tournament without rows gets them first, :func:`record_final_places`)."""
    ids = [t.pk for t in finished]
    rows = list(FinalPlace.objects.filter(tournament_id__in=ids, player__person__isnull=False).values_list(*PLACE_COLUMNS))
    present = {r[0] for r in rows}
    missing = [t for t in finished if t.pk not in present]
    if missing and any(record_final_places(t) for t in missing):
        rows += list(FinalPlace.objects.filter(tournament__in=missing, player__person__isnull=False).values_list(*PLACE_COLUMNS))
    return rows


def _provisional_rows(running: list[Tournament]) -> list[tuple]:
    """The running tournaments' current places in the shape of :data:`PLACE_COLUMNS`."""
    out = []
    for t in running:
        places = current_places(t)
        people = {pk: (person, name, number) for pk, person, name, number in Player.objects.filter(
            pk__in=[p[0] for p in places], person__isnull=False).values_list("pk", "person_id", "person__name",
                                                                            "person__federation_number")}
        out += [(t.pk, place, tied, size, *people[player]) for player, place, tied, size in places if player in people]
    return out


def _collect(season: Season, tournaments: list[Tournament]) -> tuple[dict[int, Row], set[int]]:
    """Every person's results in the season's finished and running tournaments."""
    finished = [t for t in tournaments if t.status == Tournament.Status.FINISHED]
    running = [t for t in tournaments if t.status == Tournament.Status.RUNNING]
    people: dict[int, Row] = {}
    for rows, provisional in ((_final_rows(finished), False), (_provisional_rows(running), True)):
        for tid, place, tied, size, person_id, name, number in rows:
            row = people.setdefault(person_id, Row(person_id, name, number or ""))
            points = place_points(table_for(season, size), place, tied, season.participation)
            row.results[tid] = Result(tid, place, tied, points, provisional=provisional)
    return people, {t.pk for t in running}


def _count_best(row: Row, best_n: int | None, order: dict[int, int]) -> None:
    """Mark the counted results (the best ``best_n``: most points, then better place, then the
    earlier tournament) and sum them."""
    final = sorted((r for r in row.results.values() if not r.provisional),
                   key=lambda r: (-r.points, r.place, order[r.tournament_id]))
    for r in final[:best_n] if best_n is not None else final:
        r.counted = True
    row.total = sum((r.points for r in final if r.counted), Fraction(0))
    row.played = len(final)
    row.best_place = min((r.place for r in final), default=None)


def _sort_key(row: Row, max_place: int) -> tuple:
    """The season tie-breaks (module docstring) without the name: smaller is better."""
    places = Counter(r.place for r in row.results.values() if not r.provisional)
    best = row.best_place if row.best_place is not None else max_place + 1
    return (-row.total, best, tuple(-places[p] for p in range(1, max_place + 1)), -row.played)


def _names(rows: list[Row]) -> None:
    """Each row's public name, from the settings of every entry of its person (one query)."""
    settings: dict[int, list] = {row.person_id: [] for row in rows}
    for person_id, own, default in Player.objects.filter(person_id__in=list(settings)).values_list(
            "person_id", "public_name", "tournament__public_names"):
        settings[person_id].append((own, default))
    for row in rows:
        row.name = person_public_name(row.full_name, settings[row.person_id])


def by_date(t: Tournament) -> tuple:
    """Sort key of a season's tournaments: by date (undated last), then creation."""
    return (t.starts_on is None, t.starts_on or date.min, t.created_at, t.pk)


def ranking(season: Season) -> Ranking:
    """The season's ranking (module docstring). Queries: the tournaments, the final places, the
    names' settings, plus a few per running tournament: never per finished tournament."""
    tournaments = sorted(season.tournaments.all(), key=by_date)
    order = {t.pk: i for i, t in enumerate(tournaments)}
    people, provisional = _collect(season, tournaments)
    rows = list(people.values())
    for row in rows:
        _count_best(row, season.best_n, order)
        row.cells = [row.results.get(t.pk) for t in tournaments]
    _names(rows)
    max_place = max((r.place for row in rows for r in row.results.values()), default=0)
    keyed = sorted(((_sort_key(row, max_place), row.name.casefold(), row.person_id, row) for row in rows),
                   key=lambda k: k[:3])
    previous = None
    for i, (key, *_rest, row) in enumerate(keyed, start=1):
        row.rank = i if key != previous else keyed[i - 2][-1].rank
        previous = key
    return Ranking(season, tournaments, provisional, [k[-1] for k in keyed])


def points_text(points: Fraction | None) -> str:
    """Points as shown: a whole number, else up to two decimals (``16.5``, ``8.33``)."""
    if points is None:
        return ""
    if points.denominator == 1:
        return str(points.numerator)
    return f"{float(points):.2f}".rstrip("0").rstrip(".")
