"""The README's performance tables, regenerated from one ``make bench`` run (issue 13 item 6).

Every ``benchmarks/bench_*.py`` prints, after its figures, its README table between two marker
lines (:class:`Table`)::

    <!-- bench:standings -->
    | figure | ours | baseline (same run) | ratio | target |
    | --- | ---: | --- | ---: | ---: |
    | standings service | 22.3 ms | a minimal ranking over the same two reads: 13.1 ms | 1.70x | <= 2x |
    <!-- /bench:standings -->

``make bench`` sets ``BENCH_RUN`` (its start time, UTC) for every benchmark, and each table
carries it in its start marker (``<!-- bench:standings run=2026-12-01T22:51:15Z -->``); it keeps
the whole output in ``var/bench/last-run.txt``. ``make bench-readme`` (``python
benchmarks/readme_tables.py``) replaces every marked block of ``README.md`` with the block of the
same name from that file, so the README shows the figures of one run and nothing else. It refuses
(exit 1, README untouched) when the run lacks a block the README has (a table would keep figures
from another run), when the run has a block the README does not place, when a name appears twice,
when the tables carry no run id (a benchmark run by hand) or several, or when a benchmark failed
(a traceback in the output; ``make bench`` stops at the first failing benchmark, so a failed run
also lacks the later blocks).
"""
from __future__ import annotations

import argparse
import os
import re
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LAST_RUN = ROOT / "var" / "bench" / "last-run.txt"
README = ROOT / "README.md"

_BLOCK = re.compile(r"^<!-- bench:([a-z0-9_-]+)(?: run=(\S+))? -->\n(.*?)^<!-- /bench:\1 -->$", re.M | re.S)
#: The run a table belongs to: ``make bench`` sets it (UTC start time) for every benchmark it runs.
RUN_ENV = "BENCH_RUN"


class Table:
    """A Markdown table a benchmark prints for the README: ``name`` (the marker's name, one per
    table), the column ``header`` and, for each column, its alignment (``"l"`` or ``"r"``).
    :meth:`row` adds a row of already formatted cells (strings; ``|`` inside a cell is escaped);
    :meth:`print` writes the marked block to standard output."""

    def __init__(self, name: str, header: Sequence[str], align: str | None = None) -> None:
        if not re.fullmatch(r"[a-z0-9_-]+", name):
            raise ValueError(f"table name {name!r}: lowercase letters, digits, '-' and '_' only")
        align = align or "l" + "r" * (len(header) - 1)
        if len(align) != len(header) or set(align) - {"l", "r"}:
            raise ValueError("align: one 'l' or 'r' per column")
        self.name, self.header, self.align = name, list(header), align
        self.rows: list[list[str]] = []

    def row(self, *cells: object) -> None:
        if len(cells) != len(self.header):
            raise ValueError(f"{len(cells)} cells for {len(self.header)} columns")
        self.rows.append([str(c).replace("|", "\\|") for c in cells])

    def markdown(self) -> str:
        """The marked block, ending with a newline."""
        rule = ["---:" if a == "r" else "---" for a in self.align]
        run = os.environ.get(RUN_ENV, "").strip()
        start = f"<!-- bench:{self.name} run={run} -->" if re.fullmatch(r"\S+", run) else f"<!-- bench:{self.name} -->"
        lines = [start, _line(self.header), _line(rule)]
        lines += [_line(r) for r in self.rows]
        lines.append(f"<!-- /bench:{self.name} -->")
        return "\n".join(lines) + "\n"

    def print(self) -> None:
        print(self.markdown(), end="", flush=True)


def _line(cells: Iterable[str]) -> str:
    return "| " + " | ".join(cells) + " |"


def blocks(text: str) -> dict[str, str]:
    """``{name: block}`` of every marked block in ``text`` (the block with its two marker lines).
    Raises ``ValueError`` when a name appears twice."""
    found: dict[str, str] = {}
    for m in _BLOCK.finditer(text):
        if m.group(1) in found:
            raise ValueError(f"table {m.group(1)!r} appears twice")
        found[m.group(1)] = m.group(0)
    return found


def runs(text: str) -> set[str | None]:
    """The run ids of the marked blocks in ``text`` (None for a block without one)."""
    return {m.group(2) for m in _BLOCK.finditer(text)}


def regenerate(readme: str, run: str) -> str:
    """``readme`` with each marked block replaced by the block of the same name in ``run`` (the
    output of one ``make bench``). Raises ``ValueError`` naming what is wrong: tables the two do
    not share, tables of no run or of several runs (a benchmark run by hand has no run id), or a
    benchmark that failed (a traceback in the output)."""
    ours, fresh = blocks(readme), blocks(run)
    missing, unplaced = sorted(set(ours) - set(fresh)), sorted(set(fresh) - set(ours))
    problems = []
    if "Traceback (most recent call last)" in run:
        problems.append("a benchmark of the run failed (traceback in the output)")
    ids = runs(run)
    if None in ids:
        problems.append("tables without a run id: not printed by make bench")
    if len(ids - {None}) > 1:
        problems.append(f"tables of {len(ids - {None})} different runs")
    if missing:
        problems.append(f"the run has no table {', '.join(missing)} (did it finish?)")
    if unplaced:
        problems.append(f"the README places no table {', '.join(unplaced)}")
    if problems:
        raise ValueError("; ".join(problems))
    return _BLOCK.sub(lambda m: fresh[m.group(1)], readme)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("run", nargs="?", type=Path, default=LAST_RUN, help="output of make bench (%(default)s)")
    parser.add_argument("--readme", type=Path, default=README)
    args = parser.parse_args(argv)
    if not args.run.exists():
        print(f"{args.run}: no such file; run make bench first", file=sys.stderr)
        return 1
    text = args.readme.read_text(encoding="utf-8")
    try:
        new = regenerate(text, args.run.read_text(encoding="utf-8"))
    except ValueError as exc:
        print(f"README not changed: {exc}", file=sys.stderr)
        return 1
    args.readme.write_text(new, encoding="utf-8")
    print(f"{args.readme.name}: {len(blocks(new))} tables from {args.run}"
          + ("" if new != text else " (no figure changed)"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
