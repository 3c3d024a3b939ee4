"""Shared fixtures. Acceptance case files copied from the design folder live in ``tests/cases/``."""
import json
from pathlib import Path

import pytest

CASES_DIR = Path(__file__).parent / "cases"


def load_cases(game: str, commands: set[str] | None = None) -> list[dict]:
    """The acceptance cases of ``game`` (``tests/cases/GAME.json``), optionally only ``commands``."""
    data = json.loads((CASES_DIR / f"{game}.json").read_text(encoding="utf-8"))
    return [c for c in data["cases"] if commands is None or c["command"] in commands]


def subset_mismatch(expect, got, path="$"):
    """Return a description of the first place where ``got`` does not contain ``expect`` (the
    acceptance runner's rule: objects are subsets, lists match element-wise with equal length,
    numbers compare within 1e-9), or ``None`` when it does."""
    if isinstance(expect, dict):
        if not isinstance(got, dict):
            return f"{path}: expected object, got {got!r}"
        for key, value in expect.items():
            if key not in got:
                return f"{path}.{key}: missing"
            err = subset_mismatch(value, got[key], f"{path}.{key}")
            if err:
                return err
        return None
    if isinstance(expect, list):
        if not isinstance(got, list) or len(got) != len(expect):
            return f"{path}: expected {expect!r}, got {got!r}"
        for i, (e, g) in enumerate(zip(expect, got)):
            err = subset_mismatch(e, g, f"{path}[{i}]")
            if err:
                return err
        return None
    if isinstance(expect, (int, float)) and not isinstance(expect, bool) and isinstance(got, (int, float)) and not isinstance(got, bool):
        return None if abs(expect - got) < 1e-9 else f"{path}: expected {expect!r}, got {got!r}"
    return None if expect == got else f"{path}: expected {expect!r}, got {got!r}"


@pytest.fixture
def user_factory(django_user_model):
    """Create users: ``user_factory("anna")``."""
    def make(username: str, **extra):
        return django_user_model.objects.create_user(username=username, password="pw-" + username + "-123", **extra)
    return make
