"""A copy of the repository's working tree for tests that run a command as a newcomer would
(``tests/ops/test_readme_commands.py``, ``tests/ops/test_messages.py``): the files git tracks or
would track, without the virtualenv, databases and generated folders, and the installed virtualenv
linked in (never reinstalled)."""
from __future__ import annotations

import re
import shutil
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
#: What a copy leaves out (local settings, the virtualenv, generated and uploaded files, databases).
LEFT_OUT = re.compile(r"^(\.env$|\.venv|var/|media/|staticfiles/|db\.sqlite3)")


def copy_tree(dest: Path) -> None:
    """Copy the tree into the existing folder ``dest`` and link ``.venv`` to the installed one."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"], cwd=ROOT,
                            capture_output=True, check=True).stdout.decode().split("\0")
    for name in filter(None, listed):
        src = ROOT / name
        if LEFT_OUT.match(name) or not src.is_file():
            continue
        (dest / name).parent.mkdir(parents=True, exist_ok=True)
        shutil.copy2(src, dest / name)
    (dest / ".venv").symlink_to((ROOT / ".venv").resolve())
