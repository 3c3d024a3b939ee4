"""QA findings on the four-player side, each pinned by a test: bounded seat seed, a valid table
version on every web write, fixed-hands confirmation, player registration bounds and standings of
players without tables, and the entry/preview/score sheet details (labels instead of engine field
paths, de-duplicated messages, Tien Gow column errors at the columns, locked tables, tile names).

Expected values come from the rules and DESIGN.md 3 (fixed hands: "N hands per round"); deal
values are those of tests/test_tables_views.py (computed there by hand from the rule texts).
"""
import pytest
from django.urls import reverse

from scoring.models import Confirmation, Deal, Game, Membership, Player, Round, Table, TableSeat, Tournament
from scoring.results import tables as svc
from tests.test_tables_views import NAMES, T01, make_table, members, sc_rows, tg_settle, totals, tw_post, ver, win_row


@pytest.fixture(autouse=True)
def _english(settings):
    """These tests read English messages; Dutch is the site default (tests/test_i18n.py)."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


pytestmark = pytest.mark.django_db

STALE = "changed by someone else"


@pytest.fixture
def users(user_factory):
    return {"organiser": user_factory("org"), "referee": user_factory("ref"), "outsider": user_factory("out")}


# --------------------------------------------------------------------------------------------
# 1. Seat seed bounds


@pytest.mark.parametrize("seed", ["99999999999999999999999", str(2**31), "-1"])
def test_seat_seed_out_of_range_is_a_field_error(client, users, seed):
    t = Tournament.objects.create(name="Sichuan cup", slug="sichuan-cup", game=Game.SICHUAN)
    Membership.objects.create(tournament=t, user=users["organiser"], role=Membership.Role.ORGANISER)
    for name in NAMES:
        Player.objects.create(tournament=t, name=name)
    client.force_login(users["organiser"])
    r = client.post(reverse("scoring:round_seat", args=[t.slug]), {"seed": seed})
    assert r.status_code == 400
    assert "seed" in r.context["form"].errors
    assert 'id="id_seed_errors"' in r.content.decode()  # next to the field
    assert not Round.objects.filter(tournament=t).exists()


def test_seat_seed_at_the_bound_seats(client, users):
    t = Tournament.objects.create(name="Sichuan cup", slug="sichuan-cup", game=Game.SICHUAN)
    Membership.objects.create(tournament=t, user=users["organiser"], role=Membership.Role.ORGANISER)
    for name in NAMES:
        Player.objects.create(tournament=t, name=name)
    client.force_login(users["organiser"])
    r = client.post(reverse("scoring:round_seat", args=[t.slug]), {"seed": str(2**31 - 1)})
    assert r.status_code == 302
    assert Round.objects.get(tournament=t).seed == 2**31 - 1


# --------------------------------------------------------------------------------------------
# 2. Every web write carries a valid version

BAD_VERSIONS = [None, "", "abc", "-1", " ", "1.0", "²"]


def _with_version(data, version):
    data = dict(data)
    if version is not None:
        data["version"] = version
    return data


@pytest.mark.parametrize("version", BAD_VERSIONS)
def test_enter_without_a_valid_version_is_refused(client, users, version):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), _with_version(tw_post("draw"), version))
    assert r.status_code == 400 and STALE in r.content.decode()
    assert Deal.objects.count() == 0
    table.refresh_from_db()
    assert table.version == 0 and table.state["streak"] == 0


@pytest.mark.parametrize("version", BAD_VERSIONS)
def test_deal_edit_and_delete_without_a_valid_version_are_refused(client, users, version):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    assert client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **T01))).status_code == 302
    before = totals(table)
    r = client.post(reverse("scoring:deal_edit", args=[t.slug, table.pk, 1]), _with_version(tw_post("draw"), version))
    assert r.status_code == 400 and STALE in r.content.decode()
    assert Deal.objects.get(table=table, number=1).record.get("seat") == "S"
    r = client.post(reverse("scoring:deal_delete", args=[t.slug, table.pk, 1]), _with_version({"reason": "x"}, version))
    assert r.status_code == 400 and STALE in r.content.decode()
    assert Deal.objects.filter(table=table).count() == 1 and totals(table) == before


def test_deal_edit_with_an_old_version_is_refused(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **T01)))
    r = client.post(reverse("scoring:deal_edit", args=[t.slug, table.pk, 1]), _with_version(tw_post("draw"), "0"))
    assert r.status_code == 400 and STALE in r.content.decode()
    assert Deal.objects.get(table=table).record.get("seat") == "S"


@pytest.mark.parametrize("version", BAD_VERSIONS + ["0"])  # "0": valid but stale (a deal was entered since)
def test_confirm_and_reopen_without_a_valid_version_are_refused(client, users, version):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **T01)))
    client.force_login(users["organiser"])
    r = client.post(reverse("scoring:table_confirm", args=[t.slug, table.pk]), _with_version({}, version))
    assert r.status_code == 400 and STALE in r.content.decode()
    table.refresh_from_db()
    assert table.status != Table.Status.CONFIRMED and not Confirmation.objects.exists()
    # confirmed properly, then a reopen with a bad version is refused too
    assert client.post(reverse("scoring:table_confirm", args=[t.slug, table.pk]), ver(table)).status_code == 302
    r = client.post(reverse("scoring:table_reopen", args=[t.slug, table.pk]), _with_version({"reason": "typo"}, version))
    assert r.status_code == 400 and STALE in r.content.decode()
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED and Confirmation.objects.get().active


def test_pages_carry_the_version(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **T01)))
    table.refresh_from_db()
    hidden = f'name="version" value="{table.version}"'
    for name, args in [("table_enter", []), ("deal_edit", [1]), ("deal_delete", [1])]:
        assert hidden in client.get(reverse(f"scoring:{name}", args=[t.slug, table.pk, *args])).content.decode(), name
    client.force_login(users["organiser"])
    assert hidden in client.get(reverse("scoring:table_confirm", args=[t.slug, table.pk])).content.decode()
    svc.confirm_table(table, users["organiser"])
    table.refresh_from_db()
    page = client.get(reverse("scoring:table_detail", args=[t.slug, table.pk])).content.decode()
    assert f'name="version" value="{table.version}"' in page  # the reopen form


# --------------------------------------------------------------------------------------------
# 3. Fixed hands: confirm only with every deal


def test_fixed_hands_table_is_confirmed_only_with_all_its_deals(client, users):
    t, table = make_table(Game.TAIWANESE)
    t.round_format = "fixed_hands"
    t.hands_per_round = 2  # DESIGN.md 3: "N hands per round"
    t.save()
    members(t, users)
    client.force_login(users["referee"])
    enter = reverse("scoring:table_enter", args=[t.slug, table.pk])
    assert client.post(enter, ver(table, tw_post("draw"))).status_code == 302
    client.force_login(users["organiser"])
    confirm = reverse("scoring:table_confirm", args=[t.slug, table.pk])
    r = client.post(confirm, ver(table))
    assert r.status_code == 400
    assert "This table has 1 of its 2 deals" in r.content.decode()
    table.refresh_from_db()
    assert table.status != Table.Status.CONFIRMED
    client.force_login(users["referee"])
    assert client.post(enter, ver(table, tw_post("draw"))).status_code == 302
    client.force_login(users["organiser"])
    assert client.post(confirm, ver(table)).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED


def test_fixed_hands_service_refuses_too_few_deals(users):
    t, table = make_table(Game.TIENGOW)
    t.round_format = "fixed_hands"
    t.hands_per_round = 4
    t.save()
    Deal.objects.create(table=table, number=1, record={"mode": "settle", "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary"}, "immediate": []}, net=[0, 0, 0, 0])
    with pytest.raises(svc.NotAllowed, match="1 of its 4 deals"):
        svc.confirm_table(table, users["organiser"])


# --------------------------------------------------------------------------------------------
# 4. Player registration and standings


@pytest.fixture
def four(users):
    t = Tournament.objects.create(name="Taiwanese cup", slug="tw-cup", game=Game.TAIWANESE)
    Membership.objects.create(tournament=t, user=users["organiser"], role=Membership.Role.ORGANISER)
    return t


def test_same_name_twice_is_refused(client, users, four):
    client.force_login(users["organiser"])
    url = reverse("scoring:players", args=[four.slug])
    assert client.post(url, {"name": "Anna", "joined_round": 1}).status_code == 302
    r = client.post(url, {"name": " anna ", "joined_round": 1})
    assert r.status_code == 400 and "name" in r.context["form"].errors
    assert "already registered" in r.content.decode() and 'id="id_name_errors"' in r.content.decode()
    assert Player.objects.filter(tournament=four).count() == 1
    # the same name in another tournament is fine; editing a player keeps their own name
    other = Tournament.objects.create(name="Other", slug="other", game=Game.TAIWANESE)
    Player.objects.create(tournament=other, name="Bart")
    assert client.post(url, {"name": "Bart", "joined_round": 1}).status_code == 302
    anna = Player.objects.get(tournament=four, name="Anna")
    edit = reverse("scoring:player_edit", args=[four.slug, anna.pk])
    assert client.post(edit, {"name": "Anna", "affiliation": "Leiden", "joined_round": 1}).status_code == 302
    r = client.post(edit, {"name": "BART", "joined_round": 1})
    assert r.status_code == 400 and "name" in r.context["form"].errors


@pytest.mark.parametrize("joined", ["0", "-1", "1000"])
def test_joined_round_must_be_a_real_round(client, users, four, joined):
    client.force_login(users["organiser"])
    r = client.post(reverse("scoring:players", args=[four.slug]), {"name": "Eva", "joined_round": joined})
    assert r.status_code == 400 and "joined_round" in r.context["form"].errors
    assert not Player.objects.filter(tournament=four).exists()


def test_withdrawal_bounds(client, users, four):
    client.force_login(users["organiser"])
    anna = Player.objects.create(tournament=four, name="Anna")
    late = Player.objects.create(tournament=four, name="Late", joined_round=3)
    url = lambda p: reverse("scoring:player_withdraw", args=[four.slug, p.pk])  # noqa: E731
    # there is no round 0
    r = client.post(url(anna), {"after_round": 0})
    assert r.status_code == 400 and "after_round" in r.context["withdraw"].errors
    anna.refresh_from_db()
    assert anna.withdrawn_after_round is None
    # a late entrant (round 3) may withdraw after round 2 (before their first round), not after round 1
    r = client.post(url(late), {"after_round": 1})
    assert r.status_code == 400 and "joins in round 3" in r.content.decode()
    assert client.post(url(late), {"after_round": 2}).status_code == 302
    late.refresh_from_db()
    assert late.withdrawn_after_round == 2
    # and then cannot be moved to join after the withdrawal
    r = client.post(reverse("scoring:player_edit", args=[four.slug, late.pk]), {"name": "Late", "joined_round": 4})
    assert r.status_code == 400 and "joined_round" in r.context["form"].errors
    # reinstating needs no valid round
    assert client.post(url(late), {"after_round": 0, "reinstate": "on"}).status_code == 302
    late.refresh_from_db()
    assert late.withdrawn_after_round is None


def test_players_without_a_table_are_listed_last_unranked(client):
    """Standings by total points (issue 6 item 4); a player who played no table has no total yet:
    after everyone who played, without a rank, so 0 does not beat negative totals."""
    t, table = make_table(Game.TIENGOW)
    table.status = Table.Status.PLAYING
    table.save()
    for seat, total in zip(table.seats.order_by("seat"), [10, -4, -1, -5], strict=True):
        seat.total = total
        seat.save()
    Player.objects.create(tournament=t, name="Aaron")  # registered late, no table yet
    seated_idle = Player.objects.create(tournament=t, name="Zed")
    rnd2 = Round.objects.create(tournament=t, number=2, status=Round.Status.PUBLISHED)
    pending = Table.objects.create(round=rnd2, number=1)  # no deals: not played
    TableSeat.objects.create(table=pending, seat=0, player=seated_idle)
    rows = svc.standings(t)
    assert [(r.name, r.rank, r.total) for r in rows] == [
        ("Anna", 1, 10),
        ("Cees", 2, -1),
        ("Bart", 3, -4),
        ("Dirk", 4, -5),
        ("Aaron", None, 0),
        ("Zed", None, 0),
    ]
    page = client.get(reverse("scoring:player_standings", args=[t.slug])).content.decode()
    assert page.index("Dirk") < page.index("Aaron")
    assert "listed last, without a rank" in page


# --------------------------------------------------------------------------------------------
# 5. Entry, preview, locked tables, PDF, texts


def test_preview_names_the_field_label_once(client, users):
    t, table = make_table(Game.SICHUAN)
    members(t, users)
    client.force_login(users["referee"])
    data = sc_rows([win_row("E", "123m 456m 789p 234p 55q", "5p")])  # the engine reports 5q twice
    r = client.post(reverse("scoring:deal_preview", args=[t.slug, table.pk]), data)
    assert r.context["errors"] == ["Event 1 · concealed tiles: Unknown tile '5q'."]
    page = r.content.decode()
    assert "events[0]" not in page and page.count("Unknown tile") == 1
    # the same on the entry page: once, next to the field
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, data))
    assert r.status_code == 400
    assert [str(e) for e in r.context["entry"].formset.forms[0].errors["concealed"]] == ["Unknown tile '5q'."]
    assert r.content.decode().count("Unknown tile") == 1


def test_preview_tiengow_column_error_by_label(client, users):
    t, table = make_table(Game.TIENGOW)
    members(t, users)
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:deal_preview", args=[t.slug, table.pk]), tg_settle([2, 3, 3, 3], 1))
    assert r.context["errors"] == ["Columns won per player: The columns add up to 8 (one per tile a player played), not 11."]


def test_confirmed_table_shows_no_entry_form_nor_edit_links(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **T01)))
    edit_link = reverse("scoring:deal_edit", args=[t.slug, table.pk, 1])
    assert edit_link in client.get(reverse("scoring:table_detail", args=[t.slug, table.pk])).content.decode()
    svc.confirm_table(table, users["organiser"])
    enter = reverse("scoring:table_enter", args=[t.slug, table.pk])
    for who in ("referee", "organiser"):
        client.force_login(users[who])
        for url in (enter, edit_link, reverse("scoring:table_detail", args=[t.slug, table.pk]), reverse("scoring:round_tables", args=[t.slug, 1])):
            page = client.get(url).content.decode()
            assert 'id="deal-form"' not in page, url
            links = page.replace(f'value="{url}"', "")  # the language switcher's "next" is the page itself
            assert f'href="{edit_link}"' not in links and reverse("scoring:deal_delete", args=[t.slug, table.pk, 1]) not in links, url
            assert f'href="{enter}"' not in page, url
        page = client.get(enter).content.decode()
        assert "Confirmed by org" in page
        reopen = reverse("scoring:table_reopen", args=[t.slug, table.pk])
        assert (reopen in page) == (who == "organiser")
        page = client.get(reverse("scoring:deal_delete", args=[t.slug, table.pk, 1])).content.decode()
        assert "This table is locked" in page and 'name="reason"' not in page


def test_four_player_tournament_created_asks_for_players(client, user_factory):
    client.force_login(user_factory("staff", is_staff=True))
    data = {"name": "Tien Gow open", "slug": "tg-open", "game": "tiengow", "rules_preset": "", "rules_overrides": "",
            "round_format": "target", "hands_per_round": "", "seed": "7", "venue": "", "starts_on": "",
            "tiebreak_1": "", "tiebreak_2": ""}
    r = client.post(reverse("scoring:tournament_create"), data, follow=True)
    assert r.status_code == 200, r.content.decode()[:2000]
    texts = [str(m) for m in r.context["messages"]]
    assert texts == ["Tournament created. Register the players next."]


def _sheet_rows(table):
    from reportlab.platypus import Table as PdfTable

    from scoring.printing.tables import _sheet_story

    table = Table.objects.select_related("round__tournament").get(pk=table.pk)
    story = _sheet_story(table, list(table.seats.select_related("player").order_by("seat")), list(table.deals.order_by("number")))
    deal_table = [f for f in story if isinstance(f, PdfTable)][1]
    return [row[0] for row in deal_table._cellvalues[2:-1]]  # deal numbers, without headers and total


def test_score_sheet_prints_hands_per_round_rows(client, users):
    t, table = make_table(Game.TIENGOW)
    assert _sheet_rows(table) == [str(n) for n in range(1, 17)]  # open format: 16 rows to write in
    t.round_format = "fixed_hands"
    t.hands_per_round = 4
    t.save()
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tg_settle([2, 3, 3, 0], 1)))
    assert _sheet_rows(table) == ["1", "2", "3", "4"]
    r = client.get(reverse("scoring:table_sheet_pdf", args=[t.slug, table.pk]))
    assert r.status_code == 200


def test_tiengow_summary_is_one_translatable_text(monkeypatch):
    from scoring.web.views import tables as views

    assert views.deal_summary(Game.TIENGOW, {"mode": "settle", "banker": 0, "columns": [2, 3, 3, 0]}) == "banker 1 · columns 2/3/3/0"
    seen = []
    monkeypatch.setattr(views, "_g", lambda text: seen.append(text) or "translated: " + text)
    assert views.deal_summary(Game.TIENGOW, {"mode": "settle", "banker": 2, "columns": [8, 0, 0, 0]}) == "translated: banker 3 · columns 8/0/0/0"
    assert seen == ["banker {banker} · columns {columns}"]
    seen.clear()
    assert views._state_text(Tournament(game=Game.TIENGOW), {"banker": 1}) == "translated: Banker: seat 2"
    assert seen == ["Banker: seat {seat}"]


def test_tile_buttons_have_names(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    page = client.get(reverse("scoring:table_enter", args=[t.slug, table.pk])).content.decode()
    for code, name in [("1z", "East wind"), ("4z", "North wind"), ("5z", "White dragon"), ("6z", "Green dragon"), ("7z", "Red dragon"),
                       ("fl1", "flower 1"), ("fl4", "flower 4"), ("se1", "season 1"), ("se4", "season 4"), ("5p", "5 dots (p)")]:
        assert f'data-tile="{code}" title="{name}"' in page, code
    t2, table2 = make_table(Game.SICHUAN)
    Membership.objects.create(tournament=t2, user=users["referee"], role=Membership.Role.REFEREE)
    page = client.get(reverse("scoring:table_enter", args=[t2.slug, table2.pk])).content.decode()
    assert 'data-tile="9s" title="9 bamboo (s)"' in page and 'data-tile="1m" title="1 characters (m)"' in page
