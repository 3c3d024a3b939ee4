"""Federation export of a season ranking (issue 26 item 5, docs/players.md "Season ranking"): one
row per person, CSV or XLSX through :func:`scoring.io.datasets.export` (formula-like text, a name
such as ``=HYPERLINK(...)`` or a tournament's name, is always written as text).

Columns: rank, name, [federation number], counted points, then per tournament its points and the
place. The public export shows the public name (:func:`scoring.participants.names.person_public_name`)
and no numbers; the managers' export (``full=True``) the full name and the federation number.
A provisional result (running tournament) is left out; a result outside the best N keeps its
points (the counted total says what counts)."""
from __future__ import annotations

import tablib
from django.utils.translation import gettext as _t

from scoring.seasons.ranking import Ranking
from scoring.standings.placement import as_number


def season_dataset(ranking: Ranking, *, full: bool = False) -> tablib.Dataset:
    """The ranking as a tablib Dataset (``full``: full names and federation numbers)."""
    headers = [_t("Rank"), _t("Full name") if full else _t("Name")]
    headers += [_t("Federation number")] if full else []
    headers.append(_t("Counted points"))
    for t in ranking.tournaments:
        headers += [_t("%(tournament)s: points") % {"tournament": t.name}, _t("%(tournament)s: place") % {"tournament": t.name}]
    ds = tablib.Dataset(headers=headers, title=ranking.season.name[:31] or "Season")
    for row in ranking.rows:
        line = [row.rank, row.full_name if full else row.name]
        line += [row.federation_number] if full else []
        line.append(as_number(row.total))
        for cell in row.cells:
            final = cell is not None and not cell.provisional
            line += [as_number(cell.points) if final else "", cell.place if final else ""]
        ds.append(line)
    return ds
