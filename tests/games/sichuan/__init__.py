"""Test data of the sichuan game (its :class:`tests.games.kits.GameKit`, in ``kit.py``)."""
