"""Blind confirmation holds in the API as on the pages (docs/results.md): until a result is
confirmed, its totals, scores, records and outcome are hidden from everyone but the tournament's
members (and the side that entered it), so the side that confirms re-types them from its sheet."""
import pytest

from scoring.models import Tournament
from scoring.results import sheet
from tests.api.conftest import api_url
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, SICHUAN_SELF_DRAW, play

pytestmark = pytest.mark.django_db


def test_unconfirmed_totals_are_hidden_from_the_public_and_shown_to_members_and_once_confirmed(api_world):
    w = api_world
    Tournament.objects.filter(pk=w.tp.pk).update(blind_confirmation=True)
    play(w.match, [PLAIN_HAND], w.referee, end_reason="time is up")
    url = api_url("match-detail", "tp", w.match.pk)
    public = w.client(None).get(url).json()
    assert public["totals_hidden"] is True and public["totals"] is None and public["records"] == []
    assert [s["total"] for s in public["sides"]] == [None, None] and public["winner"] is None and public["outcome"] == ""
    round_table = w.client(None).get(api_url("round-detail", "tp", 1)).json()["tables"][0]
    assert round_table["totals"] is None
    member = w.client("referee").get(url).json()
    assert member["totals_hidden"] is False and member["totals"] == [75, 25] and len(member["records"]) == 1
    w.match.refresh_from_db()
    sheet.confirm(w.match, w.confirmer, expected_version=w.match.version, totals=[75, 25])
    confirmed = w.client(None).get(url).json()
    assert confirmed["totals"] == [75, 25] and confirmed["totals_hidden"] is False


@pytest.mark.parametrize("kind", ["match", "table"])
def test_the_records_endpoints_hide_what_the_result_hides(api_world, kind):
    """``.../records`` is empty and ``.../records/1`` is 404 while the result's totals are hidden
    from the caller (the same rule as the result: ``totals_hidden``); members read them; after the
    confirmation everyone does. Values: a plain Tai Pan hand is NS 75 : EW 25; a Sichuan
    self-drawn win by East is +6 / -2 / -2 / -2."""
    w = api_world
    slug, container, scores = ("tp", w.match, [75, 25]) if kind == "match" else ("sc", w.table, [6, -2, -2, -2])
    Tournament.objects.filter(slug=slug).update(blind_confirmation=True)
    record = PLAIN_HAND if kind == "match" else SICHUAN_SELF_DRAW
    play(container, [record], w.referee, end_reason="time is up")
    records, one = api_url(f"{kind}-records", slug, container.pk), api_url(f"{kind}-record", slug, container.pk, 1)
    for who in (None, "outsider"):
        assert w.client(who).get(records).json() == [], who
        assert w.client(who).get(one).status_code == 404, who
        assert w.client(who).get(api_url(f"{kind}-detail", slug, container.pk)).json()["records"] == []
    for who in ("referee", "confirmer", "organiser"):
        rows = w.client(who).get(records).json()
        assert [(r["number"], r["scores"], r["running"]) for r in rows] == [(1, scores, scores)], who
        assert w.client(who).get(one).json()["scores"] == scores
    container.refresh_from_db()
    sheet.confirm(container, w.confirmer, expected_version=container.version, totals=scores)
    assert [r["running"] for r in w.client(None).get(records).json()] == [scores]
    assert w.client(None).get(one).json()["scores"] == scores


def test_the_api_standings_count_a_blind_result_once_it_is_confirmed(api_world):
    """Team 0 beats Team 1 800 : 0 (two Grand Tai Pan double victories, 400 : 0 each): with blind
    confirmation nobody's standings count it before the confirmation; then Team 0 has 2 match
    points and +800."""
    w = api_world
    Tournament.objects.filter(pk=w.tp.pk).update(blind_confirmation=True)
    play(w.match, [GRAND_DOUBLE_VICTORY_NS] * 2, w.referee)
    url = api_url("standings", "tp")

    def team0(who):
        row = next(r for r in w.client(who).get(url).json()["rows"] if r["name"] == "Team 0")
        return row["match_points"], row["played"], row["point_difference"]

    assert team0(None) == team0("referee") == (0, 0, 0)
    w.match.refresh_from_db()
    sheet.confirm(w.match, w.confirmer, expected_version=w.match.version, totals=[800, 0])
    assert team0(None) == team0("referee") == (2, 1, 800)
