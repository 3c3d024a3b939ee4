"""Placement points of four-player tables (issue 24 item 2; docs/tournaments.md "Placement points").

Pure Python (no Django): the standings, the player page, the forms, the API and the JSON import
read a tournament's setting through :func:`parse` and score a table with :func:`table_points`.

A table's four seat totals (its zero-sum score, in the game's own points) give each player a
**place** 1..4 and **placement points**: the uma of that place, plus the oka's share when the
setting has one. Ties follow the setting's ``ties`` rule:

- ``"share"``: players with equal totals share a place (the best of the places they cover: two
  players tied for first are both 1st, the next is 3rd) and split the placement points of the
  places they cover equally: two players tied for first under table points 4/2/1/0 get
  (4 + 2) / 2 = 3 each (EMA MCR table points; MahjongPantheon ``Ruleset::_equalizeUma``).
- ``"seat"``: equal totals are ordered by seat, East (seat 0) before South, West and North, and
  no points are shared (MahjongPantheon ``SessionResults::_sort`` keeps the seating order when
  ``equalizeUma`` is off, as in its Tenhou ruleset).

The oka (MahjongPantheon ``Ruleset::oka``) is a pot every player pays a quarter of and the first
takes whole: first place +3/4 of ``oka``, every other place -1/4 of it, so the table's placement
points still sum to the uma's sum. With starting points 25,000 and return points 30,000 the oka
is 4 x 5,000 = 20,000, written 20 here (placement points count in thousands of those points,
as the uma does).

Arithmetic is exact: values are :class:`fractions.Fraction` (a three-way tie under 4/2/1/0 gives
7/3 each), summed exactly over a tournament and compared exactly when ranking; :func:`render`
shows them with at most two decimals ("3", "1.5", "2.33").

Sources (every preset cites one; docs/tournaments.md lists them):

- ``ema``: EMA / World Mahjong Organization Mahjong Competition Rules (MCR), tournament section:
  table points 4, 2, 1, 0 for places 1 to 4, equal scores share the table points of the places
  they cover (as given in issue 24; the published text was not retrieved in this session).
- ``ema_riichi``: EMA Riichi Competition Rules (2016), as configured in MahjongPantheon
  ``Common/rulesets/ema.php``: uma +15,000 / +5,000 / -5,000 / -15,000 (written 15/5/-5/-15),
  ``equalizeUma`` true (ties split the uma), oka 0.
- ``pantheon``: MahjongPantheon ``Common/rulesets/tenhounet.php``: uma 15/5/-5/-15, oka 20,000
  (start 25,000, return 30,000), ``equalizeUma`` false: ties by seat order.
- ``none``: no placement points; players rank by total score only.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction

#: Tie rules: split the places' points equally, or order equal totals by seat (East first).
SHARE, SEAT = "share", "seat"
TIES = (SHARE, SEAT)
#: The custom setting's preset name.
CUSTOM = "custom"
#: The largest uma or oka (absolute) a custom setting may hold.
LIMIT = 1000
#: The keys a stored setting may hold.
KEYS = frozenset({"preset", "uma", "oka", "ties"})


class PlacementError(ValueError):
    """A placement setting that cannot be used; ``problems``: every problem found, as
    ``(field, message)`` pairs in English (the forms translate their own messages)."""

    def __init__(self, problems: list[tuple[str, str]]):
        super().__init__("; ".join(f"{f}: {m}" for f, m in problems))
        self.problems = problems


@dataclass(frozen=True)
class Placement:
    """A tournament's placement rule: ``preset`` (a :data:`PRESETS` key or ``"custom"``), ``uma``
    (four placement points, place 1 to 4), ``oka`` (the pot first place takes, see the module)
    and ``ties`` (:data:`SHARE` or :data:`SEAT`). ``uma`` empty: no placement points."""

    preset: str
    uma: tuple[Fraction, ...] = ()
    oka: Fraction = Fraction(0)
    ties: str = SHARE

    @property
    def enabled(self) -> bool:
        """True when the rule gives placement points (every preset but ``none``)."""
        return bool(self.uma)

    @property
    def per_place(self) -> tuple[Fraction, ...]:
        """The placement points of places 1 to 4 without ties: uma plus the oka's share."""
        if not self.uma:
            return ()
        oka = self.oka
        return tuple(u + (oka * 3 / 4 if i == 0 else -oka / 4) for i, u in enumerate(self.uma))

    def as_json(self) -> dict:
        """The stored form (``Tournament.placement``): ``{}`` for ``none``, ``{"preset": key}``
        for a named preset, every value for a custom rule (numbers as int or decimal string)."""
        if self.preset == "none":
            return {}
        if self.preset in PRESETS:
            return {"preset": self.preset}
        return {"preset": CUSTOM, "uma": [_plain(u) for u in self.uma], "oka": _plain(self.oka), "ties": self.ties}


def _f(*values) -> tuple[Fraction, ...]:
    return tuple(Fraction(v) for v in values)


#: The named presets (sources in the module docstring and docs/tournaments.md).
PRESETS: dict[str, Placement] = {
    "none": Placement("none"),
    "ema": Placement("ema", _f(4, 2, 1, 0), Fraction(0), SHARE),
    "ema_riichi": Placement("ema_riichi", _f(15, 5, -5, -15), Fraction(0), SHARE),
    "pantheon": Placement("pantheon", _f(15, 5, -5, -15), Fraction(20), SEAT),
}
#: The setting of a tournament that has none stored.
DEFAULT = PRESETS["none"]


def _plain(value: Fraction) -> int | str:
    """An exact number for JSON: an int, else its decimal text ("7.5")."""
    if value.denominator == 1:
        return int(value)
    return str(Decimal(value.numerator) / Decimal(value.denominator))


def number(value, field: str, problems: list) -> Fraction | None:
    """``value`` (int, decimal text or float) as an exact fraction within +-:data:`LIMIT`, or
    ``None`` with a problem added for ``field``. Floats are read by their shortest text (7.5)."""
    if isinstance(value, bool):
        problems.append((field, "must be a number"))
        return None
    try:
        out = Fraction(str(value).strip()) if isinstance(value, (str, float)) else Fraction(value)
    except (TypeError, ValueError, ZeroDivisionError):
        problems.append((field, "must be a number"))
        return None
    if abs(out) > LIMIT:
        problems.append((field, f"must be between -{LIMIT} and {LIMIT}"))
        return None
    return out


def parse(value: Mapping | None) -> Placement:
    """The :class:`Placement` of a stored or submitted setting: ``{}``/``None`` -> ``none``;
    ``{"preset": name}`` -> that preset; ``{"preset": "custom", "uma": [4 numbers], "oka":
    number (default 0), "ties": "share"|"seat" (default share)}``. A named preset takes no other
    keys. Raises :class:`PlacementError` with every problem (unknown keys, unknown preset, wrong
    count, not a number, out of range)."""
    if not value:
        return DEFAULT
    if not isinstance(value, Mapping):
        raise PlacementError([("placement", "must be an object")])
    problems: list[tuple[str, str]] = [(k, "unknown field") for k in sorted(set(value) - KEYS, key=str)]
    preset = value.get("preset", CUSTOM if "uma" in value else "none")
    if preset in PRESETS:
        problems += [(k, "only a custom setting takes this field") for k in ("uma", "oka", "ties") if k in value]
        if problems:
            raise PlacementError(problems)
        return PRESETS[preset]
    if preset != CUSTOM:
        raise PlacementError(problems + [("preset", f"unknown preset {preset!r}")])
    uma = value.get("uma")
    values: list[Fraction | None] = []
    if not isinstance(uma, Sequence) or isinstance(uma, (str, bytes)) or len(uma) != 4:
        problems.append(("uma", "must be four numbers, place 1 to 4"))
    else:
        values = [number(u, "uma", problems) for u in uma]
    oka = number(value.get("oka", 0), "oka", problems)
    if oka is not None and oka < 0:  # a pot the players pay into: starting points never exceed return points
        problems.append(("oka", "must be 0 or more"))
    ties = value.get("ties", SHARE)
    if ties not in TIES:
        problems.append(("ties", "must be 'share' or 'seat'"))
    if problems:
        raise PlacementError(problems)
    return Placement(CUSTOM, tuple(values), oka, ties)


@dataclass(frozen=True)
class SeatResult:
    """One seat's outcome at a table: ``place`` (1..4; shared places give equal numbers) and
    ``points`` (placement points, exact)."""

    place: int
    points: Fraction


def table_points(rule: Placement, totals: Sequence[int]) -> list[SeatResult]:
    """Places and placement points of the four seats (in seat order, East first) whose table
    totals are ``totals``. A rule without uma gives every seat 0 points but still a place
    (ties share). Raises ``ValueError`` unless there are four totals.

    >>> [(r.place, str(r.points)) for r in table_points(PRESETS["ema"], [10, 10, -5, -15])]
    [(1, '3'), (1, '3'), (3, '1'), (4, '0')]
    """
    if len(totals) != 4:
        raise ValueError("a table has four seats")
    if rule.ties == SEAT:
        order = sorted(range(4), key=lambda s: (-totals[s], s))
        groups = [[s] for s in order]
    else:
        by_total: dict[int, list[int]] = {}
        for seat, total in enumerate(totals):
            by_total.setdefault(total, []).append(seat)
        groups = [by_total[t] for t in sorted(by_total, reverse=True)]
    per_place = rule.per_place or (Fraction(0),) * 4
    out: list[SeatResult | None] = [None] * 4
    first = 0
    for group in groups:
        covered = per_place[first:first + len(group)]
        share = sum(covered, Fraction(0)) / len(group)
        for seat in group:
            out[seat] = SeatResult(first + 1, share)
        first += len(group)
    return out  # type: ignore[return-value]


def render(value: Fraction | int | None) -> str:
    """A placement-points value for people: integers as is, else rounded half up to at most two
    decimals without trailing zeros ("1.5", "2.33", "-0.5"); ``None`` -> "—"."""
    if value is None:
        return "—"
    value = Fraction(value)
    if value.denominator == 1:
        return str(value.numerator)
    text = str((Decimal(value.numerator) / Decimal(value.denominator)).quantize(Decimal("0.01"), rounding=ROUND_HALF_UP))
    return text.rstrip("0").rstrip(".")


def as_number(value: Fraction | int | None) -> int | float | None:
    """``value`` for JSON (the REST API): an int when whole, else a float with at most two decimals,
    as :func:`render` shows it (7/3 -> 2.33); ranks are always computed on the exact value."""
    if value is None:
        return None
    value = Fraction(value)
    return int(value) if value.denominator == 1 else float(render(value))


def describe(rule: Placement) -> dict:
    """The rule for the REST API: ``{"preset", "uma", "oka", "ties", "per_place"}`` (numbers as
    :func:`as_number`; ``uma`` and ``per_place`` empty for ``none``)."""
    return {"preset": rule.preset, "uma": [as_number(u) for u in rule.uma], "oka": as_number(rule.oka),
            "ties": rule.ties, "per_place": [as_number(p) for p in rule.per_place]}


def stored(value: Mapping | None) -> Placement:
    """The rule of a tournament's stored setting for the pages and the standings: :func:`parse`,
    but a setting that cannot be parsed (edited by hand in the admin) counts as ``none`` rather
    than breaking every page; the forms and the JSON import refuse such a setting (they call
    :func:`parse`)."""
    try:
        return parse(value)
    except PlacementError:
        return DEFAULT
