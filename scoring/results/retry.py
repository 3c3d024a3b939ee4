"""Retry protection: an entry form carries an idempotency key (its ``submission``), so a repeated
submission (a retry after a dropped connection, a double tap) finds the record it already stored
instead of storing a second one (:func:`scoring.results.lifecycle.add_record`). A unique
constraint per container backs this up."""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _

from scoring.errors import ServiceError, StaleVersion
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


#: Most earlier hands one outbox chain may name (:func:`chained_version`).
CHAIN_LENGTH = 50


def chained_version(container: ResultContainer, expected_version: int, chain: tuple[str, ...]) -> int:
    """The version a record of an offline outbox chain must find (docs/results.md, "Saving without
    a connection"): the version its form was based on (``expected_version``, the page the phone
    had) plus one for each earlier record of the same chain (``chain``: their idempotency keys, in
    order). Every earlier record of the chain must be stored in ``container`` already (the outbox
    sends them in order and stops at a refusal); otherwise :class:`~scoring.errors.StaleVersion`.
    Any other write on the result since (someone else's record, an edit, a deletion, a
    confirmation) moved the version further, so the caller's version check refuses it. Call it
    inside the result's lock. An empty chain returns ``expected_version`` unchanged."""
    if not chain:
        return expected_version
    if len(chain) > CHAIN_LENGTH or len(set(chain)) != len(chain):
        raise ServiceError(_("This form is damaged: reload the page and enter it again."))
    kind = kind_of(container)
    stored = kind.record_model.objects.filter(**{kind.record_fk: container, "submission__in": chain}).count()
    if stored != len(chain):
        raise StaleVersion()
    return expected_version + len(chain)
