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


class TokenAuthenticationScheme(OpenApiAuthenticationExtension):
    """``tokenAuth``: a user's API token (``Authorization: Token <key>``), with how to get one and
    that it expires."""

    target_class = "scoring.api.auth.TokenAuthentication"
    name = "tokenAuth"

    def get_security_definition(self, auto_schema):
        scheme = build_bearer_security_scheme_object(header_name="Authorization", token_prefix="Token")
        scheme["description"] = (
            'A user\'s API token, sent as "Token <key>" (the key starts with nskt_): it acts as that user. Issued '
            "on the account page (/account/api-token/) or with manage.py api_token; it expires (after 30 days "
            "unless chosen otherwise) and can be revoked there.")
        return scheme


#: The ``Idempotency-Key`` request header of the writes.
IDEMPOTENCY_KEY = OpenApiParameter(
    "Idempotency-Key", str, OpenApiParameter.HEADER, required=False,
    description="Optional, 1 to 255 visible ASCII characters (a UUID). The same key with the same request "
                "within 24 hours gets the first successful answer again (`Idempotent-Replayed: true`) and "
                "stores nothing twice; the same key with another request is refused (422 "
                "`idempotency_key_reused`). Keys are per user or private link.")
