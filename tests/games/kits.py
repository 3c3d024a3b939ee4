"""Test kits: what the registry-driven tests need to know of each game, found by the game's key.

Tests that run for every game are marked ``@pytest.mark.every_game`` (optionally
``every_game(entrants="players")``); ``tests/conftest.py`` parametrizes their ``game`` argument
with the keys of the registered games (:func:`keys`), so a game added by the checklist of
docs/architecture.md runs through them without any test file naming it. The game-specific data
such a test needs (a record and its scores, the side labels, the docs page, the acceptance cases,
what its score sheet prints) is the game's :class:`GameKit`, the ``KIT`` of module
``tests.games.<key>.kit`` (:func:`kit`).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]


@dataclass(frozen=True)
class GameKit:
    """One game's test data.

    ``key``: the game's key. ``record``: a record, valid as a result's first, and ``scores`` its
    points per side (by the rules, with the default preset). ``finishing``: records that finish a
    result (a four-player result is then ended at the time limit); default ``[record]``.
    ``side_keys``, ``side_labels_en``, ``side_labels_nl``: the sides as the API gives them
    (docs/api.md) and the game page's "At a glance" table documents them. ``sheet_label``: the game's name on the score sheet; ``sheet_rows``: two records
    ``(record, cells, scores or None)`` entered in order with the cells and scores the sheet prints;
    ``blank_rows``: the record rows of an empty sheet. ``docs_page``: the engine's docs page
    (default ``docs/engines/<key>.md``); ``cases``: its acceptance cases (default
    ``tests/cases/<key>.json``). ``export``: the tournament export of its played tournament
    (``tests/io/played.py``; default ``tests/games/<key>/export.json``, written by
    ``REFRESH_EXPORTS=1`` on ``tests/io/test_tournament_json.py``). ``cli``: ``python -m engines`` knows the game (``False`` for a game
    registered inside a test only). ``entry``: for an end-to-end test through the entry page, the
    POST fields that enter :attr:`record` (or ``None``)."""

    key: str
    record: dict[str, Any]
    scores: list[int]
    side_keys: list[str]
    side_labels_en: list[str]
    side_labels_nl: list[str]
    sheet_label: str
    sheet_rows: list[tuple[dict[str, Any], list[str], list[int] | None]]
    blank_rows: int = 16
    finishing: list[dict[str, Any]] = field(default_factory=list)
    docs_page: Path | None = None
    cases: Path | None = None
    export: Path | None = None
    cli: bool = True
    entry: dict[str, Any] | None = None

    def __post_init__(self):
        if not self.finishing:
            object.__setattr__(self, "finishing", [self.record])
        if self.docs_page is None:
            object.__setattr__(self, "docs_page", ROOT / "docs" / "engines" / f"{self.key}.md")
        if self.cases is None:
            object.__setattr__(self, "cases", ROOT / "tests" / "cases" / f"{self.key}.json")
        if self.export is None:
            object.__setattr__(self, "export", ROOT / "tests" / "games" / self.key / "export.json")


def kit(key: str) -> GameKit:
    """The kit of game ``key``: ``KIT`` of ``tests.games.<key>.kit``. Raises
    :class:`ModuleNotFoundError` when the game has no kit (a game added without its tests)."""
    return importlib.import_module(f"tests.games.{key}.kit").KIT


def keys(entrants: str | None = None) -> list[str]:
    """The keys of the registered games (``scoring.games.all_games()``, in registration order),
    only those whose adapter's ``entrants`` is ``entrants`` (``"teams"``, ``"players"``) when given."""
    from scoring.games import all_games

    return [a.key for a in all_games() if entrants is None or a.entrants == entrants]
