"""Shared fixtures. The acceptance case files live in ``tests/cases/``."""
import json
import os
from pathlib import Path

import pytest

CASES_DIR = Path(__file__).parent / "cases"


def load_cases(game: str, commands: set[str] | None = None) -> list[dict]:
    """The acceptance cases of ``game`` (its kit's ``cases`` file, ``tests/cases/GAME.json`` for the
    games of the rule texts), optionally only ``commands``."""
    from tests.games.kits import kit

    data = json.loads(kit(game).cases.read_text(encoding="utf-8"))
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
        for i, (e, g) in enumerate(zip(expect, got, strict=True)):
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


def _services_missing() -> list[str]:
    """Which real services the ``services`` tests need but this run lacks (PostgreSQL as the
    database, Redis as broker/cache with a Celery worker answering)."""
    from django.conf import settings

    missing = []
    if settings.DATABASES["default"]["ENGINE"] != "django.db.backends.postgresql":
        missing.append("PostgreSQL (DATABASE_URL is not a postgres URL)")
    if not settings.REDIS_URL:
        missing.append("Redis (REDIS_URL is not set)")
    else:
        try:
            import redis

            redis.Redis.from_url(settings.REDIS_URL, socket_connect_timeout=2).ping()
        except Exception as exc:  # noqa: BLE001 - any failure means the service is unusable
            missing.append(f"Redis unreachable at {settings.REDIS_URL}: {exc}")
    return missing


def pytest_collection_modifyitems(config, items):
    """Tests that use the browser run last: Playwright's sync API keeps an event loop running in
    the main thread from the first browser test to the end of the session (the ``browser``
    fixture), and a test after it that runs a coroutine itself (``async_to_sync``,
    ``asyncio.run``: the event streams, the load scenario's phones) would find that loop.
    Tests marked ``services`` are skipped without PostgreSQL and Redis, except under
    ``REQUIRE_SERVICES=1`` (set by ``.ci/run``), where a missing service fails them loudly."""
    items[:] = sorted(items, key=lambda item: "browser" in getattr(item, "fixturenames", ()))
    marked = [item for item in items if item.get_closest_marker("services")]
    if not marked:
        return
    missing = _services_missing()
    if not missing:
        return
    reason = "services missing: " + "; ".join(missing)
    if os.environ.get("REQUIRE_SERVICES") == "1":
        for item in marked:
            item.add_marker(pytest.mark.usefixtures("_fail_missing_services"))
    else:
        for item in marked:
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture
def _fail_missing_services():
    pytest.fail("REQUIRE_SERVICES=1 but " + "; ".join(_services_missing()))


@pytest.fixture(autouse=True)
def _eager_celery_unless_services(request):
    """Ordinary tests run Celery tasks eagerly (their data lives in an uncommitted test
    transaction a worker could not see); tests marked ``services`` talk to the real worker."""
    from nskt.celery import app

    if request.node.get_closest_marker("services"):
        yield
        return
    previous = app.conf.task_always_eager
    app.conf.task_always_eager = True
    yield
    app.conf.task_always_eager = previous


@pytest.fixture(autouse=True)
def _media_root_per_test(request, settings, tmp_path_factory):
    """Files written by tests (round packs, kept CSV imports) go to a folder of their own, not the
    project's ``var/media``; tests marked ``services`` share ``MEDIA_ROOT`` with the worker."""
    if request.node.get_closest_marker("services"):
        yield
        return
    settings.MEDIA_ROOT = tmp_path_factory.mktemp("media")
    yield


def pytest_configure(config):
    config.addinivalue_line(
        "markers", "every_game(entrants=None): run the test once per registered game (argument ``game``; "
        "only games of that kind of entrants when given); see tests/games/kits.py")


def games_under_test(module, entrants: str | None = None) -> list[str]:
    """The game keys a test marked ``every_game`` runs for: the registered games
    (:func:`tests.games.kits.keys`), or the module's own ``GAMES_UNDER_TEST`` (a list of adapters,
    as in tests/games/test_fifth_game.py, which registers its game around each test)."""
    from tests.games import kits

    own = getattr(module, "GAMES_UNDER_TEST", None)
    if own is not None:
        return [a.key for a in own if entrants is None or a.entrants == entrants]
    return kits.keys(entrants)


def pytest_generate_tests(metafunc):
    marker = metafunc.definition.get_closest_marker("every_game")
    if marker is not None and "game" in metafunc.fixturenames:
        metafunc.parametrize("game", games_under_test(metafunc.module, **marker.kwargs))


@pytest.fixture
def english_everywhere(settings):
    """English as the site's language and the active one, with a fresh cache before and after
    (cached pages and regions are per language): for tests that read English texts."""
    from django.core.cache import cache
    from django.utils import translation

    settings.LANGUAGE_CODE = "en"
    cache.clear()
    with translation.override("en"):
        yield
    cache.clear()


@pytest.fixture(autouse=True)
def _fresh_process_cache():
    """Each test starts with an empty process cache (``scoring.caching``'s ``local`` alias, there
    only with ``REDIS_URL``: the services suite), as a new web process would; the tests that empty
    the shared cache then find nothing kept in the process either."""
    from django.conf import settings

    if "local" in settings.CACHES:
        from django.core.cache import caches

        caches["local"].clear()
    yield
