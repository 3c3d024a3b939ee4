"""A no-show after the draw (issue 23 item 3; docs/hall.md "No-show after the draw").

The rule, one per kind of entrants:

- **Tai Pan (a match of two teams)**: the organiser records that a team did not show up and
  chooses one of two rules (:func:`match_no_show`), both saved on the match and derived by the
  result sheet (:func:`scoring.results.sheet.recompute`), so ``rebuild_scores`` and the
  standings give the same numbers from the stored matches:

  - ``"forfeit"`` (:data:`FORFEIT`): the match stays between the two teams and is finished
    without hands: the team that is there wins with the tournament's *forfeit score* in card
    points (``Tournament.forfeit_score``, default the match target, e.g. 800 : 0 under NSKT
    rules) and *forfeit match points* (``Tournament.forfeit_points``, default a win's 2); the
    absent team gets 0 and 0 and a loss. Like every finished result it is confirmed by a second
    person. The two teams count as having met (no rematch later).
  - ``"bye"`` (:data:`BYE`): the match becomes a **bye for the team that is there**, saved like
    any drawn bye (a win 0:0 with the game's bye points, finished at once, no confirmation); the
    present team counts as having had its bye (the Swiss pairing gives it no second one). The
    absent team has no match in that round (it scores nothing, like an entrant not paired).

  Only a match without hands, in a round that is not closed.
- **Four-player games (a table of four)**: a table is never played by three. A player who is
  not there is replaced by a **substitute** (:func:`table_no_show`): a player of the tournament
  who is not seated in that round (usually one marked "substitute") takes the seat. Only a table
  without deals, in a round that is not closed. Without a substitute the organiser seats the
  draft again (or withdraws the player and re-seats) before publishing.

Both write one audit entry on the result with the reason (required) and lock the tournament,
the round and the result, in that order (the draw's order).
"""
from __future__ import annotations

from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import gettext_noop

from scoring import policy
from scoring.errors import NotAllowed, ServiceError
from scoring.locking import lock
from scoring.models import AuditEntry, Deal, Hand, Match, Player, Round, Table, TableSeat, Tournament
from scoring.policy import Perm
from scoring.results import audit
from scoring.results.sheet import recompute

#: The pairing reason of a match turned into a bye by a no-show (translated when shown).
NO_SHOW_BYE = gettext_noop("Bye: {team} did not show up")
#: The two no-show rules of a match.
FORFEIT, BYE = "forfeit", "bye"


def _require_reason(reason: str) -> str:
    text = (reason or "").strip()
    if not text:
        raise ServiceError(_("Give a reason (for the audit trail)."), field="reason")
    return text


def _lock_round(tournament_id: int, round_id: int, actor) -> Round:
    tournament = lock(Tournament, tournament_id)
    policy.require(actor, Perm.MANAGE, tournament)
    rnd = lock(Round.objects.select_related("tournament"), round_id)
    if rnd.status == Round.Status.CLOSED:
        raise NotAllowed(_("Round {number} is closed: reopen it first.").format(number=rnd.number))
    return rnd


def match_no_show(match: Match, actor, *, absent_team_id: int, reason: str, rule: str = FORFEIT) -> Match:
    """Team ``absent_team_id`` of ``match`` did not show up: a forfeit win for the other team
    (``rule="forfeit"``) or a bye for it (``rule="bye"``; see the module). Organisers only
    (``PermissionDenied``); :class:`NotAllowed` for a bye, a forfeit already, a match with hands,
    a closed round or a team that is not in the match; :class:`ServiceError` on ``reason``
    without a reason, on ``rule`` for an unknown rule. Returns the match, reloaded."""
    text = _require_reason(reason)
    if rule not in (FORFEIT, BYE):
        raise ServiceError(_("Choose a forfeit or a bye."), field="rule")
    with transaction.atomic():
        _lock_round(match.round.tournament_id, match.round_id, actor)
        locked = lock(Match.objects.select_related("round__tournament", "team_ns", "team_ew"), match.pk)
        if locked.team_ew_id is None or locked.forfeit:
            raise NotAllowed(_("This match is decided already (a bye or a forfeit)."))
        absent_team_id = int(absent_team_id)
        if absent_team_id not in (locked.team_ns_id, locked.team_ew_id):
            raise NotAllowed(_("That team does not play at this table."), field="team")
        if Hand.objects.filter(match=locked).exists():
            raise NotAllowed(_("Table {table} already has hands: a no-show is only for a match that has not started.").format(
                table=locked.table))
        absent = locked.team_ns if absent_team_id == locked.team_ns_id else locked.team_ew
        present = locked.team_ew if absent is locked.team_ns else locked.team_ns
        old = {"team_ns": locked.team_ns_id, "team_ew": locked.team_ew_id, "status": locked.status}
        if rule == FORFEIT:
            locked.forfeit = "NS" if absent is locked.team_ns else "EW"
            locked.version += 1
            locked.save(update_fields=["forfeit", "version", "updated_at"])
            recompute(locked)
            audit.write_for(locked, actor, AuditEntry.Action.UPDATE, "no_show", absent.pk, old=old,
                            new={"forfeit": locked.forfeit, "absent": absent.pk, "rule": FORFEIT,
                                 "totals": [locked.total_ns, locked.total_ew], "points": [locked.points_ns, locked.points_ew]},
                            reason=text)
            match.refresh_from_db()
            return match
        locked.team_ns, locked.team_ew = present, None
        locked.pairing_reason = {"template": NO_SHOW_BYE, "params": {"team": absent.name}}
        locked.pairing_note = f"Bye: {absent.name} did not show up"[:200]
        locked.version += 1
        locked.save(update_fields=["team_ns", "team_ew", "pairing_reason", "pairing_note", "version", "updated_at"])
        recompute(locked)
        audit.write_for(locked, actor, AuditEntry.Action.UPDATE, "no_show", absent.pk, old=old,
                        new={"team_ns": present.pk, "team_ew": None, "absent": absent.pk, "rule": "bye"}, reason=text)
    match.refresh_from_db()
    return match


def table_no_show(table: Table, actor, *, absent_player_id: int, substitute_id: int, reason: str) -> Table:
    """Player ``absent_player_id`` of ``table`` did not show up: ``substitute_id`` takes the seat
    (see the module). Organisers only; :class:`NotAllowed` for a table with deals, a closed
    round, an absent player not at the table, or a substitute of another tournament or already
    seated in the round; :class:`ServiceError` on ``reason`` without a reason. Returns the table."""
    text = _require_reason(reason)
    with transaction.atomic():
        rnd = _lock_round(table.round.tournament_id, table.round_id, actor)
        locked = lock(Table.objects.select_related("round__tournament"), table.pk)
        if Deal.objects.filter(table=locked).exists():
            raise NotAllowed(_("Table {table} already has deals: a no-show is only for a table that has not started.").format(
                table=locked.number))
        seat = TableSeat.objects.filter(table=locked, player_id=int(absent_player_id)).first()
        if seat is None:
            raise NotAllowed(_("That player does not sit at this table."), field="player")
        substitute = Player.objects.filter(tournament_id=rnd.tournament_id, pk=int(substitute_id)).first()
        if substitute is None:
            raise NotAllowed(_("No such player in this tournament."), field="substitute")
        if TableSeat.objects.filter(table__round=rnd, player=substitute).exists():
            raise NotAllowed(_("{name} already has a seat in round {number}.").format(name=substitute.name, number=rnd.number),
                             field="substitute")
        old_player = seat.player_id
        seat.player = substitute
        seat.save(update_fields=["player"])
        locked.version += 1
        locked.save(update_fields=["version", "updated_at"])
        audit.write_for(locked, actor, AuditEntry.Action.UPDATE, "no_show", old_player, old={"seat": seat.seat, "player": old_player},
                        new={"seat": seat.seat, "player": substitute.pk, "absent": old_player, "rule": "substitute"}, reason=text)
    table.refresh_from_db()
    return table
