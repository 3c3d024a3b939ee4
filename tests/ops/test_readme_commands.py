"""Every ``manage.py`` command in the README's code blocks works as written (issue 14).

The test plays a newcomer on a fresh clone: it copies the repository's files (not the developer's
``.env``, database or media) into a temporary folder, with the virtualenv linked in, and clears
every setting from the environment (no ``DEBUG``, ``SECRET_KEY``, ``DATABASE_URL``, ...). It runs
the set-up step that ``make run`` does before it serves (``make demo``: the ``.env`` file, the
migrations, the demo tournament), then each README command in the order shown, through bash
exactly as written, with ``SLUG`` replaced by the demo's slug. A command that exits non-zero or
prints a traceback fails the test, which prints what it ran.

It also checks what the README and docs/operations.md promise around it: the written ``.env`` is
ignored by git and turns DEBUG on; with ``DEBUG=0`` in the real environment the file is not used
and the settings refuse to start without a ``SECRET_KEY``; ``PORT`` and ``HOST`` reach
``runserver``.
"""
from __future__ import annotations

import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.ops.tree import copy_tree

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DEMO_SLUG = "nskt-demo"
#: Files of a fresh clone are what git knows; these never come along.

pytestmark = pytest.mark.skipif(shutil.which("make") is None or shutil.which("bash") is None,
                                reason="needs make and bash, as the README does")


def readme_commands(text: str) -> list[str]:
    """The ``manage.py`` command lines of the README's fenced code blocks, in order (a line ending
    in a backslash continues on the next)."""
    commands, in_block, pending = [], False, ""
    for line in text.splitlines():
        if line.startswith("```"):
            in_block, pending = not in_block, ""
            continue
        if not in_block:
            continue
        line = pending + line
        if line.endswith("\\"):
            pending = line[:-1] + " "
            continue
        pending = ""
        if re.match(r"^\.venv/bin/python manage\.py ", line):
            commands.append(line)
    return commands


def _env(home: Path, **extra: str) -> dict[str, str]:
    """A newcomer's environment: a PATH, a home, a UTF-8 locale, and no setting of ours."""
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "HOME": str(home), "LANG": "C.UTF-8",
           "PYTHONDONTWRITEBYTECODE": "1"}
    env.update(extra)
    return env


def _run(cmd: str, cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess:
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True, timeout=600)


def test_readme_lists_the_commands():
    commands = readme_commands(README.read_text(encoding="utf-8"))
    names = {c.split()[2] for c in commands}
    assert {"load_demo", "pair_round", "standings", "export_tournament", "import_tournament", "rebuild_scores"} <= names
    export = next(i for i, c in enumerate(commands) if " export_tournament " in c)
    imports = [i for i, c in enumerate(commands) if " import_tournament " in c]
    assert imports and min(imports) > export, "the README imports what it exported, in that order"
    for i in imports:
        assert "--organiser " in commands[i], "an imported tournament needs an organiser to be reachable"


@pytest.mark.slow
def test_every_readme_command_runs_as_written(tmp_path):
    clone, home = tmp_path / "clone", tmp_path / "home"
    clone.mkdir()
    home.mkdir()
    copy_tree(clone)
    env = _env(home)

    # The set-up part of `make run` (everything before it serves). `-o .venv/.installed`: the
    # linked virtualenv is installed already; a newer requirements.txt in the copy must not
    # start pip.
    setup = _run("make -o .venv/.installed demo", clone, env)
    assert setup.returncode == 0, setup.stdout + setup.stderr
    dotenv = (clone / ".env").read_text(encoding="utf-8")
    assert re.search(r"^DEBUG=1$", dotenv, re.M) and re.search(r"^SECRET_KEY=\S{40,}$", dotenv, re.M)
    ignored = subprocess.run(["git", "check-ignore", "-q", ".env"], cwd=ROOT)
    assert ignored.returncode == 0, ".env must be ignored by git"
    assert _run("make -o .venv/.installed env", clone, env).returncode == 0
    assert (clone / ".env").read_text(encoding="utf-8") == dotenv, "an existing .env is never overwritten"

    ran = []
    for line in readme_commands(README.read_text(encoding="utf-8")):
        command = line.replace("SLUG", DEMO_SLUG)
        proc = _run(command, clone, env)
        ran.append(command)
        assert proc.returncode == 0 and "Traceback" not in proc.stderr, (
            f"README command failed (exit {proc.returncode}): {command}\n{proc.stdout[-2000:]}\n{proc.stderr[-4000:]}")
    print("\n".join(["README commands run:", *ran]))
    assert len(ran) >= 6

    # Production never takes anything from the .env: with DEBUG=0 and no SECRET_KEY it refuses.
    refused = _run(".venv/bin/python manage.py check", clone, _env(home, DEBUG="0"))
    assert refused.returncode != 0 and "SECRET_KEY" in refused.stderr, refused.stderr[-2000:]


def test_port_and_host_reach_runserver(tmp_path):
    clone, home = tmp_path / "clone", tmp_path / "home"
    clone.mkdir()
    home.mkdir()
    copy_tree(clone)
    for env_extra, args, expected in (({}, "", "runserver 127.0.0.1:8000"),
                                      ({"PORT": "8001"}, "", "runserver 127.0.0.1:8001"),
                                      ({}, " PORT=8002 HOST=0.0.0.0", "runserver 0.0.0.0:8002")):
        proc = _run(f"make -n -o .venv/.installed run{args}", clone, _env(home, **env_extra))
        assert proc.returncode == 0 and expected in proc.stdout, proc.stdout + proc.stderr
