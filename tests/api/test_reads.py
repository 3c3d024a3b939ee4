"""The public read endpoints of the API (``docs/api.md``): tournaments, rounds with their tables,
standings of both kinds with the tie-break values, and matches and tables with their records and
totals. Anyone may read them without credentials; draft rounds stay hidden except from the
tournament's organisers; no output names a user.

Expected numbers come from the rules (the NSKT rule text, docs/engines/ and docs/tournaments.md): a Grand Tai
Pan made with a double victory is 200 + 200 = 400 for NS, so two such hands reach the NSKT target
800 and NS wins the match (match points 2 : 0); a Sichuan self-drawn win of East with no fan
items (base 1, everyone pays 1 + 1) is East +6, the others -2 each."""
from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from scoring.models import Round
from scoring.results import sheet
from tests.api.conftest import api_url
from tests.factories import (
    GRAND_DOUBLE_VICTORY_NS,
    PLAIN_HAND,
    SICHUAN_SELF_DRAW,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    play,
)
from tests.games.kits import kit

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(api_world):
    """``match`` won by NS 800 : 0 (two hands entered by the referee), ``match2`` with one plain
    hand (75 : 25, still playing), ``table`` with East's self-drawn win, ended at the time limit
    and confirmed."""
    w = api_world
    play(w.match, [GRAND_DOUBLE_VICTORY_NS] * 2, w.referee)
    play(w.match2, [PLAIN_HAND], w.referee)
    play(w.table, [SICHUAN_SELF_DRAW], w.referee, end_reason="time is up", confirmer=w.confirmer)
    return w


def get(client, name, *args, **params):
    return client.get(api_url(name, *args), params)


# --------------------------------------------------------------------------- index and tournaments


def test_index_links_to_the_collections(api_world):
    r = get(api_world.client(None), "index")
    assert r.status_code == 200
    assert r.json() == {"tournaments": "http://testserver/api/v1/tournaments", "engines": "http://testserver/api/v1/engines",
                        "schema": "http://testserver/api/schema/", "docs": "http://testserver/api/docs/"}


def test_tournament_list_newest_first(api_world):
    r = get(api_world.client(None), "tournament-list")
    assert r.status_code == 200
    rows = r.json()
    assert [t["slug"] for t in rows] == ["elsewhere", "sc", "tp"]
    tp = rows[2]
    assert tp == {"slug": "tp", "name": "Tai Pan Cup", "game": "taipan", "game_label": "Tai Pan", "entrants": "teams",
                  "kind": "match", "status": "running", "venue": "", "starts_on": None,
                  "url": "http://testserver/api/v1/tournaments/tp", "page": "http://testserver/t/tp/"}
    assert rows[1]["entrants"] == "players" and rows[1]["kind"] == "table"


def test_tournament_detail(api_world):
    r = get(api_world.client(None), "tournament-detail", "tp")
    assert r.status_code == 200
    data = r.json()
    assert data["rules"] == "nskt" and data["round_format"] == "target" and data["hands_per_round"] is None
    assert data["sides"] == ["NS", "EW"] and data["record_noun"] == "hand"
    # An empty tie-break setting is the NSKT order: point difference, Buchholz, points scored,
    # head-to-head (docs/tournaments.md Ranking).
    assert [tb["key"] for tb in data["tiebreaks"]] == ["point_difference", "buchholz", "points_scored", "head_to_head"]
    assert data["rounds"] == [{"number": 1, "status": "published", "tables": 2,
                               "url": "http://testserver/api/v1/tournaments/tp/rounds/1"}]
    assert data["standings"] == "http://testserver/api/v1/tournaments/tp/standings"


def test_four_player_tournament_detail(api_world):
    data = get(api_world.client(None), "tournament-detail", "sc").json()
    assert data["sides"] == ["E", "S", "W", "N"] and data["side_labels"] == ["East", "South", "West", "North"]
    assert data["record_noun"] == "deal" and data["tiebreaks"] == []


@pytest.mark.every_game
def test_side_keys_and_labels_per_game_as_documented(db, game):
    # docs/api.md (`sides`, `side_labels`) and the game page's "At a glance" table; the expected
    # values are the game's test kit's (tests/games/<game>/kit.py)
    game_kit = kit(game)
    keys, english, dutch = game_kit.side_keys, game_kit.side_labels_en, game_kit.side_labels_nl
    t = TournamentFactory(slug=f"sides-{game}", game=game)
    c = APIClient()
    data = c.get(api_url("tournament-detail", t.slug), HTTP_ACCEPT_LANGUAGE="en").json()
    assert (data["sides"], data["side_labels"]) == (keys, english)
    assert c.get(api_url("tournament-detail", t.slug), HTTP_ACCEPT_LANGUAGE="nl").json()["side_labels"] == dutch
    if t.adapter.entrants == "players":  # every endpoint uses the same keys
        rnd = RoundFactory(tournament=t, number=1)
        table = TableFactory(round=rnd, number=1)
        sides = c.get(api_url("table-detail", t.slug, table.pk), HTTP_ACCEPT_LANGUAGE="en").json()["sides"]
        assert [(s["key"], s["label"]) for s in sides] == list(zip(keys, english, strict=True))
        tables = c.get(api_url("round-detail", t.slug, 1), HTTP_ACCEPT_LANGUAGE="en").json()["tables"]
        assert [s["key"] for s in tables[0]["sides"]] == keys


def test_unknown_tournament_is_404(api_world):
    r = get(api_world.client(None), "tournament-detail", "nope")
    assert r.status_code == 404
    assert r.json() == {"code": "not_found", "errors": [{"field": "", "message": "Not found."}]}


def test_organiser_sees_draft_rounds_listed_others_do_not(api_world):
    w = api_world
    for who in (None, "outsider", "referee", "other_referee"):
        assert [r["number"] for r in get(w.client(who), "round-list", "tp").json()] == [1], who
        assert [r["number"] for r in get(w.client(who), "tournament-detail", "tp").json()["rounds"]] == [1], who
    rounds = get(w.client("organiser"), "round-list", "tp").json()
    assert [(r["number"], r["status"], r["tables"]) for r in rounds] == [(1, "published", 2), (2, "draft", 1)]


# --------------------------------------------------------------------------- rounds


def test_round_detail_lists_the_pairings(played):
    w = played
    r = get(w.client(None), "round-detail", "tp", 1)
    assert r.status_code == 200
    data = r.json()
    assert data["number"] == 1 and data["status"] == "in_progress"
    first, second = data["tables"]
    assert (first["number"], first["status"], first["totals"], first["version"]) == (1, "finished", [800, 0], 2)
    assert [(s["key"], s["name"], s["players"]) for s in first["sides"]] == [
        ("NS", "Team 0", [{"seat": "N", "name": "Team 0 A"}, {"seat": "S", "name": "Team 0 B"}]),
        ("EW", "Team 1", [{"seat": "E", "name": "Team 1 A"}, {"seat": "W", "name": "Team 1 B"}]),
    ]
    assert [s["total"] for s in first["sides"]] == [800, 0]
    assert first["url"] == f"http://testserver/api/v1/tournaments/tp/matches/{w.match.pk}"
    assert (second["status"], second["totals"]) == ("playing", [75, 25])


def test_round_detail_lists_the_seatings(played):
    w = played
    data = get(w.client(None), "round-detail", "sc", 1).json()
    (table,) = data["tables"]
    seated = [s.player for s in w.table.seats.order_by("seat")]
    assert [(s["key"], s["label"], s["entrant_id"], s["name"]) for s in table["sides"]] == [
        (k, label, p.pk, p.name) for k, label, p in zip("ESWN", ["East", "South", "West", "North"], seated, strict=True)]
    assert table["totals"] == [6, -2, -2, -2] and table["status"] == "confirmed"


def test_a_bye_has_no_opponent(api_world):
    from tests.factories import MatchFactory, RoundFactory, TeamFactory

    w = api_world
    rnd = RoundFactory(tournament=w.tp, number=3)
    bye = MatchFactory(round=rnd, table=1, team_ns=TeamFactory(tournament=w.tp, name="Lonely"), team_ew=None)
    sheet.recompute(bye)
    (row,) = get(w.client(None), "round-detail", "tp", 3).json()["tables"]
    assert row["bye"] is True and row["status"] == "finished"
    assert [(s["name"], s["entrant_id"]) for s in row["sides"]] == [("Lonely", bye.team_ns_id), ("", None)]
    detail = get(w.client(None), "match-detail", "tp", bye.pk).json()
    assert detail["winner"] == "NS" and detail["points"] == [2, 0] and detail["records"] == []


# --------------------------------------------------------------------------- standings


def test_team_standings_with_tiebreak_values(played):
    r = get(played.client(None), "standings", "tp")
    assert r.status_code == 200
    data = r.json()
    assert data["entrants"] == "teams" and data["through_round"] is None
    rows = {row["name"]: row for row in data["rows"]}
    # Only the finished match counts: Team 0 won 800 : 0 (2 match points); match 2 is still playing.
    winner, loser = rows["Team 0"], rows["Team 1"]
    assert (winner["rank"], winner["played"], winner["won"], winner["match_points"]) == (1, 1, 1, 2)
    assert (winner["point_difference"], winner["points_scored"], winner["buchholz"]) == (800, 800, 0)
    assert {k: winner["tiebreaks"][k] for k in ("point_difference", "buchholz", "points_scored")} == {
        "point_difference": 800, "buchholz": 0, "points_scored": 800}
    assert list(winner["tiebreaks"]) == ["point_difference", "buchholz", "points_scored", "head_to_head"]
    # Team 1 lost: 0 match points, -800; its Buchholz is its opponent's 2 match points.
    assert (loser["rank"], loser["lost"], loser["match_points"], loser["tiebreaks"]["point_difference"],
            loser["buchholz"]) == (4, 1, 0, -800, 2)
    # Teams 2 and 3 have not finished a match: equal on everything, a shared rank 2.
    assert rows["Team 2"]["rank"] == rows["Team 3"]["rank"] == 2
    assert rows["Team 0"]["players"] == "Team 0 A & Team 0 B"


def test_player_standings(played):
    data = get(played.client(None), "standings", "sc").json()
    assert data["entrants"] == "players" and data["tiebreaks"] == []
    east = played.table.seats.get(seat=0).player
    first, *others = data["rows"]
    assert (first["player_id"], first["rank"], first["total"], first["played"]) == (east.pk, 1, 6, 1)
    assert [(row["rank"], row["total"]) for row in others] == [(2, -2)] * 3


def test_standings_through_a_round(played):
    data = get(played.client(None), "standings", "tp", round=1).json()
    assert data["through_round"] == 1
    assert {r["name"]: r["match_points"] for r in data["rows"]}["Team 0"] == 2


@pytest.mark.parametrize("value", ["abc", "-1", "null", "1.0", " 1", "²", "", "1234567"])
def test_standings_round_that_is_not_a_whole_number_is_400(played, value):
    r = get(played.client(None), "standings", "tp", round=value)
    assert r.status_code == 400
    assert r.json() == {"code": "invalid", "errors": [
        {"field": "round", "message": "A round is given by its number, a whole number such as 3."}]}


@pytest.mark.parametrize("value", ["0", "2", "99", "000"])
def test_standings_round_that_the_tournament_does_not_have_is_400(played, value):
    """Round 1 is published and round 2 a draft: the public may ask for round 1 only."""
    r = get(played.client(None), "standings", "tp", round=value)
    assert r.status_code == 400
    assert r.json() == {"code": "invalid", "errors": [
        {"field": "round", "message": f"This tournament has no round {int(value)}: give a round from 1 to 1."}]}


def test_standings_round_an_organiser_sees_and_a_tournament_without_rounds(played):
    w = played
    assert get(w.client("organiser"), "standings", "tp", round=2).json()["through_round"] == 2  # the draft round
    assert get(w.client("organiser"), "standings", "tp", round="01").json()["through_round"] == 1
    Round.objects.filter(tournament=w.tp).delete()
    r = get(w.client(None), "standings", "tp", round=1)
    assert r.status_code == 400 and r.json()["errors"] == [{"field": "round", "message": "This tournament has no rounds yet."}]
    assert get(w.client(None), "standings", "tp").status_code == 200


# --------------------------------------------------------------------------- results


def test_match_with_its_hands_and_totals(played):
    w = played
    r = get(w.client(None), "match-detail", "tp", w.match.pk)
    assert r.status_code == 200
    data = r.json()
    assert (data["kind"], data["round"], data["number"], data["status"], data["ended"]) == ("match", 1, 1, "finished", "target")
    assert data["totals"] == [800, 0] and data["winner"] == "NS" and data["points"] == [2, 0]
    assert data["outcome"] == "Winner: Team 0" and data["version"] == 2 and data["limit"] is None
    assert [(h["number"], h["scores"], h["running"]) for h in data["records"]] == [(1, [400, 0], [400, 0]), (2, [400, 0], [800, 0])]
    assert data["records"][0]["record"] == GRAND_DOUBLE_VICTORY_NS
    assert data["records"][0]["url"] == f"http://testserver/api/v1/tournaments/tp/matches/{w.match.pk}/records/1"


def test_unfinished_match_has_no_winner_or_points(played):
    data = get(played.client(None), "match-detail", "tp", played.match2.pk).json()
    assert (data["status"], data["winner"], data["points"], data["outcome"]) == ("playing", None, None, "")


def test_table_with_its_deals_and_state(played):
    w = played
    data = get(w.client(None), "table-detail", "sc", w.table.pk).json()
    assert (data["kind"], data["status"], data["ended"]) == ("table", "confirmed", "time")
    assert data["totals"] == [6, -2, -2, -2] and data["winner"] is None and data["points"] is None
    assert data["records"][0]["scores"] == [6, -2, -2, -2] and isinstance(data["state"], dict)


def test_records_list_and_one_record(played):
    w = played
    c = w.client(None)
    rows = get(c, "match-records", "tp", w.match.pk).json()
    assert [r["number"] for r in rows] == [1, 2]
    one = get(c, "match-record", "tp", w.match.pk, 2).json()
    assert one == rows[1]
    assert get(c, "match-record", "tp", w.match.pk, 3).status_code == 404


def test_a_result_is_found_under_its_own_kind_and_tournament_only(api_world):
    w = api_world
    c = w.client("organiser")
    assert get(c, "table-detail", "tp", w.match.pk).status_code == 404
    assert get(c, "match-detail", "sc", w.table.pk).status_code == 404
    assert get(c, "match-detail", "tp", w.other_match.pk).status_code == 404
    assert get(c, "match-detail", "elsewhere", w.other_match.pk).status_code == 200


def test_no_output_names_a_user(played):
    """The public reads never show usernames (who entered or confirmed), nor the audit trail."""
    w = played
    sheet.reopen(w.table, w.organiser, "check the deal", expected_version=w.table.version)
    c = w.client("organiser")  # even the organiser's token reads no names of users
    urls = [api_url("tournament-list"), api_url("tournament-detail", "tp"), api_url("round-detail", "tp", 1),
            api_url("round-detail", "tp", 2), api_url("standings", "tp"), api_url("match-detail", "tp", w.match.pk),
            api_url("match-records", "tp", w.match.pk), api_url("table-detail", "sc", w.table.pk),
            api_url("round-detail", "sc", 1)]
    for url in urls:
        body = c.get(url).content.decode()
        for name in ("organiser", "referee", "confirmer", "entered_by", "confirmed_by", "audit", "reason", "check the deal"):
            assert name not in body, (url, name)


def test_messages_follow_accept_language(played):
    """The API answers in the language the program asks for (the pages always start in Dutch)."""
    w = played
    nl = w.client(None).get(api_url("match-detail", "tp", w.match.pk), HTTP_ACCEPT_LANGUAGE="nl")
    assert nl.json()["outcome"] == "Winnaar: Team 0" and nl["Content-Language"] == "nl"
    en = w.client(None).get(api_url("match-detail", "tp", w.match.pk), HTTP_ACCEPT_LANGUAGE="en")
    assert en.json()["outcome"] == "Winner: Team 0"


def test_reads_need_no_credentials_but_refuse_a_bad_token(api_world):
    from rest_framework.test import APIClient

    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION="Token not-a-token")
    r = client.get(api_url("tournament-list"))
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed" and r["WWW-Authenticate"] == "Token"


def test_reads_are_json_and_refuse_writes_of_their_own(api_world):
    c = api_world.client("organiser")
    r = c.post(api_url("standings", "tp"), {}, format="json")
    assert r.status_code == 405 and r.json()["code"] == "method_not_allowed"
    assert json.loads(c.get(api_url("tournament-list")).content)  # plain JSON, no HTML rendering


def test_draft_round_reads_are_404_except_for_organisers(api_world):
    w = api_world
    urls = [api_url("round-detail", "tp", 2), api_url("match-detail", "tp", w.draft_match.pk),
            api_url("match-records", "tp", w.draft_match.pk), api_url("round-detail", "sc", 2),
            api_url("table-detail", "sc", w.draft_table.pk)]
    for who in (None, "outsider", "referee", "confirmer", "other_referee"):
        for url in urls:
            r = w.client(who).get(url)
            assert r.status_code == 404, (who, url)
            assert r.json() == {"code": "not_found", "errors": [{"field": "", "message": "Not found."}]}
    for url in urls:
        assert w.client("organiser").get(url).status_code == 200, url
    assert Round.objects.get(tournament=w.tp, number=2).status == Round.Status.DRAFT



@pytest.mark.parametrize("debug", [False, True])
def test_every_404_under_the_api_is_the_json_error_shape(api_world, settings, debug):
    settings.DEBUG = debug
    c = api_world.client(None)
    not_found = {"code": "not_found", "errors": [{"field": "", "message": "Not found."}]}
    for url in ("/api/v1/tournaments/x/matches/abc", "/api/v1/tournaments/tp/matches/abc", "/api/v1/tournaments/",
                f"/api/v1/tournaments/tp/matches/{api_world.match.pk}/", "/api/v1/nope", "/api/v2/tournaments",
                "/api/nope/", "/api/"):
        for method in ("get", "post", "put", "patch", "delete", "options", "head"):
            r = getattr(c, method)(url)
            assert r.status_code == 404, (method, url)
            assert r["Content-Type"] == "application/json", (method, url)
            if method != "head":
                assert r.json() == not_found, (method, url)
    # What Django's APPEND_SLASH did is kept for the three addresses that end in a slash.
    for url in ("/api/v1", "/api/schema", "/api/docs"):
        r = c.get(url)
        assert r.status_code == 301 and r["Location"] == url + "/"
    assert c.post("/api/v1").status_code == 404
