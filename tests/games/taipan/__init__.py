"""Test data of the taipan game (its :class:`tests.games.kits.GameKit`, in ``kit.py``)."""
