"""The engine examples in ``docs/engines/*.md`` are real: each one is run through the engines.

An example is a fenced block whose info string is ``json engine-input GAME COMMAND`` followed (prose
and HTML comments may come between) by a fenced block ``json engine-output``. The input goes through
:func:`engines.run`; the output must contain the documented one under the acceptance cases' subset
rule (:func:`tests.conftest.subset_mismatch`), so a page may leave out fields it does not discuss.
A documented output that is an ``{"errors": [...]}`` object is the CLI's exit-1 answer: the input
must raise :class:`engines.RuleViolation` with those violations. The ``pycon`` blocks of the pages
(the Python API) are run as doctests. Every command of every game has at least one example.
"""
from __future__ import annotations

import doctest
import json
import re
from pathlib import Path

import pytest

import engines
from tests.conftest import subset_mismatch

DOCS = Path(__file__).resolve().parents[2] / "docs" / "engines"
PAGES = sorted(DOCS.glob("*.md"))
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


def _examples() -> list[tuple[str, str, str, dict, dict]]:
    """(id, game, command, input, documented output) of every example on every page."""
    found = []
    for path in PAGES:
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


EXAMPLES = _examples()


def test_there_are_pages_and_examples():
    assert {p.name for p in PAGES} >= {"index.md", "taipan.md", "sichuan.md", "taiwanese.md", "tiengow.md"}
    assert len(EXAMPLES) >= 20


@pytest.mark.parametrize("game", engines.GAMES)
def test_every_command_has_an_example(game):
    documented = {command for _id, g, command, _input, _output in EXAMPLES if g == game}
    assert documented == set(engines.commands(game)), f"{game}: commands without an example or unknown ones"


@pytest.mark.parametrize(("where", "game", "command", "data", "expected"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_example_gives_the_documented_output(where, game, command, data, expected):
    if set(expected) == {"errors"}:
        with pytest.raises(engines.RuleViolation) as caught:
            engines.run(game, command, data)
        got = caught.value.to_json()
    else:
        got = json.loads(json.dumps(engines.run(game, command, data)))  # the CLI's JSON, tuples as lists
    problem = subset_mismatch(expected, got)
    assert problem is None, f"{where}: {problem}"


@pytest.mark.parametrize("doc", PAGES, ids=[p.name for p in PAGES])
def test_python_examples_run(doc):
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.ELLIPSIS | doctest.NORMALIZE_WHITESPACE)
    for line, info, text in _blocks(doc):
        if info != "pycon":
            continue
        test = parser.get_doctest(text + "\n", {}, f"{doc.name}:{line}", str(doc), line)
        runner.run(test)
    assert runner.failures == 0, f"{doc.name}: {runner.failures} Python example(s) failed (see the output above)"
