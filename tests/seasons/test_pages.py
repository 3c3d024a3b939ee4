"""Season pages (issue 26 item 3): the ranking page, its query count, 304s, the projector view,
the PDF, the exports (formula-safe, full names for managers only) and the management pages."""
from __future__ import annotations

import csv
import io
import subprocess

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from openpyxl import load_workbook

from scoring.models import Membership, Player, PublicNames, Season, Tournament
from tests.factories import MembershipFactory, TournamentFactory, UserFactory
from tests.seasons.helpers import finished_with_places, person, season

pytestmark = pytest.mark.django_db


def _season_of(n: int, slug: str = "s1") -> Season:
    """A season of ``n`` finished tournaments of the same three people (Anna 1st, Bart 2nd, Cees 3rd)."""
    people = [person(name) for name in ("Anna de Vries", "Bart Smit", "Cees Bol")]
    ts = [finished_with_places({p: i + 1 for i, p in enumerate(people)}, name=f"Cup {k}") for k in range(n)]
    return season(ts, slug=slug, name="Season 2026")


def test_ranking_page_shows_points_and_dropped(client, english):
    anna, bart = person("Anna de Vries"), person("Bart Smit")
    t1 = finished_with_places({anna: 1, bart: 2}, name="Spring", starts_on="2026-03-01")
    t2 = finished_with_places({anna: 2, bart: 1}, name="Autumn", starts_on="2026-10-01")
    t3 = finished_with_places({anna: 2, bart: 1}, name="Winter", starts_on="2026-12-01")
    season([t1, t2, t3], best_n=2)
    html = client.get("/seasons/s1/").content.decode()
    # Best two of F1: Bart 25 + 25 = 50 (18 dropped), Anna 25 + 18 = 43 (the later 18 dropped).
    assert html.index("Bart Smit") < html.index("Anna de Vries")
    assert "<strong>50</strong>" in html and "<strong>43</strong>" in html
    assert 'class="num dropped"' in html and "(18)" in html
    assert "Spring" in html and "Winter" in html
    assert "hx-get" in html and 'data-live-poll="' in html


def test_ranking_page_privacy(client, english):
    anna = person("Anna de Vries")
    t1 = finished_with_places({anna: 1})
    Tournament.objects.filter(pk=t1.pk).update(public_names=PublicNames.SHORT)
    season([t1])
    html = client.get("/seasons/s1/").content.decode()
    assert "Anna V." in html and "de Vries" not in html


def _count(client, url) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url).status_code == 200
    return len(ctx.captured_queries)


def test_query_count_does_not_grow_with_tournaments(client, english):
    _season_of(1, "one")
    _season_of(4, "four")
    client.get("/seasons/one/")  # warm-up (sessions, content types)
    assert _count(client, "/seasons/one/") == _count(client, "/seasons/four/")


def test_conditional_get_until_a_tournament_changes(client, english):
    s = _season_of(2)
    first = client.get("/seasons/s1/")
    etag = first["ETag"]
    assert client.get("/seasons/s1/", HTTP_IF_NONE_MATCH=etag).status_code == 304
    # A live poll (htmx) gets the region only.
    poll = client.get("/seasons/s1/", HTTP_HX_REQUEST="true", HTTP_HX_TARGET="live")
    assert poll.status_code == 200 and b"<html" not in poll.content and b'id="live"' in poll.content
    t = s.tournaments.first()
    from scoring.live import state

    state.bump(t.pk, state.STANDINGS)
    assert client.get("/seasons/s1/", HTTP_IF_NONE_MATCH=etag).status_code == 200


def test_projector_view(client, english):
    _season_of(1)
    html = client.get("/seasons/s1/?projector=1").content.decode()
    assert 'class="projector"' in html and "projector.js" in html and "paged" in html


def test_pdf(client, english, tmp_path):
    _season_of(2)
    response = client.get("/seasons/s1/ranking.pdf")
    assert response.status_code == 200 and response["Content-Type"] == "application/pdf"
    pdf = tmp_path / "r.pdf"
    pdf.write_bytes(response.content)
    text = subprocess.run(["pdftotext", "-layout", str(pdf), "-"], capture_output=True, text=True).stdout
    assert "Season 2026" in text and "Anna de Vries" in text and "50" in text


def test_export_is_formula_safe_and_public(client, english):
    evil = person('=HYPERLINK("http://x","y")', number="F-1")
    bart = person("Bart Smit", number="F-2")
    t1 = finished_with_places({evil: 1, bart: 2}, name="Cup")
    season([t1])
    text = client.get("/seasons/s1/export/?format=csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0] == ["Rank", "Name", "Counted points", "Cup: points", "Cup: place", "Cup: counted"]
    assert rows[1] == ["1", '\'=HYPERLINK("http://x","y")', "25", "25", "1", "yes"]
    assert "F-1" not in text
    xlsx = load_workbook(io.BytesIO(client.get("/seasons/s1/export/?format=xlsx").content)).active
    cell = xlsx.cell(row=2, column=2)
    assert cell.value == '=HYPERLINK("http://x","y")' and cell.data_type == "s" and cell.quotePrefix


def test_full_export_for_managers_only(client, english):
    anna = person("Anna de Vries", number="NL-7")
    t1 = finished_with_places({anna: 1}, name="Cup")
    Tournament.objects.filter(pk=t1.pk).update(public_names=PublicNames.SHORT)
    Player.objects.filter(tournament=t1, person=anna).update(federation_number="NL-7")
    s = season([t1])
    assert client.get("/seasons/s1/export/?full=1").status_code in (302, 403)
    manager = UserFactory()
    s.managers.add(manager)
    # The manager organises the tournament whose entry carries the number: they see it.
    MembershipFactory(tournament=t1, user=manager, role=Membership.Role.ORGANISER)
    client.force_login(manager)
    text = client.get("/seasons/s1/export/?format=csv&full=1").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][:4] == ["Rank", "Full name", "Federation number", "Counted points"]
    assert rows[1][:4] == ["1", "Anna de Vries", "NL-7", "25"]
    client.logout()
    public = client.get("/seasons/s1/export/?format=csv").content.decode("utf-8-sig")
    assert "Anna V." in public and "de Vries" not in public


def test_create_and_edit_with_role_checks(client, english):
    organiser, other = UserFactory(), UserFactory()
    mine = TournamentFactory(name="Mine")
    theirs = TournamentFactory(name="Theirs")
    MembershipFactory(tournament=mine, user=organiser, role=Membership.Role.ORGANISER)
    MembershipFactory(tournament=theirs, user=other, role=Membership.Role.ORGANISER)
    client.force_login(UserFactory())
    assert client.get("/seasons/new/").status_code == 403
    client.force_login(organiser)
    data = {"name": "Season 26", "slug": "", "preset": "custom", "points_table": "10, 6, 3", "participation": "1",
            "best_n": "", "tournaments": [str(theirs.pk)], "managers": other.username}
    response = client.post("/seasons/new/", data)
    assert response.status_code == 200 and not Season.objects.exists()
    # The form offers only the organiser's own tournaments (the service refuses others too: API tests).
    assert "Select a valid choice" in response.content.decode()
    data["tournaments"] = [str(mine.pk)]
    response = client.post("/seasons/new/", data)
    s = Season.objects.get()
    assert response.status_code == 302 and s.slug == "season-26" and s.points_table == [10, 6, 3]
    assert s.created_by == organiser and list(s.managers.all()) == [other] and list(s.tournaments.all()) == [mine]
    # The co-manager may edit; an outsider may not.
    client.force_login(UserFactory())
    assert client.get("/seasons/season-26/edit/").status_code == 403
    assert client.post("/seasons/season-26/edit/", {**data, "name": "X"}).status_code == 403
    client.force_login(other)
    response = client.post("/seasons/season-26/edit/", {**data, "name": "Season 2026", "slug": "season-26", "best_n": "3",
                                                            "version": "0"})
    s.refresh_from_db()
    assert response.status_code == 302 and s.name == "Season 2026" and s.best_n == 3
    # Mine stays although the co-manager does not organise it.
    assert list(s.tournaments.all()) == [mine]


def test_list_page(client, english):
    _season_of(2)
    html = client.get("/seasons/").content.decode()
    assert "Season 2026" in html and "2 tournaments" in html


def test_player_without_person_is_not_ranked(client, english):
    t1 = finished_with_places({person("Anna"): 1})
    Player.objects.filter(tournament=t1).update(person=None)
    season([t1])
    assert "Anna" not in client.get("/seasons/s1/").content.decode().split("<tbody>")[1]


def test_names_link_to_the_profile(client, english, monkeypatch):
    anna = person("Anna de Vries")
    season([finished_with_places({anna: 1})])
    assert f'<a href="/people/{anna.pk}/">Anna de Vries</a>' in client.get("/seasons/s1/").content.decode()
    # Without a profile page (an older tree) the name is shown without a link.
    from scoring.web.views import seasons as views

    monkeypatch.setattr(views, "PROFILE_URLS", ("scoring:no_such_page",))
    assert views.profile_url(anna.pk) is None


def test_a_renamed_person_changes_the_etag(client, english):
    _season_of(1)
    etag = client.get("/seasons/s1/")["ETag"]
    from scoring.models import Person

    anna = Person.objects.get(name="Anna de Vries")
    anna.name = "Anna van Dam"
    anna.save()
    response = client.get("/seasons/s1/", HTTP_IF_NONE_MATCH=etag)
    assert response.status_code == 200 and "Anna van Dam" in response.content.decode()


def test_the_tournament_page_links_to_its_seasons(client):
    t = TournamentFactory(slug="linked-cup")
    for name, slug in (("Winter 2026", "winter-2026"), ("Club ranking", "club-ranking")):
        Season.objects.create(name=name, slug=slug).tournaments.add(t)
    html = client.get(reverse("scoring:tournament_detail", args=[t.slug])).content.decode()
    assert '<a href="/seasons/club-ranking/">Club ranking</a>, <a href="/seasons/winter-2026/">Winter 2026</a>' in html
    alone = TournamentFactory(slug="alone-cup")
    assert "/seasons/" not in client.get(reverse("scoring:tournament_detail", args=[alone.slug])).content.decode().split("<main")[-1]
