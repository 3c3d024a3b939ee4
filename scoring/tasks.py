"""Celery tasks of the scoring app.

:func:`build_round_pack` writes a round's score sheets as one PDF to ``MEDIA_ROOT`` in the
background and stores its progress (tables done / total) in :class:`scoring.models.TaskState`.
It is idempotent by key: the key names the round and a fingerprint of its matches (ids, tables,
teams, versions), so the same state of a round is built once and a changed round gets a new pack.
Without ``REDIS_URL`` Celery runs it eagerly in the request (settings).
"""
from __future__ import annotations

import hashlib
import logging
import threading
from pathlib import Path

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError

from scoring.draw.lifecycle import containers
from scoring.models import Round, TaskState
from scoring.printing import sheets

log = logging.getLogger(__name__)

KIND_ROUND_PACK = "round_pack"

try:  # the cache is Redis in production: its connection errors are worth a retry too
    from redis.exceptions import RedisError
except ImportError:  # pragma: no cover - redis is in requirements.txt
    RETRY_ON: tuple[type[BaseException], ...] = (DatabaseError, OSError)
else:
    RETRY_ON = (DatabaseError, OSError, RedisError)

_eager_lock = threading.RLock()


def apply_eagerly(task, args: tuple = (), kwargs: dict | None = None):
    """Run ``task`` in-process (no ``REDIS_URL``) the way a worker would: with Celery's retries
    and without raising; a final failure is left in the task's :class:`TaskState`. Returns the
    ``EagerResult``.

    Celery's eager retry re-applies the task with ``task_eager_propagates``, which the settings
    turn on (tests see exceptions); it is switched off for the duration of this call (under a lock,
    as the setting is process-wide)."""
    conf = task.app.conf
    with _eager_lock:
        old = conf.task_eager_propagates
        conf.task_eager_propagates = False
        try:
            return task.apply(args=args, kwargs=kwargs or {}, throw=False)
        finally:
            conf.task_eager_propagates = old


def round_pack_key(rnd: Round) -> str:
    """``"round_pack:<round id>:<fingerprint>"``; the fingerprint changes whenever a result of the
    round changes (its ``version``) or a table is added or removed (a draft drawn again)."""
    rows = containers(rnd).order_by("pk").values_list("pk", "version", "updated_at")
    digest = hashlib.sha1(repr(list(rows)).encode()).hexdigest()[:16]
    return f"{KIND_ROUND_PACK}:{rnd.pk}:{digest}"


def _pack_path(key: str) -> str:
    """Path of the pack relative to ``MEDIA_ROOT``."""
    return f"packs/{key.replace(':', '-')}.pdf"


def _is_done(state: TaskState) -> bool:
    return state.status == "done" and bool(state.result_path) and (Path(settings.MEDIA_ROOT) / state.result_path).is_file()


def start_round_pack(rnd: Round, *, base_url: str = "") -> TaskState:
    """Create (or reuse) the :class:`TaskState` of the round's current pack and queue
    :func:`build_round_pack` unless that pack is already done or being built."""
    key = round_pack_key(rnd)
    state, created = TaskState.objects.get_or_create(key=key, defaults={"kind": KIND_ROUND_PACK})
    if _is_done(state) or (not created and state.status == "running"):
        return state
    if not created:
        TaskState.objects.filter(pk=state.pk).update(status="pending", error="")
    if build_round_pack.app.conf.task_always_eager:
        run_round_pack_eagerly(rnd.pk, base_url=base_url)
    else:
        build_round_pack.delay(rnd.pk, base_url=base_url)
    state.refresh_from_db()
    return state


def run_round_pack_eagerly(round_id: int, *, base_url: str = ""):
    """Run :func:`build_round_pack` in-process (no ``REDIS_URL``) the way a worker would: with
    Celery's retries and without raising into the request; a final failure is left as status
    ``failed`` with the error (shown on the progress page). Returns the ``EagerResult``.

    See :func:`apply_eagerly`."""
    return apply_eagerly(build_round_pack, (round_id,), {"base_url": base_url})


@shared_task(bind=True, autoretry_for=RETRY_ON, retry_backoff=2, retry_jitter=False, max_retries=3)
def build_round_pack(self, round_id: int, base_url: str = "") -> str:
    """Build the round pack PDF of round ``round_id`` into ``MEDIA_ROOT/packs/`` and return its
    path relative to ``MEDIA_ROOT``. Progress (``progress``/``total`` = tables) is saved after
    every table; an already built pack with the same key is returned at once (idempotent).
    Retried (``autoretry_for`` database and file errors, at most 3 retries) with the state set
    back to ``pending``; after the last failure the state is ``failed`` with the error."""
    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    key = round_pack_key(rnd)
    state, _ = TaskState.objects.get_or_create(key=key, defaults={"kind": KIND_ROUND_PACK})
    if _is_done(state):
        return state.result_path
    total = containers(rnd).count()
    TaskState.objects.filter(pk=state.pk).update(status="running", progress=0, total=total, error="")

    def progress(done: int, count: int) -> None:
        TaskState.objects.filter(pk=state.pk).update(progress=done, total=count)

    try:
        data = sheets.round_pack_pdf(rnd, base_url=base_url, progress=progress)
        relative = _pack_path(key)
        target = Path(settings.MEDIA_ROOT) / relative
        target.parent.mkdir(parents=True, exist_ok=True)
        tmp = target.with_suffix(".part")
        tmp.write_bytes(data)
        tmp.replace(target)
    except Exception as exc:
        last = not isinstance(exc, RETRY_ON) or self.request.retries >= (self.max_retries or 0)
        TaskState.objects.filter(pk=state.pk).update(status="failed" if last else "pending", error=f"{type(exc).__name__}: {exc}")
        log.warning("round pack %s failed (try %s): %s", key, self.request.retries + 1, exc)
        raise
    TaskState.objects.filter(pk=state.pk).update(status="done", progress=total, total=total, result_path=relative, error="")
    return relative
