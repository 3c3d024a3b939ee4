"""The games are listed in one place, the registry (issue 21 item 4).

- Tests and docs name no hand-written list of three or more game keys (a list, tuple or set of
  string literals in ``tests/**/*.py``; a line naming three or more quoted keys in ``docs/**/*.md``):
  tests run over ``scoring.games.all_games()`` (``@pytest.mark.every_game``, tests/games/kits.py)
  and docs link to the table below. Only the registry's own test may keep one.
- The game tables of ``docs/engines/index.md`` and of ``README.md`` name exactly the registered
  games, in registration order, with their commands (and, in the index, the default preset), so
  a game added without its docs fails here.
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


def table_rows(path: Path, heading: str) -> list[list[str]]:
    """The body rows of the first Markdown table after the line ``heading`` (cells stripped)."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = lines.index(heading)
    rows = []
    for line in lines[start + 1:]:
        if line.startswith("|"):
            rows.append([c.strip() for c in line.strip("|").split("|")])
        elif rows:
            break
    assert rows and set(rows[1][0]) <= {"-", " "}, f"{path.name}: no table after {heading!r}"
    return rows[2:]


def backticked(cell: str) -> list[str]:
    return re.findall(r"`([^`]+)`", cell)


def test_the_engines_index_table_names_every_registered_game():
    rows = table_rows(ROOT / "docs" / "engines" / "index.md", "# Rule engines")
    assert [backticked(r[1])[0] for r in rows] == [g for g in keys() if kit(g).docs_page.parent.name == "engines"]
    for _label, key, page, commands, default in rows:
        assert page == f"[{key.strip('`')}.md]({key.strip('`')}.md)"
        assert set(backticked(commands)) == set(engines.commands(key.strip("`"))), key
        assert backticked(default) == [engines.default_preset(key.strip("`"))], key


def test_the_readme_table_names_every_registered_game():
    rows = table_rows(ROOT / "README.md", "### Commands per game")
    assert [backticked(r[0])[0] for r in rows] == [g for g in keys() if kit(g).docs_page.parent.name == "engines"]
    for key, commands, docs in rows:
        game = key.strip("`")
        assert set(backticked(commands)) == set(engines.commands(game)), game
        assert f"(docs/engines/{game}.md)" in docs


def test_the_api_side_table_names_every_registered_game():
    rows = table_rows(ROOT / "docs" / "api.md", "of its records, `winner`):")
    documented = [k for r in rows for k in re.findall(r"\(`([a-z0-9]+)`\)", r[0])]
    assert documented == [g for g in keys() if kit(g).docs_page.parent.name == "engines"]


@pytest.mark.every_game
def test_every_registered_game_has_a_test_kit(game):
    game_kit = kit(game)
    assert game_kit.key == game and game_kit.docs_page.is_file() and game_kit.cases.is_file()
    assert len(game_kit.side_keys) == len(game_kit.side_labels_en) == len(game_kit.side_labels_nl)
