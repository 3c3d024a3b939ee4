"""Code size in ``scoring/`` (issue 21 item 5): no module over 600 lines, and at most 2 functions
over 60 lines, each saying why in its docstring ("Longer than 60 lines because ...").

A function's length runs from its ``def`` line to its last line, docstring and nested functions
included (``ast``: ``end_lineno - lineno + 1``; decorators not counted). Migrations are generated
and left out."""
from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
MAX_MODULE_LINES = 600
MAX_FUNCTION_LINES = 60
MAX_LONG_FUNCTIONS = 2
REASON = "Longer than 60 lines because"


def _modules() -> list[Path]:
    return sorted(p for p in (ROOT / "scoring").rglob("*.py") if "migrations" not in p.relative_to(ROOT).parts)


def _functions(path: Path) -> list[ast.FunctionDef | ast.AsyncFunctionDef]:
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    return [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]


def long_functions() -> list[tuple[str, int, ast.FunctionDef | ast.AsyncFunctionDef]]:
    """``[(where, lines, node)]`` of every function in ``scoring/`` over the limit."""
    found = []
    for path in _modules():
        for node in _functions(path):
            lines = node.end_lineno - node.lineno + 1
            if lines > MAX_FUNCTION_LINES:
                found.append((f"{path.relative_to(ROOT)}:{node.lineno} {node.name}", lines, node))
    return found


def test_the_scan_sees_the_code():
    modules = _modules()
    assert len(modules) > 50
    assert not any("migrations" in p.parts for p in modules)
    assert sum(len(_functions(p)) for p in modules) > 500


def test_no_module_over_600_lines():
    too_long = [f"{p.relative_to(ROOT)}: {n} lines" for p in _modules()
                if (n := len(p.read_text(encoding="utf-8").splitlines())) > MAX_MODULE_LINES]
    assert too_long == [], f"modules over {MAX_MODULE_LINES} lines:\n" + "\n".join(too_long)


def test_at_most_two_functions_over_60_lines():
    found = long_functions()
    listing = "\n".join(f"{where}: {lines} lines" for where, lines, _node in found)
    assert len(found) <= MAX_LONG_FUNCTIONS, (
        f"{len(found)} functions over {MAX_FUNCTION_LINES} lines (at most {MAX_LONG_FUNCTIONS}):\n{listing}")


def test_every_function_over_60_lines_says_why():
    unexplained = [f"{where}: {lines} lines" for where, lines, node in long_functions()
                   if REASON not in " ".join((ast.get_docstring(node) or "").split())]
    assert unexplained == [], (f"functions over {MAX_FUNCTION_LINES} lines without {REASON!r} in their "
                               "docstring:\n" + "\n".join(unexplained))
