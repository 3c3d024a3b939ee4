"""Placement points on the pages, exports, API and JSON (issue 24 items 2 and 5): the tournament
form stores a preset or custom values (only for four-player games); the standings and projector
show placement points; the player page lists per round the table, seat, table total, place,
placement points and running placement points and explains every tie-break; CSV and the REST API
carry the column; the JSON file round-trips the setting. Values of tests/standings/placement_world
(EMA table points 4/2/1/0, ties share)."""
import csv
import io
import json

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.io.tournament_json import ImportRefused, export_tournament, load_tournament
from scoring.models import Membership, Tournament
from scoring.printing.standings import standings_pdf
from tests.factories import MembershipFactory, PlayerFactory, TournamentFactory
from tests.standings.placement_world import ema_eight

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def form(**extra):
    data = {"name": "Mahjong Open", "slug": "mj-open", "game": "sichuan", "rules_preset": "", "rules_overrides": "",
            "round_format": "fixed_hands", "hands_per_round": "8", "seed": "1", "venue": "", "starts_on": ""}
    data.update(extra)
    return data


def test_the_form_stores_a_preset_or_custom_values_only_for_four_player_games(client):
    t = TournamentFactory(game="sichuan", slug="mj-open")
    organiser = MembershipFactory(tournament=t, role=Membership.Role.ORGANISER).user
    client.force_login(organiser)
    url = reverse("scoring:tournament_edit", args=[t.slug])
    page = client.get(url).content.decode()
    assert 'id="fs-placement"' in page and "EMA table points 4 / 2 / 1 / 0" in page
    assert client.post(url, form(placement_preset="ema")).status_code == 302
    t.refresh_from_db()
    assert t.placement == {"preset": "ema"}
    client.post(url, form(placement_preset="custom", placement_uma="30, 10, -10.5, -29.5", placement_oka="8",
                          placement_ties="seat"))
    t.refresh_from_db()
    assert t.placement == {"preset": "custom", "uma": [30, 10, "-10.5", "-29.5"], "oka": 8, "ties": "seat"}
    response = client.post(url, form(placement_preset="custom", placement_uma="a, b, c, d", placement_oka="-3"))
    errors = response.context["form"].errors
    assert response.status_code == 200 and len(errors["placement_uma"]) == 1  # once, however many values are wrong
    assert errors["placement_uma"][0].startswith("Give four numbers between -1000 and 1000")
    assert errors["placement_oka"] == ["Give a number from 0 to 1000 (0: no oka)."]  # a pot is never negative
    t.refresh_from_db()
    assert t.placement["uma"] == [30, 10, "-10.5", "-29.5"]  # unchanged
    taipan = TournamentFactory(game="taipan", slug="tp-open")
    client.force_login(MembershipFactory(tournament=taipan, role=Membership.Role.ORGANISER).user)
    turl = reverse("scoring:tournament_edit", args=[taipan.slug])
    assert 'id="fs-placement"' not in client.get(turl).content.decode()
    client.post(turl, form(slug="tp-open", game="taipan", placement_preset="ema", tiebreak_1="point_difference"))
    taipan.refresh_from_db()
    assert taipan.placement == {}


def test_standings_projector_and_csv_show_placement_points(client):
    t, _p = ema_eight()
    page = client.get(reverse("scoring:standings", args=[t.slug])).content.decode()
    assert "Placement points" in page and "place 1: 4, place 2: 2, place 3: 1, place 4: 0" in page
    assert "Most first places" in page and page.index(">E<") < page.index(">F<") < page.index(">A<")
    assert ">4.5<" in page and ">0.5<" in page
    projector = client.get(reverse("scoring:standings", args=[t.slug]), {"projector": 1}).content.decode()
    assert ">4.5<" in projector
    assert "<abbr>PP</abbr> = Placement points" in projector  # the hall reads what the short headings mean
    home = client.get(t.get_absolute_url()).content.decode()  # the tournament's home explains the same order
    assert "place 1: 4, place 2: 2, place 3: 1, place 4: 0" in home and "Ranked by total points" not in home
    body = client.get(reverse("scoring:standings_export", args=[t.slug]), {"format": "csv"}).content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(body)))
    assert rows[0][:6] == ["Rank", "Player", "Affiliation", "Tables", "Placement points", "Total points"]
    assert rows[0][6:9] == ["Most first places", "Most second places", "Highest table score"]
    assert [r[1] for r in rows[1:3]] == ["E", "F"] and rows[2][4] == "4.5" and rows[1][6] == "2"
    pdf = PdfReader(io.BytesIO(client.get(reverse("scoring:standings_pdf", args=[t.slug])).content)).pages[0].extract_text()
    assert "Standings · after round 2" in pdf  # as the page says: the last round with counted results
    assert "Placement\n points" in pdf and "\nF\n2\n4.5\n0\n" in pdf  # rank 2: F, 2 tables, 4.5, total 0
    with translation.override("nl"):  # the column is as wide as its heading's longest word
        words = PdfReader(io.BytesIO(standings_pdf(t))).pages[0].extract_text().split()
    assert "Plaatsingspunten" in words and "Totaal" in words


def test_the_player_page_lists_placements_and_explains_the_tiebreaks(client):
    t, p = ema_eight()
    url = reverse("scoring:player_page", args=[t.slug, p["F"].pk])
    page = client.get(url).content.decode()
    placements = page[page.index("<h2>Placements</h2>"):page.index("<h2>Tie-breaks</h2>")]
    # round 1: table 2, South (seat 1), 10, shared first: 3; round 2: table 1, North, -10, shared second (2nd): 1.5
    for cell in ("Table 2 · South", ">10<", ">3<", "Table 1 · North", ">-10<", ">2<", ">1.5<", ">4.5<"):
        assert cell in placements, cell
    assert placements.count("<tr>") == 3  # head + two rounds
    tiebreaks = page[page.index("<h2>Tie-breaks</h2>"):]
    assert "1. Most first places: 1" in tiebreaks and "2. Most second places: 1" in tiebreaks
    assert "3. Highest table score: 10" in tiebreaks and "round 1: 1; round 2: 0" in tiebreaks
    t.placement = {"preset": "ema", "uma": [1, 2, 3, 4]}  # broken by hand (the admin): counts as none
    t.save()
    page = client.get(url).content.decode()
    assert "<h2>Placements</h2>" not in page and "Most first places" not in page
    assert "Placement points" not in client.get(reverse("scoring:standings", args=[t.slug])).content.decode()
    t.placement = {"preset": "ema"}
    t.save()
    before = _queries(client, url)
    for _ in range(8):
        PlayerFactory(tournament=t)
    assert _queries(client, url) == before  # no query per player


def _queries(client, url):
    """Queries of a page view with the standings computed (the cache emptied first)."""
    from django.conf import settings
    from django.core.cache import caches
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    for alias in settings.CACHES:  # the shared cache and, with Redis, each process's own
        caches[alias].clear()
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_api_rows_and_tournament_carry_placement_points(client):
    t, _p = ema_eight()
    rows = client.get(f"/api/v1/tournaments/{t.slug}/standings").json()["rows"]
    assert (rows[1]["name"], rows[1]["placement_points"], rows[1]["tiebreaks"]) == (
        "F", 4.5, {"firsts": 1, "seconds": 1, "best_table": 10})
    detail = client.get(f"/api/v1/tournaments/{t.slug}").json()
    assert detail["placement"] == {"preset": "ema", "uma": [4, 2, 1, 0], "oka": 0, "ties": "share", "per_place": [4, 2, 1, 0]}
    assert [tb["key"] for tb in detail["tiebreaks"]] == ["firsts", "seconds", "best_table"]


def test_json_round_trip_and_refusals():
    t = TournamentFactory(game="taiwanese", tiebreaks=["average_place", "firsts"],
                          placement={"preset": "custom", "uma": [30, 10, "-10.5", "-29.5"], "oka": 8, "ties": "seat"})
    PlayerFactory(tournament=t, name="Anna")
    data = export_tournament(t)
    assert data["placement"] == t.placement
    copy = load_tournament(json.dumps(data), slug="copy").tournament
    assert (copy.placement, copy.tiebreaks) == (t.placement, t.tiebreaks)
    assert "placement" not in export_tournament(TournamentFactory(game="sichuan"))
    data["placement"] = {"preset": "custom", "uma": [1, 2], "ties": "coin"}
    with pytest.raises(ImportRefused) as info:
        load_tournament(json.dumps(data), slug="bad")
    assert {path for path, _m in info.value.errors} >= {"$.placement.uma", "$.placement.ties"}
    taipan = export_tournament(TournamentFactory(game="taipan"))
    taipan.update(placement={"preset": "ema"}, slug="tp-bad")
    with pytest.raises(ImportRefused) as info:
        load_tournament(json.dumps(taipan))
    assert ("$.placement", "placement points are only for four-player games") in info.value.errors
    assert not Tournament.objects.filter(slug__in=["bad", "tp-bad"]).exists()
