"""A draft round is its organisers' only (docs/tournaments.md, docs/results.md "Who sees a draft round?"):
every page that shows a round's content (its tables, exports, score sheets and round pack, the
result pages of its matches and tables, the referee's pages and actions on them) answers 404 to
referees and the public, and the pages that list rounds leave it out.

Changed on purpose (issue 10): drafts are hidden from referees everywhere, not only on the
pairings page (their match pages and round pack were visible before)."""
from __future__ import annotations

import pytest
from django.urls import reverse

from scoring import tasks
from scoring.models import AuditEntry, Deal, Hand, Round
from tests.factories import PLAIN_HAND, SICHUAN_SELF_DRAW, MatchFactory, RoundFactory, TableFactory, finish_result
from tests.web.conftest import db_state

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


@pytest.fixture
def drafts(world):
    """Round 2 of both tournaments as a draft: Tai Pan ``Team 0`` - ``Team 2`` (a hand and its
    audit entry stored directly, as the sheet refuses drafts) and a Sichuan table with a deal;
    a round pack task of each draft."""
    tp2 = RoundFactory(tournament=world.tp, number=2, status=Round.Status.DRAFT)
    match = MatchFactory(round=tp2, table=1, team_ns=world.teams[0], team_ew=world.teams[2])
    hand = Hand.objects.create(match=match, number=1, record=PLAIN_HAND, ns=75, ew=25)
    entry = AuditEntry.objects.create(tournament=world.tp, match=match, action="create", object_type="hand", object_id=hand.pk)
    sc2 = RoundFactory(tournament=world.sc, number=2, status=Round.Status.DRAFT)
    table = TableFactory(round=sc2, number=1)
    deal = Deal.objects.create(table=table, number=1, record=SICHUAN_SELF_DRAW, net=[6, -2, -2, -2])
    table_entry = AuditEntry.objects.create(tournament=world.sc, table=table, action="create", object_type="deal", object_id=deal.pk)
    return {"match": match, "entry": entry, "table": table, "table_entry": table_entry,
            "tp_task": tasks.start_round_pack(tp2), "sc_task": tasks.start_round_pack(sc2)}


def pages(d) -> list[str]:
    """GET pages showing the content of the draft rounds (or of one of their results)."""
    m, t = d["match"].pk, d["table"].pk
    out = []
    for slug, task in (("tp", d["tp_task"]), ("sc", d["sc_task"])):
        out += [reverse("scoring:round_pairings", args=[slug, 2]), reverse("scoring:round_pairings", args=[slug, 2]) + "?projector=1",
                reverse("scoring:round_tables", args=[slug, 2]), reverse("scoring:pairings_export", args=[slug, 2]),
                reverse("scoring:pairings_export", args=[slug, 2]) + "?format=xlsx",
                reverse("scoring:round_pack_pdf", args=[slug, 2]), reverse("scoring:round_tables_pdf", args=[slug, 2]),
                reverse("scoring:round_pack_status", args=[slug, 2, task.pk])]
    return out + [
        reverse("scoring:match_detail", args=["tp", m]), reverse("scoring:score_sheet_pdf", args=["tp", m]),
        reverse("scoring:table_detail", args=["sc", t]), reverse("scoring:table_sheet_pdf", args=["sc", t]),
    ]


def referee_pages(d) -> list[str]:
    m, t = d["match"].pk, d["table"].pk
    return [
        reverse("scoring:match_enter", args=["tp", m]), reverse("scoring:hand_edit", args=["tp", m, 1]),
        reverse("scoring:hand_delete", args=["tp", m, 1]), reverse("scoring:match_confirm", args=["tp", m]),
        reverse("scoring:table_enter", args=["sc", t]), reverse("scoring:deal_edit", args=["sc", t, 1]),
        reverse("scoring:deal_delete", args=["sc", t, 1]), reverse("scoring:table_confirm", args=["sc", t]),
    ]


def referee_actions(d) -> list[tuple[str, dict]]:
    m, t = d["match"], d["table"]
    version = {"version": 0}
    return [
        (reverse("scoring:hand_preview", args=["tp", m.pk]), {**version, "first_out": "N", "card_points_ns": 50}),
        (reverse("scoring:match_enter", args=["tp", m.pk]), {**version, "first_out": "N", "card_points_ns": 50}),
        (reverse("scoring:match_end", args=["tp", m.pk]), {**version, "end-reason": "time"}),
        (reverse("scoring:match_resume", args=["tp", m.pk]), {**version, "end-reason": "clock"}),
        (reverse("scoring:match_confirm", args=["tp", m.pk]), version),
        (reverse("scoring:match_reopen", args=["tp", m.pk]), {**version, "reopen-reason": "typo"}),
        (reverse("scoring:hand_delete", args=["tp", m.pk, 1]), {**version, "reason": "typo"}),
        (reverse("scoring:audit_restore", args=["tp", m.pk, d["entry"].pk]), {**version, "restore-reason": "undo"}),
        (reverse("scoring:deal_preview", args=["sc", t.pk]), version),
        (reverse("scoring:table_end", args=["sc", t.pk]), {**version, "end-reason": "time"}),
        (reverse("scoring:table_resume", args=["sc", t.pk]), {**version, "end-reason": "clock"}),
        (reverse("scoring:table_confirm", args=["sc", t.pk]), version),
        (reverse("scoring:table_reopen", args=["sc", t.pk]), {**version, "reopen-reason": "typo"}),
        (reverse("scoring:deal_delete", args=["sc", t.pk, 1]), {**version, "reason": "typo"}),
        (reverse("scoring:table_audit_restore", args=["sc", t.pk, d["table_entry"].pk]), {**version, "restore-reason": "undo"}),
        (reverse("scoring:round_pack_build", args=["tp", 2]), {}),
        (reverse("scoring:round_pack_build", args=["sc", 2]), {}),
    ]


def test_the_organiser_sees_every_draft_page(client, world, drafts):
    client.force_login(world.organiser)
    for url in pages(drafts) + referee_pages(drafts):
        assert client.get(url).status_code == 200, url


def test_draft_pages_are_not_found_for_the_public_and_referees(client, world, drafts):
    for who in (None, world.outsider, world.other_referee, world.referee):
        client.logout()
        if who:
            client.force_login(who)
        for url in pages(drafts):
            assert client.get(url).status_code == 404, (url, who)


def test_draft_results_are_not_found_on_the_referee_pages(client, world, drafts):
    client.force_login(world.referee)
    for url in referee_pages(drafts):
        assert client.get(url).status_code == 404, url
    before = db_state()
    for url, data in referee_actions(drafts):
        assert client.post(url, data).status_code == 404, url
    assert db_state() == before


def test_pages_listing_rounds_leave_the_draft_out(client, world, drafts):
    """The overview, the round navigation of a published round and the standings' round choice
    list round 1 only; Team 0's breakdown shows its finished round 1 match (against Team 1), not
    the draft's pairing against Team 2."""
    finish_result(world.match)
    draft_links = [reverse("scoring:round_pairings", args=[slug, 2]) for slug in ("tp", "sc")]
    for who in (None, world.referee):
        client.logout()
        if who:
            client.force_login(who)
        for slug in ("tp", "sc"):
            for url in (reverse("scoring:tournament_detail", args=[slug]), reverse("scoring:round_pairings", args=[slug, 1])):
                page = client.get(url).content.decode()
                assert reverse("scoring:round_pairings", args=[slug, 1]) in page, url
                assert not any(link in page for link in draft_links), (url, who)
            assert client.get(reverse("scoring:standings", args=[slug])).context["played_rounds"] == [1]
        response = client.get(reverse("scoring:team_breakdown", args=["tp", world.teams[0].pk]))
        assert [g["round"] for g in response.context["breakdown"]["rounds"]] == [1]
        assert "Team 1" in response.content.decode() and "Team 2" not in response.content.decode()
    client.force_login(world.organiser)
    page = client.get(reverse("scoring:tournament_detail", args=["tp"])).content.decode()
    assert draft_links[0] in page
