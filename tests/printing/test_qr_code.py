"""QR codes on the score sheets (issue 13 item 1): computed once and drawn as one filled path.
The code is the ``qrcode`` package's (error correction level L, smallest version, its best mask),
the same version and size as the one reportlab's QR widget drew before; every run of dark modules
in a row is one rectangle of a single path, and the square keeps its size and its quiet zone of
four modules."""
from __future__ import annotations

import io
import itertools
import re

import qrcode
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.lib.units import mm
from reportlab.pdfgen.canvas import Canvas

from scoring.printing.common import QrCode, qr

URL = "https://nskt.example.org/t/ztc/match/17/"


def test_the_widgets_code_drawn_as_one_path():
    code = qr(URL)
    assert code.value == URL
    package = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=0)
    package.add_data(URL)
    package.make(fit=True)
    assert code.modules == [[bool(m) for m in row] for row in package.modules]
    assert all(type(m) is bool for row in code.modules for m in row)
    widget = QrCodeWidget(URL)
    widget.qr.make()
    assert len(code.modules) == len(widget.qr.modules) == 29  # version 3, as reportlab's encoder chose
    # The finder patterns sit in three corners whatever the mask.
    finder = [[r in (0, 6) or c in (0, 6) or (2 <= r <= 4 and 2 <= c <= 4) for c in range(7)] for r in range(7)]
    n = len(code.modules)
    for r0, c0 in ((0, 0), (0, n - 7), (n - 7, 0)):
        assert [row[c0:c0 + 7] for row in code.modules[r0:r0 + 7]] == finder
    assert code.wrap(500, 500) == (24 * mm, 24 * mm)

    canvas = Canvas(io.BytesIO(), pageCompression=0)
    code.drawOn(canvas, 0, 0)
    canvas.showPage()
    stream = canvas.getpdfdata().decode("latin-1")
    runs = [(r, c, len(items)) for r, row in enumerate(code.modules) for c, (dark, items) in _runs(row) if dark]
    rects = re.findall(r"([-\d.]+) ([-\d.]+) ([-\d.]+) ([-\d.]+) re", stream)
    assert len(rects) == len(runs)
    assert len(re.findall(r"\bf\*?\n", stream)) == 1 and " S\n" not in stream  # one fill, nothing stroked
    box = 24 * mm / (len(code.modules) + 2 * QrCode.border)
    (r, c, length), (x, y, w, h) = runs[0], map(float, rects[0])
    assert abs(x - (c + 4) * box) < 0.01 and abs(w - length * box) < 0.01 and abs(h - box) < 0.01
    assert abs(y - (24 * mm - (r + 5) * box)) < 0.01
    assert min(float(x) for x, *_ in rects) >= 4 * box - 0.01  # the quiet zone stays empty


def _runs(row):
    """``(start column, (dark, run))`` for each run of equal modules in ``row``."""
    c = 0
    for dark, run in itertools.groupby(row):
        items = list(run)
        yield c, (dark, items)
        c += len(items)
