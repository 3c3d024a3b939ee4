"""Issue 5 item 5: the permission matrix of every write view. Each write is POSTed by an anonymous
visitor (sent to the login page), a referee of ANOTHER tournament (403), a referee of this
tournament (403 on organiser-only writes, let through on referee writes) and an organiser of this
tournament (let through everywhere). "Let through" means the role check passed: the view may still
refuse the (empty) form, but never with 403 or a login redirect. Nothing is written by the
refused roles."""
import pytest
from django.urls import reverse

from scoring.models import (
    AuditEntry,
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

pytestmark = pytest.mark.django_db

ORG, REF = "organiser", "referee"


@pytest.fixture
def world(django_user_model):
    users = {name: django_user_model.objects.create_user(name, password=f"pw-{name}-123")
             for name in ("org", "ref", "other_ref")}
    taipan = Tournament.objects.create(name="Tai Pan", slug="tp", game="taipan")
    four = Tournament.objects.create(name="Sichuan", slug="sc", game="sichuan")
    elsewhere = Tournament.objects.create(name="Elsewhere", slug="elsewhere", game="taipan")
    for t in (taipan, four):
        Membership.objects.create(tournament=t, user=users["org"], role=Membership.Role.ORGANISER)
        Membership.objects.create(tournament=t, user=users["ref"], role=Membership.Role.REFEREE)
    Membership.objects.create(tournament=elsewhere, user=users["other_ref"], role=Membership.Role.REFEREE)

    teams = []
    for i in range(2):
        p1 = Player.objects.create(tournament=taipan, name=f"P{i}a")
        p2 = Player.objects.create(tournament=taipan, name=f"P{i}b")
        teams.append(Team.objects.create(tournament=taipan, name=f"Team {i}", first_player=p1, second_player=p2))
    rnd = Round.objects.create(tournament=taipan, number=1, status=Round.Status.PUBLISHED)
    match = Match.objects.create(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    record = {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 50, "EW": 50}}
    Hand.objects.create(match=match, number=1, record=record, ns=50, ew=50)
    entry = AuditEntry.objects.create(tournament=taipan, match=match, action="create", object_type="hand", object_id=1)

    players = [Player.objects.create(tournament=four, name=f"S{i}") for i in range(4)]
    frnd = Round.objects.create(tournament=four, number=1, status=Round.Status.PUBLISHED)
    table = Table.objects.create(round=frnd, number=1)
    for seat, p in enumerate(players):
        TableSeat.objects.create(table=table, seat=seat, player=p)
    Deal.objects.create(table=table, number=1, record={}, net=[0, 0, 0, 0])
    return {"users": users, "taipan": taipan, "four": four, "match": match, "team": teams[0],
            "entry": entry, "table": table, "player": players[0]}


def writes(w):
    """(url, role needed) for every write view."""
    tp, sc, m, tb = w["taipan"].slug, w["four"].slug, w["match"].pk, w["table"].pk
    return [
        (reverse("scoring:tournament_edit", args=[tp]), ORG),
        (reverse("scoring:members", args=[tp]), ORG),
        (reverse("scoring:team_create", args=[tp]), ORG),
        (reverse("scoring:team_edit", args=[tp, w["team"].pk]), ORG),
        (reverse("scoring:teams_import", args=[tp]), ORG),
        (reverse("scoring:round_pair", args=[tp]), ORG),
        (reverse("scoring:round_edit", args=[tp, 1]), ORG),
        (reverse("scoring:round_publish", args=[tp, 1]), ORG),
        (reverse("scoring:round_start", args=[tp, 1]), ORG),
        (reverse("scoring:round_close", args=[tp, 1]), ORG),
        (reverse("scoring:match_enter", args=[tp, m]), REF),
        (reverse("scoring:hand_preview", args=[tp, m]), REF),
        (reverse("scoring:hand_edit", args=[tp, m, 1]), REF),
        (reverse("scoring:hand_delete", args=[tp, m, 1]), REF),
        (reverse("scoring:match_end", args=[tp, m]), REF),
        (reverse("scoring:match_confirm", args=[tp, m]), REF),
        (reverse("scoring:match_reopen", args=[tp, m]), REF),
        (reverse("scoring:audit_restore", args=[tp, m, w["entry"].pk]), REF),
        (reverse("scoring:round_pack_build", args=[tp, 1]), REF),
        (reverse("scoring:players", args=[sc]), ORG),
        (reverse("scoring:player_edit", args=[sc, w["player"].pk]), ORG),
        (reverse("scoring:player_withdraw", args=[sc, w["player"].pk]), ORG),
        (reverse("scoring:round_seat", args=[sc]), ORG),
        (reverse("scoring:round_tables_publish", args=[sc, 1]), ORG),
        (reverse("scoring:round_tables_close", args=[sc, 1]), ORG),
        (reverse("scoring:table_reopen", args=[sc, tb]), ORG),
        (reverse("scoring:table_confirm", args=[sc, tb]), REF),
        (reverse("scoring:table_enter", args=[sc, tb]), REF),
        (reverse("scoring:deal_edit", args=[sc, tb, 1]), REF),
        (reverse("scoring:deal_delete", args=[sc, tb, 1]), REF),
        (reverse("scoring:deal_preview", args=[sc, tb]), REF),
    ]


def _counts():
    return (Hand.objects.count(), Match.objects.count(), Team.objects.count(), Round.objects.count(),
            Deal.objects.count(), Player.objects.count(), Membership.objects.count())


def test_every_write_view_checks_the_role(client, world):
    before = _counts()
    for url, needed in writes(world):
        client.logout()
        response = client.post(url, {})
        assert response.status_code == 302 and "/accounts/login/" in response["Location"], (url, "anonymous")

        client.force_login(world["users"]["other_ref"])
        assert client.post(url, {}).status_code == 403, (url, "referee of another tournament")

        client.force_login(world["users"]["ref"])
        status = client.post(url, {}).status_code
        if needed == ORG:
            assert status == 403, (url, "referee on an organiser write")
        else:
            assert status != 403, (url, "referee on a referee write")
    # Nothing was written by a refused role (the empty forms of allowed roles are invalid too).
    assert _counts() == before

    for url, _needed in writes(world):
        client.force_login(world["users"]["org"])
        response = client.post(url, {})
        assert response.status_code != 403, (url, "organiser")
        assert "/accounts/login/" not in response.get("Location", ""), (url, "organiser")


def test_no_other_url_writes(client, world):
    """Every other URL of the app is read-only: an anonymous POST to it is refused (405, the login
    page, or 404 where the page does not exist for this game) and changes nothing."""
    from django.urls import URLPattern, get_resolver

    covered = {url for url, _ in writes(world)}
    args = {"slug": world["taipan"].slug, "pk": world["match"].pk, "number": 1, "task_id": 1, "entry_id": 1}
    before = _counts()
    checked = 0
    for pattern in get_resolver().url_patterns:
        inner = getattr(pattern, "url_patterns", None)
        if inner is None or getattr(pattern, "namespace", None) != "scoring":
            continue
        for p in inner:
            if not isinstance(p, URLPattern):
                continue
            kwargs = {k: args[k] for k in p.pattern.converters}
            url = reverse(f"scoring:{p.name}", kwargs=kwargs)
            if url in covered:
                continue
            response = client.post(url, {"name": "x", "username": "x", "role": "organiser"})
            checked += 1
            assert response.status_code in (302, 404, 405), (url, response.status_code)
            if response.status_code == 302:
                assert "/accounts/login/" in response["Location"], url
    assert checked >= 15
    assert _counts() == before
