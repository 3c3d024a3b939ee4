"""A small world with one object behind every URL of the scoring app (issue 12 items 5 and 8):
a Tai Pan tournament (teams, a published round, a match with a hand and its audit entry, a
round-pack task) and a Sichuan tournament (players, a published round, a table with a deal and its
audit entry; the teams' private links), one organiser of both, and a way to build every URL of ``scoring/web/urls_*.py``
for them (:func:`all_urls`)."""
from __future__ import annotations

from dataclasses import dataclass

from django.urls import URLPattern, get_resolver, reverse

from scoring.models import AuditEntry, EntrantLink, Match, Membership, Player, TaskState, Team, Tournament
from scoring.models import Table as ResultTable
from scoring.participants import links
from scoring.results import sheet
from tests.factories import (
    DEALS,
    PLAIN_HAND,
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    UserFactory,
)


@dataclass
class World:
    taipan: Tournament
    sichuan: Tournament
    organiser: object
    referee: object
    team: Team
    match: Match
    hand_entry: AuditEntry
    task: TaskState
    player: Player
    table: ResultTable
    deal_entry: AuditEntry
    link: EntrantLink


def build_world() -> World:
    """Both tournaments with a record entered by the referee on each result."""
    organiser, referee = UserFactory(username="w-organiser"), UserFactory(username="w-referee")
    taipan = TournamentFactory(slug="w-taipan", name="World Tai Pan")
    sichuan = TournamentFactory(slug="w-sichuan", name="World Sichuan", game="sichuan")
    for t in (taipan, sichuan):
        MembershipFactory(tournament=t, user=organiser, role=Membership.Role.ORGANISER)
        MembershipFactory(tournament=t, user=referee, role=Membership.Role.REFEREE)
    rnd = RoundFactory(tournament=taipan, number=1)
    match = MatchFactory(round=rnd, table=1)
    TeamFactory(tournament=taipan, name="Spare team")
    sheet.add_record(match, PLAIN_HAND, referee)
    srnd = RoundFactory(tournament=sichuan, number=1)
    table = TableFactory(round=srnd, number=1)
    PlayerFactory(tournament=sichuan, name="Spare player")
    sheet.add_record(table, DEALS["sichuan"][0], referee)
    task = TaskState.objects.create(key=f"round_pack:{rnd.pk}:world", kind="round_pack", status="failed")
    return World(
        taipan=taipan, sichuan=sichuan, organiser=organiser, referee=referee, team=match.team_ns, match=match,
        hand_entry=AuditEntry.objects.filter(match=match).first(), task=task,
        player=table.seats.get(seat=0).player, table=table, deal_entry=AuditEntry.objects.filter(table=table).first(),
        link=links.ensure_links(taipan)[0],
    )


def scoring_patterns() -> list[URLPattern]:
    """Every URL pattern of the scoring app (``scoring/web/urls_*.py``)."""
    resolver = get_resolver()
    for pattern in resolver.url_patterns:
        if getattr(pattern, "namespace", None) == "scoring":
            return list(pattern.url_patterns)
    raise AssertionError("the scoring URLs are not included")


def _kwargs(pattern: URLPattern, world: World) -> dict | None:
    """The URL arguments of ``pattern`` for ``world`` (``None`` when it takes none we know)."""
    name = pattern.name
    params = list(pattern.pattern.converters)
    kind = (pattern.default_args or {}).get("kind")
    players = kind == "table" or name.startswith(("player", "round_seat", "players_import")) or "players" in name
    t = world.sichuan if players else world.taipan
    values = {"slug": t.slug, "number": 1, "game": "taipan", "task_id": world.task.pk, "action": "regenerate", "table": 1}
    if "pk" in params:
        if kind == "match":
            values["pk"] = world.match.pk
        elif kind == "table":
            values["pk"] = world.table.pk
        elif name.startswith("team"):
            values["pk"] = world.team.pk
        elif name.startswith("player"):
            values["pk"] = world.player.pk
        elif name.startswith("link"):
            values["pk"] = world.link.pk
        else:
            values["pk"] = 1
    if "entry_id" in params:
        values["entry_id"] = (world.deal_entry if kind == "table" else world.hand_entry).pk
    if name in ("round_pack_status", "round_pack_download"):
        values["slug"] = world.taipan.slug
    if "task_id" in params and name.startswith("import_"):
        values["task_id"] = 0
    return {p: values[p] for p in params}


def all_urls(world: World) -> list[tuple[str, str]]:
    """``[(url name, url)]`` for every URL pattern of the scoring app."""
    out = []
    for pattern in scoring_patterns():
        kwargs = _kwargs(pattern, world)
        out.append((pattern.name, reverse(f"scoring:{pattern.name}", kwargs=kwargs)))
    return out
