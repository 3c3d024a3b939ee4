"""The engines' command-line contract (DESIGN.md 2): exit codes for bad JSON and unknown names."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def _run(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "engines", *args], input=stdin, capture_output=True, text=True, cwd=ROOT)


def test_unknown_game_exits_2():
    assert _run("chess", "score", stdin="{}").returncode == 2


def test_unreadable_json_exits_2():
    assert _run("taipan", "score", stdin="{not json").returncode == 2


def test_usage_exits_2():
    assert _run("taipan").returncode == 2
