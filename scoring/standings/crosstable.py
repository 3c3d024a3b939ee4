"""The cross table of a tournament (issue 26 item 4, docs/tournaments.md "Cross table"): who met
whom and how, one row per entrant in standings order and one column per round, chess style.

- Tai Pan (teams): a cell names the opponent by its row number, the side the team played
  (``NS``/``EW``), the outcome (``W``/``D``/``L``), the match points and the score
  (``"12 NS W 850-400"``); a bye and a forfeit are marked.
- Four-player games: a cell names the table, the other three players by row number, the seat,
  the place at the table (ties share) and the table total (with placement points on, also the
  placement points of that table).

Rounds: every round that is not a draft (the public round pages show the same rounds); a
result shows only once it counts in the standings (:mod:`scoring.standings.counting`: finished,
with blind confirmation confirmed), before that the cell holds the pairing and ``state``
``"pending"``. The totals are the standings' own numbers (:func:`scoring.standings.standings_for`).

Names: this module never decides how a person is shown. Callers pass ``name_of(player)``:
public pages, the public PDF and the API pass :func:`scoring.participants.names.public_name`,
the organiser's federation export the full name.

Queries: the standings (from the cache, else their fixed count), the entrants, the rounds and
the results (one query each): a fixed number whatever the number of rounds and entrants.
"""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from django.db.models import BooleanField, ExpressionWrapper
from django.utils.translation import gettext as _

from scoring.games.base import EntrantKind
from scoring.models import Match, Player, Round, TableSeat, Team, Tournament
from scoring.standings import player_standings, team_standings
from scoring.standings.counting import counted_q
from scoring.standings.placement import stored as stored_placement
from scoring.standings.placement import table_points
from scoring.standings.player_tiebreaks import REGISTRY as PLAYER_TIEBREAKS
from scoring.standings.player_tiebreaks import keys_of as player_tiebreak_keys
from scoring.standings.teams import tiebreak_keys
from scoring.standings.tiebreaks import REGISTRY

#: Cell states: a counted result, a pairing without a counted result yet, a bye (Tai Pan).
PLAYED, PENDING, BYE = "played", "pending", "bye"
#: Outcomes of a Tai Pan cell.
WIN, DRAW, LOSS = "W", "D", "L"

NameOf = Callable[[Player], str]


@dataclass
class Cell:
    """One entrant's result in one round.

    ``state``: :data:`PLAYED`, :data:`PENDING` or :data:`BYE`. ``table``: the table number;
    ``result_id``: the match's or table's id (``None`` for a bye). ``opponents``: the other
    entrants' row numbers (Tai Pan: one; four-player: three, in seat order) and
    ``opponent_ids`` their ids. ``side``: Tai Pan ``"NS"``/``"EW"``; four-player the seat's
    label (``seat``: 0..3); ``side_key``: the same side as the game's side key, not translated
    (Tai Pan ``"NS"``/``"EW"``; four-player the adapter's ``sides[seat]``, e.g. ``"E"`` or
    ``"0"``; empty for a bye). Once played: ``outcome`` (Tai Pan ``W``/``D``/``L``),
    ``points`` (Tai Pan match points; four-player placement points or ``None`` without them),
    ``scored`` and ``conceded`` (Tai Pan totals of the match; four-player: ``scored`` is the
    table total, ``conceded`` ``None``), ``place`` (four-player, 1..4, ties share).
    ``forfeit``: Tai Pan ``"won"`` (the opponent did not show up) or ``"lost"`` (this team did
    not), else empty."""

    round: int
    state: str
    table: int | None = None
    result_id: int | None = None
    opponents: list[int] = field(default_factory=list)
    opponent_ids: list[int] = field(default_factory=list)
    side: str = ""
    side_key: str = ""
    seat: int | None = None
    outcome: str = ""
    points: int | Fraction | None = None
    scored: int | None = None
    conceded: int | None = None
    place: int | None = None
    forfeit: str = ""

    def text(self) -> str:
        """The cell in one short line, the same on the page and the PDF: ``"12 NS W 850-400"``,
        ``"bye W"``, ``"12 NS W forfeit"``, ``"12 NS"`` (pending); four-player ``"T3 E 2nd 12"``
        (table, seat, place, total; pending ``"T3 E"``)."""
        head, result = self.head_text(), self.result_text()
        return f"{head} {result}" if head and result else head or result

    def head_text(self) -> str:
        """Who and where, without the result: ``"12 NS"``, four-player ``"T3 E"``; empty for a bye."""
        if self.state == BYE:
            return ""
        if self.seat is not None:
            return _("T%(table)s %(seat)s") % {"table": self.table, "seat": self.side}
        return f"{self.opponents[0] if self.opponents else '?'} {self.side}"

    def result_text(self) -> str:
        """The result alone (exports): ``"W 850-400"``, ``"W forfeit"``, ``"bye W"``, four-player
        ``"2nd 12"``; empty while pending."""
        if self.state == BYE:
            return _("bye") + (f" {outcome_label(self.outcome)}" if self.outcome else "")
        if self.state != PLAYED:
            return ""
        if self.seat is not None:
            return f"{ordinal(self.place)} {self.scored}"
        if self.forfeit:
            return f"{outcome_label(self.outcome)} {_('forfeit')}"
        return f"{outcome_label(self.outcome)} {self.scored}-{self.conceded}"


def outcome_label(outcome: str) -> str:
    """``W``/``D``/``L`` as the reader's language writes it (Dutch ``W``/``G``/``V``)."""
    labels = {WIN: _("W"), DRAW: _("D"), LOSS: _("L")}
    return str(labels.get(outcome, outcome))


def ordinal(place: int | None) -> str:
    """A place at the table as shown in a cell: ``"1st"`` .. ``"4th"`` (translated)."""
    names = {1: _("1st"), 2: _("2nd"), 3: _("3rd"), 4: _("4th")}
    return names.get(place, "") if place else ""


@dataclass
class Row:
    """One entrant: ``number`` (its row, 1..n, unique: cells name opponents by it), ``rank``
    (the standings' rank, shared on ties; ``None`` for a player who has not played), ``entrant_id``
    (team or player id), ``name`` (a team's name, or the player's name through ``name_of``),
    ``players`` (Tai Pan: both players through ``name_of``; four-player: empty), ``affiliation``,
    ``withdrawn``, ``cells`` (one per round of :attr:`CrossTable.rounds`, ``None`` where the
    entrant did not play), ``totals`` (by the keys of :attr:`CrossTable.columns`) and ``people``."""

    number: int
    rank: int | None
    entrant_id: int
    name: str
    players: list[str]
    affiliation: str
    withdrawn: bool
    cells: list[Cell | None]
    totals: dict[str, Any]
    #: The entrant's players as model objects (Tai Pan: both, four-player: the player), for
    #: callers that need more than the name (the federation export's numbers).
    people: list[Player] = field(default_factory=list)


@dataclass
class CrossTable:
    """The cross table: ``entrants`` (``"teams"`` or ``"players"``), ``rounds`` (the numbers of
    the rounds shown, ascending), ``columns`` (the totals' ``(key, label)``, as the standings
    show them) and ``rows`` in standings order; ``entrant_heading`` ("Team" or "Player") and
    ``legend`` (how to read a cell), in the active language, for the page and the PDF."""

    entrants: str
    rounds: list[int]
    columns: list[tuple[str, str]]
    rows: list[Row]
    entrant_heading: str = ""
    legend: str = ""

    @property
    def played_through(self) -> int | None:
        """The last round with a counted result in the table (the "after round N" of the page and
        the PDF), or ``None``."""
        return max((c.round for row in self.rows for c in row.cells if c is not None and c.state != PENDING),
                   default=None)

    def row_of(self, entrant_id: int) -> Row:
        """The row of a team or player id; ``KeyError`` when it is not in the table."""
        for row in self.rows:
            if row.entrant_id == entrant_id:
                return row
        raise KeyError(entrant_id)


def cross_table(tournament: Tournament, *, name_of: NameOf) -> CrossTable:
    """The cross table of ``tournament`` (Tai Pan or four-player, by its game); ``name_of(player)``
    says how a player is named (required: the caller decides between public and full names).
    A fixed number of queries (module docstring)."""
    return BUILDERS[tournament.adapter.entrants](tournament, name_of)


def _round_numbers(tournament: Tournament) -> list[int]:
    return list(Round.objects.filter(tournament=tournament).exclude(status=Round.Status.DRAFT)
                .order_by("number").values_list("number", flat=True))


def _counted_flag(tournament: Tournament, path: str = "") -> ExpressionWrapper:
    return ExpressionWrapper(counted_q(tournament, path), output_field=BooleanField())


# ---------------------------------------------------------------------------- Tai Pan


def team_columns(tournament: Tournament) -> list[tuple[str, str]]:
    """The totals of a Tai Pan cross table: match points, the tournament's tie-breaks in order,
    and points scored when it is not one of them."""
    keys = tiebreak_keys(tournament)
    columns = [("match_points", _("Match points"))] + [(k, str(REGISTRY[k].label)) for k in keys]
    if "points_scored" not in keys:
        columns.append(("points_scored", _("Points scored")))
    return columns


MATCH_COLUMNS = ("pk", "round__number", "table", "team_ns_id", "team_ew_id", "total_ns", "total_ew",
                 "points_ns", "points_ew", "winner_id", "forfeit", "counted")


def _team_table(tournament: Tournament, name_of: NameOf) -> CrossTable:
    standings = team_standings(tournament)
    teams = {t.pk: t for t in Team.objects.filter(tournament=tournament).select_related("first_player", "second_player")}
    rounds = _round_numbers(tournament)
    columns = team_columns(tournament)
    numbers = {s.team_id: i for i, s in enumerate(standings, start=1)}
    rows = []
    for number, s in enumerate(standings, start=1):
        team = teams[s.team_id]
        totals = {key: s.match_points if key == "match_points" else s.tiebreaks.get(key, getattr(s, key, None))
                  for key, _label in columns}
        rows.append(Row(number=number, rank=s.rank, entrant_id=s.team_id, name=team.name,
                        players=[name_of(team.first_player), name_of(team.second_player)],
                        affiliation=team.affiliation, withdrawn=s.withdrawn, cells=[None] * len(rounds), totals=totals,
                        people=[team.first_player, team.second_player]))
    by_id = {row.entrant_id: row for row in rows}
    index = {number: i for i, number in enumerate(rounds)}
    matches = (Match.objects.filter(round__tournament=tournament).exclude(round__status=Round.Status.DRAFT)
               .annotate(counted=_counted_flag(tournament)).values_list(*MATCH_COLUMNS))
    for match in matches:
        for team_id, cell in _match_cells(match, numbers):
            if team_id in by_id and match[1] in index:
                by_id[team_id].cells[index[match[1]]] = cell
    return CrossTable(entrants="teams", rounds=rounds, columns=columns, rows=rows, entrant_heading=_("Team"),
                      legend=_("Each round: the opponent's number, the side played (NS/EW), the result (W win, D draw, "
                               "L loss) and the score."))


def _match_cells(match: tuple, numbers: dict[int, int]) -> list[tuple[int, Cell]]:
    """Both teams' cells of one match row (:data:`MATCH_COLUMNS`); a bye gives one."""
    pk, rnd, table, ns, ew, total_ns, total_ew, points_ns, points_ew, winner, forfeit, counted = match
    if ew is None:
        cell = Cell(round=rnd, state=BYE, table=table, result_id=pk)
        if counted:
            cell.outcome, cell.points, cell.scored, cell.conceded = WIN, points_ns, 0, 0
        return [(ns, cell)]
    out = []
    for me, other, side, scored, conceded, points in ((ns, ew, "NS", total_ns, total_ew, points_ns),
                                                      (ew, ns, "EW", total_ew, total_ns, points_ew)):
        cell = Cell(round=rnd, state=PLAYED if counted else PENDING, table=table, result_id=pk,
                    opponents=[numbers[other]] if other in numbers else [], opponent_ids=[other], side=side, side_key=side)
        if counted:
            cell.outcome = DRAW if winner is None else WIN if winner == me else LOSS
            cell.points, cell.scored, cell.conceded = points, scored, conceded
            if forfeit:
                cell.forfeit = "lost" if forfeit == side else "won"
        out.append((me, cell))
    return out


# ---------------------------------------------------------------------------- four-player


def player_columns(tournament: Tournament) -> list[tuple[str, str]]:
    """The totals of a four-player cross table: total points, or with placement points on the
    placement points, total points and the tournament's player tie-breaks in order."""
    if not stored_placement(tournament.placement).enabled:
        return [("total", _("Total points"))]
    keys = player_tiebreak_keys(tournament.tiebreaks)
    return ([("placement_points", _("Placement points")), ("total", _("Total points"))]
            + [(k, str(PLAYER_TIEBREAKS[k].label)) for k in keys])


SEAT_COLUMNS = ("table_id", "table__round__number", "table__number", "seat", "player_id", "total", "counted")


def _player_table(tournament: Tournament, name_of: NameOf) -> CrossTable:
    standings = player_standings(tournament)
    players = {p.pk: p for p in Player.objects.filter(tournament=tournament)}
    rounds = _round_numbers(tournament)
    columns = player_columns(tournament)
    numbers = {s.player_id: i for i, s in enumerate(standings, start=1)}
    rows = []
    for number, s in enumerate(standings, start=1):
        totals = {key: getattr(s, key) if key in ("total", "placement_points") else s.tiebreaks.get(key)
                  for key, _label in columns}
        rows.append(Row(number=number, rank=s.rank, entrant_id=s.player_id, name=name_of(players[s.player_id]),
                        players=[], affiliation=s.affiliation, withdrawn=s.withdrawn, cells=[None] * len(rounds),
                        totals=totals, people=[players[s.player_id]]))
    by_id = {row.entrant_id: row for row in rows}
    index = {number: i for i, number in enumerate(rounds)}
    seats = (TableSeat.objects.filter(table__round__tournament=tournament)
             .exclude(table__round__status=Round.Status.DRAFT)
             .annotate(counted=_counted_flag(tournament, "table")).order_by("table_id", "seat").values_list(*SEAT_COLUMNS))
    tables: dict[int, list] = {}
    for seat in seats:
        tables.setdefault(seat[0], []).append(seat)
    labels = list(zip(tournament.adapter.sides, tournament.adapter.side_labels(), strict=True))
    placement = stored_placement(tournament.placement)
    for table_seats in tables.values():
        for player_id, cell in _table_cells(table_seats, numbers, labels, placement):
            if player_id in by_id and cell.round in index:
                by_id[player_id].cells[index[cell.round]] = cell
    return CrossTable(entrants="players", rounds=rounds, columns=columns, rows=rows, entrant_heading=_("Player"),
                      legend=_("Each round: the table, the seat, the place at the table and the table's points."))


def _table_cells(seats: list[tuple], numbers: dict[int, int], labels: list[tuple[str, str]], placement) -> list[tuple[int, Cell]]:
    """Every seated player's cell of one table (its :data:`SEAT_COLUMNS` rows in seat order);
    ``labels``: ``(side key, label)`` per seat.
    Places and placement points only for a counted table of four."""
    counted = len(seats) == 4 and all(s[6] for s in seats)
    results = table_points(placement, [s[5] or 0 for s in seats]) if counted else None
    out = []
    for i, (table_id, rnd, number, seat, player_id, total, _c) in enumerate(seats):
        others = [s[4] for s in seats if s[4] != player_id]
        cell = Cell(round=rnd, state=PLAYED if counted else PENDING, table=number, result_id=table_id,
                    opponents=[numbers[o] for o in others if o in numbers], opponent_ids=others,
                    side=labels[seat][1] if seat < len(labels) else str(seat),
                    side_key=labels[seat][0] if seat < len(labels) else str(seat), seat=seat)
        if results is not None:
            cell.place, cell.scored = results[i].place, total or 0
            cell.points = results[i].points if placement.enabled else None
        out.append((player_id, cell))
    return out


#: The cross table's builder for each kind of entrant (:func:`cross_table`).
BUILDERS: dict[EntrantKind, Callable[[Tournament, NameOf], CrossTable]] = {
    EntrantKind.TEAMS: _team_table, EntrantKind.PLAYERS: _player_table}
