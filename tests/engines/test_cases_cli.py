"""Every acceptance case in ``tests/cases/*.json`` run through the engines' command line exactly as
the acceptance runner does (``python -m engines GAME COMMAND`` with the input on stdin)."""
import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import CASES_DIR, subset_mismatch

ROOT = Path(__file__).resolve().parents[2]


def _all_cases():
    for path in sorted(CASES_DIR.glob("*.json")):
        data = json.loads(path.read_text(encoding="utf-8"))
        if "game" not in data:
            continue
        game = data["game"]
        if not (ROOT / "engines" / game).is_dir():
            continue
        for case in data["cases"]:
            yield pytest.param(game, case, id=f"{game}-{case['id']}")


@pytest.mark.parametrize(("game", "case"), list(_all_cases()))
def test_case_through_cli(game, case):
    proc = subprocess.run(
        [sys.executable, "-m", "engines", game, case["command"]],
        input=json.dumps(case["input"]), capture_output=True, text=True, cwd=ROOT, timeout=60,
    )
    expect = case["expect"]
    if expect.get("errors") is True:
        assert proc.returncode == 1, (proc.stdout, proc.stderr)
        errors = json.loads(proc.stdout)["errors"]
        assert isinstance(errors, list) and errors
        assert all(set(e) >= {"field", "message"} for e in errors)
    else:
        assert proc.returncode == 0, (proc.stdout, proc.stderr)
        assert subset_mismatch(expect, json.loads(proc.stdout)) is None, subset_mismatch(expect, json.loads(proc.stdout))
