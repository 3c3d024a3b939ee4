"""The public profile page ``/people/<pk>/`` (issue 26 item 2): tournaments, results, ranks,
statistics and charts; privacy; blind confirmation; links from the tournament pages; a fixed
number of queries."""
from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.profiles.load import profile
from scoring.standings import standings_for
from tests.factories import PersonFactory
from tests.profiles.conftest import sichuan_entry, taipan_entry

pytestmark = pytest.mark.django_db


def _url(person):
    return reverse("scoring:person_profile", args=[person.pk])


def test_profile_lists_tournaments_results_and_statistics(client):
    anna = PersonFactory(name="Anna de Vries")
    t1, match, _staff = taipan_entry(anna, n=1)
    t2, table, _staff2 = sichuan_entry(anna, n=2)
    data = profile(anna)
    assert [e.tournament for e in data.entries] == [t1, t2]
    tp, sc = data.entries
    # Tai Pan: 800 - 0 won, rank 1 of 2 with 2 match points, partner by public name, seat N.
    assert (tp.team.name, tp.partner, tp.rank, tp.points) == ("Slagen", "Bart Jansen", 1, 2)
    (line,) = tp.results
    assert (line.round, line.table, line.seat, line.score, line.outcome) == (1, 1, "N", [800, 0], "win")
    assert line.opponents == ["Jade (Cees Smit & Dirk de Wit)"]
    assert line.url == reverse("scoring:match_detail", args=[t1.slug, match.pk])
    # Sichuan: East +6, the others -2: 1st place, rank 1, total 6.
    assert (sc.rank, sc.points) == (1, 6)
    assert (sc.results[0].score, sc.results[0].mine, sc.results[0].outcome) == ([6, -2, -2, -2], 0, "1")
    stats = {g.key: g.statistics.as_dict() for g in data.games}
    # Two hands, both N's Grand Tai Pan made (N first out) with a double victory; no card points.
    assert stats["taipan"] == {"hands": 2, "tai_pan_calls": 0, "tai_pan_made": 0, "grand_tai_pan_calls": 2,
                               "grand_tai_pan_made": 2, "double_victories": 2, "average_card_points": None,
                               "matches": 1, "match_points": 2}
    assert stats["sichuan"]["wins_self_drawn"] == 1 and stats["sichuan"]["place_1"] == 1
    r = client.get(_url(anna))
    assert r.status_code == 200
    html = r.content.decode()
    assert "Anna de Vries" in html and "Cup 1" in html and "Sichuan 2" in html
    assert reverse("scoring:match_detail", args=[t1.slug, match.pk]) in html
    assert reverse("scoring:table_detail", args=[t2.slug, table.pk]) in html
    # Charts: inline SVG with a title and a description, no script.
    assert html.count("<svg class=\"chart bars\"") >= 3 and "<title id=" in html and "<desc id=" in html
    assert "<script" not in html.split("<main", 1)[-1]


def test_ranks_are_the_standings_ranks():
    anna = PersonFactory(name="Anna")
    t, _m, _s = taipan_entry(anna)
    rows = standings_for(t)
    mine = next(r for r in rows if r.name == "Slagen")
    assert profile(anna).entries[0].rank == mine.rank == 1


def test_a_short_public_name_wins_everywhere(client):
    anna = PersonFactory(name="Anna de Vries")
    taipan_entry(anna, n=1)
    taipan_entry(anna, n=2, public_names="short")
    data = profile(anna)
    assert data.name == "Anna V."
    assert data.entries[1].partner == "Bart J." and data.entries[1].results[0].opponents == ["Jade (Cees S. & Dirk W.)"]
    html = client.get(_url(anna)).content.decode()
    assert "Anna de Vries" not in html and "Anna V." in html


def test_blind_confirmation_hides_an_unconfirmed_result():
    anna = PersonFactory(name="Anna")
    taipan_entry(anna, confirm=False, blind_confirmation=True)
    data = profile(anna)
    (line,) = data.entries[0].results
    assert line.hidden and line.score == [] and line.outcome == ""
    assert data.games[0].statistics.as_dict()["hands"] == 0


def test_team_and_player_pages_link_to_the_profiles(client):
    anna = PersonFactory(name="Anna")
    t, match, _s = taipan_entry(anna)
    html = client.get(reverse("scoring:team_breakdown", args=[t.slug, match.team_ns_id])).content.decode()
    assert _url(anna) in html and reverse("scoring:person_profile", args=[match.team_ns.second_player.person_id]) in html
    bart = PersonFactory(name="Bart")
    t2, table, _s2 = sichuan_entry(bart)
    me = table.seats.get(seat=0).player
    html = client.get(reverse("scoring:player_page", args=[t2.slug, me.pk])).content.decode()
    assert _url(bart) in html


def test_unknown_person_is_404(client):
    assert client.get("/people/999999/").status_code == 404


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_queries_do_not_grow_with_tournaments(client):
    """One tournament of each game against five of each: the same number of queries."""
    one, five = PersonFactory(name="One"), PersonFactory(name="Five")
    taipan_entry(one, n=100)
    sichuan_entry(one, n=100)
    for n in range(5):
        taipan_entry(five, n=n)
        sichuan_entry(five, n=n)
    assert len(profile(five).entries) == 10
    assert _count(client, _url(one)) == _count(client, _url(five))

