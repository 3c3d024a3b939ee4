"""The engine examples in ``docs/engines/*.md`` are real: each one is run through the engines.

An example is a fenced block whose info string is ``json engine-input GAME COMMAND`` followed (prose
and HTML comments may come between) by a fenced block ``json engine-output``. The input goes through
:func:`engines.run`; the output must contain the documented one under the acceptance cases' subset
rule (:func:`tests.conftest.subset_mismatch`), so a page may leave out fields it does not discuss.
A documented output that is an ``{"errors": [...]}`` object is the CLI's exit-1 answer: the input
must raise :class:`engines.RuleViolation` with those violations. The ``pycon`` blocks of the pages
(the Python API) are run as doctests. Every command of every game has at least one example.

The pages are ``docs/engines/index.md`` and the docs page of every registered game (its test kit's
``docs_page``, ``docs/engines/<game>.md``; :func:`pages`), so a game registered later, such as the
test suite's fifth game, has its page checked by the same tests.
"""
from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

import engines
from tests.conftest import subset_mismatch
from tests.games.kits import keys, kit

DOCS = Path(__file__).resolve().parents[2] / "docs" / "engines"
INDEX = DOCS / "index.md"
_FENCE = re.compile(r"^```(.*)$")


def _blocks(path: Path) -> list[tuple[int, str, str]]:
    """Every fenced block of ``path``: (line number, info string, text)."""
    lines = path.read_text(encoding="utf-8").split("\n")
    out = []
    i = 0
    while i < len(lines):
        match = _FENCE.match(lines[i])
        if match is None:
            i += 1
            continue
        start = i
        i += 1
        while i < len(lines) and lines[i] != "```":
            i += 1
        assert i < len(lines), f"{path.name}:{start + 1}: unclosed code block"
        out.append((start + 1, match.group(1).strip(), "\n".join(lines[start + 1:i])))
        i += 1
    return out


def pages(games: list[str]) -> list[Path]:
    """The docs pages of ``games`` (each game's kit's ``docs_page``), after ``docs/engines/index.md``.
    Raises :class:`ModuleNotFoundError` for a game without a test kit."""
    return [INDEX, *(kit(game).docs_page for game in games)]


def examples(paths: list[Path]) -> list[tuple[str, str, str, dict, dict]]:
    """(id, game, command, input, documented output) of every example on the pages ``paths``."""
    found = []
    for path in paths:
        blocks = _blocks(path)
        for k, (line, info, text) in enumerate(blocks):
            words = info.split()
            if words[:2] == ["json", "engine-output"]:
                assert k and blocks[k - 1][1].split()[:2] == ["json", "engine-input"], \
                    f"{path.name}:{line}: an engine-output block must follow an engine-input block"
            if words[:2] != ["json", "engine-input"]:
                continue
            assert len(words) == 4, f"{path.name}:{line}: write the info string as 'json engine-input GAME COMMAND'"
            assert k + 1 < len(blocks) and blocks[k + 1][1] == "json engine-output", \
                f"{path.name}:{line}: an engine-input block must be followed by a 'json engine-output' block"
            found.append((f"{path.name}:{line}", words[2], words[3], json.loads(text), json.loads(blocks[k + 1][2])))
    return found


def problem_of(where: str, game: str, command: str, data: dict, expected: dict) -> str | None:
    """How the output of one example differs from the documented one, or ``None``."""
    if set(expected) == {"errors"}:
        try:
            engines.run(game, command, data)
        except engines.RuleViolation as exc:
            got = exc.to_json()
        else:
            return f"{where}: no RuleViolation"
    else:
        got = json.loads(json.dumps(engines.run(game, command, data)))  # the CLI's JSON, tuples as lists
    problem = subset_mismatch(expected, got)
    return None if problem is None else f"{where}: {problem}"


INDEX_EXAMPLES = examples([INDEX])


def test_every_registered_game_has_its_page_and_no_other_game_has_one():
    games = keys()
    for game in games:
        assert kit(game).docs_page.is_file(), f"{game}: no docs page {kit(game).docs_page}"
    in_docs = {kit(game).docs_page.name for game in games if kit(game).docs_page.parent == DOCS}
    assert {p.name for p in DOCS.glob("*.md")} == {"index.md"} | in_docs
    assert len(examples(pages(games))) >= 20


@pytest.mark.every_game
def test_every_command_has_an_example(game):
    documented = {command for _id, g, command, _input, _output in examples(pages([game])) if g == game}
    assert documented == set(engines.commands(game)), f"{game}: commands without an example or unknown ones"


@pytest.mark.parametrize(("where", "game", "command", "data", "expected"), INDEX_EXAMPLES, ids=[e[0] for e in INDEX_EXAMPLES])
def test_example_gives_the_documented_output(where, game, command, data, expected):
    problem = problem_of(where, game, command, data, expected)
    assert problem is None, problem


@pytest.mark.every_game
def test_examples_of_the_game_page_give_the_documented_output(game):
    found = examples([kit(game).docs_page])
    assert found, f"{game}: no examples on {kit(game).docs_page.name}"
    problems = [problem_of(*example) for example in found]
    assert [p for p in problems if p] == []


def _run_doctests(doc: Path) -> None:
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for line, info, text in _blocks(doc):
        if info != "pycon":
            continue
        test = parser.get_doctest(text + "\n", {}, f"{doc.name}:{line}", str(doc), line)
        runner.run(test)
    assert runner.failures == 0, f"{doc.name}: {runner.failures} Python example(s) failed (see the output above)"


def test_python_examples_of_the_index_run():
    _run_doctests(INDEX)


@pytest.mark.every_game
def test_python_examples_run(game):
    _run_doctests(kit(game).docs_page)
