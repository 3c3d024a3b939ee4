"""One vocabulary for Tai Pan calls (issue 23 item 10): the project glossary names
the calls "Tai Pan" and "Grand Tai Pan"; their initials TP and GTP are used everywhere: the
entry buttons, the paper sheet's cells and legend, the referee guide. "T" / "GT" appear nowhere."""
import re

import pytest
from django.urls import reverse

from scoring.games.registry import get as get_adapter
from scoring.printing import referee_guide, sheets
from tests.factories import GRAND_DOUBLE_VICTORY_NS, TAI_PAN_HAND, staff, taipan_round
from tests.printing.conftest import read_pdf

pytestmark = pytest.mark.django_db

OLD = re.compile(r"\bT = |\bGT = |\bT/GT\b")


def test_sheet_cells_and_legend_say_tp_and_gtp():
    adapter = get_adapter("taipan")
    assert adapter.sheet_cells(TAI_PAN_HAND)[0] == "TP"
    assert adapter.sheet_cells(GRAND_DOUBLE_VICTORY_NS)[0] == "GTP"
    legend = adapter.sheet_legend()
    assert "TP = Tai Pan" in legend and "GTP = Grand Tai Pan" in legend and not OLD.search(legend)


def test_printed_sheet_and_guide_say_tp_and_gtp():
    rnd, (match,) = taipan_round()
    text = "\n".join(read_pdf(sheets.score_sheet_pdf(match)))
    assert "TP = Tai Pan" in text and not OLD.search(text)
    guide = "\n".join(read_pdf(referee_guide.referee_guide_pdf()))
    assert "TP = Tai Pan" in guide and "GTP = Grand Tai Pan" in guide and not OLD.search(guide)


def test_entry_buttons_say_tp_and_gtp(client):
    rnd, (match,) = taipan_round()
    client.force_login(staff(rnd.tournament)["referee"])
    html = client.get(reverse("scoring:match_enter", args=[rnd.tournament.slug, match.pk])).content.decode()
    assert '<span aria-hidden="true">TP</span>' in html and '<span aria-hidden="true">GTP</span>' in html
