"""Round 1 of a Swiss team tournament: the order of the field and how it is split into tables
(pure functions over :class:`scoring.draw.pairing_core.Entrant`-like values; no Django).

Source: docs/tournaments.md ("Round 1"), issue 23 item 8. Methods (:data:`METHODS`):

==============  ===============================================  ==============================
method          order of the field                               tables (``n`` teams, 1 = top)
==============  ===============================================  ==============================
``random``      shuffled by the round's seed (reproducible)      1 v 2, 3 v 4, ... (draw order)
``seeded``      seed number (lowest first; unseeded last)        slide: 1 v n/2+1, 2 v n/2+2, ...
``rating``      rating (highest first; unrated last)             slide: 1 v n/2+1, 2 v n/2+2, ...
``fold``        seed number (lowest first; unseeded last)        fold: 1 v n, 2 v n-1, ...
``fold_rating`` rating (highest first; unrated last)             fold: 1 v n, 2 v n-1, ...
==============  ===============================================  ==============================

Ties in an order (equal or missing seed numbers or ratings) go by name, then id. With an odd
number of teams the last in the order (random: the last drawn; otherwise the lowest seed or
rating) gets the bye and is left out before splitting. Tables are numbered in the order of their
first team, which sits NS.
"""
from __future__ import annotations

import random
from collections.abc import Sequence

#: The round-1 methods, in the order the pair page offers them.
METHODS = ("random", "seeded", "rating", "fold", "fold_rating")
#: Methods that split the ordered field by folding (1 v n) instead of sliding (1 v n/2+1).
FOLDING = frozenset({"fold", "fold_rating"})
#: Methods that order the field by rating instead of seed number.
BY_RATING = frozenset({"rating", "fold_rating"})


def by_seed(entrant) -> tuple:
    """Sort key: seed number ascending, unseeded last, then name and id."""
    return (entrant.seed is None, entrant.seed if entrant.seed is not None else 0, entrant.name, entrant.id)


def by_rating(entrant) -> tuple:
    """Sort key: rating descending, unrated last, then name and id."""
    return (entrant.rating is None, -(entrant.rating or 0), entrant.name, entrant.id)


def seeding_order(field_: Sequence, *, seed: int, method: str) -> list:
    """The field in the order ``method`` ranks it for round 1 (see the module table).
    Unknown methods: :class:`ValueError`."""
    if method not in METHODS:
        raise ValueError(f"unknown round-1 method {method!r}")
    if method == "random":
        order = sorted(field_, key=lambda e: (e.id,))
        random.Random(seed).shuffle(order)
        return order
    return sorted(field_, key=by_rating if method in BY_RATING else by_seed)


def split(order: list, method: str) -> tuple[list[tuple], object | None]:
    """``(pairs, bye)``: the ordered field split into pairs ``(top, bottom)`` by ``method`` and the
    entrant with the bye (the last in the order when the number is odd, else ``None``)."""
    order = list(order)
    bye = order.pop() if len(order) % 2 else None
    n = len(order)
    half = n // 2
    if method == "random":
        pairs = [(order[i], order[i + 1]) for i in range(0, n, 2)]
    elif method in FOLDING:
        pairs = [(order[i], order[n - 1 - i]) for i in range(half)]
    else:
        pairs = [(order[i], order[i + half]) for i in range(half)]
    return pairs, bye
