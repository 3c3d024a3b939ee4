"""Fuzzed forms (issue 12 item 8): hypothesis posts generated values to every form as the role the
form is for: hands and the deals of the three four-player games (entry, edit, preview), teams,
players (register, edit, withdraw), tournament settings (create, edit, finish/resume), members,
the draft pairing, seating, publishing, the CSV imports, confirming and every reason form (end,
resume, reopen, restore, delete). The values: text with control characters, zero-width and bidi
characters, huge, negative, fractional and non-ASCII numbers, missing fields, repeated fields
(lists) and fields nobody asked for; the version is sometimes the right one, so the values reach
the engines.

Every answer is 2xx, 3xx or 4xx (never 500), and an answer that is not a redirect (a refusal, or a
page shown again with its errors) leaves the database exactly as it was. Each example runs in a
savepoint rolled back afterwards, so examples do not depend on each other. The field names are
read from each form's own page (so a new field is fuzzed too). ``FUZZ_EXAMPLES`` examples per form
(default 8); the ``slow`` test runs many more on the result forms.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import transaction
from django.urls import reverse
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from scoring import policy
from scoring.models import (
    AuditEntry,
    Confirmation,
    Deal,
    Hand,
    Match,
    Membership,
    Player,
    Round,
    Table,
    TableSeat,
    TaskState,
    Team,
    Tournament,
)
from scoring.results import sheet
from tests.factories import MatchFactory, MembershipFactory, RoundFactory, TableFactory, TournamentFactory
from tests.games.kits import keys, kit
from tests.web.world import build_world

pytestmark = pytest.mark.django_db

EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "8"))
SNAPSHOT_MODELS = (Tournament, Membership, Team, Player, Round, Match, Hand, Table, TableSeat, Deal, Confirmation,
                   AuditEntry, TaskState)
NAME = re.compile(r'<(?:input|select|textarea)\b[^>]*\bname="([^"]+)"')
VERSION = "@version"

# --------------------------------------------------------------------------- values

TEXT = st.text(alphabet=st.characters(exclude_categories=("Cs",)), max_size=150)
HOSTILE_TEXT = st.sampled_from(["", " ", "\x00", "a\x00b", "\t", "\r\n", "\u200b", "\u202eabc", "\ufeff",
                                "=HYPERLINK(\"http://x\",\"y\")", "<script>alert(1)</script>", "' OR 1=1 --",
                                "x" * 5000, "N", "E", "S", "W", "NS", "EW", "tai_pan", "grand_tai_pan", "on", "yes",
                                "finish", "resume", "withdraw", "delete", "organiser", "referee", "taipan", "sichuan",
                                "target", "fixed_hands", "nskt", "{\"target\": 1000}", "[1,2]", "{}", "null"])
NUMBER = st.one_of(
    st.integers(min_value=-(10**30), max_value=10**30).map(str),
    st.integers(min_value=-5, max_value=1000).map(str),
    st.sampled_from(["²", "³", "٣", "１", "1e9", "-0", "0x1F", "NaN", "inf", "1.5", " 7 ", "0", "1", "100", "25", "75",
                     str(2**31), str(2**63), "-2147483649"]),
)
VALUE = st.one_of(TEXT, HOSTILE_TEXT, NUMBER)
FIELD_VALUE = st.one_of(VALUE, VALUE, VALUE, st.lists(VALUE, min_size=2, max_size=3))


def post_data(names: list[str]) -> st.SearchStrategy[dict]:
    """Generated POST data for ``names`` (some missing, some repeated, one unknown, the version
    sometimes right)."""
    keys = st.sampled_from([*names, "junk", "version"])
    return st.dictionaries(keys, st.one_of(FIELD_VALUE, st.just(VERSION)), max_size=len(names) + 2)


CSV_FILE = st.one_of(
    st.binary(max_size=400),
    st.lists(st.lists(VALUE, min_size=1, max_size=6), min_size=1, max_size=6).map(
        lambda rows: ("name,player1,player2,affiliation,seed,joined_round,substitute\n"
                      + "\n".join(",".join(v.replace(",", ";") for v in row) for row in rows)).encode("utf-8", "replace")),
)

# --------------------------------------------------------------------------- the forms


@dataclass
class Target:
    """A form: where it posts, whose role posts it, where its fields are read (its page), the
    result whose version it carries, and fixed extra names (forms without a page of their own)."""

    name: str
    url: str
    user: object
    page: str | None = None
    container: object = None
    names: list[str] = field(default_factory=list)
    upload: bool = False


def build_targets() -> tuple[list[Target], object]:
    w = build_world()
    org, ref = w.organiser, w.referee
    staff_user = get_user_model().objects.create_user("w-staff", password="x-Secret-123", is_staff=True)
    tt, ts = w.taipan.slug, w.sichuan.slug
    # a draft round to edit and publish, and the two other four-player games
    draft = RoundFactory(tournament=w.taipan, number=2, status=Round.Status.DRAFT)
    MatchFactory(round=draft, table=1, team_ns=w.match.team_ns, team_ew=w.team)
    tables = {"sichuan": w.table}
    for game in (k for k in keys("players") if k not in tables):  # the other four-player games
        t = TournamentFactory(slug=f"w-{game}", game=game)
        for user, role in ((org, "organiser"), (ref, "referee")):
            MembershipFactory(tournament=t, user=user, role=role)
        table = TableFactory(round=RoundFactory(tournament=t, number=1), number=1)
        policy.forget_roles(ref)  # the roles read so far are cached on the user
        sheet.add_record(table, kit(game).record, ref)
        tables[game] = table
    m, tb = w.match, w.table
    targets = [
        Target("hand enter", reverse("scoring:match_enter", args=[tt, m.pk]), ref, container=m),
        Target("hand edit", reverse("scoring:hand_edit", args=[tt, m.pk, 1]), ref, container=m),
        Target("hand preview", reverse("scoring:hand_preview", args=[tt, m.pk]), ref,
               page=reverse("scoring:match_enter", args=[tt, m.pk]), container=m),
        Target("hand delete", reverse("scoring:hand_delete", args=[tt, m.pk, 1]), ref, container=m),
        Target("match end", reverse("scoring:match_end", args=[tt, m.pk]), ref, page="", container=m, names=["end-reason"]),
        Target("match resume", reverse("scoring:match_resume", args=[tt, m.pk]), ref, page="", container=m, names=["end-reason"]),
        Target("match confirm", reverse("scoring:match_confirm", args=[tt, m.pk]), org, page="", container=m,
               names=["total_0", "total_1"]),
        Target("match reopen", reverse("scoring:match_reopen", args=[tt, m.pk]), org, page="", container=m, names=["reopen-reason"]),
        Target("match restore", reverse("scoring:audit_restore", args=[tt, m.pk, w.hand_entry.pk]), ref, page="", container=m,
               names=["restore-reason"]),
        Target("team create", reverse("scoring:team_create", args=[tt]), org),
        Target("team edit", reverse("scoring:team_edit", args=[tt, w.team.pk]), org, names=["action"]),
        Target("teams import", reverse("scoring:teams_import", args=[tt]), org, upload=True),
        Target("tournament create", reverse("scoring:tournament_create"), staff_user),
        Target("tournament edit", reverse("scoring:tournament_edit", args=[tt]), org),
        Target("tournament state", reverse("scoring:tournament_state", args=[tt]), org, page="", names=["action"]),
        Target("members", reverse("scoring:members", args=[tt]), org, names=["remove"]),
        Target("round edit", reverse("scoring:round_edit", args=[tt, 2]), org),
        Target("round publish", reverse("scoring:round_publish", args=[tt, 2]), org, page="", names=["publish_anyway"]),
        Target("round pair", reverse("scoring:round_pair", args=[tt]), org),
        Target("players", reverse("scoring:players", args=[ts]), org),
        Target("player edit", reverse("scoring:player_edit", args=[ts, w.player.pk]), org),
        Target("player withdraw", reverse("scoring:player_withdraw", args=[ts, w.player.pk]), org,
               page=reverse("scoring:player_edit", args=[ts, w.player.pk])),
        Target("players import", reverse("scoring:players_import", args=[ts]), org, upload=True),
        Target("round seat", reverse("scoring:round_seat", args=[ts]), org),
        Target("pack build", reverse("scoring:round_pack_build", args=[tt, 1]), ref, page=""),
    ]
    for game, table in tables.items():
        slug = table.round.tournament.slug
        targets += [
            Target(f"{game} deal enter", reverse("scoring:table_enter", args=[slug, table.pk]), ref, container=table),
            Target(f"{game} deal edit", reverse("scoring:deal_edit", args=[slug, table.pk, 1]), ref, container=table),
            Target(f"{game} deal preview", reverse("scoring:deal_preview", args=[slug, table.pk]), ref,
                   page=reverse("scoring:table_enter", args=[slug, table.pk]), container=table),
            Target(f"{game} deal delete", reverse("scoring:deal_delete", args=[slug, table.pk, 1]), ref, container=table),
            Target(f"{game} table end", reverse("scoring:table_end", args=[slug, table.pk]), ref, page="", container=table,
                   names=["end-reason"]),
            Target(f"{game} table confirm", reverse("scoring:table_confirm", args=[slug, table.pk]), org, page="",
                   container=table, names=[f"total_{i}" for i in range(4)]),
        ]
    targets.append(Target("sichuan table restore", reverse("scoring:table_audit_restore", args=[ts, tb.pk, w.deal_entry.pk]),
                          ref, page="", container=tb, names=["restore-reason"]))
    return targets, w


def field_names(client, target: Target) -> list[str]:
    """The names the form's page posts (its inputs, selects and text areas), plus the target's own."""
    names = list(target.names)
    page = target.url if target.page is None else target.page
    if page:
        client.force_login(target.user)
        html = client.get(page).content.decode()
        names += [n for n in NAME.findall(html) if n not in ("csrfmiddlewaretoken",)]
    return sorted(set(names)) or ["version"]


def snapshot() -> list:
    rows = [list(model.objects.order_by("pk").values()) for model in SNAPSHOT_MODELS]
    rows.append(list(get_user_model().objects.order_by("pk").values("pk", "username", "is_superuser", "is_staff", "is_active")))
    return rows


class _Rollback(Exception):
    pass


def post_once(client, target: Target, data: dict, upload: bytes | None) -> None:
    """Post ``data`` in a savepoint that is rolled back; check the answer and the database."""
    try:
        with transaction.atomic():
            if target.container is not None:
                target.container.refresh_from_db()
            version = str(target.container.version) if target.container is not None else "0"
            body = {k: ([version if x == VERSION else x for x in v] if isinstance(v, list) else (version if v == VERSION else v))
                    for k, v in data.items()}
            if upload is not None:
                body["file"] = SimpleUploadedFile("fuzz.csv", upload, content_type="text/csv")
            before = snapshot()
            response = client.post(target.url, body)
            status = response.status_code
            assert status < 500, (target.name, body, status)
            if status not in (301, 302, 303):
                assert snapshot() == before, (target.name, body, status)
            raise _Rollback
    except _Rollback:
        pass


@pytest.fixture
def world_targets(client):
    targets, world = build_targets()
    return [(t, field_names(client, t)) for t in targets], world


def _fuzz(client, target: Target, names: list[str], examples: int) -> None:
    client.force_login(target.user)

    @settings(max_examples=examples, deadline=None, database=None,
              suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow, HealthCheck.data_too_large])
    @given(data=post_data(names), upload=CSV_FILE if target.upload else st.none())
    def run(data, upload):
        post_once(client, target, data, upload)

    run()


def test_every_form_is_fuzzed(client, world_targets):
    targets, _world = world_targets
    assert len(targets) >= 40
    for target, names in targets:
        _fuzz(client, target, names, EXAMPLES)


@pytest.mark.slow
def test_result_forms_fuzzed_longer(client, world_targets):
    targets, _world = world_targets
    for target, names in targets:
        if target.container is not None and ("enter" in target.name or "confirm" in target.name):
            _fuzz(client, target, names, max(EXAMPLES, 60))


def test_the_field_names_are_read_from_the_pages(client, world_targets):
    """The fuzzed names are the forms' own (so the examples reach their validation)."""
    by_name = {t.name: names for t, names in world_targets[0]}
    assert {"call_n", "first_out", "card_points_ns", "version"} <= set(by_name["hand enter"])
    assert {"name", "first_player_name", "seed", "joined_round"} <= set(by_name["team create"])
    assert {"username", "role", "new-username", "new-password1"} <= set(by_name["members"])
    assert any(n.startswith("deal-") for n in by_name["sichuan deal enter"])
    assert any(n.startswith("deal-") for n in by_name["taiwanese deal enter"])
    assert any(n.startswith("deal-") for n in by_name["tiengow deal enter"])
    assert "file" in by_name["teams import"] and "file" in by_name["players import"]
