"""The real production services (issue 5): PostgreSQL as the database, Redis as broker and cache,
a Celery worker answering. Marked ``services``: skipped on the embedded default, a failure under
``REQUIRE_SERVICES=1`` when a service is missing."""
import pytest
from django.conf import settings
from django.core.cache import cache
from django.db import connection

pytestmark = pytest.mark.services


@pytest.mark.django_db
def test_database_is_postgresql():
    assert connection.vendor == "postgresql"
    with connection.cursor() as cur:
        cur.execute("select 1")
        assert cur.fetchone() == (1,)


def test_cache_is_redis():
    assert "redis" in settings.CACHES["default"]["BACKEND"].lower()
    cache.set("nskt-ci-probe", 41)
    assert cache.incr("nskt-ci-probe") == 42


def test_celery_worker_round_trip():
    from nskt.celery import app, ping

    assert app.conf.task_always_eager is False
    assert ping.delay().get(timeout=30) == "pong"
