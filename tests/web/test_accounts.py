"""Accounts at the venue (issue 22 item 3, docs/accounts.md): login links (invitations) made on
the members page, opened once on a phone; an organiser setting a member's password; everyone's
own account page and password change; password reset only with mail; the role select starting
on referee. Login throttling: ``tests/web/test_login_throttling.py``; two phones opening one link
at once: ``tests/participants/test_invitation_races.py``."""
from __future__ import annotations

import hashlib
import re
from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from scoring.models import Invitation, Membership
from scoring.participants import invitations
from scoring.policy import SYSTEM
from tests.factories import MembershipFactory, TournamentFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]

PASSWORD = "Groot-Taipan-2027"


def phone() -> Client:
    client = Client()
    client.cookies["django_language"] = "en"
    return client


def invite_on_page(client, cup, username="venue-ref", role="referee", hours="24"):
    """The organiser's request on the members page; returns (response, token shown)."""
    response = client.post(reverse("scoring:member_invite", args=[cup.tournament.slug]),
                           {"invite-username": username, "invite-role": role, "invite-email": "", "invite-hours": hours},
                           follow=True)
    html = response.content.decode()
    match = re.search(r"/invite/#([a-z0-9]+)<", html)
    return response, match.group(1) if match else None


def open_link(client, token: str):
    return client.post(reverse("scoring:open_invitation"), {"code": token})


def logged_in_user(client):
    return client.session.get("_auth_user_id")


def test_role_selects_start_on_referee(client, cup):
    client.force_login(cup.organiser)
    html = client.get(reverse("scoring:members", args=[cup.tournament.slug])).content.decode()
    for name in ("role", "new-role", "invite-role"):
        select = re.search(rf'<select name="{name}"[^>]*>(.*?)</select>', html, re.S).group(1)
        assert re.search(r'<option value="referee" selected>', select), name
        assert select.index('value="referee"') < select.index('value="organiser"'), name


def test_invite_shows_the_link_once_and_stores_only_its_hash(client, cup):
    client.force_login(cup.organiser)
    response, token = invite_on_page(client, cup)
    assert response.status_code == 200 and token and len(token) == invitations.TOKEN_LENGTH
    assert "no-store" in response["Cache-Control"]
    html = response.content.decode()
    assert "<svg" in html and invitations.grouped(token) in html
    assert not set(token) & set("01oli")  # no look-alikes
    user = get_user_model().objects.get(username="venue-ref")
    assert not user.has_usable_password()
    assert Membership.objects.get(tournament=cup.tournament, user=user).role == "referee"
    invitation = Invitation.objects.get(user=user)
    assert invitation.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert invitation.expires_at - invitation.created_at == timedelta(hours=24)
    dump = str(list(Invitation.objects.values())) + str(list(get_user_model().objects.values()))
    assert token not in dump
    # The members page lists the link as not used yet, never the token.
    page = client.get(reverse("scoring:members", args=[cup.tournament.slug])).content.decode()
    assert f'id="invitation-{invitation.pk}"' in page and token not in page
    assert "no password yet" in page


def test_the_link_logs_in_once_with_exactly_the_invited_role(client, cup):
    other = TournamentFactory(slug="other")
    client.force_login(cup.organiser)
    _response, token = invite_on_page(client, cup)
    anna = phone()
    page = anna.get(reverse("scoring:open_invitation"))
    assert page.status_code == 200 and 'data-auto="1"' in page.content.decode()
    response = open_link(anna, token)
    assert response.status_code == 302 and response["Location"] == reverse("scoring:account")
    user = get_user_model().objects.get(username="venue-ref")
    assert logged_in_user(anna) == str(user.pk)
    assert list(Membership.objects.filter(user=user).values_list("tournament__slug", "role")) == [("nskt", "referee")]
    account = anna.get(reverse("scoring:account")).content.decode()
    assert "Welcome, venue-ref" in account and 'id="set-password"' in account
    assert anna.get(reverse("scoring:members", args=[cup.tournament.slug])).status_code == 403
    assert anna.get(reverse("scoring:members", args=[other.slug])).status_code == 403
    # A second phone with the same link: refused, not logged in.
    ben = phone()
    again = open_link(ben, token)
    assert again.status_code == 400 and "does not work" in again.content.decode() and logged_in_user(ben) is None


def test_reloading_the_shown_link_never_makes_a_new_one(client, cup, caplog):
    """Post/Redirect/Get: "Make a login link" redirects to a page that shows the link once; a
    reload (or a later visit) of that page says it was shown already, makes no new link, and the
    first link keeps working. The token is in no address and no log, and gone from the session."""
    t = cup.tournament
    client.force_login(cup.organiser)
    post = client.post(reverse("scoring:member_invite", args=[t.slug]),
                       {"invite-username": "venue-ref", "invite-role": "referee", "invite-hours": "24"})
    invitation = Invitation.objects.get(user__username="venue-ref")
    shown_url = reverse("scoring:member_invitation", args=[t.slug, invitation.pk])
    assert post.status_code == 302 and post["Location"] == shown_url
    first = client.get(shown_url)
    assert first.status_code == 200 and "no-store" in first["Cache-Control"]
    token = re.search(r"/invite/#([a-z0-9]+)<", first.content.decode()).group(1)
    assert invitation.token_hash == hashlib.sha256(token.encode()).hexdigest()
    assert token not in str(dict(client.session)) and token not in caplog.text
    reload = client.get(shown_url)
    html = reload.content.decode()
    assert reload.status_code == 200 and "no-store" in reload["Cache-Control"]
    assert 'id="invitation-shown"' in html and "/invite/#" not in html and "<svg" not in html
    m = Membership.objects.get(tournament=t, user=invitation.user)
    assert reverse("scoring:member_link", args=[t.slug, m.pk]) in html  # a new one only by a button
    assert Invitation.objects.count() == 1 and Invitation.objects.get().revoked_at is None
    assert open_link(phone(), token).status_code == 302  # the first link still works
    # A link made for a member ("Login link") goes the same way.
    again = client.post(reverse("scoring:member_link", args=[t.slug, m.pk]))
    newer = Invitation.objects.latest("created_at")
    assert again["Location"] == reverse("scoring:member_invitation", args=[t.slug, newer.pk])
    # A redirect never followed: the members page drops the token from the session.
    assert "nskt_new_login_link" in client.session
    client.get(reverse("scoring:members", args=[t.slug]))
    assert "nskt_new_login_link" not in client.session
    assert 'id="invitation-shown"' in client.get(again["Location"]).content.decode()
    # Another tournament's organiser cannot open the page.
    other = MembershipFactory(role="organiser").user
    client.force_login(other)
    assert client.get(shown_url).status_code == 403


def test_typed_code_ignores_case_spaces_and_dashes(client, cup):
    _invitation, token = invitations.invite(cup.tournament, cup.organiser, role="referee", username="typist")
    typed = " " + invitations.grouped(token).upper().replace("-", " - ") + " "
    assert open_link(phone(), typed).status_code == 302


def test_expired_revoked_and_replaced_links_do_not_work(client, cup):
    t = cup.tournament
    old, old_token = invitations.invite(t, cup.organiser, role="referee", username="ref-a")
    new, new_token = invitations.invite(t, cup.organiser, role="referee", username="ref-a")
    assert Invitation.objects.get(pk=old.pk).revoked_at is not None  # a new link revokes the old one
    assert open_link(phone(), old_token).status_code == 400
    Invitation.objects.filter(pk=new.pk).update(expires_at=timezone.now() - timedelta(seconds=1))
    assert open_link(phone(), new_token).status_code == 400
    third, third_token = invitations.invite(t, cup.organiser, role="referee", username="ref-a")
    client.force_login(cup.organiser)
    assert client.post(reverse("scoring:invitation_revoke", args=[t.slug, third.pk])).status_code == 302
    assert open_link(phone(), third_token).status_code == 400
    assert not get_user_model().objects.get(username="ref-a").has_usable_password()


def test_a_logged_in_phone_is_asked_before_switching(client, cup):
    _invitation, token = invitations.invite(cup.tournament, cup.organiser, role="referee", username="ref-b")
    client.force_login(cup.organiser)
    page = client.get(reverse("scoring:open_invitation")).content.decode()
    assert 'id="invitation-switch"' in page and 'data-auto="1"' not in page
    assert Invitation.objects.get(user__username="ref-b").used_at is None


def test_new_link_for_a_member_and_the_member_sets_a_password_without_the_old_one(client, cup):
    client.force_login(cup.organiser)
    m = Membership.objects.get(tournament=cup.tournament, user=cup.referee)
    response = client.post(reverse("scoring:member_link", args=[cup.tournament.slug, m.pk]), follow=True)
    token = re.search(r"/invite/#([a-z0-9]+)<", response.content.decode()).group(1)
    ref = phone()
    assert open_link(ref, token).status_code == 302
    assert ref.get(reverse("scoring:account_set_password")).status_code == 200
    done = ref.post(reverse("scoring:account_set_password"), {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert done.status_code == 302
    cup.referee.refresh_from_db()
    assert cup.referee.check_password(PASSWORD) and logged_in_user(ref) == str(cup.referee.pk)
    # Without a fresh link, the same page asks for the old password again.
    again = ref.get(reverse("scoring:account_set_password")).content.decode()
    assert 'name="old_password"' in again


def test_organiser_sets_a_members_password(client, cup):
    url = reverse("scoring:member_password", args=[cup.tournament.slug,
                                                   Membership.objects.get(user=cup.referee).pk])
    ref = phone()
    ref.force_login(cup.referee)
    client.force_login(cup.organiser)
    weak = client.post(url, {"new_password1": "123", "new_password2": "123"})
    assert weak.status_code == 400
    assert client.post(url, {"new_password1": PASSWORD, "new_password2": PASSWORD}).status_code == 302
    cup.referee.refresh_from_db()
    assert cup.referee.check_password(PASSWORD)
    assert ref.get(reverse("scoring:account"))["Location"].startswith(reverse("login"))  # their session ended
    assert phone().login(username="ref", password=PASSWORD)


def test_an_organiser_cannot_take_over_someone_elses_account(client, cup):
    """A member who also works for a tournament this organiser does not run, a staff account and
    one's own password are refused: no login link, no password."""
    t = cup.tournament
    elsewhere = MembershipFactory(role="organiser").user
    MembershipFactory(tournament=t, user=elsewhere, role="referee")
    admin = UserFactory(username="admin", is_staff=True)
    MembershipFactory(tournament=t, user=admin, role="referee")
    client.force_login(cup.organiser)
    for user in (elsewhere, admin):
        before = user.password
        m = Membership.objects.get(tournament=t, user=user)
        response = client.post(reverse("scoring:member_link", args=[t.slug, m.pk]), follow=True)
        assert "/invite/#" not in response.content.decode()
        assert [x.level_tag for x in response.context["messages"]] == ["error"]
        client.post(reverse("scoring:member_password", args=[t.slug, m.pk]),
                    {"new_password1": PASSWORD, "new_password2": PASSWORD})
        user.refresh_from_db()
        assert user.password == before
    response, token = invite_on_page(client, cup, username=elsewhere.username)
    assert token is None and response.status_code == 400
    assert not Invitation.objects.exists()
    own = Membership.objects.get(tournament=t, user=cup.organiser)
    assert client.post(reverse("scoring:member_password", args=[t.slug, own.pk]),
                       {"new_password1": PASSWORD, "new_password2": PASSWORD}).status_code == 400


def test_the_members_page_says_why_an_account_cannot_be_handled(client, cup):
    """No "Login link" or "Set password" for an account the organiser may not handle, with the
    real reason: another tournament's member, or a staff account; the password page says it
    before anyone types a password."""
    t = cup.tournament
    elsewhere = MembershipFactory(role="organiser").user
    mine = MembershipFactory(tournament=t, user=elsewhere, role="referee")
    admin = UserFactory(username="admin", is_staff=True)
    admins = MembershipFactory(tournament=t, user=admin, role="referee")
    ref = Membership.objects.get(tournament=t, user=cup.referee)
    client.force_login(cup.organiser)
    html = client.get(reverse("scoring:members", args=[t.slug])).content.decode()

    def item(m):
        return re.search(rf'<li id="member-{m.pk}">(.*?)</li>', html, re.S).group(1)

    for m in (mine, admins):
        assert reverse("scoring:member_link", args=[t.slug, m.pk]) not in item(m)
        assert reverse("scoring:member_password", args=[t.slug, m.pk]) not in item(m)
    assert "also works in another tournament; only its own organisers or a site administrator" in item(mine)
    assert "Only a site administrator can handle this account." in item(admins)
    assert "site administrator can handle" not in item(mine)
    assert reverse("scoring:member_link", args=[t.slug, ref.pk]) in item(ref) and 'class="muted refusal"' not in item(ref)
    page = client.get(reverse("scoring:member_password", args=[t.slug, mine.pk])).content.decode()
    assert 'id="refusal"' in page and "also works in another tournament" in page and "new_password1" not in page
    refused = client.post(reverse("scoring:member_password", args=[t.slug, mine.pk]),
                          {"new_password1": PASSWORD, "new_password2": PASSWORD})
    assert refused.status_code == 409
    # A superuser organiser may handle them all.
    boss = UserFactory(username="boss", is_superuser=True, is_staff=True)
    MembershipFactory(tournament=t, user=boss, role="organiser")
    client.force_login(boss)
    assert 'class="muted refusal"' not in client.get(reverse("scoring:members", args=[t.slug])).content.decode()


def test_the_username_in_the_navigation_opens_the_account_page(client, cup):
    client.force_login(cup.referee)
    html = client.get(reverse("scoring:tournament_list")).content.decode()
    assert f'<a class="who" href="{reverse("scoring:account")}"' in html
    account = client.get(reverse("scoring:account")).content.decode()
    for url in (reverse("scoring:account_set_password"), reverse("scoring:api_token"), reverse("set_language"),
                cup.tournament.get_absolute_url()):
        assert f'"{url}"' in account, url


def test_everyone_changes_their_own_password_on_the_sites_pages(client, cup):
    """Django's /accounts/password_change/ leads to the account's own password page, which asks
    for the old password (an account with one, no fresh login link); the "changed" message comes
    only after a change."""
    cup.referee.set_password("Old-Password-2026")
    cup.referee.save()
    client.force_login(cup.referee)
    assert client.get("/accounts/password_change/")["Location"] == reverse("scoring:account_set_password")
    url = reverse("scoring:account_set_password")
    form = client.get(url).content.decode()
    assert 'class="site"' in form and "Django" not in form and 'name="old_password"' in form
    wrong = client.post(url, {"old_password": "nope", "new_password1": PASSWORD, "new_password2": PASSWORD})
    assert wrong.status_code == 400 and wrong.context["form"].errors
    ok = client.post(url, {"old_password": "Old-Password-2026", "new_password1": PASSWORD,
                           "new_password2": PASSWORD}, follow=True)
    assert ok.redirect_chain == [(reverse("scoring:account"), 302)]
    assert "Your password was changed" in ok.content.decode()
    assert phone().login(username="ref", password=PASSWORD)
    assert client.get(reverse("scoring:account")).status_code == 200  # this session stays


def test_password_change_done_says_nothing_without_a_change(client, cup):
    """A direct visit of Django's "done" address leads to the account page without claiming a
    change; a login-link account is never asked for an old password it does not have."""
    client.force_login(cup.referee)
    done = client.get("/accounts/password_change/done/", follow=True)
    assert done.redirect_chain == [(reverse("scoring:account"), 302)]
    assert "was changed" not in done.content.decode() and not list(done.context["messages"])
    linked = UserFactory(username="linked")
    linked.set_unusable_password()
    linked.save()
    client.force_login(linked)
    page = client.get("/accounts/password_change/", follow=True).content.decode()
    assert 'name="old_password"' not in page and 'name="new_password1"' in page


def test_login_page_without_mail_says_ask_your_organiser(client, settings):
    settings.MAIL_CONFIGURED = False
    html = client.get(reverse("login")).content.decode()
    assert 'id="ask-organiser"' in html and "Ask your organiser" in html and "password_reset" not in html


def test_password_reset_with_mail_uses_the_sites_pages(client, settings, cup):
    settings.MAIL_CONFIGURED = True
    settings.EMAIL_BACKEND = "django.core.mail.backends.locmem.EmailBackend"
    cup.referee.email = "ref@example.org"
    cup.referee.save()
    page = client.get(reverse("password_reset")).content.decode()
    assert 'class="site"' in page and "Django" not in page and "Password reset complete" not in page
    assert "Forgot your password?" in page
    response = client.post(reverse("password_reset"), {"email": "ref@example.org"}, follow=True)
    assert "Check your mail" in response.content.decode()
    assert len(mail.outbox) == 1
    link = re.search(r"https?://[^/]+(/accounts/reset/\S+)", mail.outbox[0].body).group(1)
    form = client.get(link, follow=True)
    assert form.status_code == 200 and "Choose a new password" in form.content.decode()
    done = client.post(form.redirect_chain[-1][0], {"new_password1": PASSWORD, "new_password2": PASSWORD}, follow=True)
    assert "Password saved" in done.content.decode()
    assert phone().login(username="ref", password=PASSWORD)


def test_members_page_new_account_may_have_an_email(client, cup):
    client.force_login(cup.organiser)
    r = client.post(reverse("scoring:members", args=[cup.tournament.slug]),
                    {"new-username": "ref9", "new-email": "ref9@example.org", "new-password1": PASSWORD,
                     "new-password2": PASSWORD, "new-role": "referee"})
    assert r.status_code == 302
    assert get_user_model().objects.get(username="ref9").email == "ref9@example.org"


def test_system_may_invite_anyone_it_is_told_to(cup):
    """Management commands and imports (SYSTEM) are trusted, as in the members service."""
    invitation, token = invitations.invite(cup.tournament, SYSTEM, role="organiser", user=cup.referee)
    assert invitations.accept(token).pk == invitation.pk
    assert invitations.accept(token) is None


def test_members_page_and_api_list_read_a_fixed_number_of_queries(client, cup):
    """The members page and ``GET .../members`` read as many queries for 12 members with 12 open
    login links as for 2 members with none."""
    from django.db import connection
    from django.test.utils import CaptureQueriesContext
    from rest_framework.test import APIClient

    client.force_login(cup.organiser)
    api = APIClient()
    api.force_login(cup.organiser)  # a session: each request reads its user afresh, as in production

    def counts():
        with CaptureQueriesContext(connection) as page:
            assert client.get(reverse("scoring:members", args=[cup.tournament.slug])).status_code == 200
        with CaptureQueriesContext(connection) as listed:
            assert api.get(reverse("api:member-list", args=[cup.tournament.slug])).status_code == 200
        return len(page), len(listed)

    few = counts()
    for i in range(10):
        invitations.invite(cup.tournament, cup.organiser, role="referee", username=f"ref-{i}")
    assert counts() == few
