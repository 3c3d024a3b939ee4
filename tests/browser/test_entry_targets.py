"""Entry pages on a 360×740 phone (issue 24): axe-core with the WCAG 2.2 AA rules finds no
``target-size`` violation on the entry page of every game (the four-player games and Tai Pan);
every tile key of the mahjong tile picker is at least 44 × 44 CSS px (WCAG 2.2 target size,
enhanced) and the hand being typed shows as a row of tile faces, the stored hand unchanged (MPSZ);
a common Tien Gow deal takes 5 taps in the quick face.

Tien Gow values (the Tien Gow rule text, "Afrekening"; docs/engines/tiengow.md): the banker is seat 1 at a table's
first deal; seat 2 wins the last trick (ordinary) with the columns 2/3/3/0: seat 1 (the banker,
payments doubled) pays (4 - 2) × 2 = 4, seat 3 pays 4 - 3 = 1, seat 4 (no column) pays 5, seat 2
receives 10 -> -4 / +10 / -1 / -5, and seat 2 is the next banker."""
import pytest

from scoring.models import Deal, Membership, Round
from tests.browser.conftest import PHONE, horizontal_overflow, shot
from tests.browser.referee import Clicks
from tests.factories import (
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TournamentFactory,
    UserFactory,
    named_teams,
)
from tests.games.kits import keys

pytestmark = pytest.mark.django_db(transaction=True)

NAMES = ("Anna de Vries", "Bram Jansen", "Chen Wei", "Dewi Pranata")


def entry_urls(referee) -> dict[str, str]:
    """A published round 1 of a tournament of every four-player game (the registry's) and of Tai
    Pan, with ``referee`` as their referee; the entry page of its table 1 (Tai Pan: match 1), by
    game."""
    urls = {}
    for game in keys(entrants="players"):
        t = TournamentFactory(name=f"Open {game}", slug=game, game=game)
        rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
        table = TableFactory(round=rnd, number=1, players=[PlayerFactory(tournament=t, name=n) for n in NAMES])
        MembershipFactory(tournament=t, user=referee, role=Membership.Role.REFEREE)
        urls[game] = f"/t/{game}/table/{table.pk}/enter/"
    t = TournamentFactory(name="NSKT Studenten 2026", slug="nskt")
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    ns, ew = named_teams(t, ["De Draken", "Feniksen Utrecht"])
    match = MatchFactory(round=rnd, table=1, team_ns=ns, team_ew=ew)
    MembershipFactory(tournament=t, user=referee, role=Membership.Role.REFEREE)
    urls["taipan"] = f"/t/nskt/match/{match.pk}/enter/"
    return urls


def target_size(page) -> tuple[list[str], bool]:
    """axe-core's ``target-size`` violations (WCAG 2.2 AA rule set) as "target" lines, and
    whether the rule ran at all (it passed or found something on the page)."""
    from axe_playwright_python.sync_playwright import Axe

    response = Axe().run(page, options={"runOnly": {"type": "tag", "values": ["wcag22aa"]}}).response
    ran = any(r["id"] == "target-size" for key in ("passes", "violations", "incomplete") for r in response[key])
    return [f"{node['target']}" for v in response["violations"] if v["id"] == "target-size" for node in v["nodes"]], ran


def small_tile_keys(page) -> list[str]:
    """Every tile key of every suit panel narrower or lower than 44 CSS px (each panel shown in
    turn through its suit tab)."""
    small = []
    for tab in page.locator("#tile-picker [data-suit]").all():
        tab.click()
        small += page.evaluate("""() => Array.from(document.querySelectorAll('#tile-picker .suit-panel:not([hidden]) button.tile'))
            .map(b => [b.dataset.group, b.getBoundingClientRect()]).filter(([g, r]) => r.width < 44 || r.height < 44)
            .map(([g, r]) => g + ' ' + Math.round(r.width) + 'x' + Math.round(r.height))""")
    return small


def test_entry_pages_have_no_small_targets_and_show_tiles_as_tiles(new_page):
    referee = UserFactory(username="scheids")
    urls = entry_urls(referee)
    page = new_page(PHONE, user=referee, mobile=True)
    for game, url in urls.items():
        assert page.goto(page.base + url).ok, url
        page.wait_for_load_state()
        if page.locator("input[name=entrymode][value=full]").count():  # a quick mahjong entry
            violations, ran = target_size(page)
            assert ran and violations == [], (url, "quick", violations)
            page.click("input[name=entrymode][value=full] + label")  # "all tiles": the tile picker
        if page.locator("#tile-picker").count():  # the mahjong games' tile picker
            assert small_tile_keys(page) == [], game
            page.click("#tile-picker [data-suit=m]")
            for group in ("123", "456", "55"):
                page.click(f"#tile-picker .suit-panel[data-panel=m] button[data-group='{group}']")
            faces = page.locator("#hand-view .tf")
            assert faces.count() == 8  # one tile face per tile typed, as the keys are tapped
            assert page.locator("#hand-view .tf-n").all_inner_texts() == list("12345655")
            assert faces.first.get_attribute("class").split()[-1] == "m"
            box = faces.first.bounding_box()
            assert box["width"] >= 44 and box["height"] >= 44
            hand = page.locator("#hand-view").evaluate("el => el.closest('form').querySelector('input[data-tiles=hand]').value")
            assert hand == "123m 456m 55m"  # the stored notation is unchanged
        assert horizontal_overflow(page) == 0, url
        shot(page, f"{game}-entry-targets-phone")
        violations, ran = target_size(page)
        assert ran, f"axe did not run target-size on {url}"
        assert violations == [], (url, violations)


def test_a_common_tien_gow_deal_in_five_taps(new_page):
    referee = UserFactory(username="scheids")
    url = entry_urls(referee)["tiengow"]
    page = new_page(PHONE, user=referee, mobile=True)
    page.goto(page.base + url)
    assert "Anna de Vries" in page.inner_text("#tg-banker")  # seat 1 deals first
    tap = Clicks(page)
    tap("input[name='deal-last_winner'][value='1'] + label")  # Bram Jansen (seat 2) won the last trick
    for digit in (2, 3, 3):
        tap(f".tg-keypad button[data-digit='{digit}']")
    assert [page.input_value(f"#id_deal-columns_{i}") for i in range(4)] == ["2", "3", "3", "0"]  # 8 - 2 - 3 - 3
    page.wait_for_selector("#preview table")
    shot(page, "tiengow-quick-phone")
    assert horizontal_overflow(page) == 0
    tap("#save")
    page.wait_for_url("**/enter/#record-1")
    deal = Deal.objects.get()
    assert deal.record["columns"] == [2, 3, 3, 0] and deal.record["last_trick"] == {"winner": 1, "group": "ordinary"}
    assert deal.net == [-4, 10, -1, -5]
    assert "Bram Jansen" in page.inner_text("#tg-banker")  # the winner of the last trick deals next
    assert tap.count == 5
    # a corrected box: the box filled with the rest follows (8 - 1 - 1 - 4 = 2)
    for digit in (1, 2, 4):
        page.click(f".tg-keypad button[data-digit='{digit}']")
    assert [page.input_value(f"#id_deal-columns_{i}") for i in range(4)] == ["1", "2", "4", "1"]
    page.click("#id_deal-columns_1")
    page.click(".tg-keypad button[data-digit='1']")
    assert [page.input_value(f"#id_deal-columns_{i}") for i in range(4)] == ["1", "1", "4", "2"]
