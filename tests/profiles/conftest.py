"""Builders of the profile tests: a person entered in Tai Pan and four-player tournaments."""
from __future__ import annotations

import pytest

from tests.factories import (
    DEALS,
    GRAND_DOUBLE_VICTORY_NS,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    play,
    staff,
)


@pytest.fixture(autouse=True)
def _english(english_everywhere):
    """English texts and a fresh cache (:func:`tests.conftest.english_everywhere`)."""


def taipan_entry(person, *, n: int = 1, confirm: bool = True, **tournament_kwargs):
    """Tournament ``n`` of Tai Pan with ``person`` sitting N in team "Slagen" (partner "Bart
    Jansen") against team "Jade" (Cees Smit, Dirk de Wit); round 1 played: two Grand Tai Pan
    calls by N, each with a double victory of NS (NS 400 a hand: 800 - 0, NS wins, 2 match
    points), confirmed unless ``confirm`` is false. Returns ``(tournament, match, staff)``."""
    t = TournamentFactory(name=f"Cup {n}", **tournament_kwargs)
    me = PlayerFactory(tournament=t, person=person, name=person.name)
    team = TeamFactory(tournament=t, name="Slagen", first_player=me, second_player__name="Bart Jansen")
    other = TeamFactory(tournament=t, name="Jade", first_player__name="Cees Smit", second_player__name="Dirk de Wit")
    match = MatchFactory(round=RoundFactory(tournament=t, number=1), table=1, team_ns=team, team_ew=other)
    people = staff(t)
    play(match, [GRAND_DOUBLE_VICTORY_NS, GRAND_DOUBLE_VICTORY_NS], people["referee"],
         confirmer=people["referees"][1] if confirm else None)
    return t, match, people


def sichuan_entry(person, *, n: int = 1, **tournament_kwargs):
    """Tournament ``n`` of Sichuan with ``person`` seated East; one deal: East wins self-drawn
    (+6, the others -2 each), the table ended at the time limit and confirmed."""
    t = TournamentFactory(name=f"Sichuan {n}", game="sichuan", **tournament_kwargs)
    me = PlayerFactory(tournament=t, person=person, name=person.name)
    others = [PlayerFactory(tournament=t, name=f"Other {i}") for i in range(3)]
    table = TableFactory(round=RoundFactory(tournament=t, number=1), number=1, players=[me, *others])
    people = staff(t)
    play(table, [DEALS["sichuan"][0]], people["referee"], end_reason="time", confirmer=people["referees"][1])
    return t, table, people
