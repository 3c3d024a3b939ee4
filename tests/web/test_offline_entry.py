"""Offline-first entry, the server side (issue 25 item 3, docs/results.md "Saving without a
connection"): the JSON answers of the entry page's POST for the phone's outbox, the submission
token (the same hand posted twice is stored once), the chain rule (a later outbox hand of the same
table is accepted after the earlier ones were stored, refused when someone else changed the
table), the role checks and CSRF unchanged, the manifest and the service worker.

Values from the NSKT rules (docs/engines/taipan.md): a hand's card points add up to 100 and count
as scored (N out first, NS 75 : EW 25; NS 60 : EW 40); no calls."""
import pytest
from django.contrib.staticfiles import finders
from django.test import Client
from django.urls import reverse
from django.utils import translation

from scoring.models import Hand, Match, Round
from scoring.participants import links
from scoring.results import sheet
from scoring.web.views import outbox
from tests.factories import MatchFactory, RoundFactory, TeamFactory, TournamentFactory, named_teams, staff
from tests.web.entry_data import hand_data

pytestmark = pytest.mark.django_db

JSON = {"HTTP_ACCEPT": "application/json"}
T1, T2, T3 = "a" * 32, "b" * 32, "c" * 32


@pytest.fixture(autouse=True)
def english(settings):
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def world():
    t = TournamentFactory(name="NSKT Test Cup", slug="nskt-test")
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    match = MatchFactory(round=rnd, table=1, team_ns=TeamFactory(tournament=t), team_ew=TeamFactory(tournament=t))
    return t, match, staff(t)


def enter_url(match):
    return reverse("scoring:match_enter", args=[match.round.tournament.slug, match.pk])


def post(client, match, version, token, *, chain=(), ns=75, first_out="N", entered_as=None, **extra):
    data = hand_data(version, first_out=first_out, ns=ns, ew=100 - ns, submission=token, chain=",".join(chain))
    if entered_as is not None:
        data["entered_as"] = entered_as
    return client.post(enter_url(match), data, **JSON, **extra)


def hands(match):
    return list(Hand.objects.filter(match=match).order_by("number").values_list("number", "ns", "ew", "submission"))


def test_a_stored_hand_is_answered_with_its_number_and_the_version_after_it(client, world):
    t, match, people = world
    client.force_login(people["referee"])
    v0 = match.version
    r = post(client, match, v0, T1)
    assert r.status_code == 201 and r["Content-Type"] == "application/json" and r["Cache-Control"] == "no-store"
    match.refresh_from_db()
    assert r.json() == {"ok": True, "number": 1, "replayed": False, "version": match.version}
    assert match.version == v0 + 1
    assert hands(match) == [(1, 75, 25, T1)]


def test_the_same_hand_posted_twice_is_stored_once(client, world):
    """The answer got lost and the outbox sends the hand again: the same record, nothing new."""
    t, match, people = world
    client.force_login(people["referee"])
    v0 = match.version
    assert post(client, match, v0, T1).status_code == 201
    again = post(client, match, v0, T1)
    assert again.status_code == 200
    assert again.json() == {"ok": True, "number": 1, "replayed": True, "version": None}
    assert hands(match) == [(1, 75, 25, T1)]
    match.refresh_from_db()
    assert (match.total_ns, match.total_ew, match.version) == (75, 25, v0 + 1)


def test_a_chain_of_outbox_hands_is_stored_in_order(client, world):
    """Hands 2 and 3 were typed offline after hand 1: each is based on the page's version and
    names the earlier hands of the chain; each is accepted once those are stored."""
    t, match, people = world
    client.force_login(people["referee"])
    v0 = match.version
    assert post(client, match, v0, T1, ns=75).status_code == 201
    r2 = post(client, match, v0, T2, chain=[T1], ns=60)
    assert r2.status_code == 201 and r2.json()["number"] == 2
    r3 = post(client, match, v0, T3, chain=[T1, T2], ns=50)
    assert r3.status_code == 201 and r3.json()["number"] == 3
    # hand 2 again (its answer lost): the same record, and hand 3 stays stored once
    assert post(client, match, v0, T2, chain=[T1], ns=60).json()["replayed"] is True
    assert hands(match) == [(1, 75, 25, T1), (2, 60, 40, T2), (3, 50, 50, T3)]
    match.refresh_from_db()
    assert (match.total_ns, match.total_ew, match.version) == (185, 115, v0 + 3)


def test_a_chain_hand_is_refused_when_someone_else_changed_the_table_in_between(client, world):
    t, match, people = world
    client.force_login(people["referee"])
    v0 = match.version
    assert post(client, match, v0, T1).status_code == 201
    # a colleague saves a hand on the same table
    sheet.add_record(match, {"calls": {}, "first_out": "E", "double_victory": None, "card_points": {"NS": 10, "EW": 90}},
                     people["referees"][1], expected_version=v0 + 1)
    r = post(client, match, v0, T2, chain=[T1], ns=60)
    assert r.status_code == 409
    assert r.json()["code"] == "stale" and "changed by someone else" in r.json()["message"]
    assert [h[1:3] for h in hands(match)] == [(75, 25), (10, 90)]


def test_a_chain_hand_is_refused_while_the_earlier_one_is_not_stored(client, world):
    """The outbox sends in order; a hand whose earlier hand is not stored (refused, discarded) is
    never stored on its own."""
    t, match, people = world
    client.force_login(people["referee"])
    r = post(client, match, match.version, T2, chain=[T1])
    assert r.status_code == 409 and r.json()["code"] == "stale"
    assert hands(match) == []


def test_a_hand_based_on_a_stale_page_is_refused(client, world):
    t, match, people = world
    client.force_login(people["referee"])
    v0 = match.version
    sheet.add_record(match, {"calls": {}, "first_out": "E", "double_victory": None, "card_points": {"NS": 10, "EW": 90}},
                     people["referees"][1], expected_version=v0)
    r = post(client, match, v0, T1)
    assert r.status_code == 409 and r.json()["code"] == "stale"
    assert len(hands(match)) == 1


def test_a_damaged_chain_or_invalid_input_is_refused_with_the_reasons(client, world):
    t, match, people = world
    client.force_login(people["referee"])
    r = post(client, match, match.version, T1, chain=["<script>"])
    assert r.status_code == 400 and r.json()["code"] == "refused"
    r = post(client, match, match.version, T1, ns=72)  # card points count in fives
    assert r.status_code == 400 and r.json()["code"] == "invalid" and r.json()["errors"]
    assert hands(match) == []


def test_a_finished_result_refuses_the_outbox_hand_as_locked(client, world):
    t, match, people = world
    client.force_login(people["referee"])
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED)
    r = post(client, match, match.version, T1)
    assert r.status_code == 409 and r.json()["code"] == "locked"
    assert hands(match) == []


def test_roles_are_checked_as_for_the_form(client, world):
    t, match, people = world
    r = post(client, match, match.version, T1)  # not logged in: the hand keeps waiting
    assert r.status_code == 401 and r.json()["code"] == "login"
    client.force_login(people["outsider"])
    r = post(client, match, match.version, T1)
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    assert hands(match) == []
    # without the JSON header the form's behaviour is unchanged: 403 page
    assert client.post(enter_url(match), hand_data(match.version, first_out="N", ns=75, ew=25)).status_code == 403


def test_a_link_holder_stores_outbox_hands_and_the_other_side_may_not():
    t = TournamentFactory(slug="links", player_entry=True)
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.PUBLISHED)
    ns, ew = named_teams(t, ["De Draken", "Feniksen Utrecht"])
    match = MatchFactory(round=rnd, table=1, team_ns=ns, team_ew=ew)
    tokens = {str(link.entrant): links.token_of(link) for link in links.ensure_links(t)}
    draken, feniksen = Client(), Client()
    draken.post(reverse("scoring:open_link"), {"code": tokens["De Draken"]})
    feniksen.post(reverse("scoring:open_link"), {"code": tokens["Feniksen Utrecht"]})
    v0 = match.version
    assert post(draken, match, v0, T1).status_code == 201
    assert post(draken, match, v0, T2, chain=[T1], ns=60).status_code == 201
    r = post(feniksen, match, v0 + 2, T3)
    assert r.status_code == 403 and r.json()["code"] == "forbidden"
    assert [h[:3] for h in hands(match)] == [(1, 75, 25), (2, 60, 40)]


def test_csrf_stays_on_and_the_outbox_gets_a_fresh_token(world):
    t, match, people = world
    client = Client(enforce_csrf_checks=True)
    client.force_login(people["referee"])
    assert post(client, match, match.version, T1).status_code == 403  # no token
    assert hands(match) == []
    r = client.get(reverse("scoring:outbox_csrf"))
    assert r.status_code == 200 and "no-store" in r["Cache-Control"]
    token = r.json()["token"]
    assert post(client, match, match.version, T1, HTTP_X_CSRFTOKEN=token).status_code == 201
    assert len(hands(match)) == 1


def test_the_form_post_accepts_a_chain_too(client, world):
    """The ordinary form (no JSON): a chain hand saved the ordinary way answers as before."""
    t, match, people = world
    client.force_login(people["referee"])
    v0 = match.version
    post(client, match, v0, T1)
    r = client.post(enter_url(match), hand_data(v0, first_out="N", ns=60, ew=40, submission=T2, chain=T1))
    assert r.status_code == 302 and r["Location"].endswith("#record-2")
    assert [h[:3] for h in hands(match)] == [(1, 75, 25), (2, 60, 40)]


def test_the_manifest_and_the_service_worker(client):
    r = client.get(reverse("scoring:web_manifest"))
    assert r.status_code == 200 and r["Content-Type"] == "application/manifest+json"
    data = r.json()
    assert data["display"] == "standalone" and data["start_url"] == reverse("scoring:my_tables")
    assert {i["sizes"] for i in data["icons"]} == {"192x192", "512x512"}
    for size, path in outbox.ICONS:  # the icons are static files, PNG of their size
        with open(finders.find(path), "rb") as f:
            head = f.read(24)
        assert head[:8] == b"\x89PNG\r\n\x1a\n" and int.from_bytes(head[16:20], "big") == size
    r = client.get(reverse("scoring:service_worker"))
    assert r.status_code == 200 and r["Content-Type"].startswith("text/javascript")
    assert r["Service-Worker-Allowed"] == "/" and r["Cache-Control"] == "no-cache"
    assert "Content-Security-Policy" in r
    body = r.content.decode()
    assert "workbox-routing.prod.js" in body and "addCacheListener" in body and "{%" not in body


def test_the_entry_page_and_the_lists_link_the_web_app(client, world):
    t, match, people = world
    client.force_login(people["referee"])
    for page in (enter_url(match), reverse("scoring:my_tables")):
        html = client.get(page).content.decode()
        assert 'rel="manifest"' in html and 'id="outbox"' in html and "js/outbox.js" in html
        assert "{n} hand waiting to be sent" in html and "{n} hands waiting to be sent" in html
    html = client.get(enter_url(match)).content.decode()
    assert 'name="chain" value=""' in html and 'data-heading="Hand {n}"' in html


def test_a_hand_entered_as_someone_else_waits_for_them_and_is_not_stored(client, world):
    """The referee's login ran out on a phone with a hand waiting, and the organiser logged in on
    it: the hand (entered as the referee) is not stored under the organiser's name (409 "owner",
    the outbox keeps it waiting); sent by the referee it is stored, and a link holder's hand
    likewise waits for its link."""
    t, match, people = world
    referee, organiser = people["referee"], people["organiser"]
    client.force_login(organiser)
    r = post(client, match, match.version, T1, entered_as=f"user:{referee.pk}")
    assert r.status_code == 409 and r.json()["code"] == "owner"
    assert hands(match) == []
    client.force_login(referee)
    r = post(client, match, match.version, T1, entered_as=f"user:{referee.pk}")
    assert r.status_code == 201
    stored = Hand.objects.get(match=match)
    assert stored.entered_by == referee
    r = post(client, match, match.version + 1, T2, entered_as="link:1")
    assert r.status_code == 409 and r.json()["code"] == "owner"
    assert len(hands(match)) == 1


def test_the_entry_form_records_who_it_is_opened_as(client, world):
    t, match, people = world
    referee = people["referee"]
    referee.first_name, referee.last_name = "Vera", "Jacobs"
    referee.save()
    client.force_login(referee)
    html = client.get(enter_url(match)).content.decode()
    assert f'name="entered_as" value="user:{referee.pk}" data-name="Vera Jacobs"' in html
    assert f'data-owner="user:{referee.pk}"' in html  # the outbox's banner: whom this page sends for
