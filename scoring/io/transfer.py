"""Import and export (issue 4 item 6, DESIGN.md 3 Tournament JSON).

- :func:`export_tournament` / :func:`import_tournament`: the whole Tai Pan tournament as JSON
  (``{"name", "slug", "game", "rules", "teams": [{"name", "players": [...]}], "rounds":
  [{"number", "matches": [{"table", "ns", "ew", "hands": [engine records], "ended"}]}]}`` plus
  the extra fields listed in :func:`export_tournament`). Export -> import -> export gives the same
  data, so :func:`dumps` gives byte-identical text.
- :func:`import_teams_csv`: teams and players from CSV with tablib; every row is checked first and
  nothing is imported when any row is wrong (:class:`ImportReport` lists the errors by row).
- :func:`standings_dataset` / :func:`pairings_dataset`: tablib Datasets (``.export("csv")`` /
  ``.export("xlsx")``) for the download views and the ``standings`` command.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field

import tablib
from django.contrib.auth import get_user_model
from django.db import transaction
from django.utils.dateparse import parse_date
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

from scoring.errors import ServiceError
from scoring.models import Confirmation, Hand, Match, Player, Round, Team, Tournament
from scoring.results.matches import clean_record, recompute_match
from scoring.standings.teams import standings
from scoring.standings.tiebreaks import REGISTRY

FORMAT_VERSION = 1


# --------------------------------------------------------------------------- JSON


def _record_out(record: dict) -> dict:
    """A hand record in canonical form (seat and team order fixed), whatever the database did to
    the key order."""
    rec = clean_record(record)
    calls = rec.get("calls") or {}
    rec["calls"] = {seat: calls[seat] for seat in ("N", "E", "S", "W") if seat in calls} | {
        k: v for k, v in calls.items() if k not in ("N", "E", "S", "W")}
    cp = rec.get("card_points")
    if isinstance(cp, dict):
        rec["card_points"] = {k: cp[k] for k in ("NS", "EW") if k in cp} | {k: v for k, v in cp.items() if k not in ("NS", "EW")}
    return rec


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
                "hands": [_record_out(h.record) for h in sorted(m.hands.all(), key=lambda h: h.number)],
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
                    Hand(match=match, number=i, record=clean_record(rec)) for i, rec in enumerate(mdata.get("hands", []), start=1)
                ])
                if mdata.get("confirmed_by"):
                    Confirmation.objects.create(match=match, confirmed_by=_confirmer(mdata["confirmed_by"]),
                                                totals={})
                recompute_match(match)
                if mdata.get("confirmed_by"):
                    Confirmation.objects.filter(match=match, active=True).update(
                        totals={"NS": match.total_ns, "EW": match.total_ew})
    return t


# --------------------------------------------------------------------------- teams CSV


@dataclass
class ImportReport:
    """Result of :func:`import_teams_csv`: ``created`` (number of teams created, 0 when any row
    was wrong) and ``errors``: ``[(row, column, message)]`` with ``row`` the CSV line number
    (the header is line 1; 0 for the file as a whole)."""

    created: int = 0
    errors: list[tuple[int, str, str]] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        """True when nothing was wrong (and the teams were imported)."""
        return not self.errors


TEAM_COLUMNS = {
    "name": ("name", "team", "team name", "teamnaam", "naam"),
    "player1": ("player1", "player 1", "first player", "speler1", "speler 1"),
    "player2": ("player2", "player 2", "second player", "speler2", "speler 2"),
    "affiliation": ("affiliation", "association", "club", "vereniging"),
    "seed": ("seed",),
    "joined_round": ("joined_round", "joined round", "from round"),
}


def _column_map(headers: list[str]) -> dict[str, int]:
    out = {}
    for i, header in enumerate(headers):
        h = (header or "").strip().lower()
        for key, aliases in TEAM_COLUMNS.items():
            if h in aliases and key not in out:
                out[key] = i
    return out


def import_teams_csv(tournament: Tournament, file_bytes: bytes) -> ImportReport:
    """Import teams from CSV (UTF-8, comma or semicolon separated, header row required).

    Columns (case-insensitive; Dutch aliases accepted): ``name``, ``player1``, ``player2``
    (required), ``affiliation``, ``seed``, ``joined_round`` (optional). Every row is checked
    first: empty required values, a name used twice in the file or already in the tournament,
    a seed or round that is not a positive whole number. If any row is wrong nothing is imported
    and the report lists every error; otherwise all teams are created in one transaction."""
    report = ImportReport()
    try:
        text = file_bytes.decode("utf-8-sig")
    except UnicodeDecodeError:
        report.errors.append((0, "", _t("The file is not UTF-8 text.")))
        return report
    first_line = text.splitlines()[0] if text.strip() else ""
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    try:
        data = tablib.Dataset().load(text, format="csv", delimiter=delimiter)
    except Exception:  # tablib raises several kinds on malformed CSV
        report.errors.append((0, "", _t("The file could not be read as CSV.")))
        return report
    columns = _column_map(list(data.headers or []))
    missing = [c for c in ("name", "player1", "player2") if c not in columns]
    if missing:
        report.errors.append((1, ", ".join(missing), _t("Missing column(s): {columns}.").format(columns=", ".join(missing))))
        return report
    existing = set(Team.objects.filter(tournament=tournament).values_list("name", flat=True))
    # A team joins a round not paired yet (a draft counts as paired), as on the team form.
    last = tournament.rounds.order_by("-number").values_list("number", flat=True).first()
    first_open = (last or 0) + 1
    seen: dict[str, int] = {}
    rows = []
    for index, raw in enumerate(data, start=2):
        def value(key, raw=raw):
            i = columns.get(key)
            return (raw[i] or "").strip() if i is not None and i < len(raw) else ""
        row = {key: value(key) for key in TEAM_COLUMNS}
        if not any(row.values()):
            continue
        for key in ("name", "player1", "player2"):
            if not row[key]:
                report.errors.append((index, key, _t("This value is required.")))
        name = row["name"]
        if name:
            if name in existing:
                report.errors.append((index, "name", _t("A team named {name!r} already exists in this tournament.").format(name=name)))
            elif name in seen:
                report.errors.append((index, "name", _t("The team name {name!r} is also used on line {line}.").format(name=name, line=seen[name])))
            else:
                seen[name] = index
            if len(name) > Team._meta.get_field("name").max_length:
                report.errors.append((index, "name", _t("The name is too long.")))
        for key in ("seed", "joined_round"):
            if row[key]:
                if not row[key].isdigit() or int(row[key]) < 1:
                    report.errors.append((index, key, _t("Must be a whole number of 1 or more, not {value!r}.").format(value=row[key])))
                elif key == "joined_round" and int(row[key]) < first_open:
                    report.errors.append((index, key, _t("Round %(round)d is already paired or played: a team can join round %(first)d at the earliest.")
                                          % {"round": int(row[key]), "first": first_open}))
        rows.append(row)
    if not rows and not report.errors:
        report.errors.append((0, "", _t("The file has no teams.")))
    if report.errors:
        return report
    with transaction.atomic():
        for row in rows:
            first = Player.objects.create(tournament=tournament, name=row["player1"], affiliation=row["affiliation"])
            second = Player.objects.create(tournament=tournament, name=row["player2"], affiliation=row["affiliation"])
            Team.objects.create(
                tournament=tournament, name=row["name"], affiliation=row["affiliation"],
                first_player=first, second_player=second,
                seed=int(row["seed"]) if row["seed"] else None,
                joined_round=int(row["joined_round"]) if row["joined_round"] else first_open,
            )
    report.created = len(rows)
    return report


# --------------------------------------------------------------------------- datasets


def standings_dataset(t: Tournament, *, through_round: int | None = None) -> tablib.Dataset:
    """The standings as a tablib Dataset (translated headers; one row per team, best first;
    extra columns for the tournament's other tie-breaks). ``.export("csv")`` / ``("xlsx")``."""
    rows = standings(t, through_round=through_round)
    base = {"point_difference", "points_scored", "buchholz"}
    keys = [k for k in (rows[0].tiebreaks if rows else {}) if k not in base]
    headers = [_t("Rank"), _t("Team"), _t("Players"), _t("Affiliation"), _t("Played"), _t("Won"), _t("Drawn"),
               _t("Lost"), _t("Byes"), _t("Match points"), _t("Point difference"), _t("Points scored"), _t("Buchholz")]
    headers += [str(REGISTRY[k].label) for k in keys] + [_t("Withdrawn")]
    ds = tablib.Dataset(headers=headers, title=str(_("Standings"))[:31])
    for r in rows:
        ds.append([r.rank, r.name, r.players, r.affiliation, r.played, r.won, r.drawn, r.lost, r.byes,
                   r.match_points, r.point_difference, r.points_scored, r.buchholz]
                  + [r.tiebreaks.get(k) for k in keys] + [_t("yes") if r.withdrawn else ""])
    return ds


def pairings_dataset(rnd: Round) -> tablib.Dataset:
    """The tables of a round as a tablib Dataset: table, both teams with players, the pairing
    note, status and totals (a bye has an empty EW side)."""
    headers = [_t("Table"), _t("Team NS"), _t("Players NS"), _t("Team EW"), _t("Players EW"), _t("Note"),
               _t("Status"), _t("Total NS"), _t("Total EW")]
    ds = tablib.Dataset(headers=headers, title=(_t("Round") + f" {rnd.number}")[:31])
    matches = rnd.matches.with_teams().order_by("table")
    for m in matches:
        ew = m.team_ew
        ds.append([m.table, m.team_ns.name, m.team_ns.player_names, ew.name if ew else _t("bye"),
                   ew.player_names if ew else "", m.pairing_reason_text(), m.get_status_display(), m.total_ns, m.total_ew])
    return ds
