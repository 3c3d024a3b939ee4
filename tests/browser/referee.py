"""Helpers of the referee browser tests: a small Tai Pan or four-player tournament with named
teams/players, a published round and its referees, and a click counter."""
from __future__ import annotations

from scoring.models import Membership, Round
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    named_teams,
)


def taipan_world(*, blind: bool = False, tables: int = 2):
    """A Tai Pan tournament "NSKT Studenten 2026" (slug ``nskt``), round 1 published, ``tables``
    matches between named teams, a referee ``scheids``, a second referee ``scheids2`` and an
    organiser ``org``."""
    t = TournamentFactory(name="NSKT Studenten 2026", slug="nskt", blind_confirmation=blind)
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    names = ["De Draken", "Feniksen Utrecht", "Groningen Bommen", "Hond & Mahjong", "Leidse Straten", "Tilburg Trappen"]
    teams = named_teams(t, names[: 2 * tables])
    matches = [MatchFactory(round=rnd, table=i + 1, team_ns=teams[2 * i], team_ew=teams[2 * i + 1]) for i in range(tables)]
    people = {
        "referee": MembershipFactory(tournament=t, user=UserFactory(username="scheids")).user,
        "referee2": MembershipFactory(tournament=t, user=UserFactory(username="scheids2")).user,
        "organiser": MembershipFactory(tournament=t, user=UserFactory(username="org"), role=Membership.Role.ORGANISER).user,
    }
    return t, rnd, matches, people


def table_world(game: str, entry_mode: str = "full"):
    """A four-player tournament of ``game`` (slug = the game), round 1 published with one table
    of named players, and a referee ``scheids``. ``entry_mode``: full (the tile picker tests) or
    quick (tests/browser/test_quick_entry.py)."""
    t = TournamentFactory(name=f"Open {game}", slug=game, game=game, entry_mode=entry_mode)
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    players = [PlayerFactory(tournament=t, name=n) for n in ("Anna de Vries", "Bram Jansen", "Chen Wei", "Dewi Pranata")]
    table = TableFactory(round=rnd, number=1, players=players)
    referee = MembershipFactory(tournament=t, user=UserFactory(username="scheids")).user
    return t, rnd, table, referee


class Clicks:
    """Counts the taps a test makes (every ``click`` through it)."""

    def __init__(self, page):
        self.page = page
        self.count = 0

    def __call__(self, selector: str, **kwargs) -> None:
        self.page.click(selector, **kwargs)
        self.count += 1

    def reset(self) -> None:
        self.count = 0
