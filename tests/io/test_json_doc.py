"""``docs/tournament-json.md`` tells the truth (issue 14): its demo excerpt is what
``export_tournament`` writes for the demo, its four-player example imports, its refused file is
refused with exactly the lines it shows, and its schema error lines are the schema's messages.

Excerpt rule: an object shows a subset of the exported object's fields with equal values; a list
shows some of the exported list's items, in their order (each matched by the same rule)."""
from __future__ import annotations

import json
import re
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.utils import translation

from scoring.io import schema
from scoring.io.demo import DEMO_SLUG
from scoring.io.tournament_json import ImportRefused, export_tournament, load_tournament
from scoring.models import Tournament
from tests.conftest import subset_mismatch

DOC = Path(__file__).resolve().parents[2] / "docs" / "tournament-json.md"

pytestmark = pytest.mark.django_db


def block(info: str) -> str:
    """The text of the fenced block whose info string is ``info``."""
    match = re.search(rf"^```{re.escape(info)}\n(.*?)^```$", DOC.read_text(encoding="utf-8"), re.S | re.M)
    assert match, f"no ```{info} block in {DOC.name}"
    return match.group(1)


def excerpt_mismatch(shown, real, path="$"):
    """Where ``shown`` is not an excerpt of ``real`` (module docstring), or ``None``."""
    if isinstance(shown, dict):
        if not isinstance(real, dict):
            return f"{path}: expected an object"
        for key, value in shown.items():
            if key not in real:
                return f"{path}.{key}: not exported"
            err = excerpt_mismatch(value, real[key], f"{path}.{key}")
            if err:
                return err
        return None
    if isinstance(shown, list):
        if not isinstance(real, list):
            return f"{path}: expected a list"
        start = 0
        for i, item in enumerate(shown):
            for j in range(start, len(real)):
                if excerpt_mismatch(item, real[j], f"{path}[{j}]") is None:
                    start = j + 1
                    break
            else:
                return f"{path}: item {i} of the excerpt is not in the export (in order): {item!r}"
        return None
    return None if shown == real and type(shown) is type(real) else f"{path}: shown {shown!r}, exported {real!r}"


def test_the_demo_excerpt_is_a_real_export():
    call_command("load_demo", stdout=StringIO())
    real = export_tournament(Tournament.objects.get(slug=DEMO_SLUG))
    shown = json.loads(block("json demo-export-excerpt"))
    assert excerpt_mismatch(shown, real) is None, excerpt_mismatch(shown, real)
    assert set(shown) == set(real), "the excerpt shows every top-level field"
    assert len(shown["teams"]) < len(real["teams"])  # it is an excerpt, as the page says


def test_the_four_player_example_imports(user_factory):
    user_factory("anna")
    text = block("json tournament-example")
    imported = load_tournament(text, organiser="anna")
    exported = export_tournament(imported.tournament)
    assert subset_mismatch(json.loads(text), exported) is None, subset_mismatch(json.loads(text), exported)
    table = exported["rounds"][0]["tables"][0]
    assert "banker" in table["deals"][0]  # the carried state the page says the export writes


def test_the_example_tournament_imports(user_factory):
    user_factory("organiser")
    path = DOC.parent / "examples" / "tournament.json"
    imported = load_tournament(path.read_bytes(), organiser="organiser")
    assert imported.tournament.teams.count() == 6 and imported.warnings == []


def test_the_refused_file_prints_the_lines_shown():
    with pytest.raises(ImportRefused) as refused, translation.override("en"):  # as the command prints them
        load_tournament(block("json refused-example"))
    shown = block("text refused-output").splitlines()
    assert [f"{path}: {message}" for path, message in refused.value.errors] == shown[:-1]
    assert shown[-1].endswith(f"{len(refused.value.errors)} problem(s) above; nothing was created.")


def test_the_schema_errors_shown_are_the_schema_messages():
    base = {"name": "x", "slug": "x"}
    files = [
        {"seed": "7"},
        {"teams": [{"name": f"T{i}", "players": ["A", "B"]} for i in range(3)] + [{"name": "T3", "players": ["A"]}]},
        {"rounds": [{"number": 1, "matches": [{"table": 1, "ns": "A", "ew": "B", "hands": {}}]}]},
        {"venu": "Leiden"},
    ]
    got = [f"{path}: {message}" for extra in files for path, message in schema.parse(json.dumps(base | extra))[1]]
    assert got == block("text schema-errors").splitlines()
