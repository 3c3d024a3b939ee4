"""Signal handlers of the scoring app (registered in :meth:`scoring.apps.ScoringConfig.ready`).

After a Tai Pan result changes in a way the standings count, the standings are refreshed in the
background once the transaction commits (issue 5 item 2): a match is saved that is, or was when
loaded, finished or confirmed (entering the last hand, ending at time, confirming, reopening,
editing or deleting a hand of a finished match) and a column the standings read changed (status,
teams, totals, match points, winner). Saves that change none of them (a version bump,
``rebuild_scores`` finding nothing to correct) queue nothing. One refresh per tournament per
transaction, however many matches it saves; rolled-back transactions queue nothing.

Other changes the standings depend on (deleted matches, team or tie-break edits) need no trigger:
the stored standings are keyed by a fingerprint of their data
(:mod:`scoring.standings.cache`), so the next page recomputes them.
"""
from __future__ import annotations

from django.db import DEFAULT_DB_ALIAS, connections, transaction
from django.db.models.signals import post_init, post_save
from django.dispatch import receiver

from scoring.models import Match, Round

COUNTED = (Match.Status.FINISHED, Match.Status.CONFIRMED)


class RefreshStandingsOnCommit:
    """The ``on_commit`` callback queueing :func:`scoring.tasks.refresh_standings` for one
    tournament; compared by tournament so a transaction registers it once."""

    def __init__(self, tournament_id: int):
        self.tournament_id = tournament_id
        self.ran = False

    def __eq__(self, other):
        return isinstance(other, RefreshStandingsOnCommit) and other.tournament_id == self.tournament_id

    def __hash__(self):
        return hash((type(self), self.tournament_id))

    def __call__(self) -> None:
        from scoring.tasks import enqueue_standings_refresh

        self.ran = True
        enqueue_standings_refresh(self.tournament_id)


def _already_queued(callback: RefreshStandingsOnCommit, using: str) -> bool:
    """Whether this transaction already registered a refresh of the same tournament that has not
    run yet. That one is enough: it runs at the same commit (unless its own savepoint is rolled
    back, which removes it and lets the next save register again) and reads the data as
    committed, so it sees this change too."""
    connection = connections[using]
    if not connection.in_atomic_block:
        return False
    # Django keeps (savepoint ids, func, robust) tuples; rolled-back savepoints drop theirs.
    return any(len(item) > 1 and item[1] == callback and not item[1].ran for item in getattr(connection, "run_on_commit", ()))


def schedule_standings_refresh(tournament_id: int, using: str = DEFAULT_DB_ALIAS) -> None:
    """Queue a standings refresh of ``tournament_id`` after the current transaction commits (at
    once outside a transaction), unless this transaction already queued one."""
    callback = RefreshStandingsOnCommit(tournament_id)
    if not _already_queued(callback, using):
        transaction.on_commit(callback, using=using, robust=True)


def _tournament_id(match: Match) -> int | None:
    if Match.round.is_cached(match):
        return match.round.tournament_id
    return Round.objects.filter(pk=match.round_id).values_list("tournament_id", flat=True).first()


#: The Match columns the standings read (scoring.standings.teams).
STANDINGS_FIELDS = ("round_id", "team_ns_id", "team_ew_id", "status", "total_ns", "total_ew", "points_ns", "points_ew", "winner_id")
_UNLOADED = object()


def _standings_values(match: Match) -> tuple:
    # __dict__, not getattr: reading a deferred field would cost a query per match.
    return tuple(match.__dict__.get(name, _UNLOADED) for name in STANDINGS_FIELDS)


@receiver(post_init, sender=Match, dispatch_uid="scoring.remember_match_standings_values")
def match_loaded(sender, instance: Match, **kwargs) -> None:
    """Remember the standings columns of a match as loaded (compared after a save)."""
    instance._standings_values = _standings_values(instance)


@receiver(post_save, sender=Match, dispatch_uid="scoring.refresh_standings_on_match_save")
def match_saved(sender, instance: Match, created=False, raw=False, update_fields=None, using=DEFAULT_DB_ALIAS, **kwargs) -> None:
    """A match was saved with a counted result (finished or confirmed) now or before, and a
    standings column changed (or was written, when the instance was reloaded with
    ``refresh_from_db``, which keeps no snapshot): refresh the standings after the commit."""
    before = getattr(instance, "_standings_values", None)
    now = _standings_values(instance)
    instance._standings_values = now
    if raw or (not created and before == now):
        return
    if update_fields is not None and not {name.removesuffix("_id") for name in STANDINGS_FIELDS} & {name.removesuffix("_id") for name in update_fields}:
        return
    was_counted = before is not None and before[STANDINGS_FIELDS.index("status")] in COUNTED
    if instance.status not in COUNTED and not was_counted:
        return
    tournament_id = _tournament_id(instance)
    if tournament_id is not None:
        schedule_standings_refresh(tournament_id, using)

