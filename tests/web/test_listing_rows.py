"""The standings grid makes a row's cells only when they are read (``scoring.web.listings``): a
phone's compact standings write some 20 rows of a field of hundreds, and formatting every row
was most of a standings refresh's CPU under load (README, load scenario)."""
from __future__ import annotations

from types import SimpleNamespace

from scoring.web.listings import GridColumn, _build


def test_cells_are_made_once_and_only_for_the_rows_read():
    made = []

    def values(record):
        made.append(record.n)
        return [str(record.n), f"<b>{record.n}</b>"]

    columns = [GridColumn("rank", "Rank", "#", "num"), GridColumn("name", "Team", "Team", "c-name")]
    rows = _build(columns, [SimpleNamespace(n=i) for i in range(300)], values)
    assert len(rows) == 300 and made == []
    assert rows[7].cells == [("num", "#", "7"), ("c-name", "Team", "&lt;b&gt;7&lt;/b&gt;")]  # escaped
    rows[7].html, rows[7].lean_html, rows[299].cells  # noqa: B018 - read again, and another row
    assert made == [7, 299]
