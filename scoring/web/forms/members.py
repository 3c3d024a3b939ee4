"""Forms of the members page (organisers and referees of a tournament, ``docs/accounts.md``):
add an existing user by username, create an account with a first password, invite someone with a
one-time login link, set a member's password. Every role select offers the referee first and
starts on it (most accounts made at a venue are referees')."""
from __future__ import annotations

from django import forms
from django.contrib.auth import get_user_model
from django.contrib.auth.forms import SetPasswordForm, UserCreationForm
from django.utils.translation import gettext_lazy as _

from scoring.models import Membership
from scoring.participants import invitations

#: The roles, referee first (the default everywhere on the members page).
ROLE_CHOICES = [(Membership.Role.REFEREE.value, Membership.Role.REFEREE.label),
                (Membership.Role.HEAD_REFEREE.value, Membership.Role.HEAD_REFEREE.label),
                (Membership.Role.ORGANISER.value, Membership.Role.ORGANISER.label)]


def role_field() -> forms.ChoiceField:
    """The role select: referee first and chosen."""
    return forms.ChoiceField(label=_("Role"), choices=ROLE_CHOICES, initial=Membership.Role.REFEREE)


class MembershipForm(forms.Form):
    """Give a user (by username) a role in the tournament (referee unless chosen otherwise)."""

    username = forms.CharField(label=_("Username"), max_length=150)
    role = role_field()

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username__iexact=username).first()
        if user is None:
            raise forms.ValidationError(_("There is no user %(username)s.") % {"username": username})
        self.user = user
        return user.get_username()


class NewMemberForm(UserCreationForm):
    """Create an account for a new referee or organiser of this tournament, with its role and an
    optional e-mail address (for password reset mails, when the site sends mail). Django's user
    creation form: the password rules of ``AUTH_PASSWORD_VALIDATORS`` apply. The account gets no
    global rights, only this tournament's role."""

    role = role_field()

    class Meta(UserCreationForm.Meta):
        model = get_user_model()
        fields = ("username", "email")
        labels = {"email": _("E-mail (optional)")}


class InviteForm(forms.Form):
    """Invite a referee or organiser with a one-time login link: a new username (an account is
    made without a password) or one of the tournament's own members, the role, an optional
    e-mail address and how long the link works."""

    username = forms.CharField(label=_("Username"), max_length=150)
    role = role_field()
    email = forms.EmailField(label=_("E-mail (optional)"), required=False)
    hours = forms.IntegerField(label=_("Link works for (hours)"), min_value=1, max_value=invitations.MAX_HOURS)

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["hours"].initial = invitations.default_hours()

    def clean_username(self):
        username = self.cleaned_data["username"].strip()
        if get_user_model().objects.filter(username__iexact=username).exists():
            return username
        # A new account: Django's own username rules.
        field = get_user_model()._meta.get_field("username")
        try:
            field.run_validators(username)
        except forms.ValidationError as exc:
            raise forms.ValidationError(exc.messages) from None
        return username


class MemberPasswordForm(SetPasswordForm):
    """An organiser sets a member's password (twice; Django's password rules)."""
