"""URLs of the logged-in user's own account (any user, no tournament role needed)."""
from django.urls import path

from scoring.web.views import api_tokens

urlpatterns = [
    path("account/api-token/", api_tokens.api_token, name="api_token"),
]
