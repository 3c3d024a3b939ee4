"""The documentation holds together (issue 14): every relative link and image in the README and
``docs/`` points at a file of the repository, every screenshot in ``docs/nl/img`` and ``docs/img``
is shown somewhere, every docs page is reachable from the README (a link to a folder reaches the
pages in it), and nothing in the repository cites a file that lives outside it (the design notes
and rule texts the project started from)."""
from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)\)|<img src=\"([^\"]+)\"")
OUTSIDE = re.compile(r"DESIGN\.md|DESIGN (section )?\d|INTERFACES\.md|STYLE\.md|\.\./shared|/work/shared|rules/[a-z0-9-]+\.txt")


def _links(page: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", page.read_text(encoding="utf-8"), flags=re.S)
    return [a or b for a, b in LINK.findall(text)]


def test_every_relative_link_and_image_exists():
    broken = []
    for page in PAGES:
        for target in _links(page):
            if re.match(r"^[a-z]+:", target) or target.startswith(("#", "/")):
                continue
            path = (page.parent / target.split("#")[0]).resolve()
            if not path.exists():
                broken.append(f"{page.relative_to(ROOT)}: {target}")
    assert not broken, broken


def test_every_screenshot_is_shown_and_every_page_is_reachable():
    shown = {(page.parent / t).resolve() for page in PAGES for t in _links(page)}
    pictures = sorted((ROOT / "docs").rglob("*.png"))
    assert len(pictures) >= 10
    assert [p.relative_to(ROOT) for p in pictures if p.resolve() not in shown] == []
    # every page is linked from the README or from a page the README links; a link to a folder
    # (its listing, e.g. docs/engines/, whose game pages no shared page lists) reaches its pages
    reachable, todo = set(), [ROOT / "README.md"]
    while todo:
        page = todo.pop()
        for target in _links(page):
            path = (page.parent / target.split("#")[0]).resolve()
            for linked in sorted(path.glob("*.md")) if path.is_dir() else [path]:
                if linked.suffix == ".md" and linked.exists() and linked not in reachable:
                    reachable.add(linked)
                    todo.append(linked)
    assert [p.relative_to(ROOT) for p in PAGES[1:] if p.resolve() not in reachable] == []


def test_nothing_cites_a_file_outside_the_repository():
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True).stdout.decode().split("\0")
    found = []
    for name in filter(None, files):
        path = ROOT / name
        if name.startswith("locale/") or path.suffix in {".png", ".mo", ".pdf", ".ttf"} or not path.is_file():
            continue
        if name == "tests/ops/test_docs_links.py":
            continue
        for number, line in enumerate(path.read_text(encoding="utf-8", errors="replace").splitlines(), start=1):
            if OUTSIDE.search(line):
                found.append(f"{name}:{number}: {line.strip()[:100]}")
    assert not found, found
