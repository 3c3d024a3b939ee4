"""The standings on a phone and in full (issue 25 items 4 and 7): phones get the top 10 and the
rows around their own team (held link or ``?team=``) with gap rows saying how many are hidden, and
a link to the full table; desktops (``Sec-CH-UA-Mobile: ?0``), ``?all=1`` and the projector get
every row in lean markup; both views answer in a fixed number of queries and their ETags differ."""
from __future__ import annotations

import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from scoring.games.base import EntrantKind
from scoring.participants import links
from scoring.web.compact import Gap, compact_rows
from tests.factories import PlayerFactory, TournamentFactory, played_taipan_tournament
from tests.links.conftest import open_link

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

DESKTOP = {"HTTP_SEC_CH_UA_MOBILE": "?0"}
PHONE = {"HTTP_SEC_CH_UA_MOBILE": "?1"}


def field(n_teams: int, slug: str = "t"):
    """``n_teams`` teams after one round, every match NS 800 - EW 300: the winners (even team
    numbers) share rank 1, the losers rank n/2 + 1; within a rank by name."""
    return played_taipan_tournament(n_teams, 1, slug=slug, name=f"Cup {slug}", rules={"preset": "nskt"},
                                    tiebreaks=["point_difference", "buchholz", "points_scored"])


def url(t) -> str:
    return reverse("scoring:standings", args=[t.slug])


def shown(response) -> list:
    """The compact view's items: team names for rows, ``("gap", count)`` for gap rows."""
    return [("gap", item.count) if isinstance(item, Gap) else item.record.name for item in response.context["compact_rows"]]


def names(response) -> list[str]:
    return [row.record.name for row in response.context["table"].rows]


# --- which rows ---------------------------------------------------------------------------------

def test_compact_rows_top_neighbourhood_and_gaps():
    rows = list(range(50))
    items = compact_rows(rows, 30, EntrantKind.TEAMS)
    flat = [("gap", i.count) if isinstance(i, Gap) else i for i in items]
    assert flat == [*range(10), ("gap", 17), *range(27, 34), ("gap", 16)]
    assert items[10].text == "17 teams not shown"
    # own row inside the top: the top and the three below it
    assert [i for i in compact_rows(rows, 11, EntrantKind.TEAMS) if not isinstance(i, Gap)] == list(range(15))
    assert [("gap", i.count) if isinstance(i, Gap) else i for i in compact_rows(rows, 2, EntrantKind.TEAMS)] == [*range(10), ("gap", 40)]
    # the last row: three above it, no gap after
    assert [("gap", i.count) if isinstance(i, Gap) else i for i in compact_rows(rows, 49, EntrantKind.TEAMS)][-5:] == [("gap", 36), 46, 47, 48, 49]
    # no own entrant: the top only
    assert [("gap", i.count) if isinstance(i, Gap) else i for i in compact_rows(rows, None, EntrantKind.TEAMS)] == [*range(10), ("gap", 40)]
    # a small field is shown whole
    assert compact_rows(list(range(20)), None, EntrantKind.TEAMS) == list(range(20))
    assert compact_rows(list(range(30)), None, EntrantKind.PLAYERS)[-1].text == "20 players not shown"


def test_phone_without_a_team_gets_the_top_and_a_link_to_the_full_table(client):
    t = field(30)
    response = client.get(url(t))  # no client hint (Safari, Firefox): the compact view
    assert response.context["view"] == "compact"
    every = names(response)
    assert shown(response) == [*every[:10], ("gap", 20)]
    page = response.content.decode()
    live = page[page.index('<div id="live"'):]
    assert live.count("<tr") - 1 == 11  # header, 10 rows, the gap row
    assert '<td colspan="11">⋯ 20 teams not shown</td>' in page
    assert '<caption>The top 10</caption>' in page
    assert 'href="?all=1">Show the full standings</a>' in page
    assert "Sec-CH-UA-Mobile" in response["Vary"]
    assert client.get(url(t), **PHONE).context["view"] == "compact"


def test_team_param_shows_its_neighbourhood(client):
    t = field(30)
    every = names(client.get(url(t) + "?all=1"))
    team = t.teams.get(name=every[20])
    response = client.get(url(t) + f"?team={team.pk}")
    assert shown(response) == [*every[:10], ("gap", 7), *every[17:24], ("gap", 6)]
    page = response.content.decode()
    assert f"<caption>The top 10 and the rows around {team.name}</caption>" in page
    assert page.count('aria-current="true"') == 1 and '<tr class="mine" aria-current="true">' in page
    assert f'href="?team={team.pk}&amp;all=1"' in page


def test_held_link_shows_the_phones_own_team(client):
    t = field(30)
    every = names(client.get(url(t) + "?all=1"))
    own = t.teams.get(name=every[25])
    link = next(lk for lk in links.ensure_links(t) if lk.team_id == own.pk)
    assert open_link(client, links.token_of(link)).status_code in (200, 302)
    response = client.get(url(t))
    assert shown(response) == [*every[:10], ("gap", 12), *every[22:29], ("gap", 1)]
    # another team's ?team= does not override the phone's own
    other = t.teams.get(name=every[0])
    assert shown(client.get(url(t) + f"?team={other.pk}"))[11:18] == every[22:29]


def test_full_table_for_desktops_all_and_projector(client):
    t = field(30)
    for extra, headers in (("?all=1", {}), ("", DESKTOP), ("?projector=1", PHONE)):
        response = client.get(url(t) + extra, **headers)
        assert response.context["view"] == "full", extra
        page = response.content.decode()
        body = page[page.index("<tbody"):page.index("</tbody>")]
        assert body.count("<tr") == 30 and "data-label" not in body and 'class="m"' in body
        assert 'class="standings lean text3' in page or "?projector=1" in extra
    page = client.get(url(t), **DESKTOP).content.decode()
    assert 'href="?all=0">Show the top only</a>' in page
    assert "Show the top only" not in client.get(url(t) + "?projector=1").content.decode()
    # ?all=0 asks for the compact view on a desktop too
    assert client.get(url(t) + "?all=0", **DESKTOP).context["view"] == "compact"


def test_lean_row_has_the_same_cells(client):
    """The full table's row holds the same values as the card row, in bare cells."""
    t = field(30)
    response = client.get(url(t) + "?all=1")
    row = response.context["table"].rows[0]
    lean = re.findall(r"<td(?: class=\"m\")?>(.*?)</td>", str(row.lean_html))
    assert lean == [value for _css, _label, value in row.cells]
    assert len(lean) == 11 and lean[0] == "1" and lean[7] == "2"


def test_small_field_is_whole_in_both_views(client):
    t = field(12)
    for headers in ({}, DESKTOP):
        response = client.get(url(t), **headers)
        assert response.context["view"] == "compact" and len(shown(response)) == 12
        page = response.content.decode()
        assert "Show the full standings" not in page and "Show the top only" not in page
    assert client.get(url(t) + "?projector=1").context["view"] == "full"


def test_four_player_neighbourhood_by_player_param(client):
    t = TournamentFactory(slug="sc", game="sichuan")
    players = [PlayerFactory(tournament=t, name=f"Player {i:02d}") for i in range(30)]
    response = client.get(url(t) + f"?player={players[20].pk}")
    assert shown(response) == [*[f"Player {i:02d}" for i in range(10)], ("gap", 7),
                               *[f"Player {i:02d}" for i in range(17, 24)], ("gap", 6)]
    assert "6 players not shown" in response.content.decode()


def test_etag_covers_the_view(client):
    """The same URL in the compact and the full view: two ETags; each answers 304 to itself."""
    t = field(30)
    phone, desktop = client.get(url(t)), client.get(url(t), **DESKTOP)
    assert phone["ETag"] != desktop["ETag"]
    assert client.get(url(t), HTTP_IF_NONE_MATCH=phone["ETag"]).status_code == 304
    assert client.get(url(t), HTTP_IF_NONE_MATCH=phone["ETag"], **DESKTOP).status_code == 200
    assert client.get(url(t), HTTP_IF_NONE_MATCH=desktop["ETag"], **DESKTOP).status_code == 304


def test_live_poll_refreshes_the_same_view(client):
    t = field(30)
    team = t.teams.order_by("name").last()
    path = url(t) + f"?team={team.pk}"
    response = client.get(path, HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live")
    page = response.content.decode()
    assert page.startswith('<div id="live"') and "<html" not in page
    assert 'class="standings listing compact"' in page and "mine" in page


def _queries(client, path, **headers) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(path, **headers).status_code == 200
    return len(ctx.captured_queries)


@pytest.mark.parametrize("extra,headers", [("", {}), ("?all=1", {}), ("", DESKTOP)], ids=["compact", "full", "desktop"])
def test_query_count_does_not_grow_with_the_field(client, django_assert_num_queries, extra, headers):
    small, big = field(10, slug="small"), field(100, slug="big")
    team = big.teams.order_by("name")[50]
    expected = _queries(client, url(small) + extra + ("&" if extra else "?") + f"team={small.teams.first().pk}", **headers)
    with django_assert_num_queries(expected):
        client.get(url(big) + extra + ("&" if extra else "?") + f"team={team.pk}", **headers)
    assert expected <= 10


def test_query_count_with_a_held_link_does_not_grow(client, django_assert_num_queries):
    small, big = field(10, slug="small"), field(100, slug="big")
    for t in (small, big):
        link = links.ensure_links(t)[-1]
        open_link(client, links.token_of(link))
    expected = _queries(client, url(small))
    with django_assert_num_queries(expected):
        client.get(url(big))
