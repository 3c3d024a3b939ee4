"""The standings on a phone (issue 25 item 4): the top of the table and the rows around the
phone's own team (or player), the full table on request.

**Which view** (:func:`view_mode`), decided on the server from what the request says, never by
reading the user agent:

- ``?projector=1``: always the full table (the projector pages through every row);
- ``?all=1``: the full table; ``?all=0``: the compact view (the links on the page set these);
- otherwise the client hint ``Sec-CH-UA-Mobile`` (sent by Chromium-based browsers on https
  without being asked): ``?0`` (a desktop or tablet) gets the full table, which is what someone
  at a computer expects; ``?1`` (a phone) and browsers that send no hint (Safari, Firefox) get
  the compact view with a "Show the full standings" link: a hall of phones polls a few rows, not
  a thousand. Responses vary on the hint (``Vary: Sec-CH-UA-Mobile``) and the conditional GET's
  state covers the view chosen (``standings_page_state`` in :mod:`scoring.web.views.public`).

A field of at most :data:`SHOW_ALL_UP_TO` entrants is shown whole in either view.

**Whose neighbourhood** (:func:`own_entrant`): the entrant whose private link the phone holds
(:mod:`scoring.web.links`; the ETag already covers the link), else ``?team=ID`` (``?player=ID``
in a four-player tournament), the choice a team page links to; else none: the top only.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.utils.translation import ngettext

from scoring import policy
from scoring.games.base import EntrantKind
from scoring.params import plain_int

#: Rows at the top of the compact view.
TOP_ROWS = 10
#: Rows shown above and below the phone's own entrant.
AROUND = 3
#: A field this small is shown whole in the compact view (nothing worth hiding).
SHOW_ALL_UP_TO = 20

FULL, COMPACT = "full", "compact"

#: The query parameter that names the followed entrant, and the standings row's id attribute.
ENTRANT_PARAM = {EntrantKind.TEAMS: ("team", "team_id"), EntrantKind.PLAYERS: ("player", "player_id")}


def view_mode(request) -> str:
    """:data:`FULL` or :data:`COMPACT` for this request (see the module docstring)."""
    if request.GET.get("projector") == "1":
        return FULL
    explicit = request.GET.get("all")
    if explicit in ("0", "1"):
        return FULL if explicit == "1" else COMPACT
    return FULL if request.headers.get("Sec-CH-UA-Mobile", "").strip() == "?0" else COMPACT


def own_entrant(request, kind: EntrantKind) -> int | None:
    """The id of the team (or player) whose neighbourhood the compact view shows: the entrant
    of the private link this phone acts through, else the ``?team=`` (``?player=``) parameter,
    else ``None``."""
    actor = getattr(request, "actor", None)
    param, attr = ENTRANT_PARAM[kind]
    if policy.is_entrant(actor):
        return getattr(actor, attr)
    return plain_int(request.GET.get(param))


@dataclass
class Gap:
    """Rows left out between two shown rows: ``count`` of them; ``text`` says so
    ("12 teams not shown")."""

    count: int
    text: str
    gap: bool = True


def gap_text(count: int, kind: EntrantKind) -> str:
    """"12 teams not shown" (``"players"`` in a four-player tournament)."""
    if kind == EntrantKind.PLAYERS:
        return ngettext("%(n)d player not shown", "%(n)d players not shown", count) % {"n": count}
    return ngettext("%(n)d team not shown", "%(n)d teams not shown", count) % {"n": count}


def compact_rows(rows: list, own_index: int | None, kind: EntrantKind, *, top: int = TOP_ROWS,
                 around: int = AROUND) -> list[Any]:
    """The rows of the compact view, in order: the first ``top`` of ``rows``, the ``around``
    rows either side of ``rows[own_index]`` (if given) and a :class:`Gap` for every run of
    rows left out (also after the last shown row). A field of at most :data:`SHOW_ALL_UP_TO`
    rows comes back whole."""
    if len(rows) <= SHOW_ALL_UP_TO:
        return list(rows)
    shown = set(range(min(top, len(rows))))
    if own_index is not None:
        shown.update(range(max(0, own_index - around), min(len(rows), own_index + around + 1)))
    out: list[Any] = []
    previous = -1
    for i in sorted(shown):
        if i > previous + 1:
            out.append(Gap(i - previous - 1, gap_text(i - previous - 1, kind)))
        out.append(rows[i])
        previous = i
    if previous < len(rows) - 1:
        out.append(Gap(len(rows) - 1 - previous, gap_text(len(rows) - 1 - previous, kind)))
    return out


def index_of(rows: list, entrant_id: int | None, kind: EntrantKind) -> int | None:
    """The index in ``rows`` (grid rows whose ``record`` is a standings row) of the entrant
    ``entrant_id``, or ``None``."""
    if entrant_id is None:
        return None
    attr = ENTRANT_PARAM[kind][1]
    return next((i for i, row in enumerate(rows) if getattr(row.record, attr, None) == entrant_id), None)
