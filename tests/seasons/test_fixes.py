"""Season fixes after the first test round: the edit form is pre-filled and keeps what it did not
change, the XLSX sheet title, tournaments only their organisers remove, stale edits refused, a
duplicate slug at creation a form error, the PDF's best-N wording, capitalised labels, the
"counted" column and the points table's checks (docs/players.md "Season ranking")."""
from __future__ import annotations

import csv
import io
import re

import pytest
from django.core.exceptions import ValidationError
from openpyxl import load_workbook

from scoring.errors import StaleVersion
from scoring.io.datasets import sheet_title
from scoring.models import Season
from scoring.seasons import manage
from scoring.seasons.manage import parse_table, save_season
from tests.api.conftest import client_for, issue_token
from tests.factories import TournamentFactory, UserFactory, organiser_of
from tests.seasons.helpers import finished_with_places, person, season

pytestmark = pytest.mark.django_db


def _managed_season():
    """A season of two tournaments: ``mine`` organised by its creator, ``theirs`` by someone else;
    a co-manager ``co`` who organises neither."""
    mine, theirs = TournamentFactory(name="Mine", slug="mine"), TournamentFactory(name="Theirs", slug="theirs")
    creator, _other = organiser_of(mine), organiser_of(theirs)
    co = UserFactory(username="co")
    s = season([mine, theirs], name="Seizoen 2025/26", slug="s-25", description="Two cups", preset="custom",
               points_table=[10, 8, 6], participation=1, best_n=3, created_by=creator)
    s.managers.add(co)
    return s, creator, co, mine, theirs


def _form_values(html: str) -> dict:
    """The values a browser would send back for the season form in ``html``."""
    values = dict(re.findall(r'<input type="(?:text|number|hidden)" name="(\w+)" value="([^"]*)"', html))
    values.update(re.findall(r'<textarea name="(\w+)"[^>]*>\s*([^<]*)</textarea>', html))
    values["preset"] = re.search(r'<option value="(\w+)" selected>', html).group(1)
    values["tournaments"] = re.findall(r'name="tournaments" value="(\d+)"[^>]*checked', html)
    return values


def test_edit_form_is_prefilled_and_a_one_field_change_keeps_the_rest(client, english):
    s, creator, co, mine, theirs = _managed_season()
    client.force_login(creator)
    html = client.get("/seasons/s-25/edit/").content.decode()
    values = _form_values(html)
    assert values["name"] == "Seizoen 2025/26" and values["slug"] == "s-25" and values["description"] == "Two cups"
    assert values["preset"] == "custom" and values["points_table"] == "10, 8, 6"
    assert values["participation"] == "1" and values["best_n"] == "3" and values["managers"] == "co"
    assert values["version"] == "0" and sorted(values["tournaments"]) == sorted([str(mine.pk), str(theirs.pk)])
    # Capitalised labels (explicit form labels are not capitalised by Django).
    assert ">Name:</label>" in html and ">Slug:</label>" in html and ">Description:</label>" in html
    response = client.post("/seasons/s-25/edit/", {**values, "description": "Three cups"})
    assert response.status_code == 302
    s.refresh_from_db()
    assert (s.name, s.slug, s.description, s.preset, s.points_table) == ("Seizoen 2025/26", "s-25", "Three cups", "custom", [10, 8, 6])
    assert (s.participation, s.best_n, s.version) == (1, 3, 1)
    assert list(s.managers.all()) == [co] and set(s.tournaments.all()) == {mine, theirs}


def test_stale_edit_form_is_refused(client, english):
    s, creator, _co, _mine, _theirs = _managed_season()
    client.force_login(creator)
    values = _form_values(client.get("/seasons/s-25/edit/").content.decode())
    assert client.post("/seasons/s-25/edit/", {**values, "name": "First"}).status_code == 302
    response = client.post("/seasons/s-25/edit/", {**values, "name": "Second"})  # built from version 0
    assert response.status_code == 200 and "changed by someone else" in response.content.decode()
    missing = client.post("/seasons/s-25/edit/", {**values, "version": "", "name": "Third"})
    assert missing.status_code == 200
    s.refresh_from_db()
    assert s.name == "First" and s.version == 1


def test_stale_version_refused_by_the_service_and_the_api():
    s, creator, _co, _mine, _theirs = _managed_season()
    save_season(s, creator, {"best_n": 2}, expected_version=0)
    with pytest.raises(StaleVersion):
        save_season(s, creator, {"best_n": 1}, expected_version=0)
    api = client_for(issue_token(creator))
    stale = api.patch("/api/v1/seasons/s-25", {"best_n": 1, "version": 0}, format="json")
    assert stale.status_code == 409 and "stale_version" in stale.content.decode()
    fresh = api.patch("/api/v1/seasons/s-25", {"best_n": 1, "version": 1}, format="json")
    assert fresh.status_code == 200 and fresh.json()["version"] == 2 and fresh.json()["best_n"] == 1


def test_a_co_manager_cannot_remove_a_tournament_they_do_not_organise(client, english):
    s, creator, co, mine, theirs = _managed_season()
    client.force_login(co)
    values = _form_values(client.get("/seasons/s-25/edit/").content.decode())
    assert client.post("/seasons/s-25/edit/", {**values, "tournaments": [str(mine.pk)]}).status_code == 302
    assert set(s.tournaments.all()) == {mine, theirs}
    response = client_for(issue_token(co)).patch("/api/v1/seasons/s-25", {"tournaments": []}, format="json")
    assert response.status_code == 200 and {t["slug"] for t in response.json()["tournaments"]} == {"mine", "theirs"}
    # The organiser of a tournament may remove it.
    response = client_for(issue_token(creator)).patch("/api/v1/seasons/s-25", {"tournaments": []}, format="json")
    assert response.status_code == 200 and [t["slug"] for t in response.json()["tournaments"]] == ["theirs"]


def test_creating_a_taken_slug_in_a_race_is_a_slug_error(monkeypatch):
    """The check before the insert passed (another creation was not yet committed): the unique
    index refuses the insert, and the service answers a slug error, not a crash."""
    user = organiser_of(TournamentFactory())
    season([], name="Cup", slug="cup")
    real = manage._clean

    def unchecked(season_, actor, data):  # as if the other creation committed after the check
        values = real(season_, actor, {**data, "slug": "other"})
        return {**values, "slug": "cup"}

    monkeypatch.setattr(manage, "_clean", unchecked)
    with pytest.raises(ValidationError) as err:
        save_season(None, user, {"name": "Cup"})
    assert "slug" in err.value.message_dict and Season.objects.count() == 1


def test_xlsx_sheet_title_from_any_season_name(client, english):
    anna = person("Anna de Vries")
    season([finished_with_places({anna: 1}, name="Cup")], name="Seizoen 2025/26 [a]: b\\c?*" + "x" * 40)
    response = client.get("/seasons/s1/export/?format=xlsx")
    assert response.status_code == 200
    sheet = load_workbook(io.BytesIO(response.content)).active
    assert sheet.title == "Seizoen 2025-26 -a-- b-c--xxxxx"  # 31 characters
    assert sheet_title("") == "Sheet" and sheet_title("'quoted'") == "quoted"


def test_exports_mark_results_not_counted(client, english):
    anna, bart = person("Anna de Vries"), person("Bart Smit")
    t1 = finished_with_places({anna: 1, bart: 2}, name="A")
    t2 = finished_with_places({anna: 2, bart: 1}, name="B")
    season([t1, t2], best_n=1)
    text = client.get("/seasons/s1/export/?format=csv").content.decode("utf-8-sig")
    rows = list(csv.reader(io.StringIO(text)))
    assert rows[0][3:] == ["A: points", "A: place", "A: counted", "B: points", "B: place", "B: counted"]
    # Formula 1, best 1: Anna 25 (A) + 18 (B, not counted); Bart 18 (A, not counted) + 25 (B).
    assert {r[1]: r[2:] for r in rows[1:]} == {"Anna de Vries": ["25", "25", "1", "yes", "18", "2", "no"],
                                               "Bart Smit": ["25", "18", "2", "no", "25", "1", "yes"]}
    sheet = load_workbook(io.BytesIO(client.get("/seasons/s1/export/?format=xlsx").content)).active
    assert sheet.cell(row=2, column=7).value == 18 and sheet.cell(row=2, column=9).value in ("no", "yes")


def test_pdf_uses_the_pages_best_n_wording(english):
    from scoring.printing import seasons as printing

    captured = []
    s = season([], best_n=1)
    real_para = printing.para
    printing.para = lambda text, *a, **k: captured.append(str(text)) or real_para(text, *a, **k)
    try:
        from scoring.seasons.ranking import ranking
        printing.season_pdf(ranking(s))
    finally:
        printing.para = real_para
    assert any("the best result counts" in t for t in captured)
    assert not any("best 1 results" in t for t in captured)


@pytest.mark.parametrize(("text", "message"), [
    ("10, abc", "Points are whole numbers separated by commas."),
    ("10, 8, 12", "Points must not rise with the place (a better place never earns fewer points)."),
])
def test_points_table_errors(text, message, settings):
    settings.LANGUAGE_CODE = "en"
    with pytest.raises(ValidationError):
        parse_table(text)
    user = organiser_of(TournamentFactory())
    with pytest.raises(ValidationError) as err:
        save_season(None, user, {"name": "S", "preset": "custom", "points_table": text})
    assert err.value.message_dict["points_table"] == [message]
    assert parse_table("10, 8, 8, 0") == [10, 8, 8, 0]


def test_full_export_shows_a_number_only_to_who_entered_it(client, english):
    """Second test round: the managers' full export showed every federation number. Now the
    number rule of the review list holds (staff, or an organiser of a tournament whose entry
    carries the number): a co-manager who entered nobody sees full names, no numbers."""
    from scoring.models import Player

    anna = person("Anna de Vries", number="NL1")
    cup = finished_with_places({anna: 1}, name="Cup")
    Player.objects.filter(tournament=cup, person=anna).update(federation_number="NL1")
    creator, co = organiser_of(cup), UserFactory(username="co-manager")
    s = season([cup], created_by=creator)
    s.managers.add(co)

    def rows(user):
        client.force_login(user)
        return list(csv.reader(io.StringIO(client.get("/seasons/s1/export/?format=csv&full=1").content.decode("utf-8-sig"))))

    assert rows(creator)[1][1:3] == ["Anna de Vries", "NL1"]
    assert rows(co)[1][1:3] == ["Anna de Vries", ""]


@pytest.mark.parametrize(("name", "title"), [("Sei\tzoen\x01", "Seizoen"), ("History", "History-"), ("😀" * 20, "😀" * 15)])
def test_sheet_titles_without_control_characters_reserved_names_or_too_many_units(name, title):
    assert sheet_title(name) == title
