"""Game rules stay in the games registry: outside ``scoring/games/`` (and its templates) the app
has at most 8 lines that branch on the game or on its kind of entrants (issue "One result
lifecycle", item 1), at most 2 that branch on the kind of result (a match or a table: an
``isinstance`` of a result model, a ``hasattr`` of one kind's field, a comparison of a kind's key;
issue "One answer to each question in the code", item 2: outside ``scoring/kinds.py`` the kind is
asked, not tested), and no module outside the registry imports the engines."""
import re
from pathlib import Path

import pytest

from scoring.games import all_games

ROOT = Path(__file__).resolve().parents[2]
#: Every registered game's key: a branch on any of them (a new game's too) is caught.
GAME_KEYS = tuple(adapter.key for adapter in all_games())
BRANCH = re.compile(
    r"\b(if|elif|else|while)\b.*(\.game\b|has_teams|\.entrants\b|kind\s*==|container_type\s*==|"
    + "|".join(f"[\"']{k}[\"']" for k in GAME_KEYS) + r")"
    r"|(\.game|has_teams|\.entrants)\s*(==|!=|\bin\b)"
    r"|\{%\s*(if|elif)\b[^%]*(\.game\b|has_teams|entrants|kind\s*==)"
)


#: A line that branches on the kind of result instead of asking it (:mod:`scoring.kinds`).
RESULT_MODELS = r"(Match|Table|Hand|Deal|TableSeat|MatchKind|TableKind)"
KIND_BRANCH = re.compile(
    r"isinstance\([^)]*\b" + RESULT_MODELS + r"\b"
    r"|hasattr\([^)]*[\"'](state|team_ns|team_ew|team_ew_id|seats|seating_note|hands|deals|net|winner|points_ns)[\"']"
    r"|container_type\s*(==|!=)|\b(kind|key|object_type)\s*(==|!=)\s*[\"'](match|table|hand|deal)[\"']"
    r"|[\"'](match|table|hand|deal)[\"']\s*(==|!=)|\b(MATCHES|TABLES)\s*(==|!=|\bis\b)|\b(is|==|!=)\s*(MATCHES|TABLES)\b"
    r"|\{%\s*(if|elif)\b[^%]*(kind|key)\s*==\s*[\"'](match|table)"
)


def _files(skip: tuple[str, ...] = ()):
    for path in (ROOT / "scoring").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(("scoring/games/", "scoring/migrations/", *skip)):
            continue
        yield path
    for path in (ROOT / "templates").rglob("*.html"):
        if not path.relative_to(ROOT).as_posix().startswith("templates/games/"):
            yield path


def _matching_lines(pattern: re.Pattern, skip: tuple[str, ...] = ()) -> list[str]:
    """Every line of the scanned files (:func:`_files`, less ``skip``) that ``pattern`` finds."""
    found = []
    for path in _files(skip):
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if pattern.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def branching_lines() -> list[str]:
    """Every line outside the registry that branches on the game or its kind of entrants."""
    return _matching_lines(BRANCH)


def test_at_most_eight_lines_outside_the_registry_branch_on_the_game():
    lines = branching_lines()
    assert len(lines) <= 8, "\n".join(lines)


def kind_branching_lines() -> list[str]:
    """Every line outside the registry and :mod:`scoring.kinds` that branches on the kind of result."""
    return _matching_lines(KIND_BRANCH, skip=("scoring/kinds.py",))


def test_at_most_two_lines_outside_the_kinds_branch_on_the_kind_of_result():
    lines = kind_branching_lines()
    assert len(lines) <= 2, "\n".join(lines)


@pytest.mark.parametrize("line", [
    "if isinstance(result, Match):",
    "return MATCHES if isinstance(container, Match) else TABLES",
    'x = adapter.state_text(container.state) if hasattr(container, "state") else ""',
    '**(MATCH_SIDES if storage.container_type == "match" else {})',
    'if kind == "table":',
    'if kind.key == "match":',
    "if storage is MATCHES:",
    '{% if kind == "match" %}',
])
def test_the_kind_pattern_catches_the_branches_it_names(line):
    assert KIND_BRANCH.search(line)


@pytest.mark.parametrize("line", [
    "if isinstance(value, dict):",
    "kind = kind_of(container)",
    'if not hasattr(request, "standings_key"):',
    "urls = urls_of(kind, tournament, c)",
])
def test_the_kind_pattern_leaves_other_lines_alone(line):
    assert not KIND_BRANCH.search(line)


def test_only_the_registry_imports_the_engines():
    offenders = [p for p in _files() if p.suffix == ".py" and re.search(r"^\s*(from|import) engines\b", p.read_text(encoding="utf-8"), re.M)]
    assert offenders == []
