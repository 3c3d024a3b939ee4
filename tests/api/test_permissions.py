"""The API's permission matrix (``docs/api.md`` "Who may do what", ``scoring/policy.py``): every
write endpoint, for a Tai Pan match and a four-player table, tried anonymously (401), with the
token of an outsider (403), of a referee of another tournament (403), of a referee and of an
organiser (both allowed), always with valid data: a refused request changes nothing at all (every
row of the app and every token compared), the same request by an allowed role does the write.

And: a token never reads or writes a result of an unpublished (draft) round (404, organisers
excepted for reading), never writes a result of another tournament, and a revoked or expired
token or one of an inactive user is refused (401). The tokens are the app's own (stored as hashes,
``scoring/participants/api_tokens.py``), issued as the account page and ``manage.py api_token`` do."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta

import pytest
from django.utils import timezone

from scoring.models import ApiToken, Deal, Hand, Match, Table
from scoring.participants import api_tokens
from scoring.policy import SYSTEM
from scoring.results import audit
from tests.api.conftest import api_url, db_state
from tests.factories import PLAIN_HAND, SICHUAN_SELF_DRAW, TAI_PAN_HAND, confirm_result, finish_result, play

pytestmark = pytest.mark.django_db

#: A Sichuan self-drawn win by South instead of East (an edit of SICHUAN_SELF_DRAW).
SICHUAN_SOUTH = {**SICHUAN_SELF_DRAW, "events": [{**SICHUAN_SELF_DRAW["events"][0], "player": "S"}]}
RECORDS = {"match": (PLAIN_HAND, TAI_PAN_HAND), "table": (SICHUAN_SELF_DRAW, SICHUAN_SOUTH)}
SLUGS = {"match": "tp", "table": "sc"}


@dataclass
class Write:
    """One API write: method, URL, JSON body, and how to tell it was done."""

    method: str
    url: str
    body: dict
    done: Callable[[], bool]


def reload(obj):
    return type(obj).objects.get(pk=obj.pk)


def container_of(w, kind: str):
    return w.match if kind == "match" else w.table


def _records(c):
    return Hand.objects.filter(match=c) if isinstance(c, Match) else Deal.objects.filter(table=c)


def case_enter(w, kind):
    c = container_of(w, kind)
    return Write("post", api_url(f"{kind}-records", SLUGS[kind], c.pk), {"version": c.version, "record": RECORDS[kind][0]},
                 lambda: _records(c).count() == 1)


def case_edit(w, kind):
    c = play(container_of(w, kind), [RECORDS[kind][0]], SYSTEM)
    before = _records(c).get().record  # as stored (the carried state written in)
    return Write("put", api_url(f"{kind}-record", SLUGS[kind], c.pk, 1),
                 {"version": c.version, "record": RECORDS[kind][1], "reason": "typo"},
                 lambda: _records(c).get().record != before)


def case_delete(w, kind):
    c = play(container_of(w, kind), [RECORDS[kind][0]], SYSTEM)
    return Write("delete", api_url(f"{kind}-record", SLUGS[kind], c.pk, 1), {"version": c.version, "reason": "wrong table"},
                 lambda: not _records(c).exists())


def case_end(w, kind):
    c = play(container_of(w, kind), [RECORDS[kind][0]], SYSTEM)
    return Write("post", api_url(f"{kind}-end", SLUGS[kind], c.pk), {"version": c.version, "reason": "time"},
                 lambda: reload(c).ended == "time")


def case_resume(w, kind):
    c = play(container_of(w, kind), [RECORDS[kind][0]], SYSTEM, end_reason="time")
    return Write("post", api_url(f"{kind}-resume", SLUGS[kind], c.pk), {"version": c.version, "reason": "clock was wrong"},
                 lambda: reload(c).ended == "")


def case_confirm(w, kind):
    c = finish_result(container_of(w, kind))
    return Write("post", api_url(f"{kind}-confirm", SLUGS[kind], c.pk), {"version": c.version},
                 lambda: reload(c).status == c.Status.CONFIRMED)


def case_reopen(w, kind):
    c = confirm_result(container_of(w, kind), w.confirmer)
    return Write("post", api_url(f"{kind}-reopen", SLUGS[kind], c.pk), {"version": c.version, "reason": "typo"},
                 lambda: reload(c).status == c.Status.FINISHED)


CASES = {"enter": case_enter, "edit": case_edit, "delete": case_delete, "end": case_end, "resume": case_resume,
         "confirm": case_confirm, "reopen": case_reopen}
KINDS = ("match", "table")
REFUSED = {None: 401, "outsider": 403, "other_referee": 403}
ALLOWED = ("referee", "organiser")


def send(client, write: Write):
    if write.method == "delete":
        query = "&".join(f"{k}={v}" for k, v in write.body.items())
        return client.delete(f"{write.url}?{query}")
    return getattr(client, write.method)(write.url, write.body, format="json")


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", list(CASES))
def test_refused_roles_change_nothing(api_world, case, kind):
    w = api_world
    write = CASES[case](w, kind)
    for who, status in REFUSED.items():
        state = db_state()
        r = send(w.client(who), write)
        assert r.status_code == status, (who, r.status_code, r.content)
        code = "not_authenticated" if status == 401 else "permission_denied"
        assert r.json()["code"] == code and r.json()["errors"][0]["field"] == ""
        if status == 401:
            assert r["WWW-Authenticate"] == "Token"
        assert db_state() == state, who
        assert not write.done(), who


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("case", list(CASES))
@pytest.mark.parametrize("who", ALLOWED)
def test_allowed_roles_write(api_world, case, kind, who):
    w = api_world
    write = CASES[case](w, kind)
    r = send(w.client(who), write)
    assert r.status_code in (200, 201), r.content
    assert write.done()


# --------------------------------------------------------------------------- draft rounds


DRAFT_WRITES = {
    "enter": lambda c, kind: ("post", api_url(f"{kind}-records", SLUGS[kind], c.pk), {"version": 0, "record": RECORDS[kind][0]}),
    "end": lambda c, kind: ("post", api_url(f"{kind}-end", SLUGS[kind], c.pk), {"version": 0, "reason": "time"}),
    "confirm": lambda c, kind: ("post", api_url(f"{kind}-confirm", SLUGS[kind], c.pk), {"version": 0}),
}


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("action", list(DRAFT_WRITES))
def test_no_token_writes_a_result_of_a_draft_round(api_world, kind, action):
    """Referees and everyone else do not see a draft round (404); its organiser sees it but the
    sheet refuses results before it is published (409). Nothing changes either way."""
    w = api_world
    c = w.draft_match if kind == "match" else w.draft_table
    method, url, body = DRAFT_WRITES[action](c, kind)
    expected = {None: 401, "outsider": 404, "other_referee": 404, "referee": 404, "confirmer": 404, "organiser": 409}
    for who, status in expected.items():
        state = db_state()
        r = getattr(w.client(who), method)(url, body, format="json")
        assert r.status_code == status, (who, r.content)
        assert db_state() == state, who


def test_draft_round_reads_are_hidden_from_every_token_but_the_organisers(api_world):
    w = api_world
    reads = [api_url("round-detail", "tp", 2), api_url("match-detail", "tp", w.draft_match.pk),
             api_url("match-records", "tp", w.draft_match.pk), api_url("table-detail", "sc", w.draft_table.pk),
             api_url("round-detail", "sc", 2)]
    for who in ("outsider", "other_referee", "referee", "confirmer"):
        for url in reads:
            assert w.client(who).get(url).status_code == 404, (who, url)
        assert 2 not in [r["number"] for r in w.client(who).get(api_url("round-list", "tp")).json()]
    for url in reads:
        assert w.client("organiser").get(url).status_code == 200, url


# --------------------------------------------------------------------------- other tournaments, dead tokens


def test_no_token_writes_a_result_of_another_tournament(api_world):
    w = api_world
    body = {"version": 0, "record": PLAIN_HAND}
    for who in ("referee", "organiser", "confirmer"):
        state = db_state()
        r = w.client(who).post(api_url("match-records", "elsewhere", w.other_match.pk), body, format="json")
        assert r.status_code == 403, who
        # the match under a tournament the token holds a role in: not found there
        r = w.client(who).post(api_url("match-records", "tp", w.other_match.pk), body, format="json")
        assert r.status_code == 404, who
        assert db_state() == state, who
    r = w.client("other_referee").post(api_url("match-records", "elsewhere", w.other_match.pk), body, format="json")
    assert r.status_code == 201


def test_a_revoked_expired_or_inactive_users_token_is_refused(api_world):
    w = api_world
    client = w.client("referee")
    assert client.get(api_url("tournament-list")).status_code == 200
    assert api_tokens.revoke(w.referee, w.tokens["referee"].token.token_key) == 1
    state = db_state()
    r = client.post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND}, format="json")
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed"
    assert client.get(api_url("tournament-list")).status_code == 401  # reads too
    assert db_state() == state
    # expired a second ago: refused, and told so; the token stays listed (as expired)
    ApiToken.objects.filter(user=w.confirmer).update(expiry=timezone.now() - timedelta(seconds=1))
    state = db_state()
    r = w.client("confirmer").post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND},
                                   format="json")
    assert r.status_code == 401 and r.json()["code"] == "authentication_failed"
    assert "expired" in r.json()["errors"][0]["message"]
    assert w.client("confirmer").get(api_url("tournament-list")).status_code == 401
    assert db_state() == state and ApiToken.objects.filter(user=w.confirmer).count() == 1
    organiser = w.organiser
    organiser.is_active = False
    organiser.save()
    state = db_state()
    r = w.client("organiser").post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND},
                                   format="json")
    assert r.status_code == 401
    assert db_state() == state


def test_a_referee_may_not_reopen_in_a_closed_round_an_organiser_may(api_world):
    from scoring.draw import rounds

    w = api_world
    confirm_result(w.table, w.confirmer)
    rounds.close_round(w.table.round, SYSTEM)
    body = {"version": reload(w.table).version, "reason": "late protest"}
    for who in ("referee", "confirmer"):
        state = db_state()
        r = w.client(who).post(api_url("table-reopen", "sc", w.table.pk), body, format="json")
        assert r.status_code == 403, who
        assert db_state() == state
    assert w.client("organiser").post(api_url("table-reopen", "sc", w.table.pk), body, format="json").status_code == 200
    assert reload(w.table).status == Table.Status.FINISHED


def test_the_policy_decides_before_the_input_is_read(api_world):
    """An outsider sending garbage learns nothing about the input rules: 403, not 400."""
    w = api_world
    r = w.client("outsider").post(api_url("match-records", "tp", w.match.pk), {"nonsense": True}, format="json")
    assert r.status_code == 403


def test_the_actor_reaching_the_sheet_is_the_tokens_user(api_world):
    """The actor reaching the sheet is the token's user (the audit names
    them), never the trusted SYSTEM actor."""
    w = api_world
    r = w.client("referee").post(api_url("match-records", "tp", w.match.pk), {"version": 0, "record": PLAIN_HAND},
                                 format="json")
    assert r.status_code == 201
    assert audit.entered_by(reload(w.match)) == {w.referee.pk}
