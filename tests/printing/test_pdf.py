"""PDFs (issue 2 item 8): score sheet, round pack, standings; produced through the views and read
back with pypdf to find the tournament, teams, players and entered scores."""
import io

import pytest
from django.urls import reverse
from django.utils import translation
from pypdf import PdfReader

from scoring.models import Hand, Match, Player, Round, Team, Tournament
from scoring.printing import matches as pdf

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # English pages and PDFs whatever translations exist (messages are asserted in English).
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def make_team(t, name, a, b):
    p1 = Player.objects.create(tournament=t, name=a)
    p2 = Player.objects.create(tournament=t, name=b)
    return Team.objects.create(tournament=t, name=name, first_player=p1, second_player=p2, affiliation="Sint Jansbrug")


@pytest.fixture
def round1():
    t = Tournament.objects.create(name="Zeeuwse Taipan Cup", slug="ztc", game="taipan")
    teams = [make_team(t, f"Team {n}", f"{n} Een", f"{n} Twee") for n in ("Alfa", "Bravo", "Charlie", "Delta", "Échec")]
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    Match.objects.create(round=rnd, table=2, team_ns=teams[2], team_ew=teams[3])
    Match.objects.create(round=rnd, table=3, team_ns=teams[4], team_ew=None)  # bye
    return rnd


def text_of(data: bytes) -> tuple[str, int]:
    reader = PdfReader(io.BytesIO(data))
    return "\n".join(page.extract_text() for page in reader.pages), len(reader.pages)


def test_score_sheet_view(client, round1):
    match = round1.matches.get(table=1)
    r = client.get(reverse("scoring:score_sheet_pdf", args=["ztc", match.pk]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    text, pages = text_of(r.content)
    assert pages == 1
    for needle in ("Zeeuwse Taipan Cup", "Team Alfa", "Team Bravo", "Alfa Een", "Alfa Twee", "Bravo Een", "Bravo Twee"):
        assert needle in text, needle
    # about 20 numbered hand rows on an empty sheet
    assert "20" in text


def test_score_sheet_shows_entered_hands(round1, user_factory):
    """Hand 1: N Tai Pan made, 75/25 -> 175:25 (NSKT rules); printed with the running total."""
    from scoring.results import matches as results

    user = user_factory("ref")
    match = round1.matches.get(table=1)
    results.add_hand(match, {"calls": {"N": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 75, "EW": 25}}, user)
    data = pdf.score_sheet_pdf(match, base_url="https://nskt.example.org/")
    text, _ = text_of(data)
    assert "175" in text and "75" in text
    assert "nskt.example.org/t/ztc/match/" in text.replace("\n", "")  # the match URL under the QR code


def test_score_sheet_many_hands_rows_do_not_split(round1, user_factory):
    """30 hands do not fit one page: the table continues on page 2 with its header repeated."""
    match = round1.matches.get(table=2)
    for i in range(1, 31):
        Hand.objects.create(match=match, number=i, record={"calls": {}, "first_out": "E", "double_victory": None, "card_points": {"NS": 50, "EW": 50}}, ns=50, ew=50)
    data = pdf.score_sheet_pdf(match)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) == 2
    page2 = reader.pages[1].extract_text()
    assert "Card points" in page2 or "First out" in page2  # header repeated
    assert "1500" in page2  # running total after 30 hands of 50


def test_round_pack_view_has_every_team(client, round1):
    r = client.get(reverse("scoring:round_pack_pdf", args=["ztc", 1]))
    assert r.status_code == 200
    text, pages = text_of(r.content)
    assert pages == 3
    for name in ("Team Alfa", "Team Bravo", "Team Charlie", "Team Delta", "Team Échec"):
        assert name in text, name


def test_draft_round_pack_not_public(client, round1):
    round1.status = Round.Status.DRAFT
    round1.save()
    assert client.get(reverse("scoring:round_pack_pdf", args=["ztc", 1])).status_code == 404
    match = round1.matches.get(table=1)
    assert client.get(reverse("scoring:score_sheet_pdf", args=["ztc", match.pk])).status_code == 404


def test_round_pack_progress_callback(round1):
    calls = []
    pdf.round_pack_pdf(round1, progress=lambda done, total: calls.append((done, total)))
    assert calls == [(1, 3), (2, 3), (3, 3)]


def test_standings_pdf_view(client, round1, user_factory):
    from scoring.results import matches as results

    user = user_factory("ref")
    match = round1.matches.get(table=1)
    for _ in range(2):  # N Grand Tai Pan + double victory: 400 a hand, 800 after two
        results.add_hand(match, {"calls": {"N": "grand_tai_pan"}, "first_out": "N", "double_victory": "NS", "card_points": None}, user)
    r = client.get(reverse("scoring:standings_pdf", args=["ztc"]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    text, _ = text_of(r.content)
    for name in ("Zeeuwse Taipan Cup", "Team Alfa", "Team Bravo", "Team Charlie", "Team Delta", "Team Échec"):
        assert name in text, name
    assert text.index("Team Alfa") < text.index("Team Bravo")  # the winner ranks above the loser
    assert "800" in text



def test_sheet_with_18_hands_still_one_page(round1):
    match = round1.matches.get(table=2)
    for i in range(1, 19):
        Hand.objects.create(match=match, number=i, record={"calls": {}, "first_out": "E", "double_victory": None, "card_points": {"NS": 50, "EW": 50}}, ns=50, ew=50)
    text, pages = text_of(pdf.score_sheet_pdf(match, base_url="http://testserver/"))
    assert pages == 1
    assert "900" in text  # running total after 18 hands of 50


def test_long_team_names_keep_each_sheet_on_one_page(round1):
    """Issue 2 item 8: rows never split awkwardly; a sheet with wrapping 120-character names and
    affiliations stays one page (the signatures never stand alone on a page)."""
    long = "Studentenvereniging voor Denksporten " * 4
    for team in Team.objects.filter(tournament=round1.tournament):
        team.name = (long + team.name)[-120:]
        team.affiliation = long[:120]
        team.save()
    match = round1.matches.get(table=1)
    for i in range(1, 19):
        Hand.objects.create(match=match, number=i, record={"calls": {}, "first_out": "E", "double_victory": None, "card_points": {"NS": 50, "EW": 50}}, ns=50, ew=50)
    _, pages = text_of(pdf.score_sheet_pdf(match, base_url="http://testserver/"))
    assert pages == 1
    _, pack_pages = text_of(pdf.round_pack_pdf(round1, base_url="http://testserver/"))
    assert pack_pages == 3  # two matches and a bye, one page each


def test_standings_pdf_layout_many_teams(round1, monkeypatch):
    """Layout only (rows given): 120 teams run over several landscape pages, the header repeats on
    every page and no row is split; withdrawn teams are marked."""
    from dataclasses import dataclass, field

    @dataclass
    class Row:
        rank: int
        team_id: int
        name: str
        players: str
        affiliation: str = ""
        played: int = 5
        won: int = 3
        drawn: int = 0
        lost: int = 2
        byes: int = 0
        match_points: int = 6
        point_difference: int = 120
        points_scored: int = 3400
        buchholz: int = 30
        tiebreaks: dict = field(default_factory=dict)
        withdrawn: bool = False

    rows = [Row(rank=i + 1, team_id=i, name=f"Team {i:03d}", players=f"P{i} & Q{i}", withdrawn=(i == 7),
                tiebreaks={"point_difference": 120, "median_buchholz": 12}) for i in range(120)]
    from scoring.standings import teams as service

    monkeypatch.setattr(service, "standings", lambda tournament, through_round=None: rows)
    data = pdf.standings_pdf(round1.tournament)
    reader = PdfReader(io.BytesIO(data))
    assert len(reader.pages) >= 3
    texts = [p.extract_text() for p in reader.pages]
    assert all("Buchholz" in t for t in texts)  # header on every page
    joined = "\n".join(texts)
    assert all(f"Team {i:03d}" in joined for i in range(120))
    assert "Team 007 (withdrawn)" in joined
    assert "median_buchholz" in joined or "Median" in joined


def test_round_pack_queries_do_not_grow_with_tables(round1, django_assert_max_num_queries):
    t = round1.tournament
    for i in range(4, 14):
        Match.objects.create(round=round1, table=i, team_ns=make_team(t, f"Team N{i}", f"N{i}a", f"N{i}b"),
                             team_ew=make_team(t, f"Team E{i}", f"E{i}a", f"E{i}b"))
    with django_assert_max_num_queries(3):
        data = pdf.round_pack_pdf(round1)
    text, pages = text_of(data)
    assert pages == 13 and "Team E13" in text


def test_round_pack_download_is_built_once_per_round_state(client, round1, monkeypatch):
    """Public downloads of the same round reuse the built PDF; a change to a match rebuilds it."""
    from django.core.cache import cache

    cache.clear()
    calls = []
    real = pdf.round_pack_pdf

    def counting(rnd, **kw):
        calls.append(rnd.pk)
        return real(rnd, **kw)

    monkeypatch.setattr(pdf, "round_pack_pdf", counting)
    url = f"/t/{round1.tournament.slug}/round/1/pack.pdf"
    first = client.get(url)
    second = client.get(url)
    assert first.status_code == second.status_code == 200
    assert first.content == second.content and len(calls) == 1
    match = round1.matches.get(table=1)
    match.version += 1
    match.save()
    assert client.get(url).status_code == 200 and len(calls) == 2


def test_standings_pdf_columns_fit_the_page_with_every_tiebreak(round1, monkeypatch):
    """Found by a fresh-clone tester: with several tie-breaks the last columns ran off the page."""
    from reportlab.lib.pagesizes import A4, landscape

    from scoring.standings.tiebreaks import REGISTRY

    t = round1.tournament
    t.tiebreaks = list(REGISTRY)
    t.save()
    widths = []
    real_table = pdf.Table

    def spy(rows, colWidths=None, **kw):
        widths.append(colWidths)
        return real_table(rows, colWidths=colWidths, **kw)

    monkeypatch.setattr(pdf, "Table", spy)
    pdf.standings_pdf(t)
    frame = landscape(A4)[0] - 2 * pdf.MARGIN - 12
    assert widths and sum(widths[-1]) <= frame + 0.01
