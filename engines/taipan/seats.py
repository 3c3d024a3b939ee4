"""Seats, teams and play order (docs/engines/taipan.md).

Seats ``N E S W``; partners N-S (team ``NS``) and E-W (team ``EW``). Play goes to each player's
right-hand neighbour (counter-clockwise): N, W, S, E.
"""
from __future__ import annotations

SEATS: tuple[str, ...] = ("N", "E", "S", "W")
TEAMS: tuple[str, ...] = ("NS", "EW")
PLAY_ORDER: tuple[str, ...] = ("N", "W", "S", "E")
TEAM_OF: dict[str, str] = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}
PARTNER: dict[str, str] = {"N": "S", "S": "N", "E": "W", "W": "E"}
OPPONENTS: dict[str, tuple[str, str]] = {"N": ("E", "W"), "S": ("E", "W"), "E": ("N", "S"), "W": ("N", "S")}
OTHER_TEAM: dict[str, str] = {"NS": "EW", "EW": "NS"}


def next_seat(seat: str) -> str:
    """The seat that plays after ``seat`` (its right-hand neighbour), ignoring who is out."""
    return PLAY_ORDER[(PLAY_ORDER.index(seat) + 1) % 4]
