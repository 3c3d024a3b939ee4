"""``make messages`` on an unchanged tree changes nothing but the catalogues' POT-Creation-Date
line (issue 21), and the catalogues stay clean: no fuzzy Dutch, an English catalogue of empty
translations (English is the source language).

The run happens in a copy of the tree (the files git knows, the virtualenv linked in), never in
the repository itself; its catalogues are then compared with the repository's. Needs GNU gettext
(``msgmerge``, ``xgettext``, ``msgfmt``) and ``make``; without them the run is skipped.
"""
from __future__ import annotations

import difflib
import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import polib
import pytest

from tests.ops.tree import copy_tree

ROOT = Path(__file__).resolve().parents[2]
CATALOGUES = [f"locale/{lang}/LC_MESSAGES/django.{ext}" for lang in ("nl", "en") for ext in ("po", "mo")]
#: Files of a fresh clone are what git knows; these never come along.
CREATION_DATE = re.compile(r'^"POT-Creation-Date: [^"]*"\n', re.M)

gettext_missing = pytest.mark.skipif(
    any(shutil.which(tool) is None for tool in ("msgmerge", "xgettext", "msguniq", "msgattrib", "msgfmt", "make")),
    reason="needs GNU gettext (msgmerge, xgettext, msgfmt) and make")


def _make_messages(tree: Path) -> subprocess.CompletedProcess:
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(tree), "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1"}
    # `-o .venv/.installed`: the linked virtualenv is installed already; never start pip.
    return subprocess.run(["make", "-o", ".venv/.installed", "messages"], cwd=tree, env=env,
                          capture_output=True, text=True, timeout=300)


def _without_date(text: str) -> str:
    return CREATION_DATE.sub("", text)


@gettext_missing
def test_make_messages_changes_nothing_but_the_creation_date(tmp_path):
    tree = tmp_path / "tree"
    tree.mkdir()
    copy_tree(tree)
    proc = _make_messages(tree)
    assert proc.returncode == 0, proc.stdout + proc.stderr

    changed = []
    for name in CATALOGUES:
        before, after = (ROOT / name).read_bytes(), (tree / name).read_bytes()
        if name.endswith(".po"):
            before, after = _without_date(before.decode()), _without_date(after.decode())
        if before != after:
            changed.append(name)
    assert not changed, (f"`make messages` rewrites {changed}: run `make messages` and commit the catalogues "
                         "(translate any new Dutch message)")

    # A new message that resembles a translated one stays untranslated: no fuzzy guess.
    known = next(e.msgid for e in polib.pofile(str(ROOT / "locale/nl/LC_MESSAGES/django.po"))
                 if e.msgstr and not e.msgid_plural and not e.msgctxt and len(e.msgid) > 30 and "\n" not in e.msgid)
    new = known + " (probe)"
    (tree / "scoring" / "zz_messages_probe.py").write_text(
        f"from django.utils.translation import gettext as _\n\nPROBE = _({new!r})\n", encoding="utf-8")
    proc = _make_messages(tree)
    assert proc.returncode == 0, proc.stdout + proc.stderr
    probe = polib.pofile(str(tree / "locale/nl/LC_MESSAGES/django.po")).find(new)
    assert probe is not None and probe.msgstr == "" and "fuzzy" not in probe.flags, probe
    # ... and the run changes that message's lines only (and the date): nothing else is re-laid out.
    for name in CATALOGUES:
        if name.endswith(".po"):
            before = _without_date((ROOT / name).read_text(encoding="utf-8")).splitlines()
            after = _without_date((tree / name).read_text(encoding="utf-8")).splitlines()
            added = [line for line in difflib.ndiff(before, after) if line[:2] in ("+ ", "- ")]
            assert all(line.startswith("+ ") for line in added) and len(added) <= 5, (name, added)
            assert f"+ msgid {json.dumps(new, ensure_ascii=False)}" in added and "+ #: scoring/zz_messages_probe.py" in added


def test_no_dutch_message_is_fuzzy():
    """A fuzzy entry is not used by the pages and usually holds the Dutch of another message."""
    po = polib.pofile(str(ROOT / "locale/nl/LC_MESSAGES/django.po"))
    assert [e.msgid for e in po if "fuzzy" in e.flags and not e.obsolete] == []


def test_english_catalogue_leaves_the_source_text():
    """English is the language of the source strings: the English catalogue translates nothing
    (an empty translation shows the msgid) and has no fuzzy entry either."""
    po = polib.pofile(str(ROOT / "locale/en/LC_MESSAGES/django.po"))
    live = [e for e in po if not e.obsolete]
    assert live
    assert [e.msgid for e in live if e.msgstr not in ("", e.msgid) or any(e.msgstr_plural.values())] == []
    assert [e.msgid for e in live if "fuzzy" in e.flags] == []


def test_catalogues_are_unwrapped_with_file_locations():
    """The settings of scoring/management/commands/makemessages.py show in the files: one line per
    message, locations without line numbers."""
    for lang in ("nl", "en"):
        text = (ROOT / f"locale/{lang}/LC_MESSAGES/django.po").read_text(encoding="utf-8")
        assert not re.search(r'^msg(id|str)(_plural|\[\d\])? ""\n"', text.split("\n\n", 1)[1], re.M), lang
        assert not re.search(r"^#: .*:\d+\b", text, re.M), lang
