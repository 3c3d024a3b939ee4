"""A player's statistics across results (issue 26 item 2, docs/players.md "Player profiles").

The shapes every game adapter's :meth:`~scoring.games.base.GameAdapter.player_statistics` takes
and gives: one :class:`PlayedResult` per match or table the player sat at (the stored records and
their scores, the player's side and seat), and a :class:`Statistics` (numbers with labels, and
chart series). Pure Python over the entered records: the engines already wrote every derived value
into the stored records and scores, so nothing here scores a hand again ("one engine and one
adapter serve every page"). The profile page and the REST API show the same object.
"""
from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.utils.translation import gettext_lazy as _


@dataclass(frozen=True)
class PlayedResult:
    """One match or table of a player, as the statistics read it.

    ``records``: the stored records in play order (carried state written in, e.g. the Tien Gow
    ``banker``); ``scores``: each record's points per side (in the adapter's :attr:`sides` order);
    ``side``: the index of the player's side in :attr:`sides` (Tai Pan team NS 0 / EW 1, a
    four-player seat 0..3); ``seat``: the player's own seat key (Tai Pan ``"N"``, ``"E"``, ``"S"``,
    ``"W"``; four-player games the side key); ``totals``: the result's totals per side;
    ``points``: the side's ranking points (Tai Pan match points) once finished, else ``None``;
    ``finished``: finished or confirmed; ``label``: how the result is named under its bar in a
    chart, short (``"R2"``); ``group``: what it belongs to, named once under its bars and in full
    in the chart's table and tooltips (the tournament's name; ``""``: none)."""

    records: Sequence[dict[str, Any]]
    scores: Sequence[Sequence[int]]
    side: int
    seat: str
    totals: Sequence[int] = ()
    points: int | None = None
    finished: bool = False
    label: str = ""
    group: str = ""


@dataclass(frozen=True)
class Statistic:
    """One number: ``key`` (stable, the API's), ``label`` (lazily translated), ``value`` (an int, a
    float rounded to one decimal, or ``None`` when there is nothing to average)."""

    key: str
    label: Any
    value: int | float | None


@dataclass(frozen=True)
class Series:
    """A chart's data: ``key``, ``title`` (lazily translated), ``kind`` (``"line"`` or ``"bars"``),
    ``labels`` and ``values`` (one per point or bar, same length); ``groups``: empty, or one per
    label: the group a bar belongs to (a tournament's name), drawn once under a run of bars with
    the same group; the bar's full name is ``"<group> <label>"``."""

    key: str
    title: Any
    kind: str
    labels: list[str] = field(default_factory=list)
    values: list[int | float] = field(default_factory=list)
    groups: list[str] = field(default_factory=list)

    def full_labels(self) -> list[str]:
        """Each point's or bar's full name: ``"<group> <label>"`` (``label`` without a group)."""
        groups = self.groups or [""] * len(self.labels)
        return [f"{group} {label}" if group else label for group, label in zip(groups, self.labels, strict=True)]


@dataclass(frozen=True)
class Statistics:
    """A player's statistics in one game: ``items`` (the numbers, in display order) and ``charts``
    (:class:`Series`)."""

    items: list[Statistic] = field(default_factory=list)
    charts: list[Series] = field(default_factory=list)

    def as_dict(self) -> dict[str, Any]:
        """The numbers by key (``{"hands": 12, ...}``): tests and the API."""
        return {item.key: item.value for item in self.items}


def average(total: float, count: int) -> float | None:
    """``total / count`` rounded to one decimal; ``None`` when ``count`` is 0."""
    return round(total / count, 1) if count else None


def place_of(totals: Sequence[int], side: int) -> int:
    """The place (1..n) of ``side`` by its total among ``totals``: one more than the number of
    sides with a strictly higher total, so equal totals share the better place
    (``[10, 10, -5, -15]``: places 1, 1, 3, 4)."""
    mine = totals[side]
    return 1 + sum(1 for t in totals if t > mine)


def placements(results: Sequence[PlayedResult], seats: int = 4) -> tuple[list[Statistic], Series]:
    """The player's places at the finished tables of ``results`` (:func:`place_of`): the counts of
    each place, the tables counted and the average place, and the bars of the distribution."""
    counts = [0] * seats
    for result in results:
        if result.finished and len(result.totals) == seats:
            counts[place_of(result.totals, result.side) - 1] += 1
    played = sum(counts)
    words = (_("1st places"), _("2nd places"), _("3rd places"), _("4th places"))
    items = [Statistic(f"place_{i + 1}", words[i], n) for i, n in enumerate(counts)]
    items.append(Statistic("tables_placed", _("Finished tables"), played))
    items.append(Statistic("average_place", _("Average place"),
                           average(sum((i + 1) * n for i, n in enumerate(counts)), played)))
    series = Series("placements", _("Placements"), "bars", [str(i + 1) for i in range(seats)], counts)
    return items, series
