"""Match codes (issue 22): the short code printed on a table's score sheet, which a referee or a
player can say or type to find that match or table: ``"3-12-XK"`` = round 3, table 12, and two
check characters.

- The check characters are the first 10 bits of SHA-256 of the tournament, the result's id, the
  round and the table, in Crockford's base32 (no I, L, O or U): a mistyped round or table number
  fails the check (1 in 1024 passes by chance), and so does the code of a sheet printed before the
  round was paired again (the new match has a new id). The code is **not a secret** and grants
  nothing: it lies on the table for everyone, and it only leads to the result's pages, where the
  policy decides as for anyone else (a referee enters; the public reads).
- Typed codes are read as Crockford reads: case, spaces, dashes and dots do not matter, O reads as
  0, I and L as 1; without separators (``"312XK"``) every split of the digits is tried and the
  check characters pick the one that fits.
"""
from __future__ import annotations

import hashlib
import re

from scoring.kinds import kind_for, kind_of
from scoring.models import ResultContainer, Tournament
from scoring.participants.links import ALPHABET, normalise

#: Check characters of a code.
CHECK_LENGTH = 2


def _check(tournament_id: int, container_id: int, round_number: int, table: int) -> str:
    digest = hashlib.sha256(f"nskt-match:{tournament_id}:{container_id}:{round_number}:{table}".encode()).digest()
    bits = int.from_bytes(digest[:2], "big") >> (16 - 5 * CHECK_LENGTH)
    return "".join(ALPHABET[(bits >> (5 * i)) & 31] for i in reversed(range(CHECK_LENGTH)))


def code_of(container: ResultContainer) -> str:
    """The match code of a match or table (its ``round`` loaded): ``"<round>-<table>-<check>"``,
    e.g. ``"3-12-XK"``."""
    rnd = container.round
    table = kind_of(container).number(container)
    return f"{rnd.number}-{table}-{_check(rnd.tournament_id, container.pk, rnd.number, table)}"


def _candidates(raw: str) -> list[tuple[int, int, str]]:
    """The (round, table, check) a typed code may mean."""
    text = (raw or "")[:40].upper()
    parts = [p for p in re.split(r"[^0-9A-Z]+", text) if p]
    if len(parts) == 3:
        numbers = [normalise(p).lstrip("RT") for p in parts[:2]]
        check = normalise(parts[2])
        if all(n.isdigit() for n in numbers) and len(check) == CHECK_LENGTH:
            return [(int(numbers[0]), int(numbers[1]), check)]
        return []
    joined = normalise("".join(parts))
    digits, check = joined[:-CHECK_LENGTH], joined[-CHECK_LENGTH:]
    if len(check) != CHECK_LENGTH or not digits.isdigit() or len(digits) > 8:
        return []
    return [(int(digits[:i]), int(digits[i:]), check) for i in range(1, len(digits))]


def find(tournament: Tournament, raw: str) -> ResultContainer | None:
    """The match or table of ``tournament`` whose code is ``raw`` (as typed), else ``None`` (no such
    round or table, or the check characters do not fit). Draft rounds are found too: the caller
    decides who may see them."""
    kind = kind_for(tournament.adapter)
    for round_number, table, check in _candidates(raw):
        for container in kind.queryset().filter(round__tournament=tournament, round__number=round_number,
                                                **{kind.number_field: table}):
            if _check(tournament.pk, container.pk, round_number, table) == check:
                return container
    return None
