"""The player side and the live public pages (issue 11 items 4-6): "find my table" by team or
player name (case and accents ignored, partial), the team page with the current table and every
match hand by hand with running totals and a chart, the four-player player page, "standings after
round N", live regions polled by htmx instead of full reloads, the projector's hidden columns,
and what the public never sees (usernames, the audit trail, raw records, blind totals)."""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Round
from scoring.policy import SYSTEM
from scoring.results import sheet
from scoring.results.lifecycle import end_at_time
from scoring.standings import standings_for
from tests.factories import (
    DOUBLE_VICTORY_NS,
    PLAIN_HAND,
    SICHUAN_SELF_DRAW,
    TAI_PAN_HAND,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    named_teams,
    play,
    played_taipan_tournament,
    staff,
)

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def hall(db):
    """A Tai Pan tournament: round 1 closed (Draken beat Jade 800 : 0 at table 1, Pagodes beat
    Zwaarden at table 2, confirmed), round 2 published: table 1 Draken (NS) - Pagodes (EW) with
    two hands entered (a plain hand NS 75 : EW 25, then N's Tai Pan made NS 175 : EW 25), table 2
    Jade - Zwaarden. Draken are "Ängela Brücke" and "Bram Jansen"."""
    t = TournamentFactory(name="NSKT 2026", slug="nskt")
    people = staff(t, referees=2)
    draken, jade, pagodes, zwaarden = named_teams(t, ["Draken", "Jade", "Pagodes", "Zwaarden"])
    draken.first_player.name, draken.second_player.name = "Ängela Brücke", "Bram Jansen"
    draken.first_player.save()
    draken.second_player.save()
    r1 = RoundFactory(tournament=t, number=1)
    for table, (ns, ew) in enumerate([(draken, jade), (pagodes, zwaarden)], start=1):
        play(MatchFactory(round=r1, table=table, team_ns=ns, team_ew=ew), [DOUBLE_VICTORY_NS] * 4,
             people["referees"][0], confirmer=people["referees"][1])
    from scoring.draw.rounds import close_round
    close_round(r1, people["organiser"])
    r2 = RoundFactory(tournament=t, number=2)
    m = MatchFactory(round=r2, table=1, team_ns=draken, team_ew=pagodes)
    play(m, [PLAIN_HAND, TAI_PAN_HAND], people["referees"][0])
    MatchFactory(round=r2, table=2, team_ns=jade, team_ew=zwaarden)
    return {"t": t, "people": people, "draken": draken, "pagodes": pagodes, "match": m, "r2": r2}


def find(client, t, q) -> str:
    return client.get(reverse("scoring:find_table", args=[t.slug]), {"q": q}).content.decode()


# --- find my table --------------------------------------------------------------------------------

def test_find_my_table_by_player_name_ignores_case_and_accents(client, hall):
    """"angela" finds "Ängela Brücke" of Draken: table 1 of round 2, team NS, her seat N marked,
    the opponents Pagodes with their players, and links to the match and the team page."""
    page = find(client, hall["t"], "  ANGELA ")
    assert "Draken" in page and "Table 1" in page and "round 2" in page
    assert re.search(r'<li class="mine"><span class="seat">N</span> Ängela Brücke', page)
    assert '<span class="seat">S</span> Bram Jansen' in page and '<li class="mine"><span class="seat">S</span>' not in page
    assert "Pagodes (Pagodes A &amp; Pagodes B)" in page
    assert reverse("scoring:match_detail", args=[hall["t"].slug, hall["match"].pk]) in page
    assert reverse("scoring:team_breakdown", args=[hall["t"].slug, hall["draken"].pk]) in page


def test_find_my_table_by_part_of_a_team_name(client, hall):
    """"agod" finds Pagodes (EW at table 1, both players marked); "brucke" finds the player by
    the surname without its umlaut; one letter is too short to search; nobody is "xyz"."""
    page = find(client, hall["t"], "agod")
    assert "Pagodes" in page and "Table 1" in page
    assert page.count('<li class="mine">') == 2
    assert '<span class="seat">E</span> Pagodes A' in page
    assert "Ängela Brücke" in find(client, hall["t"], "brucke")
    assert "at least two letters" in find(client, hall["t"], "d")
    assert "Nobody found" in find(client, hall["t"], "xyz")


def test_find_my_table_uses_the_latest_published_round_not_a_draft(client, hall):
    """A draft round 3 (organisers only) is not the players' current round."""
    r3 = RoundFactory(tournament=hall["t"], number=3, status=Round.Status.DRAFT)
    MatchFactory(round=r3, table=7, team_ns=hall["draken"], team_ew=hall["pagodes"])
    page = find(client, hall["t"], "draken")
    assert "Table 1" in page and "round 2" in page and "Table 7" not in page


def test_find_my_table_four_player_game(client):
    """Sichuan: "chloe" finds "Chloé Martin" at table 2, seat South, with the other three."""
    rnd, (_t1, table) = (lambda r: (r, [TableFactory(round=r, number=1), TableFactory(round=r, number=2, players=[
        PlayerFactory(tournament=r.tournament, name=n) for n in ("Eline", "Chloé Martin", "Bo", "Karin")])]))(
        RoundFactory(tournament=TournamentFactory(slug="mj", game="sichuan"), number=1))
    page = find(client, rnd.tournament, "CHLOE")
    assert "Table 2" in page
    assert '<li class="mine"><span class="seat">South</span> Chloé Martin' in page
    assert "Eline (East), Bo (West), Karin (North)" in page
    assert reverse("scoring:table_detail", args=["mj", table.pk]) in page
    player = rnd.tournament.players.get(name="Chloé Martin")
    assert reverse("scoring:player_page", args=["mj", player.pk]) in page


def test_tournament_home_shows_the_current_round_and_the_search(client, hall):
    page = client.get(reverse("scoring:tournament_detail", args=["nskt"])).content.decode()
    assert "Find my table" in page and 'action="/t/nskt/find/"' in page and 'hx-get="/t/nskt/find/"' in page
    assert "Tables of round 2" in page and "0 of 2 results in, 0 confirmed." in page
    assert "Standings after round 1" in page


# --- team and player pages ----------------------------------------------------------------------

def test_team_page_shows_the_current_table_and_matches_hand_by_hand(client, hall):
    """Draken: table 1 of round 2; round 1 hand by hand (four double victories of 200: running
    200, 400, 600, 800) and round 2 so far (75 then 175: running 75 and 250; Pagodes 25, 50),
    each with a chart (inline SVG, no script)."""
    t, draken = hall["t"], hall["draken"]
    response = client.get(reverse("scoring:team_breakdown", args=[t.slug, draken.pk]))
    page = response.content.decode()
    assert "Table in round 2" in page and "Table 1" in page
    matches = response.context["matches"]
    assert [(m["round"], m["opponent"]) for m in matches] == [(1, "Jade"), (2, "Pagodes")]
    assert [r["run_ours"] for r in matches[0]["records"]] == [200, 400, 600, 800]
    assert [(r["ours"], r["theirs"], r["run_ours"], r["run_theirs"]) for r in matches[1]["records"]] == [(75, 25, 75, 25), (175, 25, 250, 50)]
    assert page.count('<svg class="chart"') == 2 and "<script" not in page.split("<main>")[1]
    assert "N Tai Pan" in page  # the hand described in words, not as stored


def test_player_page_four_player(client):
    """A Sichuan player: two self-drawn wins by East (+6, others -2 each): running 6 and 12 for
    East, -2 and -4 for the others; the table of the current round; ranked once finished."""
    rnd = RoundFactory(tournament=TournamentFactory(slug="mj", game="sichuan"), number=1)
    table = TableFactory(round=rnd, number=1)
    play(table, [SICHUAN_SELF_DRAW] * 2, SYSTEM)
    east = table.seats.get(seat=0).player
    response = client.get(reverse("scoring:player_page", args=["mj", east.pk]))
    assert response.status_code == 200
    page = response.content.decode()
    assert "Table in round 1" in page and '<svg class="chart"' in page
    (t,) = response.context["tables"]
    assert [r["running"] for r in t["records"]] == [[6, -2, -2, -2], [12, -4, -4, -4]]
    assert t["mine"] == 0


def test_a_tai_pan_players_page_is_the_team_page(client, hall):
    player = hall["draken"].first_player
    response = client.get(reverse("scoring:player_page", args=["nskt", player.pk]))
    assert response.status_code == 302
    assert response["Location"] == reverse("scoring:team_breakdown", args=["nskt", hall["draken"].pk])


def test_blind_confirmation_hides_unconfirmed_totals_from_the_public(client, hall):
    """With blind confirmation the public sees neither the totals nor the hands of a result
    before it is confirmed (round page, team page); members do; confirmed results show. The
    finished result counts in no standings' sum before its confirmation
    (test_blind_unconfirmed_results_stay_out_of_the_standings_and_the_team_breakdown)."""
    t = hall["t"]
    t.blind_confirmation = True
    t.save()
    play(hall["match"], [DOUBLE_VICTORY_NS] * 3, SYSTEM)  # 250 + 600: Draken 850 : 50, finished
    round_url = reverse("scoring:round_pairings", args=[t.slug, 2])
    team_url = reverse("scoring:team_breakdown", args=[t.slug, hall["draken"].pk])
    assert "850 – 50" not in client.get(round_url).content.decode()
    page = client.get(team_url).content.decode()
    assert "850 – 50" not in page and "shown once it is confirmed" in page
    assert "round 2: 850" not in page and ">850<" not in page  # nor in the tie-break breakdown
    assert "800 – 0" in client.get(reverse("scoring:round_pairings", args=[t.slug, 1])).content.decode()
    client.force_login(hall["people"]["referees"][1])
    assert "850 – 50" in client.get(round_url).content.decode()


def test_blind_unconfirmed_results_stay_out_of_the_standings_and_the_team_breakdown(client, hall):
    """With blind confirmation a finished result counts only once it is confirmed
    (docs/tournaments.md), on every page that shows the standings: Draken's round 2 (850 : 50,
    not confirmed) is left out of the standings page, the projector, the CSV export and the team
    page's breakdown, whose every sum equals the rows it shows (round 1 only: 800 : 0); the team
    page says round 2 counts once confirmed. After the confirmation everything counts: 2 + 2
    match points, 800 + 850 = 1650 points scored, 800 + 800 = 1600 point difference."""
    t = hall["t"]
    t.blind_confirmation = True
    t.save()
    m = play(hall["match"], [DOUBLE_VICTORY_NS] * 3, SYSTEM)  # 75 + 175 + 600 = 850 : 25 + 25 = 50
    assert (m.total_ns, m.total_ew) == (850, 50)
    standings_url = reverse("scoring:standings", args=[t.slug])
    team_url = reverse("scoring:team_breakdown", args=[t.slug, hall["draken"].pk])
    export_url = reverse("scoring:standings_export", args=[t.slug]) + "?format=csv"

    def draken_row():
        return next(r for r in standings_for(t) if r.name == "Draken")

    for who in (None, hall["people"]["referees"][1]):  # the same standings for everyone
        if who is not None:
            client.force_login(who)
        row = draken_row()
        assert (row.match_points, row.played, row.points_scored, row.point_difference) == (2, 1, 800, 800)
        response = client.get(standings_url)
        assert response.context["after"] == {"round": 1, "provisional": False}
        assert "1650" not in response.content.decode()
        assert "1650" not in client.get(standings_url + "?projector=1").content.decode()
        csv = client.get(export_url).content.decode()
        assert "1650" not in csv and "850" not in csv
        page = client.get(team_url).content.decode()
        assert "round 1: 800 = 800" in page and "round 2:" not in page and "1650" not in page
        assert "Round 2 is finished; it counts once its result is confirmed." in page
    m.refresh_from_db()
    sheet.confirm(m, hall["people"]["referees"][1], expected_version=m.version, totals=[850, 50])
    row = draken_row()
    assert (row.match_points, row.played, row.points_scored, row.point_difference) == (4, 2, 1650, 1600)
    client.logout()
    response = client.get(standings_url)
    assert response.context["after"] == {"round": 2, "provisional": True} and "1650" in response.content.decode()
    page = client.get(team_url).content.decode()
    assert "round 1: 800 + round 2: 850 = 1650" in page and "counts once its result is confirmed" not in page


def test_public_pages_show_no_usernames_audit_or_raw_records(client, hall):
    """Every public page of a played tournament, anonymous: no member's username, no history,
    no stored record (JSON keys such as "first_out" or "card_points")."""
    t = hall["t"]
    people = hall["people"]
    names = [u.get_username() for u in [people["organiser"], *people["referees"]]]
    urls = [reverse("scoring:tournament_detail", args=[t.slug]), reverse("scoring:standings", args=[t.slug]),
            reverse("scoring:standings", args=[t.slug]) + "?projector=1",
            reverse("scoring:round_pairings", args=[t.slug, 1]), reverse("scoring:round_pairings", args=[t.slug, 2]),
            reverse("scoring:team_breakdown", args=[t.slug, hall["draken"].pk]),
            reverse("scoring:match_detail", args=[t.slug, hall["match"].pk]),
            reverse("scoring:find_table", args=[t.slug]) + "?q=draken"]
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, url
        page = response.content.decode()
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b", page), (url, name)
        assert "first_out" not in page and "card_points" not in page and "History" not in page, url


# --- live pages, "standings after round N", projector columns ------------------------------------

def test_live_pages_poll_their_own_url_instead_of_reloading(client, hall, settings):
    """Standings and round pages: no ``<meta refresh>``; the live region polls the page's URL
    every ``LIVE_POLL_SECONDS`` and swaps only itself (``hx-select``)."""
    settings.LIVE_POLL_SECONDS = 7
    for url in (reverse("scoring:standings", args=["nskt"]), reverse("scoring:round_pairings", args=["nskt", 2])):
        for query in ("", "?projector=1"):
            page = client.get(url + query).content.decode()
            assert '<meta http-equiv="refresh"' not in page.replace("<noscript><meta http-equiv", "")
            own = re.escape(url + query)
            assert re.search(rf'<div id="live"[^>]*hx-get="{own}"[^>]*hx-trigger="live-refresh"[^>]*data-live-poll="7"[^>]*hx-select="#live"', page)


def test_standings_say_after_which_round_they_stand(client, hall):
    """Round 1 closed and confirmed; round 2 has an unfinished match only (nothing counted):
    "after round 1", final. Finishing Draken - Pagodes counts round 2, provisional until it is
    confirmed (and table 2 is not even finished)."""
    url = reverse("scoring:standings", args=["nskt"])
    response = client.get(url)
    assert response.context["after"] == {"round": 1, "provisional": False}
    assert "Standings after round 1" in response.content.decode()
    play(hall["match"], [DOUBLE_VICTORY_NS] * 3, SYSTEM)
    response = client.get(url)
    assert response.context["after"] == {"round": 2, "provisional": True}
    assert "Standings after round 2" in response.content.decode() and "provisional" in response.content.decode()
    assert client.get(url + "?round=1").context["after"] == {"round": 1, "provisional": False}


def test_projector_hides_players_and_all_zero_tiebreak_columns(client):
    """Every match 800 : 300 in round 1 of 4 teams: head-to-head is 0 for everyone (no tied team
    met another), so its column is left out of the projector, as are the players; the page keeps
    both."""
    t = played_taipan_tournament(4, 1, slug="p", tiebreaks=["point_difference", "buchholz", "points_scored", "head_to_head"])
    url = reverse("scoring:standings", args=[t.slug])
    keys = [c.key for c in client.get(url).context["table"].columns]
    assert "players" in keys and "tb_head_to_head" in keys
    keys = [c.key for c in client.get(url + "?projector=1").context["table"].columns]
    assert "players" not in keys and "tb_head_to_head" not in keys
    assert {"rank", "name", "match_points", "point_difference", "points_scored"} <= set(keys)


def test_round_page_heads_the_sides(client, hall):
    """The side headings come from the adapter ("Team NS", "Team EW"; four-player: the seats),
    an unplayed table links with the result noun."""
    page = client.get(reverse("scoring:round_pairings", args=["nskt", 2])).content.decode()
    assert '<th scope="col">Team NS</th><th scope="col">Team EW</th>' in page
    assert ">Match</a>" in page


def test_four_player_round_page_shows_each_seats_total_beside_the_player(client):
    """A Sichuan table with one self-drawn win by East (+6, the others -2), ended at the time
    limit: each seat's total stands beside its player (not as one line of four numbers). While a
    table is played the round page says so and keeps no running score (issue 25: the round page
    changes only when a table's state does; the running score is on its own page)."""
    rnd = RoundFactory(tournament=TournamentFactory(slug="mj", game="sichuan"), number=1)
    table = TableFactory(round=rnd, number=1)
    play(table, [SICHUAN_SELF_DRAW], SYSTEM)
    playing = client.get(reverse("scoring:round_pairings", args=["mj", 1])).content.decode()
    assert 'class="seat-total"' not in playing
    table.refresh_from_db()
    end_at_time(table, SYSTEM, reason="time limit")
    east = table.seats.get(seat=0).player.name
    page = client.get(reverse("scoring:round_pairings", args=["mj", 1])).content.decode()
    assert re.search(rf'<strong class="who">{east}</strong> <span class="seat-total">6</span>', page)
    assert page.count('<span class="seat-total">-2</span>') == 3
    assert "6 / -2" not in page


def test_find_my_table_for_a_team_with_the_bye(client):
    """A team with the bye in the current round is told so (no table, a win without playing)."""
    t = TournamentFactory(slug="odd")
    lonely, a, b = named_teams(t, ["Eenling", "Alfa", "Beta"])
    rnd = RoundFactory(tournament=t, number=1)
    MatchFactory(round=rnd, table=1, team_ns=a, team_ew=b)
    MatchFactory(round=rnd, table=2, team_ns=lonely, team_ew=None)
    page = find(client, t, "eenling")
    assert "Round 1: a bye (a win without playing)." in page
    team_page = client.get(reverse("scoring:team_breakdown", args=["odd", lonely.pk])).content.decode()
    assert "Round 1: a bye (a win without playing)." in team_page


def test_team_and_find_pages_take_a_fixed_number_of_queries(client):
    """The team page and "find my table" read a fixed number of queries, whatever the number of
    rounds and teams."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    counts = []
    for slug, teams, rounds in (("small", 6, 2), ("large", 40, 5)):
        t = played_taipan_tournament(teams, rounds, slug=slug)
        team = t.teams.order_by("name").first()
        for url in (reverse("scoring:team_breakdown", args=[slug, team.pk]), reverse("scoring:find_table", args=[slug]) + "?q=team"):
            with CaptureQueriesContext(connection) as ctx:
                assert client.get(url).status_code == 200
            counts.append(len(ctx.captured_queries))
    assert counts[:2] == counts[2:]
    assert max(counts) <= 12
