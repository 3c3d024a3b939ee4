"""Dealer rotation of Taiwanese 16-tile mahjong (the Taiwanese rule text "De dealer en doorgeven",
docs/engines/taiwanese.md). Used by the tournament side to carry the dealer, streak and round wind from hand
to hand: :func:`initial_hand_state` before the first hand, :func:`next_hand_state` after each.

The carried state is a dict ``{"dealer": SEAT, "streak": N, "round_wind": WIND}`` (seats and winds
``"E"``, ``"S"``, ``"W"``, ``"N"``; ``streak`` N = times the current dealer has stayed), exactly the
``dealer``/``streak``/``round_wind`` fields of the ``score`` command's input.
"""
from __future__ import annotations

from typing import Any

SEATS: tuple[str, ...] = ("E", "S", "W", "N")


def next_seat(seat: str) -> str:
    """The seat after ``seat`` in turn order E -> S -> W -> N -> E. Raises ``ValueError`` for another value."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def dealer_tai(streak: int, per_streak: int = 2) -> int:
    """Dealer tai for a dealer who stayed ``streak`` times: ``1 + per_streak * streak``
    (莊家 1 tai + 連莊拉莊 2N; docs/engines/taiwanese.md: 1 + 2N)."""
    return 1 + per_streak * streak


def next_dealer_state(
    dealer_seat: str, streak: int, winner_seat: str | None, *, draw_keeps_dealer: bool = True
) -> tuple[str, int]:
    """The ``(dealer_seat, streak)`` of the next hand.

    ``dealer_seat``: ``"E"``/``"S"``/``"W"``/``"N"``, the seat dealing this hand; ``streak``: N, the
    number of times this dealer has already stayed (0 for a new dealer); ``winner_seat``: the seat
    that won this hand, or ``None`` for a drawn hand (wall exhausted).

    - The dealer wins: the dealer stays, ``streak + 1`` (lianzhuang 連莊).
    - A draw: the dealer stays, ``streak + 1`` (docs/engines/taiwanese.md; ``draw_keeps_dealer=False`` passes
      the dealer on instead, the rule text says tables differ).
    - Another seat wins: the dealer passes to the next seat E -> S -> W -> N -> E, streak 0.

    Raises ``ValueError`` for an unknown seat or a negative streak.
    Source: the Taiwanese rule text ("Wint de dealer, of eindigt het spel in remise, dan blijft hij
    dealer ... Wint een ander, dan gaat de dealerrol naar de volgende speler"), docs/engines/taiwanese.md.
    """
    if dealer_seat not in SEATS:
        raise ValueError(f"unknown dealer seat {dealer_seat!r}; seats are E, S, W, N")
    if winner_seat is not None and winner_seat not in SEATS:
        raise ValueError(f"unknown winner seat {winner_seat!r}; seats are E, S, W, N")
    if isinstance(streak, bool) or not isinstance(streak, int) or streak < 0:
        raise ValueError(f"the streak must be a whole number of at least 0, not {streak!r}")
    if winner_seat == dealer_seat or (winner_seat is None and draw_keeps_dealer):
        return dealer_seat, streak + 1
    return next_seat(dealer_seat), 0


def initial_hand_state() -> dict[str, Any]:
    """The carried state before a table's first hand: East deals, streak 0, round wind East
    (the Taiwanese rule text: "wie de eerste dealer (Oost) is"; the game starts in the East round)."""
    return {"dealer": "E", "streak": 0, "round_wind": "E"}


def next_hand_state(state: dict[str, Any], winner_seat: str | None, *, draw_keeps_dealer: bool = True) -> dict[str, Any]:
    """The carried state of the next hand after a hand played in ``state``.

    ``state``: ``{"dealer", "streak", "round_wind"}`` (see the module docstring; a missing
    ``round_wind`` is East, as before the first change of round); ``winner_seat``: the seat that won,
    or ``None`` for a drawn hand. Returns a new dict ``{"dealer", "streak", "round_wind"}``:

    - dealer and streak as :func:`next_dealer_state` (the dealer stays on a win or a draw with
      ``streak + 1``; otherwise the next seat E -> S -> W -> N deals with streak 0);
    - the round wind advances E -> S -> W -> N (and from N back to E) when the deal passes from North
      back to East, i.e. after every seat has dealt once in this round.

    Raises ``ValueError`` for an unknown seat or wind, a streak that is not a whole number >= 0, or a
    ``state`` that is not such a dict. Source: the Taiwanese rule text ("De dealer en doorgeven"),
    docs/engines/taiwanese.md ("A draw keeps the dealer and increments N").
    """
    if not isinstance(state, dict) or "dealer" not in state or "streak" not in state:
        raise ValueError(f"the state must be a dict with dealer, streak and round_wind, not {state!r}")
    wind = state.get("round_wind", "E")
    if wind not in SEATS:
        raise ValueError(f"unknown round wind {wind!r}; winds are E, S, W, N")
    dealer, streak = next_dealer_state(state["dealer"], state["streak"], winner_seat, draw_keeps_dealer=draw_keeps_dealer)
    if dealer == "E" and state["dealer"] == "N":
        wind = next_seat(wind)
    return {"dealer": dealer, "streak": streak, "round_wind": wind}
