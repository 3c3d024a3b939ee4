"""The app's stored files (round packs, uploaded CSV imports and their reports) through Django's
storage API, never a path on this machine (issue 25 item 6).

The storage is Django's default storage (``STORAGES["default"]``, :mod:`nskt.settings`): a folder
under ``MEDIA_ROOT`` by default, or an S3-compatible bucket (django-storages) when
``STORAGE_S3_BUCKET`` is set, so that every web process and worker of a service, on any host,
reads the files the others wrote. Names are relative to the storage (``packs/...``,
``imports/...``) and are what :attr:`scoring.models.TaskState.result_path` holds.

Every name written here is new (:func:`unique_name`): a file is never rewritten in place, so a
reader gets either the old file or the new one, never half of one; the old one is deleted once the
new one is recorded (:func:`delete`), and :func:`scoring.tasks.clean_stored_files` removes what
nobody needs any more.
"""
from __future__ import annotations

import logging
import uuid
from datetime import datetime
from typing import IO

from django.core.files import File
from django.core.files.base import ContentFile
from django.core.files.storage import Storage, default_storage

log = logging.getLogger(__name__)

#: Folders (prefixes) of the stored files.
PACKS = "packs"
IMPORTS = "imports"


def storage() -> Storage:
    """The storage of the app's files (Django's default storage)."""
    return default_storage


def unique_name(folder: str, stem: str, suffix: str) -> str:
    """``"<folder>/<stem>-<8 hex digits>.<suffix>"``: a name no other file has (``:`` in ``stem``
    becomes ``-``)."""
    return f"{folder}/{stem.replace(':', '-')}-{uuid.uuid4().hex[:8]}.{suffix}"


def save(name: str, content: IO[bytes] | bytes) -> str:
    """Store ``content`` (bytes, or a binary file object read from its current position) under
    ``name``; returns the name it was stored under (the storage may alter a name that exists)."""
    if isinstance(content, bytes):
        return storage().save(name, ContentFile(content))
    return storage().save(name, File(content, name=name.rsplit("/", 1)[-1]))


def read(name: str) -> bytes:
    """The bytes of the stored file ``name``. Raises ``OSError`` (``FileNotFoundError``) when it is
    missing (S3: the storage's own error, an ``OSError`` too)."""
    with storage().open(name, "rb") as f:
        return f.read()


def open_file(name: str) -> IO[bytes]:
    """The stored file ``name`` opened for reading (the caller closes it; a ``FileResponse``
    does)."""
    return storage().open(name, "rb")


def exists(name: str) -> bool:
    """Whether the stored file ``name`` exists (``False`` for an empty name)."""
    return bool(name) and storage().exists(name)


def delete(name: str) -> bool:
    """Delete the stored file ``name`` if there is one; a failure is logged, not raised (cleaning
    is tried again later). Returns whether the file is gone."""
    if not name:
        return False
    try:
        storage().delete(name)
    except Exception as exc:  # noqa: BLE001 - local OSError or the S3 client's errors
        log.warning("stored file %s not deleted: %s", name, exc)
        return False
    return True


def listing(folder: str) -> list[str]:
    """The names of the files in ``folder`` (not recursive; ``[]`` when it does not exist)."""
    try:
        _dirs, names = storage().listdir(folder)
    except FileNotFoundError:
        return []
    return [f"{folder}/{name}" for name in names]


def modified(name: str) -> datetime | None:
    """When the stored file ``name`` was last written (aware), or ``None`` when unknown."""
    try:
        return storage().get_modified_time(name)
    except (OSError, NotImplementedError):
        return None
