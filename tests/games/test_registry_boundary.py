"""Game rules stay in the games registry: outside ``scoring/games/`` (and its templates) the app
has at most 8 lines that branch on the game or on its kind of entrants (issue "One result
lifecycle", item 1), and no module outside the registry imports the engines."""
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
GAME_KEYS = ("taipan", "sichuan", "taiwanese", "tiengow")
BRANCH = re.compile(
    r"\b(if|elif|else|while)\b.*(\.game\b|has_teams|\.entrants\b|kind\s*==|container_type\s*==|"
    + "|".join(f"[\"']{k}[\"']" for k in GAME_KEYS) + r")"
    r"|(\.game|has_teams|\.entrants)\s*(==|!=|\bin\b)"
    r"|\{%\s*(if|elif)\b[^%]*(\.game\b|has_teams|entrants|kind\s*==)"
)


def _files():
    for path in (ROOT / "scoring").rglob("*.py"):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(("scoring/games/", "scoring/migrations/")):
            continue
        yield path
    for path in (ROOT / "templates").rglob("*.html"):
        if not path.relative_to(ROOT).as_posix().startswith("templates/games/"):
            yield path


def branching_lines() -> list[str]:
    """Every line outside the registry that branches on the game or its kind of entrants."""
    found = []
    for path in _files():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
            if BRANCH.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    return found


def test_at_most_eight_lines_outside_the_registry_branch_on_the_game():
    lines = branching_lines()
    assert len(lines) <= 8, "\n".join(lines)


def test_only_the_registry_imports_the_engines():
    offenders = [p for p in _files() if p.suffix == ".py" and re.search(r"^\s*(from|import) engines\b", p.read_text(encoding="utf-8"), re.M)]
    assert offenders == []
