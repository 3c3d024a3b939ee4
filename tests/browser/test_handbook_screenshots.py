"""The organiser's handbook (``docs/nl/handleiding-organisator.md``) walked in a browser, in Dutch,
and its screenshots taken (issue 14 item 3): create the tournament, import the teams from a CSV
file, pair round 1 by seed, publish it, a referee enters a hand on a phone, end a match at the
time limit, a second person confirms, close the round, a withdrawal, pair round 2; then the
standings, the projector and the tournament page with its JSON backup on the demo tournament, and
the referee guide on a phone. The README's three screenshots come from the same walk.

Every page shown must fit its width (no sideways scrolling; the phone pages at 360 px). The
pictures are small PNGs (256-colour palette) in a folder laid out like ``docs/``: ``nl/img/`` for
the handbook, ``img/`` for the README. A test run writes them to a temporary folder and never
touches the repository; ``make screenshots`` refreshes the documentation's pictures on purpose by
naming ``docs`` in the environment variable ``SCREENSHOTS_DIR`` (a path relative to the
repository, or absolute). There a file is rewritten only when its pixels changed, so a refresh of
pages that did not change leaves the repository clean.
"""
from __future__ import annotations

import io
import os
from pathlib import Path

import pytest
from django.core.management import call_command
from PIL import Image, ImageChops

from scoring.models import Match, Round, Team, Tournament
from scoring.results import sheet
from tests.browser.conftest import PHONE, horizontal_overflow
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, MembershipFactory, UserFactory

pytestmark = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[2]
DOCS = ROOT / "docs"
DESK = {"width": 1100, "height": 760}
PROJECTOR = {"width": 1280, "height": 720}
SLUG = "nskt-2026"
TEAMS_CSV = """name,player1,player2,affiliation,seed,joined_round
De Draken,Anna de Vries,Bram Jansen,Asopos,1,
Feniksen,Carmen Bakker,Daan Visser,Asopos,2,
Jade,Eva Smit,Floris Meijer,Augustinus,3,
Pagodes,Gijs de Boer,Hanna Mulder,Augustinus,4,
Zwaarden,Iris de Groot,Joris Bos,Vindicat,,
Sterren,Kim Vos,Lars Peters,Vindicat,,
Straatjes,Puck de Wit,Quinten Dijkstra,Veritas,,
Trappen,Roos Smits,Sem de Graaf,Veritas,,
"""


def output_folder(tmp_path: Path) -> Path:
    """Where the pictures go: ``SCREENSHOTS_DIR`` (``make screenshots``: ``docs``), else a temporary
    folder of this test."""
    chosen = os.environ.get("SCREENSHOTS_DIR")
    return ROOT / chosen if chosen else tmp_path / "docs"


def save(page, path: Path, *, full_page: bool = False) -> Path:
    """A screenshot of ``page`` as a small palette PNG at ``path``, written only when it differs."""
    image = Image.open(io.BytesIO(page.screenshot(full_page=full_page))).convert("RGB")
    small = image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)
    if path.exists():
        with Image.open(path) as old:
            if old.size == small.size and ImageChops.difference(old.convert("RGB"), small.convert("RGB")).getbbox() is None:
                return path
    path.parent.mkdir(parents=True, exist_ok=True)
    small.save(path, optimize=True)
    return path


def fits(page) -> None:
    assert horizontal_overflow(page) == 0, f"{page.url} scrolls sideways"


def submit(page) -> None:
    """Click the main form's submit button and wait for the next page."""
    page.locator("main form button[type=submit]").first.click()
    page.wait_for_load_state()


def test_a_championship_weekend_in_screenshots(new_page, tmp_path):
    out = output_folder(tmp_path)
    handbook_img, readme_img = out / "nl" / "img", out / "img"
    organiser = UserFactory(username="organisator", is_staff=True)
    desk = new_page(DESK, user=organiser)
    base = desk.base

    # 1. Create the tournament.
    desk.goto(base + "/new/")
    desk.fill("#id_name", "NSKT 2026")
    desk.fill("#id_slug", SLUG)
    desk.fill("#id_venue", "Leiden")
    desk.fill("#id_starts_on", "2026-11-28")
    fits(desk)
    save(desk, handbook_img / "01-toernooi-aanmaken.png", full_page=True)
    submit(desk)
    t = Tournament.objects.get(slug=SLUG)
    assert t.memberships.filter(user=organiser, role="organiser").exists()

    # 2. Import the teams from a CSV file with its header row.
    desk.goto(base + f"/t/{SLUG}/teams/import/")
    assert desk.locator(f"a[href='/t/{SLUG}/teams/import/example.csv']").count() == 1
    desk.set_input_files("input[type=file]", files=[{"name": "teams.csv", "mimeType": "text/csv",
                                                     "buffer": TEAMS_CSV.encode()}])
    fits(desk)
    save(desk, handbook_img / "02-teams-importeren.png")
    submit(desk)
    assert t.teams.count() == 8
    desk.goto(base + f"/t/{SLUG}/teams/")
    fits(desk)
    save(desk, handbook_img / "03-teams.png", full_page=True)

    # Members: a referee and a second referee to confirm.
    referee = MembershipFactory(tournament=t, user=UserFactory(username="scheids")).user
    second = MembershipFactory(tournament=t, user=UserFactory(username="scheids2")).user
    desk.goto(base + f"/t/{SLUG}/members/")
    fits(desk)
    save(desk, handbook_img / "04-leden.png", full_page=True)

    # 3. Pair round 1 by seed, check the draft, publish it.
    desk.goto(base + f"/t/{SLUG}/round/pair/")
    desk.locator("label[for$='method_1']").click()
    fits(desk)
    save(desk, handbook_img / "05-ronde-1-indelen.png")
    submit(desk)
    rnd = Round.objects.get(tournament=t, number=1)
    assert rnd.status == Round.Status.DRAFT and rnd.matches.count() == 4
    desk.goto(base + f"/t/{SLUG}/round/1/")
    fits(desk)
    save(desk, handbook_img / "06-concept-ronde.png", full_page=True)
    desk.locator(f"form[action='/t/{SLUG}/round/1/publish/'] button").click()
    desk.wait_for_load_state()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.PUBLISHED
    desk.goto(base + f"/t/{SLUG}/round/1/")
    fits(desk)
    save(desk, handbook_img / "07-ronde-gepubliceerd.png", full_page=True)

    # 4. A referee enters a hand on a phone.
    matches = list(Match.objects.filter(round=rnd).order_by("table"))
    phone = new_page(PHONE, user=referee)
    phone.goto(phone.base + "/mijn-tafels/")
    fits(phone)
    save(phone, handbook_img / "08-mijn-tafels.png")
    phone.goto(phone.base + f"/t/{SLUG}/match/{matches[0].pk}/enter/")
    phone.locator("label[for=id_first_out_1]").click()
    phone.locator(".chip[data-value='75']").click()
    fits(phone)
    save(phone, handbook_img / "09-hand-invoeren.png")
    phone.locator("#save").click()
    phone.wait_for_url("**/enter/#record-1")
    assert matches[0].hands.count() == 1

    # The other hands of round 1 (through the result sheet, as the referees would).
    for match in matches[:3]:
        match.refresh_from_db()
        for _ in range(2):
            sheet.add_record(match, GRAND_DOUBLE_VICTORY_NS, referee, expected_version=match.version)
            match.refresh_from_db()
    last = matches[3]
    sheet.add_record(last, PLAIN_HAND, referee, expected_version=last.version)

    # 5. The time limit: the last match ends at the time limit.
    desk.goto(base + f"/t/{SLUG}/match/{last.pk}/end/")
    desk.fill("textarea[name='end-reason'], input[name='end-reason']", "Tijdslimiet ronde 1")
    fits(desk)
    save(desk, handbook_img / "10-tijdslimiet.png")
    submit(desk)
    last.refresh_from_db()
    assert last.ended == "time" and last.status == Match.Status.FINISHED

    # 6. A second person confirms (the referee who entered may not).
    check = new_page(PHONE, user=second)
    check.goto(check.base + f"/t/{SLUG}/match/{matches[0].pk}/confirm/")
    fits(check)
    save(check, handbook_img / "11-bevestigen.png")
    submit(check)
    matches[0].refresh_from_db()
    assert matches[0].status == Match.Status.CONFIRMED
    for match in matches[1:]:
        match.refresh_from_db()
        sheet.confirm(match, second, expected_version=match.version)

    # 7. Close the round.
    desk.goto(base + f"/t/{SLUG}/round/1/")
    fits(desk)
    save(desk, handbook_img / "12-ronde-afsluiten.png", full_page=True)
    desk.locator(f"form[action='/t/{SLUG}/round/1/close/'] button").click()
    desk.wait_for_load_state()
    rnd.refresh_from_db()
    assert rnd.status == Round.Status.CLOSED

    # 8. A withdrawal: the team plays no round after round 1.
    leaving = Team.objects.get(tournament=t, name="Trappen")
    desk.goto(base + f"/t/{SLUG}/teams/{leaving.pk}/edit/")
    desk.fill("#id_withdrawn_after_round", "1")
    fits(desk)
    save(desk, handbook_img / "13-team-terugtrekken.png", full_page=True)
    submit(desk)
    leaving.refresh_from_db()
    assert leaving.withdrawn_after_round == 1

    # 9. The next round: Swiss, with the bye to the lowest-ranked team.
    desk.goto(base + f"/t/{SLUG}/round/pair/")
    submit(desk)
    second_round = Round.objects.get(tournament=t, number=2)
    assert second_round.matches.filter(team_ew__isnull=True).count() == 1  # 7 teams: one bye
    desk.goto(base + f"/t/{SLUG}/round/2/")
    fits(desk)
    save(desk, handbook_img / "14-ronde-2-concept.png", full_page=True)

    # 10. Standings, projector and backup on the demo tournament (three played rounds).
    call_command("load_demo", stdout=io.StringIO())
    desk.goto(base + "/t/nskt-demo/standings/")
    fits(desk)
    save(desk, handbook_img / "15-stand.png")
    save(desk, readme_img / "standings.png")
    beamer = new_page(PROJECTOR)
    beamer.goto(beamer.base + "/t/nskt-demo/standings/?projector=1")
    beamer.wait_for_load_state("networkidle")
    fits(beamer)
    save(beamer, handbook_img / "16-projector.png")
    save(beamer, readme_img / "projector.png")
    demo_organiser = new_page(DESK, user=Tournament.objects.get(slug="nskt-demo").memberships.get(role="organiser").user,
                              password="nskt-organiser-demo")
    demo_organiser.goto(demo_organiser.base + "/t/nskt-demo/")
    assert demo_organiser.locator("a[href='/t/nskt-demo/export.json']").count() == 1
    fits(demo_organiser)
    save(demo_organiser, handbook_img / "17-toernooipagina-backup.png")

    # The README's phone entry: the demo referee on a match of round 4, the preview filled in.
    demo_referee = new_page(PHONE, user=Tournament.objects.get(slug="nskt-demo").memberships.get(role="referee").user,
                            password="nskt-referee-demo")
    demo_match = Match.objects.filter(round__tournament__slug="nskt-demo", round__number=4).order_by("table").first()
    demo_referee.goto(demo_referee.base + f"/t/nskt-demo/match/{demo_match.pk}/enter/")
    demo_referee.locator("label[for=id_first_out_1]").click()
    demo_referee.locator(".chip[data-value='75']").click()
    demo_referee.wait_for_load_state("networkidle")
    fits(demo_referee)
    save(demo_referee, readme_img / "entry-phone.png")

    # 11. The referee guide on a phone.
    phone.goto(phone.base + "/handleiding-scheidsrechter/")
    fits(phone)
    save(phone, handbook_img / "18-handleiding-scheidsrechter.png")

    # Every picture the documentation shows comes from this walk, under the same name.
    made = sorted(p.relative_to(out).as_posix() for p in out.rglob("*.png"))
    shown = sorted(p.relative_to(DOCS).as_posix() for p in DOCS.rglob("*.png"))
    assert made == shown
