"""Dealer rotation of Taiwanese 16-tile mahjong (rules/taiwanese-16.txt "De dealer en doorgeven",
DESIGN.md 2.3). Used by the tournament side to carry the dealer and streak from hand to hand."""
from __future__ import annotations

SEATS: tuple[str, ...] = ("E", "S", "W", "N")


def next_seat(seat: str) -> str:
    """The seat after ``seat`` in turn order E -> S -> W -> N -> E. Raises ``ValueError`` for another value."""
    return SEATS[(SEATS.index(seat) + 1) % 4]


def dealer_tai(streak: int, per_streak: int = 2) -> int:
    """Dealer tai for a dealer who stayed ``streak`` times: ``1 + per_streak * streak``
    (莊家 1 tai + 連莊拉莊 2N; DESIGN.md 2.3: 1 + 2N)."""
    return 1 + per_streak * streak


def next_dealer_state(
    dealer_seat: str, streak: int, winner_seat: str | None, *, draw_keeps_dealer: bool = True
) -> tuple[str, int]:
    """The ``(dealer_seat, streak)`` of the next hand.

    ``dealer_seat``: ``"E"``/``"S"``/``"W"``/``"N"``, the seat dealing this hand; ``streak``: N, the
    number of times this dealer has already stayed (0 for a new dealer); ``winner_seat``: the seat
    that won this hand, or ``None`` for a drawn hand (wall exhausted).

    - The dealer wins: the dealer stays, ``streak + 1`` (lianzhuang 連莊).
    - A draw: the dealer stays, ``streak + 1`` (DESIGN.md 2.3; ``draw_keeps_dealer=False`` passes
      the dealer on instead, the rule text says tables differ).
    - Another seat wins: the dealer passes to the next seat E -> S -> W -> N -> E, streak 0.

    Raises ``ValueError`` for an unknown seat or a negative streak.
    Source: rules/taiwanese-16.txt ("Wint de dealer, of eindigt het spel in remise, dan blijft hij
    dealer ... Wint een ander, dan gaat de dealerrol naar de volgende speler"), DESIGN.md 2.3.
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
