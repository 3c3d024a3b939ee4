"""The games are listed in one place, the registry (issue 21 item 4).

- Tests and docs name no hand-written list of three or more game keys (a list, tuple or set of
  string literals in ``tests/**/*.py``; a line naming three or more quoted keys in ``docs/**/*.md``):
  tests run over ``scoring.games.all_games()`` (``@pytest.mark.every_game``, tests/games/kits.py)
  and docs point to the game pages. Only the registry's own test may keep one.
- Every registered game's docs page (its kit's ``docs_page``, ``docs/engines/<game>.md``) starts
  with an "At a glance" table of one shape that says what the registry says (key, label, entrants,
  commands, presets and the default, side keys and labels), so a game added without its page, or a
  page that no longer matches its game, fails here.
- No shared page (``docs/engines/index.md``, ``README.md``, ``docs/api.md``) has a table of the
  games: they point to the game pages and to the live lists (``python -m engines --list``,
  ``GET /api/v1/engines``), so a new game changes none of them.
- Every registered game has a test kit (``tests/games/<game>/kit.py``).
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import engines
from tests.games.kits import keys, kit

ROOT = Path(__file__).resolve().parents[2]
#: The registry's own test: it looks for the four keys written as literals in app code.
ALLOWED = {"tests/games/test_registry_boundary.py"}


def game_keys() -> set[str]:
    """The keys of the registered games (what the check looks for)."""
    return set(keys())


def python_lists(path: Path, names: set[str]) -> list[str]:
    """``path:line`` of every list, tuple or set literal in ``path`` with three or more of ``names``
    as string constants."""
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, (ast.List, ast.Tuple, ast.Set)):
            named = {e.value for e in node.elts if isinstance(e, ast.Constant) and e.value in names}
            if len(named) >= 3:
                found.append(f"{path.relative_to(ROOT).as_posix()}:{node.lineno}: {sorted(named)}")
    return found


def markdown_lists(path: Path, names: set[str]) -> list[str]:
    """``path:line`` of every line of ``path`` naming three or more of ``names`` quoted (``'``,
    ``"`` or backticks, a trailing ``/`` allowed)."""
    quoted = re.compile(r"[\"'`](" + "|".join(map(re.escape, sorted(names))) + r")/?[\"'`]")
    found = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        named = set(quoted.findall(line))
        if len(named) >= 3:
            found.append(f"{path.relative_to(ROOT).as_posix()}:{number}: {sorted(named)}")
    return found


def hand_written_lists() -> list[str]:
    """Every hand-written list of three or more game keys in tests/ and docs/, outside :data:`ALLOWED`."""
    names = game_keys()
    found = []
    for path in sorted((ROOT / "tests").rglob("*.py")):
        found += python_lists(path, names)
    for path in sorted((ROOT / "docs").rglob("*.md")):
        found += markdown_lists(path, names)
    return [f for f in found if f.split(":")[0] not in ALLOWED]


def test_no_hand_written_game_lists_in_tests_or_docs():
    assert hand_written_lists() == []


def test_the_check_finds_lists_in_any_order_and_shape(tmp_path):
    names = game_keys()
    source = tmp_path / "t.py"
    source.write_text('A = ["sichuan", "taiwanese", "tiengow"]\nB = ("tiengow", "x", "taipan", "sichuan")\n'
                      'C = {"taipan", "sichuan"}\n@p("g", ["taiwanese", "taipan", "tiengow"])\ndef f(): pass\n')
    source = source.rename(ROOT / "tests" / "games" / "_scan_probe.py")
    try:
        assert [f.split(":")[1] for f in python_lists(source, names)] == ["1", "2", "4"]
    finally:
        source.unlink()
    page = ROOT / "docs" / "_scan_probe.md"
    page.write_text("keys `taipan/`, `sichuan/` and `tiengow/`\n>>> ('taipan', 'sichuan', 'taiwanese')\none `taipan`\n")
    try:
        assert [f.split(":")[1] for f in markdown_lists(page, names)] == ["1", "2"]
    finally:
        page.unlink()


#: The rows of every game page's "At a glance" table, in this order.
AT_A_GLANCE = ["game key", "label (English / Dutch)", "entrants", "commands", "presets", "side keys",
               "side labels (English / Dutch)", "a side is", "a record is"]
#: What the ``entrants`` row says besides the key, per kind of entrants.
ENTRANTS = {"teams": "teams of two", "players": "four players"}
#: The shared pages that describe the games without listing them (issue 21).
SHARED = [ROOT / "docs" / "engines" / "index.md", ROOT / "README.md", ROOT / "docs" / "api.md"]


def tables(path: Path) -> list[tuple[int, list[list[str]]]]:
    """Every Markdown table of ``path`` outside fenced code blocks: (line number of its first row,
    its rows with the cells stripped, the header row and the ``---`` row included)."""
    found, rows, fenced = [], [], False
    for number, line in enumerate([*path.read_text(encoding="utf-8").splitlines(), ""], start=1):
        if line.startswith("```"):
            fenced = not fenced
        if not fenced and line.startswith("|"):
            rows.append([c.strip() for c in line.strip().strip("|").split("|")])
            continue
        if rows:
            found.append((number - len(rows), rows))
            rows = []
    return found


def at_a_glance(path: Path) -> dict[str, str]:
    """The "At a glance" table of a game page: row name -> value cell. The table is the first
    section of the page (its first ``##`` heading) and has the rows of :data:`AT_A_GLANCE`, in order."""
    lines = path.read_text(encoding="utf-8").splitlines()
    headings = [n for n, line in enumerate(lines, start=1) if line.startswith("## ")]
    assert headings and lines[headings[0] - 1] == "## At a glance", f"{path.name}: the first section is not 'At a glance'"
    end = headings[1] if len(headings) > 1 else len(lines) + 1
    under = [rows for line, rows in tables(path) if headings[0] < line < end]
    assert under, f"{path.name}: no table under 'At a glance'"
    rows = under[0]
    assert rows[0] == ["item", "value"] and set(rows[1][0]) <= {"-", " "}, f"{path.name}: {rows[:2]}"
    assert [r[0] for r in rows[2:]] == AT_A_GLANCE, f"{path.name}: the rows of 'At a glance'"
    assert all(len(r) == 2 and r[1] for r in rows[2:]), f"{path.name}: one value per row"
    return {r[0]: r[1] for r in rows[2:]}


def backticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


@pytest.mark.every_game
def test_the_game_page_starts_with_an_at_a_glance_table_that_matches_the_registry(game):
    """The page of every registered game (its kit's ``docs_page``) says at the top what the registry
    says: key, label, entrants, commands, presets with the default, side keys and side labels."""
    from django.utils import translation

    from scoring.games import registry

    adapter = registry.get(game)
    engine = adapter.engine or adapter.key
    glance = at_a_glance(kit(game).docs_page)
    labels = {}
    for language in ("en", "nl"):
        with translation.override(language):
            labels[language] = (str(adapter.label), ", ".join(adapter.side_labels()))
    assert glance["game key"] == f"`{game}`"
    assert glance["label (English / Dutch)"] == f"{labels['en'][0]} / {labels['nl'][0]}"
    entrants = str(adapter.entrants)
    assert backticked(glance["entrants"]) == [entrants] and ENTRANTS[entrants] in glance["entrants"]
    assert backticked(glance["commands"]) == list(engines.commands(engine))
    assert backticked(glance["presets"]) == list(engines.presets(engine))
    assert re.findall(r"`([^`]+)` \(default\)", glance["presets"]) == [engines.default_preset(engine)]
    assert backticked(glance["side keys"]) == list(adapter.sides)
    assert glance["side labels (English / Dutch)"] == f"{labels['en'][1]} / {labels['nl'][1]}"
    assert set(backticked(glance["a record is"])) & set(engines.commands(engine)), "a record is the input of a command"


def games_named(text: str, names: set[str]) -> set[str]:
    """The game keys named in ``text`` (as words, in any quotes or none; case-sensitive, so the
    prose name "Sichuan" is not the key ``sichuan``)."""
    return {m for m in re.findall(r"[a-z0-9]+", text) if m in names}


def per_game_tables(path: Path, names: set[str]) -> list[str]:
    """``path:line`` of every table of ``path`` with a row naming two or more of ``names``, or with
    rows naming two or more of them between them (a table with one row per game)."""
    found = []
    for line, rows in tables(path):
        per_row = [games_named(" ".join(r), names) for r in rows]
        named = set().union(*per_row)
        if any(len(n) >= 2 for n in per_row) or len(named) >= 2:
            found.append(f"{path.relative_to(ROOT).as_posix()}:{line}: {sorted(named)}")
    return found


def test_the_shared_pages_have_no_table_of_the_games():
    """docs/engines/index.md, the README and docs/api.md describe the games without a table a new
    game would have to extend: the games are found on their own pages and listed live
    (``python -m engines --list``, ``GET /api/v1/engines``)."""
    names = game_keys()
    assert [f for path in SHARED for f in per_game_tables(path, names)] == []
    assert [f for path in SHARED for f in markdown_lists(path, names)] == []


def test_the_table_check_finds_a_table_of_the_games(tmp_path):
    names = game_keys()
    page = tmp_path / "page.md"
    page.write_text("| game | commands |\n| --- | --- |\n| `taipan` | `score` |\n| `tiengow` | `check` |\n\n"
                    "| game | sides |\n| --- | --- |\n| Sichuan (`sichuan`), Taiwanese (`taiwanese`) | `E` |\n\n"
                    "| one | game |\n| --- | --- |\n| `taipan` | Sichuan, Tien Gow |\n\n"
                    "```text\n| taipan | sichuan |\n```\n")
    found = [f.split(":")[1] for f in per_game_tables(page.rename(ROOT / "docs" / "_scan_probe.md"), names)]
    try:
        assert found == ["1", "6"]
    finally:
        (ROOT / "docs" / "_scan_probe.md").unlink()


@pytest.mark.every_game
def test_every_registered_game_has_a_test_kit(game):
    game_kit = kit(game)
    assert game_kit.key == game and game_kit.docs_page.is_file() and game_kit.cases.is_file()
    assert len(game_kit.side_keys) == len(game_kit.side_labels_en) == len(game_kit.side_labels_nl)
