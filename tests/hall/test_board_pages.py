"""The hall pages (issue 23 items 2, 4, 5): the progress board (organisers and head referees, live
with ETags, a fixed number of queries), time's up with its confirmation step, closing from the
board, referee zones with errors on the field, claiming on "My tables", calling a referee from
the entry page."""
from __future__ import annotations

import pytest
from django.core.cache import cache
from django.urls import reverse

from scoring.hall import zones
from scoring.kinds import kind_of
from scoring.models import AuditEntry, RefereeAssignment, RefereeCall, ResultContainer
from scoring.participants import links
from scoring.results import sheet
from tests.factories import confirm_result
from tests.hall.helpers import KINDS, RECORDS, hall_round
from tests.links.conftest import open_link

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _fresh_cache():
    cache.clear()


def board_url(rnd):
    return reverse("scoring:round_board", args=[rnd.tournament.slug, rnd.number])


def test_board_is_for_organisers_and_head_referees(client):
    rnd, _cs, people = hall_round("match", tables=2)
    for who, status in ((people["organiser"], 200), (people["head"], 200), (people["referee"], 403),
                        (people["outsider"], 403)):
        client.force_login(who)
        assert client.get(board_url(rnd)).status_code == status, who
    client.logout()
    assert client.get(board_url(rnd)).status_code == 302


@pytest.mark.parametrize("kind", KINDS)
def test_board_shows_the_tables_in_attention_order_with_the_kinds_nouns(client, kind):
    rnd, cs, people = hall_round(kind, tables=3)
    sheet.add_record(cs[0], RECORDS[kind][0], people["referee"])
    from scoring.hall import calls

    calls.call(cs[2], people["referee"])
    client.force_login(people["head"])
    html = client.get(board_url(rnd)).content.decode()
    assert html.index('id="board-table-3"') < html.index('id="board-table-1"') < html.index('id="board-table-2"')
    noun = "hand" if kind == "match" else "deal"
    assert f"1 {noun}" in html and "Needs a referee" in html
    assert "Time&#x27;s up" not in html  # head referees see the board, not the organiser's actions


def test_board_poll_answers_304_when_nothing_changed_and_200_after_a_record(client):
    rnd, cs, people = hall_round("match", tables=2)
    client.force_login(people["organiser"])
    headers = {"HX-Request": "true", "HX-Target": "live"}
    first = client.get(board_url(rnd), headers=headers)
    assert first.status_code == 200 and first.content.decode().lstrip().startswith('<div id="live"')
    again = client.get(board_url(rnd), headers={**headers, "If-None-Match": first["ETag"]})
    assert again.status_code == 304
    sheet.add_record(cs[0], RECORDS["match"][0], people["referee"])
    assert client.get(board_url(rnd), headers={**headers, "If-None-Match": first["ETag"]}).status_code == 200


def test_a_refused_close_after_times_up_shows_its_refusal_not_the_page_kept_from_before(client):
    """Found by the hall's acceptance test: after time's up (its message shown on the board) a
    refused close redirects to the same board, in the same state, with one message again; the
    board answered 304 to the browser's revalidation, so the phone kept showing "Time's up: ..."
    and the refusal naming the tables was never shown. A page with a message is always rendered
    and carries no ETag."""
    rnd, _cs, people = hall_round("match", tables=2)
    client.force_login(people["organiser"])
    slug = rnd.tournament.slug
    client.post(reverse("scoring:round_times_up", args=[slug, 1]), {"grace_minutes": 0})
    first = client.get(board_url(rnd))
    assert first.status_code == 200 and "2 tables ended at the time limit." in first.content.decode()
    assert "ETag" not in first
    client.post(reverse("scoring:round_board_close", args=[slug, 1]))
    again = client.get(board_url(rnd), headers={"If-None-Match": first.get("ETag", '"kept"')})
    assert again.status_code == 200
    html = again.content.decode()
    assert "cannot be closed" in html and "table(s) 1, 2" in html
    # Without a message the board is conditional again.
    plain = client.get(board_url(rnd))
    assert client.get(board_url(rnd), headers={"If-None-Match": plain["ETag"]}).status_code == 304


@pytest.mark.parametrize("kind", KINDS)
def test_board_page_queries_do_not_grow_with_the_tables(client, django_assert_max_num_queries, kind):
    counts = []
    for tables in (8, 40):
        rnd, cs, people = hall_round(kind, tables=tables)
        for c in cs[::3]:
            sheet.add_record(c, RECORDS[kind][0], people["referee"])
        zones.set_zone(rnd, people["referee"], f"1-{tables // 2}", people["organiser"])
        client.force_login(people["organiser"])
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        with CaptureQueriesContext(connection) as ctx:
            assert client.get(board_url(rnd)).status_code == 200
        counts.append(len(ctx.captured_queries))
    assert counts[0] == counts[1], counts
    with django_assert_max_num_queries(counts[0]):
        client.get(board_url(rnd))


def test_times_up_confirmation_lists_the_tables_and_what_each_would_decide(client):
    rnd, (m1, m2, m3), people = hall_round("match", tables=3)
    sheet.add_record(m1, RECORDS["match"][0], people["referee"])  # NS 75 : EW 25
    confirm_result(m3, people["referees"][1])
    client.force_login(people["organiser"])
    url = reverse("scoring:round_times_up", args=[rnd.tournament.slug, rnd.number])
    html = client.get(url).content.decode()
    assert 'id="times-up-1"' in html and 'id="times-up-2"' in html and 'id="times-up-3"' not in html
    assert f"{m1.team_ns.name} wins: 75 – 25." in html and "It ends in a draw: 0 – 0." in html
    response = client.post(url, {"grace_minutes": "0"})
    assert response.status_code == 302
    for c in (m1, m2):
        c.refresh_from_db()
        assert c.ended == c.Ended.TIME
    assert AuditEntry.objects.filter(action="end", reason="Time's up (round 1)").count() == 2
    client.force_login(people["referee"])
    assert client.post(url, {"grace_minutes": "0"}).status_code == 403


def test_times_up_with_grace_shows_finish_the_hand_and_apply_now(client):
    rnd, (m1,), people = hall_round("match", tables=1)
    client.force_login(people["organiser"])
    url = reverse("scoring:round_times_up", args=[rnd.tournament.slug, rnd.number])
    client.post(url, {"grace_minutes": "2"})
    html = client.get(board_url(rnd)).content.decode()
    assert "finish the hand in play" in html and "Apply now" in html
    client.force_login(people["referee"])  # the entry page says it too, and entry goes on
    enter = reverse(kind_of(m1).url_name("enter"), args=[rnd.tournament.slug, m1.pk])
    assert "Time's up: finish the hand in play. The table is ended" in client.get(enter).content.decode()
    client.force_login(people["organiser"])
    apply_url = reverse("scoring:round_times_up_apply", args=[rnd.tournament.slug, rnd.number])
    client.post(apply_url)
    client.post(apply_url)
    m1.refresh_from_db()
    assert m1.ended == m1.Ended.TIME
    assert AuditEntry.objects.filter(action="end").count() == 1


def test_close_from_the_board_names_the_open_tables(client):
    rnd, (m1, m2), people = hall_round("match", tables=2)
    confirm_result(m1, people["referees"][1])
    client.force_login(people["organiser"])
    html = client.get(board_url(rnd)).content.decode()
    assert "Not yet: table(s) 2." in html
    response = client.post(reverse("scoring:round_board_close", args=[rnd.tournament.slug, rnd.number]), follow=True)
    assert "table(s) 2 is not confirmed yet" in response.content.decode()
    rnd.refresh_from_db()
    assert rnd.is_open


def test_zones_page_saves_a_zone_and_says_what_is_wrong_next_to_the_field(client):
    rnd, _cs, people = hall_round("match", tables=5)
    anna, bert = people["referees"]
    client.force_login(people["organiser"])
    url = reverse("scoring:round_zones", args=[rnd.tournament.slug, rnd.number])
    assert client.post(url, {"referee": anna.pk, f"r{anna.pk}-tables": "1-3"}).status_code == 302
    bad = client.post(url, {"referee": bert.pk, f"r{bert.pk}-tables": "3-6"})
    assert bad.status_code == 400
    assert "This round has 5 tables: there is no table 6." in bad.content.decode()
    overlap = client.post(url, {"referee": bert.pk, f"r{bert.pk}-tables": "3-5"})
    assert f"Table(s) 3 are already in the zone of {anna.username}" in overlap.content.decode()
    client.post(url, {"referee": bert.pk, f"r{bert.pk}-tables": "3-5", f"r{bert.pk}-take_over": "on"})
    assert zones.zones(rnd) == {anna.pk: [1, 2], bert.pk: [3, 4, 5]}


def test_my_tables_shows_my_zone_first_the_rest_collapsed_and_claims(client):
    rnd, cs, people = hall_round("match", tables=4)
    anna = people["referee"]
    zones.set_zone(rnd, anna, "3", people["organiser"])
    client.force_login(anna)
    response = client.get(reverse("scoring:my_tables"))
    html = response.content.decode()
    assert response.context["hall_tournaments"] == [rnd.tournament]
    mine, rest = html.index('class="my-tables mine"'), html.index("<details")
    assert mine < html.index('id="my-table-3"') < rest < html.index('id="my-table-1"')
    claim = reverse("scoring:claim_table", args=[rnd.tournament.slug, rnd.number, 1])
    assert client.post(claim, {"next": reverse("scoring:my_tables")}).status_code == 302
    assert RefereeAssignment.objects.get(round=rnd, table=1).referee == anna


def test_a_side_calls_a_referee_from_its_entry_page(client):
    rnd, (m1, m2), people = hall_round("match", tables=2, )
    rnd.tournament.player_entry = True
    rnd.tournament.save()
    link = links.link_for(m1.team_ns)
    open_link(client, links.token_of(link))
    enter = reverse(kind_of(m1).url_name("enter"), args=[rnd.tournament.slug, m1.pk])
    html = client.get(enter).content.decode()
    assert "Call a referee" in html
    call_url = reverse("scoring:match_call_referee", args=[rnd.tournament.slug, m1.pk])
    assert client.post(call_url, {"next": enter}).status_code == 302
    assert "A referee was called at" in client.get(enter).content.decode()
    call = RefereeCall.objects.get()
    assert call.table == 1 and call.via_entrant == m1.team_ns.name and call.answered_at is None
    # Not the other table's side.
    other = reverse("scoring:match_call_referee", args=[rnd.tournament.slug, m2.pk])
    assert client.post(other).status_code == 403
    assert RefereeCall.objects.count() == 1
    assert ResultContainer  # noqa: B018


def test_the_board_shows_the_round_clock_and_says_when_times_up_was(client):
    """Fix A4 of issue 23: the organiser decides on time's up on the board, so the hall bar (the
    round clock) shows there, for head referees too; the time's up line reads "Time's up
    (HH:MM): ..."."""
    import re

    from scoring.hall import clock, times_up

    rnd, _cs, people = hall_round("match", tables=2)
    clock.start(rnd, people["organiser"], version=0)
    for who in (people["organiser"], people["head"]):
        client.force_login(who)
        html = client.get(board_url(rnd)).content.decode()
        assert 'class="hall-bar' in html and "data-hall-clock" in html, who
    times_up.call(rnd, people["organiser"])
    client.force_login(people["organiser"])
    html = client.get(board_url(rnd)).content.decode()
    assert re.search(r"Time's up \(\d\d:\d\d\): 2 tables ended at the time limit\.", html)
    assert "Time's up at" not in html


def test_a_hand_refused_by_times_up_is_the_one_banner_at_the_top_and_the_input_is_kept(client):
    """Fix A3 of issue 23: the referee had the entry page open; time's up ended the match; the
    save is refused with the time's up message as the one banner at the top of the page (before
    the hands so far), and the typed hand is shown below it, not saved."""
    from scoring.hall import times_up
    from tests.web.entry_data import hand_data

    rnd, (m1,), people = hall_round("match", tables=1)
    sheet.add_record(m1, RECORDS["match"][0], people["referee"])
    m1.refresh_from_db()
    seen = m1.version
    times_up.call(rnd, people["organiser"])
    client.force_login(people["referee"])
    enter = reverse(kind_of(m1).url_name("enter"), args=[rnd.tournament.slug, m1.pk])
    response = client.post(enter, hand_data(seen, first_out="N", ns="65", ew="35", record_number="2"))
    assert response.status_code == 400
    html = response.content.decode()
    banner = html.index('id="entry-errors"')
    assert html.count('role="alert"') - html.count('id="offline-note"') == 1
    assert banner < html.index("Time is up for this round") < html.index('id="record-1"')
    assert html.count("Time is up for this round") == 1
    kept = html[html.index('id="kept-input"'):]
    assert "your input (not saved)" in kept and "<fieldset disabled>" in kept
    assert 'value="65"' in kept and 'value="35"' in kept
    assert len(kind_of(m1).records(m1)) == 1


def test_the_take_over_box_sits_inside_its_label(client):
    """Fix A6 of issue 23: the whole label (a 44 px tap target, static/css/hall-board.css) ticks
    the "take over" box, not only the 13 px box."""
    rnd, _cs, people = hall_round("match", tables=2)
    client.force_login(people["organiser"])
    html = client.get(reverse("scoring:round_zones", args=[rnd.tournament.slug, 1])).content.decode()
    field = html[html.index('class="field take-over"'):]
    label = field[field.index("<label>"):field.index("</label>")]
    assert 'type="checkbox" name="r' in label and "take_over" in label
    assert "Take over tables that are in another referee" in label


def test_my_tables_shows_a_call_only_while_its_table_plays(client):
    """Fix A4 of issue 23 (as on the board): an unanswered call on a finished table no longer
    says "A player called a referee here." on "My tables"."""
    from scoring.hall import calls
    from tests.factories import finish_result

    rnd, (m1, m2), people = hall_round("match", tables=2)
    calls.call(m1, people["referee"])
    calls.call(m2, people["referee"])
    finish_result(m1)
    client.force_login(people["referee"])
    html = client.get(reverse("scoring:my_tables")).content.decode()
    table1 = html[html.index('id="my-table-1"'):html.index('id="my-table-2"')]
    table2 = html[html.index('id="my-table-2"'):]
    assert "A player called a referee here." not in table1
    assert "A player called a referee here." in table2
