"""URLs of the logged-in user's own account (any user, no tournament role needed) and of the
one-time login links (``/invite/``)."""
from django.urls import path

from scoring.web.views import account_pages, api_tokens

urlpatterns = [
    path("account/", account_pages.account_home, name="account"),
    path("account/set-password/", account_pages.set_own_password, name="account_set_password"),
    path("account/api-token/", api_tokens.api_token, name="api_token"),
    path("invite/", account_pages.open_invitation, name="open_invitation"),
]
