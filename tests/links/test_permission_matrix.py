"""The permission matrix of private links and API tokens (issue 15 acceptance): every result write
(enter, edit, delete, end at the time limit, resume, confirm, dispute), for a Tai Pan match and a
four-player table, through a phone's session (the pages) and through ``Authorization: Link`` (the
API), by the side that may do it (allowed) and by every other link: the other side of the same
table where the rule is "one side enters, the other confirms" (refused by the sheet), an entrant
of another table and of another tournament, a link of a tournament without player entry, a
revoked link, and for the API also user tokens (referees and organisers correct rather than
dispute). Every refused request changes nothing at all (every row of the app, every user and
token compared), and the same request by the allowed side does the write. A link or token never
reads or writes a result of an unpublished (draft) round.

Login links (issue 22 item 3): a link an organiser makes gives the person who opens it exactly
the invited role in the invited tournament, once; a second phone and a revoked link get nothing."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.test import Client
from django.urls import reverse

from scoring.models import Deal, Dispute, EntrantLink, Hand, Match, Tournament
from scoring.participants import links
from scoring.results import sheet
from tests.api.conftest import api_url
from tests.factories import GRAND_DOUBLE_VICTORY_NS, PLAIN_HAND, SICHUAN_SELF_DRAW, TAI_PAN_HAND, entry_data
from tests.links.conftest import build_link_world, db_state, open_link

pytestmark = pytest.mark.django_db

SICHUAN_SOUTH = {**SICHUAN_SELF_DRAW, "events": [{**SICHUAN_SELF_DRAW["events"][0], "player": "S"}]}
SLUG = {"match": "tp", "table": "sc"}
#: Per kind: the result, the side that enters, the side that confirms, an entrant of another
#: table of the same round, an entrant of the other tournament.
SIDES = {"match": ("match", "Alpha", "Bravo", "Charlie", "Ann"), "table": ("table", "Ann", "Cas", "Eve", "Alpha")}
RECORDS = {"match": (PLAIN_HAND, TAI_PAN_HAND), "table": (SICHUAN_SELF_DRAW, SICHUAN_SOUTH)}
FINISH = {"match": [GRAND_DOUBLE_VICTORY_NS] * 2, "table": [SICHUAN_SELF_DRAW]}
PAGE_NAMES = {
    "match": {"enter": "match_enter", "edit": "hand_edit", "delete": "hand_delete", "end": "match_end",
              "resume": "match_resume", "confirm": "match_confirm", "dispute": "match_dispute"},
    "table": {"enter": "table_enter", "edit": "deal_edit", "delete": "deal_delete", "end": "table_end",
              "resume": "table_resume", "confirm": "table_confirm", "dispute": "table_dispute"},
}


def _records(c):
    return Hand.objects.filter(match=c) if isinstance(c, Match) else Deal.objects.filter(table=c)


def reload(obj):
    return type(obj).objects.get(pk=obj.pk)


@dataclass
class Write:
    """One write: who may do it, the page request (URL, POST data), the API request (method, URL,
    JSON body) and how to tell it was done."""

    allowed: str
    same_table: str
    page_url: str
    page_data: dict
    api_method: str
    api_url: str
    api_body: dict
    done: Callable[[], bool]


def _entered(w, kind, actions=("record",)):
    c = getattr(w, SIDES[kind][0])
    entering = w.actor(SIDES[kind][1])
    if "record" in actions:
        sheet.add_record(c, RECORDS[kind][0], entering, expected_version=c.version)
    if "finish" in actions:
        for record in FINISH[kind]:
            if c.status != c.Status.FINISHED:
                sheet.add_record(c, record, entering, expected_version=c.version)
        if c.status != c.Status.FINISHED:
            sheet.end_at_time(c, entering, expected_version=c.version, reason="time")
    if "end" in actions:
        sheet.end_at_time(c, entering, expected_version=c.version, reason="time")
    return c


def case(w, kind: str, action: str) -> Write:
    _name, entering, confirming, *_rest = SIDES[kind]
    page = PAGE_NAMES[kind][action]
    slug = SLUG[kind]
    c = getattr(w, SIDES[kind][0])
    if action == "enter":
        return Write(entering, "", reverse(f"scoring:{page}", args=[slug, c.pk]), entry_data(c, RECORDS[kind][0]),
                     "post", api_url(f"{kind}-records", slug, c.pk), {"version": c.version, "record": RECORDS[kind][0]},
                     lambda: _records(c).count() == 1)
    if action == "edit":
        c = _entered(w, kind)
        before = _records(c).get().record
        return Write(entering, confirming, reverse(f"scoring:{page}", args=[slug, c.pk, 1]),
                     entry_data(c, RECORDS[kind][1], reason="typo"),
                     "put", api_url(f"{kind}-record", slug, c.pk, 1), {"version": c.version, "record": RECORDS[kind][1], "reason": "typo"},
                     lambda: _records(c).get().record != before)
    if action == "delete":
        c = _entered(w, kind)
        return Write(entering, confirming, reverse(f"scoring:{page}", args=[slug, c.pk, 1]), {"version": c.version, "reason": "twice"},
                     "delete", api_url(f"{kind}-record", slug, c.pk, 1), {"version": c.version, "reason": "twice"},
                     lambda: not _records(c).exists())
    if action == "end":
        c = _entered(w, kind)
        return Write(entering, confirming, reverse(f"scoring:{page}", args=[slug, c.pk]), {"version": c.version, "end-reason": "time"},
                     "post", api_url(f"{kind}-end", slug, c.pk), {"version": c.version, "reason": "time"},
                     lambda: reload(c).ended == "time")
    if action == "resume":
        c = _entered(w, kind, ("record", "end"))
        return Write(entering, confirming, reverse(f"scoring:{page}", args=[slug, c.pk]), {"version": c.version, "end-reason": "clock"},
                     "post", api_url(f"{kind}-resume", slug, c.pk), {"version": c.version, "reason": "clock"},
                     lambda: reload(c).ended == "")
    c = _entered(w, kind, ("finish",))
    sides = 2 if kind == "match" else 4
    if action == "confirm":
        return Write(confirming, entering, reverse(f"scoring:{page}", args=[slug, c.pk]), {"version": c.version},
                     "post", api_url(f"{kind}-confirm", slug, c.pk), {"version": c.version},
                     lambda: reload(c).status == c.Status.CONFIRMED)
    totals = [1] * sides
    return Write(confirming, entering, reverse(f"scoring:{page}", args=[slug, c.pk]),
                 {"version": c.version, **{f"dispute-total_{i}": t for i, t in enumerate(totals)}, "dispute-note": "no"},
                 "post", api_url(f"{kind}-dispute", slug, c.pk), {"version": c.version, "totals": totals, "note": "no"},
                 lambda: Dispute.objects.exists())


ACTIONS = ("enter", "edit", "delete", "end", "resume", "confirm", "dispute")
KINDS = ("match", "table")


def phone(w, name: str) -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    assert open_link(client, w.token(name)).status_code == 302
    return client


def api_send(client, write: Write):
    if write.api_method == "delete":
        query = "&".join(f"{k}={v}" for k, v in write.api_body.items())
        return client.delete(f"{write.api_url}?{query}")
    return getattr(client, write.api_method)(write.api_url, write.api_body, format="json")


#: What each kind of refused link gets: (on the pages, through the API).
REFUSALS = {
    "same table, other side": None,  # per action, below
    "another table": (403, 403),
    "another tournament": ("login", 403),
    "revoked": (403, 401),  # the page says the phone's link stopped working (no login page: it has no account)
}
#: The other side of the same table: entering is refused for the side that does not enter
#: (403 on the pages, the sheet's 409 through the API); confirming and disputing are refused for
#: the side that entered (the form shows the sheet's refusal: 400; 409 through the API).
SAME_TABLE = {"enter": None, "edit": (403, 409), "delete": (403, 409), "end": (403, 409), "resume": (403, 409),
              "confirm": (400, 409), "dispute": (400, 409)}


def _check_page(response, expected, what):
    if expected == "login":
        assert response.status_code == 302 and response["Location"].startswith(reverse("login")), what
    else:
        assert response.status_code == expected, (what, response.status_code)


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("action", ACTIONS)
def test_refused_links_change_nothing(world, kind, action):
    w = world
    write = case(w, kind, action)
    _name, entering, confirming, other_table, other_tournament = SIDES[kind]
    who = {"another table": other_table, "another tournament": other_tournament}
    if write.same_table:
        who["same table, other side"] = write.same_table
    clients = {label: (phone(w, name), w.api(name)) for label, name in who.items()}
    revoked_phone, revoked_api = phone(w, write.allowed), w.api(write.allowed)
    links.revoke(EntrantLink.objects.get(pk=w.links[write.allowed].pk))
    clients["revoked"] = (revoked_phone, revoked_api)
    for label, (page_client, api_client) in clients.items():
        page_status, api_status = SAME_TABLE[action] if label == "same table, other side" else REFUSALS[label]
        state = db_state()
        _check_page(page_client.post(write.page_url, write.page_data), page_status, (label, "page"))
        assert db_state() == state, (label, "page")
        r = api_send(api_client, write)
        assert r.status_code == api_status, (label, "api", r.status_code, r.content)
        assert db_state() == state, (label, "api")
        assert not write.done(), label


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("action", ACTIONS)
def test_the_allowed_side_writes_on_the_pages(world, kind, action):
    write = case(world, kind, action)
    r = phone(world, write.allowed).post(write.page_url, write.page_data)
    assert r.status_code == 302 and not r["Location"].startswith(reverse("login")), (r.status_code, r.content.decode()[:1500])
    assert write.done()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("action", ACTIONS)
def test_the_allowed_side_writes_through_the_api(world, kind, action):
    write = case(world, kind, action)
    r = api_send(world.api(write.allowed), write)
    assert r.status_code in (200, 201), r.content
    assert write.done()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("action", ACTIONS)
def test_without_player_entry_no_link_writes(db, kind, action):
    w = build_link_world(player_entry=False)
    Tournament.objects.update(player_entry=True)
    write = case(w, kind, action)  # the result's state is set up with player entry on
    Tournament.objects.update(player_entry=False)
    for name in {write.allowed, write.same_table} - {""}:
        state = db_state()
        page = phone(w, name).post(write.page_url, write.page_data)
        assert page.status_code == 403, (name, page.status_code)
        assert api_send(w.api(name), write).status_code == 403, name
        assert db_state() == state and not write.done(), name


@pytest.mark.parametrize("kind", KINDS)
def test_disputes_are_for_links_only(world, kind):
    """Tokens of referees and organisers (who correct results instead), of an outsider, and no
    credentials: the dispute endpoint refuses them all and nothing changes."""
    write = case(world, kind, "dispute")
    for who, status in {None: 401, "outsider": 403, "referee": 403, "organiser": 403}.items():
        state = db_state()
        assert api_send(world.api(who), write).status_code == status, who
        assert db_state() == state, who
    assert not write.done()


# --------------------------------------------------------------------------- draft rounds


def test_a_link_never_reads_or_writes_an_unpublished_round(world):
    w = world
    alpha, ann = phone(w, "Alpha"), phone(w, "Ann")
    page_reads = [(alpha, reverse("scoring:match_detail", args=["tp", w.draft_match.pk])),
                  (alpha, reverse("scoring:round_pairings", args=["tp", 2])),
                  (alpha, reverse("scoring:score_sheet_pdf", args=["tp", w.draft_match.pk])),
                  (ann, reverse("scoring:table_detail", args=["sc", w.draft_table.pk])),
                  (ann, reverse("scoring:round_tables", args=["sc", 2]))]
    for client, url in page_reads:
        assert client.get(url).status_code == 404, url
    home = alpha.get(reverse("scoring:entrant_home", args=["tp"])).content.decode()
    assert f"/match/{w.draft_match.pk}/" not in home and "Round 2" not in home
    api_reads = [("Alpha", api_url("round-detail", "tp", 2)), ("Alpha", api_url("match-detail", "tp", w.draft_match.pk)),
                 ("Alpha", api_url("match-records", "tp", w.draft_match.pk)), ("Ann", api_url("round-detail", "sc", 2)),
                 ("Ann", api_url("table-detail", "sc", w.draft_table.pk))]
    for name, url in api_reads:
        assert w.api(name).get(url).status_code == 404, url
    assert 2 not in [r["number"] for r in w.api("Alpha").get(api_url("round-list", "tp")).json()]
    state = db_state()
    writes = [(alpha, reverse("scoring:match_enter", args=["tp", w.draft_match.pk]), entry_data(w.draft_match, PLAIN_HAND)),
              (ann, reverse("scoring:table_enter", args=["sc", w.draft_table.pk]), entry_data(w.draft_table, SICHUAN_SELF_DRAW))]
    for client, url, data in writes:
        assert client.post(url, data).status_code == 404, url
    for name, url, body in (("Alpha", api_url("match-records", "tp", w.draft_match.pk), {"version": 0, "record": PLAIN_HAND}),
                            ("Ann", api_url("table-records", "sc", w.draft_table.pk), {"version": 0, "record": SICHUAN_SELF_DRAW}),
                            ("Alpha", api_url("match-confirm", "tp", w.draft_match.pk), {"version": 0})):
        assert w.api(name).post(url, body, format="json").status_code == 404, url
    assert db_state() == state


def test_an_unknown_link_token_is_refused_and_guessing_is_rate_limited(world, one_window):
    client = world.api(None)
    client.credentials(HTTP_AUTHORIZATION="Link " + "A" * 24)
    statuses = [client.get(api_url("tournament-list")).status_code for _ in range(11)]
    assert statuses == [401] * 10 + [429]
    r = client.get(api_url("tournament-list"))
    assert r.json()["code"] == "throttled" and int(r["Retry-After"]) == 4  # the delay doubles
    # A working token from the same address still authenticates (issue 22): the guesses of one
    # client never lock the others behind its address out of their links.
    assert world.api("Alpha").get(api_url("tournament-list")).status_code == 200
    r = world.api(None)
    r.credentials(HTTP_AUTHORIZATION="Link")
    assert r.get(api_url("tournament-list")).status_code == 401


def test_requests_through_an_api_link_are_rate_limited_per_link(world, settings):
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK,
                               "DEFAULT_THROTTLE_RATES": {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "link": "3/minute"}}
    client = world.api("Alpha")
    statuses = [client.get(api_url("tournament-detail", "tp")).status_code for _ in range(4)]
    assert statuses == [200, 200, 200, 429]
    assert world.api("Bravo").get(api_url("tournament-detail", "tp")).status_code == 200


def test_many_api_links_behind_one_address_are_limited_per_link_not_per_address(world, settings, one_window):
    """A venue's Wi-Fi: the links' requests come from one address; each link stays under its
    limit, their sum is over it (and over the anonymous limit per address), and every one is
    answered."""
    rates = {**settings.REST_FRAMEWORK["DEFAULT_THROTTLE_RATES"], "link": "3/minute", "anon": "3/minute"}
    settings.REST_FRAMEWORK = {**settings.REST_FRAMEWORK, "DEFAULT_THROTTLE_RATES": rates}
    settings.LINK_RATE = "3/minute"
    phones = {name: world.api(name) for name in ("Alpha", "Bravo", "Charlie", "Delta", "Ann", "Ben")}
    statuses = [phone.get(api_url("tournament-detail", "tp")).status_code for _ in range(3) for phone in phones.values()]
    assert statuses == [200] * 18
    assert phones["Alpha"].get(api_url("tournament-detail", "tp")).status_code == 429  # the 4th through one link
    assert world.api(None).get(api_url("tournament-detail", "tp")).status_code == 200  # anonymous: its own count


# --------------------------------------------------------------------------- login links (issue 22)


@pytest.mark.parametrize("role", ["referee", "organiser"])
def test_a_login_link_gives_exactly_the_invited_role_in_the_invited_tournament_once(world, role):
    """An organiser of both tournaments invites someone to ``tp`` only: the phone that opens the
    link enters results in ``tp`` (both roles), does organiser writes in ``tp`` only when invited
    as organiser, and nothing in ``sc``; a second phone with the same link is refused and holds no
    login; a revoked link gives nothing."""
    from scoring.models import Membership
    from scoring.participants import invitations

    w = world
    _invitation, token = invitations.invite(w.tp, w.organiser, role=role, username="venue-person")
    first, second = Client(), Client()
    assert first.post(reverse("scoring:open_invitation"), {"code": token}).status_code == 302
    assert second.post(reverse("scoring:open_invitation"), {"code": token}).status_code == 400
    assert list(Membership.objects.filter(user__username="venue-person").values_list("tournament__slug", "role")) == \
        [("tp", role)]
    link = EntrantLink.objects.filter(tournament=w.tp).first()
    regenerate = reverse("scoring:link_action", args=["tp", link.pk, "regenerate"])
    sc_link = EntrantLink.objects.filter(tournament=w.sc).first()
    sc_regenerate = reverse("scoring:link_action", args=["sc", sc_link.pk, "regenerate"])
    table_enter = case(w, "table", "enter")
    state = db_state()
    # Refused: the second phone (not logged in), the other tournament, and a referee's organiser write.
    match_enter = case(w, "match", "enter")
    _check_page(second.post(match_enter.page_url, match_enter.page_data), "login", "second phone")
    _check_page(first.post(table_enter.page_url, table_enter.page_data), 403, "other tournament")
    _check_page(first.post(sc_regenerate), 403, "other tournament, organiser write")
    if role == "referee":
        _check_page(first.post(regenerate), 403, "organiser write")
    assert db_state() == state
    # Allowed: a result write in tp; an organiser write in tp for an organiser.
    r = first.post(match_enter.page_url, match_enter.page_data)
    assert r.status_code == 302 and match_enter.done(), r.status_code
    if role == "organiser":
        before = EntrantLink.objects.get(pk=link.pk).token_hash
        assert first.post(regenerate).status_code == 302
        assert EntrantLink.objects.get(pk=link.pk).token_hash != before


def test_a_revoked_login_link_gives_nothing(world):
    from scoring.participants import invitations

    invitation, token = invitations.invite(world.tp, world.organiser, role="organiser", username="venue-person")
    invitations.revoke(world.tp, invitation.pk, world.organiser)
    phone = Client()
    assert phone.post(reverse("scoring:open_invitation"), {"code": token}).status_code == 400
    assert "_auth_user_id" not in phone.session
