"""Retry protection: an entry form carries an idempotency key (its ``submission``), so a repeated
submission (a retry after a dropped connection, a double tap) finds the record it already stored
instead of storing a second one (:func:`scoring.results.lifecycle.add_record`). A unique
constraint per container backs this up."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring.errors import ServiceError
from scoring.kinds import kind_of
from scoring.models import ResultContainer, ResultRecord

#: Longest idempotency key :func:`scoring.results.lifecycle.add_record` accepts (the record's
#: ``submission`` column).
SUBMISSION_LENGTH = 64


def submission_key(submission: str | None) -> str | None:
    """The idempotency key as stored: stripped, ``None`` when empty. Raises
    :class:`~scoring.errors.ServiceError` for a key longer than :data:`SUBMISSION_LENGTH` or with
    anything but printable ASCII (a damaged form)."""
    text = (submission or "").strip()
    if not text:
        return None
    if len(text) > SUBMISSION_LENGTH or not text.isascii() or not text.isprintable():
        raise ServiceError(_("This form is damaged: reload the page and enter it again."))
    return text


def stored_submission(container: ResultContainer, submission: str | None) -> ResultRecord | None:
    """The record of ``container`` stored by the entry form ``submission`` (its idempotency key),
    or ``None``."""
    text = (submission or "").strip()
    if not text:
        return None
    kind = kind_of(container)
    return kind.record_model.objects.filter(**{kind.record_fk: container, "submission": text}).first()
