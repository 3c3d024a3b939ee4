"""The declared schema of the tournament JSON (issue 12 item 3), as pydantic v2 models: every field
typed and bounded, unknown fields refused, strict types (``"1"`` is no number, ``1`` is no
boolean). :func:`parse` reads a file's text and returns the :class:`TournamentFile` or the list of
``(JSON path, message)`` errors; the rules that need more than one field (unique names, who plays
whom, statuses, records checked by the game's adapter) are checked afterwards by
:mod:`scoring.io.tournament_json`.

Layout (``format`` 1; :func:`scoring.io.tournament_json.export_tournament` writes it):

- the tournament: ``name``, ``slug``, ``game`` (a key of the games registry), ``rules``,
  ``round_format``, ``hands_per_round``, ``tiebreaks``, ``seed``, ``blind_confirmation``,
  ``status``, ``venue``, ``starts_on``, ``members`` (``[{"username", "role"}]``);
- Tai Pan: ``teams`` (``[{"name", "players": [two names], "affiliation", "seed", "joined_round",
  "withdrawn_after_round"}]``) and per round ``matches`` (``[{"table", "ns", "ew" (null: a bye),
  "hands": [records], "ended", "pairing_note", "confirmed_by"}]``);
- four-player games: ``players`` (``[{"name", "affiliation", "seed", "joined_round",
  "withdrawn_after_round", "substitute"}]``) and per round ``tables`` (``[{"table", "seats": [four
  names, East/seat 0 first], "deals": [records], "ended", "seating_note", "confirmed_by"}]``).
"""
from __future__ import annotations

import datetime
from typing import Annotated, Any, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from scoring.participants.entrants import MAX_ROUND, MAX_SEED, MAX_TEXT, refused_character

FORMAT_VERSION = 1

#: Bounds of the lists (far above any real tournament; a file beyond them is refused, not read).
MAX_ENTRANTS = 5000
MAX_ROUNDS = 99
MAX_TABLES = 2500
MAX_RECORDS = 500
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
Record = dict[str, Any]
Ended = Literal["target", "time"] | None


class Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", strict=True, str_max_length=10_000)


class Member(Strict):
    username: Username
    role: Literal["organiser", "referee"]


class TeamIn(Strict):
    name: Name
    players: Annotated[list[Name], Field(min_length=2, max_length=2)]
    affiliation: OptionalText = ""
    seed: Seed | None = None
    joined_round: RoundNumber = 1
    withdrawn_after_round: Annotated[StrictInt, Field(ge=0, le=MAX_ROUND)] | None = None


class PlayerIn(Strict):
    name: Name
    affiliation: OptionalText = ""
    seed: Seed | None = None
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
    confirmed_by: Username | None = None


class TableIn(Strict):
    table: TableNumber
    seats: Annotated[list[Name], Field(min_length=4, max_length=4)]
    deals: Annotated[list[Record], Field(max_length=MAX_RECORDS)] = []
    ended: Ended = None
    seating_note: Note = ""
    confirmed_by: Username | None = None


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
    rules: dict[str, Any] | Annotated[str, Field(max_length=40)] | None = None
    round_format: Literal["target", "fixed_hands"] = "target"
    hands_per_round: Annotated[StrictInt, Field(ge=1, le=MAX_RECORDS)] | None = None
    tiebreaks: Annotated[list[Annotated[str, Field(max_length=40)]], Field(max_length=20)] = []
    seed: Int32 = 0
    blind_confirmation: StrictBool = False
    status: Literal["setup", "running", "finished"] = "setup"
    venue: Note = ""
    starts_on: datetime.date | None = None
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


def parse(text: str | bytes) -> tuple[TournamentFile | None, list[tuple[str, str]]]:
    """The file's text as a :class:`TournamentFile`, or ``(None, [(JSON path, message), ...])``."""
    try:
        return TournamentFile.model_validate_json(text), []
    except ValidationError as exc:
        errors = []
        for err in exc.errors(include_url=False):
            loc = [p for p in err["loc"] if not (isinstance(p, str) and ("[" in p or p in ("function-after",)))]
            message = err["msg"]
            if err["type"] == "json_invalid":
                message = f"not valid JSON: {err.get('ctx', {}).get('error', message)}"
            errors.append((json_path(loc), message))
        return None, errors
