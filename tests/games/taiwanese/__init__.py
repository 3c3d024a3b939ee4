"""Test data of the taiwanese game (its :class:`tests.games.kits.GameKit`, in ``kit.py``)."""
