"""What every PDF shares (reportlab platypus): a Unicode TrueType font, paragraph styles, the A4
document with a footer, and QR codes.

Text uses DejaVu Sans when the system has it, else reportlab's bundled Bitstream Vera, so names
with accents print correctly.

Speed (a round pack has hundreds of sheets): QR codes are computed once and drawn as one path
(:class:`QrCode`); reportlab's C accelerator (``rl-accel``, a requirement) formats the numbers and
encodes the streams; shape checking is off outside the tests.
"""
from __future__ import annotations

import hashlib
import io
import itertools
import math
from functools import cache
from pathlib import Path
from xml.sax.saxutils import escape

import qrcode
import reportlab
from django.conf import settings
from django.utils.translation import gettext as _
from pypdf import PdfWriter
from reportlab import rl_config
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Flowable, Paragraph, SimpleDocTemplate

if not getattr(settings, "TESTING", False):
    # reportlab checks every attribute set on its graphics shapes; the tests keep the checks.
    rl_config.shapeChecking = 0


def files_fingerprint(patterns: tuple[tuple[str, str], ...], seed: str = "") -> str:
    """16 hex digits of a digest of ``seed`` and the path and contents of every file matching
    ``(folder, glob)`` in ``patterns`` under ``BASE_DIR``: files of a deploy that changed give a
    new fingerprint, and every host running the same code gets the same one (not the files'
    change times, which differ from host to host: a pack key or ETag computed by one web process
    or worker holds on every other, issue 25 item 6)."""
    base = Path(settings.BASE_DIR)
    digest = hashlib.sha1(seed.encode())
    for folder, pattern in patterns:
        for path in sorted((base / folder).glob(pattern)):
            if path.is_file():
                digest.update(f"{path.relative_to(base)}:{path.stat().st_size}:".encode())
                digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


@cache
def code_version() -> str:
    """A fingerprint of the code and translations that shape a stored PDF (the app's Python files,
    the compiled catalogues, reportlab's version), computed once per process: a deploy that
    changes how a sheet is printed gives stored round packs a new key (:mod:`scoring.tasks`)."""
    return files_fingerprint((("scoring", "**/*.py"), ("locale", "**/*.mo")), seed=reportlab.Version)

FONT = "NSKTSans"
FONT_BOLD = "NSKTSans-Bold"
_fonts_ready = False


def register_fonts() -> None:
    """Register a Unicode TrueType font (DejaVu Sans if the system has it, else reportlab's
    bundled Bitstream Vera) once per process."""
    global _fonts_ready
    if _fonts_ready:
        return
    candidates = [
        (Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf"), Path("/usr/share/fonts/truetype/dejavu/DejaVuSans-Bold.ttf")),
        (Path(reportlab.__file__).parent / "fonts" / "Vera.ttf", Path(reportlab.__file__).parent / "fonts" / "VeraBd.ttf"),
    ]
    for regular, bold in candidates:
        if regular.is_file() and bold.is_file():
            pdfmetrics.registerFont(TTFont(FONT, str(regular)))
            pdfmetrics.registerFont(TTFont(FONT_BOLD, str(bold)))
            pdfmetrics.registerFontFamily(FONT, normal=FONT, bold=FONT_BOLD, italic=FONT, boldItalic=FONT_BOLD)
            break
    else:  # pragma: no cover - reportlab always ships Vera
        raise RuntimeError("no TrueType font found for the PDFs")
    _fonts_ready = True


def styles() -> dict[str, ParagraphStyle]:
    register_fonts()
    base = getSampleStyleSheet()
    return {
        "title": ParagraphStyle("title", parent=base["Title"], fontName=FONT_BOLD, fontSize=15, leading=18, spaceAfter=2 * mm, alignment=0),
        "h2": ParagraphStyle("h2", parent=base["Heading2"], fontName=FONT_BOLD, fontSize=11, leading=14, spaceBefore=2 * mm, spaceAfter=1 * mm),
        "body": ParagraphStyle("body", parent=base["BodyText"], fontName=FONT, fontSize=9, leading=11),
        "small": ParagraphStyle("small", parent=base["BodyText"], fontName=FONT, fontSize=7.5, leading=9),
        "cell": ParagraphStyle("cell", parent=base["BodyText"], fontName=FONT, fontSize=8.5, leading=10),
        "head": ParagraphStyle("head", parent=base["BodyText"], fontName=FONT_BOLD, fontSize=7, leading=8, alignment=1),
    }


def para(text, style) -> Paragraph:
    return Paragraph(escape(str(text)), style)


#: reportlab's default padding of a table cell, left and right (points).
CELL_PADDING = 6
#: The smallest type a column heading shrinks to (points).
SMALLEST_HEAD = 5.5


def word_width(text, style: ParagraphStyle) -> float:
    """The width in points of the longest word of ``text`` in ``style``'s font and size."""
    register_fonts()
    return max((pdfmetrics.stringWidth(word, style.fontName, style.fontSize) for word in str(text).split()), default=0.0)


def column_width(headings, style: ParagraphStyle, minimum: float, padding: float = CELL_PADDING) -> float:
    """The width of a column (points): ``minimum``, or more so that no word of any of
    ``headings`` is broken (a heading wraps at its spaces only: "Placement points", never
    "Placement poin-ts"), with ``padding`` on each side and a point to spare."""
    return max([minimum] + [word_width(text, style) + 2 * padding + 1 for text in headings])


def head_para(text, style: ParagraphStyle, width: float, padding: float = CELL_PADDING) -> Paragraph:
    """A column heading for a column ``width`` points wide (``padding`` each side) that wraps at
    its spaces only: its type shrinks (down to :data:`SMALLEST_HEAD` points) until its longest
    word fits, so a narrow column never reads "Plaa ts 1"."""
    room = width - 2 * padding - 0.5
    longest = word_width(text, style)
    if longest <= room:
        return para(text, style)
    size = max(SMALLEST_HEAD, style.fontSize * room / longest)
    return para(text, ParagraphStyle(f"{style.name}-fit", parent=style, fontSize=size, leading=size * style.leading / style.fontSize))


MARGIN = 12 * mm
#: The page's frame (A4 less the margins and the frame's own 6 pt padding on each side).
FRAME_WIDTH = A4[0] - 2 * MARGIN - 12
FRAME_HEIGHT = A4[1] - 2 * MARGIN - 12


def document(buffer: io.BytesIO, title: str, pagesize=A4) -> SimpleDocTemplate:
    return SimpleDocTemplate(
        buffer,
        pagesize=pagesize,
        leftMargin=MARGIN,
        rightMargin=MARGIN,
        topMargin=MARGIN,
        bottomMargin=MARGIN,
        title=title,
        author="NSKT",
    )


class QrCode(Flowable):
    """A QR code as one filled path: the code is computed once by the ``qrcode`` package (the
    encoder the private-link pages use; error correction level L, the smallest version that holds
    the text, the mask pattern with the lowest penalty) and every run of dark modules in a row is
    one rectangle of the path, with a quiet zone of :attr:`border` modules, in a ``size`` square.
    ``modules``: rows of booleans, True = dark. (reportlab's QR widget computed the code twice per
    sheet, once for its bounds, drew each run as a shape object of its own, and its pure-Python
    mask scoring took a third more time than the ``qrcode`` package's.)"""

    border = 4

    def __init__(self, text: str, size: float):
        super().__init__()
        self.value = text  # what the code holds (the name reportlab's widget uses)
        code = qrcode.QRCode(error_correction=qrcode.constants.ERROR_CORRECT_L, border=0)
        code.add_data(text)
        code.make(fit=True)
        self.modules = [[bool(m) for m in row] for row in code.modules]
        self.size = size

    def wrap(self, available_width, available_height):
        return self.size, self.size

    def draw(self) -> None:
        count = len(self.modules)
        box = self.size / (count + 2 * self.border)
        path = self.canv.beginPath()
        for r, row in enumerate(self.modules):
            y = self.size - (r + self.border + 1) * box
            c = 0
            for dark, run in itertools.groupby(row):
                length = len(list(run))
                if dark:
                    path.rect((c + self.border) * box, y, length * box, box)
                c += length
        self.canv.saveState()
        self.canv.setFillColor(colors.black)
        self.canv.drawPath(path, stroke=0, fill=1)
        self.canv.restoreState()


def qr(url: str, size: float = 24 * mm) -> QrCode:
    """A QR code of ``url``, ``size`` wide and high (quiet zone included)."""
    return QrCode(url, size)


def build(flowables: list, title: str, pagesize=A4, *, draft: bool = False) -> bytes:
    """The PDF bytes of ``flowables`` on pages of ``pagesize`` with the footer; ``draft``: every
    page carries the :func:`watermark` (a draft round's PDFs)."""
    buffer = io.BytesIO()
    build_into(buffer, flowables, title, pagesize, draft=draft)
    return buffer.getvalue()


def build_into(out, flowables: list, title: str, pagesize=A4, *, draft: bool = False, first_page: int = 1) -> int:
    """Write the PDF of ``flowables`` (as :func:`build`) to the binary file object ``out``, its
    pages numbered in the footer from ``first_page`` on (a part of a longer document); returns the
    number of pages written. reportlab keeps every page of a document in memory until it is saved:
    a long document is built in parts (:func:`scoring.printing.sheets.write_round_pack`)."""
    doc = document(out, title, pagesize)
    doc.page_offset = first_page - 1
    on_page = draft_footer if draft else footer
    doc.build(flowables, onFirstPage=on_page, onLaterPages=on_page)
    return doc.page


def join_pdfs(parts: list, out, title: str) -> None:
    """Join the PDF files ``parts`` (paths, in order) page by page into the binary file object
    ``out`` (pypdf), titled ``title``. Memory: about the size of the joined file (compressed
    streams), not of the laid-out pages."""
    writer = PdfWriter()
    for path in parts:
        writer.append(str(path))
    writer.add_metadata({"/Title": title, "/Author": "NSKT"})
    writer.write(out)


def watermark(canvas, width: float, height: float) -> None:
    """The draft mark across a page of ``width`` x ``height`` points: "DRAFT" (Dutch "CONCEPT")
    in large light letters along the diagonal, drawn over the content, so that nobody hangs up or
    plays from a draft round's papers (issue 23 item 7)."""
    register_fonts()
    text = _("DRAFT")
    canvas.saveState()
    canvas.setFillColor(colors.Color(0.85, 0.1, 0.1, alpha=0.22))
    canvas.translate(width / 2, height / 2)
    canvas.rotate(math.degrees(math.atan2(height, width)))
    diagonal = math.hypot(width, height)
    size = min(0.7 * diagonal / max(pdfmetrics.stringWidth(text, FONT_BOLD, 1), 1), height / 3)
    canvas.setFont(FONT_BOLD, size)
    canvas.drawCentredString(0, -0.35 * size, text)
    canvas.restoreState()


def draft_footer(canvas, doc) -> None:
    """The footer and the draft :func:`watermark` (``onPage`` of a draft round's PDFs)."""
    footer(canvas, doc)
    watermark(canvas, *doc.pagesize)


def footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont(FONT, 7)
    canvas.setFillColor(colors.grey)
    number = canvas.getPageNumber() + getattr(doc, "page_offset", 0)
    canvas.drawRightString(doc.pagesize[0] - doc.rightMargin, 6 * mm, f"{doc.title} · {number}")
    canvas.restoreState()


