"""Games registry and adapters (see :mod:`scoring.games.registry` and :mod:`scoring.games.base`).

Every game is registered here (import its adapter and add it to the loop below); :func:`get` finds a tournament's adapter.
"""
from scoring.games.registry import UnknownGame, all_games, choices, get, register, registered, unregister
from scoring.games.sichuan.adapter import Sichuan
from scoring.games.taipan.adapter import TaiPan
from scoring.games.taiwanese.adapter import Taiwanese
from scoring.games.tiengow.adapter import TienGow

for _adapter in (TaiPan(), Sichuan(), Taiwanese(), TienGow()):
    register(_adapter)

__all__ = ["UnknownGame", "all_games", "choices", "get", "register", "registered", "unregister"]
