"""Import and export (issue 4 item 6, DESIGN.md 3 Tournament JSON).

- :func:`export_tournament` / :func:`import_tournament`: the whole Tai Pan tournament as JSON
  (``{"name", "slug", "game", "rules", "teams": [{"name", "players": [...]}], "rounds":
  [{"number", "matches": [{"table", "ns", "ew", "hands": [engine records], "ended"}]}]}`` plus
  the extra fields listed in :func:`export_tournament`). Export -> import -> export gives the same
  data, so :func:`dumps` gives byte-identical text.
"""
from __future__ import annotations

import json

from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_date
from django.utils.translation import gettext_lazy as _

from scoring.errors import ServiceError
from scoring.models import Confirmation, Hand, Match, Player, Round, Team, Tournament
from scoring.results.sheet import recompute

FORMAT_VERSION = 1


# --------------------------------------------------------------------------- JSON


def export_tournament(t: Tournament) -> dict:
    """The tournament as a JSON-ready dict (DESIGN.md 3). Besides the design's fields it keeps
    ``format`` (this layout's version), ``round_format``, ``hands_per_round``, ``tiebreaks``,
    ``seed``, ``blind_confirmation``, ``status``, ``venue``, ``starts_on``; per team
    ``affiliation``, ``seed``, ``joined_round``, ``withdrawn_after_round``; per round ``status``
    and ``seed``; per match ``pairing_note`` and ``confirmed_by`` (username of the active
    confirmation or ``null``). ``ended``: ``"target"``, ``"time"`` or ``null`` (not finished,
    or a bye: ``"ew": null`` and no hands)."""
    teams = list(t.teams.select_related("first_player", "second_player").order_by("name", "pk"))
    names = {tm.pk: tm.name for tm in teams}
    matches = (Match.objects.filter(round__tournament=t).select_related("round")
               .prefetch_related("hands").order_by("round__number", "table"))
    confirmed = dict(Confirmation.objects.filter(match__round__tournament=t, active=True)
                     .values_list("match_id", "confirmed_by__username"))
    by_round: dict[int, list] = {}
    for m in matches:
        by_round.setdefault(m.round_id, []).append(m)
    rounds = []
    for rnd in t.rounds.order_by("number"):
        rounds.append({
            "number": rnd.number,
            "status": rnd.status,
            "seed": rnd.seed,
            "matches": [{
                "table": m.table,
                "ns": names[m.team_ns_id],
                "ew": names[m.team_ew_id] if m.team_ew_id else None,
                "hands": [t.adapter.clean_record(h.record) for h in sorted(m.hands.all(), key=lambda h: h.number)],
                "ended": m.ended or None,
                "pairing_note": m.pairing_note,
                "confirmed_by": confirmed.get(m.pk),
            } for m in by_round.get(rnd.pk, [])],
        })
    return {
        "format": FORMAT_VERSION,
        "name": t.name,
        "slug": t.slug,
        "game": t.game,
        "rules": t.rules,
        "round_format": t.round_format,
        "hands_per_round": t.hands_per_round,
        "tiebreaks": list(t.tiebreaks or []),
        "seed": t.seed,
        "blind_confirmation": t.blind_confirmation,
        "status": t.status,
        "venue": t.venue,
        "starts_on": t.starts_on.isoformat() if t.starts_on else None,
        "teams": [{
            "name": tm.name,
            "players": [tm.first_player.name, tm.second_player.name],
            "affiliation": tm.affiliation,
            "seed": tm.seed,
            "joined_round": tm.joined_round,
            "withdrawn_after_round": tm.withdrawn_after_round,
        } for tm in teams],
        "rounds": rounds,
    }


def delete_tournament(t: Tournament) -> None:
    """Delete a tournament with everything in it (matches and teams first: their foreign keys
    are protected so that nothing disappears by accident elsewhere)."""
    with transaction.atomic():
        Match.objects.filter(round__tournament=t).delete()
        Team.objects.filter(tournament=t).delete()
        t.delete()


def dumps(data: dict) -> str:
    """Canonical JSON text of an export (sorted keys, 2-space indent, UTF-8, final newline)."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def _confirmer(username: str):
    """The user named ``username``; created inactive without a usable password if missing."""
    User = get_user_model()
    user, created = User.objects.get_or_create(username=username, defaults={"is_active": False})
    if created:
        user.set_unusable_password()
        user.save(update_fields=["password"])
    return user


def import_tournament(data: dict, *, slug: str | None = None) -> Tournament:
    """Create a tournament from an export (:func:`export_tournament` layout; only the design's
    fields are required). ``slug`` overrides the file's slug. Every hand is checked by the engine
    while the matches are recomputed; any problem (unknown team, duplicate slug, a hand breaking
    the rules) raises :class:`ServiceError` or :class:`engines.errors.RuleViolation` and nothing
    is created. Confirmations are restored for ``confirmed_by`` users (missing users are created
    inactive, without a password)."""
    if not isinstance(data, dict):
        raise ServiceError(_("The file is not a tournament export."))
    try:
        slug = slug or data["slug"]
        name = data["name"]
    except KeyError as exc:
        raise ServiceError(_("The tournament export misses the field {field}.").format(field=exc.args[0])) from None
    if Tournament.objects.filter(slug=slug).exists():
        raise ServiceError(_("A tournament with the slug {slug!r} already exists.").format(slug=slug), field="slug")
    with transaction.atomic():
        t = Tournament.objects.create(
            name=name, slug=slug, game=data.get("game", "taipan"), rules=data.get("rules") or {},
            round_format=data.get("round_format") or "target", hands_per_round=data.get("hands_per_round"),
            tiebreaks=list(data.get("tiebreaks") or []), seed=int(data.get("seed") or 0),
            blind_confirmation=bool(data.get("blind_confirmation", False)),
            status=data.get("status") or Tournament.Status.SETUP, venue=data.get("venue") or "",
            starts_on=parse_date(data["starts_on"]) if data.get("starts_on") else None,
        )
        teams: dict[str, Team] = {}
        for entry in data.get("teams", []):
            players = list(entry.get("players") or [])
            if len(players) != 2:
                raise ServiceError(_("Team {name!r} must have exactly two players.").format(name=entry.get("name")))
            if entry["name"] in teams:
                raise ServiceError(_("Team {name!r} appears twice.").format(name=entry["name"]))
            first = Player.objects.create(tournament=t, name=players[0], affiliation=entry.get("affiliation") or "")
            second = Player.objects.create(tournament=t, name=players[1], affiliation=entry.get("affiliation") or "")
            teams[entry["name"]] = Team.objects.create(
                tournament=t, name=entry["name"], affiliation=entry.get("affiliation") or "",
                first_player=first, second_player=second, seed=entry.get("seed"),
                joined_round=entry.get("joined_round") or 1, withdrawn_after_round=entry.get("withdrawn_after_round"),
            )

        def team(name_):
            if name_ is None:
                return None
            if name_ not in teams:
                raise ServiceError(_("Unknown team {name!r} in a match.").format(name=name_))
            return teams[name_]

        for rdata in data.get("rounds", []):
            rnd = Round.objects.create(tournament=t, number=rdata["number"],
                                       status=rdata.get("status") or Round.Status.CLOSED, seed=rdata.get("seed") or 0)
            for mdata in rdata.get("matches", []):
                ew = team(mdata.get("ew"))
                match = Match.objects.create(
                    round=rnd, table=mdata["table"], team_ns=team(mdata["ns"]), team_ew=ew,
                    ended=Match.Ended.TIME if mdata.get("ended") == "time" else "",
                    pairing_note=mdata.get("pairing_note") or "",
                )
                if ew is None and mdata.get("hands"):
                    raise ServiceError(_("A bye cannot have hands (round {number}, table {table}).").format(
                        number=rnd.number, table=mdata["table"]))
                Hand.objects.bulk_create([
                    Hand(match=match, number=i, record=t.adapter.clean_record(rec)) for i, rec in enumerate(mdata.get("hands", []), start=1)
                ])
                if mdata.get("confirmed_by"):
                    Confirmation.objects.create(match=match, confirmed_by=_confirmer(mdata["confirmed_by"]),
                                                totals={})
                match.round = rnd
                recompute(match)
                if mdata.get("confirmed_by") and match.status == Match.Status.FINISHED:
                    match.confirm()
                    match.save(update_fields=["status"])
                if mdata.get("confirmed_by"):
                    Confirmation.objects.filter(match=match, active=True).update(
                        totals={"NS": match.total_ns, "EW": match.total_ew})
    return t


