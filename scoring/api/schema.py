"""How the API's views describe themselves in the OpenAPI schema (drf-spectacular)."""
from __future__ import annotations

from drf_spectacular.openapi import AutoSchema
from rest_framework.permissions import SAFE_METHODS


class ApiSchema(AutoSchema):
    """Reads need no credentials (an empty security requirement next to the token and the session);
    an operation's description is what its ``extend_schema`` says (never the docstring of a base
    class, which speaks to developers)."""

    def get_auth(self):
        auths = super().get_auth()
        if auths and self.method in SAFE_METHODS and {} not in auths:
            auths.append({})
        return auths

    def get_description(self):
        return ""
