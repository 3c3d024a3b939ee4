"""Smoke tests of the load scenario's helpers (benchmarks/load, issue 5 item 6): the hand records
the referees post, the form data, the entry page parsing, the tournament set-up and the
lost/duplicated hand check. No timed tests; the scenario itself is ``benchmarks/load/run_load.sh``.

Changed on purpose (issue 10): the referee's entry form is on ``match_enter`` (GET answers the
entry page itself, a saved hand redirects back to it at ``#record-N``), record rows are
``id="record-N"``, the form posts a plain ``version`` and the unprefixed Tai Pan fields, and the
page's other forms (end at the time limit, resume, reopen) post a ``version`` too."""
import json
import py_compile
import sys
from pathlib import Path

import pytest

LOAD_DIR = Path(__file__).resolve().parents[2] / "benchmarks" / "load"
sys.path.insert(0, str(LOAD_DIR))

import loadctl  # noqa: E402
import loadkit  # noqa: E402

import engines  # noqa: E402


def test_locustfile_compiles():
    # Importing it would monkey-patch the process with gevent; compiling is enough here.
    py_compile.compile(str(LOAD_DIR / "locustfile.py"), doraise=True)
    assert (LOAD_DIR / "requirements.txt").read_text().split() == [
        "locust==2.47.0", "httpx==0.28.1", "httpx-sse==0.4.3", "zstandard==0.25.0"]


def test_hand_records_score_by_the_nskt_rules_and_never_finish_the_match():
    # Hand 1: N calls Tai Pan, E goes out first: the call fails, NS lose 100 (NSKT:
    # caller_team_loses); card points 50/50 -> NS 50 - 100 = -50, EW 50.
    first = engines.run("taipan", "score", loadkit.hand_record(0))
    assert (first["NS"]["total"], first["EW"]["total"]) == (-50, 50)
    # Hand 2 mirrors it: E's call fails, N out first -> NS 50, EW 50 - 100 = -50.
    second = engines.run("taipan", "score", loadkit.hand_record(1))
    assert (second["NS"]["total"], second["EW"]["total"]) == (50, -50)
    # Hand 3 (pair 2, x = 25): NS 25 - 100 = -75, EW 75.
    third = engines.run("taipan", "score", loadkit.hand_record(2))
    assert (third["NS"]["total"], third["EW"]["total"]) == (-75, 75)
    # 200 hands: every pair cancels, so the totals return to 0:0 and never reach the target 800.
    out = engines.run("taipan", "match", {"hands": [loadkit.hand_record(i) for i in range(200)]})
    assert out["finished"] is False
    assert out["totals"] == {"NS": 0, "EW": 0}
    assert all(abs(h["running"]["NS"]) <= 100 and abs(h["running"]["EW"]) <= 100 for h in out["hands"])


@pytest.mark.parametrize("type_ew", [False, True])
@pytest.mark.parametrize("index", [0, 1, 6, 7])
def test_form_data_is_what_the_entry_form_turns_back_into_the_record(index, type_ew):
    from scoring.games import registry
    from scoring.locking import parse_version

    record = loadkit.hand_record(index)
    data = loadkit.form_data(record, 7, "token", type_ew=type_ew)
    entry = registry.get("taipan").entry(data)
    assert entry.is_valid(), entry.error_lines()
    assert parse_version(data["version"]) == 7
    assert entry.record() == record


def test_parse_match_page_reads_the_entry_forms_version_the_records_and_the_token():
    html = (
        '<form method="post" id="entry-form" class="entry-form" action="/t/x/match/1/enter/" novalidate>'
        '<input type="hidden" name="csrfmiddlewaretoken" value="abc&amp;def">'
        '<input type="hidden" name="version" value="5"><select name="call_n"></select></form>'
        '<tr id="record-1"><td>1</td></tr><tr id="record-2"><td>2</td></tr>'
        '<form method="post" action="/t/x/match/1/end/" class="action">'
        '<input type="hidden" name="csrfmiddlewaretoken" value="abc&amp;def">'
        '<input type="hidden" name="version" value="9"></form>'
    )
    page = loadkit.parse_match_page(html)
    assert (page.csrf_token, page.version, page.hand_numbers, page.next_number) == ("abc&def", 5, [1, 2], 3)
    assert page.can_add
    # A finished match: no entry form, only the actions' forms (their version is not the entry's).
    no_form = loadkit.parse_match_page(html[html.index("<tr"):])
    assert no_form.version is None and not no_form.can_add and no_form.hand_numbers == [1, 2]
    assert loadkit.parse_match_page("").next_number == 1


def test_submission_kinds():
    enter = "/t/x/match/1/enter/"
    assert loadkit.submission_kind(302, enter + "#record-3", enter) == "ack"
    assert loadkit.submission_kind(302, "/accounts/login/?next=" + enter, enter) == "refused"
    assert loadkit.submission_kind(302, "/t/x/match/2/enter/#record-3", enter) == "refused"
    assert loadkit.submission_kind(409, "", enter) == "stale"
    assert loadkit.submission_kind(400, "", enter) == "refused"
    assert loadkit.submission_kind(0, "", enter) == "uncertain"
    assert loadkit.submission_kind(502, "", enter) == "uncertain"


def _ack(match, number, index=None):
    return {"kind": "ack", "match": match, "number": number, "record": loadkit.hand_record(number - 1 if index is None else index)}


def test_verify_hands_counts_lost_duplicated_and_gaps():
    r = loadkit.hand_record
    stored = {1: [(1, r(0)), (2, r(1))], 2: [(1, r(0))]}
    ok = loadkit.verify_hands([_ack(1, 1), _ack(1, 2), _ack(2, 1)], stored)
    assert (ok.acknowledged, ok.stored, ok.lost, ok.duplicated, ok.gaps, ok.ok) == (3, 3, 0, 0, 0, True)

    # An acknowledged hand missing, and one stored with another record: both lost.
    lost = loadkit.verify_hands([_ack(1, 1), _ack(1, 2), _ack(2, 1), _ack(2, 2)], {1: [(1, r(0)), (2, r(5))], 2: [(1, r(0))]})
    assert (lost.lost, lost.duplicated, lost.ok) == (2, 1, False)  # hand 2 of match 1 is also unaccounted for

    # A stored hand nobody was acknowledged: duplicated, unless an uncertain submission explains it.
    extra = {1: [(1, r(0)), (2, r(1)), (3, r(2))]}
    assert loadkit.verify_hands([_ack(1, 1), _ack(1, 2)], extra).duplicated == 1
    explained = loadkit.verify_hands([_ack(1, 1), _ack(1, 2)], extra, [{"match": 1}])
    assert (explained.duplicated, explained.uncertain, explained.ok) == (0, 1, True)

    # The same hand acknowledged twice counts as duplicated; numbers not 1..n are a gap.
    twice = loadkit.verify_hands([_ack(1, 1), _ack(1, 1)], {1: [(1, r(0))]})
    assert twice.duplicated == 1
    gap = loadkit.verify_hands([_ack(1, 1), _ack(1, 3, index=2)], {1: [(1, r(0)), (3, r(2))]})
    assert (gap.gaps, gap.lost, gap.ok) == (1, 0, False)


def test_stats_table_from_locust_csv(tmp_path):
    path = tmp_path / "run_stats.csv"
    path.write_text(
        "Type,Name,Request Count,Failure Count,Median Response Time,Average Response Time,Min Response Time,"
        "Max Response Time,Average Content Size,Requests/s,Failures/s,50%,66%,75%,80%,90%,95%,98%,99%,99.9%,99.99%,100%\n"
        "GET,GET standings/,120,1,40,45.5,10,300,5000,2.0,0.0,40,45,50,55,60,90,120,150,300,300,300\n"
        ",Aggregated,120,1,40,45.5,10,300,5000,2.0,0.0,40,45,50,55,60,90,120,150,300,300,300\n",
        encoding="utf-8",
    )
    rows = loadkit.read_stats_csv(path)
    assert [(r.name, r.requests, r.failures, r.p50, r.p95, r.p99) for r in rows] == [
        ("GET standings/", 120, 1, 40, 90, 150),
        ("Aggregated", 120, 1, 40, 90, 150),
    ]
    table = loadkit.stats_table(rows)
    assert "| GET GET standings/ | 120 | 1 | 2.0 | 40 | 90 | 150 |" in table
    assert "| Aggregated | 120 | 1 |" in table


def test_read_events(tmp_path):
    path = tmp_path / "events.jsonl"
    lines = [
        {"kind": "sent", "id": "a#1", "match": 1, "number": 1},
        {**_ack(1, 1), "id": "a#1"},
        {"kind": "sent", "id": "a#2", "match": 1, "number": 2},
        {"kind": "uncertain", "id": "a#2", "match": 1, "status": 0},
        {"kind": "sent", "id": "b#1", "match": 2, "number": 1},
        {"kind": "stale", "id": "b#1", "match": 2, "status": 409},
        {"kind": "sent", "id": "b#2", "match": 2, "number": 1},
        {"kind": "refused", "id": "b#2", "match": 2, "status": 200},
        {"kind": "sent", "id": "b#3", "match": 2, "number": 1},  # still in flight at the end
    ]
    path.write_text("\n".join(json.dumps(x) for x in lines) + "\n", encoding="utf-8")
    acks, uncertain, others = loadctl.read_events(path)
    assert len(acks) == 1
    assert [(e["kind"], e["match"]) for e in uncertain] == [("uncertain", 1), ("unanswered", 2)]
    assert [e["kind"] for e in others] == ["stale", "refused"]
    assert loadctl.read_events(tmp_path / "missing.jsonl") == ([], [], [])


@pytest.mark.django_db
def test_setup_builds_a_tournament_referees_can_enter_hands_in(client):
    from scoring.models import Hand, Match, Membership, Round, Team

    plan = loadctl.build_tournament(matches=3, referees=4, slug="load-smoke", password="load-smoke-pw-1")
    assert Team.objects.filter(tournament__slug="load-smoke").count() == 6
    assert Match.objects.filter(round__tournament__slug="load-smoke", round__status=Round.Status.PUBLISHED).count() == 3
    assert Membership.objects.filter(tournament__slug="load-smoke", role=Membership.Role.REFEREE).count() == 4
    assert [r["match"] for r in plan["referees"]] == plan["matches"] + plan["matches"][:1]

    ref = plan["referees"][0]
    login = client.post("/accounts/login/", {"username": ref["username"], "password": ref["password"], "next": ""})
    assert login.status_code == 302 and "/accounts/login/" not in login["Location"]

    enter_url = f"/t/load-smoke/match/{ref['match']}/enter/"
    acks = []
    for _ in range(3):
        response = client.get(enter_url)
        assert response.status_code == 200
        page = loadkit.parse_match_page(response.content.decode())
        assert page.can_add
        record = loadkit.hand_record(page.next_number - 1)
        preview = client.post(f"/t/load-smoke/match/{ref['match']}/preview/", loadkit.form_data(record, page.version, page.csrf_token), HTTP_HX_REQUEST="true")
        assert preview.status_code == 200 and b"errorlist" not in preview.content
        resp = client.post(enter_url, loadkit.form_data(record, page.version, page.csrf_token, type_ew=True))
        assert resp.status_code == 302 and resp["Location"] == f"{enter_url}#record-{page.next_number}"
        assert loadkit.submission_kind(resp.status_code, resp["Location"], enter_url) == "ack"
        acks.append({"match": ref["match"], "number": page.next_number, "record": record})

    page = loadkit.parse_match_page(client.get(enter_url).content.decode())
    assert page.hand_numbers == [1, 2, 3] and page.version == 3
    # A stale version is refused (409) and stores nothing.
    stale = client.post(enter_url, loadkit.form_data(loadkit.hand_record(3), 0, page.csrf_token))
    assert stale.status_code == 409
    assert loadkit.submission_kind(stale.status_code, "", enter_url) == "stale"

    stored = loadctl.stored_hands("load-smoke")
    assert Hand.objects.filter(match_id=ref["match"]).count() == 3
    verdict = loadkit.verify_hands(acks, stored)
    assert (verdict.acknowledged, verdict.stored, verdict.lost, verdict.duplicated, verdict.ok) == (3, 3, 0, 0, True)

    # Ended at the time limit (the page's own end form): the entry page keeps the other forms
    # with their version, but no entry form, so the scenario sees it cannot add a hand.
    end = client.post(f"/t/load-smoke/match/{ref['match']}/end/", {"version": page.version, "end-reason": "time"})
    assert end.status_code == 302
    html = client.get(enter_url).content.decode()
    assert 'name="version"' in html  # the resume form's
    page = loadkit.parse_match_page(html)
    assert not page.can_add and page.hand_numbers == [1, 2, 3]


def test_failures_are_counted_by_endpoint_and_error(tmp_path):
    path = tmp_path / "run_failures.csv"
    path.write_text(
        "Method,Name,Error,Occurrences,First Seen,Last Seen\n"
        "GET,match/<pk>/,\"RetriesExceeded('http://127.0.0.1:8765/t/x/match/43/', 0, original=timed out)\",2,a,b\n"
        "GET,match/<pk>/,\"RetriesExceeded('http://127.0.0.1:8765/t/x/match/32/', 0, original=timed out)\",1,a,b\n"
        "POST,/accounts/login/,CatchResponseError('login refused (0)'),4,a,b\n",
        encoding="utf-8",
    )
    counts = loadkit.read_failures_csv(path)
    assert counts == {
        ("GET", "match/<pk>/", "RetriesExceeded(URL, 0, original=timed out)"): 3,
        ("POST", "/accounts/login/", "CatchResponseError('login refused (0)')"): 4,
    }
    assert loadkit.read_failures_csv(tmp_path / "missing.csv") == {}


def test_stats_table_leaves_out_endpoints_without_requests():
    rows = [
        loadkit.EndpointStats("POST", "/accounts/login/", 0, 0, 0, 0, 0, 0),
        loadkit.EndpointStats("GET", "standings/", 10, 0, 100, 150, 160, 1.0),
        loadkit.EndpointStats("", "Aggregated", 10, 0, 100, 150, 160, 1.0),
    ]
    table = loadkit.stats_table(rows)
    assert "/accounts/login/" not in table
    assert "| GET standings/ | 10 | 0 | 1.0 | 100 | 150 | 160 |" in table


@pytest.mark.django_db
def test_cpu_cost_measurement_runs_every_endpoint():
    plan = loadctl.build_tournament(matches=2, referees=2, slug="load-cost", password="load-cost-pw-1")
    figures = dict(loadctl.measure_cpu(plan, repeats=1))
    assert set(figures) == {
        "POST /accounts/login/ (password check)",
        "GET standings/",
        "GET round/<n>/ (pairings)",
        "GET match/<pk>/ (anonymous)",
        "GET poll round/<n>/ (200, region rendered for another phone)",
        "GET poll standings/ (304)",
        "GET poll standings/?team= (200, the phone's own region)",
        "GET poll round/<n>/ (304)",
        "GET poll match/<pk>/ (304)",
        "GET match/<pk>/enter/ (entry page)",
        "POST match/<pk>/preview/ (htmx)",
        "POST match/<pk>/enter/ (save hand)",
    }
    assert all(ms >= 0 for ms in figures.values())
    from scoring.models import Hand

    # Warm-up call + one measured call of "save hand"; the preview stores nothing.
    assert sorted(Hand.objects.filter(match_id=plan["matches"][0]).values_list("number", flat=True)) == [1, 2]


# --------------------------------------------------------------------------- phones (issue 13 item 7)


def test_live_page_revalidates_the_last_full_answer_like_the_browser_cache():
    page = loadkit.LivePage("/t/x/standings/")
    first = page.poll_headers("http://h")
    assert first == {"HX-Request": "true", "HX-Trigger": "live", "HX-Target": "live", "HX-Current-URL": "http://h/t/x/standings/"}
    # A full answer: its ETag is kept, and the page's hx-headers go with every poll.
    body = '<body hx-headers=\'{"X-CSRFToken": "tok&amp;en"}\' class="">'
    assert page.answered(200, '"a"', body) == "200"
    assert page.poll_headers()["If-None-Match"] == '"a"'
    assert page.poll_headers()["X-CSRFToken"] == "tok&en"
    # 304: nothing changes (the ETag sent back is the same one).
    assert page.answered(304, '"a"') == "304" and page.etag == '"a"'
    # Errors keep the cached page; a 200 without an ETag drops it (nothing to revalidate).
    assert page.answered(502, None) == "error" and page.etag == '"a"'
    assert page.answered(200, '"b"', "<p>no hx-headers</p>") == "200"
    assert page.etag == '"b"' and page.poll_headers()["X-CSRFToken"] == "tok&en"
    assert page.answered(200, None, "") == "200" and "If-None-Match" not in page.poll_headers()


def test_poll_timer_keeps_each_phones_phase_from_its_page_load():
    # htmx's "every 10s": the next poll 10 s after the last one fired, counted from the page load,
    # whatever the answer time; two phones that loaded 3.7 s apart stay 3.7 s apart.
    a, b = loadkit.PollTimer(10), loadkit.PollTimer(10)
    a.start(100.0)
    b.start(103.7)
    assert a.wait(100.2) == pytest.approx(9.8)   # page load took 0.2 s: first poll at 110
    assert b.wait(104.0) == pytest.approx(9.7)   # first poll at 113.7
    assert a.wait(110.05) == pytest.approx(9.95)  # a poll answered in 50 ms: next at 120
    assert b.wait(113.9) == pytest.approx(9.8)   # next at 123.7
    # A poll slower than the interval: fire at once, then keep the period from there, without
    # firing the missed polls in a row.
    assert a.wait(131.0) == 0.0
    assert a.wait(131.5) == pytest.approx(9.5)   # next at 141
    # Unlike locust's constant_pacing (counted from the user's spawn), the random delay before
    # the page load does not shorten the first wait: phones spawned together do not poll together.
    c = loadkit.PollTimer(10)
    c.start(7.3)
    assert c.wait(7.4) == pytest.approx(9.9)
    with pytest.raises(ValueError):
        loadkit.PollTimer(0)


def test_poll_counter_and_summary_give_the_share_of_304():
    counter = loadkit.PollCounter()
    for page, outcome in [("standings", "304")] * 3 + [("standings", "200"), ("match", "304"), ("match", "error")]:
        counter.add(page, outcome)
    counts = counter.as_dict()
    assert counts == {"match": {"304": 1, "error": 1}, "standings": {"304": 3, "200": 1}}
    assert loadkit.poll_summary(counts) == [("match", 2, 1, 50.0), ("standings", 4, 3, 75.0), ("all", 6, 4, pytest.approx(200 / 3))]
    assert loadkit.poll_summary({}) == [("all", 0, 0, 0.0)]
    counter.reset()
    assert counter.as_dict() == {}


def test_phone_pages_and_weights():
    assert loadkit.parse_page_weights("standings:1,round:2, match") == {"standings": 1.0, "round": 2.0, "match": 1.0}
    assert loadkit.parse_page_weights("match:1") == {"match": 1.0}
    for bad in ("", "standings:0", "scores:1", "round:-1"):
        with pytest.raises(ValueError):
            loadkit.parse_page_weights(bad)
    assert [loadkit.page_url(k, "s", 3, 7) for k in loadkit.PHONE_PAGES] == ["/t/s/standings/", "/t/s/round/3/", "/t/s/match/7/"]
    assert set(loadkit.POLL_NAMES) == set(loadkit.PAGE_NAMES) == set(loadkit.PHONE_PAGES)


@pytest.mark.django_db
def test_a_phone_polling_its_page_gets_304_until_the_page_changes(client):
    """The phones' model of the browser against the real pages: the full load, then htmx polls
    revalidating the last full answer: the first poll renders (its htmx headers make another
    ETag), then 304 without a body until a hand is saved in the match."""
    from django.test import Client

    plan = loadctl.build_tournament(matches=2, referees=1, slug="load-phone", password="load-phone-pw-1")
    match = plan["referees"][0]["match"]
    for kind in loadkit.PHONE_PAGES:
        phone = Client()
        page = loadkit.LivePage(loadkit.page_url(kind, "load-phone", 1, match))
        first = phone.get(page.url)
        assert page.answered(first.status_code, first.get("ETag"), first.content.decode()) == "200"
        assert "X-CSRFToken" in page.extra and page.etag
        outcomes = []
        for _ in range(3):
            resp = phone.get(page.url, headers=page.poll_headers("http://testserver"))
            outcomes.append(page.answered(resp.status_code, resp.get("ETag"), resp.content.decode() or None))
        assert outcomes == ["200", "304", "304"], kind
        assert resp.content == b""

    # A referee saves hands: the match page changes; the standings do not while the match is being
    # played (their state covers the results that count: tests/web/test_conditional_get.py), nor
    # does the round's page (a table being played shows its state, its running score is on the
    # match page: docs/results.md) or another match's page (after the first hand, which starts the
    # round).
    ref = plan["referees"][0]
    client.post("/accounts/login/", {"username": ref["username"], "password": ref["password"], "next": ""})
    enter = f"/t/load-phone/match/{match}/enter/"

    def save_hand():
        form = loadkit.parse_match_page(client.get(enter).content.decode())
        record = loadkit.hand_record(form.next_number - 1)
        assert client.post(enter, loadkit.form_data(record, form.version, form.csrf_token)).status_code == 302

    save_hand()
    other = next(m for m in plan["matches"] if m != match)
    phones = {}
    for kind in (*loadkit.PHONE_PAGES, "other"):
        phone = Client()
        page = loadkit.LivePage(loadkit.page_url("match", "load-phone", 1, other) if kind == "other"
                                else loadkit.page_url(kind, "load-phone", 1, match))
        page.answered(200, phone.get(page.url).get("ETag"))
        resp = phone.get(page.url, headers=page.poll_headers())
        page.answered(resp.status_code, resp.get("ETag"))
        phones[kind] = (phone, page)
    save_hand()
    after = {kind: phone.get(page.url, headers=page.poll_headers()).status_code for kind, (phone, page) in phones.items()}
    assert after == {"standings": 304, "round": 304, "match": 200, "other": 304}


# --------------------------------------------------------------------------- the busy round (issue 25 item 4)

import asyncio  # noqa: E402

import hallkit  # noqa: E402
import httpx  # noqa: E402
import phones  # noqa: E402


def test_confirmation_schedule_spreads_most_tables_over_the_busy_ten_minutes():
    times = hallkit.confirmation_times(150)
    assert len(times) == 135  # 90 % of 150 tables
    assert times == sorted(times) and 0 <= times[0] and times[-1] < 600
    # One in each equal slice of the window: the rate is even, 0.225 a second at 150 tables.
    slot = 600 / 135
    assert all(i * slot <= t < (i + 1) * slot for i, t in enumerate(times))
    assert hallkit.confirmation_rate(150) == pytest.approx(0.225)
    assert hallkit.confirmation_times(150) == times  # seeded
    assert hallkit.confirmation_times(150, seed=1) != times
    assert len(hallkit.confirmation_times(10, share=0.5, window=60)) == 5
    assert hallkit.confirmation_times(0) == []
    for bad in ({"tables": -1}, {"tables": 5, "share": 1.5}, {"tables": 5, "window": 0}):
        with pytest.raises(ValueError):
            hallkit.confirmation_times(**bad)


def test_pushed_refreshes_are_coalesced_like_the_pages_script():
    # At once on the first event; events within 10 s of a refresh fold into one at its end.
    assert hallkit.refresh_times([0, 1, 2, 15, 30.5, 31], 10) == [0, 10, 20, 30.5, 40.5]
    assert hallkit.refresh_times([0, 1, 2, 15, 30.5, 31], 10, until=40) == [0, 10, 20, 30.5]
    assert hallkit.refresh_times([0, 1, 2], 0) == [0, 1, 2]
    assert hallkit.refresh_times([], 10) == []
    c = hallkit.Coalescer(5)
    assert c.event(100.0) == 100.0
    assert c.event(100.5) is None  # already due
    c.fired(100.0)
    assert c.event(101.0) == 105.0 and c.event(104.0) is None
    with pytest.raises(ValueError):
        hallkit.Coalescer(-1)
    # With jitter (as live.js: up to half the delay more), each due time lies in its window.
    j = hallkit.Coalescer(8, jitter=4, rng=__import__("random").Random(3))
    first = j.event(0.0)
    assert 0.0 <= first <= 4.0
    j.fired(first)
    second = j.event(first + 1)
    assert first + 8 <= second <= first + 12


def test_topics_of_pages_and_events():
    assert hallkit.page_topics("standings") == {"standings", "tournament"}
    assert hallkit.page_topics("round", 3) == {"round:3", "tournament", "entrants"}
    assert hallkit.page_topics("match", 1, 42) == {"result:42", "tournament"}
    with pytest.raises(ValueError):
        hallkit.page_topics("hall")
    assert hallkit.event_topics('{"topics": ["standings", "round:1"], "versions": {"standings": 7}}') == {"standings", "round:1"}
    for data in ("", "ping", "[1, 2]", '{"versions": {}}', '{"topics": "standings"}'):
        assert hallkit.event_topics(data) == frozenset()
    assert hallkit.sse_frame({"topics": ["hall"], "versions": {"hall": 2}}, 5) == (
        b'id: 5\ndata: {"topics":["hall"],"versions":{"hall":2}}\n\n')
    assert hallkit.sse_frame({"topics": ["hall"], "versions": {}}) == b'data: {"topics":["hall"],"versions":{}}\n\n'
    assert hallkit.topics_match({"standings", "tournament"}, {"round:1", "tournament"})
    assert not hallkit.topics_match({"standings", "tournament"}, {"round:1", "result:4"})
    assert hallkit.topics_match({"result:*"}, {"result:4"}) and not hallkit.topics_match({"result:*"}, {"round:1"})
    region = ('<main><div id="live" class="live" hx-get="/t/x/standings/" hx-trigger="live-refresh" '
              'data-live-topics="standings tournament" data-live-poll="15" data-live-delay="30" hx-select="#live">')
    assert hallkit.live_region(region) == ({"standings", "tournament"}, 30.0)
    assert hallkit.live_region('<div id="live" class="live" hx-get="/x/" hx-trigger="every 10s">') == (None, None)
    assert hallkit.live_region("<p>no region</p>") == (None, None)


class _Chunks(httpx.AsyncByteStream):
    """A body that comes over the (mocked) connection, so httpx counts its bytes downloaded."""

    def __init__(self, body: bytes) -> None:
        self.body = body

    async def __aiter__(self):
        for i in range(0, len(self.body), 64):
            yield self.body[i:i + 64]


def _sse_transport(body: bytes, log: list):
    def handler(request: httpx.Request) -> httpx.Response:
        log.append(request)
        if request.url.path.startswith("/events/"):
            return httpx.Response(200, headers={"Content-Type": "text/event-stream"}, stream=_Chunks(body))
        if request.headers.get("If-None-Match") == '"v2"':
            return httpx.Response(304, headers={"ETag": '"v2"'}, stream=_Chunks(b""))
        return httpx.Response(200, headers={"ETag": '"v2"', "Content-Type": "text/html"},
                              stream=_Chunks(b"<div id=live>" + b"x" * 500))
    return httpx.MockTransport(handler)


def test_the_phones_sse_client_parses_the_stream_and_refreshes_on_matching_topics():
    """phones.follow against a mocked event stream: a comment (keep-alive), an event of another
    page, two standings events in the same chunk (they fold into one refresh: the second comes
    before the first's refresh went out); then a second refresh finds nothing changed (304).
    Every byte of the stream and of the requests is counted for the phone."""
    body = (b": keep-alive\n\n"
            + hallkit.sse_frame({"topics": ["result:9", "round:1"], "versions": {}}, 1)
            + hallkit.sse_frame({"topics": ["standings", "round:1"], "versions": {"standings": 2}}, 2)
            + b"data: {\"topics\": [\"standings\"],\n"  # a data line split in two: joined by the parser
            + b"data:  \"versions\": {}}\n\n")
    log: list = []
    cfg = phones.Config({"LOAD_MODE": "push", "LOAD_PUSH_COALESCE": "0", "LOAD_PHONES": "1",
                         "LOAD_BASE_URL": "http://hall"})
    cfg.events_url = "http://hall/events/t/"

    async def run():
        async with httpx.AsyncClient(transport=_sse_transport(body, log)) as client:
            hall = phones.Hall(cfg, client)
            page = loadkit.LivePage("/t/t/standings/")
            task = asyncio.ensure_future(phones.follow(hall, 0, "standings", page, hallkit.page_topics("standings"), 0))
            for _ in range(50):
                await asyncio.sleep(0.01)
                if hall.counts["phone refresh standings"]:
                    break
            await asyncio.sleep(0.05)
            hall.done.set()
            task.cancel()
            await asyncio.gather(task, return_exceptions=True)
            await hall.get(0, "standings", page, "phone refresh standings")
            return hall

    hall = asyncio.run(run())
    assert hall.events == 3  # the comment is no event
    assert dict(hall.counts["phone refresh standings"]) == {"200": 1, "304": 1}
    refreshes = [r for r in log if r.url.path == "/t/t/standings/"]
    assert refreshes[0].headers["HX-Request"] == "true" and "If-None-Match" not in refreshes[0].headers
    assert refreshes[1].headers["If-None-Match"] == '"v2"'
    assert all(r.headers["Accept-Encoding"] == "identity" for r in log)
    received = hall.meter.received["standings"][0]
    # The stream's body and its answer's head, plus both refreshes' answers, byte for byte.
    stream_head = hallkit.response_wire_bytes(200, [("Content-Type", "text/event-stream")], 0)
    first = hallkit.response_wire_bytes(200, [("ETag", '"v2"'), ("Content-Type", "text/html")], 513)
    second = hallkit.response_wire_bytes(304, [("ETag", '"v2"')], 0)
    assert received == stream_head + len(body) + first + second
    assert hall.meter.sent["standings"][0] == sum(
        hallkit.request_wire_bytes("GET", r.url.raw_path.decode(), [(k.decode(), v.decode()) for k, v in r.headers.raw]) for r in log)
    # Without a compressing proxy the second figure counts the 200's body gzip-compressed.
    assert hall.gz.received["standings"][0] < received


def test_wire_bytes_and_the_meter():
    assert hallkit.request_wire_bytes("GET", "/x", {"Host": "h"}) == len(b"GET /x HTTP/1.1\r\nHost: h\r\n\r\n")
    assert hallkit.response_wire_bytes(304, [("ETag", '"a"')], 0) == len(b'HTTP/1.1 304 Not Modified\r\nETag: "a"\r\n\r\n')
    assert hallkit.response_wire_bytes(200, [], 1000) == len(b"HTTP/1.1 200 OK\r\n\r\n") + 1000
    text = b"<tr><td>Team 001</td><td>12</td></tr>" * 300
    assert 0 < hallkit.gzip_size(text) < len(text) / 20
    meter = hallkit.ByteMeter()
    meter.add("standings", 1, 100, 30_000)
    meter.add("standings", 2, 300, 90_000)
    meter.register("round", 3)
    # 30 s: two standings phones, 400 B sent and 120 KB received between them -> per phone and minute.
    assert meter.per_minute("standings", 30) == (120_000.0, 400.0, 2)
    assert meter.per_minute("round", 30) == (0.0, 0.0, 1)
    assert meter.per_minute("match", 30) == (0.0, 0.0, 0)
    meter.reset()
    assert meter.per_minute("standings", 30) == (0.0, 0.0, 2)


def test_latency_histograms_merge_in_locusts_buckets():
    assert [hallkit.bucket_ms(x) for x in (0.4, 99.4, 147, 999, 3432, 58760)] == [0, 99, 150, 1000, 3400, 59000]
    hist = {"10": 90, "200": 9, "1000": 1}
    assert (hallkit.percentile(hist, 0.5), hallkit.percentile(hist, 0.95), hallkit.percentile(hist, 0.99)) == (10, 200, 200)
    assert hallkit.percentile(hist, 1.0) == 1000 and hallkit.percentile({}, 0.95) == 0
    assert hallkit.merge_histograms({10: 1, 20: 2}, {"10": 3, 20.4: 1}) == {10: 4, 20: 3}


def test_the_report_merges_the_phones_into_the_latency_table_and_prints_bytes_per_page():
    figures = {
        "mode": "poll", "compressed": False, "seconds": 60, "phones": {"standings": 2, "match": 1},
        "latency": {"phone poll standings": {"5": 18, "300": 2}, "phone load standings": {"50": 2}},
        "counts": {"phone poll standings": {"200": 6, "304": 12, "error": 2}, "phone load standings": {"200": 2}},
        "bytes": {"standings": {"received": 1_340_000, "sent": 3_000, "received_gzip": 64_000, "phones": 2}},
    }
    rows = hallkit.phone_rows(figures, 60)
    assert [(r.name, r.requests, r.failures, r.p50, r.p95) for r in rows] == [
        ("phone load standings", 2, 0, 50, 50), ("phone poll standings", 20, 2, 5, 300)]
    total = hallkit.merged_total({"20": 78}, 1, figures, 60)
    assert (total.requests, total.failures, total.p50, total.p95, total.p99) == (100, 3, 20, 20, 300)
    (line,) = hallkit.bytes_lines(figures)
    assert "standings phones (2, poll): 1,340.0 KB received + 3.0 KB sent per phone per minute" in line
    assert "with gzip computed on the bodies: 64.0 KB received" in line and "12 of 20 polls answered 304" in line


def test_phone_variables_and_pages():
    cfg = phones.Config({})
    assert (cfg.mode, cfg.phones, cfg.wait, cfg.coalesce, cfg.compressed, cfg.arrival, cfg.view) == (
        "poll", 1000, 10.0, None, False, 20.0, "")
    cfg = phones.Config({"LOAD_MODE": "push", "LOAD_PHONES": "2000", "LOAD_PHONE_PAGES": "standings:1",
                         "LOAD_PHONE_VIEW": "?team={team}", "LOAD_COMPRESSED": "1", "LOAD_BASE_URL": "http://c:1/"})
    assert (cfg.mode, cfg.arrival, cfg.compressed, cfg.base, cfg.events_base) == ("push", 40.0, True, "http://c:1", "http://c:1")
    with pytest.raises(SystemExit):
        phones.Config({"LOAD_MODE": "stream"})
    plan = {"slug": "s", "round": 1, "matches": [1], "all_matches": [1, 2], "teams": [7]}
    assigned = phones.assign(cfg, plan, __import__("random").Random(1))
    assert len(assigned) == 2000 and {a[0] for a in assigned} == {"standings"}
    assert assigned[0][1:] == ("/t/s/standings/?team=7", frozenset({"standings", "tournament"}))
    mixed = phones.assign(phones.Config({"LOAD_PHONES": "300"}), plan, __import__("random").Random(1))
    assert {a[0] for a in mixed} == {"standings", "round", "match"}
    assert {a[1] for a in mixed if a[0] == "match"} <= {"/t/s/match/1/", "/t/s/match/2/"}


@pytest.mark.django_db
def test_confirmers_confirm_the_finished_tables_and_the_standings_change(client):
    """The set-up finishes the tables beyond the referees' (two hands, ended at the time limit, by
    a scorer); a confirmer (who entered nothing) confirms one through its confirmation page, as
    the locustfile does, and a phone polling the standings gets them anew."""
    from django.test import Client

    from scoring.models import Match

    plan = loadctl.build_tournament(matches=1, referees=1, teams=6, confirmers=1, slug="load-busy", password="load-busy-pw-1")
    assert len(plan["teams"]) == 6 and len(plan["all_matches"]) == 3 and plan["matches"] == plan["all_matches"][:1]
    assert [c["match"] for c in plan["to_confirm"]] == plan["all_matches"][1:]
    for item in plan["to_confirm"]:
        m = Match.objects.get(pk=item["match"])
        assert m.status == Match.Status.FINISHED and [m.total_ns, m.total_ew] == item["totals"]
    assert Match.objects.get(pk=plan["matches"][0]).status != Match.Status.FINISHED

    phone, page = Client(), loadkit.LivePage("/t/load-busy/standings/")
    for _ in range(2):  # load, then the first poll (its own ETag)
        resp = phone.get(page.url, headers=page.poll_headers() if page.etag else {})
        page.answered(resp.status_code, resp.get("ETag"), resp.content.decode())
    assert phone.get(page.url, headers=page.poll_headers()).status_code == 304

    who = plan["confirmers"][0]
    client.post("/accounts/login/", {"username": who["username"], "password": who["password"], "next": ""})
    item = plan["to_confirm"][0]
    url = f"/t/load-busy/match/{item['match']}/confirm/"
    csrf, version = hallkit.parse_confirm_page(client.get(url).content.decode())
    assert csrf and version == Match.objects.get(pk=item["match"]).version
    resp = client.post(url, {"csrfmiddlewaretoken": csrf, "version": version,
                             "total_0": item["totals"][0], "total_1": item["totals"][1]})
    assert resp.status_code == 302
    assert Match.objects.get(pk=item["match"]).status == Match.Status.CONFIRMED
    assert phone.get(page.url, headers=page.poll_headers()).status_code == 200
    # Confirmed: the page has no confirm form any more.
    assert hallkit.parse_confirm_page(client.get(url).content.decode())[1] is None
