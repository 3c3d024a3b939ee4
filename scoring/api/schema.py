"""How the API's views describe themselves in the OpenAPI schema (drf-spectacular)."""
from __future__ import annotations

from drf_spectacular.extensions import OpenApiAuthenticationExtension
from drf_spectacular.openapi import AutoSchema
from drf_spectacular.plumbing import build_bearer_security_scheme_object
from drf_spectacular.utils import OpenApiParameter
from rest_framework.permissions import SAFE_METHODS


class ApiSchema(AutoSchema):
    """Reads need no credentials (an empty security requirement next to the token and the session);
    an operation's description is what its ``extend_schema`` says (never the docstring of a base
    class, which speaks to developers); every write that takes an ``Idempotency-Key``
    (:mod:`scoring.api.idempotency`) lists the header."""

    def get_override_parameters(self):
        parameters = list(super().get_override_parameters())
        if self.method not in SAFE_METHODS and getattr(self.view, "idempotent_writes", False):
            parameters.append(IDEMPOTENCY_KEY)
        return parameters

    def get_auth(self):
        auths = super().get_auth()
        if auths and self.method in SAFE_METHODS and {} not in auths:
            auths.append({})
        return auths

    def get_description(self):
        return ""


class LinkAuthenticationScheme(OpenApiAuthenticationExtension):
    """``linkAuth``: a team's or player's private link (``Authorization: Link <token>``)."""

    target_class = "scoring.api.auth.LinkAuthentication"
    name = "linkAuth"

    def get_security_definition(self, auto_schema):
        return build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Link")


#: The ``Idempotency-Key`` request header of the writes.
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
    description="Optional, 1 to 255 visible ASCII characters (a UUID). The same key with the same request "
                "within 24 hours gets the first successful answer again (`Idempotent-Replayed: true`) and "
                "stores nothing twice; the same key with another request is refused (422 "
                "`idempotency_key_reused`). Keys are per user or private link.")
