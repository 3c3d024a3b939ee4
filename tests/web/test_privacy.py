"""Privacy (issue 26 item 1, docs/players.md "Privacy"): with short names, no public page, export,
PDF or anonymous API answer shows a player's surname; the short form ("Anna Z.") is shown instead.

Every URL of ``scoring/web/urls_public.py`` is reversed with real arguments of a Tai Pan and a
Sichuan tournament and fetched anonymously (exports in CSV and XLSX, PDFs read as text with
pypdfium2), plus the API's read endpoints. Team names stay as entered."""
from __future__ import annotations

import io

import openpyxl
import pypdfium2
import pytest
from django.test import Client
from django.urls import URLPattern, reverse

from scoring.kinds import KINDS
from scoring.models import Player
from scoring.participants import persons
from scoring.policy import SYSTEM
from scoring.results import sheet
from scoring.web import urls_public
from tests.factories import (
    DEALS,
    PLAIN_HAND,
    MatchFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
)

pytestmark = pytest.mark.django_db

TAIPAN = [("Anna Zonneveld", "Anna Z."), ("Bram Quakkelaar", "Bram Q."),
          ("Cees van Wijnbergen", "Cees W."), ("Dora Xylofoon", "Dora X.")]
SICHUAN = [("Eva Yzerman", "Eva Y."), ("Fleur Ubbink", "Fleur U."), ("Gijs Tromp", "Gijs T."),
           ("Hugo Strijker", "Hugo S.")]
SURNAMES = ["Zonneveld", "Quakkelaar", "Wijnbergen", "Xylofoon", "Yzerman", "Ubbink", "Tromp", "Strijker"]


def build(public_names: str = "short"):
    """A Tai Pan tournament (two teams, a match with a hand) and a Sichuan one (a table with a
    deal), both in round 1, players named as :data:`TAIPAN` / :data:`SICHUAN`."""
    taipan = TournamentFactory(slug="priv-taipan", public_names=public_names)
    players = [persons.create_player(taipan, name) for name, _short in TAIPAN]
    teams = [TeamFactory(tournament=taipan, name=n, first_player=players[2 * i], second_player=players[2 * i + 1])
             for i, n in enumerate(("De Draken", "Jade"))]
    match = MatchFactory(round=RoundFactory(tournament=taipan, number=1), table=1, team_ns=teams[0], team_ew=teams[1])
    sheet.add_record(match, PLAIN_HAND, SYSTEM)
    sichuan = TournamentFactory(slug="priv-sichuan", game="sichuan", public_names=public_names)
    seated = [persons.create_player(sichuan, name) for name, _short in SICHUAN]
    table = TableFactory(round=RoundFactory(tournament=sichuan, number=1), number=1, players=seated)
    sheet.add_record(table, DEALS["sichuan"][0], SYSTEM)
    return {"taipan": (taipan, match, teams[0], players[0]), "sichuan": (sichuan, table, None, seated[0])}


def _kwargs(pattern: URLPattern, tournament, container, team, player) -> dict | None:
    params = set(pattern.pattern.converters)
    kind = (pattern.default_args or {}).get("kind")
    if "task_id" in params or "game" in params:
        return None
    values = {"slug": tournament.slug, "number": 1}
    if "pk" in params:
        if kind is not None:
            if not isinstance(container, kind.container_model):
                return None
            values["pk"] = container.pk
        elif pattern.name == "team_breakdown":
            if team is None:
                return None
            values["pk"] = team.pk
        else:
            values["pk"] = player.pk
    return {p: values[p] for p in params}


def text_of(response) -> str:
    """The answer as text: HTML/JSON/CSV decoded, XLSX cells joined, PDF text extracted."""
    body = b"".join(response.streaming_content) if response.streaming else response.content
    kind = response.get("Content-Type", "")
    if body.startswith(b"%PDF"):
        doc = pypdfium2.PdfDocument(body)
        return "\n".join(doc[i].get_textpage().get_text_range() for i in range(len(doc)))
    if "spreadsheet" in kind:
        book = openpyxl.load_workbook(io.BytesIO(body))
        return "\n".join(str(c.value) for ws in book.worksheets for row in ws.iter_rows() for c in row if c.value is not None)
    return body.decode("utf-8", "replace")


def public_answers(world) -> list[tuple[str, str]]:
    """``[(url, text)]`` of every public URL (and each export format) that answers 200."""
    client = Client()
    out = []
    patterns = [p for p in urls_public.urlpatterns if isinstance(p, URLPattern)]
    for tournament, container, team, player in world.values():
        for pattern in patterns:
            kwargs = _kwargs(pattern, tournament, container, team, player)
            if kwargs is None or not {"slug"} <= set(kwargs):
                continue
            url = reverse(f"scoring:{pattern.name}", kwargs=kwargs)
            queries = ["?format=csv", "?format=xlsx"] if "export" in pattern.name else [""]
            if pattern.name == "find_table":
                queries = ["?q=" + q for q in ("anna", "eva", "zonneveld", "yzerman", "de draken")]
            for query in queries:
                response = client.get(url + query, follow=True)
                if response.status_code == 200:
                    out.append((url + query, text_of(response)))
    return out


def api_answers(world) -> list[tuple[str, str]]:
    client = Client()
    out = []
    for tournament, container, _team, _player in world.values():
        names = ["tournament-detail", "round-list", "round-detail", "standings", "round-names"]
        urls = [reverse(f"api:{n}", kwargs={"slug": tournament.slug, **({"number": 1} if "round-" in n and n != "round-list" else {})})
                for n in names]
        kind = next(k for k in KINDS.values() if isinstance(container, k.container_model))
        urls.append(reverse(f"api:{kind.key}-detail", kwargs={"slug": tournament.slug, "pk": container.pk}))
        urls.append(reverse(f"api:{kind.key}-records", kwargs={"slug": tournament.slug, "pk": container.pk}))
        for url in urls:
            response = client.get(url)
            assert response.status_code == 200, (url, response.content[:300])
            out.append((url, response.content.decode()))
    return out


def test_short_names_everywhere_in_public():
    world = build("short")
    answers = public_answers(world) + api_answers(world)
    fetched = {url.split("?")[0] for url, _text in answers}
    assert len(fetched) >= 25, sorted(fetched)
    pdfs = {url for url in fetched if url.endswith(".pdf")}
    assert {"standings.pdf", "names.pdf", "sheet.pdf", "table-cards.pdf", "pairings.pdf"} <= {u.rsplit("/", 1)[-1] for u in pdfs}
    assert any(url.endswith("format=xlsx") for url, _text in answers)
    for url, text in answers:
        for surname in SURNAMES:
            assert surname not in text, (url, surname)
    joined = "\n".join(text for _url, text in answers)
    for _full, short in TAIPAN + SICHUAN:
        assert short in joined, short
    assert "De Draken" in joined  # team names stay as entered
    # the standings, a result page and the player page show the short form themselves
    by_url = dict(answers)
    assert "Anna Z." in by_url[reverse("scoring:standings", args=["priv-taipan"])]
    assert "Eva Y." in by_url[reverse("scoring:player_page", args=["priv-sichuan", world["sichuan"][3].pk])]
    assert "Eva Y." in by_url[reverse("api:standings", args=["priv-sichuan"])]


def test_one_player_short_in_a_full_name_tournament():
    world = build("full")
    Player.objects.filter(name__in=["Anna Zonneveld", "Eva Yzerman"]).update(public_name="short")
    joined = "\n".join(text for _url, text in public_answers(world) + api_answers(world))
    assert "Zonneveld" not in joined and "Yzerman" not in joined
    assert "Anna Z." in joined and "Eva Y." in joined
    assert "Bram Quakkelaar" in joined and "Fleur Ubbink" in joined  # the others keep their full names


def test_federation_numbers_are_never_public():
    world = build("full")
    Player.objects.filter(name="Anna Zonneveld").update(federation_number="SECRET123")
    Player.objects.filter(name="Eva Yzerman").update(federation_number="SECRET456")
    for url, text in public_answers(world) + api_answers(world):
        assert "SECRET" not in text, url


def cross_tournament_answers(world) -> list[tuple[str, str]]:
    """``[(url, text)]`` of the pages across tournaments (issue 26 items 2-4), anonymously: every
    player's profile page and API answer, a season of both tournaments (page, projector, PDF,
    CSV and XLSX export, API ranking) and the cross table's API answer."""
    from scoring.models import Season

    client = Client()
    season = Season.objects.create(name="Privacy season", slug="priv-season")
    season.tournaments.set([t for t, *_rest in world.values()])
    urls = [reverse("scoring:season_detail", args=[season.slug]),
            reverse("scoring:season_detail", args=[season.slug]) + "?projector=1",
            reverse("scoring:season_pdf", args=[season.slug]),
            reverse("scoring:season_export", args=[season.slug]) + "?format=csv",
            reverse("scoring:season_export", args=[season.slug]) + "?format=xlsx",
            reverse("api:season-ranking", args=[season.slug])]
    for tournament, *_rest in world.values():
        urls.append(reverse("api:crosstable", args=[tournament.slug]))
        for player in Player.objects.filter(tournament=tournament):
            urls += [reverse("scoring:person_profile", args=[player.person_id]),
                     reverse("api:person-detail", args=[player.person_id])]
    out = []
    for url in urls:
        response = client.get(url)
        assert response.status_code == 200, (url, response.status_code)
        out.append((url, text_of(response)))
    return out


def test_short_names_on_the_pages_across_tournaments():
    world = build("short")
    answers = cross_tournament_answers(world)
    for url, text in answers:
        for surname in SURNAMES:
            assert surname not in text, (url, surname)
    joined = "\n".join(text for _url, text in answers)
    for _full, short in TAIPAN + SICHUAN:
        assert short in joined, short


def test_full_names_on_the_pages_across_tournaments_when_nobody_asks_otherwise():
    world = build("full")
    Player.objects.filter(name="Anna Zonneveld").update(public_name="short")
    joined = "\n".join(text for _url, text in cross_tournament_answers(world))
    assert "Zonneveld" not in joined and "Anna Z." in joined
    assert "Bram Quakkelaar" in joined and "Eva Yzerman" in joined
