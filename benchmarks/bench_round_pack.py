"""Round pack PDF speed (issue 13 item 1). Run:
``.venv/bin/python benchmarks/bench_round_pack.py [--repeat 3] [--pages out.png]``

The round pack of round 9 of the benchmark tournament (:mod:`build_tournament`: 500 played
matches, a score sheet each with its QR code, teams, every hand and the signature lines), built by
:func:`scoring.printing.sheets.round_pack_pdf`, against the floor: a plain reportlab platypus
document built here with the same reads, the same pages and tables (the same rows, columns, cell
texts, spans, grid and shading, in the same font; the match code and the referee's label) and a QR image on each page (the ``qrcode``
package's PNG of the same address as the sheet's code, embedded as an image), without anything else. Interleaved,
best of ``--repeat`` CPU times; target <= 1.5x. Both documents must have 500 pages.
``--pages PREFIX`` also writes the first page of each as PNG (``pdftoppm -r 70``) to look at.

Memory (issue 25 item 5): the pack of a round of 1,500 score sheets (a tournament of 3,000 teams
after one round, :mod:`build_tournament`, built on first use) written as the background job writes
it (:func:`scoring.printing.sheets.write_round_pack` to a temporary file, in parts joined by
pypdf), against the baseline: the same pack laid out as one reportlab document in memory and then
written (the job before issue 25). Each is built in a fresh process (``--memory-child``) after a
warm-up sheet; the figure is the growth of the resident set: its peak during the build (the
kernel's high-water mark, reset before the build) less the resident set before it. Target: <= 50 MB.
``--no-memory`` skips it.
"""
from __future__ import annotations

import argparse
import io
import json
import resource
import subprocess
import sys
import tempfile
from pathlib import Path

from _common import compare, figure_table, report
from build_tournament import open_tournament

BASE_URL = "https://nskt.example/"


def plain_pack(rnd) -> bytes:
    """The floor: the same reads, then one plain platypus story (no shrinking, no measuring)."""
    import qrcode
    from reportlab.lib import colors
    from reportlab.lib.pagesizes import A4
    from reportlab.lib.styles import ParagraphStyle
    from reportlab.lib.units import mm
    from reportlab.platypus import Image, PageBreak, Paragraph, SimpleDocTemplate, Spacer, Table, TableStyle

    from scoring.draw.match_codes import code_of
    from scoring.kinds import kind_for
    from scoring.printing.common import FONT, FONT_BOLD, register_fonts
    from scoring.printing.sheets import result_url

    register_fonts()
    tournament = rnd.tournament
    adapter = tournament.adapter
    kind = kind_for(adapter)
    containers = list(kind.in_round(rnd))
    records: dict[int, list] = {}
    for rec in kind.record_model.objects.filter(match__round=rnd).order_by("number"):
        records.setdefault(rec.match_id, []).append(rec)
    body = ParagraphStyle("b", fontName=FONT, fontSize=9, leading=11)
    title = ParagraphStyle("t", fontName=FONT_BOLD, fontSize=15, leading=18)
    small = ParagraphStyle("s", fontName=FONT, fontSize=7.5, leading=9)
    width = A4[0] - 24 * mm - 12
    grid = [("FONT", (0, 0), (-1, -1), FONT, 9), ("GRID", (0, 0), (-1, -1), 0.4, colors.grey),
            ("BACKGROUND", (0, 0), (-1, 0), colors.HexColor("#e8edf3"))]
    heads = ["Calls", "", "", "", "First out", "Double victory", "Card points", "", "Hand", "", "Total", ""]
    subheads = ["N", "E", "S", "W", "", "", "NS", "EW", "NS", "EW", "NS", "EW"]
    col = [11 * mm] * 4 + [15 * mm] * 4
    col += [(width - 8 * mm - sum(col)) / 4] * 4
    story = []
    for i, m in enumerate(containers):
        if i:
            story.append(PageBreak())
        m.round = rnd
        url = result_url(m, BASE_URL)  # the address the sheet's QR code holds (the entry page)
        png = io.BytesIO()
        qrcode.make(url, border=4, box_size=4).save(png)
        png.seek(0)
        code = f'Match code: <font face="Courier-Bold" size="12">{code_of(m)}</font>'
        header = Table([[[Paragraph(tournament.name, title), Paragraph(f"Round {rnd.number} · Table {m.table} · Tai Pan score sheet", body),
                          Paragraph(code, body)],
                         [Paragraph("<b>Referee: enter result</b>", small), Image(png, 24 * mm, 24 * mm), Paragraph(url, small)]]],
                       colWidths=[width - 44 * mm, 44 * mm])
        sides = [["Seat", "Team", "Player", "Affiliation"]]
        for team, seats in ((m.team_ns, "NS"), (m.team_ew, "EW")):
            if team is not None:
                for seat, player in zip(seats, (team.first_player, team.second_player), strict=True):
                    sides.append([seat, Paragraph(team.name, body), Paragraph(player.name, body), Paragraph(team.affiliation, body)])
        sides_table = Table(sides, colWidths=[14 * mm, 62 * mm, 62 * mm, width - 138 * mm])
        sides_table.setStyle(TableStyle(grid))
        rows = [["#", *heads], ["", *subheads]]
        running = [0, 0]
        recs = records.get(m.pk, [])
        for rec in recs:
            running = [running[0] + rec.ns, running[1] + rec.ew]
            rows.append([str(rec.number), *adapter.sheet_cells(rec.record), rec.ns, rec.ew, *running])
        rows += [[str(n)] + [""] * 12 for n in range(len(recs) + 1, max(20, len(recs)) + 1)]
        records_table = Table(rows, colWidths=[8 * mm, *col], rowHeights=[7 * mm, 6 * mm] + [7 * mm] * (len(rows) - 2))
        records_table.setStyle(TableStyle([*grid, ("BACKGROUND", (0, 0), (-1, 1), colors.HexColor("#e8edf3")),
                                           ("SPAN", (0, 0), (0, 1)), ("SPAN", (1, 0), (4, 0)), ("SPAN", (5, 0), (5, 1)),
                                           ("SPAN", (6, 0), (6, 1)), ("SPAN", (7, 0), (8, 0)), ("SPAN", (9, 0), (10, 0)),
                                           ("SPAN", (11, 0), (12, 0)), ("ALIGN", (0, 0), (-1, -1), "CENTER"),
                                           ("VALIGN", (0, 0), (-1, -1), "MIDDLE")]))
        signatures = Table([["Final total NS", "", "Signature NS", ""], ["Final total EW", "", "Signature EW", ""],
                            ["Referee", "", "Time", ""]], colWidths=[36 * mm, width / 2 - 36 * mm] * 2, rowHeights=[9 * mm] * 3)
        signatures.setStyle(TableStyle([("FONT", (0, 0), (-1, -1), FONT, 9), ("LINEBELOW", (1, 0), (1, -1), 0.6, colors.black),
                                        ("LINEBELOW", (3, 0), (3, -1), 0.6, colors.black)]))
        story += [header, Spacer(1, 2 * mm), sides_table, Spacer(1, 3 * mm), records_table, Spacer(1, 1.5 * mm),
                  Paragraph(adapter.sheet_legend(), small), Spacer(1, 3 * mm), signatures]
    buffer = io.BytesIO()
    SimpleDocTemplate(buffer, pagesize=A4, leftMargin=12 * mm, rightMargin=12 * mm, topMargin=12 * mm,
                      bottomMargin=12 * mm).build(story)
    return buffer.getvalue()


def pages(pdf: bytes) -> int:
    from pypdf import PdfReader

    return len(PdfReader(io.BytesIO(pdf)).pages)


def first_page_png(pdf: bytes, out: Path) -> None:
    with tempfile.NamedTemporaryFile(suffix=".pdf") as f:
        f.write(pdf)
        f.flush()
        subprocess.run(["pdftoppm", "-png", "-r", "70", "-f", "1", "-l", "1", "-singlefile", f.name, str(out)], check=True)


#: The memory figure's round: one round of a tournament of this many teams (1,500 sheets).
MEMORY_TEAMS = 3000


def _rss_mb(field: str) -> float:
    """``VmRSS`` or ``VmHWM`` (the peak) of this process from ``/proc/self/status``, in MB."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1]) * 1024 / 1e6
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024 / 1e6


def memory_child(mode: str) -> None:
    """In a fresh process: build the 1,500-sheet pack ``"streamed"`` (as the job does) or
    ``"in-memory"`` (one document, the baseline) and print ``{"growth": MB, "pages": n}``."""
    tournament = open_tournament(MEMORY_TEAMS, 1, quiet=True)
    from scoring.printing import sheets

    rnd = tournament.rounds.select_related("tournament").get(number=1)
    sheets.score_sheet_pdf(rnd.matches.first(), base_url=BASE_URL)  # warm-up: fonts, modules
    before = _rss_mb("VmRSS")
    try:
        Path("/proc/self/clear_refs").write_text("5")  # reset the high-water mark
    except OSError:
        pass
    with tempfile.TemporaryFile() as f:
        if mode == "streamed":
            pages = sheets.write_round_pack(rnd, f, base_url=BASE_URL)
        else:
            buffer = io.BytesIO()
            pages = sheets.write_round_pack(rnd, buffer, base_url=BASE_URL, part_sheets=10**9)
            f.write(buffer.getvalue())
    print(json.dumps({"growth": _rss_mb("VmHWM") - before, "pages": pages}))


def memory_figure(table) -> None:
    """The memory growth of the streamed pack and of the in-memory one (each in a fresh process),
    printed and added to ``table``."""
    def run(mode: str) -> dict:
        out = subprocess.run([sys.executable, __file__, "--memory-child", mode], capture_output=True, text=True, check=True)
        return json.loads(out.stdout.strip().splitlines()[-1])

    open_tournament(MEMORY_TEAMS, 1)  # built here first (once), not inside a measured child
    ours, base = run("streamed"), run("in-memory")
    assert ours["pages"] == base["pages"] >= 1500
    ratio = ours["growth"] / base["growth"]
    label = f"round pack of {ours['pages']:,} score sheets, memory growth (peak resident set)"
    print(f"{label}: {ours['growth']:.0f} MB | baseline (the same pack as one document in memory): "
          f"{base['growth']:.0f} MB | ratio {ratio:.2f}x  target <= 50 MB: {'met' if ours['growth'] <= 50 else 'NOT met'}",
          flush=True)
    table.row(f"{label}, written to a file in parts", f"{ours['growth']:.0f} MB",
              f"the same pack laid out as one document in memory: {base['growth']:.0f} MB", f"{ratio:.2f}x", "<= 50 MB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--pages", help="write the first page of each PDF as PREFIX-pack.png and PREFIX-plain.png")
    parser.add_argument("--no-memory", action="store_true", help="skip the memory figure (1,500 sheets)")
    parser.add_argument("--memory-child", choices=("streamed", "in-memory"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.memory_child:
        memory_child(args.memory_child)
        return
    tournament = open_tournament(1000, 9)
    from scoring.printing.sheets import round_pack_pdf

    rnd = tournament.rounds.get(number=9)
    ours_pdf, plain_pdf = round_pack_pdf(rnd, base_url=BASE_URL), plain_pack(rnd)
    n_ours, n_plain = pages(ours_pdf), pages(plain_pdf)
    print(f"Round pack: {rnd.matches.count()} score sheets with a QR code each (CPU time, best of {args.repeat}, "
          f"interleaved); pages: pack {n_ours}, plain {n_plain}")
    assert n_ours == n_plain, "the two documents must have the same pages"
    if args.pages:
        first_page_png(ours_pdf, Path(f"{args.pages}-pack"))
        first_page_png(plain_pdf, Path(f"{args.pages}-plain"))
    ours, base = compare(lambda: round_pack_pdf(rnd, base_url=BASE_URL), lambda: plain_pack(rnd), args.repeat)
    table = figure_table("round-pack")
    report(f"round pack PDF ({n_ours} sheets)", ours, base, "plain platypus, same pages and tables, a QR image each",
           target=1.5, table=table, row=f"round pack PDF, {n_ours} score sheets with a QR code each",
           row_baseline="a plain reportlab platypus document with the same pages, tables and a QR image each")
    if not args.no_memory:
        memory_figure(table)
    table.print()


if __name__ == "__main__":
    main()
