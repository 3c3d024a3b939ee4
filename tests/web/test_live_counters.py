"""Every write a public page shows moves the tournament's state counters (issue 25 item 4,
:mod:`scoring.live.state`), so no conditional GET is ever answered 304 with a stale page.

The walk goes through every write path of a Tai Pan tournament and of a four-player one (services
as the web pages and the API call them, and the organisers' pages), and after each step checks
the invariant on every public page phones poll (standings, ``?round=1``, the round page, each
result page, the hall bar's announcements): when the page's live region (rendered afresh, the
shared region cache emptied) changed, its ETag changed. It also checks that the counters named
for the step moved, and that the round page stays 304 while a hand is saved in a table being
played (its running score is on the match page)."""
from __future__ import annotations

from datetime import timedelta

import pytest
from django.core.cache import cache
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.draw import noshow, pairing, rounds, seating
from scoring.hall import announcements, calls, clock, times_up, zones
from scoring.io import entrants_csv
from scoring.live import state
from scoring.models import LiveRound, LiveState, Match, Membership, Player, Round, RoundClock, Table, Team, Tournament
from scoring.participants import checkins
from scoring.participants.links import link_for
from scoring.policy import EntrantActor
from scoring.results import sheet
from scoring.results.disputes import dispute
from tests.factories import (
    GRAND_DOUBLE_VICTORY_NS,
    PLAIN_HAND,
    SICHUAN_SELF_DRAW,
    TAI_PAN_HAND,
    MembershipFactory,
    PlayerFactory,
    TournamentFactory,
    named_teams,
    staff,
)

pytestmark = pytest.mark.django_db

LIVE = {"HTTP_HX_REQUEST": "true", "HTTP_HX_TARGET": "live"}


def counters(t: Tournament) -> dict[str, int]:
    """Every counter of ``t``: its topics and each round's page and board."""
    row = dict(zip(state.TOURNAMENT_FIELDS, state.tournament_row(t.pk), strict=True))
    out = {topic: row[field] or 0 for topic, field in state.COUNTERS.items()}
    for number, version, board in LiveRound.objects.filter(round__tournament=t).values_list("round__number", "version", "board"):
        out[state.round_topic(number)], out[state.board_topic(number)] = version, board
    return out


class Watch:
    """The public pages of a tournament, read as an anonymous phone does."""

    def __init__(self, t: Tournament):
        self.t = t
        self.client = Client(HTTP_ACCEPT_LANGUAGE="en")

    def urls(self) -> list[str]:
        slug, kind = self.t.slug, ("match" if self.t.game == "taipan" else "table")
        urls = [reverse("scoring:standings", args=[slug]), reverse("scoring:standings", args=[slug]) + "?round=1",
                reverse("scoring:hall_news", args=[slug])]
        for rnd in Round.objects.filter(tournament=self.t).exclude(status=Round.Status.DRAFT):
            urls.append(reverse("scoring:round_pairings", args=[slug, rnd.number]))
            model = Match if kind == "match" else Table
            urls += [reverse(f"scoring:{kind}_detail", args=[slug, pk]) for pk in model.objects.filter(round=rnd).values_list("pk", flat=True)]
        return urls

    def read(self, url: str) -> tuple[str | None, bytes]:
        cache.clear()  # a kept region must not hide a change
        headers = {} if url.endswith("/hall/") else LIVE
        response = self.client.get(url, **headers)
        assert response.status_code == 200, (url, response.status_code)
        return response.get("ETag"), response.content

    def snapshot(self) -> dict[str, tuple]:
        return {url: self.read(url) for url in self.urls()}

    def step(self, what: str, action, *moved: str, still: tuple[str, ...] = ()):
        """Run ``action``; the counters ``moved`` must have increased and ``still`` not; every page
        whose region changed must have a new ETag."""
        self.t.refresh_from_db()
        before, seen = self.snapshot(), counters(self.t)
        result = action()
        self.t.refresh_from_db()
        after, now = self.snapshot(), counters(self.t)
        for topic in moved:
            assert now.get(topic, 0) > seen.get(topic, 0), f"{what}: {topic} did not move ({seen} -> {now})"
        for topic in still:
            assert now.get(topic, 0) == seen.get(topic, 0), f"{what}: {topic} moved"
        for url, (etag, content) in after.items():
            if url in before and before[url][1] != content:
                assert before[url][0] != etag, f"{what}: {url} changed under the same ETag"
        return result


def _again(watch: Watch):
    """Reading twice without a change gives the same regions and ETags (the invariant's premise)."""
    assert watch.snapshot() == watch.snapshot()


def test_every_taipan_write_moves_what_its_pages_show():
    t = TournamentFactory(player_entry=True)
    people = staff(t, referees=3)
    organiser, referee, other, third = people["organiser"], *people["referees"]
    teams = named_teams(t, ["Ann", "Bob", "Cid", "Dee", "Eve", "Fay"])
    watch = Watch(t)
    watch.step("entrants imported", lambda: entrants_csv.import_teams_csv(
        t, b"name,player1,player2\nGus,Gus A,Gus B\nHal,Hal A,Hal B\n"), "entrants", "standings")
    rnd = watch.step("round drawn", lambda: pairing.pair_next_round(t, organiser), "tournament", "round:1")
    watch.step("draft paired again", lambda: pairing.repair_draft(rnd, organiser, seed=99), "round:1")
    watch.step("round published", lambda: rounds.publish_round(rnd, organiser, accept_warnings=True),
               "tournament", "standings", "round:1")
    _again(watch)
    m1, m2, m3, m4 = Match.objects.filter(round=rnd).order_by("table")
    add = lambda m, hand, who=referee: sheet.add_record(m, hand, who, expected_version=m.version)  # noqa: E731
    watch.step("first hand", lambda: add(m1, PLAIN_HAND), "round:1", "board:1", still=("standings", "tournament"))
    round_url = reverse("scoring:round_pairings", args=[t.slug, 1])
    etag = watch.client.get(round_url)["ETag"]
    watch.step("hand while playing", lambda: add(m1, PLAIN_HAND), "board:1", still=("round:1", "standings"))
    assert watch.client.get(round_url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    watch.step("hand corrected while playing", lambda: sheet.edit_record(m1, 2, GRAND_DOUBLE_VICTORY_NS, referee,
                                                                         expected_version=m1.version, reason="x"),
               "board:1", still=("round:1",))
    watch.step("hand deleted while playing", lambda: sheet.delete_record(m1, 2, referee, expected_version=m1.version,
                                                                         reason="x"), "board:1", still=("round:1",))
    assert watch.client.get(round_url, HTTP_IF_NONE_MATCH=etag).status_code == 304
    watch.step("match finished", lambda: [add(m1, GRAND_DOUBLE_VICTORY_NS), add(m1, GRAND_DOUBLE_VICTORY_NS)],
               "round:1", "standings")
    watch.step("finished match corrected", lambda: sheet.edit_record(m1, 1, TAI_PAN_HAND, referee,
                                                                     expected_version=m1.version, reason="x"),
               "round:1", "standings")
    watch.step("confirmed", lambda: sheet.confirm(m1, other, expected_version=m1.version), "round:1", "standings")
    watch.step("reopened", lambda: sheet.reopen(m1, organiser, "card points", expected_version=m1.version),
               "round:1", "standings")
    side = EntrantActor(link_for(m1.team_ew))
    watch.step("disputed", lambda: dispute(m1, side, expected_version=m1.version, totals=[100, 0], note="no"), "round:1")
    watch.step("forfeit", lambda: noshow.match_no_show(m2, organiser, absent_team_id=m2.team_ns_id, reason="late"),
               "round:1", "standings")
    watch.step("time's up on a match", lambda: [add(m3, PLAIN_HAND),
                                               sheet.end_at_time(m3, referee, expected_version=m3.version, reason="t")],
               "round:1", "standings")
    def seen() -> int:  # the clock's version a page showed
        return RoundClock.objects.filter(round=rnd).values_list("version", flat=True).first() or 0

    watch.step("clock started", lambda: clock.start(rnd, organiser, version=seen()), "hall", "round:1")
    watch.step("clock paused", lambda: clock.pause(rnd, organiser, version=seen()), "hall")
    watch.step("clock resumed", lambda: clock.resume(rnd, organiser, version=seen()), "hall")
    watch.step("clock extended", lambda: clock.extend(rnd, organiser, minutes=5, version=seen()), "hall")
    note = watch.step("announced", lambda: announcements.post(t, organiser, text="Lunch at one",
                                                              ends_at=timezone.now() + timedelta(hours=1)), "hall")
    watch.step("announcement withdrawn", lambda: announcements.withdraw(note, organiser), "hall")
    watch.step("referee called", lambda: calls.call(m4, organiser), "hall", "board:1")
    watch.step("call answered", lambda: calls.answer(rnd, m4.table, referee), "hall", "board:1")
    watch.step("zone set", lambda: zones.set_zone(rnd, referee, "1-2", organiser), "hall", "board:1")
    watch.step("zone taken over", lambda: zones.set_zone(rnd, third, "2", organiser, take_over=True), "hall", "board:1")
    watch.step("table claimed", lambda: zones.claim(rnd, 4, referee), "hall", "board:1")
    watch.step("time's up", lambda: times_up.call(rnd, organiser), "hall", "round:1", "standings")
    for m in Match.objects.filter(round=rnd).exclude(status=Match.Status.CONFIRMED).order_by("table"):
        if m.status != Match.Status.FINISHED:
            continue
        watch.step(f"table {m.table} confirmed", lambda m=m: sheet.confirm(m, third, expected_version=m.version),
                   "round:1", "standings")
    watch.step("round closed", lambda: rounds.close_round(rnd, organiser), "round:1", "hall", still=("standings",))
    team = teams[0]
    team.name = "Annie"
    watch.step("team renamed", team.save, "entrants", "standings")
    watch.step("team withdrawn", lambda: checkins.withdraw(t, organiser, team.pk, after_round=1), "entrants", "standings")
    watch.step("team back", lambda: checkins.reinstate(t, organiser, team.pk), "entrants", "standings")
    t.venue = "Elsewhere"
    watch.step("tournament edited", t.save, "tournament", "standings", "hall", "entrants")
    organiser_client = Client()
    organiser_client.force_login(organiser)
    fresh = Team.objects.create(tournament=t, name="Zed", first_player=PlayerFactory(tournament=t),
                                second_player=PlayerFactory(tournament=t))
    watch.step("team deleted", lambda: organiser_client.post(reverse("scoring:team_edit", args=[t.slug, fresh.pk]),
                                                             {"action": "delete"}), "entrants", "standings")
    assert not Team.objects.filter(pk=fresh.pk).exists()


def test_every_four_player_write_moves_what_its_pages_show():
    t = TournamentFactory(game="sichuan")
    people = staff(t, referees=2)
    organiser, referee = people["organiser"], people["referee"]
    for i in range(8):
        PlayerFactory(tournament=t, name=f"P{i}")
    watch = Watch(t)
    outcome = watch.step("seated", lambda: seating.seat_round(t, organiser), "tournament", "round:1")
    rnd = outcome.round
    watch.step("seated again", lambda: seating.seat_round(t, organiser, seed=5), "round:1")
    watch.step("published", lambda: rounds.publish_round(rnd, organiser, accept_warnings=True), "tournament", "round:1")
    t1, t2 = Table.objects.filter(round=rnd).order_by("number")
    absent = t2.seats.first().player_id
    spare = watch.step("substitute added", lambda: PlayerFactory(tournament=t, name="Sub", is_substitute=True), "entrants")
    watch.step("substitute seated", lambda: noshow.table_no_show(t2, organiser, absent_player_id=absent,
                                                                  substitute_id=spare.pk, reason="ill"), "round:1")
    watch.step("first deal", lambda: sheet.add_record(t1, SICHUAN_SELF_DRAW, referee, expected_version=t1.version),
               "round:1", "board:1")
    watch.step("deal while playing", lambda: sheet.add_record(t1, SICHUAN_SELF_DRAW, referee, expected_version=t1.version),
               "board:1", still=("round:1",))
    watch.step("ended at the time limit", lambda: sheet.end_at_time(t1, referee, expected_version=t1.version, reason="t"),
               "round:1", "standings")
    member = MembershipFactory(tournament=t, role=Membership.Role.REFEREE).user
    watch.step("confirmed", lambda: sheet.confirm(t1, member, expected_version=t1.version), "round:1", "standings")
    player = Player.objects.filter(tournament=t).first()
    player.name = "Renamed"
    watch.step("player renamed", player.save, "entrants", "standings")


def test_check_in_moves_the_hall_and_the_entrants():
    t = TournamentFactory(checkin_required=True)
    organiser = staff(t)["organiser"]
    team, _other = named_teams(t, ["A", "B"])
    watch = Watch(t)
    watch.step("checked in", lambda: checkins.set_checkin(t, organiser, team.pk), "hall", "entrants")
    watch.step("checked out", lambda: checkins.set_checkin(t, organiser, team.pk, False), "hall", "entrants")


def test_bumps_of_one_transaction_publish_once(django_capture_on_commit_callbacks, monkeypatch):
    """Several bumps in one transaction: one publish after the commit, with every topic and the
    counters' new values; nothing before the commit."""
    from django.db import transaction

    from scoring.live import push

    sent = []
    monkeypatch.setattr(push, "publish", lambda tid, topics, versions=None: sent.append((tid, list(topics), dict(versions))))
    with django_capture_on_commit_callbacks(execute=True):
        with transaction.atomic():
            t = TournamentFactory()
            rnd = Round.objects.create(tournament=t, number=1)  # bumps too
            state.bump(t.pk, state.STANDINGS)
            state.bump(t.pk, state.HALL, state.round_topic(1))
            state.bump(t.pk, state.result_topic(7))
            assert sent == []
    assert len(sent) == 1
    tid, topics, versions = sent[0]
    assert tid == t.pk and {"standings", "hall", "round:1", "result:7"} <= set(topics)
    now = counters(t)
    assert versions["standings"] == now["standings"] and versions["round:1"] == now["round:1"] == rnd.live.version
    assert "result:7" not in versions


def test_a_new_counters_row_never_repeats_a_state():
    """The counters are change markers: a row made again (deleted, rebuilt) starts with a new epoch,
    so an ETag seen before never comes back."""
    t = TournamentFactory()
    state.bump(t.pk, state.STANDINGS)
    first = state.tournament_row(t.pk)
    t.live.delete()
    state.bump(t.pk, state.STANDINGS)
    again = state.tournament_row(t.pk)
    assert first[1:] == again[1:] and first[0] != again[0]


def test_deleting_a_tournament_makes_no_counters():
    """Deleting a tournament (as the import replacing one does) leaves no counters row behind (a
    delete never makes one: it would point at a tournament gone at the commit)."""
    t = TournamentFactory()
    a, b = named_teams(t, ["A", "B"])
    Round.objects.create(tournament=t, number=1).matches.create(table=1, team_ns=a, team_ew=b)
    Match.objects.filter(round__tournament=t).delete()
    Team.objects.filter(tournament=t).delete()
    t.delete()
    assert not LiveState.objects.filter(pk=t.pk).exists() and not LiveRound.objects.filter(round__tournament_id=t.pk).exists()
