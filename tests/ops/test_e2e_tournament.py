"""Issue 2 acceptance: a 12-team NSKT tournament run through 4 rounds entirely through the web
pages (Django test client, each step by the role that may do it): tournament and team
registration by the organiser, pairing, publishing, hand entry by a referee until 800, confirmation
by a second referee, closing rounds; then no rematches, every team paired each round, matches
finished at the target, standings in the order the NSKT ranking rules give, and PDFs that contain
the team names.

The confirmation form posts the plain ``version`` field of the result it shows (was
``confirm-version``).

The expected ranking is computed in this test straight from the hands the test itself typed in,
following docs/tournaments.md (match points win 2 / draw 1 / loss 0, then point difference, Buchholz =
sum of the opponents' match points, points scored), not from the application's derived columns.
"""
import csv
import io
import math
from collections import defaultdict

import pytest
from django.urls import reverse
from pypdf import PdfReader

from scoring.models import Match, Round, Tournament
from tests.factories import UserFactory

pytestmark = pytest.mark.django_db

SLUG = "nskt-e2e"
TEAMS = [f"Team {chr(ord('A') + i)}" for i in range(12)]  # seed i + 1: A strongest


def _post_ok(client, url, data=None, *, expect_redirect=True):
    response = client.post(url, data or {})
    if expect_redirect:
        assert response.status_code == 302, (url, response.status_code, response.content[:2000])
    return response


def _pdf_text(content: bytes) -> str:
    return "\n".join(page.extract_text() for page in PdfReader(io.BytesIO(content)).pages)


def _cards_for(strong_seed: int, weak_seed: int) -> int:
    """Card points of the stronger team in every hand of a match: 55..95 by the seed gap, so matches
    end with different scores (NSKT: card points in steps of 5, sum 100)."""
    return min(95, 50 + 5 * (weak_seed - strong_seed))


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


def test_twelve_team_tournament_through_the_web(client):
    organiser = UserFactory(username="org", is_staff=True)  # staff may create tournaments
    referee = UserFactory(username="ref")
    confirmer = UserFactory(username="ref2")
    outsider = UserFactory(username="someone")

    # --- organiser: tournament, members, teams --------------------------------------------
    client.force_login(organiser)
    data = {"name": "NSKT e2e", "slug": SLUG, "game": "taipan", "round_format": "target", "seed": 7,
            "rules_preset": "nskt", "rules_overrides": "",
            "tiebreak_1": "point_difference", "tiebreak_2": "buchholz", "tiebreak_3": "points_scored",
            "tiebreak_4": "head_to_head"}
    _post_ok(client, reverse("scoring:tournament_create"), data)
    tournament = Tournament.objects.get(slug=SLUG)
    for user in (referee, confirmer):
        _post_ok(client, reverse("scoring:members", args=[SLUG]), {"username": user.username, "role": "referee"})
    for seed, name in enumerate(TEAMS, start=1):
        _post_ok(client, reverse("scoring:team_create", args=[SLUG]), {
            "name": name, "affiliation": "Vereniging", "first_player_name": f"{name} one",
            "second_player_name": f"{name} two", "seed": seed, "joined_round": 1})
    assert tournament.teams.count() == 12
    seed_of = {t.name: t.seed for t in tournament.teams.all()}

    # A referee may not pair; an outsider may not enter hands.
    client.force_login(referee)
    assert client.post(reverse("scoring:round_pair", args=[SLUG])).status_code == 403

    typed = []  # (round, ns, ew, total_ns, total_ew) from the hands this test typed
    for number in range(1, 5):
        client.force_login(organiser)
        _post_ok(client, reverse("scoring:round_pair", args=[SLUG]))
        _post_ok(client, reverse("scoring:round_publish", args=[SLUG, number]))
        rnd = Round.objects.get(tournament=tournament, number=number)
        matches = list(rnd.matches.select_related("team_ns", "team_ew").order_by("table"))
        assert len(matches) == 6 and all(m.team_ew_id for m in matches)
        seen = [m.team_ns.name for m in matches] + [m.team_ew.name for m in matches]
        assert sorted(seen) == sorted(TEAMS), "every team plays exactly once per round"

        client.force_login(outsider)
        hand = {"call_n": "", "call_e": "", "call_s": "", "call_w": "", "first_out": "N",
                "double_victory": "", "card_points_ns": 50, "card_points_ew": 50}
        assert client.post(reverse("scoring:match_enter", args=[SLUG, matches[0].pk]), hand).status_code == 403

        client.force_login(referee)
        for m in matches:
            ns, ew = m.team_ns.name, m.team_ew.name
            strong_is_ns = seed_of[ns] < seed_of[ew]
            cp = _cards_for(min(seed_of[ns], seed_of[ew]), max(seed_of[ns], seed_of[ew]))
            hands_needed = math.ceil(800 / cp)
            for _ in range(hands_needed):
                m.refresh_from_db()
                _post_ok(client, reverse("scoring:match_enter", args=[SLUG, m.pk]), {
                    "call_n": "", "call_e": "", "call_s": "", "call_w": "",
                    "first_out": "N" if strong_is_ns else "E", "double_victory": "",
                    "card_points_ns": cp if strong_is_ns else 100 - cp, "version": m.version})
            m.refresh_from_db()
            strong, weak = hands_needed * cp, hands_needed * (100 - cp)
            assert m.status == Match.Status.FINISHED and m.ended == Match.Ended.TARGET
            assert (m.total_ns, m.total_ew) == ((strong, weak) if strong_is_ns else (weak, strong))
            assert max(m.total_ns, m.total_ew) >= 800
            # A hand after the finish is refused and nothing is saved.
            count = m.hands.count()
            client.post(reverse("scoring:match_enter", args=[SLUG, m.pk]), {
                "call_n": "", "call_e": "", "call_s": "", "call_w": "", "first_out": "N",
                "double_victory": "", "card_points_ns": 50, "version": m.version})
            assert m.hands.count() == count
            typed.append((number, ns, ew, m.total_ns, m.total_ew))

        # The referee who typed the hands may not confirm; the second referee does.
        m0 = matches[0]
        m0.refresh_from_db()
        client.post(reverse("scoring:match_confirm", args=[SLUG, m0.pk]), {"version": m0.version})
        m0.refresh_from_db()
        assert m0.status == Match.Status.FINISHED
        client.force_login(confirmer)
        for m in matches:
            m.refresh_from_db()
            _post_ok(client, reverse("scoring:match_confirm", args=[SLUG, m.pk]), {"version": m.version})
            m.refresh_from_db()
            assert m.status == Match.Status.CONFIRMED
        client.force_login(organiser)
        _post_ok(client, reverse("scoring:round_close", args=[SLUG, number]))
        assert Round.objects.get(pk=rnd.pk).status == Round.Status.CLOSED

    # --- no rematches -------------------------------------------------------------------------
    pairs = [frozenset((ns, ew)) for _, ns, ew, _, _ in typed]
    assert len(pairs) == len(set(pairs)) == 24

    # --- expected ranking from the typed results (docs/tournaments.md) ---------------------------------
    mp, diff, scored, opponents = defaultdict(int), defaultdict(int), defaultdict(int), defaultdict(list)
    for _, ns, ew, tns, tew in typed:
        for me, other, mine, theirs in ((ns, ew, tns, tew), (ew, ns, tew, tns)):
            mp[me] += 2 if mine > theirs else (1 if mine == theirs else 0)
            diff[me] += mine - theirs
            scored[me] += mine
            opponents[me].append(other)
    buchholz = {t: sum(mp[o] for o in opponents[t]) for t in TEAMS}
    key = {t: (mp[t], diff[t], buchholz[t], scored[t]) for t in TEAMS}
    expected_rank = {t: 1 + sum(1 for o in TEAMS if key[o] > key[t]) for t in TEAMS}

    # --- public standings (no login), as the CSV export of the standings page ----------------
    client.logout()
    page = client.get(reverse("scoring:standings", args=[SLUG]))
    assert page.status_code == 200
    for name in TEAMS:
        assert name in page.content.decode()
    export = client.get(reverse("scoring:standings_export", args=[SLUG]) + "?format=csv")
    assert export.status_code == 200
    rows = list(csv.reader(io.StringIO(export.content.decode("utf-8-sig"))))[1:]
    got_rank = {row[1]: int(row[0]) for row in rows}
    assert got_rank == expected_rank
    ranks_in_page_order = [int(row[0]) for row in rows]
    assert ranks_in_page_order == sorted(ranks_in_page_order)
    assert len(set(expected_rank.values())) > 6, "the results separate most teams"

    # --- PDFs, read back -------------------------------------------------------------------
    match = Match.objects.filter(round__tournament=tournament, round__number=4).select_related("team_ns", "team_ew").first()
    sheet = client.get(reverse("scoring:score_sheet_pdf", args=[SLUG, match.pk]))
    assert sheet.status_code == 200 and sheet["Content-Type"] == "application/pdf"
    text = _pdf_text(sheet.content)
    assert match.team_ns.name in text and match.team_ew.name in text
    pack = client.get(reverse("scoring:round_pack_pdf", args=[SLUG, 4]))
    assert pack.status_code == 200
    pack_text = _pdf_text(b"".join(pack.streaming_content))  # streamed from the file storage
    assert all(name in pack_text for name in TEAMS)
    standings_pdf = client.get(reverse("scoring:standings_pdf", args=[SLUG]))
    assert standings_pdf.status_code == 200
    assert all(name in _pdf_text(standings_pdf.content) for name in TEAMS)
