"""Load a person's profile (:func:`profile`) in a fixed number of queries, whatever the number
of tournaments, matches and tables: the person, their entries with the tournaments, Tai Pan teams,
matches with their hands, four-player tables with their seats and deals, and the ranks
(:func:`scoring.standings.ranks.entry_ranks`).

What the public sees (the page is public, and so is the API's answer): names through
:func:`~scoring.participants.names.public_name` (the person's own through
:func:`~scoring.participants.names.person_public_name`: privacy wins); draft rounds left out; with
blind confirmation a result that is not confirmed yet shows no score and is left out of the
statistics (:func:`hidden`). The federation number is never part of the profile; the API adds it
for staff and the organisers whose entry carries the number (:func:`may_see_federation_number`).
"""
from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from django.db.models import Prefetch, Q
from django.urls import reverse
from django.utils.translation import gettext as _t

from scoring.games.statistics import PlayedResult, Statistics
from scoring.kinds import MATCHES, TABLES
from scoring.models import Deal, Hand, Match, Person, Player, ResultContainer, Round, Table, TableSeat, Team, Tournament
from scoring.participants.names import person_public_name, public_name
from scoring.participants.persons import visible_numbers
from scoring.standings.ranks import entry_ranks

Status = ResultContainer.Status


@dataclass
class ResultLine:
    """One match or table of an entry: ``kind`` (``"match"``, ``"table"``) and ``pk`` of the
    result, ``round``, ``table``, ``url`` (its public page),
    ``opponents`` (public names: a Tai Pan team "Jade (Cees & Dirk V.)", or three players with
    their seats), ``seat`` (the person's seat label), ``score`` (``[ours, theirs]`` or the four
    totals with ``mine`` the person's index; empty when hidden), ``outcome`` (``"win"``,
    ``"draw"``, ``"loss"``, a place ``"1"``..``"4"``, or ``""`` while unfinished or hidden),
    ``status`` (display), ``hidden``, ``bye``."""

    kind: str
    pk: int
    round: int
    table: int
    url: str
    opponents: list[str] = field(default_factory=list)
    seat: str = ""
    score: list[int] = field(default_factory=list)
    mine: int = 0
    outcome: str = ""
    status: str = ""
    hidden: bool = False
    bye: bool = False


@dataclass
class Entry:
    """The person in one tournament: ``tournament``, ``player`` (the entry), ``team`` (Tai Pan)
    and ``partner`` (the partner's public name), ``rank`` (current or final; ``None`` unranked)
    and ``points`` (Tai Pan match points, four-player total points), ``url`` (the team's or
    player's page in the tournament) and ``results`` (:class:`ResultLine`, by round)."""

    tournament: Tournament
    player: Player
    team: Team | None = None
    partner: str = ""
    rank: int | None = None
    points: int = 0
    url: str = ""
    results: list[ResultLine] = field(default_factory=list)


@dataclass
class GameStatistics:
    """The person's statistics in one game: ``key``, ``label``, ``statistics`` (the adapter's
    :class:`~scoring.games.statistics.Statistics`) and ``tournaments`` (how many)."""

    key: str
    label: Any
    statistics: Statistics
    tournaments: int


@dataclass
class Profile:
    """A person's profile: ``person``, ``name`` (public), ``entries`` (oldest tournament first)
    and ``games`` (:class:`GameStatistics`, in the order the games were first played)."""

    person: Person
    name: str
    entries: list[Entry]
    games: list[GameStatistics]


def hidden(tournament: Tournament, container: ResultContainer, bye: bool = False) -> bool:
    """With blind confirmation a result's score is public only once it is confirmed (the public's
    view of :func:`scoring.results.sheet.totals_hidden`; a bye hides nothing)."""
    return tournament.blind_confirmation and container.status != Status.CONFIRMED and not bye


def _when(tournament: Tournament) -> tuple:
    return (tournament.starts_on or tournament.created_at.date(), tournament.created_at, tournament.pk)


def _team_line(entry: Entry, match: Match, stats: dict) -> None:
    """Add ``match`` to ``entry`` (a Tai Pan entry) and, unless hidden or a bye, to ``stats``."""
    t, team = entry.tournament, entry.team
    url = reverse(MATCHES.url_name("detail"), args=[t.slug, match.pk])
    if match.team_ew_id is None:
        entry.results.append(ResultLine("match", match.pk, match.round.number, match.table, url, bye=True, status=_t("bye"), outcome="win"))
        return
    ns = match.team_ns_id == team.pk
    opp = match.team_ew if ns else match.team_ns
    first = team.first_player_id == entry.player.pk
    seat = ("N" if first else "S") if ns else ("E" if first else "W")
    is_hidden = hidden(t, match)
    line = ResultLine("match", match.pk, match.round.number, match.table, url, seat=seat, status=match.get_status_display(), hidden=is_hidden,
                      opponents=[f"{opp.name} ({public_name(opp.first_player, t)} & {public_name(opp.second_player, t)})"])
    if not is_hidden:
        line.score = [match.total_ns, match.total_ew] if ns else [match.total_ew, match.total_ns]
        if match.is_finished:
            line.outcome = "draw" if match.winner_id is None else "win" if match.winner_id == team.pk else "loss"
        hands = list(match.hands.all())
        stats[t.game].append(PlayedResult(
            [h.record for h in hands], [(h.ns, h.ew) for h in hands], 0 if ns else 1, seat, (match.total_ns, match.total_ew),
            (match.points_ns if ns else match.points_ew) if match.is_finished else None, match.is_finished,
            f"R{match.round.number}", t.name))
    entry.results.append(line)


def _table_line(entry: Entry, table: Table, stats: dict) -> None:
    """Add ``table`` to ``entry`` (a four-player entry) and, unless hidden, to ``stats``."""
    t = entry.tournament
    adapter = t.adapter
    labels = adapter.side_labels()
    seats = sorted(table.seats.all(), key=lambda s: s.seat)
    mine = next(s for s in seats if s.player_id == entry.player.pk)
    is_hidden = hidden(t, table)
    line = ResultLine("table", table.pk, table.round.number, table.number, reverse(TABLES.url_name("detail"), args=[t.slug, table.pk]),
                      opponents=[f"{public_name(s.player, t)} ({labels[s.seat]})" for s in seats if s is not mine],
                      seat=labels[mine.seat], mine=mine.seat, status=table.get_status_display(), hidden=is_hidden)
    if not is_hidden:
        totals = [s.total for s in seats]
        line.score = totals
        if table.is_finished:
            line.outcome = str(1 + sum(1 for x in totals if x > totals[mine.seat]))
        deals = list(table.deals.all())
        stats[t.game].append(PlayedResult(
            [d.record for d in deals], [tuple(d.net) for d in deals], mine.seat, adapter.sides[mine.seat], totals,
            None, table.is_finished, f"R{table.round.number}", t.name))
    entry.results.append(line)


def _entries(person: Person) -> list[Entry]:
    players = sorted(Player.objects.filter(person=person).select_related("tournament"), key=lambda p: _when(p.tournament))
    return [Entry(p.tournament, p) for p in players]


def _attach_teams(entries: list[Entry]) -> None:
    ids = [e.player.pk for e in entries]  # only Tai Pan players are in teams
    if not ids:
        return
    teams = Team.objects.filter(Q(first_player__in=ids) | Q(second_player__in=ids)).select_related("first_player", "second_player")
    by_player = {}
    for team in teams:
        by_player[team.first_player_id] = by_player[team.second_player_id] = team
    for e in entries:
        team = by_player.get(e.player.pk)
        if team is not None:
            e.team = team
            partner = team.second_player if team.first_player_id == e.player.pk else team.first_player
            e.partner = public_name(partner, e.tournament)


def profile(person: Person) -> Profile:
    """The profile of ``person`` (see the module docstring): at most nine queries after the
    person, whatever the number of tournaments and results."""
    entries = _entries(person)
    _attach_teams(entries)
    by_team = {e.team.pk: e for e in entries if e.team is not None}
    by_player = {e.player.pk: e for e in entries if e.team is None}
    stats: dict[str, list[PlayedResult]] = defaultdict(list)
    if by_team:
        matches = (Match.objects.with_teams().filter(Q(team_ns__in=by_team) | Q(team_ew__in=by_team))
                   .exclude(round__status=Round.Status.DRAFT).order_by("round__number", "table")
                   .prefetch_related(Prefetch("hands", queryset=Hand.objects.order_by("number"))))
        for match in sorted(matches, key=lambda m: (_when(m.round.tournament), m.round.number)):
            _team_line(by_team.get(match.team_ns_id) or by_team[match.team_ew_id], match, stats)
    if by_player:
        tables = (Table.objects.filter(seats__player__in=by_player).exclude(round__status=Round.Status.DRAFT)
                  .select_related("round").order_by("round__number", "number")
                  .prefetch_related(Prefetch("seats", queryset=TableSeat.objects.select_related("player")),
                                    Prefetch("deals", queryset=Deal.objects.order_by("number"))))
        lines = []
        for table in tables:
            entry = next(by_player[s.player_id] for s in table.seats.all() if s.player_id in by_player)
            lines.append((_when(entry.tournament), table.round.number, table.number, entry, table))
        for *_k, entry, table in sorted(lines, key=lambda x: x[:3]):
            _table_line(entry, table, stats)
    ranks = entry_ranks([e.tournament for e in entries])
    for e in entries:
        e.rank, e.points = ranks.get(e.tournament.pk, {}).get(e.team.pk if e.team else e.player.pk, (None, 0))
        e.url = (reverse("scoring:team_breakdown", args=[e.tournament.slug, e.team.pk]) if e.team
                 else reverse("scoring:player_page", args=[e.tournament.slug, e.player.pk]))
    name = person_public_name(person.name, [(e.player.public_name, e.tournament.public_names) for e in entries])
    return Profile(person, name, entries, _games(entries, stats))


def _games(entries: list[Entry], stats: dict[str, list[PlayedResult]]) -> list[GameStatistics]:
    """The statistics per game: each adapter's :meth:`player_statistics` over the person's results
    in that game, oldest first."""
    counts = Counter(e.tournament.game for e in entries)
    adapters = {e.tournament.game: e.tournament.adapter for e in entries}
    return [GameStatistics(game, adapters[game].label, adapters[game].player_statistics(stats.get(game, [])), count)
            for game, count in counts.items()]


def may_see_federation_number(actor, person: Person) -> bool:
    """True for staff and for an organiser of a tournament whose entry carries the person's
    number (:func:`scoring.participants.persons.visible_numbers`; the API adds the number for
    them; anonymous callers and everyone else never see it)."""
    return bool(person.federation_number) and person.federation_number in visible_numbers(actor, [person.federation_number])
