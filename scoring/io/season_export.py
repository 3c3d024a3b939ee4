"""Federation export of a season ranking (issue 26 item 5, docs/players.md "Season ranking"): one
row per person, CSV or XLSX through :func:`scoring.io.datasets.export` (formula-like text, a name
such as ``=HYPERLINK(...)`` or a tournament's name, is always written as text).

Columns: rank, name, [federation number], counted points, then per tournament its points, the
place and whether the result counts ("yes"/"no": "no" outside the best N, as the page's "(x)"). The public export shows the public name (:func:`scoring.participants.names.person_public_name`)
and no numbers; the managers' export (``full=True``) the full name and the federation number.
A provisional result (running tournament) is left out; a result outside the best N keeps its
points (a number) and says "no" under "counted". The sheet title is the season's name made valid
(:func:`scoring.io.datasets.sheet_title`)."""
from __future__ import annotations

import tablib
from django.utils.translation import gettext as _t

from scoring.io.datasets import sheet_title
from scoring.seasons.ranking import Ranking
from scoring.standings.placement import as_number


def season_dataset(ranking: Ranking, *, full: bool = False, numbers_shown: set[str] | frozenset = frozenset()) -> tablib.Dataset:
    """The ranking as a tablib Dataset (``full``: full names and a federation-number column
    holding the numbers of ``numbers_shown``, the others empty)."""
    headers = [_t("Rank"), _t("Full name") if full else _t("Name")]
    headers += [_t("Federation number")] if full else []
    headers.append(_t("Counted points"))
    for t in ranking.tournaments:
        headers += [_t("%(tournament)s: points") % {"tournament": t.name}, _t("%(tournament)s: place") % {"tournament": t.name},
                    _t("%(tournament)s: counted") % {"tournament": t.name}]
    ds = tablib.Dataset(headers=headers, title=sheet_title(ranking.season.name, _t("Season")))
    for row in ranking.rows:
        line = [row.rank, row.full_name if full else row.name]
        line += [row.federation_number if row.federation_number in numbers_shown else ""] if full else []
        line.append(as_number(row.total))
        for cell in row.cells:
            final = cell is not None and not cell.provisional
            line += [as_number(cell.points) if final else "", cell.place if final else "",
                     (_t("yes") if cell.counted else _t("no")) if final else ""]
        ds.append(line)
    return ds
