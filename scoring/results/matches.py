"""Tai Pan match results: hands, match end, confirmation, reopening, audit and restore.

Source: DESIGN.md 2.1 (engine ``score``/``match``, the end rule), DESIGN.md 3 (round formats,
ranking, results) and issue 4 items 3-5. Every write:

1. runs in ``transaction.atomic()`` and locks the match row with ``select_for_update()``;
2. checks ``expected_version`` against ``Match.version`` (a stale form raises
   :class:`~scoring.errors.StaleVersion`);
3. validates the hand record with the engine (``engines.run("taipan", ...)``; violations propagate
   as :class:`engines.errors.RuleViolation`, nothing is saved);
4. recomputes the match's derived columns from the hand records (:func:`recompute_match`);
5. writes an :class:`~scoring.models.AuditEntry` with the old and new values;
6. increments ``Match.version``.

Derived columns (``Hand.ns``/``Hand.ew``, ``Match.total_ns``/``total_ew``/``status``/``winner``/
``points_ns``/``points_ew``) are always rebuilt from the records, never edited directly
(:func:`rebuild_scores`).

Round formats (DESIGN.md 3):

- ``target``: hands are played until the rules' target (NSKT 800); after a hand, a team at or above
  the target with a different total from the other wins; equal totals at or above the target play
  on (the engine's ``match`` command decides). A referee may end the match at the time limit: the
  higher total wins, equal totals are a draw. Match points: win 2, draw 1, loss 0.
- ``fixed_hands``: exactly ``Tournament.hands_per_round`` hands. Victory points per hand as in the
  German championships: the hand's higher score wins 2 (equal: 1 each), a double victory earns
  its team 3 (the other 0). The match's points are the sum of the victory points; the team with
  more victory points wins the match (equal: draw).
- A bye (``team_ew`` null) is a win with 0 point difference: totals 0:0, winner the NS team,
  match points 2 (``fixed_hands``: 2 per hand, as if every hand were won).
"""
from __future__ import annotations

from typing import Any

from django.db import IntegrityError, transaction
from django.db.models import Max
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import engines
from engines.errors import Collector, RuleViolation, Violation
from scoring.errors import MatchLocked, NotAllowed, ServiceError, StaleVersion
from scoring.models import AuditEntry, Confirmation, Hand, Match, Round, RoundFormat, Tournament

GAME = "taipan"
TEAMS = ("NS", "EW")

#: Match points per match (DESIGN.md 3, NSKT ranking).
WIN_POINTS, DRAW_POINTS, LOSS_POINTS = 2, 1, 0
#: Victory points per hand in the ``fixed_hands`` format (issue 4 item 5, German championships).
HAND_WIN_VP, HAND_DRAW_VP, DOUBLE_VICTORY_VP = 2, 1, 3

#: Record keys stored in ``Hand.record`` (the engine's ``score`` input without ``rules``).
RECORD_KEYS = ("calls", "first_out", "double_victory", "card_points")


# --------------------------------------------------------------------------- engine helpers


def _rules_payload(tournament: Tournament) -> dict[str, Any]:
    """``{"rules": ...}`` when the tournament sets rules, else ``{}`` (engine default: nskt)."""
    return {"rules": tournament.rules} if tournament.rules else {}


def clean_record(record: dict) -> dict:
    """The stored form of a hand record: only the engine's ``score`` input keys, ``rules`` dropped
    (the tournament's rules apply). Missing optional keys are filled with ``None``/``{}``."""
    if not isinstance(record, dict):
        raise RuleViolation([Violation("", "A hand record must be a JSON object.")])
    out = {key: record.get(key) for key in RECORD_KEYS}
    if out["calls"] is None:
        out["calls"] = {}
    # keep any extra keys the engine may accept (never "rules"), so the engine can reject unknowns
    for key, value in record.items():
        if key not in out and key != "rules":
            out[key] = value
    return out


def _team_total(value: Any) -> int:
    """A team's hand score from an engine output entry (an int or ``{"total": int, ...}``)."""
    if isinstance(value, dict):
        return int(value["total"])
    return int(value)


def score_hand(tournament: Tournament, record: dict) -> dict:
    """Engine ``score`` output for one record under the tournament's rules (DESIGN.md 2.1):
    ``{"NS": {"card_points", "double_victory", "calls", "total"}, "EW": {...}}``.
    Raises :class:`engines.errors.RuleViolation`."""
    return engines.run(GAME, "score", {**clean_record(record), **_rules_payload(tournament)})


def hand_victory_points(record: dict, ns: int, ew: int) -> tuple[int, int]:
    """Victory points (NS, EW) of one hand in the ``fixed_hands`` format: double victory 3 for
    that team (0 for the other), otherwise the higher hand score 2, equal 1 each (issue 4 item 5)."""
    dv = record.get("double_victory")
    if dv == "NS":
        return DOUBLE_VICTORY_VP, 0
    if dv == "EW":
        return 0, DOUBLE_VICTORY_VP
    if ns > ew:
        return HAND_WIN_VP, 0
    if ew > ns:
        return 0, HAND_WIN_VP
    return HAND_DRAW_VP, HAND_DRAW_VP


def evaluate(tournament: Tournament, records: list[dict], *, ended_at_time: bool = False) -> dict:
    """Score a whole match from its hand records (pure apart from the engine call).

    Returns ``{"hands": [{"NS": int, "EW": int, "running": {"NS", "EW"}, "vp": [ns, ew]?}],
    "totals": {"NS", "EW"}, "finished": bool, "winner": "NS"|"EW"|None,
    "points": {"NS", "EW"}, "ended": "target"|"time"|""}``.

    ``target`` format: engine ``match`` (its end rule); ``ended_at_time`` finishes an unfinished
    match with the higher total winning (equal: draw). ``fixed_hands``: engine ``score`` per hand,
    finished after ``hands_per_round`` hands (or at the time limit), winner by victory points.
    Raises :class:`engines.errors.RuleViolation` (fields ``hands[i]...`` for the whole match).
    """
    records = [clean_record(r) for r in records]
    fixed = tournament.round_format == RoundFormat.FIXED_HANDS
    hands_out: list[dict] = []
    if fixed:
        limit = tournament.hands_per_round or 0
        collector = Collector()
        running = {"NS": 0, "EW": 0}
        vp = {"NS": 0, "EW": 0}
        for i, record in enumerate(records):
            if limit and i >= limit:
                collector.add(f"hands[{i}]", "A hand after the match finished: this format plays {limit} hands.", limit=limit)
                continue
            try:
                out = score_hand(tournament, record)
            except RuleViolation as exc:
                collector.extend(exc, prefix=f"hands[{i}]")
                continue
            ns, ew = _team_total(out["NS"]), _team_total(out["EW"])
            running = {"NS": running["NS"] + ns, "EW": running["EW"] + ew}
            hv = hand_victory_points(record, ns, ew)
            vp = {"NS": vp["NS"] + hv[0], "EW": vp["EW"] + hv[1]}
            hands_out.append({"NS": ns, "EW": ew, "running": dict(running), "vp": list(hv)})
        collector.raise_if_any()
        finished = bool(limit) and len(records) >= limit
        ended = "target" if finished else ""
        if not finished and ended_at_time:
            finished, ended = True, "time"
        winner = None
        if finished:
            winner = "NS" if vp["NS"] > vp["EW"] else "EW" if vp["EW"] > vp["NS"] else None
        points = vp if finished else {"NS": 0, "EW": 0}
        return {"hands": hands_out, "totals": running, "finished": finished, "winner": winner,
                "points": dict(points), "ended": ended}

    running = {"NS": 0, "EW": 0}
    finished, winner = False, None
    if records:
        out = engines.run(GAME, "match", {"hands": records, **_rules_payload(tournament)})
        for entry in out["hands"]:
            ns, ew = _team_total(entry["NS"]), _team_total(entry["EW"])
            running = {"NS": running["NS"] + ns, "EW": running["EW"] + ew}
            hands_out.append({"NS": ns, "EW": ew, "running": dict(entry.get("running") or running)})
        totals = out.get("totals") or running
        running = {"NS": int(totals["NS"]), "EW": int(totals["EW"])}
        finished, winner = bool(out.get("finished")), out.get("winner")
    ended = "target" if finished else ""
    if not finished and ended_at_time:
        finished, ended = True, "time"
        winner = "NS" if running["NS"] > running["EW"] else "EW" if running["EW"] > running["NS"] else None
    if finished:
        if winner is None:
            points = {"NS": DRAW_POINTS, "EW": DRAW_POINTS}
        else:
            points = {winner: WIN_POINTS, ("EW" if winner == "NS" else "NS"): LOSS_POINTS}
    else:
        points = {"NS": 0, "EW": 0}
    return {"hands": hands_out, "totals": running, "finished": finished, "winner": winner,
            "points": points, "ended": ended}


def bye_points(tournament: Tournament) -> int:
    """Match points for a bye: a win (2); ``fixed_hands``: 2 victory points per hand (DESIGN.md 3)."""
    if tournament.round_format == RoundFormat.FIXED_HANDS:
        return HAND_WIN_VP * (tournament.hands_per_round or 0)
    return WIN_POINTS


# --------------------------------------------------------------------------- snapshots and audit


def hand_snapshot(hand: Hand) -> dict:
    """Audit value of a hand: ``{"number", "record", "ns", "ew"}``."""
    return {"number": hand.number, "record": hand.record, "ns": hand.ns, "ew": hand.ew}


def match_snapshot(match: Match) -> dict:
    """Audit value of a match result: status, totals, winner (team name or ``None``), match
    points and how it ended."""
    winner = None
    if match.winner_id:
        winner = match.team_ns.name if match.winner_id == match.team_ns_id else match.team_ew.name
    return {
        "status": match.status,
        "total_ns": match.total_ns,
        "total_ew": match.total_ew,
        "winner": winner,
        "points_ns": match.points_ns,
        "points_ew": match.points_ew,
        "ended": match.ended,
    }


def _audit(match: Match, user, action: str, object_type: str, object_id, *, old=None, new=None, reason: str = "") -> AuditEntry:
    return AuditEntry.objects.create(
        tournament_id=match.round.tournament_id,
        match=match,
        user=user if getattr(user, "is_authenticated", False) else None,
        action=action,
        object_type=object_type,
        object_id=object_id,
        reason=reason or "",
        old=old,
        new=new,
    )


# --------------------------------------------------------------------------- display rows


def hand_rows(hands, call_labels: dict) -> list[dict]:
    """Display rows for ``hands`` (ordered by number), shared by the match page and the score
    sheet: ``hand``, ``calls`` (one label per seat N, E, S, W from ``call_labels``, e.g.
    ``{"tai_pan": "TP", "grand_tai_pan": "GTP"}``), ``first_out``, ``double_victory``,
    ``cp_ns``/``cp_ew`` (card points, ``""`` on a double victory) and ``running_ns``/
    ``running_ew`` (sums of the derived ``Hand.ns``/``Hand.ew`` columns; no scoring here)."""
    rows, run_ns, run_ew = [], 0, 0
    for hand in hands:
        record = hand.record or {}
        calls = record.get("calls") or {}
        cp = record.get("card_points") or {}
        run_ns += hand.ns
        run_ew += hand.ew
        rows.append({
            "hand": hand,
            "calls": [call_labels.get(calls.get(seat), "") for seat in ("N", "E", "S", "W")],
            "first_out": record.get("first_out") or "",
            "double_victory": record.get("double_victory") or "",
            "cp_ns": cp.get("NS", ""),
            "cp_ew": cp.get("EW", ""),
            "running_ns": run_ns,
            "running_ew": run_ew,
        })
    return rows


# --------------------------------------------------------------------------- locking


def _lock(match: Match, expected_version: int | None = None) -> Match:
    """Re-read ``match`` with a row lock (inside an atomic block) and check the version."""
    locked = (
        Match.objects.select_for_update(of=("self",))
        .select_related("round__tournament", "team_ns", "team_ew")
        .get(pk=match.pk)
    )
    if expected_version is not None and int(expected_version) != locked.version:
        raise StaleVersion()
    return locked


def _sync(target: Match, source: Match) -> None:
    """Copy the saved state of ``source`` into the caller's instance ``target``."""
    if target is source:
        return
    for f in Match._meta.concrete_fields:
        setattr(target, f.attname, getattr(source, f.attname))


def _ensure_editable(match: Match) -> None:
    if match.status == Match.Status.CONFIRMED:
        raise MatchLocked(_("This match is confirmed. Reopen it (with a reason) before changing it."))
    if match.is_bye:
        raise NotAllowed(_("A bye has no hands."))
    if match.round.status == Round.Status.DRAFT:
        raise NotAllowed(_("This round is still a draft: publish it before entering results."))


def _ensure_can_add(match: Match) -> None:
    _ensure_editable(match)
    if match.status == Match.Status.FINISHED:
        raise MatchLocked(_("This match is finished: no more hands can be added."))


def check_can_add(match: Match) -> None:
    """Raise the error that :func:`add_hand` would raise for the match's state (confirmed,
    finished, a bye, a draft round), so a page can say why no hand can be added."""
    _ensure_can_add(match)


def _mark_round_in_progress(rnd: Round) -> None:
    """The first hand entered in a published round moves it to in progress (issue 4 item 2)."""
    if rnd.status == Round.Status.PUBLISHED:
        Round.objects.filter(pk=rnd.pk, status=Round.Status.PUBLISHED).update(status=Round.Status.IN_PROGRESS)
        rnd.status = Round.Status.IN_PROGRESS


def _records_of(match: Match) -> list[Hand]:
    return list(match.hands.order_by("number"))


# --------------------------------------------------------------------------- recompute


def recompute_match(match: Match, *, save: bool = True) -> Match:
    """Rebuild the match's derived columns from its hand records (DESIGN.md 1: derived data can
    always be rebuilt): every hand's ``ns``/``ew``, ``total_ns``/``total_ew``, ``status``
    (pending/playing/finished, or confirmed while an active :class:`Confirmation` exists),
    ``winner``, ``points_ns``/``points_ew`` and ``ended`` (kept as ``time`` when the referee ended
    it and the target was not reached). Uses engine ``match`` (``score`` per hand in the
    ``fixed_hands`` format). ``save=False`` sets the fields without writing. Returns ``match``.
    Raises :class:`engines.errors.RuleViolation` when the stored records break the rules."""
    tournament = match.round.tournament
    confirmed = match.pk is not None and match.confirmations.filter(active=True).exists()
    if match.is_bye:
        match.total_ns = match.total_ew = 0
        match.winner_id = match.team_ns_id
        match.points_ns, match.points_ew = bye_points(tournament), 0
        match.ended = ""
        match.status = Match.Status.CONFIRMED if confirmed else Match.Status.FINISHED
        if save:
            match.save(update_fields=["total_ns", "total_ew", "winner", "points_ns", "points_ew", "ended", "status", "updated_at"])
        return match
    hands = _records_of(match) if match.pk else []
    result = evaluate(tournament, [h.record for h in hands], ended_at_time=match.ended == Match.Ended.TIME)
    changed = []
    for hand, out in zip(hands, result["hands"], strict=True):
        if hand.ns != out["NS"] or hand.ew != out["EW"]:
            hand.ns, hand.ew = out["NS"], out["EW"]
            changed.append(hand)
    match.total_ns, match.total_ew = result["totals"]["NS"], result["totals"]["EW"]
    match.points_ns, match.points_ew = result["points"]["NS"], result["points"]["EW"]
    match.winner_id = {"NS": match.team_ns_id, "EW": match.team_ew_id}.get(result["winner"] or "")
    match.ended = result["ended"]
    if confirmed:
        match.status = Match.Status.CONFIRMED
    elif result["finished"]:
        match.status = Match.Status.FINISHED
    elif hands:
        match.status = Match.Status.PLAYING
    else:
        match.status = Match.Status.PENDING
    if save:
        if changed:
            Hand.objects.bulk_update(changed, ["ns", "ew"])
        match.save(update_fields=["total_ns", "total_ew", "winner", "points_ns", "points_ew", "ended", "status", "updated_at"])
    return match


def rebuild_scores(tournament: Tournament | None = None) -> int:
    """Recompute every hand's ``ns``/``ew`` and every match's derived columns from the hand
    records (``manage.py rebuild_scores``), for one tournament or all Tai Pan tournaments.
    Returns the number of matches recomputed."""
    qs = Match.objects.select_related("round__tournament", "team_ns", "team_ew").order_by("round__tournament_id", "round__number", "table")
    if tournament is not None:
        qs = qs.filter(round__tournament=tournament)
    else:
        qs = qs.filter(round__tournament__game="taipan")
    count = 0
    for match in qs:
        with transaction.atomic():
            recompute_match(match)
        count += 1
    return count


# --------------------------------------------------------------------------- preview


def preview_hand(match: Match, record: dict, *, replace_number: int | None = None) -> dict:
    """What saving ``record`` would give, without saving: the engine ``score`` output of the
    record (``{"NS": {...,"total"}, "EW": {...}}``) plus ``"running"`` (``{"NS", "EW"}`` match
    totals after this hand), ``"finished"`` (bool) and ``"winner"`` (``"NS"``/``"EW"``/``None``)
    for the match with this hand added (or replacing hand ``replace_number``).
    Raises :class:`engines.errors.RuleViolation` (record fields) and
    :class:`~scoring.errors.MatchLocked` (confirmed match, or adding to a finished one)."""
    tournament = match.round.tournament
    if replace_number is None:
        _ensure_can_add(match)
    else:
        _ensure_editable(match)
    out = score_hand(tournament, record)
    hands = _records_of(match)
    records = [h.record for h in hands]
    if replace_number is None:
        records.append(clean_record(record))
        index = len(records) - 1
    else:
        numbers = [h.number for h in hands]
        if replace_number not in numbers:
            raise ServiceError(_("There is no hand {number} in this match.").format(number=replace_number))
        index = numbers.index(replace_number)
        records[index] = clean_record(record)
    result = evaluate(tournament, records, ended_at_time=match.ended == Match.Ended.TIME and replace_number is not None)
    preview = dict(out)
    preview["running"] = dict(result["hands"][index]["running"])
    preview["finished"] = result["finished"]
    preview["winner"] = result["winner"]
    preview["totals"] = dict(result["totals"])
    return preview


# --------------------------------------------------------------------------- hand writes


def add_hand(match: Match, record: dict, user, *, expected_version: int | None = None) -> Hand:
    """Append a hand to ``match`` (engine-validated) and recompute the match.

    Refused with :class:`MatchLocked` when the match is finished or confirmed, with
    :class:`StaleVersion` on a version mismatch; rule violations raise
    :class:`engines.errors.RuleViolation` and nothing is saved. Audit: ``create``."""
    with transaction.atomic():
        locked = _lock(match, expected_version)
        _ensure_can_add(locked)
        record = clean_record(record)
        score_hand(locked.round.tournament, record)  # record-level violations with plain field names
        number = (locked.hands.aggregate(n=Max("number"))["n"] or 0) + 1
        hand = Hand.objects.create(match=locked, number=number, record=record, entered_by=user if getattr(user, "is_authenticated", False) else None)
        recompute_match(locked)
        _mark_round_in_progress(locked.round)
        hand.refresh_from_db()
        locked.version += 1
        locked.save(update_fields=["version", "updated_at"])
        _audit(locked, user, AuditEntry.Action.CREATE, "hand", hand.pk, old=None, new=hand_snapshot(hand))
    _sync(match, locked)
    return hand


def update_hand(hand: Hand, record: dict, user, *, expected_version: int | None = None, reason: str = "") -> Hand:
    """Replace the record of ``hand`` (engine-validated) and recompute the match.

    Refused with :class:`MatchLocked` for a confirmed match (reopen first). Correcting a hand of a
    finished match is allowed; if the correction makes the match end earlier so that later hands
    would come after the end, the engine's violation (field ``hands[i]``) is raised and nothing
    changes. Audit: ``update`` with old and new values and ``reason``."""
    with transaction.atomic():
        locked = _lock(hand.match, expected_version)
        _ensure_editable(locked)
        current = Hand.objects.select_for_update().get(pk=hand.pk, match=locked)
        old = hand_snapshot(current)
        record = clean_record(record)
        score_hand(locked.round.tournament, record)
        current.record = record
        current.entered_by = user if getattr(user, "is_authenticated", False) else current.entered_by
        current.save(update_fields=["record", "entered_by", "updated_at"])
        recompute_match(locked)
        current.refresh_from_db()
        locked.version += 1
        locked.save(update_fields=["version", "updated_at"])
        _audit(locked, user, AuditEntry.Action.UPDATE, "hand", current.pk, old=old, new=hand_snapshot(current), reason=reason)
    _sync(hand.match, locked)
    for f in Hand._meta.concrete_fields:
        setattr(hand, f.attname, getattr(current, f.attname))
    return hand


def delete_hand(hand: Hand, user, *, expected_version: int | None = None, reason: str = "") -> None:
    """Delete ``hand``; later hands move up one number so numbers stay 1..n; recompute the match.

    Refused with :class:`MatchLocked` for a confirmed match. Audit: ``delete`` with the old value
    (restorable with :func:`restore_audit_entry`)."""
    with transaction.atomic():
        locked = _lock(hand.match, expected_version)
        _ensure_editable(locked)
        current = Hand.objects.get(pk=hand.pk, match=locked)
        old = hand_snapshot(current)
        number, hand_id = current.number, current.pk
        current.delete()
        for later in locked.hands.filter(number__gt=number).order_by("number"):
            later.number -= 1
            later.save(update_fields=["number", "updated_at"])
        recompute_match(locked)
        locked.version += 1
        locked.save(update_fields=["version", "updated_at"])
        _audit(locked, user, AuditEntry.Action.DELETE, "hand", hand_id, old=old, new=None, reason=reason)
    _sync(hand.match, locked)


# --------------------------------------------------------------------------- match results


def end_match_at_time(match: Match, user, *, expected_version: int | None = None, reason: str = "") -> Match:
    """End an unfinished match at the time limit (DESIGN.md 3): the higher total wins, equal
    totals are a draw (``fixed_hands``: more victory points wins). Refused for a bye, a finished
    or a confirmed match. Audit: ``end``."""
    with transaction.atomic():
        locked = _lock(match, expected_version)
        _ensure_editable(locked)
        _end_at_time(locked, user, AuditEntry.Action.END, reason)
    _sync(match, locked)
    return match


def _end_at_time(locked: Match, user, action: str, reason: str) -> None:
    """End the locked, unfinished ``locked`` match at the time limit (higher total wins, equal is a
    draw), bump its version and audit it as ``action`` (``end``, or ``restore`` of an end)."""
    if locked.status == Match.Status.FINISHED:
        raise MatchLocked(_("This match is already finished."))
    old = match_snapshot(locked)
    locked.ended = Match.Ended.TIME
    recompute_match(locked)
    locked.version += 1
    locked.save(update_fields=["version", "updated_at"])
    _audit(locked, user, action, "match", locked.pk, old=old, new=match_snapshot(locked), reason=reason)


def entered_by_users(match: Match) -> set[int]:
    """Ids of every user who entered, edited, deleted or restored a hand of ``match`` or ended it."""
    ids = set(match.hands.exclude(entered_by=None).values_list("entered_by_id", flat=True))
    ids |= set(
        AuditEntry.objects.filter(
            match=match,
            action__in=[AuditEntry.Action.CREATE, AuditEntry.Action.UPDATE, AuditEntry.Action.DELETE,
                        AuditEntry.Action.RESTORE, AuditEntry.Action.END],
        ).exclude(user=None).values_list("user_id", flat=True)
    )
    return ids


def _parse_totals(totals: dict) -> dict[str, int]:
    try:
        return {team: int(totals[team]) for team in TEAMS}
    except (KeyError, TypeError, ValueError):
        raise ServiceError(_("Type both final totals (NS and EW) as whole numbers."), field="totals") from None


def confirm_match(match: Match, user, *, totals: dict | None = None) -> Confirmation:
    """Confirm a finished match's result as a second person (issue 4 item 3).

    - The match must be finished (or a bye) and not already confirmed (:class:`NotAllowed`).
    - ``user`` must differ from everyone who entered, edited or ended it (:class:`NotAllowed`).
    - ``totals`` (``{"NS": int, "EW": int}``): the final totals re-typed blind; required when the
      tournament has ``blind_confirmation``; when given they must equal the match totals,
      otherwise :class:`NotAllowed` with ``field="totals"`` and nothing is saved.
    - The database constraint ``one_active_confirmation_per_match`` guarantees at most one active
      confirmation; a concurrent second confirmation raises :class:`NotAllowed`.
    Audit: ``confirm``. Returns the new :class:`Confirmation`."""
    if not getattr(user, "is_authenticated", False):
        raise NotAllowed(_("Log in to confirm a result."))
    with transaction.atomic():
        locked = _lock(match)
        if locked.status == Match.Status.CONFIRMED:
            raise NotAllowed(_("This match is already confirmed."))
        if locked.status != Match.Status.FINISHED:
            raise NotAllowed(_("Only a finished match can be confirmed."))
        if user.pk in entered_by_users(locked):
            raise NotAllowed(_("A different person must confirm the result than the one who entered the hands."))
        tournament = locked.round.tournament
        if totals is None and tournament.blind_confirmation and not locked.is_bye:
            raise ServiceError(_("Type the final totals from the score sheet."), field="totals")
        typed = _parse_totals(totals) if totals is not None else None
        if typed is not None and (typed["NS"], typed["EW"]) != (locked.total_ns, locked.total_ew):
            raise NotAllowed(
                _("The totals you typed (NS {ns}, EW {ew}) do not match the entered hands. Check the score sheet and the hands.").format(ns=typed["NS"], ew=typed["EW"]),
                field="totals",
            )
        old = match_snapshot(locked)
        try:
            with transaction.atomic():
                confirmation = Confirmation.objects.create(
                    match=locked, confirmed_by=user, totals={"NS": locked.total_ns, "EW": locked.total_ew}
                )
        except IntegrityError:
            raise NotAllowed(_("This match is already confirmed.")) from None
        locked.status = Match.Status.CONFIRMED
        locked.version += 1
        locked.save(update_fields=["status", "version", "updated_at"])
        _audit(locked, user, AuditEntry.Action.CONFIRM, "match", locked.pk, old=old, new=match_snapshot(locked))
    _sync(match, locked)
    return confirmation


def reopen_match(match: Match, user, reason: str) -> Match:
    """Reopen a confirmed match so it can be corrected (issue 4 item 3). ``reason`` is required
    (``ServiceError`` on field ``reason``). The confirmation is kept, marked inactive with who,
    when and why. A closed round goes back to in progress (it must be closed again once the
    match is confirmed again), also when a later round exists already (whose pairing was made on
    the old result: the caller tells the user). Audit: ``reopen``."""
    if not (reason or "").strip():
        raise ServiceError(_("Give a reason for reopening."), field="reason")
    with transaction.atomic():
        locked = _lock(match)
        if locked.status != Match.Status.CONFIRMED:
            raise NotAllowed(_("Only a confirmed match can be reopened."))
        old = match_snapshot(locked)
        locked.confirmations.filter(active=True).update(
            active=False, reopened_by=user, reopened_at=timezone.now(), reopen_reason=reason.strip()
        )
        recompute_match(locked)
        locked.version += 1
        locked.save(update_fields=["version", "updated_at"])
        rnd = locked.round
        if rnd.status == Round.Status.CLOSED:
            Round.objects.filter(pk=rnd.pk).update(status=Round.Status.IN_PROGRESS)
            rnd.status = Round.Status.IN_PROGRESS
        _audit(locked, user, AuditEntry.Action.REOPEN, "match", locked.pk, old=old, new=match_snapshot(locked), reason=reason.strip())
    _sync(match, locked)
    return match


# --------------------------------------------------------------------------- restore


def restore_audit_entry(entry: AuditEntry, user, reason: str = "") -> None:
    """Restore the version shown by an audit entry (issue 4 item 4).

    - Hand entries (``create``/``update``/``restore``): hand number N gets that entry's new record
      back (created again if it no longer exists).
    - Hand ``delete`` entries: the deleted hand is put back at its number (later hands move down).
    - Match ``end`` entries (and restores of them): the match is ended at the time limit again.
    Not possible for confirmed matches (:class:`MatchLocked`), confirm/reopen entries, or a
    restore that would change nothing (the hand already has that record) (:class:`NotAllowed`). Engine violations (e.g. a hand after the end) raise
    :class:`engines.errors.RuleViolation` and nothing changes. Audit: ``restore``."""
    if entry.match_id is None:
        raise NotAllowed(_("This entry is not about a Tai Pan match."))
    with transaction.atomic():
        locked = _lock(entry.match)
        _ensure_editable(locked)
        if entry.object_type == "match":
            if entry.action not in (AuditEntry.Action.END, AuditEntry.Action.RESTORE):
                raise NotAllowed(_("Confirmations and reopenings cannot be restored; confirm or reopen the match instead."))
            _end_at_time(locked, user, AuditEntry.Action.RESTORE, reason)
            return
        version = entry.old if entry.action == AuditEntry.Action.DELETE else entry.new
        if not version or "record" not in version:
            raise NotAllowed(_("This entry has no hand version to restore."))
        number = int(version["number"])
        record = clean_record(version["record"])
        score_hand(locked.round.tournament, record)
        hands = _records_of(locked)
        target = next((h for h in hands if h.number == number), None)
        entered = user if getattr(user, "is_authenticated", False) else None
        if entry.action != AuditEntry.Action.DELETE and target is not None and clean_record(target.record) == record:
            raise NotAllowed(_("Hand {number} already is this version: restoring it would change nothing.").format(number=number))
        if entry.action == AuditEntry.Action.DELETE or target is None:
            # put the hand back at its number: later hands move down by one
            number = min(number, len(hands) + 1)
            for later in sorted((h for h in hands if h.number >= number), key=lambda h: -h.number):
                later.number += 1
                later.save(update_fields=["number", "updated_at"])
            restored = Hand.objects.create(match=locked, number=number, record=record, entered_by=entered)
            old = None
        else:
            old = hand_snapshot(target)
            target.record = record
            target.entered_by = entered or target.entered_by
            target.save(update_fields=["record", "entered_by", "updated_at"])
            restored = target
        recompute_match(locked)
        restored.refresh_from_db()
        locked.version += 1
        locked.save(update_fields=["version", "updated_at"])
        _audit(locked, user, AuditEntry.Action.RESTORE, "hand", restored.pk, old=old, new=hand_snapshot(restored),
               reason=reason or _("Restored from the audit entry of {when}.").format(when=entry.created_at.strftime("%Y-%m-%d %H:%M:%S")))
    _sync(entry.match, locked)
