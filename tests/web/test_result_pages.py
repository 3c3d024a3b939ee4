"""QA fixes on the Tai Pan tournament side (issue 4 items 1-4, issue 2 item 6): publishing
refuses unsound drafts, reopening a match of a closed round puts the round back in progress,
restores need a reason and say what they restore, refused match actions show their error,
late entries cannot join a round already paired, a readable audit history, and round page links.

Scores from the NSKT rule text (DESIGN.md 2.1): card points as counted, a successful Tai Pan
+100 for the caller's team, a Grand Tai Pan +200, a double victory 200 instead of card points;
the target is 800, so two hands "N Grand Tai Pan, double victory NS" (400 each) finish a match.
"""
from __future__ import annotations

import datetime
import re

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from django.utils import timezone, translation

from scoring.draw import pairing, rounds
from scoring.errors import NotAllowed
from scoring.models import AuditEntry, Confirmation, Hand, Match, Membership, Player, Round, Team, Tournament
from scoring.results import matches as results

pytestmark = pytest.mark.django_db

GRAND_DV = {"calls": {"N": "grand_tai_pan"}, "first_out": "N", "double_victory": "NS", "card_points": None}
TP_75 = {"calls": {"N": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 75, "EW": 25}}


@pytest.fixture(autouse=True)
def english(settings):
    """Messages are asserted in English (Dutch is the site default)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


def add_team(t, name, **extra) -> Team:
    a = Player.objects.create(tournament=t, name=f"{name} A")
    b = Player.objects.create(tournament=t, name=f"{name} B")
    return Team.objects.create(tournament=t, name=name, first_player=a, second_player=b, **extra)


@pytest.fixture
def world(user_factory):
    t = Tournament.objects.create(name="QA Cup", slug="qa", game="taipan", rules={"preset": "nskt"})
    teams = [add_team(t, f"Team {c}") for c in "ABCD"]
    org, ref, ref2 = user_factory("org"), user_factory("ref"), user_factory("ref2")
    Membership.objects.create(tournament=t, user=org, role=Membership.Role.ORGANISER)
    Membership.objects.create(tournament=t, user=ref, role=Membership.Role.REFEREE)
    Membership.objects.create(tournament=t, user=ref2, role=Membership.Role.REFEREE)
    return {"t": t, "teams": teams, "org": org, "ref": ref, "ref2": ref2}


def texts(response) -> list[str]:
    return [str(m) for m in get_messages(response.wsgi_request)]


def closed_round_one(w, pairs=((0, 1), (2, 3)), bye=None) -> Round:
    """Round 1 played and closed: NS wins 800:0 at every table (two Grand Tai Pan double victories)."""
    t, teams = w["t"], w["teams"]
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    for table, (ns, ew) in enumerate(pairs, start=1):
        m = Match.objects.create(round=rnd, table=table, team_ns=teams[ns], team_ew=teams[ew])
        for _ in range(2):
            results.add_hand(m, GRAND_DV, w["ref"])
        results.confirm_match(m, w["ref2"])
    if bye is not None:
        m = Match.objects.create(round=rnd, table=len(pairs) + 1, team_ns=teams[bye], team_ew=None)
        results.recompute_match(m)
    rounds.close_round(rnd)
    return rnd


def draft(w, number, pairs) -> Round:
    rnd = Round.objects.create(tournament=w["t"], number=number, status=Round.Status.DRAFT)
    pairing.set_draft_pairing(rnd, [(w["teams"][a].pk, w["teams"][b].pk if b is not None else None) for a, b in pairs])
    return rnd


def publish(client, rnd, **data):
    return client.post(reverse("scoring:round_publish", args=[rnd.tournament.slug, rnd.number]), data, follow=True)


# --------------------------------------------------------------------------- 1. publishing drafts


def test_publish_refuses_a_double_booking_even_when_confirmed(client, world):
    rnd = draft(world, 1, [(0, 1), (0, 2), (3, None)])  # Team A at two tables
    client.force_login(world["org"])
    for data in ({}, {"publish_anyway": "1"}):
        r = publish(client, rnd, **data)
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
        joined = " ".join(texts(r))
        assert "cannot be published" in joined and "Double booking: Team A is at more than one table." in joined


def test_publish_refuses_a_withdrawn_team(client, world):
    world["teams"][3].withdrawn_after_round = 0
    world["teams"][3].save()
    rnd = draft(world, 1, [(0, 1), (2, 3)])
    client.force_login(world["org"])
    r = publish(client, rnd, publish_anyway="1")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    assert "Team D is withdrawn or has not joined yet in this round." in " ".join(texts(r))


def test_publish_refuses_a_team_not_entered_yet_and_a_missing_team(client, world):
    world["teams"][3].joined_round = 2
    world["teams"][3].save()
    e = add_team(world["t"], "Team E")
    rnd = draft(world, 1, [(0, 1), (2, 3)])  # D joins in round 2; E (present) left out
    client.force_login(world["org"])
    r = publish(client, rnd)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    joined = " ".join(texts(r))
    assert "Team D is withdrawn or has not joined yet in this round." in joined
    assert f"Missing: {e.name} is not paired." in joined


def test_rematch_needs_the_publish_anyway_box(client, world):
    closed_round_one(world)  # A-B, C-D
    rnd = draft(world, 2, [(0, 1), (2, 3)])  # the same tables again
    client.force_login(world["org"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 2])).content.decode()
    assert 'name="publish_anyway"' in page
    r = publish(client, rnd)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.DRAFT
    joined = " ".join(texts(r))
    assert "Rematch: Team A - Team B have already played each other." in joined and "Publish anyway" in joined
    r = publish(client, rnd, publish_anyway="1")
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED
    assert "Round 2 published." in texts(r)


def test_second_bye_needs_the_publish_anyway_box(world):
    e = add_team(world["t"], "Team E")
    world["teams"].append(e)
    closed_round_one(world, pairs=((0, 1), (2, 3)), bye=4)  # E had the bye
    rnd = draft(world, 2, [(0, 2), (1, 3), (4, None)])
    with pytest.raises(rounds.PublishRefused) as err:
        rounds.publish_round(rnd)
    assert err.value.needs_confirmation
    assert err.value.problems == ["Second bye: Team E has already had a bye."]
    rounds.publish_round(rnd, accept_warnings=True)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED


def test_clean_draft_publishes_without_the_box(client, world):
    rnd = draft(world, 1, [(0, 1), (2, 3)])
    client.force_login(world["org"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    assert 'name="publish_anyway"' not in page
    publish(client, rnd)
    assert Round.objects.get(pk=rnd.pk).status == Round.Status.PUBLISHED


# --------------------------------------------------------------------------- 2. reopen in a closed round


def reopen(client, m, reason="wrong card points"):
    m.refresh_from_db()
    return client.post(reverse("scoring:match_reopen", args=["qa", m.pk]),
                       {"reopen-version": m.version, "reopen-reason": reason}, follow=True)


def test_reopen_puts_a_closed_round_back_in_progress(client, world):
    r1 = closed_round_one(world)
    m = r1.matches.get(table=1)
    client.force_login(world["ref"])
    r = reopen(client, m)
    assert Round.objects.get(pk=r1.pk).status == Round.Status.IN_PROGRESS
    assert any("Round 1 is in progress again" in x for x in texts(r))
    assert not any("already been paired" in x for x in texts(r))
    with pytest.raises(NotAllowed, match="table\\(s\\) 1 is not confirmed"):
        rounds.close_round(Round.objects.get(pk=r1.pk))  # the match must be confirmed again first


def test_reopen_with_a_later_round_warns_about_its_pairing(client, world):
    r1 = closed_round_one(world)
    r2 = pairing.pair_next_round(world["t"])
    m = r1.matches.get(table=2)
    client.force_login(world["ref"])
    r = reopen(client, m)
    assert Round.objects.get(pk=r1.pk).status == Round.Status.IN_PROGRESS
    assert any(f"Round {r2.number} has already been paired on the old result" in x for x in texts(r))


# --------------------------------------------------------------------------- 3. restore


@pytest.fixture
def played(world):
    rnd = Round.objects.create(tournament=world["t"], number=1, status=Round.Status.PUBLISHED)
    m = Match.objects.create(round=rnd, table=3, team_ns=world["teams"][0], team_ew=world["teams"][1])
    for _ in range(3):
        results.add_hand(m, TP_75, world["ref"])
    m.refresh_from_db()
    return m


def restore(client, m, entry, reason):
    m.refresh_from_db()
    return client.post(reverse("scoring:audit_restore", args=["qa", m.pk, entry.pk]),
                       {"restore-version": m.version, "restore-reason": reason})


def test_restore_needs_a_reason(client, world, played):
    results.delete_hand(played.hands.get(number=2), world["ref"], reason="typo")
    entry = AuditEntry.objects.get(match=played, action=AuditEntry.Action.DELETE)
    client.force_login(world["ref"])
    r = restore(client, played, entry, "  ")
    assert r.status_code == 200 and r.context["restore_form"].errors
    assert played.hands.count() == 2
    assert not AuditEntry.objects.filter(match=played, action=AuditEntry.Action.RESTORE).exists()
    r = restore(client, played, entry, "deleted by mistake")
    assert r.status_code == 302 and played.hands.count() == 3


def test_restore_that_changes_nothing_is_refused(client, world, played):
    entry = AuditEntry.objects.get(match=played, action=AuditEntry.Action.CREATE, new__number=1)
    client.force_login(world["ref"])
    r = restore(client, played, entry, "just to be sure")
    assert r.status_code == 200
    assert "would change nothing" in " ".join(r.context["restore_form"].non_field_errors())
    assert "would change nothing" in r.content.decode()
    assert not AuditEntry.objects.filter(match=played, action=AuditEntry.Action.RESTORE).exists()


def test_restore_buttons_say_which_version(client, world, played):
    results.delete_hand(played.hands.get(number=3), world["ref"], reason="typo")
    client.force_login(world["ref"])
    page = client.get(reverse("scoring:match_detail", args=["qa", played.pk])).content.decode()
    delete = AuditEntry.objects.get(match=played, action=AuditEntry.Action.DELETE)
    create = AuditEntry.objects.filter(match=played, action=AuditEntry.Action.CREATE).first()
    row = lambda e: re.search(rf'<tr id="audit-{e.pk}">(.*?)</tr>', page, re.S).group(1)  # noqa: E731
    assert "Restore the version before this change" in row(delete)
    assert "Restore this version" in row(create) and "before this change" not in row(create)


# --------------------------------------------------------------------------- 4. refused actions are visible


def hand_post(m, **over):
    data = {"version": m.version, "call_n": "", "call_e": "", "call_s": "", "call_w": "",
            "first_out": "N", "double_victory": "", "card_points_ns": 50, "card_points_ew": ""}
    data.update(over)
    return data


def finished_match(world) -> Match:
    rnd = Round.objects.create(tournament=world["t"], number=1, status=Round.Status.PUBLISHED)
    m = Match.objects.create(round=rnd, table=1, team_ns=world["teams"][0], team_ew=world["teams"][1])
    for _ in range(2):
        results.add_hand(m, GRAND_DV, world["ref"])
    m.refresh_from_db()
    assert m.status == Match.Status.FINISHED
    return m


def test_hand_posted_to_a_finished_match_shows_an_error(client, world):
    m = finished_match(world)
    client.force_login(world["ref"])
    r = client.post(reverse("scoring:match_enter", args=["qa", m.pk]), hand_post(m))
    assert any("finished" in x for x in texts(r))
    assert "no more hands can be added" in r.content.decode()
    assert Hand.objects.filter(match=m).count() == 2


def test_invalid_hand_posted_to_a_finished_match_says_it_is_finished(client, world):
    m = finished_match(world)
    client.force_login(world["ref"])
    r = client.post(reverse("scoring:match_enter", args=["qa", m.pk]), hand_post(m, card_points_ns="abc"))
    assert "This match is finished: no more hands can be added." in texts(r)


def test_hand_posted_to_a_confirmed_match_shows_an_error(client, world):
    m = finished_match(world)
    results.confirm_match(m, world["ref2"])
    client.force_login(world["ref"])
    r = client.post(reverse("scoring:match_enter", args=["qa", m.pk]), hand_post(m))
    assert "This match is confirmed. Reopen it" in r.content.decode()


def test_second_confirmation_shows_an_error(client, world):
    m = finished_match(world)
    client.force_login(world["ref2"])
    url = reverse("scoring:match_confirm", args=["qa", m.pk])
    assert client.post(url, {"confirm-version": m.version}).status_code == 302
    m.refresh_from_db()
    r = client.post(url, {"confirm-version": m.version})
    assert "This match is already confirmed." in r.content.decode()
    assert Confirmation.objects.filter(match=m).count() == 1


# --------------------------------------------------------------------------- 5. team registration


def team_post(client, name, **extra):
    data = {"name": name, "affiliation": "", "first_player_name": f"{name} 1", "second_player_name": f"{name} 2",
            "seed": "", "joined_round": 1, "withdrawn_after_round": ""}
    data.update(extra)
    return client.post(reverse("scoring:team_create", args=["qa"]), data)


def test_late_entry_cannot_join_a_round_already_played_or_paired(client, world):
    closed_round_one(world)
    client.force_login(world["org"])
    r = team_post(client, "Late", joined_round=1)
    assert r.status_code == 200 and r.context["form"].errors["joined_round"]
    assert "join round 2 at the earliest" in r.content.decode()
    pairing.pair_next_round(world["t"])  # round 2 paired (draft)
    r = team_post(client, "Late", joined_round=2)
    assert r.status_code == 200 and r.context["form"].errors["joined_round"]
    r = team_post(client, "Late", joined_round=3)
    assert r.status_code == 302 and Team.objects.get(name="Late").joined_round == 3


def test_editing_a_paired_team_keeps_its_first_round(client, world):
    closed_round_one(world)
    team = world["teams"][0]
    client.force_login(world["org"])
    url = reverse("scoring:team_edit", args=["qa", team.pk])
    data = {"name": "Team A renamed", "affiliation": "", "first_player_name": "Team A A",
            "second_player_name": "Team A B", "seed": "", "joined_round": 1, "withdrawn_after_round": ""}
    assert client.post(url, data).status_code == 302
    r = client.post(url, {**data, "joined_round": 3})
    assert r.status_code == 200 and r.context["form"].errors["joined_round"]
    assert Team.objects.get(pk=team.pk).joined_round == 1


@pytest.mark.parametrize("field", ["seed", "joined_round"])
def test_seed_and_joined_round_start_at_one(client, world, field):
    client.force_login(world["org"])
    r = team_post(client, "Zero", **{field: 0})
    assert r.status_code == 200 and r.context["form"].errors[field]
    assert not Team.objects.filter(name="Zero").exists()


# --------------------------------------------------------------------------- 6. audit history


def test_audit_history_uses_hand_numbers_and_readable_values(client, world, played):
    results.update_hand(played.hands.get(number=2), {**TP_75, "card_points": {"NS": 55, "EW": 45}}, world["ref"], reason="typo")
    deleted = played.hands.get(number=3)
    results.delete_hand(deleted, world["ref"], reason="double")
    page = client.get(reverse("scoring:match_detail", args=["qa", played.pk])).content.decode()
    assert "Hand 3 deleted" in page and "Hand 2 changed" in page and "Hand 1 entered" in page
    assert "Deleted hand" not in page and "Edited hand" not in page  # no "<action> hand <database id>"
    # N called Tai Pan and went out first: NS 75 + 100 = 175, EW 25.
    assert "NS 175 / EW 25 (card points 75 / 25), N Tai Pan, first out N" in page
    assert "NS 155 / EW 45 (card points 55 / 45), N Tai Pan, first out N" in page
    assert "<details><summary>JSON</summary>" in page


def test_audit_match_rows_name_the_table(client, world):
    m = finished_match(world)
    results.confirm_match(m, world["ref2"])
    page = client.get(reverse("scoring:match_detail", args=["qa", m.pk])).content.decode()
    assert "Result of table 1 confirmed" in page
    assert "Confirmed, NS 800 / EW 0, winner Team A, match points 2 – 0" in page


def test_audit_sentence_is_one_message_with_placeholders(world, played, monkeypatch):
    """The whole sentence is translated, so Dutch can put the verb last ("Hand 5 verwijderd")."""
    from scoring.web.views import matches

    catalogue = {"Hand %(number)s deleted": "Hand %(number)s verwijderd"}
    monkeypatch.setattr(matches, "_t", lambda s: catalogue.get(s, s))
    results.delete_hand(played.hands.get(number=3), world["ref"], reason="double")
    entry = AuditEntry.objects.get(match=played, action=AuditEntry.Action.DELETE)
    assert matches.audit_action_text(entry, played) == "Hand 3 verwijderd"


# --------------------------------------------------------------------------- 7. page details


def test_confirmation_line_has_a_single_full_stop(client, world):
    m = finished_match(world)
    c = results.confirm_match(m, world["ref2"])
    when = timezone.make_aware(datetime.datetime(2026, 11, 30, 12, 47))
    Confirmation.objects.filter(pk=c.pk).update(confirmed_at=when)
    page = client.get(reverse("scoring:match_detail", args=["qa", m.pk])).content.decode()
    line = re.search(r"Confirmed by ref2 on [^<]*", page).group(0)
    assert "p.m." in line and ".." not in line


def test_closed_round_has_no_enter_hands_links(client, world):
    closed_round_one(world)
    client.force_login(world["ref"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    assert "Enter hands" not in page


def test_pair_next_round_only_on_the_latest_round(client, world):
    closed_round_one(world)
    client.force_login(world["org"])
    pair_url = reverse("scoring:round_pair", args=["qa"])
    assert pair_url in client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    pairing.pair_next_round(world["t"])
    page = client.get(reverse("scoring:round_pairings", args=["qa", 1])).content.decode()
    assert pair_url not in page and "Round 2 has been paired already." in page
