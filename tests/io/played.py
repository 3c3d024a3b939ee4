"""Played tournaments of every game for the tournament JSON tests (issue 12 item 3): members,
confirmations, a result ended at the time limit, a closed round and an open one, a bye and a
withdrawn team (Tai Pan), a substitute and a withdrawn player (four-player games).

Scores come from the rules (docs/engines/index.md; :data:`tests.factories.DEALS`): a Tai Pan Grand Tai Pan
of N with a double victory of NS is 400 : 0, two reach the target 800; Sichuan East self-draws:
+6 / -2 / -2 / -2; Taiwanese South self-draws 6 tai: -17 / +47 / -15 / -15; Tien Gow banker seat
1 settles: -4 / +10 / -1 / -5.
"""
from __future__ import annotations

from scoring.draw import rounds
from scoring.games import registry
from scoring.models import Membership, Round, Team, Tournament
from scoring.results import sheet
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    play,
)
from tests.games.kits import kit

USERNAMES = ("boss", "ref", "conf")


def _staff(t: Tournament):
    boss, ref, conf = (UserFactory(username=u) for u in USERNAMES)
    MembershipFactory(tournament=t, user=boss, role=Membership.Role.ORGANISER)
    MembershipFactory(tournament=t, user=ref, role=Membership.Role.REFEREE)
    MembershipFactory(tournament=t, user=conf, role=Membership.Role.REFEREE)
    return boss, ref, conf


def played_teams(game: str = "taipan", slug: str | None = None) -> Tournament:
    """Three teams (one withdrawn after round 2): round 1 closed (its test kit's ``finishing``
    records confirmed, Tai Pan 800 : 0; a bye), round 2 in progress (a match ended at the time
    limit after the kit's ``record``, Tai Pan 175 : 25)."""
    adapter = registry.get(game)
    t = TournamentFactory(name=f"{adapter.label} Cup", slug=slug or f"cup-{game}", game=game,
                          tiebreaks=["buchholz", "wins"], venue="Utrecht")
    boss, ref, conf = _staff(t)
    teams = [TeamFactory(tournament=t, name=f"Team {i}", first_player=PlayerFactory(tournament=t, name=f"P{i}a"),
                         second_player=PlayerFactory(tournament=t, name=f"P{i}b")) for i in range(3)]
    Team.objects.filter(pk=teams[2].pk).update(affiliation="Asopos", seed=3, withdrawn_after_round=2)
    r1 = RoundFactory(tournament=t, number=1)
    m1 = MatchFactory(round=r1, table=1, team_ns=teams[0], team_ew=teams[1], pairing_note="Round 1")
    play(m1, kit(game).finishing, ref, confirmer=conf)
    sheet.recompute(MatchFactory(round=r1, table=2, team_ns=teams[2], team_ew=None))
    rounds.close_round(r1, boss)
    r2 = RoundFactory(tournament=t, number=2)
    m2 = MatchFactory(round=r2, table=1, team_ns=teams[2], team_ew=teams[0])
    play(m2, [kit(game).record], ref, end_reason="time limit")
    return t


def played_four(game: str, slug: str | None = None) -> Tournament:
    """Nine players (one substitute, one withdrawn after round 1, joining in round 1): round 1
    closed (two tables, one deal each, ended at the time limit and confirmed), round 2 in progress
    (table 1: one deal, playing; table 2: one deal, ended at the time limit, not confirmed)."""
    t = TournamentFactory(name=f"{game.title()} Open", slug=slug or f"cup-{game}", game=game, seed=7)
    boss, ref, conf = _staff(t)
    players = [PlayerFactory(tournament=t, name=f"{game[:2].upper()} {i}", affiliation="Club" if i % 2 else "") for i in range(9)]
    players[8].is_substitute = True
    players[8].save()
    players[7].withdrawn_after_round = 1
    players[7].save()
    record = kit(game).record
    r1 = RoundFactory(tournament=t, number=1)
    for k in range(2):
        table = TableFactory(round=r1, number=k + 1, players=players[4 * k: 4 * k + 4])
        play(table, [record], ref, end_reason="time limit", confirmer=conf)
    rounds.close_round(r1, boss)
    r2 = RoundFactory(tournament=t, number=2)
    seated = [players[i] for i in (0, 4, 1, 5)], [players[i] for i in (2, 6, 3, 8)]
    t1 = TableFactory(round=r2, number=1, players=seated[0])
    play(t1, [record], ref)
    t2 = TableFactory(round=r2, number=2, players=seated[1])
    play(t2, [record], ref, end_reason="time limit")
    assert Round.objects.get(pk=r2.pk).status == Round.Status.IN_PROGRESS
    return t


def played(game: str, slug: str | None = None) -> Tournament:
    """A played tournament of ``game`` (see the module)."""
    if registry.get(game).entrants == "teams":
        return played_teams(game, slug)
    return played_four(game, slug)
