"""Public pages (no login): tournament overview, round pairings (drafts hidden), standings with
tie-breaks and shared ranks, projector view, team breakdown, CSV/XLSX exports, and fixed query
counts on the list pages (issue 2 items 7 and acceptance, issue 4 items 5 and 6). Public pages
are read-only: they refuse POST with 405."""
from __future__ import annotations

import csv
import io

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.models import Match, Membership, Round
from scoring.policy import SYSTEM
from scoring.results import sheet
from scoring.web import urls_public
from tests.factories import (
    DOUBLE_VICTORY_NS,
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
    played_taipan_tournament,
    staff,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

ALL_TIEBREAKS = ("point_difference", "buchholz", "points_scored", "head_to_head")


def build_tournament(n_teams: int, n_rounds: int, *, slug: str = "t", status=Round.Status.CLOSED, tiebreaks=ALL_TIEBREAKS):
    """``n_teams`` teams, ``n_rounds`` rounds by the circle method, every match NS 800 - EW 300
    (NS wins, match points 2 - 0): :func:`tests.factories.played_taipan_tournament`."""
    return played_taipan_tournament(n_teams, n_rounds, status=status, slug=slug, name=f"Tournament {slug}",
                                    rules={"preset": "nskt"}, tiebreaks=list(tiebreaks))


def count_queries(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        response = client.get(url)
    assert response.status_code == 200, response.content[:500]
    return len(ctx.captured_queries)


# --- read-only ----------------------------------------------------------------------------------

def _public_urls(t) -> list[tuple[str, str]]:
    team = t.teams.order_by("name").first()
    match = Match.objects.filter(round__tournament=t).order_by("pk").first()
    values = {"slug": t.slug, "number": 1, "pk": match.pk, "task_id": 1, "game": "taipan"}
    out = []
    for pattern in urls_public.urlpatterns:
        kwargs = {k: values[k] for k in pattern.pattern.regex.groupindex}
        if pattern.name == "team_breakdown":
            kwargs["pk"] = team.pk
        out.append((pattern.name, reverse(f"scoring:{pattern.name}", kwargs=kwargs)))
    return out


def test_public_pages_refuse_post(client):
    """Every URL of the public module answers POST with 405, logged in or not, and writes
    nothing."""
    t = build_tournament(4, 1)
    people = staff(t)
    before = list(Match.objects.order_by("pk").values())
    for user in (None, people["organiser"], people["referee"]):
        client.logout()
        if user:
            client.force_login(user)
        for name, url in _public_urls(t):
            assert client.post(url, {"name": "x", "version": "0"}).status_code == 405, name
    assert list(Match.objects.order_by("pk").values()) == before


def test_rules_check_page_answers_for_its_game(client):
    """The rules check URL takes the game (``/rules/taipan/``): the page and its form point back
    to that URL (was a server error: the template reversed the URL without the game)."""
    url = reverse("scoring:rules_check", args=["taipan"])
    response = client.get(url)
    assert response.status_code == 200
    assert f'action="{url}"' in response.content.decode()
    assert client.get(reverse("scoring:rules_check", args=["chess"])).status_code == 404


# --- overview and pairings ------------------------------------------------------------------------

def test_detail_lists_published_rounds_only(client):
    t = build_tournament(4, 2)
    Round.objects.create(tournament=t, number=3, status=Round.Status.DRAFT)
    page = client.get(reverse("scoring:tournament_detail", args=[t.slug])).content.decode()
    assert reverse("scoring:round_pairings", args=[t.slug, 2]) in page
    assert reverse("scoring:round_pairings", args=[t.slug, 3]) not in page


def test_draft_round_is_hidden_from_public_and_referees(client):
    t = build_tournament(4, 1, status=Round.Status.DRAFT)
    url = reverse("scoring:round_pairings", args=[t.slug, 1])
    assert client.get(url).status_code == 404
    referee = MembershipFactory(tournament=t, role=Membership.Role.REFEREE).user
    client.force_login(referee)
    assert client.get(url).status_code == 404
    assert client.get(reverse("scoring:pairings_export", args=[t.slug, 1])).status_code == 404
    organiser = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER).user
    client.force_login(organiser)
    response = client.get(url)
    assert response.status_code == 200
    assert "Team 000" in response.content.decode()


def test_pairings_page_shows_tables_teams_players_and_reasons(client):
    t = build_tournament(4, 1)
    rnd = t.rounds.get()
    bye_team = TeamFactory(tournament=t, name="Lonely", first_player=PlayerFactory(tournament=t, name="Lo"),
                           second_player=PlayerFactory(tournament=t, name="Ne"))
    Match.objects.create(round=rnd, table=3, team_ns=bye_team, team_ew=None, pairing_note="Bye (odd number of teams)",
                         pairing_reason={"template": "Bye (odd number of teams)", "params": {}}, status=Match.Status.CONFIRMED)
    Match.objects.filter(round=rnd, table=2).update(pairing_reason={
        "template": "{team} floated down from {high} to {low} match points", "params": {"team": "Team 001", "high": 2, "low": 0}})
    page = client.get(reverse("scoring:round_pairings", args=[t.slug, 1])).content.decode()
    # circle method, round 0 of 4 teams: (0, 3) at table 1, (1, 2) at table 2
    assert page.index("Team 000") < page.index("Team 003") < page.index("Team 001") < page.index("Team 002") < page.index("Lonely")
    assert "Player 000 &amp; Player 001" in page
    assert "Same score group (0 match points)" in page
    assert "Team 001 floated down from 2 to 0 match points" in page and "Bye (odd number of teams)" in page
    assert "800 – 300" in page


def test_pairings_page_queries_do_not_grow_with_tables(client):
    small = build_tournament(4, 1, slug="small")
    large = build_tournament(60, 1, slug="large")
    n_small = count_queries(client, reverse("scoring:round_pairings", args=[small.slug, 1]))
    n_large = count_queries(client, reverse("scoring:round_pairings", args=[large.slug, 1]))
    assert n_small == n_large
    assert n_large <= 5


def test_projector_pairings_view(client):
    """Changed on purpose (issue 11 item 6): the projector view pages through the tables in the
    browser (``static/js/projector.js``); only without JavaScript does a ``<noscript>`` refresh
    cycle through the server's screens (one screen here: back to the first). No pairing reasons."""
    t = build_tournament(4, 1)
    page = client.get(reverse("scoring:round_pairings", args=[t.slug, 1]) + "?projector=1").content.decode()
    assert 'class="projector"' in page and "js/projector.js" in page
    assert '<noscript><meta http-equiv="refresh" content="20;url=?projector=1&amp;page=1"></noscript>' in page
    assert "Same score group" not in page


# --- standings ------------------------------------------------------------------------------------

def test_standings_page_query_count_is_fixed_for_100_teams_after_5_rounds(client, django_assert_num_queries):
    """The full table (``?all=1``; changed on purpose, issue 25: a request without a client
    hint gets the phone's compact view, tests/web/test_standings_views.py)."""
    small = build_tournament(10, 5, slug="small")
    big = build_tournament(100, 5, slug="big")
    expected = count_queries(client, reverse("scoring:standings", args=[small.slug]) + "?all=1")
    with django_assert_num_queries(expected):
        response = client.get(reverse("scoring:standings", args=[big.slug]) + "?all=1")
    assert response.status_code == 200
    page = response.content.decode()
    assert page.count('href="/t/big/team/') == 100
    assert expected <= 10


def test_standings_shared_rank_and_tiebreak_order_printed(client):
    """4 teams, 1 round, both tables 800 - 300: the two winners are equal on everything (match
    points 2, point difference +500, points scored 800, Buchholz 0 as both opponents have 0) and
    share rank 1; the two losers share rank 3 (docs/tournaments.md: tied teams share a rank)."""
    t = build_tournament(4, 1, tiebreaks=("point_difference", "buchholz", "points_scored"))
    response = client.get(reverse("scoring:standings", args=[t.slug]))
    table = response.context["table"]
    ranks = {row.record.name: row.record.rank for row in table.rows}
    assert ranks == {"Team 000": 1, "Team 001": 1, "Team 002": 3, "Team 003": 3}
    rows = {row.record.name: row.record for row in table.rows}
    assert rows["Team 000"].match_points == 2 and rows["Team 003"].match_points == 0
    assert rows["Team 000"].point_difference == 500 and rows["Team 003"].point_difference == -500
    assert rows["Team 000"].points_scored == 800 and rows["Team 003"].points_scored == 300
    page = response.content.decode()
    ranking = page[page.index('class="ranking-rules"'):]
    assert ranking.index("Point difference") < ranking.index("Buchholz") < ranking.index("Points scored")
    headers = [str(c.header) for c in table.columns]
    assert headers[:11] == ["Rank", "Team", "Players", "Played", "Won", "Drawn", "Lost", "Match points",
                            "Point difference", "Points scored", "Buchholz"]


def on_screen(response) -> list:
    """The rows of a projector page shown without JavaScript (the others are marked ``off``)."""
    return [row for row in response.context["table"].rows if not row.off]


def test_standings_projector_view_cycles_through_screens(client):
    """Changed on purpose (issue 11 item 6): every row is sent and the browser shows as many as
    fit the screen, cycling (``static/js/projector.js``; the browser tests check the fit). Without
    JavaScript the server's screens hold 12 rows: 50 teams make 5 screens (12, 12, 12, 12, 2
    rows); a ``<noscript>`` refresh goes to the next one after 20 s, the last back to the first."""
    t = build_tournament(50, 1)
    url = reverse("scoring:standings", args=[t.slug])
    response = client.get(url + "?projector=1")
    page = response.content.decode()
    assert 'class="projector"' in page and "js/projector.js" in page
    assert '<noscript><meta http-equiv="refresh" content="20;url=?projector=1&amp;page=2"></noscript>' in page
    assert len(response.context["table"].rows) == 50
    assert len(on_screen(response)) == 12
    response = client.get(url + "?projector=1&page=5")
    assert len(on_screen(response)) == 2
    assert 'content="20;url=?projector=1&amp;page=1"' in response.content.decode()
    ranks = [row.record.rank for row in on_screen(response)]
    assert ranks == sorted(ranks) and ranks[0] > 1  # the bottom of the table, ranks kept
    response = client.get(url + "?projector=1&rows=100")
    assert len(on_screen(response)) == 50


def test_standings_after_a_given_round(client):
    """Circle method, NS always wins 800-300: after round 1 Team 000 has 2 match points, after
    round 2 it has 4 (it is NS in both rounds)."""
    t = build_tournament(4, 2)
    url = reverse("scoring:standings", args=[t.slug])
    rows = {r.record.name: r.record for r in client.get(url + "?round=1").context["table"].rows}
    assert rows["Team 000"].match_points == 2 and rows["Team 000"].played == 1
    rows = {r.record.name: r.record for r in client.get(url).context["table"].rows}
    assert rows["Team 000"].match_points == 4 and rows["Team 000"].played == 2


def test_four_player_standings_are_the_same_page_under_both_urls(client):
    """Changed on purpose: ``standings`` and ``player_standings`` are one page; for a four-player
    tournament the standings URL shows the players' standings (was: a redirect)."""
    t = TournamentFactory(name="Mahjong", slug="mj", game="sichuan")
    PlayerFactory(tournament=t, name="Mei")
    for name in ("standings", "player_standings"):
        response = client.get(reverse(f"scoring:{name}", args=[t.slug]))
        assert response.status_code == 200, name
        assert [row.record.name for row in response.context["table"].rows] == ["Mei"]
    assert client.get(reverse("scoring:tournament_detail", args=[t.slug])).status_code == 200


def test_team_breakdown_page(client):
    t = build_tournament(4, 2)
    team = t.teams.get(name="Team 000")
    response = client.get(reverse("scoring:team_breakdown", args=[t.slug, team.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    # Circle method: round 1 pairs 0-3 and 1-2, round 2 pairs 0-1 and 2-3; NS (first) always wins
    # 800-300. Team 000 beat Team 003 (0 match points) and Team 001 (2: it beat Team 002):
    # point difference 500 + 500 = 1000, Buchholz 0 + 2 = 2, points scored 800 + 800 = 1600.
    assert "Team 003" in page and "Team 001" in page
    assert "round 1: 500 + round 2: 500 = 1000" in page
    assert "round 1: 0 + round 2: 2 = 2" in page
    assert "round 1: 800 + round 2: 800 = 1600" in page
    breakdown = response.context["breakdown"]
    assert [(g["round"], g["opponent"], g["outcome"]) for g in breakdown["rounds"]] == [(1, "Team 003", "win"), (2, "Team 001", "win")]
    other = build_tournament(4, 1, slug="other")
    assert client.get(reverse("scoring:team_breakdown", args=[other.slug, team.pk])).status_code == 404


# --- exports --------------------------------------------------------------------------------------

def test_standings_export_csv_and_xlsx(client):
    t = build_tournament(4, 1)
    response = client.get(reverse("scoring:standings_export", args=[t.slug]) + "?format=csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 5  # header + 4 teams
    assert {"Team 000", "Team 001", "Team 002", "Team 003"} <= {cell for row in rows[1:] for cell in row}
    response = client.get(reverse("scoring:standings_export", args=[t.slug]) + "?format=xlsx")
    assert response.status_code == 200
    assert response.content[:2] == b"PK"  # a zip container
    assert client.get(reverse("scoring:standings_export", args=[t.slug]) + "?format=exe").status_code == 404


def test_pairings_export_csv_and_xlsx(client):
    t = build_tournament(6, 1)
    url = reverse("scoring:pairings_export", args=[t.slug, 1])
    response = client.get(url + "?format=csv")
    assert response.status_code == 200
    rows = list(csv.reader(io.StringIO(response.content.decode("utf-8-sig"))))
    assert len(rows) == 4  # header + 3 tables
    response = client.get(url + "?format=xlsx")
    assert response.content[:2] == b"PK"


def test_standings_cache_follows_every_result_change(client):
    """The standings are cached on a key of the results' state (``scoring/standings/cache.py``;
    replaces the standings signals and fingerprint): served from the cache while nothing
    changes, and a result corrected through the result sheet shows at once.

    Round 1 of 4 teams: 0-3 and 1-2, NS wins both with four double victories (800 : 0). Team 000
    is ahead of Team 003; after match 1 is reopened and its hands are corrected to four double
    victories of EW, Team 003 (800 : 0) is ahead of Team 000."""
    t = TournamentFactory(slug="cache", tiebreaks=list(ALL_TIEBREAKS))
    teams = [TeamFactory(tournament=t, name=f"Team 00{i}") for i in range(4)]
    rnd = RoundFactory(tournament=t, number=1)
    m1 = MatchFactory(round=rnd, table=1, team_ns=teams[0], team_ew=teams[3])
    m2 = MatchFactory(round=rnd, table=2, team_ns=teams[1], team_ew=teams[2])
    confirmer = MembershipFactory(tournament=t).user
    for m in (m1, m2):
        for _ in range(4):
            sheet.add_record(m, DOUBLE_VICTORY_NS, SYSTEM, expected_version=m.version)
        sheet.confirm(m, confirmer, expected_version=m.version)
    url = reverse("scoring:standings", args=[t.slug])
    page = client.get(url).content.decode()
    assert page.index("Team 000") < page.index("Team 003")
    table = page[page.index('<table class="standings'):page.index("</table>")]
    with CaptureQueriesContext(connection) as ctx:
        assert table in client.get(url).content.decode()  # served from the cache, same table
    assert not any("scoring_match" in q["sql"] and "total_ns" in q["sql"] for q in ctx.captured_queries)
    sheet.reopen(m1, SYSTEM, "hands entered for the wrong side", expected_version=m1.version)
    dv_ew = {**DOUBLE_VICTORY_NS, "first_out": "E", "double_victory": "EW"}
    for number in range(1, 5):
        sheet.edit_record(m1, number, dv_ew, SYSTEM, expected_version=m1.version, reason="wrong side")
    page = client.get(url).content.decode()
    assert page.index("Team 003") < page.index("Team 000")


def test_pages_of_a_user_without_a_role_are_the_public_ones(client):
    """A logged-in user without a role sees what the public sees (no organiser section)."""
    t = build_tournament(4, 1)
    client.force_login(UserFactory())
    page = client.get(reverse("scoring:tournament_detail", args=[t.slug])).content.decode()
    assert reverse("scoring:members", args=[t.slug]) not in page
