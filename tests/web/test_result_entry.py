"""Referee pages of a Tai Pan match through the Django test client (issue 2 item 6, issue 4 items
3-4): hand entry, preview, errors next to the right field, edit/delete, end, confirm, reopen,
restore, stale versions, roles.

Expected scores come from the NSKT rule text (rules/taipan-nskt.txt, DESIGN.md 2.1): card points
as counted, a successful Tai Pan +100 for the caller's team, a failed one -100 for the caller's
team, Grand Tai Pan +-200, a double victory 200 instead of card points; target 800.
"""
import pytest
from django.urls import reverse
from django.utils import translation

from scoring.models import AuditEntry, Confirmation, Hand, Match, Membership, Player, Round, Team, Tournament

pytestmark = pytest.mark.django_db


def make_team(t, name, a, b, affiliation=""):
    p1 = Player.objects.create(tournament=t, name=a)
    p2 = Player.objects.create(tournament=t, name=b)
    return Team.objects.create(tournament=t, name=name, first_player=p1, second_player=p2, affiliation=affiliation)


@pytest.fixture(autouse=True)
def fast_passwords(settings):
    """Users are created per test; a fast hasher keeps the suite quick (no security relevance)."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # English pages and PDFs whatever translations exist (messages are asserted in English).
    settings.LANGUAGE_CODE = "en"
    with translation.override("en"):
        yield


@pytest.fixture
def setup(user_factory):
    t = Tournament.objects.create(name="NSKT Test Cup", slug="nskt-test", game="taipan")
    ns = make_team(t, "Team Anna", "Anna", "Bart", "Sint Jansbrug")
    ew = make_team(t, "Team Cees", "Cees", "Dirk", "Quadrivium")
    rnd = Round.objects.create(tournament=t, number=1, status=Round.Status.PUBLISHED)
    match = Match.objects.create(round=rnd, table=1, team_ns=ns, team_ew=ew)
    referee = user_factory("ref")
    referee2 = user_factory("ref2")
    organiser = user_factory("org")
    outsider = user_factory("outsider")
    Membership.objects.create(tournament=t, user=referee, role=Membership.Role.REFEREE)
    Membership.objects.create(tournament=t, user=referee2, role=Membership.Role.REFEREE)
    Membership.objects.create(tournament=t, user=organiser, role=Membership.Role.ORGANISER)
    return {"t": t, "round": rnd, "match": match, "ns": ns, "ew": ew, "referee": referee, "referee2": referee2,
            "organiser": organiser, "outsider": outsider}


def url(name, match, *extra):
    return reverse(f"scoring:{name}", args=[match.round.tournament.slug, match.pk, *extra])


def hand_data(version, *, calls=None, first_out="", dv="", ns="", ew="", **extra):
    data = {"version": version, "call_n": "", "call_e": "", "call_s": "", "call_w": "",
            "first_out": first_out, "double_victory": dv, "card_points_ns": ns, "card_points_ew": ew}
    for seat, call in (calls or {}).items():
        data[f"call_{seat.lower()}"] = call
    data.update(extra)
    return data


def post_hand(client, match, **kw):
    match.refresh_from_db()
    return client.post(url("match_enter", match), hand_data(match.version, **kw))


def field_errors(response, name):
    form = response.context["hand_form"] if "hand_form" in response.context else response.context["form"]
    return form.errors.get(name, [])


# --------------------------------------------------------------------------- happy path


def test_match_page_is_public_and_shows_seats(client, setup):
    r = client.get(url("match_detail", setup["match"]))
    assert r.status_code == 200
    html = r.content.decode()
    for text in ("Team Anna", "Team Cees", "Anna", "Bart", "Cees", "Dirk"):
        assert text in html
    assert r.context["players"] == {"N": "Anna", "S": "Bart", "E": "Cees", "W": "Dirk"}
    # no entry form for the public
    assert 'name="card_points_ns"' not in html


def test_referee_enters_hand_tai_pan_made(client, setup):
    """N calls Tai Pan and goes out first, card points 75/25: NS 75 + 100 = 175, EW 25."""
    client.force_login(setup["referee"])
    page = client.get(url("match_detail", setup["match"]))
    assert 'name="card_points_ns"' in page.content.decode()
    assert 'name="version"' in page.content.decode()
    r = post_hand(client, setup["match"], calls={"N": "tai_pan"}, first_out="N", ns=75)
    assert r.status_code == 302
    hand = Hand.objects.get(match=setup["match"])
    assert hand.number == 1
    assert hand.record == {"calls": {"N": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 75, "EW": 25}}
    assert (hand.ns, hand.ew) == (175, 25)
    assert hand.entered_by == setup["referee"]
    m = Match.objects.get(pk=setup["match"].pk)
    assert (m.total_ns, m.total_ew, m.status) == (175, 25, Match.Status.PLAYING)
    page = client.get(url("match_detail", m))
    rows = page.context["rows"]
    assert rows[0]["running_ns"] == 175 and rows[0]["running_ew"] == 25
    assert rows[0]["calls"][0] == "TP"


def test_running_totals_and_failed_call(client, setup):
    """Hand 1: 75/25 no calls -> 75:25. Hand 2: N calls Tai Pan, E out first, 60/40 -> NS 60 - 100
    = -40, EW 40 (NSKT: a failed call costs the caller's team 100). Running 35:65."""
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="N", ns=75)
    post_hand(client, setup["match"], calls={"N": "tai_pan"}, first_out="E", ns=60)
    page = client.get(url("match_detail", setup["match"]))
    rows = page.context["rows"]
    assert [(r["hand"].ns, r["hand"].ew) for r in rows] == [(75, 25), (-40, 40)]
    assert [(r["running_ns"], r["running_ew"]) for r in rows] == [(75, 25), (35, 65)]


def test_preview_shows_score_and_running_totals_without_saving(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="N", ns=75)  # 75:25
    m = Match.objects.get(pk=setup["match"].pk)
    r = client.post(url("hand_preview", m), hand_data(m.version, calls={"E": "grand_tai_pan"}, first_out="E", ns=30),
                    HTTP_HX_REQUEST="true")
    assert r.status_code == 200
    preview = r.context["preview"]
    # E makes Grand Tai Pan: EW 70 + 200 = 270, NS 30; running 105:295
    assert preview["NS"]["total"] == 30 and preview["EW"]["total"] == 270
    assert preview["running"] == {"NS": 105, "EW": 295}
    assert "270" in r.content.decode() and "295" in r.content.decode()
    assert Hand.objects.filter(match=m).count() == 1


def test_preview_errors_are_swapped_next_to_field(client, setup):
    client.force_login(setup["referee"])
    m = setup["match"]
    r = client.post(url("hand_preview", m), hand_data(m.version, first_out="N", ns=72), HTTP_HX_REQUEST="true")
    html = r.content.decode()
    assert r.context["preview"] is None
    assert 'id="err-card_points_ns" class="field-errors" hx-swap-oob="true"' in html
    assert "multiple of 5" in html


def test_match_finishes_by_itself_at_target(client, setup):
    """N Grand Tai Pan + double victory NS: 200 + 200 = 400 per hand; twice -> 800:0 >= target 800."""
    client.force_login(setup["referee"])
    for _ in range(2):
        r = post_hand(client, setup["match"], calls={"N": "grand_tai_pan"}, first_out="N", dv="NS")
        assert r.status_code == 302
    m = Match.objects.get(pk=setup["match"].pk)
    assert (m.total_ns, m.total_ew) == (800, 0)
    assert m.status == Match.Status.FINISHED
    assert m.winner == setup["ns"] and m.ended == Match.Ended.TARGET
    assert (m.points_ns, m.points_ew) == (2, 0)
    page = client.get(url("match_detail", m))
    assert not page.context["can_add"]
    assert 'name="card_points_ns"' not in page.content.decode()


# --------------------------------------------------------------------------- bad input (issue 2 acceptance)


BAD = [
    ("card points not a multiple of 5", dict(first_out="N", ns=72), "card_points_ns", "multiple of 5"),
    ("card points out of range", dict(first_out="N", ns=130), "card_points_ns", "between -25 and 125"),
    ("card points not summing to 100", dict(first_out="N", ns=60, ew=50), "card_points_ns", "add up to 100"),
    ("a call without first out", dict(calls={"N": "tai_pan"}, ns=60), "first_out", "first"),
    ("double victory, first out from the other team", dict(first_out="E", dv="NS"), "double_victory", "double victory"),
    ("card points with a double victory", dict(first_out="N", dv="NS", ns=60), "card_points_ns", "double victory"),
]


@pytest.mark.parametrize("label,data,field,text", BAD, ids=[b[0] for b in BAD])
def test_bad_hand_error_next_to_field_nothing_saved(client, setup, label, data, field, text):
    client.force_login(setup["referee"])
    m = setup["match"]
    version = Match.objects.get(pk=m.pk).version
    r = post_hand(client, m, **data)
    assert r.status_code == 200
    errors = field_errors(r, field)
    assert errors, f"{label}: no error on {field}: {r.context['hand_form'].errors}"
    assert any(text.lower() in e.lower() for e in errors), errors
    if "ew" not in data:  # EW was not typed (100 - NS): no separate error on it
        assert not field_errors(r, "card_points_ew")
    assert Hand.objects.filter(match=m).count() == 0
    assert Match.objects.get(pk=m.pk).version == version
    assert AuditEntry.objects.filter(match=m).count() == 0
    # the typed input is kept
    form = r.context["hand_form"]
    for key in ("first_out", "double_victory"):
        assert form[key].value() == (data.get("first_out" if key == "first_out" else "dv") or "")
    if "ns" in data:
        assert str(form["card_points_ns"].value()) == str(data["ns"])
    # and shown in the page next to the field (inside that field's error slot)
    html = r.content.decode()
    slot = html.split(f'id="err-{field}"', 1)[1].split("</div>", 1)[0]
    assert text.lower() in slot.lower()


def test_not_a_number_is_a_form_error(client, setup):
    client.force_login(setup["referee"])
    r = post_hand(client, setup["match"], first_out="N", ns="abc")
    assert field_errors(r, "card_points_ns")
    assert Hand.objects.count() == 0


def test_hand_after_finished_match_refused(client, setup):
    client.force_login(setup["referee"])
    for _ in range(2):
        post_hand(client, setup["match"], calls={"N": "grand_tai_pan"}, first_out="N", dv="NS")
    r = post_hand(client, setup["match"], first_out="N", ns=50)
    assert r.status_code == 200
    assert r.context["hand_form"].non_field_errors()
    assert "finished" in " ".join(r.context["hand_form"].non_field_errors()).lower()
    assert Hand.objects.filter(match=setup["match"]).count() == 2


def test_anonymous_cannot_post_hand(client, setup):
    m = setup["match"]
    r = client.post(url("match_enter", m), hand_data(0, first_out="N", ns=50))
    assert r.status_code == 302 and "login" in r["Location"]
    assert Hand.objects.count() == 0


@pytest.mark.parametrize("who", ["outsider"])
def test_non_referee_cannot_post_hand(client, setup, who):
    client.force_login(setup[who])
    m = setup["match"]
    for name in ("match_enter", "hand_preview", "match_end", "match_confirm", "match_reopen"):
        r = client.post(url(name, m), hand_data(0, first_out="N", ns=50))
        assert r.status_code == 403, name
    assert Hand.objects.count() == 0


def test_organiser_may_enter(client, setup):
    client.force_login(setup["organiser"])
    assert post_hand(client, setup["match"], first_out="S", ns=50).status_code == 302
    assert Hand.objects.count() == 1


# --------------------------------------------------------------------------- edit, delete, stale


def test_edit_hand_totals_follow_and_audit(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="N", ns=75)  # 75:25
    post_hand(client, setup["match"], first_out="E", ns=40)  # 40:60 -> 115:85
    m = Match.objects.get(pk=setup["match"].pk)
    page = client.get(url("hand_edit", m, 1))
    assert page.status_code == 200
    assert page.context["form"]["card_points_ns"].value() == 75
    # without a reason: refused, nothing changes
    r = client.post(url("hand_edit", m, 1), hand_data(m.version, first_out="N", ns=55))
    assert r.status_code == 200 and r.context["form"].errors.get("reason")
    r = client.post(url("hand_edit", m, 1), hand_data(m.version, calls={"S": "tai_pan"}, first_out="S", ns=55, reason="typo"))
    assert r.status_code == 302
    # S makes Tai Pan, 55/45: NS 155, EW 45; with hand 2 (40:60) -> 195:105
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (195, 105)
    entry = AuditEntry.objects.filter(match=m, action=AuditEntry.Action.UPDATE).get()
    assert entry.reason == "typo" and entry.user == setup["referee"]
    assert entry.old["record"]["card_points"] == {"NS": 75, "EW": 25}
    assert entry.new["record"]["card_points"] == {"NS": 55, "EW": 45}
    html = client.get(url("match_detail", m)).content.decode()
    assert "typo" in html and "ref" in html


def test_edit_with_bad_input_keeps_input(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="N", ns=75)
    m = Match.objects.get(pk=setup["match"].pk)
    r = client.post(url("hand_edit", m, 1), hand_data(m.version, first_out="N", ns=77, reason="x"))
    assert r.status_code == 200
    assert r.context["form"].errors["card_points_ns"]
    assert Hand.objects.get(match=m).record["card_points"] == {"NS": 75, "EW": 25}


def test_delete_hand_totals_follow(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="N", ns=75)  # 75:25
    post_hand(client, setup["match"], first_out="E", ns=40)  # 40:60
    m = Match.objects.get(pk=setup["match"].pk)
    assert client.get(url("hand_delete", m, 1)).status_code == 200
    r = client.post(url("hand_delete", m, 1), {"version": m.version, "reason": ""})
    assert r.status_code == 200 and r.context["form"].errors.get("reason")
    r = client.post(url("hand_delete", m, 1), {"version": m.version, "reason": "entered twice"})
    assert r.status_code == 302
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (40, 60)
    assert list(m.hands.values_list("number", flat=True)) == [1]
    assert AuditEntry.objects.get(match=m, action=AuditEntry.Action.DELETE).reason == "entered twice"


def test_stale_version_is_refused_clearly(client, setup):
    client.force_login(setup["referee"])
    m = setup["match"]
    old_version = Match.objects.get(pk=m.pk).version
    post_hand(client, m, first_out="N", ns=75)  # someone else's save bumps the version
    r = client.post(url("match_enter", m), hand_data(old_version, first_out="E", ns=50))
    assert r.status_code == 409
    assert r.context["stale"] is True
    assert "This match changed, reload." in r.content.decode()
    assert Hand.objects.filter(match=m).count() == 1
    # the typed input is kept
    assert r.context["hand_form"]["card_points_ns"].value() == "50"
    m.refresh_from_db()
    r = client.post(url("hand_edit", m, 1), hand_data(old_version, first_out="N", ns=50, reason="x"))
    assert r.status_code == 409 and "This match changed, reload." in r.content.decode()
    r = client.post(url("hand_delete", m, 1), {"version": old_version, "reason": "x"})
    assert r.status_code == 409
    assert Hand.objects.get(match=m).record["card_points"]["NS"] == 75


# --------------------------------------------------------------------------- end, confirm, reopen, restore


def test_end_at_time_limit_higher_total_wins(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="E", ns=40)  # 40:60
    m = Match.objects.get(pk=setup["match"].pk)
    r = client.post(url("match_end", m), {"end-version": m.version, "end-reason": "time"})
    assert r.status_code == 302
    m.refresh_from_db()
    assert m.status == Match.Status.FINISHED and m.ended == Match.Ended.TIME
    assert m.winner == setup["ew"] and (m.points_ns, m.points_ew) == (0, 2)


def test_end_at_time_equal_totals_is_a_draw(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="E", ns=50)  # 50:50
    m = Match.objects.get(pk=setup["match"].pk)
    client.post(url("match_end", m), {"end-version": m.version})
    m.refresh_from_db()
    assert m.winner is None and (m.points_ns, m.points_ew) == (1, 1)
    assert "Draw" in client.get(url("match_detail", m)).content.decode() or m.is_draw


def finish(client, setup):
    client.force_login(setup["referee"])
    for _ in range(2):
        post_hand(client, setup["match"], calls={"N": "grand_tai_pan"}, first_out="N", dv="NS")
    return Match.objects.get(pk=setup["match"].pk)


def test_confirm_by_same_user_refused_other_user_ok(client, setup):
    m = finish(client, setup)
    r = client.post(url("match_confirm", m), {"confirm-version": m.version})
    assert r.status_code == 200
    assert "different person" in " ".join(r.context["confirm_form"].non_field_errors())
    assert not Confirmation.objects.filter(match=m).exists()
    client.force_login(setup["referee2"])
    r = client.post(url("match_confirm", m), {"confirm-version": m.version})
    assert r.status_code == 302
    m.refresh_from_db()
    assert m.status == Match.Status.CONFIRMED
    page = client.get(url("match_detail", m))
    assert page.context["confirmation"].confirmed_by == setup["referee2"]
    assert "ref2" in page.content.decode()
    # a confirmed match is locked: no hand edits
    r = client.post(url("hand_edit", m, 1), hand_data(m.version, first_out="N", ns=50, reason="x"))
    assert r.status_code == 200 and r.context["form"].non_field_errors()


def test_blind_confirmation(client, setup):
    setup["t"].blind_confirmation = True
    setup["t"].save()
    m = finish(client, setup)
    client.force_login(setup["referee2"])
    page = client.get(url("match_confirm", m))
    assert page.status_code == 200
    assert "800" not in page.content.decode()  # totals are not shown
    r = client.post(url("match_confirm", m), {"confirm-version": m.version, "confirm-totals_ns": 700, "confirm-totals_ew": 0})
    assert r.status_code == 200 and r.context["form"].errors
    assert "800" not in r.content.decode()
    assert not Confirmation.objects.filter(match=m).exists()
    r = client.post(url("match_confirm", m), {"confirm-version": m.version, "confirm-totals_ns": 800, "confirm-totals_ew": 0})
    assert r.status_code == 302
    assert Confirmation.objects.filter(match=m, active=True).exists()


def test_reopen_needs_reason_then_edit_possible(client, setup):
    m = finish(client, setup)
    client.force_login(setup["referee2"])
    client.post(url("match_confirm", m), {"confirm-version": m.version})
    m.refresh_from_db()
    r = client.post(url("match_reopen", m), {"reopen-version": m.version, "reopen-reason": ""})
    assert r.status_code == 200 and r.context["reopen_form"].errors
    r = client.post(url("match_reopen", m), {"reopen-version": m.version, "reopen-reason": "wrong card points"})
    assert r.status_code == 302
    m.refresh_from_db()
    assert m.status == Match.Status.FINISHED
    c = Confirmation.objects.get(match=m)
    assert not c.active and c.reopen_reason == "wrong card points"
    assert "wrong card points" in client.get(url("match_detail", m)).content.decode()


def test_restore_earlier_version_from_audit(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="N", ns=75)
    m = Match.objects.get(pk=setup["match"].pk)
    client.post(url("hand_edit", m, 1), hand_data(m.version, first_out="N", ns=55, reason="oops"))
    m.refresh_from_db()
    assert m.total_ns == 55
    created = AuditEntry.objects.get(match=m, action=AuditEntry.Action.CREATE)
    html = client.get(url("match_detail", m)).content.decode()
    assert url("audit_restore", m, created.pk) in html
    r = client.post(url("audit_restore", m, created.pk), {"restore-version": m.version, "restore-reason": "back"})
    assert r.status_code == 302
    m.refresh_from_db()
    assert (m.total_ns, m.total_ew) == (75, 25)
    assert AuditEntry.objects.filter(match=m, action=AuditEntry.Action.RESTORE).exists()


def test_restore_with_stale_version(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="N", ns=75)
    m = Match.objects.get(pk=setup["match"].pk)
    created = AuditEntry.objects.get(match=m)
    r = client.post(url("audit_restore", m, created.pk), {"restore-version": m.version - 1, "restore-reason": "back"})
    assert r.status_code == 409 and "This match changed, reload." in r.content.decode()


def test_draft_round_match_hidden_from_public(client, setup):
    setup["round"].status = Round.Status.DRAFT
    setup["round"].save()
    assert client.get(url("match_detail", setup["match"])).status_code == 404
    client.force_login(setup["referee"])
    assert client.get(url("match_detail", setup["match"])).status_code == 200


def test_match_page_query_count_does_not_grow_with_hands(client, setup, django_assert_max_num_queries):
    client.force_login(setup["referee"])
    for _ in range(6):
        post_hand(client, setup["match"], first_out="E", ns=50)
    client.logout()
    with django_assert_max_num_queries(12):
        r = client.get(url("match_detail", setup["match"]))
    assert len(r.context["rows"]) == 6


def test_preview_announces_finish_and_winner(client, setup):
    """After one 400:0 hand (N Grand Tai Pan + double victory NS), the same hand again reaches 800."""
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], calls={"N": "grand_tai_pan"}, first_out="N", dv="NS")
    m = Match.objects.get(pk=setup["match"].pk)
    r = client.post(url("hand_preview", m), hand_data(m.version, calls={"N": "grand_tai_pan"}, first_out="N", dv="NS"),
                    HTTP_HX_REQUEST="true")
    assert r.context["preview"]["running"] == {"NS": 800, "EW": 0}
    assert r.context["preview"]["finished"] is True
    assert "Winner: Team Anna" in r.content.decode()


def test_edit_preview_replaces_the_hand(client, setup):
    client.force_login(setup["referee"])
    post_hand(client, setup["match"], first_out="N", ns=75)  # 75:25
    post_hand(client, setup["match"], first_out="E", ns=40)  # 40:60
    m = Match.objects.get(pk=setup["match"].pk)
    r = client.post(url("hand_preview", m) + "?hand=1", hand_data(m.version, first_out="N", ns=55), HTTP_HX_REQUEST="true")
    # hand 1 becomes 55:45; running after hand 1 is 55:45 (hand 2 unchanged)
    assert r.context["preview"]["NS"]["total"] == 55
    assert r.context["preview"]["running"] == {"NS": 55, "EW": 45}
    assert Hand.objects.get(match=m, number=1).ns == 75


def test_no_entry_form_in_draft_round(client, setup):
    setup["round"].status = Round.Status.DRAFT
    setup["round"].save()
    client.force_login(setup["referee"])
    page = client.get(url("match_detail", setup["match"]))
    assert not page.context["can_add"]
    r = post_hand(client, setup["match"], first_out="N", ns=50)
    assert r.status_code == 200 and r.context["hand_form"].non_field_errors()
    assert Hand.objects.count() == 0


def test_typed_ew_error_stands_next_to_ew(client, setup):
    client.force_login(setup["referee"])
    r = post_hand(client, setup["match"], first_out="N", ns=75, ew=27)
    assert any("multiple of 5" in e for e in field_errors(r, "card_points_ew"))
    assert Hand.objects.count() == 0


def test_enter_link_goes_to_the_entry_form(client, setup):
    client.force_login(setup["referee"])
    r = client.get(url("match_enter", setup["match"]))
    assert r.status_code == 302 and r["Location"] == url("match_detail", setup["match"]) + "#entry"
    page = client.get(r["Location"])
    assert 'id="entry"' in page.content.decode()


def test_bye_match_page(client, setup):
    bye = Match.objects.create(round=setup["round"], table=2, team_ns=make_team(setup["t"], "Team Eva", "Eva", "Frits"), team_ew=None)
    client.force_login(setup["referee"])
    page = client.get(url("match_detail", bye))
    assert page.status_code == 200 and "Team Eva" in page.content.decode()
    assert not page.context["can_add"]
    r = post_hand(client, bye, first_out="N", ns=50)
    assert r.context["hand_form"].non_field_errors()
    assert Hand.objects.count() == 0


@pytest.mark.parametrize("version", [None, "", "abc", "-1"])
def test_a_write_without_a_valid_version_is_refused(client, setup, version):
    """Every web write carries the match version it was built from; a missing or forged one is
    refused like a stale page and nothing is saved (issue 5: no lost updates)."""
    client.force_login(setup["referee"])
    data = hand_data(version, first_out="N", ns=50)
    if version is None:
        del data["version"]
    response = client.post(url("match_enter", setup["match"]), data)
    assert "This page is out of date" in response.content.decode()
    assert setup["match"].hands.count() == 0
