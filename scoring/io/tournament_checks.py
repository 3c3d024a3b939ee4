"""The checks of a tournament file that need more than one field (issue 4 item 6, issue 12 item 3;
the list of rules is docs/tournament-json.md, "2. The rules"): :func:`check`, called by
:func:`scoring.io.tournament_json.load_tournament` after the file has been read against the declared
schema (:mod:`scoring.io.schema`), before anything is saved.

Every problem is reported as ``(JSON path, message)`` and all of them are listed together (in the
order of the file; a problem found twice is listed once); nothing here touches the database. Also
here: :class:`FileKind` (what differs in the file between teams and players) and :class:`Plan`
(what the import creates from a file that passes).
"""
from __future__ import annotations

from dataclasses import dataclass
from types import SimpleNamespace
from typing import Any

from scoring.games import registry
from scoring.games.base import TARGET, EntrantKind, GameAdapter, RuleViolation
from scoring.games.entry import more_message, violation_message
from scoring.io.schema import TournamentFile
from scoring.participants.entrants import clean_number, name_key
from scoring.standings.placement import PlacementError
from scoring.standings.placement import parse as parse_placement
from scoring.standings.player_tiebreaks import REGISTRY as PLAYER_REGISTRY
from scoring.standings.player_tiebreaks import USES_PLACEMENT
from scoring.standings.tiebreaks import REGISTRY

#: The tie-break keys a file may list, per kind of entrant (a four-player file of before issue 24
#: may hold the Tai Pan keys the form used to store; the standings ignore them).
KNOWN_TIEBREAKS = {EntrantKind.TEAMS: dict(REGISTRY), EntrantKind.PLAYERS: {**PLAYER_REGISTRY, **REGISTRY}}

__all__ = ["FILE_KINDS", "PLAYERS_FILE", "TEAMS_FILE", "FileKind", "Plan", "check"]


@dataclass(frozen=True)
class FileKind:
    """What differs in the file between the two kinds of entrants: the names of the lists, the
    sides of a result (with where they stand in the file), a bye, and how entrants and results are
    created."""

    entrants: str
    other_entrants: str
    containers: str
    other_containers: str
    records: str
    noun: str

    def sides(self, c) -> list[tuple[str, str]]:
        """``[(field, name)]`` of a match or table (a bye's missing side left out)."""
        if self.entrants == "teams":
            return [(where, name) for where, name in (("ns", c.ns), ("ew", c.ew)) if name is not None]
        return [(f"seats[{k}]", name) for k, name in enumerate(c.seats)]

    def records_of(self, c) -> list[dict[str, Any]]:
        return getattr(c, self.records)


TEAMS_FILE = FileKind("teams", "players", "matches", "tables", "hands", "team")
PLAYERS_FILE = FileKind("players", "teams", "tables", "matches", "deals", "player")
FILE_KINDS = {EntrantKind.TEAMS: TEAMS_FILE, EntrantKind.PLAYERS: PLAYERS_FILE}


@dataclass
class _Result:
    """One match or table of the file, as checked: where it is, its entrants and records, and what
    its records give."""

    path: str
    round_index: int
    data: Any
    records: list[dict[str, Any]]
    bye: bool
    finished: bool | None


@dataclass
class Plan:
    """What :func:`check` found: the file, its adapter and the results with their evaluation."""

    file: TournamentFile
    adapter: GameAdapter
    results: list[_Result]


class _Errors(list):
    def add(self, path: str, message: str) -> None:
        self.append((path, message))


def _violations(errors: _Errors, exc: RuleViolation, base: str, list_name: str) -> None:
    for v in exc.violations:
        where = v.field or ""
        for prefix in ("hands", "records", "deals"):
            if where.startswith(prefix + "["):
                where = list_name + where[len(prefix):]
                break
        else:
            where = f"{list_name}.{where}" if where else list_name
        errors.add(f"{base}.{where}", str(violation_message(v)))
    if exc.more:  # the engine kept the first 50 violations and counted the rest
        errors.add(f"{base}.{list_name}", more_message(exc.more))


def check(data: TournamentFile) -> tuple[Plan | None, list[tuple[str, str]]]:
    """Every rule of a tournament file that needs more than one field; ``(plan, [])`` when the file
    can be imported, else ``(None, [(JSON path, message), ...])``. Raises nothing for a bad file
    (an engine's exception on a record is reported as a problem of that record)."""
    try:
        adapter = registry.get(data.game)
    except registry.UnknownGame:
        known = ", ".join(a.key for a in registry.all_games())
        return None, [("$.game", f"unknown game {data.game!r}; known: {known}")]
    run = _FileCheck(data, adapter)
    run.settings()
    run.entrant_list()
    for r_i, rnd in enumerate(data.rounds):
        run.round(r_i, rnd)
    run.statuses()
    if run.errors:
        return None, list(dict.fromkeys(run.errors))
    return Plan(data, adapter, run.results), []


class _FileCheck:
    """One run of :func:`check` over a file whose game is known (``adapter``). Its steps are called
    in the order of the file and add to ``errors`` (``[(JSON path, message)]``) and ``results`` (one
    :class:`_Result` per match or table); none of them raises."""

    def __init__(self, data: TournamentFile, adapter: GameAdapter):
        self.data, self.adapter = data, adapter
        self.kind = FILE_KINDS[adapter.entrants]
        self.errors = _Errors()
        self.rules_ok = True  # False when the rules do not exist: then no record can be judged
        self.registered: dict[str, Any] = {}  # name_key -> the file's entry of that team or player
        self.round_numbers: dict[int, int] = {}  # round number -> its index in $.rounds
        self.last = max((r.number for r in data.rounds), default=0)
        self.evaluation_settings = SimpleNamespace(rules=data.rules, round_format=data.round_format,
                                                   hands_per_round=data.hands_per_round)
        self.results: list[_Result] = []

    def settings(self) -> None:
        """The tournament's settings: a known preset with known options (``$.rules``, from the
        adapter's ``resolve_rules``; sets ``rules_ok``), a round format the game offers with its
        count (the adapter's ``check_round_format``; a four-player file's old ``target`` is read as
        the time limit), known tie-breaks each listed once, each member listed once."""
        data, errors = self.data, self.errors
        try:
            self.adapter.resolve_rules(data.rules)
        except RuleViolation as exc:
            self.rules_ok = False
            for v in exc.violations:
                errors.add("$.rules" + (f".{v.field.removeprefix('rules').lstrip('.')}" if v.field.removeprefix("rules").lstrip(".") else ""),
                           str(violation_message(v)))
        round_format = data.round_format
        if round_format == TARGET and TARGET not in self.adapter.round_formats:
            # A file from before round formats were per game: read as the migration reads such a
            # tournament (Tournament.save gives it the game's fallback, the time limit).
            round_format = self.adapter.fallback_round_format()
        try:
            self.adapter.check_round_format(round_format, data.hands_per_round)
        except RuleViolation as exc:
            for v in exc.violations:
                errors.add(f"$.{v.field}", str(violation_message(v)))
        known = KNOWN_TIEBREAKS[self.adapter.entrants]
        seen_tb = set()
        for i, key in enumerate(data.tiebreaks):
            if key not in known:
                errors.add(f"$.tiebreaks[{i}]", f"unknown tie-break {key!r}; known: {', '.join(known)}")
            elif key in seen_tb:
                errors.add(f"$.tiebreaks[{i}]", f"tie-break {key!r} is listed twice")
            seen_tb.add(key)
        self.placement(data)
        usernames = set()
        for i, m in enumerate(data.members):
            if m.username.casefold() in usernames:
                errors.add(f"$.members[{i}].username", f"{m.username!r} is listed twice")
            usernames.add(m.username.casefold())

    def placement(self, data: TournamentFile) -> None:
        """``$.placement``: a valid setting (:func:`scoring.standings.placement.parse`), and only
        for a four-player game."""
        if not data.placement:
            return
        uses = USES_PLACEMENT[self.adapter.entrants]
        if not uses:
            self.errors.add("$.placement", "placement points are only for four-player games")
            return
        try:
            parse_placement(data.placement)
        except PlacementError as exc:
            for field, message in exc.problems:
                self.errors.add(f"$.placement.{field}" if field != "placement" else "$.placement", message)

    def entrant_list(self) -> None:
        """The entrants (fills ``registered``): the list the game has (``teams`` or ``players``, not
        the other), unique names (:func:`name_key`), two different players in a team, no
        withdrawal before the round joined."""
        data, errors, kind = self.data, self.errors, self.kind
        entrant_list, wrong_list = kind.entrants, kind.other_entrants
        if getattr(data, wrong_list):
            errors.add(f"$.{wrong_list}", f"a {data.game} tournament has {entrant_list}, not {wrong_list}")
        for i, e in enumerate(getattr(data, entrant_list) or []):
            key = name_key(e.name)
            if key in self.registered:
                errors.add(f"$.{entrant_list}[{i}].name", f"{e.name!r} is listed twice (names are compared ignoring case)")
            self.registered[key] = e
            if len(getattr(e, "players", ())) == 2 and name_key(e.players[0]) == name_key(e.players[1]):
                errors.add(f"$.teams[{i}].players[1]", "the two players of a team must be different people")
            if e.withdrawn_after_round and e.withdrawn_after_round < e.joined_round:
                errors.add(f"$.{entrant_list}[{i}].withdrawn_after_round", "withdrawn before the round it joins")
        self.federation_numbers(getattr(data, entrant_list) or [])

    def federation_numbers(self, entries) -> None:
        """A federation number at most once in the tournament (issue 26: it is one person)."""
        seen: set[str] = set()
        for i, e in enumerate(entries):
            numbers = getattr(e, "federation_numbers", None) or [getattr(e, "federation_number", "")]
            where = "federation_numbers[{k}]" if hasattr(e, "federation_numbers") else "federation_number"
            for k, number in enumerate(numbers):
                number = clean_number(number)
                if number and number in seen:
                    self.errors.add(f"$.{self.kind.entrants}[{i}].{where.format(k=k)}",
                                    f"the federation number {number!r} is used twice in the tournament")
                seen.add(number)

    def round(self, r_i: int, rnd) -> None:
        """Round ``$.rounds[r_i]``: a unique number, the list of results the game has (``matches``
        or ``tables``), a draft only as the last round, unique table numbers, then each result
        (:meth:`sides`, :meth:`records`, :meth:`confirmation`), added to ``results``."""
        errors, kind = self.errors, self.kind
        rpath = f"$.rounds[{r_i}]"
        if rnd.number in self.round_numbers:
            errors.add(f"{rpath}.number", f"round {rnd.number} appears twice (also $.rounds[{self.round_numbers[rnd.number]}])")
        self.round_numbers[rnd.number] = r_i
        if getattr(rnd, kind.other_containers) is not None:
            errors.add(f"{rpath}.{kind.other_containers}",
                       f"a {self.data.game} round has {kind.containers}, not {kind.other_containers}")
        if rnd.status == "draft" and rnd.number != self.last:
            errors.add(f"{rpath}.status", "only the last round can be a draft")
        tables_seen: set[int] = set()
        playing: dict[str, str] = {}  # name_key -> where it plays in this round
        for c_i, c in enumerate(getattr(rnd, kind.containers) or []):
            cpath = f"{rpath}.{kind.containers}[{c_i}]"
            if c.table in tables_seen:
                errors.add(f"{cpath}.table", f"table {c.table} appears twice in round {rnd.number}")
            tables_seen.add(c.table)
            sides = self.sides(c, cpath, rnd.number, playing)
            bye = len(sides) == 1 and getattr(c, "ew", "") is None
            records, finished = self.records(c, cpath, bye)
            self.confirmation(c, cpath, rpath, rnd, sides, records, bye, finished)
            self.results.append(_Result(cpath, r_i, c, records, bye, finished))

    def sides(self, c, cpath: str, number: int, playing: dict[str, str]) -> list[tuple[str, str]]:
        """The sides of result ``c`` (``[(field, name)]``, :meth:`FileKind.sides`; the second side
        left out when a team plays itself): each a registered entrant, playing once in round
        ``number`` (``playing`` collects where), present in it (joined, not withdrawn)."""
        errors = self.errors
        sides = self.kind.sides(c)
        if len(sides) == 2 and name_key(sides[0][1]) == name_key(sides[1][1]):
            errors.add(f"{cpath}.{sides[1][0]}", f"{sides[0][1]!r} cannot play itself")
            sides = sides[:1]
        for where, name in sides:
            key = name_key(name)
            entrant = self.registered.get(key)
            if entrant is None:
                errors.add(f"{cpath}.{where}", f"unknown {self.kind.noun} {name!r}")
                continue
            if key in playing:
                errors.add(f"{cpath}.{where}", f"{name!r} plays twice in round {number} (also at {playing[key]})")
            playing.setdefault(key, f"{cpath}.{where}")
            if number < entrant.joined_round or (entrant.withdrawn_after_round is not None
                                                 and number > entrant.withdrawn_after_round):
                errors.add(f"{cpath}.{where}", f"{name!r} does not play in round {number} "
                                               f"(joined in round {entrant.joined_round}, withdrawn after "
                                               f"{entrant.withdrawn_after_round if entrant.withdrawn_after_round is not None else '-'})")
        return sides

    def records(self, c, cpath: str, bye: bool) -> tuple[list[dict[str, Any]], bool | None]:
        """``(records, finished)`` of result ``c``: a bye has no records, no ``ended`` and no
        confirmation (finished: ``True``); otherwise each record is cleaned and the whole evaluated
        by the game's adapter (its violations reported at the record's path, any other exception
        as an unreadable record: then ``([], None)``) and ``ended`` must agree with the evaluation.
        Under rules that do not exist the records are not judged: ``(the file's records, None)``."""
        errors = self.errors
        records = self.kind.records_of(c)
        list_name = self.kind.records
        if bye:
            if records:
                errors.add(f"{cpath}.{list_name}", f"a bye has no {list_name}")
            if c.ended is not None:
                errors.add(f"{cpath}.ended", "a bye is not ended")
            if c.confirmed_by is not None or c.confirmed_via is not None:
                errors.add(f"{cpath}.confirmed_by", "a bye needs no confirmation")
            return records, True
        if getattr(c, "forfeit", None):  # a no-show decided as a forfeit: finished without records
            if records:
                errors.add(f"{cpath}.{list_name}", f"a forfeited match has no {list_name}")
            if c.ended is not None:
                errors.add(f"{cpath}.ended", "a forfeited match is not ended")
            return records, True
        if not self.rules_ok:
            return records, None  # the records cannot be judged under rules that do not exist
        adapter = self.adapter
        try:
            cleaned = [adapter.clean_record(rec) for rec in records]
            evaluation = adapter.evaluate(cleaned, self.evaluation_settings, ended_at_time=c.ended == "time")
        except RuleViolation as exc:
            _violations(errors, exc, cpath, list_name)
            return [], None  # unknown when the records break the rules (reported above)
        except Exception as exc:  # noqa: BLE001 - an engine must never turn a bad record into a traceback
            errors.add(f"{cpath}.{list_name}", f"a record cannot be read ({type(exc).__name__})")
            return [], None
        if (c.ended or "") != evaluation.ended:
            given = {"target": "finished by the rules", "time": "ended at the time limit", "": "not finished"}
            errors.add(f"{cpath}.ended", f"ended is {c.ended!r} but by its {list_name} the result is "
                                         f"{given[evaluation.ended]}")
        return cleaned, evaluation.finished

    def confirmation(self, c, cpath: str, rpath: str, rnd, sides, records, bye: bool, finished: bool | None) -> None:
        """Result ``c``'s confirmation and round status: confirmed by a user or through a side's
        link (a side of this result), not both; only a finished result confirmed; every result of
        a closed round confirmed (a bye aside); none in a draft round; none in a published one."""
        errors = self.errors
        confirmed = c.confirmed_by is not None or c.confirmed_via is not None
        if c.confirmed_by is not None and c.confirmed_via is not None:
            errors.add(f"{cpath}.confirmed_via", "a result is confirmed by a user or through a side's link, not both")
        if c.confirmed_via is not None and name_key(c.confirmed_via) not in {name_key(name) for _w, name in sides}:
            errors.add(f"{cpath}.confirmed_via", f"{c.confirmed_via!r} does not play at this table")
        if confirmed and not bye and finished is False:
            errors.add(f"{cpath}.confirmed_by", "only a finished result can be confirmed")
        if rnd.status == "closed" and not bye and not confirmed:
            errors.add(f"{cpath}.confirmed_by", f"round {rnd.number} is closed, so this result must be confirmed")
        if rnd.status == "draft" and (records or c.ended or confirmed):
            errors.add(cpath, "a draft round has no results yet")
        if rnd.status == "published" and records:
            errors.add(f"{rpath}.status", f"round {rnd.number} has results, so it is in progress (not published)")

    def statuses(self) -> None:
        """The tournament's status against its rounds': in registration no round is published;
        running or finished, at least one is; finished, every round is closed."""
        data, errors = self.data, self.errors
        statuses = [r.status for r in data.rounds]
        if data.status == "setup" and any(s != "draft" for s in statuses):
            errors.add("$.status", "a tournament in registration has no published rounds")
        if data.status in ("running", "finished") and not any(s != "draft" for s in statuses):
            errors.add("$.status", f"a {data.status} tournament has a published round")
        if data.status == "finished" and any(s != "closed" for s in statuses):
            errors.add("$.status", "a finished tournament has every round closed")
