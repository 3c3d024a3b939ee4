"""Framework-free rule engines, one package per game.

Every game package ``engines.<game>`` exposes the same names:

- ``COMMANDS``: a mapping from command name (as on the command line, e.g. ``"check-totals"``) to a
  function taking the decoded JSON input (a ``dict``) and returning a JSON-serialisable ``dict``.
  Invalid input raises :class:`engines.errors.RuleViolation`.
- ``PRESETS``: ``dict[str, dict]``, preset name -> complete option dict; ``DEFAULT_PRESET``: the
  preset used when an input has no ``"rules"``; ``resolve_rules(raw) -> dict``: the effective
  options of a ``"rules"`` value (absent, a preset name or ``{"preset": NAME, ...overrides}``), with
  ``"preset"`` set; RuleViolation on fields ``rules``/``rules.*`` (docs/engines/index.md).

A game's package is known to :mod:`engines` once :func:`register` names it (the four games of the
rule texts are registered at the end of this module, one line each); :data:`GAMES` and
:func:`games` are the registered keys, in registration order. A package may live anywhere (a test
registers one of its own with :func:`register` and removes it with :func:`unregister`).

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
from engines.i18n import _

#: The registered game keys, in registration order (kept equal to :func:`games` by :func:`register`
#: and :func:`unregister`; read it as ``engines.GAMES``, not ``from engines import GAMES``, to see
#: a game registered later).
GAMES: tuple[str, ...] = ()

__all__ = [
    "GAMES", "RuleViolation", "UnknownCommand", "Violation", "commands", "default_preset", "games", "package",
    "presets", "register", "resolve_rules", "run", "unregister",
]


class UnknownCommand(LookupError):
    """Raised by :func:`run` for an unknown game or command (the CLI exits 2)."""


def _engine(game: str) -> ModuleType:
    """The package ``engines.<game>`` (loaded on first use, so the CLI loads one engine only);
    raises :class:`UnknownCommand` if there is no such game."""
    module = _LOADED.get(game)
    if module is not None:
        return module
    name = _PACKAGES.get(game)
    if name is None:
        raise UnknownCommand(f"unknown game {game!r}; known: {', '.join(GAMES)}")
    try:
        module = importlib.import_module(name)
    except ModuleNotFoundError as exc:  # engine not built yet
        if exc.name and (name == exc.name or name.startswith(f"{exc.name}.") or exc.name.startswith(f"{name}.")):
            raise UnknownCommand(f"game {game!r} has no engine installed") from exc
        raise
    _LOADED[game] = module
    return module


#: game key -> the dotted name of its engine package (imported on first use).
_PACKAGES: dict[str, str] = {}
_LOADED: dict[str, ModuleType] = {}


def register(game: str, package: str | ModuleType) -> None:
    """Make ``package`` the engine of ``game``: a dotted module name (imported on first use, so the
    command line loads one engine only) or an imported module. The package must have the names of
    the contract (``COMMANDS``, ``PRESETS``, ``DEFAULT_PRESET``, ``resolve_rules``; see the module
    docstring); they are checked when it is first used, not here. Registering a key again replaces
    its package; a new key goes at the end of :data:`GAMES`.

    Raises :class:`ValueError` for a key that is empty or not lower-case letters and digits (a key
    is a URL path segment and a ``Tournament.game`` value), and :class:`TypeError` for a package
    that is neither a string nor a module."""
    global GAMES
    if not isinstance(game, str) or not game.isascii() or not game.isalnum() or not game.islower():
        raise ValueError(f"a game key is lower-case letters and digits, not {game!r}")
    if isinstance(package, ModuleType):
        _PACKAGES[game] = package.__name__
        _LOADED[game] = package
    elif isinstance(package, str) and package:
        _PACKAGES[game] = package
        _LOADED.pop(game, None)
    else:
        raise TypeError(f"an engine package is a module or a dotted module name, not {package!r}")
    GAMES = tuple(_PACKAGES)


def unregister(game: str) -> None:
    """Forget the engine of ``game`` (no error when there is none): :func:`run` and the others
    then raise :class:`UnknownCommand` for it and it leaves :data:`GAMES`."""
    global GAMES
    _PACKAGES.pop(game, None)
    _LOADED.pop(game, None)
    GAMES = tuple(_PACKAGES)


def games() -> tuple[str, ...]:
    """The registered game keys, in registration order (the same as :data:`GAMES`)."""
    return GAMES


def package(game: str) -> ModuleType:
    """The engine package of ``game`` (imported on first use); raises :class:`UnknownCommand` for a
    game that is not registered or whose package is not installed."""
    return _engine(game)


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
        raise RuleViolation([Violation("", _("The input must be a JSON object."))])
    return table[command](data)


# The games of the rule texts: one line per game (docs/architecture.md, "Adding a game").
register("taipan", "engines.taipan")
register("sichuan", "engines.sichuan")
register("taiwanese", "engines.taiwanese")
register("tiengow", "engines.tiengow")
