"""The stones game's test kit, and :func:`registered`, which stands in for the two registration
lines of a real game (``engines.register`` at the end of ``engines/__init__.py`` and
``scoring.games.register`` in ``scoring/games/__init__.py``)."""
from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import engines
from scoring.games import registry
from tests.games.kits import GameKit

HERE = Path(__file__).resolve().parent
RECORD = {"points": [5, -2, -2, -1]}

KIT = GameKit(
    key="stones",
    record=RECORD,
    scores=[5, -2, -2, -1],
    side_keys=["0", "1", "2", "3"],
    side_labels_en=["0", "1", "2", "3"],
    side_labels_nl=["0", "1", "2", "3"],
    sheet_label="Stones",
    sheet_rows=[(RECORD, ["5 / -2 / -2 / -1"], [5, -2, -2, -1]), ({"points": [0, 3, -1, -2]}, ["0 / 3 / -1 / -2"], [0, 3, -1, -2])],
    docs_page=HERE / "stones.md",
    cases=HERE / "cases.json",
    cli=False,  # registered inside the test process only
    entry={"deal-p0": 5, "deal-p1": -2, "deal-p2": -2, "deal-p3": -1},
)


@contextmanager
def registered() -> Iterator[None]:
    """Register the stones engine (``engines.register``) and adapter (``scoring.games.register``)
    for the duration of a ``with`` block; both are removed afterwards, also after an error."""
    from tests.games.stones import engine
    from tests.games.stones.adapter import Stones

    engines.register(KIT.key, engine)
    try:
        with registry.registered(Stones()):
            yield
    finally:
        engines.unregister(KIT.key)
