"""The receivers that bump the state counters (:func:`scoring.live.state.bump`) on every model
save or delete a page shows (connected once by :meth:`scoring.apps.ScoringConfig.ready`).

What each write moves:

- a match or table (:class:`~scoring.models.ResultContainer`): its ``result:<id>`` and its round's
  ``board:<n>`` always; its round's page ``round:<n>`` unless the result is being played and stays
  so (a hand saved, corrected or deleted in a table that is playing changes its running score
  only, which the round page does not show: docs/results.md): a new result, a change of state
  (django-fsm's ``post_transition``), a finished or confirmed result's new score, a pending one's
  new pairing, or a save naming fields beyond its version move it; the ``standings`` when the
  result is or was finished or confirmed (what the standings count);
- a table's seat: its table's page, unless only its running ``total`` changed (the table's own
  save follows);
- a round: its page and board; made, published or back to a draft: ``tournament`` (every page's
  round navigation), ``standings`` and ``hall`` too; started, closed or reopened: ``hall`` (the
  hall bar follows the current round);
- the tournament: every topic;
- a team or player: ``entrants`` and ``standings``; a check-in or withdrawal: ``hall``,
  ``entrants`` and ``standings``;
- the clock, time's up, zones and calls: ``hall`` and the round's board (the clock and time's up
  its page too); an announcement: ``hall``;
- a confirmation or a dispute: its result, round page, board and the standings.

Queryset writes send no signal: the services that make them (``update()``, ``bulk_create``,
``bulk_update``, a draft's tables deleted, a team deleted) call :func:`~scoring.live.state.bump`
themselves.
"""
from __future__ import annotations

from django.db.models.signals import post_delete, post_save
from django_fsm.signals import post_transition

from scoring.live.state import (
    ENTRANTS,
    EVERYTHING,
    HALL,
    STANDINGS,
    TOURNAMENT,
    board_topic,
    bump,
    result_topic,
    round_topic,
)
from scoring.models import (
    Announcement,
    CheckIn,
    Confirmation,
    Dispute,
    Match,
    Player,
    RefereeAssignment,
    RefereeCall,
    ResultContainer,
    Round,
    RoundClock,
    Table,
    TableSeat,
    Team,
    TimesUp,
    Tournament,
    Withdrawal,
)

#: The states of a result the standings count (or may: blind confirmation counts confirmed ones).
COUNTED = frozenset({ResultContainer.Status.FINISHED, ResultContainer.Status.CONFIRMED})
#: Fields a save of a result being played may name without its round page changing.
RUNNING_FIELDS = frozenset({"version", "updated_at"})


def _round_of(instance, field: str = "round") -> tuple[int, int] | None:
    """``(tournament_id, number)`` of the round ``instance.<field>`` (read if not at hand)."""
    descriptor = type(instance)._meta.get_field(field)
    if descriptor.is_cached(instance):
        rnd = getattr(instance, field)
        return rnd.tournament_id, rnd.number
    row = Round.objects.filter(pk=getattr(instance, f"{field}_id")).values_list("tournament_id", "number").first()
    return tuple(row) if row else None


def _making(kwargs: dict) -> bool:
    """A save may make a missing counters row; a delete (maybe of the whole tournament) never."""
    return kwargs.get("signal") is not post_delete


def _result_round(container_id: int | None, model) -> tuple[int, int] | None:
    if container_id is None:
        return None
    row = model.objects.filter(pk=container_id).values_list("round__tournament_id", "round__number").first()
    return tuple(row) if row else None


def on_transition(sender, instance, source=None, target=None, **kwargs) -> None:
    """Note a change of state of a result or a round (not a transition to the state it is in: a
    hand in a table being played) and the state it left, for its next save."""
    if isinstance(instance, (ResultContainer, Round)) and source != target and not hasattr(instance, "_live_from"):
        instance._live_from = source


def _left(instance):
    """The state ``instance`` left since its last save (``None``: none), forgotten."""
    return instance.__dict__.pop("_live_from", None)


def on_container_saved(sender, instance, created=False, update_fields=None, **kwargs) -> None:
    """A match or table saved (see the module for what moves)."""
    where = _round_of(instance)
    left = _left(instance)
    if where is None:
        return
    tournament_id, number = where
    running = (instance.status == ResultContainer.Status.PLAYING and left is None and not created
               and (update_fields is None or set(update_fields) <= RUNNING_FIELDS))
    topics = [result_topic(instance.pk), board_topic(number)]
    if not running:
        topics.append(round_topic(number))
    if instance.status in COUNTED or left in COUNTED:
        topics.append(STANDINGS)
    bump(tournament_id, *topics, make=_making(kwargs))


def on_seat_saved(sender, instance, update_fields=None, **kwargs) -> None:
    """A table's seat saved or deleted: its table's page unless only the running total changed."""
    if update_fields is not None and set(update_fields) <= {"total"}:
        return
    where = _result_round(instance.table_id, Table)
    if where is not None:
        bump(where[0], result_topic(instance.table_id), round_topic(where[1]), STANDINGS, make=_making(kwargs))


def on_round_saved(sender, instance, created=False, **kwargs) -> None:
    """A round made or changed: its page and board; made, published or back to a draft: every
    page's navigation and the standings too; started, closed or reopened: the hall (its current
    round)."""
    left = _left(instance)
    topics = [round_topic(instance.number)]
    if created or Round.Status.DRAFT in (left, instance.status if left else None):
        topics += [TOURNAMENT, STANDINGS, HALL]
    elif left is not None:
        topics.append(HALL)
    bump(instance.tournament_id, *topics, make=_making(kwargs))


def on_tournament_saved(sender, instance, created=False, **kwargs) -> None:
    """The tournament's own fields changed: every page."""
    if not created:
        bump(instance.pk, *EVERYTHING)


def on_entrant_saved(sender, instance, **kwargs) -> None:
    """A team or player made, renamed, withdrawn or deleted."""
    bump(instance.tournament_id, ENTRANTS, STANDINGS, make=_making(kwargs))


def on_presence_saved(sender, instance, **kwargs) -> None:
    """A check-in or a withdrawal."""
    bump(instance.tournament_id, HALL, ENTRANTS, STANDINGS, make=_making(kwargs))


def on_round_hall_saved(sender, instance, **kwargs) -> None:
    """The clock, time's up, a zone or a call of a round."""
    where = _round_of(instance)
    if where is not None:
        topics = [HALL, board_topic(where[1])]
        if isinstance(instance, (RoundClock, TimesUp)):
            topics.append(round_topic(where[1]))
        bump(where[0], *topics, make=_making(kwargs))


def on_announcement_saved(sender, instance, **kwargs) -> None:
    """An announcement made or withdrawn."""
    bump(instance.tournament_id, HALL, make=_making(kwargs))


def on_verdict_saved(sender, instance, **kwargs) -> None:
    """A confirmation or a dispute of a result (or their change)."""
    for model, container_id in ((Match, instance.match_id), (Table, instance.table_id)):
        where = _result_round(container_id, model)
        if where is not None:
            bump(where[0], result_topic(container_id), round_topic(where[1]), STANDINGS, make=_making(kwargs))


def connect() -> None:
    """Connect the receivers (once; :meth:`scoring.apps.ScoringConfig.ready`)."""
    post_transition.connect(on_transition, dispatch_uid="live.transition")
    # Deletes: only what a service deletes one by one (zones). Everything else is deleted by
    # cascade with its tournament or round, or in a draft (the services bump), so no receiver
    # makes a tournament's deletion send a signal per row.
    pairs = [((Match, Table), on_container_saved, (post_save,)),
             ((TableSeat,), on_seat_saved, (post_save,)),
             ((Round,), on_round_saved, (post_save,)),
             ((Tournament,), on_tournament_saved, (post_save,)),
             ((Team, Player), on_entrant_saved, (post_save,)),
             ((CheckIn, Withdrawal), on_presence_saved, (post_save,)),
             ((RoundClock, TimesUp, RefereeCall), on_round_hall_saved, (post_save,)),
             ((RefereeAssignment,), on_round_hall_saved, (post_save, post_delete)),
             ((Announcement,), on_announcement_saved, (post_save,)),
             ((Confirmation, Dispute), on_verdict_saved, (post_save,))]
    for models, receiver, signals in pairs:
        for model in models:
            for signal in signals:
                signal.connect(receiver, sender=model, dispatch_uid=f"live.{receiver.__name__}.{model.__name__}.{signal is post_save}")
