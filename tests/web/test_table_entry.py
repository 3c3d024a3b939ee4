"""Four-player tables through the test client: deal entry per game (happy paths with values from
the rules / acceptance cases, bad input saving nothing), edit/delete with totals and carried state
following, permissions on every write view, standings query count, score sheet PDF.

Expected values are computed by hand from the rule texts and DESIGN.md 2.2-2.4 (see each test).
"""
import io

import pytest
from django.urls import reverse

from scoring.models import AuditEntry, Deal, Game, Membership, Player, Round, Table, TableSeat, Tournament


@pytest.fixture(autouse=True)
def _english(settings):
    """These tests read English messages; Dutch is the site default (tests/test_i18n.py)."""
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


pytestmark = pytest.mark.django_db

NAMES = ["Anna", "Bart", "Cees", "Dirk"]


def make_table(game, *, status=Round.Status.PUBLISHED, names=NAMES, slug=None):
    t = Tournament.objects.create(name=f"{game} open", slug=slug or f"{game}-open", game=game)
    rnd = Round.objects.create(tournament=t, number=1, status=status)
    state = {"taiwanese": {"dealer": "E", "streak": 0, "round_wind": "E"}, "tiengow": {"banker": 0}}.get(game, {})
    table = Table.objects.create(round=rnd, number=1, state=state)
    for seat, name in enumerate(names):
        p = Player.objects.create(tournament=t, name=name)
        TableSeat.objects.create(table=table, seat=seat, player=p)
    return t, table


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


@pytest.fixture
def users(user_factory):
    return {"organiser": user_factory("org"), "referee": user_factory("ref"), "outsider": user_factory("out")}


def members(t, users):
    Membership.objects.create(tournament=t, user=users["organiser"], role=Membership.Role.ORGANISER)
    Membership.objects.create(tournament=t, user=users["referee"], role=Membership.Role.REFEREE)


def ver(table, data=None):
    """``data`` with the table's current version, as every web write must carry it."""
    return {**(data or {}), "version": str(Table.objects.get(pk=table.pk).version)}


def totals(table):
    return [s.total for s in table.seats.order_by("seat")]


# --------------------------------------------------------------------------------------------
# Taiwanese


def tw_post(winner, *, how="discard", source="", concealed="", melds="", tile="", flowers="", version=None, flags=()):
    data = {
        "deal-winner": winner,
        "deal-how": how,
        "deal-source": source,
        "deal-concealed": concealed,
        "deal-melds": melds,
        "deal-win_tile": tile,
        "deal-flowers": flowers,
    }
    if flags:
        data["deal-flags"] = list(flags)
    if version is not None:
        data["version"] = str(version)
    return data


# T01 (seed004 worked example): S self-draws an open half flush with a dragon pung: 4 + 1 + 1 = 6
# tai; each pays 3 + 2 x 6 = 15, the dealer E also the dealer tai 1: 3 + 2 x 7 = 17; S +47.
T01 = dict(how="self", concealed="123p 456p 789p 222p 99p", melds="pung 555z claimed", tile="6p")
# T04 hand (pinghu 2 tai), won on W's discard.
T04 = dict(how="discard", source="W", concealed="123m 456p 234s 678s 11p", melds="chow 789m claimed", tile="4p")


def test_taiwanese_deals_carry_dealer_and_streak(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    url = reverse("scoring:table_enter", args=[t.slug, table.pk])

    r = client.post(url, tw_post("S", version=0, **T01))
    assert r.status_code == 302, r.content.decode()[:3000]
    deal = Deal.objects.get(table=table, number=1)
    assert deal.net == [-17, 47, -15, -15]
    table.refresh_from_db()
    assert totals(table) == [-17, 47, -15, -15]
    # a non-dealer won: the dealer passes to S with streak 0
    assert table.state == {"dealer": "S", "streak": 0, "round_wind": "E"}

    # deal 2: a draw keeps the dealer and increments the streak (DESIGN.md 2.3), nobody pays
    r = client.post(url, tw_post("draw", version=table.version))
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.state["dealer"] == "S" and table.state["streak"] == 1
    assert Deal.objects.get(table=table, number=2).net == [0, 0, 0, 0]

    # deal 3: the dealer S (streak 1, dealer tai 1 + 2 = 3) wins the pinghu hand (2 tai) on W's
    # discard: W pays 3 + 2 x (2 + 3) = 13
    r = client.post(url, tw_post("S", version=table.version, **T04))
    assert r.status_code == 302
    assert Deal.objects.get(table=table, number=3).net == [0, 13, -13, 0]
    table.refresh_from_db()
    assert totals(table) == [-17, 60, -28, -15]
    assert table.state == {"dealer": "S", "streak": 2, "round_wind": "E"}

    # delete deal 1: the draw is now dealt by E (streak 0 -> 1); deal 3 is then won by S, not
    # the dealer, on W's discard: W pays 3 + 2 x 2 = 7 (the dealer is not in the payment)
    r = client.post(reverse("scoring:deal_delete", args=[t.slug, table.pk, 1]), {"version": table.version, "reason": "wrong table"})
    assert r.status_code == 302
    table.refresh_from_db()
    assert list(table.deals.values_list("number", flat=True)) == [1, 2]
    assert Deal.objects.get(table=table, number=2).net == [0, 7, -7, 0]
    assert totals(table) == [0, 7, -7, 0]
    assert table.state == {"dealer": "S", "streak": 0, "round_wind": "E"}
    assert AuditEntry.objects.filter(table=table, action=AuditEntry.Action.DELETE, reason="wrong table").exists()


def test_taiwanese_edit_deal_totals_follow(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **T01)))
    # the page shows the edit form filled with the stored record
    r = client.get(reverse("scoring:deal_edit", args=[t.slug, table.pk, 1]))
    assert r.status_code == 200 and "555z" in r.content.decode()
    # T02: the same hand on N's discard: 5 tai, N pays 3 + 2 x 5 = 13
    r = client.post(reverse("scoring:deal_edit", args=[t.slug, table.pk, 1]), ver(table, tw_post("S", how="discard", source="N", concealed=T01["concealed"], melds=T01["melds"], tile="6p")))
    assert r.status_code == 302
    table.refresh_from_db()
    assert totals(table) == [0, 13, 0, -13]
    assert AuditEntry.objects.filter(table=table, action=AuditEntry.Action.UPDATE).count() == 1


@pytest.mark.parametrize(
    "override, field",
    [
        ({"concealed": "123p 456p 789p 222p 9x"}, "concealed"),  # unknown tile
        ({"tile": "0p"}, "win_tile"),  # unknown winning tile
        ({"melds": "pung 555z flying"}, "melds"),  # bad meld
        ({"source": "N"}, "source"),  # a self-draw has no discarder (QA: was silently dropped)
    ],
)
def test_taiwanese_bad_input_error_next_to_field_saves_nothing(client, users, override, field):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    data = dict(T01)
    data.update(override)
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **data)))
    assert r.status_code == 400
    form = r.context["entry"].form
    assert field in form.errors, form.errors
    assert Deal.objects.count() == 0
    table.refresh_from_db()
    assert totals(table) == [0, 0, 0, 0] and table.version == 0


def test_taiwanese_preview_shows_tai_and_payments(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:deal_preview", args=[t.slug, table.pk]), tw_post("S", **T01), HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    preview = r.context["preview"]
    assert preview["net"] == [-17, 47, -15, -15] and preview["running"] == [-17, 47, -15, -15]
    body = r.content.decode()
    assert "half flush" in body and "47" in body
    assert Deal.objects.count() == 0
    # bad input in the preview: the message, nothing saved
    r = client.post(reverse("scoring:deal_preview", args=[t.slug, table.pk]), tw_post("S", **{**T01, "concealed": "123p 456p 789p 222p 9x"}))
    assert r.status_code == 200 and r.context["errors"]
    assert Deal.objects.count() == 0


def test_stale_version_is_refused(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    url = reverse("scoring:table_enter", args=[t.slug, table.pk])
    assert client.post(url, tw_post("draw", version=0)).status_code == 302
    r = client.post(url, tw_post("draw", version=0))
    assert r.status_code == 400
    assert "changed by someone else" in r.content.decode()
    assert Deal.objects.count() == 1


def test_draft_round_refuses_deals(client, users):
    t, table = make_table(Game.TAIWANESE, status=Round.Status.DRAFT)
    members(t, users)
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("draw")))
    assert r.status_code == 400 and Deal.objects.count() == 0


# --------------------------------------------------------------------------------------------
# Sichuan


def sc_rows(rows, *, exhausted=False, ex=None):
    data = {"deal-ev-TOTAL_FORMS": str(max(6, len(rows))), "deal-ev-INITIAL_FORMS": "0", "deal-ev-MIN_NUM_FORMS": "0", "deal-ev-MAX_NUM_FORMS": "20"}
    for i, row in enumerate(rows):
        for k, v in row.items():
            data[f"deal-ev-{i}-{k}"] = v
    if exhausted:
        data["deal-ex-exhausted"] = "on"
    for k, v in (ex or {}).items():
        data[f"deal-ex-{k}"] = v
    return data


def win_row(player, concealed, tile, *, void="s", how="self", source="", melds=""):
    return {"type": "win", "player": player, "void": void, "concealed": concealed, "win_tile": tile, "how": how, "source": source, "melds": melds}


def test_sichuan_self_draw_and_multi_winner(client, users):
    t, table = make_table(Game.SICHUAN)
    members(t, users)
    client.force_login(users["referee"])
    url = reverse("scoring:table_enter", args=[t.slug, table.pk])
    # S02: self-draw, 1 fan (base 1 + 1 = 2 from each of three opponents): E +6
    r = client.post(url, ver(table, sc_rows([win_row("E", "123m 456m 789p 234p 55p", "5p")])))
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Deal.objects.get(number=1).net == [6, -2, -2, -2]
    # S16: E (seven pairs, 2 fan = 4) and S (1) both win on N's discard: N pays 5
    r = client.post(
        url,
        ver(
            table,
            sc_rows(
                [
                    win_row("E", "11m 33m 55m 77m 22p 44p 66p", "6p", how="discard", source="N"),
                    win_row("S", "123m 456m 678p 234p 55p", "6p", how="discard", source="N"),
                ]
            ),
        ),
    )
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Deal.objects.get(number=2).net == [4, 1, 0, -5]
    table.refresh_from_db()
    assert totals(table) == [10, -1, -2, -7]


def test_sichuan_kong_then_exhaustion(client, users):
    t, table = make_table(Game.SICHUAN)
    members(t, users)
    client.force_login(users["referee"])
    # S18: an exposed kong supplied by N: N pays E 2 (no exhaustion)
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, sc_rows([{"type": "kong", "player": "E", "kind": "exposed", "tile": "7p", "source": "N"}])))
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Deal.objects.get(number=1).net == [2, 0, 0, -2]


@pytest.mark.parametrize(
    "row, field",
    [
        (win_row("E", "123m 456m 789p 234p 5q5p", "5p"), "concealed"),  # unknown tile
        (win_row("E", "123m 456m 789p 234p 55p", "5p", void="p"), "concealed"),  # void suit present (the tiles of that suit are in the hand)
        (win_row("E", "456m 789p 234p 55p", "5p", melds="chow 123m claimed"), "melds"),  # claimed chow
    ],
)
def test_sichuan_bad_input_error_next_to_field_saves_nothing(client, users, row, field):
    t, table = make_table(Game.SICHUAN)
    members(t, users)
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, sc_rows([row])))
    assert r.status_code == 400
    form = r.context["entry"].formset.forms[0]
    assert field in form.errors, (form.errors, r.context["entry"].form.errors)
    assert Deal.objects.count() == 0
    table.refresh_from_db()
    assert totals(table) == [0, 0, 0, 0]


def test_sichuan_empty_entry_is_refused(client, users):
    t, table = make_table(Game.SICHUAN)
    members(t, users)
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, sc_rows([])))
    assert r.status_code == 400 and Deal.objects.count() == 0


# --------------------------------------------------------------------------------------------
# Tien Gow


def tg_settle(cols, winner, group="ordinary", *, immediate=(), leader="", led_with="", won_with=""):
    data = {"deal-mode": "settle", "deal-last_winner": str(winner), "deal-last_group": group, "deal-last_leader": str(leader), "deal-led_with": led_with, "deal-won_with": won_with}
    for i, c in enumerate(cols):
        data[f"deal-columns_{i}"] = "" if c is None else str(c)
    for k, (w, g) in enumerate(immediate):
        data[f"deal-imm_winner_{k}"] = str(w)
        data[f"deal-imm_group_{k}"] = g
    return data


def test_tiengow_settle_passes_the_banker(client, users):
    t, table = make_table(Game.TIENGOW)
    members(t, users)
    client.force_login(users["referee"])
    url = reverse("scoring:table_enter", args=[t.slug, table.pk])
    # S-01: banker seat 1 (index 0); columns 2/3/3/0, seat 2 (index 1) wins the last trick:
    # index 0 (banker) pays (4-2) x 2 = 4, index 2 pays 1, index 3 (no column) pays 5 -> +10
    r = client.post(url, ver(table, tg_settle([2, 3, 3, 0], 1)))
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Deal.objects.get(number=1).net == [-4, 10, -1, -5]
    table.refresh_from_db()
    assert table.state == {"banker": 1}  # the winner of the last trick becomes banker
    # deal 2 with banker index 1, same columns, index 1 wins: every payment involves the banker
    # and doubles: index 0 pays 2 x 2 = 4, index 2 pays 1 x 2 = 2, index 3 pays 5 x 2 = 10
    r = client.post(url, ver(table, tg_settle([2, 3, 3, 0], 1)))
    assert r.status_code == 302
    assert Deal.objects.get(number=2).net == [-4, 16, -2, -10]
    table.refresh_from_db()
    assert totals(table) == [-8, 26, -3, -15]


def test_tiengow_immediate_only(client, users):
    t, table = make_table(Game.TIENGOW)
    members(t, users)
    client.force_login(users["referee"])
    # S-07: Supreme won by index 2 (not banker): 2 from each, the banker's payment doubled: 4
    data = tg_settle([None, None, None, None], "", immediate=[(2, "supreme")])
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, data))
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Deal.objects.get(number=1).net == [-4, -2, 8, -2]


def test_tiengow_trick_by_trick_record(client, users):
    import json

    from tests.conftest import load_cases

    case = next(c for c in load_cases("tiengow", {"deal"}) if c["id"] == "D1")
    record = {k: v for k, v in case["input"].items() if k != "banker"}
    t, table = make_table(Game.TIENGOW)
    members(t, users)
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, {"deal-mode": "deal", "deal-tricks": json.dumps(record)}))
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Deal.objects.get(number=1).net == case["expect"]["net"]
    table.refresh_from_db()
    assert table.state == {"banker": case["expect"]["next_banker"]}


def test_tiengow_bad_input_saves_nothing(client, users):
    t, table = make_table(Game.TIENGOW)
    members(t, users)
    client.force_login(users["referee"])
    url = reverse("scoring:table_enter", args=[t.slug, table.pk])
    r = client.post(url, ver(table, tg_settle([2, 3, 3, 3], 1)))  # 11 columns: there are 8 tricks' worth
    assert r.status_code == 400
    # the sum error stands at the columns fieldset (rules/tiengow.txt: 8 columns a deal), not at the top
    form = r.context["entry"].form
    assert form.column_errors() == ["The columns add up to 8 (one per tile a player played), not 11."]
    assert not form.non_field_errors()
    page = r.content.decode()
    fieldset = page[page.index('<fieldset class="columns has-error">') : page.index("</fieldset>", page.index('<fieldset class="columns'))]
    assert "The columns add up to 8" in fieldset and 'id="columns_errors"' in fieldset
    assert page.count("The columns add up to 8") == 1
    r = client.post(url, ver(table, {"deal-mode": "deal", "deal-tricks": "{not json"}))
    assert r.status_code == 400 and "tricks" in r.context["entry"].form.errors
    assert Deal.objects.count() == 0


def test_tiengow_tile_names_in_english_on_the_entry_page(client, users):
    t, table = make_table(Game.TIENGOW)
    members(t, users)
    client.force_login(users["referee"])
    r = client.get(reverse("scoring:table_enter", args=[t.slug, table.pk]), HTTP_ACCEPT_LANGUAGE="en")
    client.cookies["django_language"] = "en"
    body = client.get(reverse("scoring:table_enter", args=[t.slug, table.pk])).content.decode()
    for name in ("Heaven", "Big Head Six", "Little Three", "Big Six"):
        assert name in body
    assert r.status_code == 200


# --------------------------------------------------------------------------------------------
# Permissions on every write view


def write_requests(t, table, player):
    """(name, url, method, data, role needed) for every write view."""
    return [
        ("players add", reverse("scoring:players", args=[t.slug]), "post", {"name": "Eva", "joined_round": 1}, "organiser"),
        ("player edit", reverse("scoring:player_edit", args=[t.slug, player.pk]), "post", {"name": "Anna B", "joined_round": 1}, "organiser"),
        ("player withdraw", reverse("scoring:player_withdraw", args=[t.slug, player.pk]), "post", {"after_round": 1}, "organiser"),
        ("round seat", reverse("scoring:round_seat", args=[t.slug]), "post", {"seed": ""}, "organiser"),
        ("round publish", reverse("scoring:round_tables_publish", args=[t.slug, 1]), "post", {}, "organiser"),
        ("round close", reverse("scoring:round_tables_close", args=[t.slug, 1]), "post", {}, "organiser"),
        ("table enter", reverse("scoring:table_enter", args=[t.slug, table.pk]), "post", tw_post("draw"), "referee"),
        ("deal preview", reverse("scoring:deal_preview", args=[t.slug, table.pk]), "post", tw_post("draw"), "referee"),
        ("deal edit", reverse("scoring:deal_edit", args=[t.slug, table.pk, 1]), "post", tw_post("draw"), "referee"),
        ("deal delete", reverse("scoring:deal_delete", args=[t.slug, table.pk, 1]), "post", {}, "referee"),
        ("table confirm", reverse("scoring:table_confirm", args=[t.slug, table.pk]), "post", {}, "referee"),
        ("table reopen", reverse("scoring:table_reopen", args=[t.slug, table.pk]), "post", {"reason": "typo"}, "organiser"),
    ]


def test_write_views_check_roles(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    Deal.objects.create(table=table, number=1, record={"draw": True}, net=[0, 0, 0, 0])
    player = Player.objects.get(tournament=t, name="Anna")
    for name, url, method, data, role in write_requests(t, table, player):
        client.logout()
        r = getattr(client, method)(url, data)
        assert r.status_code == 302 and "login" in r["Location"], name
        client.force_login(users["outsider"])
        assert getattr(client, method)(url, data).status_code == 403, name
        client.force_login(users["referee"])
        r = getattr(client, method)(url, data)
        if role == "organiser":
            assert r.status_code == 403, name
        else:
            assert r.status_code in (200, 302, 400), name
    # organiser passes every check (the view answers, no 403)
    client.force_login(users["organiser"])
    for name, url, method, data, _role in write_requests(t, table, player):
        assert getattr(client, method)(url, data).status_code != 403, name


def test_get_pages_render(client, users):
    t, table = make_table(Game.SICHUAN)
    members(t, users)
    client.force_login(users["organiser"])
    for url in [
        reverse("scoring:players", args=[t.slug]),
        reverse("scoring:player_standings", args=[t.slug]),
        reverse("scoring:round_seat", args=[t.slug]),
        reverse("scoring:round_tables", args=[t.slug, 1]),
        reverse("scoring:table_detail", args=[t.slug, table.pk]),
        reverse("scoring:table_enter", args=[t.slug, table.pk]),
        reverse("scoring:player_edit", args=[t.slug, Player.objects.filter(tournament=t).first().pk]),
    ]:
        assert client.get(url).status_code == 200, url


# --------------------------------------------------------------------------------------------
# Standings and PDF


def field_with_results(n_tables, slug):
    t = Tournament.objects.create(name="Field", slug=slug, game=Game.TIENGOW)
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    for k in range(n_tables):
        table = Table.objects.create(round=rnd, number=k + 1, status=Table.Status.PLAYING)
        for seat in range(4):
            p = Player.objects.create(tournament=t, name=f"P{k}-{seat}")
            TableSeat.objects.create(table=table, seat=seat, player=p, total=[10, -4, -1, -5][seat])
    return t


@pytest.mark.parametrize("n_tables", [1, 5])
def test_standings_fixed_queries(client, django_assert_num_queries, n_tables):
    t = field_with_results(n_tables, f"field{n_tables}")
    url = reverse("scoring:player_standings", args=[t.slug])
    with django_assert_num_queries(2):  # the tournament, the standings
        r = client.get(url)
    assert r.status_code == 200
    rows = r.context["table"].data.data
    assert [row.total for row in rows[:n_tables]] == [10] * n_tables
    assert rows[0].rank == 1 and rows[n_tables - 1].rank == 1  # equal totals share the rank
    assert rows[n_tables].rank == n_tables + 1 and rows[n_tables].total == -1


def test_table_sheet_pdf(client, users):
    from pypdf import PdfReader

    t, table = make_table(Game.TIENGOW)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tg_settle([2, 3, 3, 0], 1)))
    client.logout()
    r = client.get(reverse("scoring:table_sheet_pdf", args=[t.slug, table.pk]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(r.content)).pages[0].extract_text()
    for name in NAMES:
        assert name in text
    assert "tiengow open" in text and "-4" in text and "10" in text


@pytest.mark.parametrize("n_tables", [1, 5])
def test_round_tables_page_fixed_queries(client, django_assert_num_queries, n_tables):
    t = field_with_results(n_tables, f"rt{n_tables}")
    url = reverse("scoring:round_tables", args=[t.slug, 1])
    # tournament, round, tables, seats with players (prefetch)
    with django_assert_num_queries(4):
        r = client.get(url)
    assert r.status_code == 200
    assert r.content.decode().count("P0-0") == 1


def test_fixed_hands_format_finishes_the_table(client, users):
    t, table = make_table(Game.TAIWANESE)
    t.round_format = "fixed_hands"
    t.hands_per_round = 2
    t.save()
    members(t, users)
    client.force_login(users["referee"])
    url = reverse("scoring:table_enter", args=[t.slug, table.pk])
    assert client.post(url, ver(table, tw_post("draw"))).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    assert client.post(url, ver(table, tw_post("draw"))).status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.FINISHED
    r = client.post(url, ver(table, tw_post("draw")))
    assert r.status_code == 400 and Deal.objects.count() == 2
    # deleting a deal reopens the table
    client.post(reverse("scoring:deal_delete", args=[t.slug, table.pk, 2]), ver(table, {}))
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING


def test_sichuan_edit_page_round_trip(client, users):
    t, table = make_table(Game.SICHUAN)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, sc_rows([win_row("E", "123m 456m 789p 234p 55p", "5p")])))
    r = client.get(reverse("scoring:deal_edit", args=[t.slug, table.pk, 1]))
    assert r.status_code == 200
    first = r.context["entry"].formset.forms[0]
    assert first.initial["concealed"] == "123m 456m 789p 234p 55p" and first.initial["player"] == "E"
    # S on N's discard instead of E's self-draw (S01-type hand, 1 fan): N pays S 1
    r = client.post(reverse("scoring:deal_edit", args=[t.slug, table.pk, 1]), ver(table, sc_rows([win_row("S", "123m 456m 789p 234p 55p", "5p", how="discard", source="N")])))
    assert r.status_code == 302, r.content.decode()[:2000]
    table.refresh_from_db()
    assert totals(table) == [0, 1, 0, -1]
    page = client.get(reverse("scoring:table_detail", args=[t.slug, table.pk])).content.decode()
    assert "Bart" in page


def test_tiengow_edit_page_shows_columns(client, users):
    t, table = make_table(Game.TIENGOW)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tg_settle([2, 3, 3, 0], 1)))
    r = client.get(reverse("scoring:deal_edit", args=[t.slug, table.pk, 1]))
    form = r.context["entry"].form
    assert [form.initial[f"columns_{i}"] for i in range(4)] == [2, 3, 3, 0] and form.initial["last_winner"] == "1"


def test_taiwanese_winner_must_be_chosen(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("", **T01)))
    assert r.status_code == 400 and "winner" in r.context["entry"].form.errors
    # a discard win without the discarder is refused next to that field
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **{**T04, "source": ""})))
    assert r.status_code == 400 and "source" in r.context["entry"].form.errors
    assert Deal.objects.count() == 0


def test_sichuan_wall_exhaustion_ready_hand_payment(client, users):
    # S22 (A..D = E, S, W, N): W wins 1 on N's discard, N wins 1 on S's discard; at exhaustion E
    # is ready (waits 2m 3m 5m 6m, highest value 2 fan = 4) and S is not: S pays E 4.
    # Net: E +4, S -1 - 4 = -5, W +1, N +1 - 1 = 0.
    t, table = make_table(Game.SICHUAN)
    members(t, users)
    client.force_login(users["referee"])
    rows = [
        win_row("W", "234s 567s 789s 123p 99s", "9s", void="m", how="discard", source="N"),
        win_row("N", "345s 678s 456p 789p 11s", "1s", void="m", how="discard", source="S"),
    ]
    ex = {
        "void_E": "p", "concealed_E": "123m 456m 789m 11m 45m",
        "void_S": "s", "concealed_S": "2m 3m 6m 9m 1p 2p 3p 4p 5p 6p 7p 8p 9p",
    }
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, sc_rows(rows, exhausted=True, ex=ex)))
    assert r.status_code == 302, r.content.decode()[:3000]
    assert Deal.objects.get(number=1).net == [4, -5, 1, 0]
    # an unknown tile in an exhaustion hand: the error is next to that player's field
    ex_bad = {**ex, "concealed_S": "2m 3m 6m 9m 1p 2p 3p 4p 5p 6p 7p 8p 9x"}
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, sc_rows(rows, exhausted=True, ex=ex_bad)))
    assert r.status_code == 400 and "concealed_S" in r.context["entry"].form.errors
    assert Deal.objects.count() == 1


def test_confirm_by_a_second_person_locks_and_reopen(client, users):
    t, table = make_table(Game.TAIWANESE)
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("S", **T01)))
    confirm = reverse("scoring:table_confirm", args=[t.slug, table.pk])
    # the person who entered the deals cannot confirm
    r = client.post(confirm, ver(table, {}))
    assert r.status_code == 400 and "different person" in r.content.decode()
    client.force_login(users["organiser"])
    assert client.get(confirm).status_code == 200
    # totals re-typed wrongly: refused, nothing confirmed
    r = client.post(confirm, ver(table, {"total_0": "-17", "total_1": "47", "total_2": "-15", "total_3": "-16"}))
    assert r.status_code == 400
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    r = client.post(confirm, ver(table, {"total_0": "-17", "total_1": "47", "total_2": "-15", "total_3": "-15"}))
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.CONFIRMED
    assert table.confirmations.get(active=True).totals == [-17, 47, -15, -15]
    # locked: no more deals
    client.force_login(users["referee"])
    r = client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tw_post("draw")))
    assert r.status_code == 400 and Deal.objects.count() == 1
    # the referee may not reopen; the organiser may, with a reason
    assert client.post(reverse("scoring:table_reopen", args=[t.slug, table.pk]), ver(table, {"reason": "typo"})).status_code == 403
    client.force_login(users["organiser"])
    r = client.post(reverse("scoring:table_reopen", args=[t.slug, table.pk]), ver(table, {"reason": ""}))
    assert r.status_code == 400
    r = client.post(reverse("scoring:table_reopen", args=[t.slug, table.pk]), ver(table, {"reason": "N paid, not W"}))
    assert r.status_code == 302
    table.refresh_from_db()
    assert table.status == Table.Status.PLAYING
    old = table.confirmations.get()
    assert not old.active and old.reopen_reason == "N paid, not W"
    assert AuditEntry.objects.filter(table=table, action=AuditEntry.Action.REOPEN).exists()


def test_blind_confirmation_needs_the_totals(client, users):
    t, table = make_table(Game.TIENGOW)
    t.blind_confirmation = True
    t.save()
    members(t, users)
    client.force_login(users["referee"])
    client.post(reverse("scoring:table_enter", args=[t.slug, table.pk]), ver(table, tg_settle([2, 3, 3, 0], 1)))
    client.force_login(users["organiser"])
    page = client.get(reverse("scoring:table_confirm", args=[t.slug, table.pk])).content.decode()
    assert "-5" not in page  # the totals are not shown on the confirmation page
    r = client.post(reverse("scoring:table_confirm", args=[t.slug, table.pk]), ver(table, {}))
    assert r.status_code == 400 and "total_0" in r.context["confirm_form"].errors
    r = client.post(reverse("scoring:table_confirm", args=[t.slug, table.pk]), ver(table, {"total_0": "-4", "total_1": "10", "total_2": "-1", "total_3": "-5"}))
    assert r.status_code == 302
    # every table confirmed: the round can be closed
    r = client.post(reverse("scoring:round_tables_close", args=[t.slug, 1]))
    table.round.refresh_from_db()
    assert table.round.status == Round.Status.CLOSED


def test_round_tables_pdf_one_page_per_table(client):
    from pypdf import PdfReader

    t = field_with_results(3, "pack3")
    r = client.get(reverse("scoring:round_tables_pdf", args=[t.slug, 1]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(r.content))
    assert len(reader.pages) == 3
    assert "P2-3" in reader.pages[2].extract_text()


def test_tiengow_tile_names_follow_the_engine_and_the_catalogue():
    from django.utils import translation

    from engines.tiengow.names import TILE_NAMES
    from scoring.web.forms.tables import TIENGOW_NAME_MSGIDS, tiengow_tile_names

    names = tiengow_tile_names()
    assert set(names) == set(TILE_NAMES)  # all 21 tile kinds
    for english, _dutch in TILE_NAMES.values():
        assert english in TIENGOW_NAME_MSGIDS  # every English name is a marked msgid
    with translation.override("en"):
        assert str(names["6-6"]) == "Heaven" and str(names["1-5"]) == "Big Head Six"
    with translation.override("nl"):
        for code, (english, dutch) in TILE_NAMES.items():
            # once the Dutch catalogue has the names they are those of the rule text
            assert str(names[code]) in (english, dutch), code
