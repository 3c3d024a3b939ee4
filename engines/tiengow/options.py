"""Tien Gow rules options: every ambiguity of the rule text as a named option with the decided default.

Rule source: docs/engines/tiengow.md (decisions) and the Tien Gow rule text. The one preset is ``"standard"`` (the
rule text's own rules with the decisions of docs/engines/tiengow.md). Override any option with
``{"preset": "standard", "option": value}``; see :data:`OPTION_HELP` for what each means.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from engines.errors import Collector
from engines.i18n import _
from engines.rules import resolve_rules as resolve_options

DEFAULT_PRESET = "standard"

EARLY_DEATH_CHOICES = ("last_single", "last_trick", "off")

PRESETS: dict[str, dict[str, Any]] = {
    "standard": {
        # "Tegels van gelijk totaal zijn gelijk": docs/engines/tiengow.md decides this holds only among military tiles.
        "equal_totals_civil": False,
        # Early death (players without a column discard face down on the last trick): only when the last
        # trick is a single ("last_single"); "last_trick": on any last trick; "off": never.
        "early_death": "last_single",
        # Immediate payments per opponent for winning a trick with the Supreme / a quartet.
        "supreme_payment": 2,
        "quartet_payment": 4,
        # Immediate payments double when the banker pays or receives.
        "immediate_banker_double": True,
        # Immediate payments are also paid for the last trick (besides its final multiplier).
        "immediate_on_last_trick": True,
        # The last-trick and sweep multipliers do not apply to immediate payments (rule text, docs/engines/tiengow.md).
        "multiply_immediate": False,
        # Final settlement: an opponent pays (par - columns), or zero_column_payment for no column.
        "par_columns": 4,
        "zero_column_payment": 5,
        # The last-trick winner pays an opponent the columns it has over par.
        "winner_pays_surplus": True,
        # Final payments involving the banker (either side) double.
        "banker_double": True,
        # Final payments multiply when the last trick is won by a quartet, the Supreme or the singleton 1-2.
        "last_trick_multiplier": 2,
        # Final payments multiply again when the winner took all eight columns.
        "sweep_multiplier": 2,
        # The catch: last single trick led with 1-2 and won by 2-4: the leader also pays the positive
        # final amounts the other two owe, exactly as computed (times catch_multiplier).
        "little_three_catch": True,
        "catch_multiplier": 1,
    },
}

OPTION_HELP: dict[str, str] = {
    "equal_totals_civil": _("Civil tiles of equal pip total (5-5 and 4-6, 3-3 and 1-5, 1-3 and 2-2) rank equal."),
    "early_death": _("When players without a column must discard face down: on a last single trick, any last trick, or never."),
    "supreme_payment": _("Points each opponent pays for a trick won with the Supreme."),
    "quartet_payment": _("Points each opponent pays for a trick won with a quartet."),
    "immediate_banker_double": _("Immediate payments involving the banker are doubled."),
    "immediate_on_last_trick": _("A Supreme or quartet winning the last trick is also paid immediately."),
    "multiply_immediate": _("The last-trick and sweep multipliers also multiply the immediate payments."),
    "par_columns": _("Columns an opponent needs to pay nothing."),
    "zero_column_payment": _("What an opponent without any column pays."),
    "winner_pays_surplus": _("The winner pays an opponent its columns over par."),
    "banker_double": _("Final payments involving the banker are doubled."),
    "last_trick_multiplier": _("Multiplier for a last trick won by a quartet, the Supreme or the single Little Three."),
    "sweep_multiplier": _("Multiplier for winning all eight columns."),
    "little_three_catch": _("The leader of a last single 1-2 beaten by 2-4 pays what the other two owe."),
    "catch_multiplier": _("Multiplier on the amounts the caught leader pays for the other two."),
}


@dataclass(frozen=True)
class Options:
    """Typed view of the effective rules options (see :data:`PRESETS` for meanings and defaults)."""

    preset: str
    equal_totals_civil: bool
    early_death: str
    supreme_payment: int
    quartet_payment: int
    immediate_banker_double: bool
    immediate_on_last_trick: bool
    multiply_immediate: bool
    par_columns: int
    zero_column_payment: int
    winner_pays_surplus: bool
    banker_double: bool
    last_trick_multiplier: int
    sweep_multiplier: int
    little_three_catch: bool
    catch_multiplier: int

    def to_json(self) -> dict[str, Any]:
        """The options as a JSON object."""
        return dict(self.__dict__)


DEFAULT_OPTIONS = Options(preset=DEFAULT_PRESET, **PRESETS[DEFAULT_PRESET])


def resolve(raw: Any) -> Options:
    """Options for an input's ``"rules"`` value (absent, a preset name, or preset + overrides).

    Raises :class:`engines.errors.RuleViolation` (field ``rules.NAME``) for unknown presets or
    options, wrong types, or out-of-range values.
    """
    values = resolve_options(raw, PRESETS, DEFAULT_PRESET)
    errors = Collector()
    if values["early_death"] not in EARLY_DEATH_CHOICES:
        errors.add("rules.early_death", _("Rules option {name!r} must be one of {choices}."), name="early_death",
                   choices=", ".join(EARLY_DEATH_CHOICES))
    for key in ("supreme_payment", "quartet_payment", "par_columns", "zero_column_payment"):
        if not isinstance(values[key], int) or values[key] < 0:
            errors.add(f"rules.{key}", _("Rules option {name!r} must be a whole number of at least {low}."), name=key, low=0)
    for key in ("last_trick_multiplier", "sweep_multiplier", "catch_multiplier"):
        if not isinstance(values[key], int) or values[key] < 1:
            errors.add(f"rules.{key}", _("Rules option {name!r} must be a whole number of at least {low}."), name=key, low=1)
    if isinstance(values["par_columns"], int) and values["par_columns"] > 8:
        errors.add("rules.par_columns", _("Rules option {name!r} must be at most {high}."), name="par_columns", high=8)
    errors.raise_if_any()
    return Options(**values)


def resolve_rules(raw: Any) -> dict[str, Any]:
    """The effective options for ``raw`` as a dict (``"preset"`` set): :func:`resolve` in the JSON
    form every engine package's ``resolve_rules`` returns. Raises :class:`RuleViolation` like
    :func:`resolve`."""
    return resolve(raw).to_json()
