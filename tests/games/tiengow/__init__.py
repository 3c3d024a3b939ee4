"""Test data of the tiengow game (its :class:`tests.games.kits.GameKit`, in ``kit.py``)."""
