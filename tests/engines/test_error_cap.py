"""Issue 22 item 7: an engine's errors are capped (the first 50 violations and a count of the
rest) and the command line reads no more than the API takes (64 KiB, 32 levels of nesting)."""
from __future__ import annotations

import json
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

import engines
from engines import __main__ as cli
from engines.errors import LIMIT, Collector, RuleViolation, Violation
from scoring.api import parsers

ROOT = Path(__file__).resolve().parents[2]


def _cli(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "engines", *args], input=stdin, capture_output=True, text=True, cwd=ROOT)


def test_limit_is_fifty():
    assert LIMIT == 50


def test_a_collector_keeps_the_first_fifty_and_counts_the_rest():
    errors = Collector()
    for i in range(1234 + 50):
        errors.add(f"play[{i}]", "Unknown tile {code!r}.", code="9-9")
    assert len(errors.violations) == 50 and errors.more == 1234 and errors.count == 1284
    with pytest.raises(RuleViolation) as refused:
        errors.raise_if_any()
    assert [v.field for v in refused.value.violations] == [f"play[{i}]" for i in range(50)]
    assert refused.value.more == 1234
    assert refused.value.to_json()["more_errors"] == 1234
    assert str(refused.value).endswith("and 1,234 more")


def test_extending_a_collector_carries_the_count():
    inner = Collector()
    for i in range(60):
        inner.add(f"[{i}]", "x")
    outer = Collector()
    outer.add("a", "y")
    outer.extend(inner, "hands")
    assert len(outer.violations) == 50 and outer.more == 11
    assert outer.violations[1].field == "hands[0]"


def test_a_rule_violation_built_from_a_long_list_is_cut():
    refused = RuleViolation([Violation(f"f{i}", "x") for i in range(70)])
    assert len(refused.violations) == 50 and refused.more == 20 and refused.count == 70


def test_no_more_errors_field_when_nothing_is_left_out():
    assert RuleViolation([Violation("a", "x")]).to_json() == {"errors": [{"field": "a", "message": "x"}]}


def test_a_huge_tien_gow_input_keeps_fifty_violations_in_little_memory():
    """200,000 unknown tiles (1.4 MB of JSON): the first 50 kept, 199,950 counted, and the
    violations cost kilobytes, not the hundreds of megabytes a full list took."""
    data = {"current": None, "play": ["9-9"] * 200_000}
    tracemalloc.start()
    try:
        with pytest.raises(RuleViolation) as refused:
            engines.run("tiengow", "check", data)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert [v.field for v in refused.value.violations] == [f"play[{i}]" for i in range(50)]
    assert refused.value.more == 199_950
    assert peak < 20 * 1024 * 1024


def test_the_cli_prints_fifty_errors_and_the_count():
    proc = _cli("tiengow", "check", stdin=json.dumps({"current": None, "play": ["9-9"] * 5000}))
    assert proc.returncode == 1
    out = json.loads(proc.stdout)
    assert len(out["errors"]) == 50 and out["more_errors"] == 4950


def test_the_cli_limits_the_input_as_the_api_does():
    assert cli.MAX_INPUT_BYTES == parsers.MAX_BYTES == 64 * 1024
    assert cli.MAX_DEPTH == parsers.MAX_DEPTH


def test_an_input_over_the_limit_is_refused_with_exit_2_and_a_clear_message():
    big = json.dumps({"current": None, "play": ["1-2"] * 20000})
    assert len(big) > 64 * 1024
    proc = _cli("tiengow", "check", stdin=big)
    assert proc.returncode == 2 and proc.stdout == ""
    assert "larger than 65,536 bytes" in proc.stderr and "--max-bytes" in proc.stderr


def test_max_bytes_lets_a_larger_input_through(tmp_path):
    source = tmp_path / "big.json"
    source.write_text(json.dumps({"current": None, "play": ["1-2"] * 20000}), encoding="utf-8")
    for args in (["--max-bytes", "0"], ["--max-bytes", str(10 ** 6)]):
        proc = _cli(*args, "tiengow", "check", str(source))
        assert proc.returncode == 1, proc.stderr  # read and judged: 20,000 copies of a single tile
        assert json.loads(proc.stdout)["more_errors"] == 19_949
    proc = _cli("--max-bytes", "1000", "tiengow", "check", str(source))
    assert proc.returncode == 2 and "larger than 1,000 bytes" in proc.stderr


def test_max_bytes_needs_a_number():
    for args in (["--max-bytes"], ["--max-bytes", "lots", "taipan", "score"], ["--max-bytes", "-1", "taipan", "score"]):
        proc = _cli(*args)
        assert proc.returncode == 2 and "usage:" in proc.stderr, args


def test_an_input_nested_deeper_than_the_api_allows_is_refused():
    proc = _cli("taipan", "score", stdin="[" * 40 + "]" * 40)
    assert proc.returncode == 2 and "32 levels" in proc.stderr
    assert _cli("taipan", "score", stdin=json.dumps({"calls": {}, "x": [[[1]]]})).returncode == 1
