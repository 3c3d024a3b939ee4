"""Framework-free rule engines, one package per game.

Every game package ``engines.<game>`` exposes the same names:

- ``COMMANDS``: a mapping from command name (as on the command line, e.g. ``"check-totals"``) to a
  function taking the decoded JSON input (a ``dict``) and returning a JSON-serialisable ``dict``.
  Invalid input raises :class:`engines.errors.RuleViolation`.
- ``PRESETS``: ``dict[str, dict]``, preset name -> complete option dict; ``DEFAULT_PRESET``: the
  preset used when an input has no ``"rules"``; ``resolve_rules(raw) -> dict``: the effective
  options of a ``"rules"`` value (absent, a preset name or ``{"preset": NAME, ...overrides}``), with
  ``"preset"`` set; RuleViolation on fields ``rules``/``rules.*`` (docs/engines/index.md).

:func:`run` is the single entry point used by the CLI (``python -m engines GAME COMMAND``), the
web views, management commands and PDFs (docs/engines/index.md); :func:`presets`,
:func:`default_preset` and :func:`resolve_rules` reach a game's rules presets by name.
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from types import ModuleType
from typing import Any

from engines.errors import RuleViolation, Violation

GAMES: tuple[str, ...] = ("taipan", "sichuan", "taiwanese", "tiengow")

__all__ = [
    "GAMES", "RuleViolation", "UnknownCommand", "Violation", "commands", "default_preset", "presets", "resolve_rules", "run",
]


class UnknownCommand(LookupError):
    """Raised by :func:`run` for an unknown game or command (the CLI exits 2)."""


def _engine(game: str) -> ModuleType:
    """The package ``engines.<game>`` (loaded on first use, so the CLI loads one engine only);
    raises :class:`UnknownCommand` if there is no such game."""
    module = _LOADED.get(game)
    if module is not None:
        return module
    if game not in GAMES:
        raise UnknownCommand(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    try:
        module = _LOADED[game] = importlib.import_module(f"engines.{game}")
    except ModuleNotFoundError as exc:  # engine not built yet
        if exc.name and exc.name.startswith(f"engines.{game}"):
            raise UnknownCommand(f"game {game!r} has no engine installed") from exc
        raise
    return module


_LOADED: dict[str, ModuleType] = {}


def commands(game: str) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
    """The ``COMMANDS`` mapping of ``game``; raises :class:`UnknownCommand` if there is no such game."""
    return _engine(game).COMMANDS


def presets(game: str) -> dict[str, dict[str, Any]]:
    """``game``'s rules presets: preset name -> complete option dict (copies, safe to change).

    Raises :class:`UnknownCommand` for an unknown game."""
    return {name: dict(options) for name, options in _engine(game).PRESETS.items()}


def default_preset(game: str) -> str:
    """The preset ``game`` uses when an input has no ``"rules"`` (docs/engines/index.md: ``nskt`` for Tai
    Pan, the rule text's own for the others). Raises :class:`UnknownCommand` for an unknown game."""
    return _engine(game).DEFAULT_PRESET


def resolve_rules(game: str, raw: Any) -> dict[str, Any]:
    """The effective options of ``game`` for a ``"rules"`` value ``raw`` (``None``, a preset name,
    or ``{"preset": NAME, ...overrides}``): a complete option dict with ``"preset"`` set.

    Raises :class:`RuleViolation` (fields ``rules``/``rules.*``) for an unknown preset or option, a
    value of the wrong type or out of range, and :class:`UnknownCommand` for an unknown game."""
    return _engine(game).resolve_rules(raw)


def run(game: str, command: str, data: Any) -> dict[str, Any]:
    """Run ``command`` of ``game`` on ``data`` (the decoded JSON input) and return the output dict.

    Raises :class:`RuleViolation` when the input breaks the rules (CLI exit 1) and
    :class:`UnknownCommand` for an unknown game or command (CLI exit 2).
    """
    table = commands(game)
    if command not in table:
        raise UnknownCommand(f"unknown command {command!r} for {game}; known: {', '.join(sorted(table))}")
    if not isinstance(data, dict):
        raise RuleViolation([Violation("", "The input must be a JSON object.")])
    return table[command](data)
