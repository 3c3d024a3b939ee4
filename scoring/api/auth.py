"""Who is asking: the API's authentication classes and the *actor* they resolve to.

Every API request is made by an **actor**: the object the services take as ``actor`` and the
policy (:mod:`scoring.policy`) asks about (``policy.has_perm(actor, perm, tournament)``,
``policy.round_visible(actor, round)``). An authentication class turns a credential into an actor
(DRF sets it as ``request.user``); the views never look at the credential, they pass
:func:`actor` to the services and let the policy and the result sheet decide everything:

- :class:`TokenAuthentication` (``Authorization: Token <key>``): the Django user owning the API
  token (``rest_framework.authtoken``; a user manages their own token on the account page or
  with ``manage.py api_token USERNAME``). The actor is that user, with exactly the roles the user
  has on the pages.
- :class:`SessionAuthentication`: the logged-in user of the site (the browsable docs), with
  Django's CSRF check on every write, as on the pages. Token requests carry no cookie and need
  no CSRF token.
- no credentials: the anonymous user (reads only: the policy grants it nothing else).

A later authentication class (a private link of a team or player, issue 15 items 1-2) plugs in
the same way: it returns ``(entrant_actor, link)`` from ``authenticate()``, is added to
``AUTHENTICATION_CLASSES`` below, and the policy learns what that actor may do
(``scoring.policy.role_of`` / ``has_perm``); no view changes.
"""
from __future__ import annotations

from rest_framework import authentication


class TokenAuthentication(authentication.TokenAuthentication):
    """``Authorization: Token <key>``: the user owning the API token is the actor."""

    keyword = "Token"


#: The site's login session (with Django's CSRF check on writes): the logged-in user is the actor.
SessionAuthentication = authentication.SessionAuthentication

#: The API's authentication classes, tried in order (the first one's header is the
#: ``WWW-Authenticate`` of a 401).
AUTHENTICATION_CLASSES = [TokenAuthentication, SessionAuthentication]


def actor(request):
    """The actor of an API request: whatever its authentication resolved to (an anonymous user
    when nothing did). This is what the views pass to the services and the policy."""
    return request.user
