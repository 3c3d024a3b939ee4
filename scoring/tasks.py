"""Celery tasks of the scoring app: round packs and large CSV imports.

:func:`build_round_pack` writes a round's score sheets as one PDF to the file storage
(:mod:`scoring.files`: a local folder or an S3-compatible bucket shared by every host) in the
background and stores its progress (tables done / total) in :class:`scoring.models.TaskState`.
It is idempotent by key: the key names the round and a fingerprint of everything the pack prints
(:func:`round_pack_state`: the round's results, their tables and sides, the names of the teams and
players on them, the tournament's printed fields and blind setting, the language and the code),
so the same state of a round is built once and any change that shows on paper (a new hand, a
renamed team, a confirmation, a deploy) gets a new pack. "Build again" builds the current pack
anew even when its key is unchanged (:func:`start_round_pack` with ``rebuild``). The stored pack
is the public's: it is served to everyone, so with blind confirmation an unconfirmed result is
printed as its empty sheet (:func:`scoring.printing.sheets.round_pack_pdf`); its confirmation
raises the version, and the next pack prints it filled in.
:func:`import_entrants` imports a large CSV of teams or players (:mod:`scoring.io.entrants_csv`)
with progress; it marks itself done in the import's own transaction, so a re-delivered job never
imports twice. Without ``REDIS_URL`` Celery runs tasks eagerly in the request (settings).

Failing services (issue 12 item 4):

- Tasks acknowledge late and are rejected when their worker is lost (``acks_late``,
  ``reject_on_worker_lost``): a worker killed mid-task leaves the message in the broker, which
  hands it to another worker after the visibility timeout (``CELERY_BROKER_TRANSPORT_OPTIONS``).
- A running job beats: its :class:`TaskState`'s ``updated_at`` is written at every step of
  progress and, between steps, every :data:`HEARTBEAT_SECONDS` by a :class:`Heartbeat` thread
  (issue 22 item 6). A running job without a beat for :func:`heartbeat_timeout` (60 s), and a
  pending one that no worker took for :func:`stale_after`, is treated as failed (:func:`settle`):
  its page stops polling and says the worker stopped, and building again starts it anew.
- When the broker cannot be reached the job is not queued: its state is marked failed with a
  message the page shows (:func:`dispatch`), after a short connection timeout (settings).
"""
from __future__ import annotations

import json
import logging
import tempfile
import threading
import time
import uuid
from datetime import timedelta

from celery import shared_task
from django.conf import settings
from django.db import DatabaseError, connections, transaction
from django.utils import timezone, translation
from django.utils.translation import gettext_noop

from scoring import files
from scoring.draw.lifecycle import containers
from scoring.hall import times_up
from scoring.io import entrants_csv
from scoring.models import Round, TaskState, TimesUp, Tournament
from scoring.printing import sheets
from scoring.printing.packs import (  # noqa: F401 - part of this module's interface
    ACTIVE,
    KIND_IMPORT,
    KIND_ROUND_PACK,
    clean_files,
    import_source,
    round_pack_key,
    round_pack_state,
)

log = logging.getLogger(__name__)


#: Shown when the broker cannot be reached (the job is not queued).
QUEUE_DOWN = gettext_noop("The background worker cannot be reached right now, so the job was not started. Try again in a minute.")
#: Shown when a job stopped moving (its worker died: no heartbeat for a minute).
STOPPED = gettext_noop("The background job stopped without finishing (its worker was lost). Start it again.")

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


def stale_after() -> timedelta:
    """How long a pending or running job may go without progress before it counts as failed
    (``settings.TASK_STALE_SECONDS``, default 360: longer than the broker's visibility timeout, so a
    re-delivered job gets its chance first)."""
    return timedelta(seconds=int(getattr(settings, "TASK_STALE_SECONDS", 360)))


#: Seconds between two beats of a running job when it makes no progress (``TASK_HEARTBEAT_SECONDS``).
HEARTBEAT_SECONDS = 10


def heartbeat_timeout() -> timedelta:
    """How long a running job may go without a beat before it counts as failed (its worker
    stopped): ``settings.TASK_HEARTBEAT_TIMEOUT``, default 60 seconds (six missed beats)."""
    return timedelta(seconds=int(getattr(settings, "TASK_HEARTBEAT_TIMEOUT", 60)))


def update_state(state_id: int, **fields) -> None:
    """Update a :class:`TaskState` row (``updated_at`` too: it is the job's heartbeat)."""
    TaskState.objects.filter(pk=state_id).update(updated_at=timezone.now(), **fields)


class Heartbeat:
    """While a job runs (``with Heartbeat(state_id):``), a daemon thread writes its
    :class:`TaskState`'s ``updated_at`` every ``every`` seconds (default
    ``settings.TASK_HEARTBEAT_SECONDS`` or :data:`HEARTBEAT_SECONDS`), as long as the state is
    ``running``: a job busy on one long step is not taken for dead, and a worker that is killed
    stops beating. The thread uses (and closes) its own database connection; a failed beat is
    logged and the next one tried."""

    def __init__(self, state_id: int, every: float | None = None, stop: threading.Event | None = None):
        self.state_id = state_id
        self.every = every if every is not None else float(getattr(settings, "TASK_HEARTBEAT_SECONDS", HEARTBEAT_SECONDS))
        self.stop = stop or threading.Event()
        self.beats = 0
        self._thread: threading.Thread | None = None

    def beat(self) -> bool:
        """One beat: ``updated_at`` = now if the job is still running. Returns whether it was."""
        self.beats += 1
        return bool(TaskState.objects.filter(pk=self.state_id, status="running").update(updated_at=timezone.now()))

    def run(self) -> None:
        """Beat every ``every`` seconds until :attr:`stop` is set."""
        while not self.stop.wait(self.every):
            try:
                self.beat()
            except DatabaseError as exc:
                log.warning("job %s: heartbeat not written: %s", self.state_id, exc)

    def _thread_main(self) -> None:
        try:
            self.run()
        finally:
            if self.beats:
                connections.close_all()  # this thread's own connection

    def __enter__(self) -> Heartbeat:
        self._thread = threading.Thread(target=self._thread_main, name=f"heartbeat-{self.state_id}", daemon=True)
        self._thread.start()
        return self

    def __exit__(self, *exc) -> None:
        self.stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.every + 5)


def is_stale(state: TaskState) -> bool:
    """True for a running job without a beat for :func:`heartbeat_timeout` (its worker stopped),
    and for a pending job no worker took for :func:`stale_after` (re-delivery gets its chance
    first)."""
    if state.updated_at is None or state.status not in ACTIVE:
        return False
    limit = heartbeat_timeout() if state.status == "running" else stale_after()
    return state.updated_at < timezone.now() - limit


def settle(state: TaskState) -> TaskState:
    """``state``, marked failed (with :data:`STOPPED`) when it is stale. Returns it refreshed."""
    if is_stale(state):
        TaskState.objects.filter(pk=state.pk, status__in=ACTIVE, updated_at=state.updated_at).update(
            status="failed", error=STOPPED, updated_at=timezone.now())
        state.refresh_from_db()
    return state


def dispatch(task, state: TaskState, args: tuple = (), kwargs: dict | None = None) -> None:
    """Run ``task`` for ``state``: in-process when Celery is eager (no ``REDIS_URL``), otherwise
    queued to a worker. A broker that cannot be reached (after its short connection timeout) marks
    the state failed with :data:`QUEUE_DOWN` instead of raising into the request."""
    if task.app.conf.task_always_eager:
        apply_eagerly(task, args, kwargs)
        return
    try:
        # A connection of its own that tries the broker once (kombu would otherwise retry for
        # seconds inside the request), and no publish retries.
        with task.app.connection_for_write(transport_options={"max_retries": 0}) as connection:
            task.apply_async(args=args, kwargs=kwargs or {}, retry=False, connection=connection)
    except Exception as exc:  # noqa: BLE001 - kombu raises several kinds when Redis is down
        log.warning("could not queue %s for %s: %s", task.name, state.key, exc)
        update_state(state.pk, status="failed", error=QUEUE_DOWN)


def _is_done(state: TaskState) -> bool:
    return state.status == "done" and files.exists(state.result_path)


def pack_file(state: TaskState | None):
    """The stored file of a finished pack opened for reading, or ``None`` when the pack is not
    done or its file is gone (cleaned, or the storage lost it)."""
    if state is None or state.status != "done" or not state.result_path:
        return None
    try:
        return files.open_file(state.result_path)
    except FileNotFoundError:
        return None


#: Progress of a job is written at most once per this many seconds (``TASK_PROGRESS_SECONDS``).
PROGRESS_SECONDS = 1.0


class Throttle:
    """``ready()`` is true at most once per ``every`` seconds of ``clock`` (default
    :func:`time.monotonic`; the first call is ready): a job's progress is written at most once a
    second however fast its steps go."""

    #: The clock of throttles made without one (the tests put a fake one here).
    default_clock = staticmethod(time.monotonic)

    def __init__(self, every: float | None = None, clock=None):
        self.every = every if every is not None else float(getattr(settings, "TASK_PROGRESS_SECONDS", PROGRESS_SECONDS))
        self.clock = clock or Throttle.default_clock
        self.last: float | None = None

    def ready(self) -> bool:
        """Whether to write now (and, if so, the next write waits ``every`` seconds from now)."""
        now = self.clock()
        if self.last is not None and now - self.last < self.every:
            return False
        self.last = now
        return True


def current_round_pack(rnd: Round) -> TaskState | None:
    """The :class:`TaskState` of the round's current pack (settled), or ``None`` if never started."""
    state = TaskState.objects.filter(key=round_pack_key(rnd)).first()
    return settle(state) if state is not None else None


def start_round_pack(rnd: Round, *, base_url: str = "", rebuild: bool = False) -> TaskState:
    """Create (or reuse) the :class:`TaskState` of the round's current pack (in the active
    language) and queue :func:`build_round_pack` unless that pack is already done or being built (a
    stale job, see :func:`settle`, counts as failed and is started again). ``rebuild`` ("build
    again"): a done or failed pack is built anew all the same (a job still running is left to
    finish); until the new file is written the old one is no longer served. A rebuild that cannot
    be queued (the broker is down) leaves a done pack done and served, and returns its state with
    ``not_queued`` set to :data:`QUEUE_DOWN` for the page to say so."""
    language = translation.get_language()
    key = round_pack_key(rnd, language)
    state, created = TaskState.objects.get_or_create(key=key, defaults={"kind": KIND_ROUND_PACK})
    if not created:
        state = settle(state)
    if not created and state.status in ACTIVE:
        return state
    was_done = _is_done(state)
    if was_done and not rebuild:
        return state
    if not created:
        update_state(state.pk, status="pending", error="", progress=0)
    dispatch(build_round_pack, state, (rnd.pk,), {"base_url": base_url, "language": language})
    state.refresh_from_db()
    if was_done and state.status == "failed" and state.error == QUEUE_DOWN:
        update_state(state.pk, status="done", error="", progress=state.total)  # the last good pack stays
        state.refresh_from_db()
        state.not_queued = QUEUE_DOWN
    return state


def run_round_pack_eagerly(round_id: int, *, base_url: str = "", language: str | None = None):
    """Run :func:`build_round_pack` in-process (no ``REDIS_URL``) the way a worker would: with
    Celery's retries and without raising into the request; a final failure is left as status
    ``failed`` with the error (shown on the progress page). Returns the ``EagerResult``.

    See :func:`apply_eagerly`."""
    return apply_eagerly(build_round_pack, (round_id,), {"base_url": base_url, "language": language})


@shared_task(bind=True, autoretry_for=RETRY_ON, retry_backoff=2, retry_jitter=False, max_retries=3,
             acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def build_round_pack(self, round_id: int, base_url: str = "", language: str | None = None) -> str:
    """Build the round pack PDF of round ``round_id`` in ``language`` (default: the active one)
    and store it (:mod:`scoring.files`: ``packs/...`` in the storage); returns its name in the
    storage. The PDF is written as it is laid out to a temporary file of this process
    (:func:`scoring.printing.sheets.write_round_pack`, memory bounded), which is then saved to the
    storage and deleted. Progress (``progress``/``total`` = tables) is written at most once a
    second (:class:`Throttle`); an already built pack with the same key is returned at once
    (idempotent; "build again" sets its state back to pending first). Retried (``autoretry_for``
    database and file errors, at most 3 retries) with the state set back to ``pending``; after the
    last failure the state is ``failed`` with the error. A re-delivered message (its first worker
    died) builds the pack again from the start. Every build is stored under a new name, recorded
    once it is complete, so a reader never sees half a pack; the file of the build it replaces is
    deleted then."""
    with translation.override(language or translation.get_language()):
        return _build_round_pack(self, round_id, base_url)


def _build_round_pack(task, round_id: int, base_url: str) -> str:
    rnd = Round.objects.select_related("tournament").get(pk=round_id)
    key = round_pack_key(rnd)
    state, _ = TaskState.objects.get_or_create(key=key, defaults={"kind": KIND_ROUND_PACK})
    if _is_done(state):
        return state.result_path
    total = containers(rnd).count()
    replaced = state.result_path
    update_state(state.pk, status="running", progress=0, total=total, error="")
    throttle = Throttle()

    def progress(done: int, count: int) -> None:
        if done >= count or throttle.ready():  # the last step is always written
            update_state(state.pk, progress=done, total=count)

    try:
        with Heartbeat(state.pk), tempfile.TemporaryFile(prefix="nskt-pack-", suffix=".pdf") as tmp:
            sheets.write_round_pack(rnd, tmp, base_url=base_url, progress=progress)
            tmp.seek(0)
            relative = files.save(files.unique_name(files.PACKS, key, "pdf"), tmp)
    except Exception as exc:
        last = not isinstance(exc, RETRY_ON) or task.request.retries >= (task.max_retries or 0)
        update_state(state.pk, status="failed" if last else "pending", error=f"{type(exc).__name__}: {exc}")
        log.warning("round pack %s failed (try %s): %s", key, task.request.retries + 1, exc)
        raise
    update_state(state.pk, status="done", progress=total, total=total, result_path=relative, error="")
    if replaced and replaced != relative:
        files.delete(replaced)  # the build this one replaces ("build again")
    return relative


# --------------------------------------------------------------------------- CSV imports


def start_import(tournament: Tournament, kind: str, file_bytes: bytes) -> TaskState:
    """Keep the uploaded file and start :func:`import_entrants` for it (``kind``: ``"teams"`` or
    ``"players"``); returns the job's :class:`TaskState` (``kind`` ``"import"``, key
    ``import:<tournament>:<kind>:<uuid>``), whose progress counts rows checked."""
    key = f"{KIND_IMPORT}:{tournament.pk}:{kind}:{uuid.uuid4().hex}"
    files.save(import_source(key), file_bytes)
    state = TaskState.objects.create(key=key, kind=KIND_IMPORT, total=min(entrants_csv.count_rows(file_bytes), 32767))
    dispatch(import_entrants, state, (state.pk,))
    state.refresh_from_db()
    return state


def import_report(state: TaskState) -> entrants_csv.ImportReport | None:
    """The report of a finished import job (``None`` while it runs or when it failed)."""
    if state.status != "done" or not state.result_path:
        return None
    try:
        return entrants_csv.ImportReport.from_dict(json.loads(files.read(state.result_path).decode("utf-8")))
    except (OSError, ValueError):
        return None


@shared_task(bind=True, autoretry_for=RETRY_ON, retry_backoff=2, retry_jitter=False, max_retries=3,
             acks_late=True, reject_on_worker_lost=True, ignore_result=True)
def import_entrants(self, state_id: int) -> str:
    """Import the CSV kept for job ``state_id`` (:func:`start_import`): validate every row with
    progress (written at most once a second), then save all rows in one transaction that also marks
    the job done, so a re-delivered job finds it done and imports nothing twice. The report
    (created, errors by line and column) is stored next to the file (:mod:`scoring.files`), and the
    uploaded file is deleted once the job is done. Returns the report's name in the storage."""
    state = TaskState.objects.get(pk=state_id)
    if state.status == "done":
        return state.result_path
    _prefix, tournament_id, kind, _token = state.key.split(":")
    tournament = Tournament.objects.get(pk=int(tournament_id))
    source = import_source(state.key)
    relative = files.unique_name(files.IMPORTS, state.key, "json")
    update_state(state.pk, status="running", progress=0, error="")
    throttle = Throttle()

    def progress(done: int, count: int) -> None:
        if done >= count or throttle.ready():  # the last step is always written
            update_state(state.pk, progress=min(done, 32767), total=min(count, 32767))

    def saved(report: entrants_csv.ImportReport) -> None:
        name = files.save(relative, json.dumps(report.as_dict(), ensure_ascii=False).encode("utf-8"))
        update_state(state.pk, status="done", result_path=name, error="")

    try:
        with Heartbeat(state.pk):
            report = entrants_csv.import_entrants(entrants_csv.KINDS[kind], tournament, files.read(source),
                                                  progress=progress, on_saved=saved)
        if not report.ok:
            with transaction.atomic():
                saved(report)
    except Exception as exc:
        last = not isinstance(exc, RETRY_ON) or self.request.retries >= (self.max_retries or 0)
        update_state(state.pk, status="failed" if last else "pending", error=f"{type(exc).__name__}: {exc}")
        log.warning("import %s failed (try %s): %s", state.key, self.request.retries + 1, exc)
        raise
    files.delete(source)  # imported (or refused with its report): never read again
    return TaskState.objects.get(pk=state.pk).result_path


# --------------------------------------------------------------------------- cleaning the storage


@shared_task(acks_late=True, ignore_result=True)
def clean_stored_files() -> dict[str, int]:
    """Celery beat's hourly cleaning of the storage (:func:`clean_files`; the schedule is
    ``CELERY_BEAT_SCHEDULE`` in the settings). Returns the counts."""
    counts = clean_files()
    if any(counts.values()):
        log.info("stored files cleaned: %s", counts)
    return counts


@shared_task(acks_late=True, ignore_result=True)
def apply_times_up(round_id: int) -> list[int]:
    """Apply a round's time's up call when its grace period ("finish the hand in play") is over
    (:func:`scoring.hall.times_up.apply_due`): the table numbers it ended, ``[]`` when it was
    applied already (by the organiser's "apply now") or called again since."""
    return times_up.apply_due(round_id)


def schedule_times_up(call: TimesUp) -> bool:
    """Queue :func:`apply_times_up` for the end of ``call``'s grace period when a worker runs.
    False (nothing queued) without a grace, when Celery runs in-process (no ``REDIS_URL``: a
    countdown would not wait) or the broker cannot be reached: the organiser applies it with
    "apply now" (the progress board shows the grace's end)."""
    if call.grace_until is None or apply_times_up.app.conf.task_always_eager:
        return False
    try:
        with apply_times_up.app.connection_for_write(transport_options={"max_retries": 0}) as connection:
            apply_times_up.apply_async(args=[call.round_id], eta=call.grace_until, retry=False, connection=connection)
    except Exception as exc:  # noqa: BLE001 - kombu raises several kinds when Redis is down
        log.warning("could not queue time's up for round %s: %s", call.round_id, exc)
        return False
    return True
