"""The members page: organisers give users a role, change or remove it (the last organiser
stays), and create accounts for new referees (issue 4 item 2). Who may use it:
``tests/web/test_permissions.py``."""
from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.urls import reverse

from scoring.models import Membership
from tests.factories import MembershipFactory, UserFactory

pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("english")]


def test_members_add_change_and_remove(client, cup):
    """Changed on purpose: a refused members form answers 400 (was 200), the input kept."""
    t = cup.tournament
    newcomer = UserFactory(username="newbie")
    client.force_login(cup.organiser)
    url = reverse("scoring:members", args=[t.slug])
    assert client.post(url, {"username": "newbie", "role": "referee"}).status_code == 302
    assert Membership.objects.get(tournament=t, user=newcomer).role == "referee"
    assert client.post(url, {"username": "newbie", "role": "organiser"}).status_code == 302
    assert Membership.objects.get(tournament=t, user=newcomer).role == "organiser"
    response = client.post(url, {"username": "ghost", "role": "referee"})
    assert response.status_code == 400 and "username" in response.context["form"].errors
    assert 'value="ghost"' in response.content.decode()
    client.post(url, {"remove": Membership.objects.get(user=newcomer).pk}, follow=True)
    assert not Membership.objects.filter(user=newcomer).exists()
    mine = Membership.objects.get(tournament=t, user=cup.organiser)
    response = client.post(url, {"remove": mine.pk}, follow=True)
    assert Membership.objects.filter(pk=mine.pk).exists()  # the last organiser stays
    assert [m.level_tag for m in response.context["messages"]] == ["error"]


def test_a_membership_of_another_tournament_cannot_be_removed_here(client, cup):
    other = MembershipFactory()  # a referee of another tournament
    client.force_login(cup.organiser)
    client.post(reverse("scoring:members", args=[cup.tournament.slug]), {"remove": other.pk})
    assert Membership.objects.filter(pk=other.pk).exists()


def test_organiser_creates_a_referee_account_on_the_members_page(client, cup):
    """Found by a fresh-clone tester: a real event needs referee accounts without shell access."""
    t = cup.tournament
    client.force_login(cup.organiser)
    url = reverse("scoring:members", args=[t.slug])
    weak = client.post(url, {"new-username": "ref9", "new-password1": "123", "new-password2": "123", "new-role": "referee"})
    assert weak.status_code == 400 and not get_user_model().objects.filter(username="ref9").exists()
    assert weak.context["new_form"].errors["password2"]
    good = client.post(url, {"new-username": "ref9", "new-password1": "Tichu-Draak-2026", "new-password2": "Tichu-Draak-2026",
                             "new-role": "referee"})
    assert good.status_code == 302
    user = get_user_model().objects.get(username="ref9")
    assert user.check_password("Tichu-Draak-2026") and not user.is_staff and not user.is_superuser
    assert Membership.objects.get(tournament=t, user=user).role == "referee"
    client.logout()
    assert client.login(username="ref9", password="Tichu-Draak-2026")
