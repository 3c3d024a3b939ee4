"""Celery application.

The broker is ``REDIS_URL``. Without it, tasks run eagerly in-process (the embedded default), see
``CELERY_TASK_ALWAYS_EAGER`` in :mod:`nskt.settings`.
"""
import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "nskt.settings")

app = Celery("nskt")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@app.task(name="nskt.ping")
def ping() -> str:
    """Health check: returns ``"pong"`` from whichever worker (or eager process) runs it."""
    return "pong"
