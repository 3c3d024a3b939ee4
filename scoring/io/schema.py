"""The declared schema of the tournament JSON (issue 12 item 3), as pydantic v2 models: every field
typed and bounded, unknown fields refused, strict types (``"1"`` is no number, ``1`` is no
boolean). :func:`parse` reads a file's text and returns the :class:`TournamentFile` or the list of
``(JSON path, message)`` errors; the rules that need more than one field (unique names, who plays
whom, statuses, records checked by the game's adapter) are checked afterwards by
:mod:`scoring.io.tournament_json`.

Layout (``format`` 1; :func:`scoring.io.tournament_json.export_tournament` writes it):

- the tournament: ``name``, ``slug``, ``game`` (a key of the games registry), ``rules``,
  ``round_format``, ``hands_per_round``, ``tiebreaks``, ``seed``, ``first_round_method`` (left out
  when automatic), ``avoid_same_club`` (left out when on), ``blind_confirmation``,
  ``player_entry`` (left out when off), ``verification`` (``"end"`` or ``"each"``, left out when ``"end"``), ``entry_mode`` (``"quick"`` or ``"full"``, left out when ``"quick"``),
  ``checkin_required`` (left out when off), ``forfeit_score`` and ``forfeit_points`` (left out when empty),
  ``status``, ``venue``, ``starts_on``, ``round_minutes`` and ``clock_warning_minutes`` (the round clock,
  left out at their defaults 90 and 10), ``members`` (``[{"username", "role"}]``);
- Tai Pan: ``teams`` (``[{"name", "players": [two names], "affiliation", "seed", "joined_round",
  "withdrawn_after_round", "rating" (left out when none)}]``) and per round ``matches`` (``[{"table", "ns", "ew" (null: a bye),
  "hands": [records], "ended", "pairing_note", "confirmed_by"}]``);
- four-player games: ``players`` (``[{"name", "affiliation", "seed", "joined_round",
  "withdrawn_after_round", "substitute", "rating" (left out when none)}]``) and per round ``tables`` (``[{"table", "seats": [four
  names, East/seat 0 first], "deals": [records], "ended", "seating_note", "confirmed_by"}]``).
- A result confirmed by one of its sides through its private link (issue 15) has
  ``"confirmed_via"``: that side's name (and ``confirmed_by`` null); the key is left out
  otherwise. Private links themselves are never exported (a new server makes new ones).
"""
from __future__ import annotations

import codecs
import datetime
import json
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, JsonValue, StrictBool, StrictInt, ValidationError

from scoring.participants.entrants import MAX_ROUND, MAX_SEED, MAX_TEXT, refused_character

FORMAT_VERSION = 1

#: Bounds of the lists (far above any real tournament; a file beyond them is refused, not read).
MAX_ENTRANTS = 5000
MAX_ROUNDS = 99
MAX_TABLES = 2500
MAX_RECORDS = 500
#: Longest string anywhere in the file, records included (the names have their own, lower bounds).
MAX_STRING = 10_000
#: Largest record (a hand or a deal) as JSON text, and its deepest nesting; a real record is a few
#: hundred characters, a Sichuan deal with every hand at wall exhaustion a few thousand.
MAX_RECORD_CHARS = 20_000
MAX_RECORD_DEPTH = 8
#: Signed 32-bit integers (the database's integer columns).
INT_MIN, INT_MAX = -(2**31), 2**31 - 1


def _clean_text(value: str) -> str:
    found = refused_character(value)
    if found is not None:
        raise ValueError(f"character {found[0]} is an invisible or control character (U+{ord(found[1]):04X})")
    if value != value.strip():
        raise ValueError("starts or ends with a space")
    return value


def _text(max_length: int, min_length: int = 0):
    return Annotated[str, Field(min_length=min_length, max_length=max_length), AfterValidator(_clean_text)]


Name = _text(MAX_TEXT, 1)
OptionalText = _text(MAX_TEXT)
LongName = _text(200, 1)
Note = _text(200)
Username = Annotated[str, Field(min_length=1, max_length=150, pattern=r"^[\w.@+-]+$")]
Slug = Annotated[str, Field(min_length=1, max_length=80, pattern=r"^[-a-zA-Z0-9_]+$")]
RoundNumber = Annotated[StrictInt, Field(ge=1, le=MAX_ROUND)]
TableNumber = Annotated[StrictInt, Field(ge=1, le=MAX_TABLES)]
Seed = Annotated[StrictInt, Field(ge=1, le=MAX_SEED)]
Int32 = Annotated[StrictInt, Field(ge=INT_MIN, le=INT_MAX)]
def _bounded_record(record: dict[str, JsonValue]) -> dict[str, JsonValue]:
    """A record within the bounds: no string (key or value) longer than :data:`MAX_STRING` or holding
    the NUL character (which PostgreSQL cannot store in jsonb), nested at
    most :data:`MAX_RECORD_DEPTH` deep, at most :data:`MAX_RECORD_CHARS` as JSON text. Which fields it
    may hold is the game's engine's to say (unknown fields are refused when the record is checked)."""
    stack: list[tuple[str, Any, int]] = [("", record, 1)]
    while stack:
        where, value, depth = stack.pop()
        if depth > MAX_RECORD_DEPTH:
            raise ValueError(f"{where.lstrip('.') or 'it'} is nested more than {MAX_RECORD_DEPTH} levels deep")
        if isinstance(value, dict):
            for key, item in value.items():
                if len(key) > MAX_STRING:
                    raise ValueError(f"a field name in {where.lstrip('.') or 'it'} is longer than {MAX_STRING:,} characters")
                if "\x00" in key:
                    raise ValueError(f"a field name in {where.lstrip('.') or 'it'} holds the NUL character (U+0000)")
                stack.append((f"{where}.{key}" if len(key) <= 40 else f"{where}.{key[:40]}...", item, depth + 1))
        elif isinstance(value, list):
            stack.extend((f"{where}[{i}]", item, depth + 1) for i, item in enumerate(value))
        elif isinstance(value, str):
            if len(value) > MAX_STRING:
                raise ValueError(f"{where.lstrip('.')} is longer than {MAX_STRING:,} characters")
            if "\x00" in value:
                # PostgreSQL cannot store it in text or jsonb (the import would fail half-way).
                raise ValueError(f"{where.lstrip('.')} holds the NUL character (U+0000)")
    size = len(json.dumps(record, ensure_ascii=False))
    if size > MAX_RECORD_CHARS:
        raise ValueError(f"it is {size:,} characters as JSON, more than {MAX_RECORD_CHARS:,}")
    return record


#: A hand or deal record: a JSON object within the bounds of :func:`_bounded_record`.
Record = Annotated[dict[str, JsonValue], AfterValidator(_bounded_record)]
Ended = Literal["target", "time"] | None


#: A rating (optional strength, higher is stronger; round 1 by rating).
Rating = Annotated[StrictInt, Field(ge=0, le=MAX_SEED)]


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, str_max_length=MAX_STRING)


class Member(Strict):
    username: Username
    role: Literal["organiser", "referee"]


#: A federation or student number (issue 26; empty: none).
FederationNumber = _text(40)
#: A player's own public-name setting (empty: the tournament's).
PublicName = Literal["", "full", "short"]


class TeamIn(Strict):
    name: Name
    players: Annotated[list[Name], Field(min_length=2, max_length=2)]
    federation_numbers: Annotated[list[FederationNumber], Field(min_length=2, max_length=2)] = ["", ""]
    public_names: Annotated[list[PublicName], Field(min_length=2, max_length=2)] = ["", ""]
    affiliation: OptionalText = ""
    seed: Seed | None = None
    rating: Rating | None = None
    joined_round: RoundNumber = 1
    withdrawn_after_round: Annotated[StrictInt, Field(ge=0, le=MAX_ROUND)] | None = None


class PlayerIn(Strict):
    name: Name
    federation_number: FederationNumber = ""
    public_name: PublicName = ""
    affiliation: OptionalText = ""
    seed: Seed | None = None
    rating: Rating | None = None
    joined_round: RoundNumber = 1
    withdrawn_after_round: Annotated[StrictInt, Field(ge=0, le=MAX_ROUND)] | None = None
    substitute: StrictBool = False


class MatchIn(Strict):
    table: TableNumber
    ns: Name
    ew: Name | None
    hands: Annotated[list[Record], Field(max_length=MAX_RECORDS)] = []
    ended: Ended = None
    pairing_note: Note = ""
    forfeit: Literal["NS", "EW"] | None = None
    confirmed_by: Username | None = None
    confirmed_via: Name | None = None


class TableIn(Strict):
    table: TableNumber
    seats: Annotated[list[Name], Field(min_length=4, max_length=4)]
    deals: Annotated[list[Record], Field(max_length=MAX_RECORDS)] = []
    ended: Ended = None
    seating_note: Note = ""
    confirmed_by: Username | None = None
    confirmed_via: Name | None = None


class RoundIn(Strict):
    number: RoundNumber
    status: Literal["draft", "published", "in_progress", "closed"] = "closed"
    seed: Int32 = 0
    matches: Annotated[list[MatchIn], Field(max_length=MAX_TABLES)] | None = None
    tables: Annotated[list[TableIn], Field(max_length=MAX_TABLES)] | None = None


class TournamentFile(Strict):
    format: Literal[1] = FORMAT_VERSION
    name: LongName
    slug: Slug
    game: Annotated[str, Field(min_length=1, max_length=20)] = "taipan"
    rules: Record | Annotated[str, Field(max_length=40)] | None = None
    round_format: Literal["target", "fixed_hands", "wind_rounds", "time_limit"] = "target"
    hands_per_round: Annotated[StrictInt, Field(ge=1, le=MAX_RECORDS)] | None = None
    tiebreaks: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=20)] = []
    placement: Record = {}
    seed: Int32 = 0
    first_round_method: Literal["", "random", "seeded", "rating", "fold", "fold_rating"] = ""
    avoid_same_club: StrictBool = True
    blind_confirmation: StrictBool = False
    player_entry: StrictBool = False
    verification: Literal["end", "each"] = "end"
    entry_mode: Literal["quick", "full"] = "quick"
    checkin_required: StrictBool = False
    forfeit_score: Annotated[StrictInt, Field(ge=0, le=100000)] | None = None
    forfeit_points: Annotated[StrictInt, Field(ge=0, le=1000)] | None = None
    status: Literal["setup", "running", "finished"] = "setup"
    venue: Note = ""
    starts_on: datetime.date | None = None
    round_minutes: Annotated[StrictInt, Field(ge=1, le=600)] = 90
    clock_warning_minutes: Annotated[StrictInt, Field(ge=0, le=600)] = 10
    public_names: Literal["full", "short"] = "full"
    members: Annotated[list[Member], Field(max_length=500)] = []
    teams: Annotated[list[TeamIn], Field(max_length=MAX_ENTRANTS)] | None = None
    players: Annotated[list[PlayerIn], Field(max_length=MAX_ENTRANTS)] | None = None
    rounds: Annotated[list[RoundIn], Field(max_length=MAX_ROUNDS)] = []


def json_path(loc: tuple | list) -> str:
    """``("rounds", 0, "matches", 1, "ew")`` -> ``"$.rounds[0].matches[1].ew"``."""
    out = "$"
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else f".{part}"
    return out


def _non_json_constant(text: str | bytes) -> str | None:
    """``"NaN"``, ``"Infinity"`` or ``"-Infinity"`` when ``text`` holds one outside a string (JSON,
    RFC 8259, has no such numbers, but Python's and pydantic's parsers accept them, and PostgreSQL's
    ``jsonb`` refuses them later), else ``None``. Cheap for every file without those words."""
    probe = text if isinstance(text, str) else text.decode("utf-8", "replace")
    if "NaN" not in probe and "Infinity" not in probe:
        return None
    found: list[str] = []

    def refuse(name: str):
        found.append(name)
        raise ValueError(name)

    try:
        json.loads(probe, parse_constant=refuse)
    except (ValueError, RecursionError):
        pass
    return found[0] if found else None


def parse(text: str | bytes) -> tuple[TournamentFile | None, list[tuple[str, str]]]:
    """The file's text as a :class:`TournamentFile`, or ``(None, [(JSON path, message), ...])``.
    A UTF-8 byte-order mark at the start (Windows Notepad writes one) is skipped."""
    if isinstance(text, bytes) and text.startswith(codecs.BOM_UTF8):
        text = text[len(codecs.BOM_UTF8):]
    elif isinstance(text, str) and text.startswith("\ufeff"):
        text = text[1:]
    constant = _non_json_constant(text)
    if constant is not None:
        return None, [("$", f"not valid JSON: {constant} is not a JSON number")]
    try:
        return TournamentFile.model_validate_json(text), []
    except ValidationError as exc:
        errors = []
        for err in exc.errors(include_url=False):
            loc = [p for p in err["loc"] if not (isinstance(p, str) and ("[" in p or p in ("function-after", "constrained-str")))]
            message = err["msg"]
            if err["type"] == "value_error":
                message = str(err.get("ctx", {}).get("error", message))
            if err["type"] == "json_invalid":
                message = f"not valid JSON: {err.get('ctx', {}).get('error', message)}"
            errors.append((json_path(loc), message))
        return None, errors
