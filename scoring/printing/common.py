"""What every PDF shares (reportlab platypus): a Unicode TrueType font, paragraph styles, the A4
document with a footer, and QR codes.

Text uses DejaVu Sans when the system has it, else reportlab's bundled Bitstream Vera, so names
with accents print correctly.
"""
from __future__ import annotations

import io
from pathlib import Path
from xml.sax.saxutils import escape

import reportlab
from reportlab.graphics.barcode.qr import QrCodeWidget
from reportlab.graphics.shapes import Drawing
from reportlab.lib import colors
from reportlab.lib.pagesizes import A4
from reportlab.lib.styles import ParagraphStyle, getSampleStyleSheet
from reportlab.lib.units import mm
from reportlab.pdfbase import pdfmetrics
from reportlab.pdfbase.ttfonts import TTFont
from reportlab.platypus import Paragraph, SimpleDocTemplate

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


def qr(url: str, size: float = 24 * mm) -> Drawing:
    widget = QrCodeWidget(url)
    x1, y1, x2, y2 = widget.getBounds()
    drawing = Drawing(size, size, transform=[size / (x2 - x1), 0, 0, size / (y2 - y1), 0, 0])
    drawing.add(widget)
    return drawing


def build(flowables: list, title: str, pagesize=A4) -> bytes:
    buffer = io.BytesIO()
    doc = document(buffer, title, pagesize)
    doc.build(flowables, onFirstPage=footer, onLaterPages=footer)
    return buffer.getvalue()


def footer(canvas, doc) -> None:
    canvas.saveState()
    canvas.setFont(FONT, 7)
    canvas.setFillColor(colors.grey)
    canvas.drawRightString(doc.pagesize[0] - doc.rightMargin, 6 * mm, f"{doc.title} · {canvas.getPageNumber()}")
    canvas.restoreState()


