"""Tournament JSON: export and import of a whole tournament, for every game (issue 4 item 6,
docs/tournaments.md; issue 12 item 3).

- :func:`export_tournament` / :func:`dumps`: the tournament as JSON in the layout declared by
  :mod:`scoring.io.schema` (Tai Pan: teams and matches with hands; four-player games: players and
  tables with seats and deals), with its members and the confirmations. Export -> import ->
  export gives byte-identical text (the slug aside, when the import takes another one).
- :func:`load_tournament` / :func:`import_tournament`: a file is read against the declared schema
  (pydantic: every field typed and bounded, unknown fields refused), then every rule that needs
  more than one field is checked (:func:`check`, in :mod:`scoring.io.tournament_checks`): a known
  game and preset, known tie-breaks, unique team and player names, no team or player twice in a
  round and no team against itself, only registered entrants within their rounds, every record
  checked by its game's adapter, statuses consistent (a closed round holds only confirmed results,
  a confirmation only on a finished result, ...). Every problem is listed with its JSON path;
  nothing is saved unless there is none (:class:`ImportRefused`), and then everything is saved in
  one transaction.
- Accounts are never created and never given a role from the file alone: ``members`` are added
  only for existing accounts that are not superusers. ``confirmed_by`` is kept for every existing
  account that is not a superuser, member or not (a confirmation records who confirmed at the
  time; that person may have left the tournament since), so the statuses come back as exported;
  only a confirmation by an account that does not exist here (or a superuser) is dropped with a
  warning, and then its closed round goes back to in progress. A confirmation by a side through its
  private link (``confirmed_via``: the side's name) is kept with that side (its link is made
  anew: links are never exported).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth import get_user_model
from django.db import IntegrityError, transaction
from django.utils.translation import gettext_lazy as _

from scoring.errors import ServiceError
from scoring.games.base import EntrantKind, RuleViolation
from scoring.games.entry import violation_message
from scoring.io import schema
from scoring.io.schema import FORMAT_VERSION, TournamentFile
from scoring.io.tournament_checks import FILE_KINDS, Plan, check
from scoring.kinds import kind_of
from scoring.models import (
    Confirmation,
    Deal,
    Hand,
    Match,
    Membership,
    Player,
    Round,
    Table,
    TableSeat,
    Team,
    Tournament,
)
from scoring.participants import links as entrant_links
from scoring.participants import persons
from scoring.participants.entrants import name_key
from scoring.results.sheet import recompute
from scoring.standings.placement import parse as parse_placement

__all__ = ["FORMAT_VERSION", "ImportRefused", "Imported", "check", "delete_tournament", "dumps", "export_tournament",
           "import_tournament", "load_tournament"]


class ImportRefused(ServiceError):
    """A tournament file that cannot be imported: ``errors`` lists ``(JSON path, message)``."""

    def __init__(self, errors: list[tuple[str, str]]):
        self.errors = errors
        lines = "\n".join(f"{path}: {message}" for path, message in errors)
        super().__init__(f"{len(errors)} problem(s) in the tournament file:\n{lines}")


@dataclass
class Imported:
    """An imported tournament and the warnings of its import (members or confirmations dropped)."""

    tournament: Tournament
    warnings: list[str] = field(default_factory=list)

    @property
    def entrants(self) -> str:
        """``"12 teams"`` or ``"40 players"``."""
        name = FILE_KINDS[self.tournament.adapter.entrants].entrants
        return f"{getattr(self.tournament, name).count()} {name}"


# --------------------------------------------------------------------------- export


def _confirmers(t: Tournament, link: str) -> dict[int, dict[str, str | None]]:
    """Container id -> ``{"confirmed_by": username}``, or for a confirmation through a private link
    ``{"confirmed_by": None, "confirmed_via": the side's name}``."""
    rows = (Confirmation.objects.filter(**{f"{link}__round__tournament": t, "active": True})
            .values_list(f"{link}_id", "confirmed_by__username", "via_entrant"))
    return {pk: {"confirmed_by": user} if user or not via else {"confirmed_by": None, "confirmed_via": via}
            for pk, user, via in rows}


def _export_teams(t: Tournament) -> dict[str, Any]:
    teams = list(t.teams.select_related("first_player", "second_player").order_by("name", "pk"))
    names = {tm.pk: tm.name for tm in teams}
    matches = Match.objects.filter(round__tournament=t).prefetch_related("hands").order_by("round__number", "table")
    confirmed = _confirmers(t, "match")
    by_round: dict[int, list] = {}
    for m in matches:
        by_round.setdefault(m.round_id, []).append({
            "table": m.table,
            "ns": names[m.team_ns_id],
            "ew": names[m.team_ew_id] if m.team_ew_id else None,
            "hands": [t.adapter.clean_record(h.record) for h in sorted(m.hands.all(), key=lambda h: h.number)],
            "ended": m.ended or None,
            "pairing_note": m.pairing_note,
            # A no-show decided as a forfeit: the absent side (left out otherwise).
            **({"forfeit": m.forfeit} if m.forfeit else {}),
            **confirmed.get(m.pk, {"confirmed_by": None}),
        })
    return {
        "teams": [{
            "name": tm.name,
            "players": [tm.first_player.name, tm.second_player.name],
            # Federation numbers and own public-name settings (issue 26): left out when none.
            **({"federation_numbers": [tm.first_player.federation_number, tm.second_player.federation_number]}
               if tm.first_player.federation_number or tm.second_player.federation_number else {}),
            **({"public_names": [tm.first_player.public_name, tm.second_player.public_name]}
               if tm.first_player.public_name or tm.second_player.public_name else {}),
            "affiliation": tm.affiliation,
            "seed": tm.seed,
            "joined_round": tm.joined_round,
            "withdrawn_after_round": tm.withdrawn_after_round,
            **({"rating": tm.rating} if tm.rating is not None else {}),
        } for tm in teams],
        "rounds": [{"number": r.number, "status": r.status, "seed": r.seed, "matches": by_round.get(r.pk, [])}
                   for r in t.rounds.order_by("number")],
    }


def _export_players(t: Tournament) -> dict[str, Any]:
    players = list(t.players.order_by("name", "pk"))
    tables = (Table.objects.filter(round__tournament=t).prefetch_related("deals", "seats__player")
              .order_by("round__number", "number"))
    confirmed = _confirmers(t, "table")
    by_round: dict[int, list] = {}
    for tb in tables:
        by_round.setdefault(tb.round_id, []).append({
            "table": tb.number,
            "seats": [s.player.name for s in sorted(tb.seats.all(), key=lambda s: s.seat)],
            "deals": [t.adapter.clean_record(d.record) for d in sorted(tb.deals.all(), key=lambda d: d.number)],
            "ended": tb.ended or None,
            "seating_note": tb.seating_note,
            **confirmed.get(tb.pk, {"confirmed_by": None}),
        })
    return {
        "players": [{
            "name": p.name,
            **({"federation_number": p.federation_number} if p.federation_number else {}),
            **({"public_name": p.public_name} if p.public_name else {}),
            "affiliation": p.affiliation,
            "seed": p.seed,
            "joined_round": p.joined_round,
            "withdrawn_after_round": p.withdrawn_after_round,
            "substitute": p.is_substitute,
            **({"rating": p.rating} if p.rating is not None else {}),
        } for p in players],
        "rounds": [{"number": r.number, "status": r.status, "seed": r.seed, "tables": by_round.get(r.pk, [])}
                   for r in t.rounds.order_by("number")],
    }


EXPORT_ENTRANTS = {EntrantKind.TEAMS: _export_teams, EntrantKind.PLAYERS: _export_players}


def export_tournament(t: Tournament) -> dict:
    """The tournament as a JSON-ready dict in the layout of :mod:`scoring.io.schema`: its settings
    (``format``, ``name``, ``slug``, ``game``, ``rules``, ``round_format``, ``hands_per_round``,
    ``tiebreaks``, ``placement`` (only when set), ``seed``, ``blind_confirmation``, ``player_entry`` (only when on), ``verification`` (only when ``"each"``), ``entry_mode`` (only when ``"full"``), ``checkin_required`` (only when on), ``status``, ``venue``, ``starts_on``, ``round_minutes`` and ``clock_warning_minutes`` when not 90 and 10), its
    ``members`` (username and role), and its entrants and rounds (Tai Pan: ``teams`` and
    ``matches``; four-player: ``players`` and ``tables``). ``ended``: ``"target"``, ``"time"`` or
    ``null`` (not finished, or a bye: ``"ew": null`` and no hands); ``confirmed_by``: the username of
    the active confirmation or ``null`` (``confirmed_via``: the side that confirmed through its
    private link, only then)."""
    data = {
        "format": FORMAT_VERSION,
        "name": t.name,
        "slug": t.slug,
        "game": t.game,
        "rules": t.rules,
        "round_format": str(t.round_format),
        "hands_per_round": t.hands_per_round,
        "tiebreaks": list(t.tiebreaks or []),
        # Placement points of four-player games (issue 24); left out when none.
        **({"placement": t.placement} if t.placement else {}),
        "seed": t.seed,
        # Round-1 method and club avoidance (issue 23): left out at their defaults.
        **({"first_round_method": t.first_round_method} if t.first_round_method else {}),
        **({} if t.avoid_same_club else {"avoid_same_club": False}),
        "blind_confirmation": t.blind_confirmation,
        # Only when on (files of tournaments without player entry stay as they were).
        **({"player_entry": True} if t.player_entry else {}),
        # Opponent verification per hand; left out at the default (at the end of the match).
        **({"verification": t.verification} if t.verification != Tournament.Verification.AT_END else {}),
        # Full tile entry of every deal (four-player games); left out at the default (quick).
        **({"entry_mode": t.entry_mode} if t.entry_mode != Tournament.EntryMode.QUICK else {}),
        # Check-in before each draw; left out when off (files of tournaments without it stay as they were).
        **({"checkin_required": True} if t.checkin_required else {}),
        # The forfeit of a no-show (card points, match points); left out at the defaults (empty).
        **({"forfeit_score": t.forfeit_score} if t.forfeit_score is not None else {}),
        **({"forfeit_points": t.forfeit_points} if t.forfeit_points is not None else {}),
        "status": t.status,
        "venue": t.venue,
        "starts_on": t.starts_on.isoformat() if t.starts_on else None,
        # The round clock (docs/hall.md); left out at the defaults.
        **({"round_minutes": t.round_minutes} if t.round_minutes != 90 else {}),
        **({"clock_warning_minutes": t.clock_warning_minutes} if t.clock_warning_minutes != 10 else {}),
        # Players' names on public pages (issue 26); left out at the default (full names).
        **({"public_names": t.public_names} if t.public_names != "full" else {}),
        "members": [{"username": u, "role": r} for u, r in
                    t.memberships.order_by("user__username").values_list("user__username", "role")],
    }
    data.update(EXPORT_ENTRANTS[t.adapter.entrants](t))
    return data


def delete_tournament(t: Tournament) -> None:
    """Delete a tournament with everything in it (matches, tables and teams first: their foreign
    keys are protected so that nothing disappears by accident elsewhere). Its players' persons
    without entries elsewhere go too (issue 26)."""
    with transaction.atomic():
        person_ids = list(Player.objects.filter(tournament=t).values_list("person_id", flat=True))
        Match.objects.filter(round__tournament=t).delete()
        Table.objects.filter(round__tournament=t).delete()
        Team.objects.filter(tournament=t).delete()
        t.delete()
        persons.drop_empty(person_ids)


def dumps(data: dict) -> str:
    """Canonical JSON text of an export (sorted keys, 2-space indent, UTF-8, final newline)."""
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


# --------------------------------------------------------------------------- creation, per kind of entrants


def _create_teams(t: Tournament, entries) -> dict[str, Any]:
    out = {}
    for e in entries or []:
        first, second = (persons.create_player(t, name, affiliation=e.affiliation, federation_number=number, public_name=shown)
                         for name, number, shown in zip(e.players, e.federation_numbers, e.public_names, strict=True))
        out[name_key(e.name)] = Team.objects.create(
            tournament=t, name=e.name, affiliation=e.affiliation, first_player=first, second_player=second,
            seed=e.seed, joined_round=e.joined_round, withdrawn_after_round=e.withdrawn_after_round, rating=e.rating)
    return out


def _create_players(t: Tournament, entries) -> dict[str, Any]:
    return {name_key(e.name): persons.create_player(
        t, e.name, affiliation=e.affiliation, seed=e.seed, joined_round=e.joined_round, federation_number=e.federation_number,
        public_name=e.public_name, withdrawn_after_round=e.withdrawn_after_round, is_substitute=e.substitute,
        rating=e.rating) for e in entries or []}


def _create_match(rnd: Round, c, records, entrants, adapter, ended) -> Match:
    match = Match.objects.create(round=rnd, table=c.table, team_ns=entrants[name_key(c.ns)],
                                 team_ew=entrants[name_key(c.ew)] if c.ew is not None else None, ended=ended,
                                 pairing_note=c.pairing_note, forfeit=c.forfeit or "")
    Hand.objects.bulk_create([Hand(match=match, number=n, record=rec) for n, rec in enumerate(records, start=1)])
    return match


def _create_table(rnd: Round, c, records, entrants, adapter, ended) -> Table:
    table = Table.objects.create(round=rnd, number=c.table, ended=ended, seating_note=c.seating_note,
                                 state=adapter.initial_state())
    TableSeat.objects.bulk_create([TableSeat(table=table, seat=k, player=entrants[name_key(n)]) for k, n in enumerate(c.seats)])
    Deal.objects.bulk_create([Deal(table=table, number=n, record=rec) for n, rec in enumerate(records, start=1)])
    return table


CREATE_ENTRANTS = {EntrantKind.TEAMS: _create_teams, EntrantKind.PLAYERS: _create_players}
CREATE_CONTAINER = {EntrantKind.TEAMS: _create_match, EntrantKind.PLAYERS: _create_table}


# --------------------------------------------------------------------------- import


def _members(data: TournamentFile, organiser) -> tuple[dict[str, tuple[Any, str]], list[str]]:
    """``{username: (user, role)}`` of the members the import adds, and the warnings."""
    User = get_user_model()
    out: dict[str, tuple[Any, str]] = {}
    warnings = []
    for m in data.members:
        user = User.objects.filter(username=m.username).first()
        if user is None:
            warnings.append(f"member {m.username!r} not added: there is no such account (an import never creates accounts)")
        elif user.is_superuser:
            warnings.append(f"member {m.username!r} not added: a superuser gets no role from a file")
        elif not user.is_active:
            warnings.append(f"member {m.username!r} not added: the account is inactive")
        else:
            out[user.get_username()] = (user, m.role)
    if organiser is not None:
        out[organiser.get_username()] = (organiser, Membership.Role.ORGANISER)
    if not any(role == Membership.Role.ORGANISER for _u, role in out.values()):
        warnings.append("the imported tournament has no organiser: give --organiser USERNAME, or add one in the admin")
    return out, warnings


def _confirmer_accounts(plan: Plan, members: dict[str, tuple[Any, str]]) -> dict[str, Any]:
    """``{username: account}`` of every ``confirmed_by`` in the file whose confirmation is kept: the
    account exists and is no superuser. Membership is not required: a confirmation records who
    confirmed at the time, and that person may have left the tournament since (or the account may
    be inactive now); it gives the account no role."""
    names = {res.data.confirmed_by for res in plan.results if res.data.confirmed_by is not None}
    out = {name: user for name, (user, _role) in members.items() if name in names}
    for user in get_user_model().objects.filter(username__in=names - set(out), is_superuser=False):
        out[user.get_username()] = user
    return out


def _is_superuser(username: str) -> bool:
    return get_user_model().objects.filter(username=username, is_superuser=True).exists()


def _create(plan: Plan, slug: str, members: dict[str, tuple[Any, str]], warnings: list[str]) -> Tournament:
    data, adapter = plan.file, plan.adapter
    dropped_rounds: set[int] = set()
    keep: dict[int, Any] = {}
    confirmers = _confirmer_accounts(plan, members)
    for i, res in enumerate(plan.results):
        who = res.data.confirmed_by
        if who is None:
            continue
        if who in confirmers:
            keep[i] = confirmers[who]
        else:
            reason = "a superuser" if _is_superuser(who) else "there is no such account here"
            warnings.append(f"{res.path}.confirmed_by: confirmation by {who!r} dropped ({reason}); the result stays "
                            "finished, to be confirmed again")
            dropped_rounds.add(res.round_index)
    round_status = {}
    for r_i, rnd in enumerate(data.rounds):
        status = rnd.status
        if r_i in dropped_rounds and status == Round.Status.CLOSED:
            status = Round.Status.IN_PROGRESS
            warnings.append(f"$.rounds[{r_i}].status: round {rnd.number} imported as in progress (a confirmation was dropped)")
        round_status[r_i] = status
    t_status = data.status
    if t_status == Tournament.Status.FINISHED and any(s != Round.Status.CLOSED for s in round_status.values()):
        t_status = Tournament.Status.RUNNING
        warnings.append("$.status: the tournament is imported as running (a round is no longer closed)")

    t = Tournament.objects.create(
        name=data.name, slug=slug, game=data.game, rules=data.rules if data.rules is not None else {},
        round_format=data.round_format, hands_per_round=data.hands_per_round, tiebreaks=list(data.tiebreaks),
        placement=parse_placement(data.placement).as_json(),
        seed=data.seed, first_round_method=data.first_round_method, avoid_same_club=data.avoid_same_club,
        blind_confirmation=data.blind_confirmation, player_entry=data.player_entry,
        verification=data.verification, entry_mode=data.entry_mode, checkin_required=data.checkin_required,
        forfeit_score=data.forfeit_score, forfeit_points=data.forfeit_points, status=t_status,
        venue=data.venue, starts_on=data.starts_on,
        round_minutes=data.round_minutes, clock_warning_minutes=data.clock_warning_minutes,
        public_names=data.public_names,
    )
    Membership.objects.bulk_create([Membership(tournament=t, user=user, role=role) for user, role in members.values()])
    kind = FILE_KINDS[adapter.entrants]
    entrants = CREATE_ENTRANTS[adapter.entrants](t, getattr(data, kind.entrants))
    rounds = {r_i: Round.objects.create(tournament=t, number=rnd.number, status=round_status[r_i], seed=rnd.seed)
              for r_i, rnd in enumerate(data.rounds)}
    for i, res in enumerate(plan.results):
        rnd = rounds[res.round_index]
        ended = Match.Ended.TIME if res.data.ended == "time" else ""
        container = CREATE_CONTAINER[adapter.entrants](rnd, res.data, res.records, entrants, adapter, ended)
        container.round = rnd
        recompute(container)
        via = res.data.confirmed_via
        if i in keep or via is not None:
            container.confirm()
            container.save(update_fields=["status"])
            kind = kind_of(container)
            who = {"confirmed_by": keep[i]} if i in keep else _via(entrants[name_key(via)])
            Confirmation.objects.create(**who, totals=kind.confirmation_totals(container), **kind.audit_link(container))
    return t


def _via(entrant) -> dict[str, Any]:
    """The confirmation fields of a side that confirmed through its private link (made anew)."""
    return {"confirmed_by": None, "via_link": entrant_links.link_for(entrant), "via_entrant": entrant.name}


def load_tournament(text: str | bytes, *, slug: str | None = None, organiser: str | None = None) -> Imported:
    """Import a tournament file's text (see the module): refused with every problem listed
    (:class:`ImportRefused`) or created in one transaction; returns it with the warnings.
    ``slug`` replaces the file's slug; ``organiser`` (a username) makes that existing account the
    organiser of the imported tournament."""
    data, errors = schema.parse(text)
    if data is None:
        raise ImportRefused(errors)
    errors = []
    if slug is not None:
        _slug_ok, slug_errors = schema.parse(json.dumps({"name": "x", "slug": slug}))
        if slug_errors:
            errors += [("--slug", message) for _path, message in slug_errors]
    slug = slug or data.slug
    if Tournament.objects.filter(slug=slug).exists():
        errors.append(("$.slug" if slug == data.slug else "--slug", f"a tournament with the slug {slug!r} already exists"))
    user = None
    if organiser is not None:
        user = get_user_model().objects.filter(username=organiser).first()
        if user is None:
            errors.append(("--organiser", f"there is no account {organiser!r} (an import never creates accounts)"))
    plan, check_errors = check(data)
    errors += check_errors
    if errors:
        raise ImportRefused(errors)
    members, warnings = _members(data, user)
    try:
        with transaction.atomic():
            tournament = _create(plan, slug, members, warnings)
    except IntegrityError as exc:
        raise ImportRefused([("$", f"the tournament could not be saved ({exc})")]) from None
    except ImportRefused:
        raise
    except ServiceError as exc:  # a federation number of someone with another name (persons.attach)
        raise ImportRefused([("$", str(exc))]) from None
    except RuleViolation as exc:  # the records were checked above; this is a safety net
        raise ImportRefused([("$", str(violation_message(v))) for v in exc.violations]) from None
    return Imported(tournament, warnings)


def import_tournament(data: Any, *, slug: str | None = None, organiser: str | None = None) -> Tournament:
    """:func:`load_tournament` of an already parsed export (a dict). Raises :class:`ImportRefused`."""
    try:
        text = json.dumps(data)
    except (TypeError, ValueError, RecursionError):
        raise ImportRefused([("$", str(_("The file is not a tournament export.")))]) from None
    return load_tournament(text, slug=slug, organiser=organiser).tournament
