"""The worked example of ``docs/api.md`` (``docs/examples/api_example.py``) run as a program
against Django's live server: it reads the standings and enters a hand with a referee's token;
with an outsider's token the API refuses and the script says why."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from scoring.models import Hand, Membership
from tests.api.conftest import issue_token
from tests.factories import (
    GRAND_DOUBLE_VICTORY_NS,
    MatchFactory,
    MembershipFactory,
    RoundFactory,
    TournamentFactory,
    UserFactory,
    named_teams,
    play,
)

pytestmark = pytest.mark.django_db(transaction=True)
SCRIPT = Path(__file__).resolve().parents[2] / "docs" / "examples" / "api_example.py"


@pytest.fixture
def cup():
    t = TournamentFactory(name="Example Cup", slug="example-cup")
    anna, bart, cees, dirk = named_teams(t, ["Anna", "Bart", "Cees", "Dirk"])
    referee = MembershipFactory(tournament=t, role=Membership.Role.REFEREE).user
    rnd = RoundFactory(tournament=t, number=1)
    won = MatchFactory(round=rnd, table=1, team_ns=anna, team_ew=bart)
    open_match = MatchFactory(round=rnd, table=2, team_ns=cees, team_ew=dirk)
    play(won, [GRAND_DOUBLE_VICTORY_NS] * 2, referee)  # Anna wins 800 : 0 (NSKT target)
    return {"referee": referee, "open": open_match}


def run(base: str, token: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, str(SCRIPT), "--base", base, "--tournament", "example-cup", "--token", token],
                          capture_output=True, text=True, timeout=120)


def test_the_example_reads_the_standings_and_enters_a_hand(live_server, cup):
    token = issue_token(cup["referee"])
    proc = run(live_server.url, token.key)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.splitlines()
    assert lines[0].split() == ["Rank", "Team", "MP", "point_difference", "buchholz", "points_scored", "head_to_head"]
    assert lines[1].split()[:4] == ["1", "Anna", "2", "800"]
    assert "Table 2: Cees - Dirk, totals 0 : 0" in proc.stdout
    assert "Hand 1 entered: 75 : 25; totals now 75 : 25 (version 1, playing)" in proc.stdout
    hand = Hand.objects.get(match=cup["open"])
    assert (hand.ns, hand.ew, hand.entered_by) == (75, 25, cup["referee"])


def test_the_example_reports_a_refusal(live_server, cup):
    token = issue_token(UserFactory())
    proc = run(live_server.url, token.key)
    assert proc.returncode == 1
    assert "Refused (403 permission_denied):" in proc.stdout
    assert not Hand.objects.filter(match=cup["open"]).exists()
