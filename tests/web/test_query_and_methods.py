"""Query strings and methods (issue 12 item 5).

- Every URL of the scoring app (walked from ``scoring/web/urls_*.py``) is either a write view
  (listed in :data:`WRITE_VIEWS`, POST allowed) or a read-only view that refuses POST, PUT,
  PATCH and DELETE with 405, for the tournament's organiser (who may do everything).
- Every numeric query parameter read in ``scoring/web`` (``round``, ``rows``, ``page``, ``hand``)
  is parsed strictly: ``²``, ``³``, ``-1``, ``1e3``, full-width digits, huge numbers and text
  give the default (or a 4xx), never 500; the other parameters (``format``, ``sort``,
  ``projector``, the rules check's fields) too.
"""
from __future__ import annotations

import pytest
from django.urls import reverse

from tests.web.world import all_urls, build_world

pytestmark = pytest.mark.django_db

#: URL names that accept POST (forms and actions). Every other URL is read-only.
WRITE_VIEWS = {
    # referee
    "match_enter", "hand_preview", "hand_edit", "hand_delete", "match_end", "match_resume", "match_confirm",
    "match_reopen", "audit_restore",
    "table_enter", "deal_preview", "deal_edit", "deal_delete", "table_end", "table_resume", "table_confirm",
    "table_reopen", "table_audit_restore", "round_pack_build",
    # a side of a table through its private link (issue 15)
    "match_dispute", "table_dispute", "open_link", "forget_link",
    # check-in (issue 23 item 3)
    "entrant_checkin", "checkin_toggle", "no_show",
    # verification per hand (issue 22 item 2)
    "hand_acknowledge", "hand_disagree", "deal_acknowledge", "deal_disagree",
    # organiser
    "tournament_create", "tournament_edit", "tournament_state", "members", "team_create", "teams_import",
    "team_edit", "players", "players_import", "player_edit", "player_withdraw", "round_pair", "round_seat",
    "round_edit", "round_publish", "round_tables_publish", "round_start", "round_close", "round_tables_close",
    "link_action", "member_invite", "member_link", "member_password", "invitation_revoke",
    # people across tournaments (issue 26): the review list's decisions, "Not the same person"
    "persons_decide", "person_split",
    # seasons (issue 26): a season made or changed by its managers
    "season_create", "season_edit",
    # the hall (issue 23): the round clock's buttons, announcements
    "round_clock", "announcements", "announcement_withdraw",
    # the hall (issue 23): time's up, zones, closing from the board, claims and calls for a referee
    "round_board_close", "round_times_up", "round_times_up_apply", "round_zones", "claim_table", "answer_call",
    "match_call_referee", "table_call_referee",
    # account
    "api_token", "account_set_password", "open_invitation",
}

BAD_NUMBERS = ["²", "³", "-1", "1e3", "１", "99999999999999999999999", "x", "", "0", " 1", "1.5", "0x10", "٣"]


@pytest.fixture
def world():
    return build_world()


def test_every_url_is_classified(world):
    names = {name for name, _url in all_urls(world)}
    assert WRITE_VIEWS - names == set(), "a write view listed here no longer exists"


def test_read_only_views_refuse_writes_with_405(client, world):
    client.force_login(world.organiser)
    wrong = []
    for name, url in all_urls(world):
        if name in WRITE_VIEWS:
            continue
        for method in ("post", "put", "patch", "delete"):
            status = getattr(client, method)(url).status_code
            if status != 405:
                wrong.append(f"{method.upper()} {name} {url}: {status}")
    assert wrong == []


def test_write_views_answer_post_without_error(client, world):
    """An empty POST to every write view is refused or handled (4xx or a redirect), never 500."""
    client.force_login(world.organiser)
    answers = {name: client.post(url).status_code for name, url in all_urls(world) if name in WRITE_VIEWS}
    assert {name: s for name, s in answers.items() if s >= 500 or s == 405} == {}


def test_read_only_views_answer_get(client, world):
    client.force_login(world.organiser)
    answers = {name: client.get(url).status_code for name, url in all_urls(world) if name not in WRITE_VIEWS}
    assert {name: s for name, s in answers.items() if s >= 500} == {}


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_numeric_query_parameters_never_give_500(client, world, value):
    client.force_login(world.organiser)
    # PDFs read no query parameter (and take long to build): every other page is tried.
    urls = [(n, u) for n, u in all_urls(world) if n not in WRITE_VIEWS and not u.endswith(".pdf")]
    urls += [(n, u) for n, u in all_urls(world) if n in ("match_enter", "table_enter", "hand_edit", "deal_edit")]
    wrong = []
    for name, url in urls:
        for query in (f"round={value}&rows={value}&page={value}&hand={value}&sort={value}&task={value}&projector=1",
                      f"format={value}&projector={value}"):
            status = client.get(f"{url}?{query}").status_code
            if status >= 500:
                wrong.append(f"{name}?{query}: {status}")
    assert wrong == []


@pytest.mark.parametrize("value", BAD_NUMBERS)
def test_preview_hand_parameter_is_strict(client, world, value):
    """``?hand=N`` on the record preview (POST, htmx) names the record being edited."""
    client.force_login(world.referee)
    url = reverse("scoring:hand_preview", args=[world.taipan.slug, world.match.pk]) + f"?hand={value}"
    assert client.post(url, {"replace_number": value}).status_code in (200, 400)


def test_standings_round_parameter_defaults_when_bad(client, world):
    url = reverse("scoring:standings", args=[world.taipan.slug])
    assert client.get(url + "?round=²").context["through_round"] is None
    assert client.get(url + "?round=1").context["through_round"] == 1


def test_projector_rows_and_page_fall_back_to_defaults(client, world):
    url = reverse("scoring:standings", args=[world.taipan.slug])
    response = client.get(url + "?projector=1&rows=²&page=³")
    assert response.status_code == 200
    assert response.context["projector"]["page"] == 1


def test_rules_check_with_hostile_query(client):
    url = reverse("scoring:rules_check", args=["taipan"])
    for query in ("play=XX", "play=2j&play=2j", "wish=²", "wish=99", "current_phoenix_as=²", "turn=x",
                  "hand=" + "&hand=".join(["2j"] * 60), "preset=x", "phoenix_as=-1"):
        assert client.get(f"{url}?{query}").status_code < 500, query
    assert client.get(reverse("scoring:rules_check", args=["chess"])).status_code == 404
