"""The README's performance tables come from one ``make bench`` run (issue 13 item 6):
``benchmarks/readme_tables.py`` replaces each marked block with the block of the same name the
benchmarks printed, and refuses a run that lacks one. No timing is asserted."""
import re
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "benchmarks"))

import readme_tables  # noqa: E402
from readme_tables import Table  # noqa: E402

README = (ROOT / "README.md").read_text(encoding="utf-8")


def _run_output(run: str | None = "2026-12-01T22:51:15Z", **tables: list[str]) -> str:
    out = ["== benchmarks/bench_x.py", "some figure: 1 ms | baseline (b): 2 ms | ratio 0.50x"]
    for name, rows in tables.items():
        t = Table(name, ["figure", "ours"])
        for r in rows:
            t.row(r, "1 ms")
        block = t.markdown().rstrip("\n")
        if run:
            block = block.replace(f"<!-- bench:{name} -->", f"<!-- bench:{name} run={run} -->")
        out.append(block)
    return "\n".join(out) + "\n"


@pytest.fixture(autouse=True)
def _no_run_id(monkeypatch):
    monkeypatch.delenv(readme_tables.RUN_ENV, raising=False)


def test_a_table_carries_the_run_id_make_bench_sets(monkeypatch):
    t = Table("seating", ["players", "search"])
    t.row("16", "6.9 ms")
    assert t.markdown().startswith("<!-- bench:seating -->\n")
    monkeypatch.setenv(readme_tables.RUN_ENV, "2026-12-01T22:51:15Z")
    text = t.markdown()
    assert text.startswith("<!-- bench:seating run=2026-12-01T22:51:15Z -->\n")
    assert readme_tables.runs(text) == {"2026-12-01T22:51:15Z"}
    assert list(readme_tables.blocks(text)) == ["seating"]


def test_regenerate_refuses_tables_of_no_run_several_runs_or_a_failed_run():
    readme = "<!-- bench:a -->\n<!-- /bench:a -->\n<!-- bench:b -->\n<!-- /bench:b -->\n"
    with pytest.raises(ValueError, match="without a run id"):
        readme_tables.regenerate(readme, _run_output(None, a=["x"], b=["y"]))
    mixed = _run_output("r1", a=["x"]) + _run_output("r2", b=["y"])
    with pytest.raises(ValueError, match="2 different runs"):
        readme_tables.regenerate(readme, mixed)
    failed = _run_output(a=["x"], b=["y"]) + "Traceback (most recent call last):\n  ...\nValueError: boom\n"
    with pytest.raises(ValueError, match="failed"):
        readme_tables.regenerate(readme, failed)


def test_a_table_prints_a_marked_markdown_block():
    t = Table("round-pack", ["figure", "ours", "ratio"], "lrr")
    t.row("pack | 500 sheets", "8,094 ms", "1.19x")
    assert t.markdown() == (
        "<!-- bench:round-pack -->\n"
        "| figure | ours | ratio |\n"
        "| --- | ---: | ---: |\n"
        "| pack \\| 500 sheets | 8,094 ms | 1.19x |\n"
        "<!-- /bench:round-pack -->\n"
    )
    with pytest.raises(ValueError):
        t.row("too", "few")
    for bad_name in ("Round pack", "a/b", ""):
        with pytest.raises(ValueError):
            Table(bad_name, ["a"])
    with pytest.raises(ValueError):
        Table("x", ["a", "b"], "lx")


def test_regenerate_replaces_each_block_with_the_runs_and_keeps_the_text():
    readme = ("# Perf\nintro\n<!-- bench:a -->\n| old | table |\n<!-- /bench:a -->\nbetween\n"
              "<!-- bench:b -->\n<!-- /bench:b -->\nend\n")
    run = _run_output(a=["fresh a"], b=["fresh b1", "fresh b2"])
    new = readme_tables.regenerate(readme, run)
    assert "| old | table |" not in new
    assert new.startswith("# Perf\nintro\n<!-- bench:a run=2026-12-01T22:51:15Z -->\n| figure | ours |\n")
    assert "| fresh a | 1 ms |" in new and "| fresh b2 | 1 ms |" in new
    assert "\nbetween\n" in new and new.endswith("<!-- /bench:b -->\nend\n")
    assert readme_tables.regenerate(new, run) == new  # idempotent
    assert "<!-- bench:a run=2026-12-01T22:51:15Z -->" in new


def test_regenerate_refuses_a_run_without_a_table_the_readme_shows():
    readme = "<!-- bench:a -->\n<!-- /bench:a -->\n<!-- bench:b -->\n<!-- /bench:b -->\n"
    with pytest.raises(ValueError, match="no table b"):
        readme_tables.regenerate(readme, _run_output(a=["x"]))
    with pytest.raises(ValueError, match="places no table c"):
        readme_tables.regenerate(readme, _run_output(a=["x"], b=["y"], c=["z"]))
    with pytest.raises(ValueError, match="twice"):
        readme_tables.regenerate(readme, _run_output(a=["x"], b=["y"]) + _run_output(a=["again"]))


def test_the_command_leaves_the_readme_alone_when_the_run_is_incomplete(tmp_path, capsys):
    readme = tmp_path / "README.md"
    readme.write_text("t\n<!-- bench:a -->\n<!-- /bench:a -->\n<!-- bench:b -->\n<!-- /bench:b -->\n")
    before = readme.read_text()
    run = tmp_path / "last-run.txt"
    run.write_text(_run_output(a=["x"]))
    assert readme_tables.main([str(run), "--readme", str(readme)]) == 1
    assert readme.read_text() == before
    assert "no table b" in capsys.readouterr().err
    run.write_text(_run_output(a=["x"], b=["y"]))
    assert readme_tables.main([str(run), "--readme", str(readme)]) == 0
    assert "| y | 1 ms |" in readme.read_text()
    assert readme_tables.main([str(tmp_path / "missing.txt"), "--readme", str(readme)]) == 1


def test_every_benchmark_prints_a_table_the_readme_places_and_the_readme_has_no_other():
    printed = set()
    for script in sorted((ROOT / "benchmarks").glob("bench_*.py")):
        text = script.read_text(encoding="utf-8")
        names = set(re.findall(r'(?:Table|figure_table)\(\s*"([a-z0-9_-]+)"', text))
        assert names, f"{script.name} prints no README table"
        assert ".print()" in text
        printed |= names
    placed = set(readme_tables.blocks(README))
    assert placed == printed
    assert placed >= {"standings", "round-pack", "pair-next-round", "pairing", "seating", "taipan", "mahjong", "tiengow"}


def test_the_readme_tables_hold_figures_and_the_makefile_copies_them():
    for name, block in readme_tables.blocks(README).items():
        rows = block.splitlines()[1:-1]
        assert len(rows) >= 3, f"README table {name} is empty: run make bench, then make bench-readme"
        assert rows[1].startswith("| ---") and all(r.startswith("| ") and r.endswith(" |") for r in rows)
    run_ids = readme_tables.runs(README)
    assert len(run_ids) == 1 and None not in run_ids, "the README's tables must come from one make bench run"
    makefile = (ROOT / "Makefile").read_text(encoding="utf-8")
    assert "benchmarks/readme_tables.py var/bench/last-run.txt" in makefile
    bench_recipe = makefile.split("bench: install", 1)[1].split("\n\n", 1)[0]
    assert "var/bench/last-run.txt" in bench_recipe and "BENCH_RUN=" in bench_recipe
