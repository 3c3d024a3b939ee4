"""The public pages in a real browser (issue 11 items 4-7 and 10): nothing scrolls sideways on a
360 px phone, the projector views fit 1280×720, 1366×768 and 1920×1080 without scrolling and
cycle through their screens, the standings follow a confirmation without a reload, a player
finds their table by name on a phone, and axe-core finds no serious or critical violation.

Screenshots kept as artefacts (``var/screenshots``): ``standings-phone``, ``projector-1366``,
``find-my-table`` and a few more."""
from __future__ import annotations

import pytest
from django.urls import reverse

from scoring.draw.rounds import close_round
from scoring.models import Match, Round
from scoring.policy import SYSTEM
from tests.browser.conftest import (
    LAPTOP,
    PHONE,
    PROJECTOR_720,
    PROJECTOR_HD,
    horizontal_overflow,
    shot,
)
from tests.factories import (
    DEALS,
    DOUBLE_VICTORY_NS,
    PLAIN_HAND,
    TAI_PAN_HAND,
    MatchFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    play,
    played_taipan_tournament,
    staff,
)

pytestmark = pytest.mark.django_db(transaction=True)

#: Long real-looking names: the layout must wrap them, never scroll sideways.
TEAMS = [
    ("Studentenvereniging Draken", "Asopos (Leiden)", "Anna de Vries", "Bram Jansen"),
    ("Feniksen", "Asopos (Leiden)", "Carmen Bakker-Vanderhoeven", "Daan Visser"),
    ("Jade", "Augustinus (Amsterdam)", "Eva Smit", "Floris Meijer"),
    ("Pagodes", "Augustinus (Amsterdam)", "Gijs de Boer", "Hanna Mulder"),
    ("Zwaarden van het Noorden", "Vindicat (Groningen)", "Iris de Groot", "Joris Bos"),
    ("Sterren", "Vindicat (Groningen)", "Kim Vos", "Lars Peters"),
    ("Mahjongers", "Virgiel (Delft)", "Lotte Hendriks", "Milan van Dijk"),
    ("Bommen", "Virgiel (Delft)", "Noor Dekker", "Olivier Brouwer"),
]


def _taipan(slug="nskt"):
    """NSKT 2026: 8 teams; round 1 played and closed (NS wins every table with four double
    victories, 800 : 0), round 2 published with table 1 (Draken - Feniksen) under way (two hands)
    and three tables still to play."""
    t = TournamentFactory(name="NSKT kampioenschap 2026", slug=slug, venue="Utrecht")
    people = staff(t, referees=2)
    teams = [TeamFactory(tournament=t, name=name, affiliation=aff, first_player__name=a, second_player__name=b)
             for name, aff, a, b in TEAMS]
    r1 = RoundFactory(tournament=t, number=1)
    for table, i in enumerate(range(0, 8, 2), start=1):
        play(MatchFactory(round=r1, table=table, team_ns=teams[i], team_ew=teams[i + 1]), [DOUBLE_VICTORY_NS] * 4,
             people["referees"][0], confirmer=people["referees"][1])
    close_round(r1, people["organiser"])
    r2 = RoundFactory(tournament=t, number=2)
    pairs = [(0, 2), (1, 3), (4, 6), (5, 7)]
    matches = [MatchFactory(round=r2, table=n, team_ns=teams[a], team_ew=teams[b]) for n, (a, b) in enumerate(pairs, start=1)]
    play(matches[0], [PLAIN_HAND, TAI_PAN_HAND], people["referees"][0])
    return {"t": t, "people": people, "teams": teams, "matches": matches, "round": r2}


def _sichuan():
    """Sichuan Open: 8 players at two tables of round 1, table 1 with two deals."""
    t = TournamentFactory(name="Sichuan Open Delft", slug="sichuan", game="sichuan")
    names = ["Ämber Lüdke", "Bo Chen", "Chloé Martin", "Daan de Jong", "Eline Bos", "Femke van Rijn",
             "Gert-Jan Smit", "Lieke van der Heijden-Oosterhout"]
    players = [PlayerFactory(tournament=t, name=n, affiliation="Virgiel (Delft)") for n in names]
    rnd = RoundFactory(tournament=t, number=1)
    tables = [TableFactory(round=rnd, number=1, players=players[:4]), TableFactory(round=rnd, number=2, players=players[4:])]
    play(tables[0], [DEALS["sichuan"][0]] * 2, SYSTEM)
    return {"t": t, "players": players, "tables": tables}


def url(name, *args) -> str:
    return reverse(f"scoring:{name}", args=list(args))


# --- no sideways scrolling at 360 px --------------------------------------------------------------

def test_no_public_page_scrolls_sideways_on_a_phone(new_page):
    """Tournament list and home, standings, round pairings (also as a referee, whose "Enter
    hands" link must be fully on screen), team page, find my table, and the four-player pages:
    the document is never wider than the 360 px screen."""
    tp, sc = _taipan(), _sichuan()
    t = tp["t"]
    draken = tp["teams"][0]
    pages = {
        "list": "/",
        "home": url("tournament_detail", t.slug),
        "standings": url("standings", t.slug),
        "round": url("round_pairings", t.slug, 2),
        "round-closed": url("round_pairings", t.slug, 1),
        "team": url("team_breakdown", t.slug, draken.pk),
        "find": url("find_table", t.slug) + "?q=anna",
        "sichuan-home": url("tournament_detail", sc["t"].slug),
        "sichuan-round": url("round_pairings", sc["t"].slug, 1),
        "sichuan-standings": url("standings", sc["t"].slug),
        "sichuan-player": url("player_page", sc["t"].slug, sc["players"][0].pk),
    }
    page = new_page(PHONE)
    for name, path in pages.items():
        page.goto(page.base + path)
        assert horizontal_overflow(page) == 0, name
        if name in ("standings", "team", "round"):
            shot(page, f"{name}-phone")
    referee = new_page(PHONE, user=tp["people"]["referees"][0])
    referee.goto(referee.base + pages["round"])
    assert horizontal_overflow(referee) == 0
    links = referee.locator("a.enter")
    assert links.count() == 4  # every unconfirmed table of the open round
    for i in range(links.count()):
        box = links.nth(i).bounding_box()
        assert box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"], links.nth(i).inner_text()
    shot(referee, "round-referee-phone")


def test_phone_standings_put_rank_team_and_match_points_first(new_page):
    """On a phone each team is a card whose first line holds its rank, its name and its match
    points (all inside the screen), with the other numbers below."""
    tp = _taipan()
    page = new_page(PHONE)
    page.goto(page.base + url("standings", tp["t"].slug))
    first = page.locator("table.standings tbody tr").first
    rank, name, points = (first.locator(f"td.{c}").bounding_box() for c in ("c-rank", "c-name", "c-main"))
    assert abs(rank["y"] - name["y"]) < 8 and abs(points["y"] - name["y"]) < 8  # one line
    assert points["x"] + points["width"] <= PHONE["width"]
    played = first.locator("td[data-label]").nth(3).bounding_box()
    assert played["y"] > name["y"] + name["height"] - 2  # the details come below
    assert first.locator("td.c-main").inner_text().startswith("2")  # round 1 winners: 2 match points
    shot(page, "standings-phone")


# --- projector ------------------------------------------------------------------------------------

def _fits(page) -> tuple[int, int]:
    return page.evaluate("() => [document.documentElement.scrollWidth - document.documentElement.clientWidth,"
                         " document.documentElement.scrollHeight - document.documentElement.clientHeight]")


def _screen(page) -> tuple[str, list[str]]:
    """The screen label ("2/4") and the first cells of the rows shown."""
    label = page.locator("[data-screen]").inner_text()
    ranks = page.evaluate("() => [...document.querySelectorAll('table.paged tbody tr')]"
                          ".filter(r => getComputedStyle(r).display !== 'none').map(r => r.cells[1].innerText)")
    return label, ranks


#: The parts of the projector's heading whose text does not fit them (cut, with an ellipsis or not).
CUT_HEADING = """() => [...document.querySelectorAll('h1.projector-head, h1.projector-head .title, h1.projector-head .provisional')]
    .filter(el => el.scrollWidth > el.clientWidth || el.getBoundingClientRect().right > window.innerWidth)
    .map(el => el.className || el.tagName)"""


@pytest.mark.parametrize("viewport", [LAPTOP, PROJECTOR_720, PROJECTOR_HD], ids=["1366x768", "1280x720", "1920x1080"])
def test_projector_subtitle_is_not_cut(new_page, viewport):
    """Provisional standings on the projector: "(voorlopig: nog niet alle uitslagen zijn
    bevestigd)" is shown whole (it was cut after "zijn" at every projector size), and the rows
    still fit the screen under it."""
    t = played_taipan_tournament(60, 3, slug="hall", name="NSKT kampioenschap 2026")
    Match.objects.filter(pk=Match.objects.filter(round__tournament=t, round__number=3).first().pk).update(
        status=Match.Status.FINISHED)
    page = new_page(viewport)
    page.goto(page.base + url("standings", t.slug) + "?projector=1")
    page.wait_for_function("() => document.querySelector('[data-screen]').textContent.includes('/')")
    heading = page.locator("h1.projector-head")
    assert "voorlopig: nog niet alle uitslagen zijn bevestigd" in heading.inner_text()
    assert page.evaluate(CUT_HEADING) == []
    assert _fits(page) == [0, 0]
    if viewport == PROJECTOR_720:
        shot(page, "projector-provisional-1280")
    page.goto(page.base + url("round_pairings", t.slug, 3) + "?projector=1")
    assert page.evaluate(CUT_HEADING) == []
    assert _fits(page) == [0, 0]


@pytest.mark.parametrize("viewport", [LAPTOP, PROJECTOR_720, PROJECTOR_HD], ids=["1366x768", "1280x720", "1920x1080"])
def test_projector_standings_fit_the_screen_and_cycle(new_page, settings, viewport):
    """60 teams after 3 rounds: the projector shows as many rows as fit (more than 10, in large
    type), no scrolling either way, "Standings after round 3" ("Stand na ronde 3"), no players
    nor all-zero head-to-head column, and pages through every team, back to the first screen."""
    settings.PROJECTOR_SECONDS = 1
    t = played_taipan_tournament(60, 3, slug="hall", name="NSKT kampioenschap 2026",
                                 tiebreaks=["point_difference", "buchholz", "points_scored", "head_to_head"])
    page = new_page(viewport)
    page.goto(page.base + url("standings", t.slug) + "?projector=1")
    page.wait_for_function("() => document.querySelector('[data-screen]').textContent.includes('/')")
    assert _fits(page) == [0, 0]
    assert "Stand na ronde 3" in page.locator("h1").inner_text()
    headers = page.locator("table.paged thead th").all_inner_texts()
    assert "Spelers" not in " ".join(headers) and not any(h.strip() in ("OR", "H2H") for h in headers)
    font = page.evaluate("() => parseFloat(getComputedStyle(document.querySelector('table.paged td')).fontSize)")
    assert font >= 0.03 * viewport["height"]  # large type, scaled to the screen
    label, shown = _screen(page)
    per_screen = len(shown)
    assert per_screen >= 10 and label == f"1/{-(-60 // per_screen)}"
    last = page.evaluate("() => { const rows = [...document.querySelectorAll('table.paged tbody tr')]"
                         ".filter(r => getComputedStyle(r).display !== 'none'); return rows[rows.length - 1].getBoundingClientRect().bottom }")
    assert last <= viewport["height"]
    if viewport == LAPTOP:
        shot(page, "projector-1366")
    seen, pages = set(shown), int(label.split("/")[1])
    for n in range(2, pages + 1):
        page.wait_for_function(f"() => document.querySelector('[data-screen]').textContent === '{n}/{pages}'", timeout=5_000)
        label, shown = _screen(page)
        assert _fits(page) == [0, 0]
        seen |= set(shown)
    assert len(seen) == 60  # every team was on a screen
    page.wait_for_function(f"() => document.querySelector('[data-screen]').textContent === '1/{pages}'", timeout=5_000)


@pytest.mark.parametrize("viewport", [LAPTOP, PROJECTOR_720, PROJECTOR_HD], ids=["1366x768", "1280x720", "1920x1080"])
def test_projector_pairings_fit_the_screen_and_cycle(new_page, settings, viewport):
    """Round 1 of 60 teams (30 tables): no scrolling, no pairing reasons, cycling screens."""
    settings.PROJECTOR_SECONDS = 1
    t = played_taipan_tournament(60, 1, slug="hall", name="NSKT kampioenschap 2026")
    page = new_page(viewport)
    page.goto(page.base + url("round_pairings", t.slug, 1) + "?projector=1")
    page.wait_for_function("() => document.querySelector('[data-screen]').textContent.includes('/')")
    assert _fits(page) == [0, 0]
    assert page.locator("td.reason").count() == 0
    label, shown = _screen(page)
    pages = int(label.split("/")[1])
    assert pages == -(-30 // len(shown)) and len(shown) >= 8
    page.wait_for_function(f"() => document.querySelector('[data-screen]').textContent === '2/{pages}'", timeout=5_000)
    assert _fits(page) == [0, 0]
    if viewport == LAPTOP:
        shot(page, "projector-pairings-1366")


# --- live standings -------------------------------------------------------------------------------

def test_standings_follow_a_confirmation_without_a_reload(new_page, settings):
    """The standings page is open on a phone; meanwhile the referees finish Draken - Jade (round
    2, table 1) and confirm it through the result sheet: within a few polls the page says
    "Stand na ronde 2", Studentenvereniging Draken lead with 4 match points, and the page was
    never reloaded (a marker set in the window survives)."""
    settings.LIVE_POLL_SECONDS = 1
    tp = _taipan()
    page = new_page(PHONE)
    page.goto(page.base + url("standings", tp["t"].slug))
    assert "Stand na ronde 1" in page.locator("[data-after]").inner_text()
    page.evaluate("() => { window.__notReloaded = true }")
    m = tp["matches"][0]
    referee, confirmer = tp["people"]["referees"]
    play(m, [DOUBLE_VICTORY_NS] * 3, referee, confirmer=confirmer)  # 250 + 600 = 850 : 50, confirmed
    page.wait_for_function("() => document.querySelector('[data-after]').innerText.includes('Stand na ronde 2')", timeout=10_000)
    first = page.locator("table.standings tbody tr").first
    assert "Studentenvereniging Draken" in first.inner_text() and first.locator("td.c-main").inner_text().startswith("4")
    assert page.evaluate("() => window.__notReloaded === true")
    assert "voorlopig" in page.locator("[data-after]").inner_text()  # three tables of round 2 still open


def test_round_page_follows_results_without_a_reload(new_page, settings):
    settings.LIVE_POLL_SECONDS = 1
    tp = _taipan()
    page = new_page(PHONE)
    page.goto(page.base + url("round_pairings", tp["t"].slug, 2))
    page.evaluate("() => { window.__notReloaded = true }")
    # The round page shows a table's score once it is finished (issue 25: hands of a table being
    # played leave it unchanged): one double victory, then the time limit.
    play(tp["matches"][1], [DOUBLE_VICTORY_NS], tp["people"]["referees"][0], end_reason="time limit")
    page.wait_for_function("() => document.body.innerText.includes('200 – 0')", timeout=10_000)
    assert page.evaluate("() => window.__notReloaded === true")


# --- find my table --------------------------------------------------------------------------------

def test_a_player_finds_their_table_on_a_phone(new_page):
    """Carmen opens the tournament on her phone and types part of her name without the hyphen's
    capital; the answer appears in place: table 2 of round 2, her team Feniksen plays NS, her
    seat N, the opponents Pagodes, and a link to the table."""
    tp = _taipan()
    page = new_page(PHONE)
    page.goto(page.base + url("tournament_detail", tp["t"].slug))
    page.get_by_label("Je naam of de naam van je team").fill("carmen bakker-vander")
    hit = page.locator("#find-results article").first
    hit.wait_for()
    text = hit.inner_text()
    assert "Feniksen" in text and "Tafel 2" in text and "ronde 2 · NS" in text
    assert "Pagodes" in text
    mine = hit.locator("li.mine")
    assert mine.count() == 1 and "Carmen Bakker-Vanderhoeven" in mine.inner_text() and mine.inner_text().startswith("N")
    assert horizontal_overflow(page) == 0
    hit.get_by_role("link", name="Naar de tafel").wait_for()
    shot(page, "find-my-table")
    hit.get_by_role("link", name="Naar de tafel").click()
    page.wait_for_load_state()
    assert page.url.endswith(url("match_detail", tp["t"].slug, tp["matches"][1].pk))


# --- accessibility --------------------------------------------------------------------------------

def test_axe_finds_no_serious_violation_on_the_public_pages(new_page):
    """axe-core (bundled by axe-playwright-python, no download) on the main public pages, on a
    phone and at laptop width: no violation of impact serious or critical."""
    from axe_playwright_python.sync_playwright import Axe

    tp, sc = _taipan(), _sichuan()
    t = tp["t"]
    paths = ["/", url("tournament_detail", t.slug), url("standings", t.slug), url("standings", t.slug) + "?projector=1",
             url("round_pairings", t.slug, 2), url("round_pairings", t.slug, 2) + "?projector=1",
             url("team_breakdown", t.slug, tp["teams"][0].pk), url("find_table", t.slug) + "?q=anna",
             url("standings", sc["t"].slug), url("round_pairings", sc["t"].slug, 1),
             url("player_page", sc["t"].slug, sc["players"][0].pk)]
    axe = Axe()
    problems = []
    for viewport in (PHONE, LAPTOP):
        page = new_page(viewport)
        for path in paths:
            page.goto(page.base + path)
            results = axe.run(page)
            for v in results.response["violations"]:
                if v["impact"] in ("serious", "critical"):
                    problems.append(f"{viewport['width']} {path}: {v['id']} ({v['impact']}): "
                                    + "; ".join(n["target"][0] for n in v["nodes"][:3]))
    assert problems == []


def test_draft_round_is_not_the_players_current_round(new_page):
    tp = _taipan()
    RoundFactory(tournament=tp["t"], number=3, status=Round.Status.DRAFT)
    page = new_page(PHONE)
    page.goto(page.base + url("tournament_detail", tp["t"].slug))
    assert "Ronde 2" in page.locator("section.now h2").inner_text()


#: The cells of the projector's table whose text is wider than the cell's content box (shown cut,
#: with an ellipsis: the laid-out text runs past the padding).
CUT_CELLS = """() => [...document.querySelectorAll('table.paged thead th, table.paged tbody tr:not(.off) td')].filter(el => {
    const range = document.createRange(); range.selectNodeContents(el);
    const text = range.getBoundingClientRect(), box = el.getBoundingClientRect(), css = getComputedStyle(el);
    return text.right > box.right - parseFloat(css.paddingRight) + 0.5 || text.left < box.left + parseFloat(css.paddingLeft) - 0.5;
}).map(el => el.className + ' ' + el.innerText)"""


def test_four_player_projector_headings_are_whole(new_page):
    """A four-player tournament with placement points (tests/standings/placement_world.py: EMA
    4/2/1/0) on the projector at 1366×768: no column heading is cut ("P…" for the total points
    was), and the totals show whole."""
    from tests.standings.placement_world import ema_eight

    t, _players = ema_eight()
    page = new_page(LAPTOP)
    page.goto(page.base + url("standings", t.slug) + "?projector=1")
    cut = page.evaluate(CUT_CELLS)
    assert cut == []
    assert [h.strip() for h in page.locator("table.paged thead th").all_inner_texts()][-2:] == ["PP", "Pnt"]
    shot(page, "projector-four-player-1366")
    assert _fits(page) == [0, 0]
