"""What the benchmark scripts share: Django on a benchmark database, CPU timing that alternates the
measured code with its baseline, and one line format for every figure.

The machine is shared, so no figure is a bare time: every line prints the figure, its baseline
measured in the same run (interleaved with it, best of the repeats) and their ratio. Times are
process CPU time (``time.process_time``), which other processes on the machine disturb less than
wall time; the database is SQLite inside the process, so its work is counted too.
"""
from __future__ import annotations

import os
import sys
import time
import warnings
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))
#: Where benchmark databases and outputs are kept between runs (ignored by git).
VAR = ROOT / "var" / "bench"
BENCHMARKS = Path(__file__).resolve().parent
if str(BENCHMARKS) not in sys.path:
    sys.path.insert(0, str(BENCHMARKS))

from readme_tables import Table  # noqa: E402

warnings.filterwarnings("ignore", "No directory at")  # whitenoise: static files are not collected here


def django_setup(db: Path) -> None:
    """Configure Django on the SQLite file ``db`` (created and migrated if needed), with the
    in-process cache and eager Celery, without the query log or template debugging."""
    os.environ["DJANGO_SETTINGS_MODULE"] = "nskt.settings"
    os.environ["DEBUG"] = "1"  # development settings (no SECRET_KEY needed) ...
    os.environ["DATABASE_URL"] = f"sqlite:///{db}"
    os.environ.pop("REDIS_URL", None)
    db.parent.mkdir(parents=True, exist_ok=True)
    import django
    from django.conf import settings

    django.setup()
    settings.DEBUG = False  # ... but measured like production: no query log, no template debug
    settings.ALLOWED_HOSTS = [*settings.ALLOWED_HOSTS, "testserver"]
    from django.core.management import call_command

    call_command("migrate", verbosity=0)


def cpu(fn: Callable[[], object]) -> float:
    """CPU seconds of one call of ``fn``."""
    start = time.process_time()
    fn()
    return time.process_time() - start


def compare(measured: Callable[[], object], baseline: Callable[[], object], repeat: int = 3) -> tuple[float, float]:
    """Best CPU time of ``measured`` and of ``baseline`` over ``repeat`` interleaved runs each."""
    ours, theirs = [], []
    for _ in range(repeat):
        theirs.append(cpu(baseline))
        ours.append(cpu(measured))
    return min(ours), min(theirs)


def report(label: str, value: float, baseline: float, baseline_label: str, *, target: float | None = None,
           unit: str = "s", table: Table | None = None, row: str | None = None,
           row_baseline: str | None = None) -> str:
    """One figure: ``label``, its value, the baseline's, the ratio and (if any) the target ratio,
    printed as one line. With ``table`` (a README table of the columns figure, ours, baseline,
    ratio, target: :data:`FIGURE_COLUMNS`) the same figure is added to it as a row, labelled
    ``row`` and ``row_baseline`` (default: ``label`` and ``baseline_label``)."""
    ratio = value / baseline if baseline else float("inf")
    goal = ""
    if target is not None:
        goal = f"  target <= {target:g}x: {'met' if ratio <= target else 'NOT met'}"
    line = (f"{label}: {fmt(value, unit)} | baseline ({baseline_label}): {fmt(baseline, unit)} | "
            f"ratio {ratio:.2f}x{goal}")
    print(line, flush=True)
    if table is not None:
        table.row(row or label, fmt(value, unit), f"{row_baseline or baseline_label}: {fmt(baseline, unit)}",
                  f"{ratio:.2f}x", f"<= {target:g}x" if target is not None else "")
    return line


#: Columns of a README table of :func:`report` rows.
FIGURE_COLUMNS = ("figure", "ours", "baseline (same run)", "ratio", "target")


def figure_table(name: str) -> Table:
    """An empty README table (:class:`readme_tables.Table`) for :func:`report` rows."""
    return Table(name, FIGURE_COLUMNS, "lrlrr")


def fmt(value: float, unit: str = "s") -> str:
    """``value`` for print: seconds (``unit="s"``) as whole µs below 1 ms, ms with one decimal
    below 100 ms, whole ms below 10 s, else s with one decimal; any other ``unit`` as a whole
    number with thousands separators and the unit."""
    if unit == "s":
        if value < 0.001:
            return f"{value * 1e6:.0f} µs"
        if value < 0.1:
            return f"{value * 1000:.1f} ms"
        return f"{value * 1000:,.0f} ms" if value < 10 else f"{value:.1f} s"
    return f"{value:,.0f} {unit}"
