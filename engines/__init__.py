"""Framework-free rule engines, one package per game.

Every game package ``engines.<game>`` exposes ``COMMANDS``: a mapping from command name (as on the
command line, e.g. ``"check-totals"``) to a function taking the decoded JSON input (a ``dict``) and
returning a JSON-serialisable ``dict``. Invalid input raises :class:`engines.errors.RuleViolation`.

:func:`run` is the single entry point used by the CLI (``python -m engines GAME COMMAND``), the
web views, management commands and PDFs (DESIGN.md section 2).
"""
from __future__ import annotations

import importlib
from collections.abc import Callable
from typing import Any

from engines.errors import RuleViolation, Violation

GAMES: tuple[str, ...] = ("taipan", "sichuan", "taiwanese", "tiengow")

__all__ = ["GAMES", "RuleViolation", "UnknownCommand", "Violation", "commands", "run"]


class UnknownCommand(LookupError):
    """Raised by :func:`run` for an unknown game or command (the CLI exits 2)."""


def commands(game: str) -> dict[str, Callable[[dict[str, Any]], dict[str, Any]]]:
    """The ``COMMANDS`` mapping of ``game``; raises :class:`UnknownCommand` if there is no such game."""
    if game not in GAMES:
        raise UnknownCommand(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    try:
        module = importlib.import_module(f"engines.{game}")
    except ModuleNotFoundError as exc:  # engine not built yet
        if exc.name and exc.name.startswith(f"engines.{game}"):
            raise UnknownCommand(f"game {game!r} has no engine installed") from exc
        raise
    return module.COMMANDS


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
