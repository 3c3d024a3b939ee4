"""The games registry: one adapter per game, looked up by the game's key (``Tournament.game``).

Everything game-specific the rest of the app needs goes through the adapter registered here
(:class:`scoring.games.base.GameAdapter`); outside :mod:`scoring.games` nothing branches on the
game. Adding a game: a new engine package ``engines/<game>/`` (registered with
``engines.register``), an adapter module with its entry form and templates, and one
:func:`register` call in :mod:`scoring.games` (see ``docs/architecture.md``, "Adding a game").
Tests register a game of their own with :func:`registered` (tests/games/test_fifth_game.py).
"""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover - typing only
    from scoring.games.base import GameAdapter

_ADAPTERS: dict[str, GameAdapter] = {}


class UnknownGame(LookupError):
    """Raised by :func:`get` for a key no adapter is registered under."""


def register(adapter: GameAdapter) -> GameAdapter:
    """Register ``adapter`` under ``adapter.key`` (replacing an adapter with the same key) and
    return it."""
    _ADAPTERS[adapter.key] = adapter
    return adapter


def unregister(key: str) -> None:
    """Remove the adapter registered under ``key`` (no error when there is none)."""
    _ADAPTERS.pop(key, None)


@contextmanager
def registered(adapter: GameAdapter) -> Iterator[GameAdapter]:
    """Register ``adapter`` for the duration of a ``with`` block (tests of a new game)."""
    previous = _ADAPTERS.get(adapter.key)
    register(adapter)
    try:
        yield adapter
    finally:
        if previous is None:
            unregister(adapter.key)
        else:
            register(previous)


def get(key: str) -> GameAdapter:
    """The adapter of game ``key``; raises :class:`UnknownGame`."""
    try:
        return _ADAPTERS[key]
    except KeyError:
        raise UnknownGame(f"unknown game {key!r}; known: {', '.join(_ADAPTERS)}") from None


def all_games() -> list[GameAdapter]:
    """Every registered adapter, in registration order."""
    return list(_ADAPTERS.values())


def choices() -> list[tuple[str, str]]:
    """``[(key, label)]`` of every registered game: the choices of ``Tournament.game`` (a callable,
    so a game registered later is a valid choice too)."""
    return [(a.key, a.label) for a in _ADAPTERS.values()]
