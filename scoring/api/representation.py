"""The API's data, built from the models, the result storage and the game's adapter (nothing is
computed here: totals, scores and standings are the services' numbers). The serializers of
:mod:`scoring.api.serializers` document these dicts and keep the output to their fields.

What differs between Tai Pan matches and four-player tables is looked up in small tables keyed by
the storage's ``container_type`` (no game branches, ``docs/architecture.md``).
"""
from __future__ import annotations

from typing import Any

from django.db.models import Count
from django.urls import reverse

from scoring import policy
from scoring.models import ResultContainer, Round, Tournament
from scoring.policy import Perm
from scoring.results import sheet
from scoring.results.storage import MATCHES, TABLES, Storage, storage_for, storage_of
from scoring.standings.tiebreaks import NSKT_DEFAULT, REGISTRY

#: The storage of each kind of result, by the name used in the URLs (``matches``/``tables``) and
#: in the output (``kind``: ``match``/``table``).
KINDS: dict[str, Storage] = {MATCHES.container_type: MATCHES, TABLES.container_type: TABLES}
URL_KINDS: dict[str, str] = {"match": "matches", "table": "tables"}


def _url(request, name: str, *args) -> str:
    return request.build_absolute_uri(reverse(f"api:{name}", args=list(args)))


def result_url(request, tournament: Tournament, container: ResultContainer) -> str:
    """The API URL of a match or table."""
    kind = storage_of(container).container_type
    return _url(request, f"{kind}-detail", tournament.slug, container.pk)


def _team_tiebreaks(tournament: Tournament) -> list[dict[str, str]]:
    out = []
    for key in tournament.tiebreaks or NSKT_DEFAULT:
        cls = REGISTRY.get(key)
        out.append({"key": key, "label": str(getattr(cls, "label", key))})
    return out


#: Tie-breaks of each kind of entrant: teams have the tournament's ordered list (an empty setting
#: is the NSKT default); players are ranked by their total alone.
TIEBREAKS = {"teams": _team_tiebreaks, "players": lambda tournament: []}


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
        "kind": storage_for(adapter).container_type,
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
    storage = storage_for(t.adapter)
    rounds = visible_rounds(actor, t).annotate(table_count=Count(storage.round_related, distinct=True))
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
        "sides": list(adapter.sides),
        "side_labels": [str(x) for x in adapter.side_labels()],
        "record_noun": str(adapter.record_noun[0]),
        "tiebreaks": tiebreaks(t),
        "rounds": round_summaries(request, actor, t),
        "standings": _url(request, "standings", t.slug),
    }


# --------------------------------------------------------------------------- tables and results


def _sides(storage: Storage, container: ResultContainer, adapter, totals: list[int]) -> list[dict[str, Any]]:
    out = []
    for i, side in enumerate(storage.sides(container, adapter)):
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
    storage, adapter = storage_of(container), t.adapter
    totals = storage.totals(container)
    if storage.is_bye(container):
        totals = [0] * len(adapter.sides)
    hidden = sheet.totals_hidden(container, request.user)
    sides = _sides(storage, container, adapter, totals)
    if hidden:
        totals = None
        for side in sides:
            side["total"] = None
    return {
        "id": container.pk,
        "kind": storage.container_type,
        "round": container.round.number,
        "number": storage.number(container),
        "status": container.status,
        "ended": container.ended,
        "version": container.version,
        "bye": storage.is_bye(container),
        "sides": sides,
        "totals": totals,
        "totals_hidden": hidden,
        "note": str(storage.note(container) or ""),
        "url": result_url(request, t, container),
    }


def round_detail(request, t: Tournament, rnd: Round) -> dict[str, Any]:
    storage = storage_for(t.adapter)
    tables = []
    for container in storage.in_round(rnd):
        container.round = rnd
        tables.append(table_row(request, t, container))
    return {"number": rnd.number, "status": rnd.status, "tables": tables,
            "url": _url(request, "round-detail", t.slug, rnd.number)}


def _match_extra(container, sides) -> dict[str, Any]:
    winner = next((s["key"] for s in sides if s["entrant_id"] is not None and s["entrant_id"] == container.winner_id), None)
    finished = container.status in (container.Status.FINISHED, container.Status.CONFIRMED)
    return {"winner": winner, "points": [container.points_ns, container.points_ew] if finished else None, "state": None}


def _table_extra(container, sides) -> dict[str, Any]:
    return {"winner": None, "points": None, "state": container.state}


#: What only one kind of result has (Tai Pan: winner and match points; four-player: the state).
EXTRAS = {MATCHES.container_type: _match_extra, TABLES.container_type: _table_extra}


def records(request, t: Tournament, container: ResultContainer) -> list[dict[str, Any]]:
    """The result's records in order with their scores and the running totals; none while the
    result's totals are hidden from the caller (blind confirmation, :func:`scoring.results.sheet.totals_hidden`),
    as in :func:`result_detail`: ``.../records`` is then an empty list and ``.../records/{n}`` 404."""
    if sheet.totals_hidden(container, request.user):
        return []
    return _record_rows(request, t, container)


def _record_rows(request, t: Tournament, container: ResultContainer) -> list[dict[str, Any]]:
    storage, adapter = storage_of(container), t.adapter
    rows, running = [], [0] * len(adapter.sides)
    name = f"{storage.container_type}-record"
    for rec in storage.records(container):
        scores = list(storage.scores(rec))
        running = [a + b for a, b in zip(running, scores, strict=True)]
        rows.append({"number": rec.number, "record": rec.record, "summary": str(adapter.summary(rec.record)),
                     "scores": scores, "running": list(running), "url": _url(request, name, t.slug, container.pk, rec.number)})
    return rows


def result_detail(request, t: Tournament, container: ResultContainer) -> dict[str, Any]:
    """A match or table with its records and totals (never who entered or confirmed them)."""
    storage = storage_of(container)
    row = table_row(request, t, container)
    extra = EXTRAS[storage.container_type](container, row["sides"])
    if row["totals_hidden"]:
        extra = {**extra, "winner": None, "points": None}
    return {
        **row,
        **extra,
        "outcome": "" if row["totals_hidden"] else str(storage.outcome_text(container) or ""),
        "limit": t.adapter.record_limit(t),
        "records": [] if row["totals_hidden"] else _record_rows(request, t, container),
    }


# --------------------------------------------------------------------------- standings


def _team_row(row) -> dict[str, Any]:
    return {k: getattr(row, k) for k in ("rank", "team_id", "name", "players", "affiliation", "played", "won", "drawn",
                                         "lost", "byes", "match_points", "point_difference", "points_scored", "buchholz",
                                         "tiebreaks", "withdrawn")}


def _player_row(row) -> dict[str, Any]:
    return {k: getattr(row, k) for k in ("rank", "player_id", "name", "affiliation", "played", "total", "substitute",
                                         "withdrawn")}


ROWS = {"teams": _team_row, "players": _player_row}


def standings(t: Tournament, rows: list, through_round: int | None) -> dict[str, Any]:
    entrants = str(t.adapter.entrants)
    return {"tournament": t.slug, "entrants": entrants, "through_round": through_round, "tiebreaks": tiebreaks(t),
            "rows": [ROWS[entrants](r) for r in rows]}
