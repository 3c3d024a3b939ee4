"""Pairing rounds of a Tai Pan tournament: the thin ORM layer over :mod:`scoring.draw.pairing_core`
(docs/tournaments.md Pairing, issue 4 items 1-2).

- :func:`pair_next_round` pairs the next round as a DRAFT (matches with table numbers by rank and
  a ``pairing_note`` saying why), once the previous round is closed (every match confirmed).
- :func:`set_draft_pairing` replaces a draft's tables with a hand-made pairing and returns
  warnings (rematch, double booking, missing team, second bye, absent team).
- :func:`draft_problems` lists a draft's warnings with their codes; publishing refuses a draft
  with a :data:`BLOCKING_CODES` problem and needs an explicit "publish anyway" for
  :data:`CONFIRMABLE_CODES` (:func:`scoring.draw.rounds.publish_round`).

Ranking for the Swiss pairing is the standings order (:func:`scoring.standings.team_standings`).
"""
from __future__ import annotations

from django.conf import settings
from django.db import transaction
from django.utils import translation
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from scoring import policy
from scoring.draw.lifecycle import next_round_number, require_earlier_closed, require_entrants
from scoring.draw.pairing_core import METHODS, Entrant, NoPairing, Reason, Table, check_pairing, pair_round
from scoring.errors import NotAllowed, PairingImpossible
from scoring.games.base import EntrantKind
from scoring.live import state as live_state
from scoring.locking import lock
from scoring.models import Match, Round, Team, Tournament
from scoring.models.results import reason_text
from scoring.participants import checkins
from scoring.policy import Perm
from scoring.results.sheet import recompute
from scoring.standings import team_standings

NOTE_LENGTH = 200


def entrants_for(tournament: Tournament, *, before_round: int | None = None) -> list[Entrant]:
    """Every team of the tournament as a pairing :class:`Entrant`, in standings order (best
    first), with its opponents and bye from the rounds before ``before_round`` (default: all). A
    team absent in round ``before_round`` (:func:`scoring.participants.checkins.absences`:
    withdrawn for that round, or not checked in when check-in is required) is not present in it.
    The standings come from the cache (:func:`scoring.standings.team_standings`, whose key
    ignores draft rounds), so pairing a round, showing its draft and publishing it rank the teams
    once. Queries: a fixed number (the state key, on a miss the standings, the teams, the
    meetings)."""
    rows = team_standings(tournament, through_round=(before_round - 1) if before_round else None)
    teams = {t.pk: t for t in Team.objects.filter(tournament=tournament)}
    meetings = Match.objects.filter(round__tournament=tournament)
    if before_round is not None:
        meetings = meetings.filter(round__number__lt=before_round)
    opponents: dict[int, set] = {pk: set() for pk in teams}
    byes: set[int] = set()
    for ns, ew in meetings.values_list("team_ns_id", "team_ew_id"):
        if ew is None:
            byes.add(ns)
        else:
            opponents[ns].add(ew)
            opponents[ew].add(ns)
    # Absent in the round drawn (withdrawn for it, or not checked in: scoring.participants.checkins):
    # present_in(before_round) is False for them, so they are neither paired nor expected.
    absent = checkins.absences(tournament, before_round) if before_round is not None else {}
    out = []
    for row in rows:
        team = teams[row.team_id]
        withdrawn = before_round - 1 if team.pk in absent else team.withdrawn_after_round
        out.append(Entrant(
            id=team.pk, name=team.name, points=row.match_points, opponents=frozenset(opponents[team.pk]),
            had_bye=team.pk in byes, seed=team.seed, joined_round=team.joined_round,
            withdrawn_after_round=withdrawn, club=team.affiliation, rating=team.rating,
        ))
    return out


#: The note of a round-1 table per method (:mod:`scoring.draw.pairing_seeding`).
FIRST_ROUND_NOTES = {
    "seeded": gettext_noop("Round 1: by seed numbers"),
    "rating": gettext_noop("Round 1: by rating (1 v n/2+1)"),
    "fold": gettext_noop("Round 1: by seed numbers, fold (1 v n)"),
    "fold_rating": gettext_noop("Round 1: by rating, fold (1 v n)"),
}


def _note(table: Table, names: dict, round_number: int, method: str, seed: int, clubs: dict | None = None) -> dict:
    """Why ``table`` was paired: ``{"template", "params"}`` with an untranslated message (marked
    with ``gettext_noop``), translated when shown (:meth:`Match.pairing_reason_text`); ``"extra"``:
    more such messages for club avoidance and late entries (issue 23)."""
    note = _main_note(table, names, round_number, method, seed)
    extra = []
    if table.club_swap:
        extra.append({"template": gettext_noop("Opponents swapped with another table of the same score groups, so that "
                                               "two teams of one club do not meet."), "params": {}})
    if table.club_clash:
        extra.append({"template": gettext_noop("Both teams are of {club}: no swap avoids it without a rematch or "
                                               "another float."), "params": {"club": (clubs or {}).get(table.ns, "")}})
    for team in table.late:
        extra.append({"template": gettext_noop("{team} joined late: ranked below the teams with the same match points "
                                               "that played every round."), "params": {"team": names.get(team, "?")}})
    if extra:
        note["extra"] = extra
    return note


def _main_note(table: Table, names: dict, round_number: int, method: str, seed: int) -> dict:
    if table.reason == Reason.BYE:
        if round_number == 1:
            return {"template": gettext_noop("Bye (odd number of teams)"), "params": {}}
        return {"template": gettext_noop("Bye: lowest-ranked team without a bye so far ({points} match points)"),
                "params": {"points": table.ns_points}}
    if round_number == 1 and table.ns_points == 0 and table.ew_points == 0 and method:
        if method in FIRST_ROUND_NOTES:
            return {"template": FIRST_ROUND_NOTES[method], "params": {}}
        return {"template": gettext_noop("Round 1: random draw (seed {seed})"), "params": {"seed": seed}}
    if table.reason == Reason.SAME_GROUP:
        return {"template": gettext_noop("Same score group ({points} match points)"), "params": {"points": table.ns_points}}
    return {"template": gettext_noop("{team} floated down from {high} to {low} match points"),
            "params": {"team": names.get(table.ns, "?"), "high": table.ns_points, "low": table.ew_points}}


def _note_text(reason: dict) -> str:
    """The reason in the site's default language, for ``Match.pairing_note`` (exports, commands)."""
    with translation.override(settings.LANGUAGE_CODE):
        return reason_text(reason)[:NOTE_LENGTH]


def first_round_method(tournament: Tournament, entrants: list[Entrant], number: int) -> str:
    """The tournament's round-1 method (``Tournament.first_round_method``); when it is empty
    (automatic): ``seeded`` when every present team has a seed number, else ``random``."""
    if tournament.first_round_method:
        return tournament.first_round_method
    present = [e for e in entrants if e.present_in(number)]
    return "seeded" if present and all(e.seed is not None for e in present) else "random"


def _draw(tournament: Tournament, number: int, *, seed: int, method: str | None) -> tuple[list[tuple], str]:
    """Pair round ``number`` (inside the tournament's lock): ``([(ns, ew, reason)], method)``.
    ``method=None``: the tournament's default (:func:`first_round_method`); an unknown method is
    :class:`NotAllowed`. Same-club tables are avoided when ``tournament.avoid_same_club``."""
    entrants = entrants_for(tournament, before_round=number)
    if method is None:
        method = first_round_method(tournament, entrants, number)
    if method not in METHODS:
        raise NotAllowed(_("Unknown round 1 pairing method: {method}.").format(method=method), field="method")
    try:
        tables = pair_round(entrants, number, seed=seed, method=method, avoid_clubs=tournament.avoid_same_club)
    except NoPairing as err:
        if err.no_bye_left:
            msg = _("No pairing is possible: every team has already had a bye ({teams}).")
        else:
            msg = _("No pairing without a rematch exists. These teams block it: {teams}.")
        raise PairingImpossible(msg.format(teams=", ".join(err.names)), blocking=err.names) from None
    if not tables:
        raise NotAllowed(_("There are no teams to pair in round {number}.").format(number=number))
    names = {e.id: e.name for e in entrants}
    clubs = {e.id: e.club for e in entrants}
    return [(t.ns, t.ew, _note(t, names, number, method, seed, clubs)) for t in tables], method


def pair_next_round(tournament: Tournament, actor, *, seed: int | None = None, method: str | None = None) -> Round:
    """Pair the next round of ``tournament`` as a DRAFT and return it.

    Allowed only when the previous round is closed (a round whose every match is confirmed is
    closed here on the way); otherwise :class:`NotAllowed`. Round 1: random by ``seed`` (default
    ``tournament.seed``), or by seed numbers when ``method="seeded"`` (default when every team
    has a seed number; the organiser's pair page always asks). Later rounds: Swiss
    (:func:`scoring.draw.pairing_core.pair_round`). No pairing without a rematch:
    :class:`PairingImpossible` with ``blocking`` (team names). Tables by rank; each match gets a
    ``pairing_note``; a bye is saved finished (a win, 0:0)."""
    require_entrants(tournament, EntrantKind.TEAMS, _("Swiss pairing of teams is only for team games; seat four-player games instead."))
    with transaction.atomic():
        lock(Tournament, tournament.pk)
        policy.require(actor, Perm.MANAGE, tournament)
        number = next_round_number(tournament)
        require_earlier_closed(tournament, number)
        if seed is None:
            seed = tournament.seed + number - 1
        rows, _method = _draw(tournament, number, seed=seed, method=method)
        rnd = Round.objects.create(tournament=tournament, number=number, status=Round.Status.DRAFT, seed=seed)
        _save_tables(rnd, rows)
    return rnd


def repair_draft(rnd: Round, actor, *, method: str | None = None, seed: int | None = None) -> Round:
    """Pair the DRAFT round ``rnd`` again ("pair again"): its tables are replaced by a new pairing
    of the teams present now (a late entry or a withdrawal since the draft counts), with ``method``
    (round 1: ``"random"`` or ``"seeded"``) and ``seed`` (default: the round's own seed, so the
    same teams give the same draw; a new seed gives another random draw). Only the latest round
    and only while it is a draft (:class:`NotAllowed`); organisers only. Returns the round."""
    require_entrants(rnd.tournament, EntrantKind.TEAMS, _("Swiss pairing of teams is only for team games; seat four-player games instead."))
    with transaction.atomic():
        tournament = lock(Tournament, rnd.tournament_id)
        policy.require(actor, Perm.MANAGE, tournament)
        locked = lock(Round.objects.select_related("tournament"), rnd.pk)
        if locked.status != Round.Status.DRAFT:
            raise NotAllowed(_("Only a draft round can be paired again; round {number} is {status}.").format(
                number=locked.number, status=locked.get_status_display()))
        if next_round_number(tournament) != locked.number + 1:
            raise NotAllowed(_("Only the latest round can be paired again."))
        if seed is None:
            seed = locked.seed if locked.seed is not None else tournament.seed + locked.number - 1
        rows, _method = _draw(tournament, locked.number, seed=seed, method=method)
        locked.matches.all().delete()
        if locked.seed != seed:
            locked.seed = seed
            locked.save(update_fields=["seed"])
        _save_tables(locked, rows)
    rnd.refresh_from_db()
    return rnd


def _save_tables(rnd: Round, rows: list[tuple]) -> None:
    matches = Match.objects.bulk_create([
        Match(round=rnd, table=i, team_ns_id=ns, team_ew_id=ew, pairing_note=_note_text(reason), pairing_reason=reason)
        for i, (ns, ew, reason) in enumerate(rows, start=1)
    ])
    live_state.bump(rnd.tournament_id, live_state.round_topic(rnd.number))  # bulk: no signal per match
    for match in matches:
        if match.team_ew_id is None:
            match.round = rnd
            recompute(match)  # a bye: finished at once, a win with 0:0


WARNING_TEXTS = {
    "rematch": _("Rematch: {teams} have already played each other."),
    "double_booking": _("Double booking: {teams} is at more than one table."),
    "missing": _("Missing: {teams} is not paired."),
    "second_bye": _("Second bye: {teams} has already had a bye."),
    "not_present": _("{teams} is not present in this round (withdrawn, not checked in or not joined yet)."),
    "unknown": _("Unknown team: {teams}."),
}


#: Problems that make a draft unpublishable (:func:`scoring.draw.rounds.publish_round`).
BLOCKING_CODES = frozenset({"double_booking", "missing", "not_present", "unknown"})
#: Problems a draft may be published with only when the organiser explicitly accepts them
#: (issue 4: rematches are forbidden, a bye at most once per team).
CONFIRMABLE_CODES = frozenset({"rematch", "second_bye"})


def warning_text(code: str, teams: tuple, names: dict) -> str:
    """The translated warning ``code`` about ``teams`` (ids; shown by name from ``names``)."""
    shown = " - ".join(names.get(t, str(t)) for t in teams)
    template = WARNING_TEXTS.get(code)
    return str(template).format(teams=shown) if template else f"{code}: {shown}"


def draft_problems(rnd: Round) -> list[tuple[str, str]]:
    """The warnings of a round's current tables as ``[(code, translated text)]``, from
    :func:`scoring.draw.pairing_core.check_pairing` (codes: ``rematch``, ``double_booking``,
    ``missing``, ``second_bye``, ``not_present``, ``unknown``; see :data:`BLOCKING_CODES` and
    :data:`CONFIRMABLE_CODES`). Duplicates are listed once. Queries: a fixed number."""
    entrants = entrants_for(rnd.tournament, before_round=rnd.number)
    names = {e.id: e.name for e in entrants}
    pairs = list(rnd.matches.order_by("table").values_list("team_ns_id", "team_ew_id"))
    out: list[tuple[str, str]] = []
    for w in check_pairing(entrants, pairs, rnd.number):
        item = (w.code, warning_text(w.code, w.teams, names))
        if item not in out:
            out.append(item)
    return out


def draft_warnings(rnd: Round) -> list[str]:
    """The translated warnings of a draft round's current tables (:func:`draft_problems`)."""
    return [text for _code, text in draft_problems(rnd)]


def set_draft_pairing(rnd: Round, pairs: list[tuple], actor) -> list[str]:
    """Replace the tables of a DRAFT round with ``pairs`` (``[(team_ns_id, team_ew_id|None)]``,
    table numbers in the given order; ``(None, x)`` is read as a bye for ``x``) and return
    translated warnings: rematch, double booking, missing team, second bye, absent team. The
    pairing is saved even with warnings (the organiser decides); ids of teams of another
    tournament raise :class:`NotAllowed` and nothing changes. Non-draft rounds: :class:`NotAllowed`."""
    with transaction.atomic():
        locked = lock(Round.objects.select_related("tournament"), rnd.pk)
        policy.require(actor, Perm.MANAGE, locked.tournament)
        if locked.status != Round.Status.DRAFT:
            raise NotAllowed(_("Only a draft round can be edited; round {number} is {status}.").format(
                number=locked.number, status=locked.get_status_display()))
        normal = []
        for ns, ew in pairs:
            ns = int(ns) if ns not in (None, "") else None
            ew = int(ew) if ew not in (None, "") else None
            if ns is None and ew is None:
                continue
            if ns is None:
                ns, ew = ew, None
            normal.append((ns, ew))
        entrants = entrants_for(locked.tournament, before_round=locked.number)
        known = {e.id for e in entrants}
        unknown = sorted({t for p in normal for t in p if t is not None and t not in known})
        if unknown:
            raise NotAllowed(_("These teams are not in this tournament: {ids}.").format(ids=", ".join(map(str, unknown))))
        names = {e.id: e.name for e in entrants}
        warnings = check_pairing(entrants, normal, locked.number)
        drawn = drawn_reasons(list(locked.matches.order_by("table")))
        by_pair = {frozenset((ns, ew)): reason for ns, ew, reason in drawn}
        rows = [(ns, ew, dict(by_pair.get(frozenset((ns, ew)), EDITED))) for ns, ew in normal]
        if rows:  # the drawn reasons travel with the draft, so a reverted edit finds them again
            rows[0][2]["drawn"] = drawn
        locked.matches.all().delete()
        _save_tables(locked, rows)
    return [warning_text(w.code, w.teams, names) for w in warnings]


#: The reason of a table the organiser changed by hand.
EDITED = {"template": gettext_noop("Edited by hand"), "params": {}}


def drawn_reasons(matches: list[Match]) -> list[list]:
    """The tables of the draw a draft came from, as ``[[team_ns_id, team_ew_id, reason]]``: kept
    in the first table's ``pairing_reason["drawn"]`` after a hand edit, otherwise the current
    tables with their reasons (tables edited by hand left out). A table of the same two teams
    keeps its drawn reason however often the draft is edited."""
    for m in matches:
        kept = (m.pairing_reason or {}).get("drawn")
        if kept:
            return kept
    return [[m.team_ns_id, m.team_ew_id, {"template": m.pairing_reason["template"], "params": m.pairing_reason.get("params") or {},
                                          **({"extra": m.pairing_reason["extra"]} if m.pairing_reason.get("extra") else {})}]
            for m in matches if (m.pairing_reason or {}).get("template") not in (None, EDITED["template"])]
