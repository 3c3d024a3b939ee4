"""The engines' commands for callers outside the registry (the API's engine endpoint): the same
JSON in and out as the command line (``python -m engines GAME COMMAND``), looked up through the
games registry so that nothing outside :mod:`scoring.games` imports the engines."""
from __future__ import annotations

from typing import Any

import engines
from engines.errors import RuleViolation
from engines.limits import MAX_DEPTH, MAX_INPUT_BYTES, too_deep
from scoring.games import registry

# The input limits of the command line, which the API's request parser applies too.
__all__ = ["MAX_DEPTH", "MAX_INPUT_BYTES", "NoSuchCommand", "RuleViolation", "commands", "run", "too_deep"]


class NoSuchCommand(LookupError):
    """No registered game ``game`` with an engine, or no command ``command`` of its engine."""


def _engine(game: str) -> str:
    try:
        adapter = registry.get(game)
    except registry.UnknownGame as exc:
        raise NoSuchCommand(str(exc)) from None
    return adapter.engine or adapter.key


def commands(game: str) -> list[str]:
    """The command names of ``game``'s engine, sorted. Raises :class:`NoSuchCommand`."""
    try:
        return sorted(engines.commands(_engine(game)))
    except engines.UnknownCommand as exc:
        raise NoSuchCommand(str(exc)) from None


def run(game: str, command: str, data: Any) -> dict[str, Any]:
    """``engines.run`` of ``game``'s engine: the command's output dict. Raises
    :class:`RuleViolation` (the CLI's exit 1; ``exc.to_json()`` is its output) and
    :class:`NoSuchCommand` (the CLI's exit 2)."""
    try:
        return engines.run(_engine(game), command, data)
    except engines.UnknownCommand as exc:
        raise NoSuchCommand(str(exc)) from None
