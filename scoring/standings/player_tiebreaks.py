"""Tie-breaks of four-player standings (issue 24 item 2; docs/tournaments.md "Placement points").

With placement points on, players rank by placement points, then total score, then the
tournament's ordered tie-breaks from :data:`REGISTRY` (``Tournament.tiebreaks``; empty: the
default :data:`DEFAULT_ORDER`). Each tie-break reads plain :class:`PlayerTables` (no database) and
returns a number where higher ranks higher; ``shown`` is the number people read (an average
place, where lower is better, is ranked by its negative but shown as is).

Sources: count-back on the places (most first places, then most second places) and the best
single table are the criteria issue 24 names for mahjong tournaments; average place (lower
better) is how MahjongPantheon orders equal ratings (``Mimir/src/models/EventRatingTable.php``,
``_sortItems``: rating ties by ``avg_place``).

:func:`tiebreak_registry` gives the forms and pages the registry and default order of each kind
of entrant (teams: :mod:`scoring.standings.tiebreaks`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import ClassVar, NamedTuple

from django.utils.translation import gettext_lazy as _

from scoring.games.base import EntrantKind
from scoring.standings.tiebreaks import NSKT_DEFAULT
from scoring.standings.tiebreaks import REGISTRY as TEAM_REGISTRY


class TableResult(NamedTuple):
    """One counted table of a player: ``round``, ``table`` (number), ``seat`` (0..3),
    ``total`` (the player's table total), ``place`` (1..4) and ``points`` (placement points)."""

    round: int
    table: int
    seat: int
    total: int
    place: int
    points: Fraction


@dataclass
class PlayerTables:
    """A player's counted tables in round order."""

    id: int
    tables: list[TableResult] = field(default_factory=list)

    def places(self, place: int) -> int:
        """How many of the tables the player finished in ``place`` (shared places count)."""
        return sum(1 for t in self.tables if t.place == place)


class PlayerTieBreak:
    """Base class: ``key``, translated ``label`` and ``explanation``; :meth:`value` (higher
    ranks higher), :meth:`shown` (the number people read) and :meth:`explain` (per round)."""

    key: ClassVar[str] = ""
    label: ClassVar = ""
    explanation: ClassVar = ""

    def value(self, player: PlayerTables) -> int | Fraction:
        raise NotImplementedError

    def shown(self, player: PlayerTables) -> int | Fraction | None:
        return self.value(player)

    def explain(self, player: PlayerTables) -> list[dict]:
        """Per-round parts: ``[{"round", "value"}]``."""
        return []


REGISTRY: dict[str, type[PlayerTieBreak]] = {}


def register(cls: type[PlayerTieBreak]) -> type[PlayerTieBreak]:
    """Class decorator adding a tie-break to :data:`REGISTRY`."""
    REGISTRY[cls.key] = cls
    return cls


@register
class MostFirsts(PlayerTieBreak):
    """Number of tables finished first (a shared first place counts)."""

    key = "firsts"
    label = _("Most first places")
    explanation = _("Tables finished in first place; a first place shared on equal totals counts.")

    def value(self, player):
        return player.places(1)

    def explain(self, player):
        return [{"round": t.round, "value": int(t.place == 1)} for t in player.tables]


@register
class MostSeconds(PlayerTieBreak):
    """Number of tables finished second."""

    key = "seconds"
    label = _("Most second places")
    explanation = _("Tables finished in second place; a second place shared on equal totals counts.")

    def value(self, player):
        return player.places(2)

    def explain(self, player):
        return [{"round": t.round, "value": int(t.place == 2)} for t in player.tables]


@register
class BestTable(PlayerTieBreak):
    """The highest table total of the player."""

    key = "best_table"
    label = _("Highest table score")
    explanation = _("The player's best total at a single table.")

    def value(self, player):
        return max((t.total for t in player.tables), default=0)


@register
class AveragePlace(PlayerTieBreak):
    """The average place (lower is better; ranked by its negative)."""

    key = "average_place"
    label = _("Average place")
    explanation = _("The average of the player's places at their tables; the lower, the better.")

    def value(self, player):
        shown = self.shown(player)
        return -shown if shown is not None else Fraction(-5)

    def shown(self, player):
        if not player.tables:
            return None
        return Fraction(sum(t.place for t in player.tables), len(player.tables))

    def explain(self, player):
        return [{"round": t.round, "value": t.place} for t in player.tables]


#: The default order (issue 24: most first places, then most second places, highest table score).
DEFAULT_ORDER: list[str] = ["firsts", "seconds", "best_table"]


def keys_of(stored: list[str] | None) -> list[str]:
    """A tournament's ordered player tie-break keys: the stored ones this registry knows (the
    Tai Pan keys of a tournament whose game changed are dropped), else :data:`DEFAULT_ORDER`."""
    keys = [k for k in (stored or []) if k in REGISTRY]
    return keys or list(DEFAULT_ORDER)


def choices() -> list[tuple[str, str]]:
    """``(key, label)`` pairs for forms."""
    return [(k, cls.label) for k, cls in REGISTRY.items()]


#: Each kind of entrant's tie-break registry and default order.
REGISTRIES = {
    EntrantKind.TEAMS: (TEAM_REGISTRY, NSKT_DEFAULT),
    EntrantKind.PLAYERS: (REGISTRY, DEFAULT_ORDER),
}


#: Whether a kind of entrant has placement points (four-player tables do; Tai Pan matches do not).
USES_PLACEMENT = {EntrantKind.TEAMS: False, EntrantKind.PLAYERS: True}


def tiebreak_registry(kind: EntrantKind) -> tuple[dict[str, type], list[str]]:
    """``(registry, default order)`` of the tie-breaks for ``kind`` of entrant: Tai Pan teams
    (:mod:`scoring.standings.tiebreaks`) or four-player players (this module). Every class has
    ``key`` and a translated ``label``. For the tournament form."""
    registry, default = REGISTRIES[kind]
    return registry, list(default)
