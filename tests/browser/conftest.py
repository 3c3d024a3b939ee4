"""Browser tests: Playwright for Python driving Debian's Chromium (``/usr/bin/chromium``, never a
downloaded browser) against Django's live server.

Tests here are marked ``browser``; without Chromium or the playwright package they are skipped
with the reason, except under ``REQUIRE_BROWSER=1`` (set by ``.ci/run``, which installs Chromium),
where a missing browser fails them. Screenshots go to ``var/screenshots/`` (git-ignored; CI keeps
them as test artefacts) through the :func:`shot` helper.

Viewports: :data:`PHONE` (360×740), :data:`PHONE_LARGE` (390×844), :data:`LAPTOP` (1366×768),
:data:`PROJECTOR_HD` (1920×1080), :data:`PROJECTOR_720` (1280×720).
"""
from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
SCREENSHOTS = Path(__file__).resolve().parents[2] / "var" / "screenshots"

PHONE = {"width": 360, "height": 740}
PHONE_LARGE = {"width": 390, "height": 844}
LAPTOP = {"width": 1366, "height": 768}
PROJECTOR_HD = {"width": 1920, "height": 1080}
PROJECTOR_720 = {"width": 1280, "height": 720}


def _missing() -> str:
    try:
        import playwright  # noqa: F401
    except ImportError:
        return "the playwright package is not installed"
    if not (Path(CHROMIUM).exists() or shutil.which(CHROMIUM)):
        return f"Chromium not found at {CHROMIUM} (apt-get install chromium)"
    return ""


def pytest_collection_modifyitems(config, items):
    """Mark every test of this folder ``browser``; skip them without a browser unless
    ``REQUIRE_BROWSER=1``."""
    here = Path(__file__).parent
    mine = [item for item in items if Path(str(item.fspath)).is_relative_to(here)]
    for item in mine:
        item.add_marker(pytest.mark.browser)
    missing = _missing()
    if missing and mine:
        marker = (pytest.mark.usefixtures("_fail_missing_browser") if os.environ.get("REQUIRE_BROWSER") == "1"
                  else pytest.mark.skip(reason=f"browser tests skipped: {missing}"))
        for item in mine:
            item.add_marker(marker)


@pytest.fixture
def _fail_missing_browser():
    pytest.fail("REQUIRE_BROWSER=1 but " + _missing())


@pytest.fixture(scope="session")
def browser():
    """One Chromium for the session. Playwright's sync API runs an event loop in the test's thread;
    the ORM calls the tests make between browser steps are ordinary synchronous ones, so Django's
    async-safety check is switched off while the browser runs (and restored after, so commands the
    other tests start never inherit it)."""
    from playwright.sync_api import sync_playwright

    previous = os.environ.get("DJANGO_ALLOW_ASYNC_UNSAFE")
    os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = "true"
    try:
        with sync_playwright() as p:
            chromium = p.chromium.launch(executable_path=CHROMIUM, args=ARGS)
            yield chromium
            chromium.close()
    finally:
        if previous is None:
            os.environ.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
        else:
            os.environ["DJANGO_ALLOW_ASYNC_UNSAFE"] = previous


@pytest.fixture
def new_page(browser, live_server):
    """``new_page(viewport=PHONE, user=None, mobile=False)``: a page in a fresh browser context
    (logged in as ``user`` when given, through the login form), with ``page.base`` the live
    server's URL; ``mobile`` emulates a phone (``is_mobile``, ``has_touch``: the meta viewport is
    honoured and a page wider than the screen scrolls sideways as on a real phone). Contexts are
    closed at the end of the test.

    Service workers are blocked unless a test asks for them (``service_workers="allow"``: the
    offline tests). The web app's worker fetches pages in the background (an entry page's copy, the
    entry pages "My tables" links), and such a request still running when the test ends would meet
    the database being emptied for the next test."""
    contexts = []

    def make(viewport=PHONE, user=None, password="pw-Secret-123", locale="nl-NL", mobile=False, service_workers="block"):
        context = browser.new_context(viewport=viewport, locale=locale, is_mobile=mobile, has_touch=mobile,
                                      service_workers=service_workers)
        contexts.append(context)
        page = context.new_page()
        page.set_default_timeout(15_000)
        page.base = live_server.url
        if user is not None:
            login(page, user.get_username(), password)
        return page

    yield make
    for context in contexts:
        context.close()


def login(page, username: str, password: str) -> None:
    """Log in through the login form."""
    page.goto(page.base + "/accounts/login/")
    page.fill("input[name=username]", username)
    page.fill("input[name=password]", password)
    page.locator("form button[type=submit], form input[type=submit]").last.click()
    page.wait_for_load_state()


def horizontal_overflow(page) -> int:
    """How many CSS pixels the page scrolls sideways (0 when it fits the viewport's width)."""
    return page.evaluate("() => document.documentElement.scrollWidth - document.documentElement.clientWidth")


def shot(page, name: str) -> Path:
    """A full-page screenshot kept as a test artefact: ``var/screenshots/<name>.png``."""
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    path = SCREENSHOTS / f"{name}.png"
    page.screenshot(path=str(path), full_page=True)
    return path


@pytest.fixture
def private_links_world(db):
    """A Tai Pan tournament "NSKT Studenten 2026" (slug ``nskt``) with player entry on: round 1
    published with table 1 "De Draken" (NS) - "Feniksen Utrecht" (EW) and table 2 "Groningen
    Bommen" - "Hond & Mahjong"; a referee ``scheids``. Returns ``(tournament, match, other match,
    {team name: token of its private link})``."""
    from scoring.models import Round
    from scoring.participants import links
    from tests.factories import (
        MatchFactory,
        MembershipFactory,
        RoundFactory,
        TournamentFactory,
        UserFactory,
        named_teams,
    )

    t = TournamentFactory(name="NSKT Studenten 2026", slug="nskt", player_entry=True)
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    teams = named_teams(t, ["De Draken", "Feniksen Utrecht", "Groningen Bommen", "Hond & Mahjong"])
    match = MatchFactory(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    other = MatchFactory(round=rnd, table=2, team_ns=teams[2], team_ew=teams[3])
    MembershipFactory(tournament=t, user=UserFactory(username="scheids"))
    tokens = {str(link.entrant): links.token_of(link) for link in links.ensure_links(t)}
    return t, match, other, tokens
