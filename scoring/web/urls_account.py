"""URLs of the logged-in user's own account (any user, no tournament role needed)."""
from django.urls import path

from scoring.web.views import account

urlpatterns = [
    path("account/api-token/", account.api_token, name="api_token"),
]
