"""What drawing and closing rounds share: which results of a round are still open, and the rule
that a round is drawn only once every earlier round is closed (docs/tournaments.md: "a round closes only
when every match is confirmed")."""
from __future__ import annotations

from django.db.models import QuerySet
from django.utils.translation import gettext_lazy as _

from scoring.draw.signals import round_closed, send_on_commit
from scoring.errors import NotAllowed
from scoring.games.base import EntrantKind
from scoring.kinds import kind_for
from scoring.models import ResultContainer, Round, Tournament


def containers(rnd: Round) -> QuerySet[ResultContainer]:
    """The round's results (matches or tables, by the tournament's game)."""
    kind = kind_for(rnd.tournament.adapter)
    return kind.container_model.objects.filter(round=rnd)


def unconfirmed_numbers(rnd: Round) -> list[int]:
    """Table numbers of the round's results that are not confirmed yet (byes need none)."""
    kind = kind_for(rnd.tournament.adapter)
    qs = kind.needing_confirmation(rnd).exclude(status=ResultContainer.Status.CONFIRMED)
    return list(qs.order_by(kind.number_field).values_list(kind.number_field, flat=True))


def close_locked(rnd: Round) -> None:
    """Close the locked round ``rnd`` (published or in progress) when every result is confirmed;
    :class:`NotAllowed` naming the open tables otherwise."""
    if not rnd.is_open:
        raise NotAllowed(_("Only a published or running round can be closed; round {number} is {status}.").format(
            number=rnd.number, status=rnd.get_status_display()))
    open_tables = unconfirmed_numbers(rnd)
    if open_tables:
        raise NotAllowed(_("Round {number} cannot be closed: the result of table(s) {tables} is not confirmed yet.").format(
            number=rnd.number, tables=", ".join(str(t) for t in open_tables)))
    rnd.close()
    rnd.save(update_fields=["status"])
    send_on_commit(round_closed, rnd, None)


def require_entrants(tournament: Tournament, kind: EntrantKind, message) -> None:
    """:class:`NotAllowed` with ``message`` unless the tournament's game has entrants of ``kind``
    (a round of teams is paired, a round of players seated)."""
    if tournament.adapter.entrants != kind:
        raise NotAllowed(message)


def next_round_number(tournament: Tournament) -> int:
    """The number of the round drawn next: the last round's number + 1 (a draft counts)."""
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    return (last or 0) + 1


def require_earlier_closed(tournament: Tournament, number: int) -> None:
    """Inside the tournament's lock: every round before ``number`` must be closed. A round whose
    every result is confirmed is closed here on the way (locked, through its transition); any
    other open round raises :class:`NotAllowed` naming its open tables. A finished tournament
    draws no more rounds (resume it first)."""
    if tournament.status == Tournament.Status.FINISHED:
        raise NotAllowed(_("The tournament is finished: resume it before drawing another round."))
    for rnd in Round.objects.select_for_update().select_related("tournament").filter(tournament=tournament, number__lt=number).exclude(status=Round.Status.CLOSED).order_by("number"):
        if rnd.status == Round.Status.DRAFT:
            raise NotAllowed(_("Round {number} is still a draft: publish or edit it first.").format(number=rnd.number))
        open_tables = unconfirmed_numbers(rnd)
        if open_tables:
            raise NotAllowed(_("Round {number} is not closed: the result of table(s) {tables} is not confirmed yet.").format(
                number=rnd.number, tables=", ".join(map(str, open_tables))))
        close_locked(rnd)
