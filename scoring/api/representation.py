"""The API's data, built from the models, the result kind and the game's adapter (nothing is
computed here: totals, scores and standings are the services' numbers). The serializers of
:mod:`scoring.api.serializers` document these dicts and keep the output to their fields.

What differs between Tai Pan matches and four-player tables is asked of the result's kind
(:mod:`scoring.kinds`); record rows and running totals are the presenter's
(:mod:`scoring.results.presenter`), what the caller may see the result sheet's
(:func:`scoring.results.sheet.refusal`).
"""
from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.urls import reverse

from scoring import policy
from scoring.kinds import ResultKind, kind_for, kind_of
from scoring.models import ResultContainer, Round, Tournament
from scoring.policy import Perm
from scoring.results import presenter, sheet
from scoring.standings import placement
from scoring.standings.player_tiebreaks import REGISTRY as PLAYER_TIEBREAKS
from scoring.standings.player_tiebreaks import keys_of as player_tiebreak_keys
from scoring.standings.tiebreaks import NSKT_DEFAULT, REGISTRY


def _url(request, name: str, *args) -> str:
    return request.build_absolute_uri(reverse(f"api:{name}", args=list(args)))


def result_url(request, tournament: Tournament, container: ResultContainer) -> str:
    """The API URL of a match or table."""
    kind = kind_of(container).key
    return _url(request, f"{kind}-detail", tournament.slug, container.pk)


def _team_tiebreaks(tournament: Tournament) -> list[dict[str, str]]:
    out = []
    for key in tournament.tiebreaks or NSKT_DEFAULT:
        cls = REGISTRY.get(key)
        out.append({"key": key, "label": str(getattr(cls, "label", key))})
    return out


def _player_tiebreaks(tournament: Tournament) -> list[dict[str, str]]:
    if not placement.stored(tournament.placement).enabled:
        return []
    return [{"key": key, "label": str(PLAYER_TIEBREAKS[key].label)} for key in player_tiebreak_keys(tournament.tiebreaks)]


#: Tie-breaks of each kind of entrant: teams have the tournament's ordered list (an empty setting
#: is the NSKT default); players have theirs with placement points (after placement points and
#: total), none without (ranked by their total alone).
TIEBREAKS = {"teams": _team_tiebreaks, "players": _player_tiebreaks}


def tiebreaks(tournament: Tournament) -> list[dict[str, str]]:
    """The tournament's tie-breaks in order, ``[{"key", "label"}]``."""
    return TIEBREAKS[str(tournament.adapter.entrants)](tournament)


# --------------------------------------------------------------------------- tournaments


def tournament_summary(request, t: Tournament) -> dict[str, Any]:
    adapter = t.adapter
    return {
        "slug": t.slug,
        "name": t.name,
        "game": t.game,
        "game_label": str(adapter.label),
        "entrants": str(adapter.entrants),
        "kind": kind_for(adapter).key,
        "status": t.status,
        "venue": t.venue,
        "starts_on": t.starts_on,
        "url": _url(request, "tournament-detail", t.slug),
        "page": request.build_absolute_uri(t.get_absolute_url()),
    }


def visible_rounds(actor, t: Tournament):
    """The tournament's rounds the actor may see (drafts only with ``VIEW_DRAFTS``)."""
    rounds = t.rounds.all()
    if not policy.has_perm(actor, Perm.VIEW_DRAFTS, t):
        rounds = rounds.exclude(status=Round.Status.DRAFT)
    return rounds.order_by("number")


def round_summaries(request, actor, t: Tournament) -> list[dict[str, Any]]:
    kind = kind_for(t.adapter)
    rounds = visible_rounds(actor, t).annotate(table_count=Count(kind.round_related, distinct=True))
    return [{"number": r.number, "status": r.status, "tables": r.table_count,
             "url": _url(request, "round-detail", t.slug, r.number)} for r in rounds]


def tournament_detail(request, actor, t: Tournament) -> dict[str, Any]:
    adapter = t.adapter
    return {
        **tournament_summary(request, t),
        "rules": t.rules,
        "round_format": str(t.round_format),
        "hands_per_round": t.hands_per_round,
        "blind_confirmation": t.blind_confirmation,
        "player_entry": t.player_entry,
        "verification": t.verification,
        "entry_mode": t.entry_mode,
        "first_round_method": t.first_round_method,
        "avoid_same_club": t.avoid_same_club,
        "round_minutes": t.round_minutes,
        "clock_warning_minutes": t.clock_warning_minutes,
        "public_names": t.public_names,
        "clock": _url(request, "clock", t.slug),
        "announcements": _url(request, "announcement-list", t.slug),
        "checkin_required": t.checkin_required,
        "forfeit_score": t.forfeit_score,
        "forfeit_points": t.forfeit_points,
        "sides": list(adapter.sides),
        "side_labels": [str(x) for x in adapter.side_labels()],
        "record_noun": str(adapter.record_noun[0]),
        "tiebreaks": tiebreaks(t),
        "placement": placement.describe(placement.stored(t.placement)),
        "rounds": round_summaries(request, actor, t),
        "standings": _url(request, "standings", t.slug),
    }


# --------------------------------------------------------------------------- tables and results


def _sides(kind: ResultKind, container: ResultContainer, adapter, totals: list[int]) -> list[dict[str, Any]]:
    out = []
    for i, side in enumerate(kind.sides(container, adapter)):
        entrant = side.get("team") or side.get("player")
        out.append({
            "key": side["key"],
            "label": str(side["label"]),
            "entrant_id": entrant.pk if entrant is not None else None,
            "name": side["name"],
            "affiliation": side.get("affiliation") or "",
            "players": [{"seat": seat, "name": name} for seat, name in side.get("players") or []],
            "total": totals[i] if i < len(totals) else 0,
        })
    return out


def table_row(request, t: Tournament, container: ResultContainer) -> dict[str, Any]:
    """One table of a round: who sits where, the status and the totals so far."""
    kind, adapter = kind_of(container), t.adapter
    totals = kind.totals(container)
    if kind.is_bye(container):
        totals = [0] * len(adapter.sides)
    hidden = sheet.refusal(container, sheet.Action.SEE_TOTALS, request.user) is not None
    sides = _sides(kind, container, adapter, totals)
    if hidden:
        totals = None
        for side in sides:
            side["total"] = None
    return {
        "id": container.pk,
        "kind": kind.key,
        "round": container.round.number,
        "number": kind.number(container),
        "status": container.status,
        "ended": container.ended,
        "version": container.version,
        "bye": kind.is_bye(container),
        "sides": sides,
        "totals": totals,
        "totals_hidden": hidden,
        "note": str(kind.note(container) or ""),
        "url": result_url(request, t, container),
    }


def round_detail(request, t: Tournament, rnd: Round) -> dict[str, Any]:
    kind = kind_for(t.adapter)
    tables = []
    for container in kind.in_round(rnd):
        container.round = rnd
        tables.append(table_row(request, t, container))
    return {"number": rnd.number, "status": rnd.status, "tables": tables,
            "url": _url(request, "round-detail", t.slug, rnd.number)}


def records(request, t: Tournament, container: ResultContainer) -> list[dict[str, Any]]:
    """The result's records in order with their scores and the running totals; none while the
    result's totals are hidden from the caller (blind confirmation, :func:`scoring.results.sheet.totals_hidden`),
    as in :func:`result_detail`: ``.../records`` is then an empty list and ``.../records/{n}`` 404."""
    if sheet.refusal(container, sheet.Action.SEE_TOTALS, request.user) is not None:
        return []
    return _record_rows(request, t, container)


def _record_rows(request, t: Tournament, container: ResultContainer) -> list[dict[str, Any]]:
    kind = kind_of(container)
    name = f"{kind.key}-record"
    rs = sheet.load(container)
    # Verification per hand: each record's state until the result is confirmed (``null`` otherwise).
    verifies = t.verifies_each_record and not rs.is_bye and container.status != container.Status.CONFIRMED
    disputed = {d.record_id for d in rs.open_record_disputes} if verifies else set()
    return [{"number": row.number, "record": row.record, "summary": row.summary, "scores": list(row.scores),
             "running": list(row.running), "revision": row.rec.revision,
             "verification": presenter.verification_state(row.rec, disputed) if verifies else None,
             "url": _url(request, name, t.slug, container.pk, row.number)}
            for row in presenter.record_rows(kind, t.adapter, rs.records)]


def result_detail(request, t: Tournament, container: ResultContainer) -> dict[str, Any]:
    """A match or table with its records and totals (never who entered or confirmed them):
    ``winner`` (the winning side's key) and ``points`` (match points) where the kind has them,
    ``state`` (the carried state) where it carries one; none of them while the totals are hidden."""
    kind = kind_of(container)
    row = table_row(request, t, container)
    hidden = row["totals_hidden"]
    winner = kind.winner_index(container)
    return {
        **row,
        "winner": None if hidden or winner is None else row["sides"][winner]["key"],
        "points": None if hidden else kind.points(container),
        "state": container.state if kind.carries_state else None,
        "outcome": "" if hidden else str(presenter.outcome_text(container) or ""),
        "limit": t.adapter.record_limit(t),
        "records": [] if hidden else _record_rows(request, t, container),
    }


# --------------------------------------------------------------------------- standings


def _team_row(row) -> dict[str, Any]:
    return {k: getattr(row, k) for k in ("rank", "team_id", "name", "players", "affiliation", "played", "won", "drawn",
                                         "lost", "byes", "match_points", "point_difference", "points_scored", "buchholz",
                                         "tiebreaks", "withdrawn")}


def _player_row(row) -> dict[str, Any]:
    out = {k: getattr(row, k) for k in ("rank", "player_id", "name", "affiliation", "played", "total", "substitute",
                                        "withdrawn")}
    out["placement_points"] = placement.as_number(row.placement_points)
    out["tiebreaks"] = {k: placement.as_number(v) for k, v in row.tiebreaks.items()}
    return out


ROWS = {"teams": _team_row, "players": _player_row}


def standings(t: Tournament, rows: list, through_round: int | None) -> dict[str, Any]:
    entrants = str(t.adapter.entrants)
    return {"tournament": t.slug, "entrants": entrants, "through_round": through_round, "tiebreaks": tiebreaks(t),
            "rows": [ROWS[entrants](r) for r in rows]}
