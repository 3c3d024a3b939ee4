"""A round pack's key and the stored files of the background jobs (issue 25 item 5):
:func:`round_pack_key` names the state of everything a round's pack prints (the job's
:class:`~scoring.models.TaskState` key), and :func:`clean_files` deletes the stored files
(:mod:`scoring.files`) nobody needs any more, with their jobs. The jobs themselves are
:mod:`scoring.tasks`."""
from __future__ import annotations

import hashlib
import json
from datetime import timedelta

from django.conf import settings
from django.db.models import Count, Max, Q, Sum
from django.utils import timezone, translation

from scoring import files
from scoring.kinds import kind_for
from scoring.models import ResultContainer, Round, TaskState
from scoring.printing.common import code_version

KIND_ROUND_PACK = "round_pack"
KIND_IMPORT = "import"

#: States of a job that is not over yet.
ACTIVE = ("pending", "running")


#: What a pack prints of the tournament itself (the sheet's header and the rows it leaves to write in).
TOURNAMENT_FIELDS = ("pk", "name", "slug", "venue", "starts_on", "game", "rules", "round_format", "hands_per_round",
                     "blind_confirmation")


def round_pack_state(rnd: Round, language: str | None = None) -> list:
    """Everything the round's public pack prints, read with at most two aggregate queries (the
    round's results; for four-player tables their seats):

    - the results: count, ids (a draft drawn again or edited makes new rows), the sum of their
      ``version`` (every record written, corrected or deleted, every state change) and their last
      change, the finished and confirmed counts (with blind confirmation an unconfirmed result is
      printed empty: the setting is below);
    - their sides: for matches the teams' ids and the last change of those teams and of their
      players; for tables the seats (count, ids, players) and the players' last change (the
      kind's ``side_aggregates["round"]`` and :meth:`~scoring.kinds.ResultKind.seat_state`): a
      renamed team or player gives a new state;
    - whether the round is a draft (a draft's pack carries the draft watermark; publishing gives
      the round a new pack without it);
    - the round's number and the tournament's printed fields (:data:`TOURNAMENT_FIELDS`: name,
      venue, date, game and rules, the blind setting);
    - the language it is printed in (default: the active one) and the code
      (:func:`scoring.printing.common.code_version`).

    ``"public"`` marks the state of the packs built for the public (keys of packs built before are
    never served again)."""
    tournament = rnd.tournament
    kind = kind_for(tournament.adapter)
    status = ResultContainer.Status
    results = kind.container_model.objects.filter(round=rnd).aggregate(
        n=Count("pk"), ids=Sum("pk"), last=Max("pk"), v=Sum("version"), t=Max("updated_at"),
        finished=Count("pk", filter=Q(status=status.FINISHED)), confirmed=Count("pk", filter=Q(status=status.CONFIRMED)),
        **kind.side_aggregates["round"])
    seats = kind.seat_state(rnd)
    printed = {field: getattr(tournament, field) for field in TOURNAMENT_FIELDS}
    return ["public", rnd.pk, rnd.number, rnd.status == Round.Status.DRAFT, results, seats, printed, language or translation.get_language(), code_version()]


def round_pack_key(rnd: Round, language: str | None = None) -> str:
    """``"round_pack:<round id>:<fingerprint>"``, the fingerprint a digest of
    :func:`round_pack_state`: it changes whenever anything printed on the round's pack changes (a
    result, a table, a renamed team or player, the tournament's printed fields or blind setting,
    the language, the code)."""
    state = json.dumps(round_pack_state(rnd, language), sort_keys=True, default=str)
    digest = hashlib.sha1(state.encode()).hexdigest()[:16]
    return f"{KIND_ROUND_PACK}:{rnd.pk}:{digest}"


def import_source(key: str) -> str:
    """The name in the storage of the CSV kept for import job ``key``."""
    return f"{files.IMPORTS}/{key.replace(':', '-')}.csv"


def _forget(state: TaskState) -> bool:
    """Delete job ``state`` if nobody wrote it since it was read, then its stored files (its
    result, an import's uploaded CSV). Returns whether it was deleted."""
    deleted, _ = TaskState.objects.filter(pk=state.pk, updated_at=state.updated_at).delete()
    if not deleted:
        return False
    files.delete(state.result_path)
    if state.kind == KIND_IMPORT:
        files.delete(import_source(state.key))
    return True


def _superseded_packs(before) -> list[TaskState]:
    """Finished packs (finished before ``before``) whose key is no longer their round's current
    key in any of the site's languages (or whose round is gone)."""
    by_round: dict[int, list[TaskState]] = {}
    for state in TaskState.objects.filter(kind=KIND_ROUND_PACK, status="done", updated_at__lt=before):
        by_round.setdefault(int(state.key.split(":")[1]), []).append(state)
    rounds = Round.objects.select_related("tournament").in_bulk(list(by_round))
    old = []
    for round_id, states in by_round.items():
        rnd = rounds.get(round_id)
        current = set() if rnd is None else {round_pack_key(rnd, code) for code, _name in settings.LANGUAGES}
        old += [state for state in states if state.key not in current]
    return old


def clean_files(now=None) -> dict[str, int]:
    """Delete the stored files nobody needs any more (:mod:`scoring.files`), with their jobs:

    - ``expired``: packs and imports (done or failed) untouched for ``FILES_KEEP_DAYS`` days (a
      later download builds a pack again);
    - ``superseded``: finished packs whose round changed since (their key is not the round's
      current key in any language), or of a round that is gone, finished more than
      ``FILES_GRACE_MINUTES`` ago (a download under way ends first);
    - ``orphans``: files under ``packs/`` and ``imports/`` that no job names, older than the grace
      (a build or import whose process died between storing and recording).

    A job written to since it was read is left alone. Returns the counts by reason."""
    now = now or timezone.now()
    grace = timedelta(minutes=float(getattr(settings, "FILES_GRACE_MINUTES", 10)))
    keep = timedelta(days=float(getattr(settings, "FILES_KEEP_DAYS", 14)))
    counts = {"expired": 0, "superseded": 0, "orphans": 0}
    jobs = TaskState.objects.filter(kind__in=(KIND_ROUND_PACK, KIND_IMPORT))
    for state in jobs.filter(updated_at__lt=now - keep).exclude(status__in=ACTIVE):
        counts["expired"] += _forget(state)
    for state in _superseded_packs(now - grace):
        counts["superseded"] += _forget(state)
    named = set(jobs.exclude(result_path="").values_list("result_path", flat=True))
    named |= {import_source(key) for key in jobs.filter(kind=KIND_IMPORT).values_list("key", flat=True)}
    for folder in (files.PACKS, files.IMPORTS):
        for name in files.listing(folder):
            written = files.modified(name)
            if name not in named and written is not None and written < now - grace:
                counts["orphans"] += files.delete(name)
    return counts
