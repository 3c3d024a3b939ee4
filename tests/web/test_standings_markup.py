"""The public Tai Pan standings are written out from cells computed in the view
(:class:`scoring.web.listings.LeanTable`), with the markup django-tables2 wrote for them before
(issue 13 item 2: the page looks the same): the table's class, ``num`` / ``players`` /
``num strong`` cells, the header's classes, ``even``/``odd`` rows, a withdrawn team marked in its
row class and after its linked name, names escaped. (This test passes on the django-tables2 page
too, apart from whitespace between tags.)"""
from __future__ import annotations

import re

import pytest
from django.urls import reverse

from scoring.models import Team
from tests.factories import played_taipan_tournament

pytestmark = pytest.mark.django_db
CELL = r"<td\s*(?:class=\"([\w ]+)\")?\s*>(.*?)</td>"


def squeeze(html: str) -> str:
    """Without the template's line breaks and indentation between tags."""
    return re.sub(r">\s*\n\s*<", "><", html).strip()


def test_rows_and_cells_markup(client):
    t = played_taipan_tournament(4, 1, tiebreaks=["point_difference", "buchholz", "median_buchholz"])
    Team.objects.filter(tournament=t, name="Team 003").update(withdrawn_after_round=1, name="Team <3>")
    client.cookies["django_language"] = "en"
    page = squeeze(client.get(reverse("scoring:standings", args=[t.slug])).content.decode())
    table = page[page.index('<table class="standings">'):page.index("</table>")]
    head = table[:table.index("</thead>")]
    assert re.findall(r"<th\s*(?:class=\"(\w+)\")?\s*>", head) == ["num", "", "players", *["num"] * 9]
    rows = re.findall(r'<tr class="([^"]+)">(.*?)</tr>', table)
    assert [css for css, _cells in rows] == ["even", "odd", "even", "withdrawn odd"]
    cells = re.findall(CELL, rows[0][1])
    assert [css for css, _v in cells] == ["num", "", "players", *["num"] * 4, "num strong", *["num"] * 4]
    team = Team.objects.get(tournament=t, name="Team 000")
    assert cells[1][1] == f'<a href="{reverse("scoring:team_breakdown", args=[t.slug, team.pk])}">Team 000</a>'
    gone = Team.objects.get(tournament=t, name="Team <3>")
    last = re.findall(CELL, rows[3][1])
    assert last[1][1].startswith(f'<a href="{reverse("scoring:team_breakdown", args=[t.slug, gone.pk])}">Team &lt;3&gt;</a> '
                                 '<span class="muted">(withdrawn)</span>')
