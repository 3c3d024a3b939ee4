"""Every write view of a four-player tournament checks the role it needs: anonymous users go to
the login page, users without a role get 403, referees may write results only, organisers pass
every check (docs/tournaments.md "Roles"; scoring.policy).

Changed on purpose (docs/results.md): a referee may reopen a result while its round is open (was:
organisers only), so ``table reopen`` needs a referee; ending at the time limit, resuming and
restoring are result writes too."""
import pytest
from django.urls import reverse

from scoring.models import AuditEntry, Deal
from tests.factories import staff, table_round
from tests.web.entry_data import NAMES, tw_post

pytestmark = pytest.mark.django_db


def write_requests(t, table, player, entry):
    """(name, url, data, role needed) for every write view."""
    slug = t.slug
    return [
        ("players add", reverse("scoring:players", args=[slug]), {"name": "Eva", "joined_round": 1}, "organiser"),
        ("player edit", reverse("scoring:player_edit", args=[slug, player.pk]), {"name": "Anna B", "joined_round": 1}, "organiser"),
        ("player withdraw", reverse("scoring:player_withdraw", args=[slug, player.pk]), {"after_round": 1}, "organiser"),
        ("round seat", reverse("scoring:round_seat", args=[slug]), {"seed": ""}, "organiser"),
        ("round publish", reverse("scoring:round_tables_publish", args=[slug, 1]), {}, "organiser"),
        ("round close", reverse("scoring:round_tables_close", args=[slug, 1]), {}, "organiser"),
        ("table enter", reverse("scoring:table_enter", args=[slug, table.pk]), tw_post("draw"), "referee"),
        ("deal preview", reverse("scoring:deal_preview", args=[slug, table.pk]), tw_post("draw"), "referee"),
        ("deal edit", reverse("scoring:deal_edit", args=[slug, table.pk, 1]), tw_post("draw"), "referee"),
        ("deal delete", reverse("scoring:deal_delete", args=[slug, table.pk, 1]), {}, "referee"),
        ("table end", reverse("scoring:table_end", args=[slug, table.pk]), {"end-reason": "time"}, "referee"),
        ("table resume", reverse("scoring:table_resume", args=[slug, table.pk]), {"end-reason": "clock"}, "referee"),
        ("table confirm", reverse("scoring:table_confirm", args=[slug, table.pk]), {}, "referee"),
        ("table reopen", reverse("scoring:table_reopen", args=[slug, table.pk]), {"reopen-reason": "typo"}, "referee"),
        ("table restore", reverse("scoring:table_audit_restore", args=[slug, table.pk, entry.pk]), {"restore-reason": "back"}, "referee"),
    ]


def test_write_views_check_roles(client):
    rnd, (table,) = table_round("taiwanese", names=NAMES)
    t = rnd.tournament
    users = staff(t)
    Deal.objects.create(table=table, number=1, record={"draw": True}, net=[0, 0, 0, 0])
    entry = AuditEntry.objects.create(tournament=t, table=table, action=AuditEntry.Action.CREATE, object_type="deal",
                                      new={"number": 1, "record": {"draw": True}, "net": [0, 0, 0, 0]})
    player = table.seats.get(seat=0).player
    for name, url, data, role in write_requests(t, table, player, entry):
        client.logout()
        r = client.post(url, data)
        assert r.status_code == 302 and "login" in r["Location"], name
        client.force_login(users["outsider"])
        assert client.post(url, data).status_code == 403, name
        client.force_login(users["referee"])
        r = client.post(url, data)
        if role == "organiser":
            assert r.status_code == 403, name
        else:
            assert r.status_code in (200, 302, 400, 409), name  # 409: these posts carry no version
    # organiser passes every check (the view answers, no 403)
    client.force_login(users["organiser"])
    for name, url, data, _role in write_requests(t, table, player, entry):
        assert client.post(url, data).status_code != 403, name
