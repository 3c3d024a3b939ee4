"""The player side (no login): "find my table" by team or player name, a team's page (Tai Pan) and
a player's page (four-player games).

A player types part of their team's or their own name (case and accents do not matter:
"bram" finds "Bräm", "de vries" finds "Anna de Vries") and gets the table of the current round
(the latest published one), their seat, the opponents and links. The team and player pages show
that table, every earlier match or table record by record with running totals, and a small chart
of the running totals per match (inline SVG rendered here, no script).

Public pages show results, never who entered them; with blind confirmation a result's totals and
records stay hidden from the public until it is confirmed (:func:`hide_totals`).
"""
from __future__ import annotations

from dataclasses import dataclass, field

from django.db.models import Prefetch, Q
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _t
from django.views.decorators.http import require_safe

from scoring.games.base import EntrantKind
from scoring.kinds import MATCHES, TABLES
from scoring.models import Deal, Hand, Match, Player, Round, Table, TableSeat, Team, Tournament
from scoring.participants.entrants import fold
from scoring.participants.names import public_name
from scoring.results.presenter import record_rows
from scoring.standings import standings_for
from scoring.standings import teams as team_standings_service
from scoring.standings.counting import counts
from scoring.standings.placement import stored as stored_placement
from scoring.standings.players import player_breakdown
from scoring.web.context import tournament_context
from scoring.web.decorators import tournament_view
from scoring.web.views.public import FIND_LABELS, current_round, hide_totals, tiebreak_descriptions
from scoring.web.views.result_context import urls_of

#: Shortest query that is searched, and the most answers shown.
MIN_QUERY = 2
MAX_HITS = 12


def normalise(text: str) -> str:
    """``text`` for matching: accents dropped, case folded, spaces collapsed
    (``"  Bräm  DE Vries"`` -> ``"bram de vries"``)."""
    return " ".join(fold(text).split())


def _latest_public_round(tournament: Tournament) -> Round | None:
    return current_round(list(tournament.rounds.exclude(status=Round.Status.DRAFT).order_by("number")))


# --------------------------------------------------------------------------- what a table looks like from one seat


@dataclass
class Seat:
    """One place at a table as a player sees it: ``label`` (the seat or side: "N", "Oost"),
    ``name`` (player, or team with its players) and whether it is the one looked for."""

    label: str
    name: str
    mine: bool = False
    team: str = ""


@dataclass
class TableView:
    """An entrant's table in a round: ``round``, ``number``, ``side`` (the entrant's side label),
    ``seats`` (every seat, the entrant's marked), ``opponents`` (names), ``status`` (display),
    ``url`` (the result page), ``bye``."""

    round: int
    number: int | None = None
    side: str = ""
    seats: list[Seat] = field(default_factory=list)
    opponents: list[str] = field(default_factory=list)
    status: str = ""
    url: str = ""
    bye: bool = False


def team_table(tournament: Tournament, match: Match, team: Team, mine: set[int] | None = None) -> TableView:
    """``team``'s view of ``match``: its side (NS or EW), the four seats (N, S: team NS; E, W: team
    EW) and the opponents; ``mine``: ids of the players looked for (marked; default both of the
    team's)."""
    rnd = match.round.number
    if match.team_ew_id is None:
        return TableView(rnd, match.table, "NS", bye=True, status=_t("bye"))
    ours = "NS" if match.team_ns_id == team.pk else "EW"
    opp = match.team_ew if ours == "NS" else match.team_ns
    mine = mine or {team.first_player_id, team.second_player_id}
    seats = []
    for side_team, labels in ((match.team_ns, ("N", "S")), (match.team_ew, ("E", "W"))):
        for label, player in zip(labels, (side_team.first_player, side_team.second_player), strict=True):
            seats.append(Seat(label, public_name(player, tournament), player.pk in mine, side_team.name))
    seats = [seats[0], seats[2], seats[1], seats[3]]  # N, E, S, W around the table
    return TableView(rnd, match.table, ours, seats, [f"{opp.name} ({public_name(opp.first_player, tournament)} & {public_name(opp.second_player, tournament)})"],
                     match.get_status_display(), urls_of(MATCHES, tournament, match)["detail"])


def player_table(tournament: Tournament, table: Table, player_id: int) -> TableView:
    """A player's view of a four-player ``table``: their seat, the other three players."""
    labels = tournament.adapter.side_labels()
    seats = [Seat(labels[s.seat], public_name(s.player, tournament), s.player_id == player_id) for s in sorted(table.seats.all(), key=lambda s: s.seat)]
    side = next((s.label for s in seats if s.mine), "")
    return TableView(table.round.number, table.number, side, seats, [f"{s.name} ({s.label})" for s in seats if not s.mine],
                     table.get_status_display(), urls_of(TABLES, tournament, table)["detail"])


# --------------------------------------------------------------------------- find my table


def _find_teams(tournament: Tournament, query: str, rnd: Round | None) -> list[dict]:
    hits = []
    for team in Team.objects.filter(tournament=tournament).select_related("first_player", "second_player"):
        players = [p for p in (team.first_player, team.second_player) if query in normalise(public_name(p, tournament))]
        if players or query in normalise(team.name):
            hits.append({"team": team, "players": players})
        if len(hits) >= MAX_HITS:
            break
    matches = {}
    if rnd is not None and hits:
        ids = [h["team"].pk for h in hits]
        for m in Match.objects.with_teams().filter(round=rnd).filter(Q(team_ns__in=ids) | Q(team_ew__in=ids)):
            matches[m.team_ns_id] = m
            if m.team_ew_id:
                matches[m.team_ew_id] = m
    out = []
    for h in hits:
        team, match = h["team"], matches.get(h["team"].pk)
        out.append({
            "name": team.name, "detail": " & ".join(public_name(p, tournament) for p in (team.first_player, team.second_player)),
            "url": reverse("scoring:team_breakdown", args=[tournament.slug, team.pk]),
            "found": [public_name(p, tournament) for p in h["players"]],
            "table": team_table(tournament, match, team, {p.pk for p in h["players"]}) if match else None,
        })
    return out


def _find_players(tournament: Tournament, query: str, rnd: Round | None) -> list[dict]:
    hits = [p for p in Player.objects.filter(tournament=tournament) if query in normalise(public_name(p, tournament))][:MAX_HITS]
    tables = {}
    if rnd is not None and hits:
        seats = TableSeat.objects.filter(table__round=rnd, player__in=hits).values_list("player_id", "table_id")
        by_table = {t.pk: t for t in Table.objects.filter(pk__in=[t for _p, t in seats]).select_related("round").prefetch_related(
            Prefetch("seats", queryset=TableSeat.objects.select_related("player")))}
        tables = {p: by_table[t] for p, t in seats}
    return [{
        "name": public_name(p, tournament), "detail": p.affiliation,
        "url": reverse("scoring:player_page", args=[tournament.slug, p.pk]),
        "found": [],
        "table": player_table(tournament, tables[p.pk], p.pk) if p.pk in tables else None,
    } for p in hits]


FINDERS = {EntrantKind.TEAMS: _find_teams, EntrantKind.PLAYERS: _find_players}


@require_safe
@tournament_view()
def find_table(request, *, tournament):
    """"Find my table": ``?q=`` part of a team's or player's name (case and accents ignored); the
    table of each match in the current round. The tournament home loads the answer in place (htmx)."""
    raw = request.GET.get("q", "").strip()[:100]
    query = normalise(raw)
    rnd = _latest_public_round(tournament)
    hits = FINDERS[tournament.adapter.entrants](tournament, query, rnd) if len(query) >= MIN_QUERY else []
    context = tournament_context(request, tournament, q=raw, searched=len(query) >= MIN_QUERY, hits=hits,
                                 current=rnd, find_label=FIND_LABELS[tournament.adapter.entrants], too_short=bool(query) and len(query) < MIN_QUERY)
    return render(request, "players/find.html", context)


# --------------------------------------------------------------------------- running-totals chart


def running_chart(series: list[dict], *, target: int | None = None, width: int = 300, height: int = 110) -> dict:
    """An inline SVG line chart of running totals: ``series`` ``[{"label", "values", "mine"}]``
    (values: the running total after each record). Returns what ``players/_chart.html`` draws:
    ``width``, ``height``, ``lines`` (``points``, ``mine``, ``label``, ``end_x``, ``end_y``,
    ``last``), ``zero_y``, ``target_y`` (or ``None``) and ``description`` (the totals in words,
    the chart's accessible name)."""
    left, right, top, bottom = 6, 6, 8, 8
    n = max((len(s["values"]) for s in series), default=0)
    values = [v for s in series for v in s["values"]] + [0]
    low = min(values)
    high = max([*values, target or 0])
    if high == low:
        high = low + 1
    step = (width - left - right) / max(n, 1)

    def y(v):
        return round(top + (high - v) * (height - top - bottom) / (high - low), 1)

    lines = []
    for s in series:
        points = [(left, y(0))] + [(round(left + (i + 1) * step, 1), y(v)) for i, v in enumerate(s["values"])]
        lines.append({"points": " ".join(f"{px},{py}" for px, py in points), "mine": s.get("mine", False),
                      "label": s["label"], "end_x": points[-1][0], "end_y": points[-1][1],
                      "last": s["values"][-1] if s["values"] else 0})
    description = "; ".join(f"{line['label']}: {line['last']}" for line in lines)
    return {"width": width, "height": height, "lines": lines, "zero_y": y(0), "target": target,
            "target_y": y(target) if target and target <= high else None, "description": description}


def _target(tournament: Tournament) -> int | None:
    try:
        return tournament.adapter.resolve_rules(tournament.rules).get("target")
    except Exception:  # noqa: BLE001 - a broken rules setting must not break a public page
        return None


def profile_links(tournament: Tournament, players) -> list[tuple[str, str]]:
    """``(public name, profile URL)`` of each of ``players`` linked to a person (the profile page,
    ``scoring:person_profile``); players without a person are left out."""
    return [(public_name(p, tournament), reverse("scoring:person_profile", args=[p.person_id])) for p in players if p.person_id]


# --------------------------------------------------------------------------- team page


def team_matches(request, tournament: Tournament, team: Team) -> tuple[list[dict], TableView | None]:
    """Every match of ``team`` in a public round, hand by hand from the team's side: ``[{"round",
    "table", "opponent", "opponent_id", "side", "status", "outcome", "totals" (ours, theirs),
    "hidden", "finished", "counted" (in the standings, :func:`scoring.standings.counting.counts`), "records" (``{"number", "summary", "ours", "theirs", "run_ours", "run_theirs", "cells"}``),
    "chart", "url"}]``, and the table of the latest public round. Two queries."""
    adapter = tournament.adapter
    target = _target(tournament)
    hands = Prefetch("hands", queryset=Hand.objects.order_by("number"))
    matches = list(Match.objects.with_teams().filter(Q(team_ns=team) | Q(team_ew=team), round__tournament=tournament)
                   .exclude(round__status=Round.Status.DRAFT).prefetch_related(hands).order_by("round__number"))
    latest = _latest_public_round(tournament)
    out, next_table = [], None
    for m in matches:
        view = team_table(tournament, m, team)
        if latest is not None and m.round_id == latest.pk:
            next_table = view
        if m.team_ew_id is None:
            out.append({"round": m.round.number, "table": m.table, "bye": True, "view": view})
            continue
        ns = m.team_ns_id == team.pk
        opponent = m.team_ew if ns else m.team_ns
        hidden = hide_totals(request, tournament, m)
        us, them = (0, 1) if ns else (1, 0)
        records = [{"number": r.number, "summary": r.summary, "ours": r.scores[us], "theirs": r.scores[them],
                    "run_ours": r.running[us], "run_theirs": r.running[them], "cells": [r.pairs[us], r.pairs[them]]}
                   for r in record_rows(MATCHES, adapter, m.hands.all())]
        finished = m.is_finished
        outcome = "" if not finished or hidden else "draw" if m.winner_id is None else "win" if m.winner_id == team.pk else "loss"
        chart = None
        if records and not hidden:
            chart = running_chart([{"label": team.name, "values": [r["run_ours"] for r in records], "mine": True},
                                   {"label": opponent.name, "values": [r["run_theirs"] for r in records]}], target=target)
        out.append({
            "round": m.round.number, "table": m.table, "bye": False, "view": view,
            "opponent": opponent.name, "opponent_id": opponent.pk, "side": view.side,
            "status": m.get_status_display(), "outcome": outcome, "hidden": hidden, "finished": finished, "counted": counts(m),
            "totals": (m.total_ns, m.total_ew) if ns else (m.total_ew, m.total_ns),
            "records": [] if hidden else records, "chart": chart, "url": view.url,
            "headings": [f"{team.name} ({view.side})", f"{opponent.name} ({'EW' if ns else 'NS'})"],
        })
    if latest is not None and next_table is None:
        next_table = TableView(latest.number)  # not paired in the current round
    return out, next_table


@require_safe
@tournament_view()
def team_page(request, pk, *, tournament):
    """One team (Tai Pan): its table in the current round, every match hand by hand with running
    totals and a chart, its results round by round and the numbers behind each tie-break.

    The breakdown (results round by round, tie-breaks) holds exactly the matches the standings
    count (:mod:`scoring.standings.counting`), so every sum equals the rows it adds up; with blind
    confirmation a finished match counts only once it is confirmed, so no hidden total ever reaches
    it, and the finished matches still waiting (``uncounted``: their rounds) are named under it."""
    team = get_object_or_404(Team.objects.select_related("first_player", "second_player"), tournament=tournament, pk=pk)
    breakdown = team_standings_service.team_breakdown(tournament, team)
    matches, next_table = team_matches(request, tournament, team)
    uncounted = [m["round"] for m in matches if not m["bye"] and m["finished"] and not m["counted"]]
    context = tournament_context(request, tournament, team=team, breakdown=breakdown, matches=matches,
                                 next_table=next_table, tiebreaks=tiebreak_descriptions(tournament),
                                 uncounted=uncounted, profiles=profile_links(tournament, [team.first_player, team.second_player]))
    return render(request, "standings/team.html", context)


# --------------------------------------------------------------------------- player page


def player_tables(request, tournament: Tournament, player: Player) -> tuple[list[dict], TableView | None]:
    """Every table of ``player`` in a public round, deal by deal: ``[{"round", "table", "view",
    "status", "hidden", "labels" (seat labels), "names", "mine" (index of the player's seat),
    "seats" (``(label, name, mine)``), "totals", "records" (``{"number", "summary", "scores",
    "running", "cells"}``), "chart", "url"}]`` and
    the table of the latest public round. Three queries."""
    adapter = tournament.adapter
    labels = adapter.side_labels()
    seats = Prefetch("seats", queryset=TableSeat.objects.select_related("player").order_by("seat"))
    deals = Prefetch("deals", queryset=Deal.objects.order_by("number"))
    tables = list(Table.objects.filter(seats__player=player, round__tournament=tournament).exclude(round__status=Round.Status.DRAFT)
                  .select_related("round").prefetch_related(seats, deals).order_by("round__number", "number"))
    latest = _latest_public_round(tournament)
    out, next_table = [], None
    for t in tables:
        view = player_table(tournament, t, player.pk)
        if latest is not None and t.round_id == latest.pk:
            next_table = view
        table_seats = list(t.seats.all())
        mine = next(i for i, s in enumerate(table_seats) if s.player_id == player.pk)
        hidden = hide_totals(request, tournament, t)
        records = [{"number": r.number, "summary": r.summary, "scores": list(r.scores), "running": list(r.running),
                    "cells": r.pairs} for r in record_rows(TABLES, adapter, t.deals.all())]
        chart = None
        if records and not hidden:
            chart = running_chart([{"label": public_name(s.player, tournament), "values": [r["running"][i] for r in records], "mine": i == mine}
                                   for i, s in enumerate(table_seats)])
        out.append({
            "round": t.round.number, "table": t.number, "view": view, "status": t.get_status_display(), "hidden": hidden,
            "labels": [labels[s.seat] for s in table_seats], "names": [public_name(s.player, tournament) for s in table_seats], "mine": mine,
            "seats": [(labels[s.seat], public_name(s.player, tournament), i == mine) for i, s in enumerate(table_seats)],
            "totals": [s.total for s in table_seats], "records": [] if hidden else records, "chart": chart, "url": view.url,
        })
    if latest is not None and next_table is None:
        next_table = TableView(latest.number)
    return out, next_table


def _team_player_page(request, tournament: Tournament, player: Player):
    """A Tai Pan player's page is their team's."""
    team = Team.objects.filter(Q(first_player=player) | Q(second_player=player), tournament=tournament).first()
    if team is None:
        return redirect(tournament.get_absolute_url())
    return redirect("scoring:team_breakdown", tournament.slug, team.pk)


def _single_player_page(request, tournament: Tournament, player: Player):
    row = next((r for r in standings_for(tournament) if r.player_id == player.pk), None)
    tables, next_table = player_tables(request, tournament, player)
    breakdown = player_breakdown(tournament, player.pk)
    if breakdown is not None:
        labels = tournament.adapter.side_labels()
        for r in breakdown["rounds"]:
            r["seat_label"] = labels[r["seat"]]
    context = tournament_context(request, tournament, player=player, row=row, tables=tables, next_table=next_table,
                                 breakdown=breakdown, placement=stored_placement(tournament.placement),
                                 profiles=profile_links(tournament, [player]))
    return render(request, "players/player.html", context)


PLAYER_PAGES = {EntrantKind.TEAMS: _team_player_page, EntrantKind.PLAYERS: _single_player_page}


@require_safe
@tournament_view()
def player_page(request, pk, *, tournament):
    """One player: in a four-player game their rank and total, their table in the current round
    and every table deal by deal with running totals and a chart; a Tai Pan player's page is
    their team's."""
    player = get_object_or_404(Player, tournament=tournament, pk=pk)
    return PLAYER_PAGES[tournament.adapter.entrants](request, tournament, player)
