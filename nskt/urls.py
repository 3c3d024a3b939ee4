"""Root URL configuration: the scoring app, its REST API, auth views, admin, language switching.

The password reset pages exist only when mail is configured (``settings.MAIL_CONFIGURED``): without
a way to send the mail they would say "sent" and send nothing (404 instead, and the login page
offers no reset link). Django's password change pages lead to the account's own
(``scoring.web.views.account_pages.set_own_password``). The login page is the app's (:class:`scoring.web.views.account.LoginView`):
it says when it leads on to a result's entry page and offers the public page instead."""
from functools import wraps

from django.conf import settings
from django.contrib import admin
from django.contrib.auth import views as auth_views
from django.http import Http404
from django.urls import include, path
from django.views.generic import RedirectView

from scoring.web.views.account import LoginView


def mail_required(view):
    """404 unless mail is configured (checked per request, so tests can switch it)."""

    @wraps(view)
    def wrapped(request, *args, **kwargs):
        if not getattr(settings, "MAIL_CONFIGURED", False):
            raise Http404("Password reset is not available: no mail is configured.")
        return view(request, *args, **kwargs)

    return wrapped


password_reset = [
    path("accounts/password_reset/", mail_required(auth_views.PasswordResetView.as_view()), name="password_reset"),
    path("accounts/password_reset/done/", mail_required(auth_views.PasswordResetDoneView.as_view()), name="password_reset_done"),
    path("accounts/reset/<uidb64>/<token>/", mail_required(auth_views.PasswordResetConfirmView.as_view()),
         name="password_reset_confirm"),
    path("accounts/reset/done/", mail_required(auth_views.PasswordResetCompleteView.as_view()), name="password_reset_complete"),
]

urlpatterns = [
    path("admin/", admin.site.urls),
    *password_reset,
    path("accounts/login/", LoginView.as_view(), name="login"),
    # One's own password: the account's own page (with or without the old password); Django's
    # "done" page would say "changed" to anyone opening it, so it leads to the account page.
    path("accounts/password_change/", RedirectView.as_view(pattern_name="scoring:account_set_password"),
         name="password_change"),
    path("accounts/password_change/done/", RedirectView.as_view(pattern_name="scoring:account"),
         name="password_change_done"),
    path("accounts/", include("django.contrib.auth.urls")),
    path("i18n/", include("django.conf.urls.i18n")),
    path("api/", include("scoring.api.urls")),
    path("", include("scoring.urls")),
]
