"""Tie-breaks: a registry of small classes (docs/tournaments.md Ranking, issue 4 item 5).

Teams are ranked on match points (win 2, draw 1, loss 0; a bye is a win with 0 point difference;
``fixed_hands``: victory points), then on the tournament's ordered list of tie-breaks
(``Tournament.tiebreaks``, default :data:`NSKT_DEFAULT`: point difference, Buchholz, points
scored, head-to-head). Teams still equal on everything share a rank.

Each tie-break is a :class:`TieBreak` subclass with a ``key``, a translated ``label``, a translated
``byes_and_withdrawals`` explanation, and ``value(team, ctx, group)`` computed from plain data
(:class:`Game`, :class:`TeamResults`, :class:`Context`), so it is tested without a database.
``group`` is the set of team ids still tied when the tie-break is applied (used by head-to-head).
Higher values rank higher.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import ClassVar, NamedTuple

from django.utils.translation import gettext_lazy as _

WIN, DRAW, LOSS = "win", "draw", "loss"


class Game(NamedTuple):
    """One team's result in one finished match. ``opponent`` ``None`` = a bye. ``scored`` /
    ``conceded``: the two match totals (Tai Pan points; a bye 0/0). ``points``: match points
    earned (or victory points). ``outcome``: ``"win"``, ``"draw"`` or ``"loss"`` (a bye is a win).
    (A named tuple: the standings build one per team and match.)"""

    round: int
    opponent: int | None
    scored: int
    conceded: int
    points: int
    outcome: str

    @property
    def is_bye(self) -> bool:
        return self.opponent is None


class Sums(NamedTuple):
    """One team's sums over its games, computed once (:attr:`TeamResults.sums`)."""

    points: int
    difference: int
    scored: int
    won: int
    drawn: int
    lost: int
    byes: int
    opponents: tuple  # ids of the opponents met, in round order (byes left out)


@dataclass
class TeamResults:
    """All finished games of one team (in round order) and whether it has withdrawn."""

    id: int
    games: list[Game] = field(default_factory=list)
    withdrawn: bool = False

    @property
    def match_points(self) -> int:
        """Sum of match points (victory points in the fixed-hands format), byes included."""
        return self.sums.points

    @cached_property
    def sums(self) -> Sums:
        """The team's :class:`Sums`, computed on first use (add games before that)."""
        points = difference = scored = won = drawn = lost = byes = 0
        opponents = []
        for _round, opponent, own, other, earned, outcome in self.games:
            points += earned
            difference += own - other
            scored += own
            if outcome == WIN:
                won += 1
            elif outcome == DRAW:
                drawn += 1
            else:
                lost += 1
            if opponent is None:
                byes += 1
            else:
                opponents.append(opponent)
        return tuple.__new__(Sums, (points, difference, scored, won, drawn, lost, byes, tuple(opponents)))

    @property
    def played(self) -> list[Game]:
        """Games against a real opponent (byes left out)."""
        return [g for g in self.games if g.opponent is not None]


@dataclass
class Context:
    """Every team's results (``teams``: id -> :class:`TeamResults`), the data tie-breaks read.

    ``points``: match points by team id, summed once when the context is made (pass them when
    the context holds only some teams but their opponents' points are known, as the team
    breakdown does). Build the context after the games: the sums are not kept up to date."""

    teams: dict[int, TeamResults]
    points: dict[int, int] | None = None

    def __post_init__(self) -> None:
        if self.points is None:
            self.points = {tid: t.match_points for tid, t in self.teams.items()}

    def points_of(self, team_id: int) -> int:
        """Match points of ``team_id`` (0 for an unknown team)."""
        return self.points.get(team_id, 0)


class TieBreak:
    """Base class. Subclasses set ``key``, ``label``, ``byes_and_withdrawals`` and implement
    :meth:`value` (higher ranks higher)."""

    key: ClassVar[str] = ""
    label: ClassVar = ""
    byes_and_withdrawals: ClassVar = ""

    def value(self, team: TeamResults, ctx: Context, group: frozenset) -> int | float:
        """The tie-break number of ``team``; ``group``: ids of the teams still tied with it."""
        raise NotImplementedError

    def explain(self, team: TeamResults, ctx: Context) -> list[dict]:
        """Per-round parts of the number for the team breakdown page: ``[{"round", "value"}]``."""
        return []

    def values(self, group: list[int], ctx: Context) -> dict[int, int | float]:
        """:meth:`value` of every team of ``group`` (ids still tied with each other), by id."""
        frozen = frozenset(group)
        teams = ctx.teams
        return {tid: self.value(teams[tid], ctx, frozen) for tid in group}


REGISTRY: dict[str, type[TieBreak]] = {}


def register(cls: type[TieBreak]) -> type[TieBreak]:
    """Class decorator adding a tie-break to :data:`REGISTRY` under its ``key``."""
    REGISTRY[cls.key] = cls
    return cls


@register
class PointDifference(TieBreak):
    """Sum over played matches of (own total - opponent's total)."""

    key = "point_difference"
    label = _("Point difference")
    byes_and_withdrawals = _("A bye counts as 0 point difference. Matches of a team that withdrew keep counting.")

    def value(self, team, ctx, group):
        return team.sums.difference

    def explain(self, team, ctx):
        return [{"round": g.round, "value": g.scored - g.conceded} for g in team.games]


@register
class PointsScored(TieBreak):
    """Sum of the team's own match totals (Tai Pan points)."""

    key = "points_scored"
    label = _("Points scored")
    byes_and_withdrawals = _("A bye scores 0 points. Matches against a team that withdrew keep counting.")

    def value(self, team, ctx, group):
        return team.sums.scored

    def explain(self, team, ctx):
        return [{"round": g.round, "value": g.scored} for g in team.games]


@register
class Buchholz(TieBreak):
    """Sum of the current match points of every opponent met."""

    key = "buchholz"
    label = _("Buchholz")
    byes_and_withdrawals = _(
        "A bye adds nothing (there is no opponent). A team that withdrew counts with the match points "
        "it had when it left."
    )

    def value(self, team, ctx, group):
        points = ctx.points
        return sum(points.get(o, 0) for o in team.sums.opponents)

    def explain(self, team, ctx):
        return [{"round": g.round, "value": ctx.points_of(g.opponent) if not g.is_bye else 0} for g in team.games]


@register
class MedianBuchholz(TieBreak):
    """Buchholz without the highest and the lowest opponent (only with three or more opponents)."""

    key = "median_buchholz"
    label = _("Median Buchholz")
    byes_and_withdrawals = _(
        "Byes add nothing and are not dropped as the lowest score. A team that withdrew counts with the "
        "match points it had when it left. With fewer than three opponents nothing is dropped."
    )

    def value(self, team, ctx, group):
        scores = sorted(ctx.points_of(g.opponent) for g in team.played)
        if len(scores) >= 3:
            scores = scores[1:-1]
        return sum(scores)

    def explain(self, team, ctx):
        """The opponents that count (highest and lowest dropped), so the parts add up to the value."""
        parts = sorted((ctx.points_of(g.opponent), g.round) for g in team.played)
        if len(parts) >= 3:
            parts = parts[1:-1]
        return [{"round": rnd, "value": pts} for pts, rnd in sorted(parts, key=lambda p: p[1])]


@register
class SonnebornBerger(TieBreak):
    """Sum over opponents of (opponent's match points x match points earned against it / 2):
    a win adds the opponent's points, a draw half of them (chess Sonneborn-Berger on match
    points)."""

    key = "sonneborn_berger"
    label = _("Sonneborn-Berger")
    byes_and_withdrawals = _(
        "A bye adds nothing. A team that withdrew counts with the match points it had when it left."
    )

    def value(self, team, ctx, group):
        total = sum(ctx.points_of(g.opponent) * g.points for g in team.played)
        return total // 2 if total % 2 == 0 else total / 2

    def explain(self, team, ctx):
        return [{"round": g.round, "value": (ctx.points_of(g.opponent) * g.points / 2) if not g.is_bye else 0} for g in team.games]


@register
class HeadToHead(TieBreak):
    """Match points earned in the matches among the teams still tied. Applied only when every
    two of those teams have met (otherwise it separates nobody)."""

    key = "head_to_head"
    label = _("Head-to-head")
    byes_and_withdrawals = _(
        "Only matches between the tied teams count; byes never do. It applies only if every two of the "
        "tied teams have played each other, withdrawn teams included."
    )

    def value(self, team, ctx, group):
        if len(group) < 2 or not self._all_met(group, ctx):
            return 0
        return sum(g.points for g in team.played if g.opponent in group)

    def values(self, group, ctx):
        frozen = frozenset(group)
        if len(group) < 2 or not self._all_met(frozen, ctx):  # checked once for the whole group
            return {tid: 0 for tid in group}
        return {tid: sum(g.points for g in ctx.teams[tid].played if g.opponent in frozen) for tid in group}

    @staticmethod
    def _all_met(group: frozenset, ctx: Context) -> bool:
        for tid in group:
            met = {g.opponent for g in ctx.teams[tid].played}
            if not (group - {tid}) <= met:
                return False
        return True


@register
class Wins(TieBreak):
    """Number of matches won."""

    key = "wins"
    label = _("Number of wins")
    byes_and_withdrawals = _("A bye counts as a win. Wins against a team that withdrew keep counting.")

    def value(self, team, ctx, group):
        return team.sums.won


#: NSKT default order (docs/tournaments.md).
NSKT_DEFAULT: list[str] = ["point_difference", "buchholz", "points_scored", "head_to_head"]


def resolve(keys: list[str] | None) -> list[TieBreak]:
    """Tie-break instances for a tournament's ordered key list (empty/None: :data:`NSKT_DEFAULT`).
    Unknown keys raise ``KeyError``."""
    return [REGISTRY[k]() for k in (keys or NSKT_DEFAULT)]


def choices() -> list[tuple[str, str]]:
    """``(key, label)`` pairs for forms."""
    return [(k, cls.label) for k, cls in REGISTRY.items()]


def rank_teams(ctx: Context, keys: list[str] | None = None) -> list[tuple[int, int, dict]]:
    """Rank every team of ``ctx``: match points, then each tie-break of ``keys`` in order, each
    applied within the groups still tied (so head-to-head sees exactly the tied teams).

    Returns ``[(rank, team_id, {key: value})]`` best first; teams equal on everything share the
    rank (1, 2, 2, 4). Within a shared rank the order is by team id (callers re-sort by name)."""
    breaks = resolve(keys)
    values: dict[int, dict] = {tid: {} for tid in ctx.teams}
    # groups of still-tied ids, in rank order
    by_points: dict[int, list[int]] = {}
    for tid in ctx.teams:
        by_points.setdefault(ctx.points[tid], []).append(tid)
    groups = [sorted(by_points[p]) for p in sorted(by_points, reverse=True)]
    for tb in breaks:
        next_groups: list[list[int]] = []
        key = tb.key
        for group in groups:
            for tid, value in tb.values(group, ctx).items():
                values[tid][key] = value
            if len(group) == 1:
                next_groups.append(group)
                continue
            split: dict = {}
            for tid in group:
                split.setdefault(values[tid][key], []).append(tid)
            next_groups.extend(split[v] for v in sorted(split, reverse=True))
        groups = next_groups
    # values for single teams that were never in a tie are still filled for every key above
    out = []
    position = 1
    for group in groups:
        for tid in group:
            out.append((position, tid, values[tid]))
        position += len(group)
    return out
