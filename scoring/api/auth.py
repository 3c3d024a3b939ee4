"""Who is asking: the API's authentication classes and the *actor* they resolve to.

Every API request is made by an **actor**: the object the services take as ``actor`` and the
policy (:mod:`scoring.policy`) asks about (``policy.has_perm(actor, perm, tournament)``,
``policy.round_visible(actor, round)``). An authentication class turns a credential into an actor
(DRF sets it as ``request.user``); the views never look at the credential, they pass
:func:`actor` to the services and let the policy and the result sheet decide everything:

- :class:`TokenAuthentication` (``Authorization: Token <key>``): the Django user owning the API
  token (django-rest-knox, stored as a hash: :mod:`scoring.participants.api_tokens`; a user
  manages their own tokens on the account page or with ``manage.py api_token USERNAME``). The
  actor is that user, with exactly the roles the user has on the pages. An unknown, revoked or
  expired token, or one of a deactivated user, is refused (401).
- :class:`SessionAuthentication`: the logged-in user of the site (the browsable docs), with
  Django's CSRF check on every write, as on the pages. Token requests carry no cookie and need
  no CSRF token.
- :class:`LinkAuthentication` (``Authorization: Link <token>``, issue 15): a team's or
  player's private link. The actor is :class:`scoring.policy.EntrantActor`, the same the pages
  use for a phone that opened the link: with the tournament's player entry on, it enters and
  confirms the results of its own table only (the policy's per-result check); it reads what the
  public reads. Requests through a link are limited per link (``API_RATE_LINK``,
  :class:`scoring.api.throttling.LinkThrottle`), not per client address; a right token always
  authenticates, and failed link attempts are counted per client address (shared with the
  pages), answered 429 with a growing delay beyond a few an hour.
- no credentials: the anonymous user (reads only: the policy grants it nothing else).
"""
from __future__ import annotations

from django.utils.translation import gettext_lazy as _
from knox.auth import TokenAuthentication as KnoxTokenAuthentication
from rest_framework import authentication, exceptions

from scoring import proxies
from scoring.participants import api_tokens, links
from scoring.policy import EntrantActor


class TokenAuthentication(KnoxTokenAuthentication):
    """``Authorization: Token <key>``: the user owning the API token is the actor (knox's header
    parsing; the lookup is :func:`scoring.participants.api_tokens.find`, which tells an expired
    token from an unknown one, keeps expired tokens listed, and records the token's last use)."""

    keyword = "Token"

    def authenticate_credentials(self, token: bytes):
        try:
            key = token.decode("ascii")
        except UnicodeDecodeError:
            key = ""
        found = api_tokens.find(key)
        if found is None:
            raise exceptions.AuthenticationFailed(_("Invalid token."))
        if found.is_expired():
            raise exceptions.AuthenticationFailed(_("This API token has expired: issue a new one on your account page."))
        user, found = self.validate_user(found)
        api_tokens.touch(found)
        return user, found

    def authenticate_header(self, request) -> str:
        return self.keyword


class LinkAuthentication(authentication.BaseAuthentication):
    """``Authorization: Link <token>``: the entrant of an active private link is the actor
    (:class:`scoring.policy.EntrantActor`). An unknown, revoked or regenerated token is refused
    (401); a right token always authenticates, and failed attempts from one address beyond a few
    are refused with 429 and a growing ``Retry-After``
    (:func:`scoring.participants.links.resolve_attempt`)."""

    keyword = "Link"

    def authenticate(self, request):
        parts = authentication.get_authorization_header(request).split()
        if not parts or parts[0].lower() != self.keyword.lower().encode():
            return None
        if len(parts) != 2:
            raise exceptions.AuthenticationFailed(_("Invalid link header: send 'Link <token>'."))
        address = proxies.client_address(request)
        try:
            link = links.resolve_attempt(parts[1].decode("latin-1"), address)
        except links.RateExceeded as exc:
            raise exceptions.Throttled(wait=exc.retry_after) from None
        if link is None:
            raise exceptions.AuthenticationFailed(_("This link does not work (unknown, revoked or replaced)."))
        return EntrantActor(link), link

    def authenticate_header(self, request) -> str:
        return self.keyword


#: The site's login session (with Django's CSRF check on writes): the logged-in user is the actor.
SessionAuthentication = authentication.SessionAuthentication

#: The API's authentication classes, tried in order (the first one's header is the
#: ``WWW-Authenticate`` of a 401).
AUTHENTICATION_CLASSES = [TokenAuthentication, LinkAuthentication, SessionAuthentication]


def actor(request):
    """The actor of an API request: whatever its authentication resolved to (an anonymous user
    when nothing did). This is what the views pass to the services and the policy."""
    return request.user
