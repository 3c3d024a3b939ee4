"""Issue 22 item 7: the engines' messages in the request's language. ``POST
/api/v1/engines/{game}/{command}`` answers a rule violation in Dutch for ``Accept-Language: nl``
and in English for ``en`` (the command line stays English); every engine message template has a
Dutch translation; the errors are capped at 50 with a count of the rest, translated too."""
from __future__ import annotations

import ast
import json
from pathlib import Path

import polib
import pytest
from django.utils import translation
from rest_framework.test import APIClient

from engines.errors import RuleViolation, Violation
from scoring.api.errors import violation_errors
from scoring.games.entry import more_message, violation_messages
from tests.api.conftest import api_url

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[2]
BAD_HAND = {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 72, "EW": 28}}


def post(game: str, command: str, data: dict, language: str):
    return APIClient().post(api_url("engine-command", game, command), json.dumps(data), content_type="application/json",
                            HTTP_ACCEPT_LANGUAGE=language)


def test_a_dutch_request_gets_dutch_engine_messages():
    r = post("taipan", "score", BAD_HAND, "nl")
    assert r.status_code == 400 and r.json()["code"] == "invalid"
    assert {"field": "card_points.NS", "message": "Kaartpunten moeten een veelvoud van 5 zijn, niet 72."} in r.json()["errors"]


def test_an_english_request_gets_the_command_lines_english():
    r = post("taipan", "score", BAD_HAND, "en")
    assert {"field": "card_points.NS", "message": "Card points must be a multiple of 5, not 72."} in r.json()["errors"]


def test_a_misspelt_field_is_refused_in_dutch_with_its_name():
    r = post("taipan", "score", {**BAD_HAND, "card_points": {"NS": 60, "EW": 40}, "rule": "variant"}, "nl")
    assert r.status_code == 400
    (item,) = r.json()["errors"]
    assert item["field"] == "rule" and "'rule'" in item["message"] and "'rules'" in item["message"]
    assert not item["message"].startswith("Unknown field")


@pytest.mark.parametrize(("game", "command", "data", "english", "dutch"), [
    ("taipan", "play", {"current": {"cards": ["4j"]}, "play": ["3s"]},
     "A single of rank 3 does not beat a single of rank 4.", "Een single met rang 3 overbiedt geen single met rang 4."),
    ("tiengow", "check", {"current": ["6-6"], "play": ["1-1"]},
     "The group ranks lower than the current high group.", "De groep is lager dan de huidige hoogste groep."),
])
def test_an_answers_reason_is_in_the_requests_language(game, command, data, english, dutch):
    assert post(game, command, data, "en").json()["reason"] == english
    assert post(game, command, data, "nl").json()["reason"] == dutch


def test_the_api_caps_the_errors_as_the_command_line_does():
    r = post("tiengow", "check", {"current": None, "play": ["9-9"] * 5000}, "en")
    assert r.status_code == 400
    answer = r.json()
    assert len(answer["errors"]) == 50 and answer["more_errors"] == 4950
    assert answer["errors"][0]["field"] == "play[0]"


def test_the_count_of_the_rest_reads_in_the_language():
    with translation.override("en"):
        assert more_message(1234) == "… and 1,234 more errors."
        assert more_message(1) == "… and 1 more error."
    with translation.override("nl"):
        assert more_message(1234) == "… en nog 1.234 fouten."
        assert more_message(1) == "… en nog 1 fout."


def test_pages_and_record_errors_show_the_count_last():
    exc = RuleViolation([Violation("card_points.NS", "Card points must be a multiple of 5, not {value}.", {"value": i})
                         for i in range(60)])
    with translation.override("en"):
        lines = violation_messages(exc)
        items = violation_errors(exc)
    assert len(lines) == 51 and lines[-1] == ("", "… and 10 more errors.")
    assert items[-1] == {"field": "record", "message": "… and 10 more errors."}


def engine_templates() -> dict[str, str]:
    """Every message template the engines mark with ``_("...")``, with the file it is in."""
    found: dict[str, str] = {}
    for path in sorted((ROOT / "engines").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id == "_" and node.args
                    and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
                found.setdefault(node.args[0].value, str(path.relative_to(ROOT)))
    return found


def test_every_engine_template_has_a_dutch_translation():
    """Every template of every engine (the violations and the reasons the pages and the API show)
    is in the Dutch catalogue with a translation that keeps its placeholders."""
    templates = engine_templates()
    assert len(templates) > 250
    catalogue = {e.msgid: e.msgstr for e in polib.pofile(str(ROOT / "locale/nl/LC_MESSAGES/django.po"))}
    missing = sorted(f"{where}: {t!r}" for t, where in templates.items() if not catalogue.get(t))
    assert not missing, "\n".join(missing)
    names = __import__("string").Formatter()
    for template in templates:
        wanted = {name for _, name, _, _ in names.parse(template) if name}
        assert {name for _, name, _, _ in names.parse(catalogue[template]) if name} == wanted, template


@pytest.mark.every_game
def test_an_entry_form_shows_the_count_after_the_violations(game):
    """A referee's entry page: the 50 violations next to their fields, then the count of the rest."""
    from scoring.games import registry

    entry = registry.get(game).entry({})
    entry.is_valid()
    exc = RuleViolation([Violation("card_points.NS", "Card points must be a multiple of 5, not {value}.", {"value": i})
                         for i in range(61)])
    with translation.override("en"):
        entry.add_violations(exc)
        assert entry.non_field_errors()[-1] == "… and 11 more errors."


def test_the_rules_check_page_shows_the_count_in_dutch(client, monkeypatch):
    """The rules check page (/rules/taipan/) lists the engine's violations and, when the engine
    left some out, how many, in the visitor's language."""
    import engines as engines_package

    def refuse(game, command, data):
        raise RuleViolation([Violation("play", "Unknown card {code!r}.", {"code": f"Z{i}"}) for i in range(57)])

    monkeypatch.setattr(engines_package, "run", refuse)
    client.cookies["django_language"] = "nl"
    page = client.get("/rules/taipan/", {"play": ["5s"], "turn": "in_turn", "preset": "nskt"}).content.decode()
    assert "… en nog 7 fouten." in page
