"""Score sheets of four-player tables (scoring.printing.sheets): one table's sheet with its players
and entered deals, a round's pack with one page per table, and as many record rows as the round
format plays (docs/tournaments.md: "N hands per round"; the open format leaves 16 rows to write in)."""
import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.kinds import kind_of
from scoring.models import Table
from scoring.printing import common, sheets
from scoring.results import sheet
from tests.factories import PlayerFactory, RoundFactory, TableFactory, TournamentFactory, staff, table_round
from tests.web.entry_data import NAMES

pytestmark = pytest.mark.django_db

#: S-01 (tests/web/entry_data.py): banker index 0, columns 2/3/3/0, index 1 wins the last trick.
S01 = {"mode": "settle", "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary"}, "immediate": []}
S01_NET = [-4, 10, -1, -5]


def tiengow_table(**tournament):
    rnd, (table,) = table_round("tiengow", names=NAMES, name="tiengow open", slug="tiengow-open", **tournament)
    return rnd.tournament, table, staff(rnd.tournament)


def record_numbers(table) -> list[str]:
    """The numbers of the record rows printed on the table's sheet (without the two head rows)."""
    kind = kind_of(table)
    table = kind.queryset().get(pk=table.pk)
    records_table = sheets._records_table(table, kind.records(table), common.styles())
    return [row[0] for row in records_table._cellvalues[2:]]


def test_table_sheet_pdf(client):
    t, table, users = tiengow_table()
    sheet.add_record(table, S01, users["referee"])
    assert [s.total for s in table.seats.order_by("seat")] == S01_NET
    r = client.get(reverse("scoring:table_sheet_pdf", args=[t.slug, table.pk]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    text = PdfReader(io.BytesIO(b"".join(r.streaming_content) if r.streaming else r.content)).pages[0].extract_text()
    for name in NAMES:
        assert name in text
    assert "tiengow open" in text and "-4" in text and "10" in text


def test_score_sheet_prints_hands_per_round_rows(client):
    t, table, users = tiengow_table()
    assert record_numbers(table) == [str(n) for n in range(1, 17)]  # open format: 16 rows to write in
    t.round_format = "fixed_hands"
    t.hands_per_round = 4
    t.save()
    sheet.add_record(table, S01, users["referee"])
    assert record_numbers(table) == ["1", "2", "3", "4"]
    r = client.get(reverse("scoring:table_sheet_pdf", args=[t.slug, table.pk]))
    assert r.status_code == 200


def test_round_tables_pdf_one_page_per_table(client):
    t = TournamentFactory(name="Field", slug="pack3", game="tiengow")
    rnd = RoundFactory(tournament=t, number=1)
    for k in range(3):
        TableFactory(round=rnd, number=k + 1, status=Table.Status.FINISHED,
                     players=[PlayerFactory(tournament=t, name=f"P{k}-{seat}") for seat in range(4)])
    r = client.get(reverse("scoring:round_tables_pdf", args=[t.slug, 1]))
    assert r.status_code == 200 and r["Content-Type"] == "application/pdf"
    reader = PdfReader(io.BytesIO(b"".join(r.streaming_content) if r.streaming else r.content))
    assert len(reader.pages) == 3
    assert "P2-3" in reader.pages[2].extract_text()


def test_four_player_sheets_carry_the_qr_code_to_the_entry_page(client):
    """Issue 11 item 3: every score sheet, four-player ones too, has a QR code opening the entry
    page; the address printed under it is the entry page's. (Since issue 13 the QR code is a
    flowable of its own, :class:`scoring.printing.common.QrCode`, drawn as one path, no longer a
    reportlab widget inside a drawing; it holds the same ``value``.)"""
    t, table, users = tiengow_table()
    r = client.get(reverse("scoring:table_sheet_pdf", args=[t.slug, table.pk]))
    text = PdfReader(io.BytesIO(b"".join(r.streaming_content) if r.streaming else r.content)).pages[0].extract_text().replace("\n", "")
    assert reverse("scoring:table_enter", args=[t.slug, table.pk]) in text
    header = sheets._header(kind_of(table).queryset().get(pk=table.pk), common.styles(), "https://nskt.example.org/")
    label, code = header._cellvalues[0][1][:2]
    assert isinstance(code, common.QrCode) and label.text == "<b>Referee: enter result</b>"
    assert code.value == "https://nskt.example.org" + reverse("scoring:table_enter", args=[t.slug, table.pk])
