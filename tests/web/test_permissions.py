"""The permission matrix of every write URL of the three URL modules (``scoring/web/urls_public.py``,
``urls_referee.py``, ``urls_organiser.py``; docs/tournaments.md "Roles", ``scoring/policy.py``).

Each write is tried by an anonymous visitor (sent to the login page), an outsider (logged in, no
role: 403), a referee of another tournament (403), a referee (403 on organiser writes) and an
organiser, always with data that is valid: the refused requests change nothing at all (every
row of the app compared), and the same request by an allowed role does the write. Pages that show
a write's form on GET are refused the same way; POST-only URLs answer GET with 405. Every other
URL of the app writes nothing: it refuses POST with 405 for everyone. (The role checks of every
organiser page, GET and POST, formerly in ``tests/test_web_organiser.py``, are these cases.)

Changed on purpose (issue 10): one set of result URLs for matches and tables (``match_resume``,
``table_end``, ``table_resume``, ``table_audit_restore`` are new), ``tournament_state`` replaces
the status field of the tournament form, ``round_pair`` and ``round_seat`` show a confirmation
page on GET, and a referee may reopen a table (not only a match) while its round is open; in a
closed round only an organiser may reopen either.

Changed on purpose (issue 11 item 3): the entry page (``match_enter``, ``table_enter``) is what
the score sheet's QR code opens, so on GET it sends logged-in users who may not enter results
(an outsider, a referee of another tournament) to the result page instead of a 403; the public
goes to the login page, which leads back to it (changed on purpose after a user test: the referee
scanning the QR code reached the result page and had to find the login there); their POST is
refused as before. Ending at the
time limit (``match_end``, ``table_end``) has a confirmation page on GET (issue 11 item 2).

New (issue 15): regenerating and revoking a private link (``link_action``) are organiser writes;
disputing a result's totals (``match_dispute``, ``table_dispute``) is done by a side of the table
through its private link only, so every user is refused (referees and organisers correct the
result instead; ``tests/links/`` covers the entrants).

New (issue 22 item 3): inviting with a login link (``member_invite``, a new link for a member
``member_link``; both redirect to ``member_invitation``, which shows the link once), revoking a link
(``invitation_revoke``) and setting a member's password (``member_password``) are organiser
writes. What a link itself grants: ``tests/participants/test_invitations.py``.

New (issue 23): time's up (``round_times_up`` with its confirmation page, ``round_times_up_apply``),
the referee zones (``round_zones``) and closing from the progress board (``round_board_close``)
are organiser writes; claiming a table (``claim_table``), answering a call for a referee
(``answer_call``) and calling one (``match_call_referee``, ``table_call_referee``; also a side
through its link, ``tests/hall/``) are referee writes."""
from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import pytest
from django.contrib.auth import get_user_model
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import URLPattern, reverse

from scoring.draw import rounds
from scoring.hall import announcements, times_up
from scoring.hall import calls as hall_calls
from scoring.models import (
    Announcement,
    AuditEntry,
    CheckIn,
    Deal,
    Dispute,
    DistinctPersons,
    EntrantLink,
    Hand,
    Invitation,
    Match,
    Membership,
    Person,
    Player,
    RefereeAssignment,
    RefereeCall,
    Round,
    RoundClock,
    Table,
    TaskState,
    Team,
    TimesUp,
    Tournament,
)
from scoring.participants import invitations, links, persons
from scoring.policy import SYSTEM
from scoring.results import sheet
from scoring.web import urls_organiser, urls_public, urls_referee
from scoring.web.forms.organiser import PlayerForm, TournamentForm
from tests.factories import (
    PLAIN_HAND,
    SICHUAN_SELF_DRAW,
    TAI_PAN_HAND,
    MatchFactory,
    MembershipFactory,
    PlayerFactory,
    RoundFactory,
    TableFactory,
    TeamFactory,
    TournamentFactory,
    confirm_result,
    entry_data,
    form_data,
)
from tests.web.conftest import db_state

pytestmark = pytest.mark.django_db

ORG, REF, STAFF, ENTRANT = "organiser", "referee", "staff", "entrant"
#: A Sichuan self-drawn win by South instead of East (an edit of SICHUAN_SELF_DRAW).
SICHUAN_SOUTH_SELF_DRAW = {**SICHUAN_SELF_DRAW, "events": [{**SICHUAN_SELF_DRAW["events"][0], "player": "S"}]}
PASSWORD = "Tichu-Draak-2026"


@dataclass
class Write:
    """One write: its URL, valid POST data, who may do it and how to tell it was done."""

    name: str
    url: str
    data: dict
    needs: str
    done: Callable[[], bool]
    #: The URL shows a page on GET: its form (``True``), a public page (``"public"``), its form
    #: to the allowed roles, the login page to the public and a redirect to the result page
    #: ``detail`` to every other user (``"detail"``), or only POST is allowed (``False``: GET is 405).
    get: bool | str = False
    detail: str = ""
    #: The allowed role's answer to the POST.
    status: int = 302
    #: False for a POST that computes without writing (the live preview).
    writes: bool = True


def u(name: str, *args) -> str:
    return reverse(f"scoring:{name}", args=list(args))


def _fresh(value):
    if hasattr(value, "seek"):
        value.seek(0)
    return value


def post(client, write: Write):
    return client.post(write.url, {k: _fresh(v) for k, v in write.data.items()})


def reload(obj):
    return type(obj).objects.get(pk=obj.pk)


# --------------------------------------------------------------------------- organiser writes


def new_tournament(w, game="taipan", *, teams=0, players=0) -> Tournament:
    t = w.add_staff(TournamentFactory(game=game))
    for i in range(teams):
        TeamFactory(tournament=t, name=f"New {i}")
    for i in range(players):
        PlayerFactory(tournament=t, name=f"New player {i}")
    return t


def draft_taipan(w) -> Round:
    t = new_tournament(w, teams=4)
    teams = list(t.teams.order_by("name"))
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.DRAFT)
    MatchFactory(round=rnd, table=1, team_ns=teams[0], team_ew=teams[1])
    MatchFactory(round=rnd, table=2, team_ns=teams[2], team_ew=teams[3])
    return rnd


def all_confirmed(w, kind: str) -> Round:
    """Round 1 of ``tp`` (both matches) or ``sc`` (its table) with every result confirmed."""
    if kind == "match":
        for m in (w.match, w.match2):
            confirm_result(m, w.confirmer)
        return w.tp_round
    confirm_result(w.table, w.confirmer)
    return w.sc_round


def case_tournament_create(w):
    data = form_data(TournamentForm()) | {"name": "Brand new", "slug": "brand-new", "game": "taipan", "seed": 1}
    return Write("tournament_create", u("tournament_create"), data, STAFF,
                 lambda: Tournament.objects.filter(slug="brand-new").exists(), get=True)


def case_tournament_edit(w):
    data = form_data(TournamentForm(instance=w.tp)) | {"name": "Renamed"}
    return Write("tournament_edit", u("tournament_edit", "tp"), data, ORG, lambda: reload(w.tp).name == "Renamed", get=True)


def case_tournament_finish(w):
    rounds.close_round(all_confirmed(w, "match"), SYSTEM)
    return Write("tournament_state", u("tournament_state", "tp"), {"action": "finish"}, ORG,
                 lambda: reload(w.tp).status == Tournament.Status.FINISHED)


def case_tournament_resume(w):
    rounds.close_round(all_confirmed(w, "match"), SYSTEM)
    rounds.finish_tournament(w.tp, SYSTEM)
    return Write("tournament_state", u("tournament_state", "tp"), {"action": "resume"}, ORG,
                 lambda: reload(w.tp).status == Tournament.Status.RUNNING)


def case_member_add(w):
    return Write("members", u("members", "tp"), {"username": "outsider", "role": "organiser"}, ORG,
                 lambda: Membership.objects.filter(tournament=w.tp, user=w.outsider).exists(), get=True)


def case_member_create(w):
    data = {"new-username": "newref", "new-password1": PASSWORD, "new-password2": PASSWORD, "new-role": "referee"}
    return Write("members", u("members", "tp"), data, ORG, lambda: get_user_model().objects.filter(username="newref").exists(), get=True)


def case_member_remove(w):
    membership = Membership.objects.get(tournament=w.tp, user=w.confirmer)
    return Write("members", u("members", "tp"), {"remove": membership.pk}, ORG,
                 lambda: not Membership.objects.filter(pk=membership.pk).exists(), get=True)


def _confirmer_membership(w) -> Membership:
    return Membership.objects.get(tournament=w.tp, user=w.confirmer)


def case_member_invite(w):
    data = {"invite-username": "venue-ref", "invite-role": "referee", "invite-email": "", "invite-hours": "24"}
    return Write("member_invite", u("member_invite", "tp"), data, ORG,
                 lambda: Invitation.objects.filter(user__username="venue-ref", tournament=w.tp, role="referee").exists())


def case_member_link(w):
    return Write("member_link", u("member_link", "tp", _confirmer_membership(w).pk), {}, ORG,
                 lambda: Invitation.objects.filter(user=w.confirmer, tournament=w.tp, role="referee").exists())


def case_member_password(w):
    data = {"new_password1": "Groot-Taipan-2027", "new_password2": "Groot-Taipan-2027"}
    return Write("member_password", u("member_password", "tp", _confirmer_membership(w).pk), data, ORG,
                 lambda: reload(w.confirmer).check_password("Groot-Taipan-2027"), get=True)


def case_invitation_revoke(w):
    invitation, _token = invitations.invite(w.tp, SYSTEM, role="referee", user=w.confirmer)
    return Write("invitation_revoke", u("invitation_revoke", "tp", invitation.pk), {}, ORG,
                 lambda: Invitation.objects.get(pk=invitation.pk).revoked_at is not None)


def case_team_create(w):
    data = {"name": "Newcomers", "affiliation": "", "first_player_name": "Pim", "second_player_name": "Quinten",
            "seed": "", "joined_round": 2, "withdrawn_after_round": ""}
    return Write("team_create", u("team_create", "tp"), data, ORG,
                 lambda: Team.objects.filter(tournament=w.tp, name="Newcomers").exists(), get=True)


def case_teams_import(w):
    csv = SimpleUploadedFile("teams.csv", b"name,player1,player2,affiliation,seed\nImported,Ima,Ira,SV,5\n", content_type="text/csv")
    return Write("teams_import", u("teams_import", "tp"), {"file": csv}, ORG,
                 lambda: Team.objects.filter(tournament=w.tp, name="Imported").exists(), get=True)


def case_team_edit(w):
    team = w.teams[0]
    data = {"name": "Renamed", "affiliation": "", "first_player_name": "Xander", "second_player_name": "Yara",
            "seed": "", "joined_round": team.joined_round, "withdrawn_after_round": ""}
    return Write("team_edit", u("team_edit", "tp", team.pk), data, ORG, lambda: reload(team).name == "Renamed", get=True)


def case_team_withdraw(w):
    team = w.teams[0]
    return Write("team_edit", u("team_edit", "tp", team.pk), {"action": "withdraw"}, ORG,
                 lambda: reload(team).withdrawn_after_round == 1, get=True)


def case_team_delete(w):
    spare = TeamFactory(tournament=w.tp, name="Spare")
    return Write("team_edit", u("team_edit", "tp", spare.pk), {"action": "delete"}, ORG,
                 lambda: not Team.objects.filter(pk=spare.pk).exists(), get=True)


def case_round_pair(w):
    t = new_tournament(w, teams=4)
    return Write("round_pair", u("round_pair", t.slug), {}, ORG, lambda: t.rounds.filter(number=1).exists(), get=True)


def case_round_edit(w):
    rnd = draft_taipan(w)
    a, b, c, d = rnd.tournament.teams.order_by("name")
    data = {"t-TOTAL_FORMS": "2", "t-INITIAL_FORMS": "2", "t-MIN_NUM_FORMS": "0", "t-MAX_NUM_FORMS": "1000",
            "t-0-team_ns": a.pk, "t-0-team_ew": c.pk, "t-1-team_ns": b.pk, "t-1-team_ew": d.pk}
    return Write("round_edit", u("round_edit", rnd.tournament.slug, 1), data, ORG,
                 lambda: set(rnd.matches.values_list("team_ns", "team_ew")) == {(a.pk, c.pk), (b.pk, d.pk)}, get=True)


def case_round_publish(w):
    rnd = draft_taipan(w)
    return Write("round_publish", u("round_publish", rnd.tournament.slug, 1), {}, ORG,
                 lambda: reload(rnd).status == Round.Status.PUBLISHED)


def case_round_start(w):
    return Write("round_start", u("round_start", "tp", 1), {}, ORG, lambda: reload(w.tp_round).status == Round.Status.IN_PROGRESS)


def case_round_clock_start(w):
    return Write("round_clock", u("round_clock", "tp", 1, "start"), {"version": "0"}, ORG,
                 lambda: RoundClock.objects.filter(round=w.tp_round, status="running").exists())


def case_round_clock_extend(w):
    return Write("round_clock", u("round_clock", "tp", 1, "extend"), {"version": "0", "minutes": "5"}, ORG,
                 lambda: RoundClock.objects.filter(round=w.tp_round, version=1).exists())


def case_announcements(w):
    return Write("announcements", u("announcements", "tp"), {"text": "Hello hall"}, ORG,
                 lambda: Announcement.objects.filter(tournament=w.tp, text="Hello hall").exists(), get=True)


def case_announcement_withdraw(w):
    a = announcements.post(w.tp, SYSTEM, text="Going soon")
    return Write("announcement_withdraw", u("announcement_withdraw", "tp", a.pk), {}, ORG,
                 lambda: reload(a).withdrawn_at is not None)


def case_round_close(w):
    rnd = all_confirmed(w, "match")
    return Write("round_close", u("round_close", "tp", 1), {}, ORG, lambda: reload(rnd).status == Round.Status.CLOSED)


def case_round_board_close(w):
    rnd = all_confirmed(w, "match")
    return Write("round_board_close", u("round_board_close", "tp", 1), {}, ORG,
                 lambda: reload(rnd).status == Round.Status.CLOSED)


def case_round_times_up(w):
    return Write("round_times_up", u("round_times_up", "tp", 1), {"grace_minutes": "0"}, ORG,
                 lambda: TimesUp.objects.filter(round=w.tp_round, applied_at__isnull=False).exists(), get=True)


def case_round_times_up_apply(w):
    times_up.call(w.tp_round, SYSTEM, grace_minutes=5)
    return Write("round_times_up_apply", u("round_times_up_apply", "tp", 1), {}, ORG,
                 lambda: reload(w.match).ended == "time")


def case_round_zones(w):
    ref = w.referee
    return Write("round_zones", u("round_zones", "tp", 1), {"referee": ref.pk, f"r{ref.pk}-tables": "1"}, ORG,
                 lambda: RefereeAssignment.objects.filter(round=w.tp_round, table=1, referee=ref).exists(), get=True)


def case_claim_table(w):
    return Write("claim_table", u("claim_table", "tp", 1, 1), {}, REF,
                 lambda: RefereeAssignment.objects.filter(round=w.tp_round, table=1, claimed=True).exists())


def case_answer_call(w):
    hall_calls.call(w.match, SYSTEM)
    return Write("answer_call", u("answer_call", "tp", 1, 1), {}, REF,
                 lambda: not RefereeCall.objects.filter(answered_at=None).exists())


def case_call_referee(w, kind):
    c, slug = (w.match, "tp") if kind == "match" else (w.table, "sc")
    return Write(f"{kind}_call_referee", u(f"{kind}_call_referee", slug, c.pk), {}, REF,
                 lambda: RefereeCall.objects.filter(round_id=c.round_id).exists())


def case_match_reopen_closed(w):
    """Changed on purpose: in a closed round only an organiser reopens, and the round reopens."""
    rounds.close_round(all_confirmed(w, "match"), SYSTEM)
    m = reload(w.match)
    return Write("match_reopen", u("match_reopen", "tp", m.pk), {"version": m.version, "reopen-reason": "typo"}, ORG,
                 lambda: reload(m).status == Match.Status.FINISHED and reload(w.tp_round).status == Round.Status.IN_PROGRESS)


def case_players(w):
    data = {"name": "Newcomer", "affiliation": "", "seed": "", "joined_round": 2}
    return Write("players", u("players", "sc"), data, ORG,
                 lambda: Player.objects.filter(tournament=w.sc, name="Newcomer").exists(), get="public")


def case_players_import(w):
    csv = SimpleUploadedFile("players.csv", b"name,affiliation,seed\nImported Player,SV,3\n", content_type="text/csv")
    return Write("players_import", u("players_import", "sc"), {"file": csv}, ORG,
                 lambda: Player.objects.filter(tournament=w.sc, name="Imported Player").exists(), get=True)


def case_player_edit(w):
    player = w.players[0]
    data = form_data(PlayerForm(instance=player)) | {"name": "Renamed"}
    return Write("player_edit", u("player_edit", "sc", player.pk), data, ORG, lambda: reload(player).name == "Renamed", get=True)


def case_player_withdraw(w):
    player = w.players[0]
    return Write("player_withdraw", u("player_withdraw", "sc", player.pk), {"after_round": 1}, ORG,
                 lambda: reload(player).withdrawn_after_round == 1)


def case_persons_same(w):
    """Issue 26: "Same person" on the review list (a look-alike entered elsewhere)."""
    here = w.players[0]
    other = persons.create_player(w.elsewhere, here.name)
    return Write("persons_decide", u("persons_decide", "sc"), {"here": here.person_id, "other": other.person_id,
                                                             "decision": "same"}, ORG,
                 lambda: reload(here).person_id == other.person_id)


def case_persons_different(w):
    here = w.players[0]
    other = persons.create_player(w.elsewhere, here.name)
    return Write("persons_decide", u("persons_decide", "sc"), {"here": here.person_id, "other": other.person_id,
                                                             "decision": "different"}, ORG,
                 lambda: DistinctPersons.objects.exists())


def case_person_split(w):
    """Issue 26: "Not the same person" on an entry joined with an entry elsewhere."""
    here = w.players[0]
    other = persons.create_player(w.elsewhere, here.name)
    Player.objects.filter(pk=other.pk).update(person_id=here.person_id)
    Person.objects.filter(pk=other.person_id).delete()
    return Write("person_split", u("person_split", "sc", here.pk), {}, ORG,
                 lambda: reload(here).person_id != reload(other).person_id)


def case_checkin_toggle(w):
    t = new_tournament(w, teams=2)
    t.checkin_required = True
    t.save(update_fields=["checkin_required"])
    team = t.teams.order_by("name").first()
    return Write("checkin_toggle", u("checkin_toggle", t.slug, team.pk), {"present": "1"}, ORG,
                 lambda: CheckIn.objects.filter(team=team, present=True).exists())


def case_no_show(w):
    rnd = draft_taipan(w)
    match = rnd.matches.order_by("table").first()
    return Write("no_show", u("no_show", rnd.tournament.slug, 1), {"result": match.pk, "absent": match.team_ew_id, "reason": "absent", "rule": "bye"},
                 ORG, lambda: reload(match).team_ew_id is None, get=True)


def case_round_seat(w):
    t = new_tournament(w, "sichuan", players=8)
    return Write("round_seat", u("round_seat", t.slug), {"seed": ""}, ORG, lambda: t.rounds.filter(number=1).exists(), get=True)


def case_round_tables_publish(w):
    t = new_tournament(w, "sichuan")
    rnd = RoundFactory(tournament=t, number=1, status=Round.Status.DRAFT)
    TableFactory(round=rnd, number=1)
    return Write("round_tables_publish", u("round_tables_publish", t.slug, 1), {}, ORG,
                 lambda: reload(rnd).status == Round.Status.PUBLISHED)


def case_round_tables_close(w):
    rnd = all_confirmed(w, "table")
    return Write("round_tables_close", u("round_tables_close", "sc", 1), {}, ORG, lambda: reload(rnd).status == Round.Status.CLOSED)


def case_table_reopen_closed(w):
    """Changed on purpose: a table of a closed round can be reopened (by an organiser only), and
    the round goes back to in progress (was: refused)."""
    rounds.close_round(all_confirmed(w, "table"), SYSTEM)
    t = reload(w.table)
    return Write("table_reopen", u("table_reopen", "sc", t.pk), {"version": t.version, "reopen-reason": "typo"}, ORG,
                 lambda: reload(t).status == Table.Status.FINISHED and reload(w.sc_round).status == Round.Status.IN_PROGRESS)


def case_link_regenerate(w):
    link = links.ensure_links(w.tp)[0]
    before = link.token_hash
    return Write("link_action", u("link_action", "tp", link.pk, "regenerate"), {}, ORG,
                 lambda: EntrantLink.objects.get(pk=link.pk).token_hash != before)


def case_link_revoke(w):
    link = links.ensure_links(w.sc)[0]
    return Write("link_action", u("link_action", "sc", link.pk, "revoke"), {}, ORG,
                 lambda: EntrantLink.objects.get(pk=link.pk).revoked)


# --------------------------------------------------------------------------- referee writes

KINDS = {
    "match": {"slug": "tp", "record": PLAIN_HAND, "other": TAI_PAN_HAND, "model": Hand, "fk": "match",
              "names": {"enter": "match_enter", "preview": "hand_preview", "edit": "hand_edit", "delete": "hand_delete",
                        "end": "match_end", "resume": "match_resume", "confirm": "match_confirm",
                        "reopen": "match_reopen", "restore": "audit_restore", "acknowledge": "hand_acknowledge",
                        "disagree": "hand_disagree"}},
    "table": {"slug": "sc", "record": SICHUAN_SELF_DRAW, "other": SICHUAN_SOUTH_SELF_DRAW, "model": Deal, "fk": "table",
              "names": {"enter": "table_enter", "preview": "deal_preview", "edit": "deal_edit", "delete": "deal_delete",
                        "end": "table_end", "resume": "table_resume", "confirm": "table_confirm",
                        "reopen": "table_reopen", "restore": "table_audit_restore", "acknowledge": "deal_acknowledge",
                        "disagree": "deal_disagree"}},
}


def _container(w, kind):
    return w.match if kind == "match" else w.table


def _records(kind, c):
    k = KINDS[kind]
    return list(k["model"].objects.filter(**{k["fk"]: c}).order_by("number").values_list("record", flat=True))


def _with_record(w, kind):
    c = _container(w, kind)
    sheet.add_record(c, KINDS[kind]["record"], SYSTEM, expected_version=c.version)
    return c


def _url(kind, action, c, *extra):
    return u(KINDS[kind]["names"][action], KINDS[kind]["slug"], c.pk, *extra)


def _same(record, stored):
    return {k: v for k, v in stored.items() if k in record} == record


def case_enter(w, kind):
    c = _container(w, kind)
    detail = u("match_detail" if kind == "match" else "table_detail", KINDS[kind]["slug"], c.pk)
    return Write(KINDS[kind]["names"]["enter"], _url(kind, "enter", c), entry_data(c, KINDS[kind]["record"]), REF,
                 lambda: len(_records(kind, c)) == 1, get="detail", detail=detail)


def case_preview(w, kind):
    c = _container(w, kind)
    return Write(KINDS[kind]["names"]["preview"], _url(kind, "preview", c), entry_data(c, KINDS[kind]["record"]), REF,
                 lambda: True, status=200, writes=False)


def case_edit(w, kind):
    c = _with_record(w, kind)
    other = KINDS[kind]["other"]
    return Write(KINDS[kind]["names"]["edit"], _url(kind, "edit", c, 1), entry_data(c, other, reason="typo"), REF,
                 lambda: _same(other, _records(kind, c)[0]), get=True)


def case_delete(w, kind):
    c = _with_record(w, kind)
    return Write(KINDS[kind]["names"]["delete"], _url(kind, "delete", c, 1), {"version": c.version, "reason": "wrong table"}, REF,
                 lambda: _records(kind, c) == [], get=True)


def case_end(w, kind):
    c = _with_record(w, kind)
    return Write(KINDS[kind]["names"]["end"], _url(kind, "end", c), {"version": c.version, "end-reason": "time"}, REF,
                 lambda: reload(c).ended == "time", get=True)


def case_resume(w, kind):
    c = _with_record(w, kind)
    sheet.end_at_time(c, SYSTEM, expected_version=c.version, reason="time")
    return Write(KINDS[kind]["names"]["resume"], _url(kind, "resume", c), {"version": c.version, "end-reason": "clock was wrong"},
                 REF, lambda: reload(c).ended == "" and reload(c).status == c.Status.PLAYING)


def case_confirm(w, kind):
    from tests.factories import finish_result

    c = finish_result(_container(w, kind))
    return Write(KINDS[kind]["names"]["confirm"], _url(kind, "confirm", c), {"version": c.version}, REF,
                 lambda: reload(c).status == c.Status.CONFIRMED, get=True)


def case_reopen(w, kind):
    c = confirm_result(_container(w, kind), w.confirmer)
    return Write(KINDS[kind]["names"]["reopen"], _url(kind, "reopen", c), {"version": c.version, "reopen-reason": "typo"}, REF,
                 lambda: reload(c).status == c.Status.FINISHED)


def case_restore(w, kind):
    c = _with_record(w, kind)
    created = AuditEntry.objects.get(action="create", **{kind: c})
    sheet.edit_record(c, 1, KINDS[kind]["other"], SYSTEM, expected_version=c.version, reason="typo")
    record = KINDS[kind]["record"]
    return Write(KINDS[kind]["names"]["restore"], _url(kind, "restore", c, created.pk), {"version": c.version, "restore-reason": "undo"},
                 REF, lambda: _same(record, _records(kind, c)[0]))


def case_dispute(w, kind):
    from tests.factories import finish_result

    c = finish_result(_container(w, kind))
    totals = {f"dispute-total_{i}": 0 for i in range(2 if kind == "match" else 4)}
    name = "match_dispute" if kind == "match" else "table_dispute"
    return Write(name, u(name, KINDS[kind]["slug"], c.pk), {"version": c.version, **totals}, ENTRANT,
                 lambda: Dispute.objects.exists())


def _verified_record(w, kind):
    """A record entered by the system in a tournament with player entry and verification per hand
    (issue 22 item 2): pending, to be acknowledged."""
    c = _container(w, kind)
    Tournament.objects.filter(pk=c.round.tournament_id).update(player_entry=True, verification="each")
    c.round.tournament.refresh_from_db()
    return _with_record(w, kind)


def case_acknowledge(w, kind):
    c = _verified_record(w, kind)
    k = KINDS[kind]
    return Write(k["names"]["acknowledge"], _url(kind, "acknowledge", c, 1), {"revision": 1}, REF,
                 lambda: k["model"].objects.get(**{k["fk"]: c}).acknowledged_revision == 1)


def case_disagree(w, kind):
    c = _verified_record(w, kind)
    scores = {f"disagree-1-score_{i}": 0 for i in range(2 if kind == "match" else 4)}
    return Write(KINDS[kind]["names"]["disagree"], _url(kind, "disagree", c, 1), {"disagree-1-revision": 1, **scores},
                 ENTRANT, lambda: Dispute.objects.exists())


def case_round_pack_build(w):
    return Write("round_pack_build", u("round_pack_build", "tp", 1), {}, REF, lambda: TaskState.objects.exists())


ORGANISER_CASES = {
    "tournament_create": case_tournament_create,
    "tournament_edit": case_tournament_edit,
    "tournament_state finish": case_tournament_finish,
    "tournament_state resume": case_tournament_resume,
    "members add": case_member_add,
    "members create account": case_member_create,
    "members remove": case_member_remove,
    "member_invite": case_member_invite,
    "member_link": case_member_link,
    "member_password": case_member_password,
    "invitation_revoke": case_invitation_revoke,
    "team_create": case_team_create,
    "teams_import": case_teams_import,
    "team_edit": case_team_edit,
    "team_edit withdraw": case_team_withdraw,
    "team_edit delete": case_team_delete,
    "round_pair": case_round_pair,
    "round_edit": case_round_edit,
    "round_publish": case_round_publish,
    "round_start": case_round_start,
    "round_close": case_round_close,
    "round_clock start": case_round_clock_start,
    "round_clock extend": case_round_clock_extend,
    "announcements": case_announcements,
    "announcement_withdraw": case_announcement_withdraw,
    "match_reopen closed round": case_match_reopen_closed,
    "players": case_players,
    "players_import": case_players_import,
    "player_edit": case_player_edit,
    "player_withdraw": case_player_withdraw,
    "round_seat": case_round_seat,
    "checkin_toggle": case_checkin_toggle,
    "no_show": case_no_show,
    "round_tables_publish": case_round_tables_publish,
    "round_tables_close": case_round_tables_close,
    "table_reopen closed round": case_table_reopen_closed,
    "link_action regenerate": case_link_regenerate,
    "link_action revoke": case_link_revoke,
    "persons_decide same": case_persons_same,
    "persons_decide different": case_persons_different,
    "person_split": case_person_split,
}
ORGANISER_CASES.update({
    "round_board_close": case_round_board_close,
    "round_times_up": case_round_times_up,
    "round_times_up_apply": case_round_times_up_apply,
    "round_zones": case_round_zones,
})
REFEREE_CASES = {"round_pack_build": case_round_pack_build, "claim_table": case_claim_table,
                 "answer_call": case_answer_call,
                 "match_call_referee": lambda w: case_call_referee(w, "match"),
                 "table_call_referee": lambda w: case_call_referee(w, "table")}
for _kind in KINDS:
    for _action, _case in (("enter", case_enter), ("preview", case_preview), ("edit", case_edit), ("delete", case_delete),
                           ("end", case_end), ("resume", case_resume), ("confirm", case_confirm), ("reopen", case_reopen),
                           ("restore", case_restore), ("acknowledge", case_acknowledge)):
        REFEREE_CASES[KINDS[_kind]["names"][_action]] = (lambda w, c=_case, k=_kind: c(w, k))
ENTRANT_CASES = {f"{kind}_dispute": (lambda w, k=kind: case_dispute(w, k)) for kind in KINDS}
ENTRANT_CASES.update({KINDS[kind]["names"]["disagree"]: (lambda w, k=kind: case_disagree(w, k)) for kind in KINDS})
CASES = {**ORGANISER_CASES, **REFEREE_CASES, **ENTRANT_CASES}


def _refusal(role: str, needs: str) -> int | None:
    """What ``role`` gets from a write needing ``needs``: 302 (to the login page), 403, or
    ``None`` (let through)."""
    if role == "anonymous":
        return 302
    if role in ("outsider", "other_referee"):
        return 403
    if needs in (STAFF, ENTRANT) or (needs == ORG and role == "referee"):
        return 403
    return None


def _login(client, user):
    client.logout()
    if user is not None:
        client.force_login(user)


def _check_refused(client, response, expected, what):
    assert response.status_code == expected, (what, response.status_code)
    if expected == 302:
        assert response["Location"].startswith(reverse("login")), what


@pytest.mark.parametrize("case", list(CASES))
def test_refused_roles_change_nothing(client, world, case):
    """Anonymous -> login page; outsider and a referee of another tournament -> 403; a referee on
    an organiser write -> 403: with valid data, and nothing changes. GET of the write's page is
    refused alike; a POST-only URL answers GET with 405."""
    write = CASES[case](world)
    before = db_state()
    for role, user in {"anonymous": None, **world.users()}.items():
        expected = _refusal(role, write.needs)
        if expected is None:
            continue
        _login(client, user)
        _check_refused(client, post(client, write), expected, (case, role, "POST"))
        if write.get is True:
            _check_refused(client, client.get(write.url), expected, (case, role, "GET"))
        elif write.get == "detail":
            response = client.get(write.url)
            target = write.detail if user is not None else reverse("login") + "?next=" + write.url
            assert response.status_code == 302 and response["Location"] == target, (case, role, "GET")
        elif write.get is False:
            assert client.get(write.url).status_code == 405, (case, role, "GET")
    assert db_state() == before, case
    assert write.name == case.split()[0]
    assert not write.done() or not write.writes, f"{case}: the write happened before any allowed request"


ALLOWED = [(case, role) for case, make in ORGANISER_CASES.items() for role in (["staff_user"] if case == "tournament_create" else ["organiser"])]
ALLOWED += [(case, role) for case in REFEREE_CASES for role in ("referee", "organiser")]


@pytest.mark.parametrize("case,role", ALLOWED)
def test_allowed_roles_write(client, world, case, role):
    """The same request by a role that may do it goes through (the page on GET, the write on POST)."""
    write = CASES[case](world)
    _login(client, getattr(world, role))
    if write.get:
        before = db_state()
        assert client.get(write.url).status_code == 200, case
        assert db_state() == before, f"{case}: GET changed something"
    before = db_state()
    response = post(client, write)
    assert response.status_code == write.status, (case, role, response.status_code, response.content.decode()[:2000])
    if write.status == 302:
        assert not response["Location"].startswith(reverse("login")), case
    if write.writes:
        assert write.done(), (case, role)
    else:
        assert db_state() == before, case


def test_a_referee_may_not_reopen_in_a_closed_round(client, world):
    """Changed on purpose: a referee reopens only while the round is open (matches and tables)."""
    for case in ("match_reopen closed round", "table_reopen closed round"):
        write = CASES[case](world)
        before = db_state()
        _login(client, world.referee)
        assert post(client, write).status_code == 403, case
        assert db_state() == before


# --------------------------------------------------------------------------- reads


ORGANISER_READS = ["tournament_export", "team_list", "persons_review"]


@pytest.mark.parametrize("name", ORGANISER_READS)
def test_organiser_pages_that_only_read_check_the_role(client, world, name):
    url = u(name, "tp")
    for role, user in {"anonymous": None, **world.users()}.items():
        _login(client, user)
        response = client.get(url)
        expected = _refusal(role, ORG)
        if expected is None:
            assert response.status_code == 200, (name, role)
        else:
            _check_refused(client, response, expected, (name, role))


#: The URL names of every write (the cases above, keyed by URL name and, for URLs doing more
#: than one thing, an action).
WRITE_NAMES = {case.split()[0] for case in CASES}


def _url_args(world, pattern: URLPattern) -> dict:
    """Arguments that address a real object of the world for ``pattern`` (a four-player URL gets
    the Sichuan tournament, a result URL its match or table)."""
    route = str(pattern.pattern)
    four = any(word in route for word in ("table/", "players/")) or pattern.name in ("round_tables", "round_tables_pdf", "player_standings")
    task = TaskState.objects.order_by("pk").first()
    entry = AuditEntry.objects.order_by("pk").first()
    values = {
        "slug": "sc" if four else "tp",
        "pk": (world.table.pk if "table/" in route else world.players[0].pk) if four and pattern.name != "round_tables" else
        (world.teams[0].pk if "team" in route else world.match.pk),
        "number": 1,
        "task_id": task.pk if task else 1,
        "entry_id": entry.pk if entry else 1,
        "game": "taipan",
    }
    return {key: values[key] for key in pattern.pattern.regex.groupindex}


def test_no_other_url_writes(client, world):
    """Every URL of the three modules that is not a write above refuses POST with 405, whoever
    posts, and changes nothing: the writes listed here are all the app has."""
    sheet.add_record(world.match, PLAIN_HAND, SYSTEM, expected_version=world.match.version)
    from scoring import tasks

    tasks.start_round_pack(world.tp_round)
    writes = WRITE_NAMES
    patterns = [p for module in (urls_public, urls_referee, urls_organiser) for p in module.urlpatterns]
    names = {p.name for p in patterns}
    assert writes <= names, writes - names
    others = [p for p in patterns if p.name not in writes]
    assert len(others) >= 20
    before = db_state()
    junk = {"name": "x", "username": "outsider", "role": "organiser", "version": "1", "action": "finish", "remove": "1"}
    for pattern in others:
        url = reverse(f"scoring:{pattern.name}", kwargs=_url_args(world, pattern))
        for role, user in {"anonymous": None, **world.users()}.items():
            _login(client, user)
            assert client.post(url, junk).status_code == 405, (pattern.name, role)
    assert db_state() == before


def test_organiser_of_another_tournament_gets_403(client, world):
    stranger = MembershipFactory(tournament=world.elsewhere, role=Membership.Role.ORGANISER).user
    client.force_login(stranger)
    assert client.get(u("team_list", "tp")).status_code == 403
    write = case_tournament_edit(world)
    before = db_state()
    assert post(client, write).status_code == 403
    assert db_state() == before
