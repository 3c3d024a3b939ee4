"""The API's base view and the lookups every endpoint shares (a tournament, a round or a result
the actor may see, else 404: the same rules as the pages, :mod:`scoring.policy`)."""
from __future__ import annotations

from django.http import Http404, HttpResponsePermanentRedirect
from django.shortcuts import get_object_or_404
from django.urls import Resolver404, resolve
from django.utils.cache import patch_vary_headers
from drf_spectacular.views import SpectacularAPIView
from rest_framework.permissions import SAFE_METHODS, BasePermission
from rest_framework.renderers import JSONRenderer
from rest_framework.response import Response
from rest_framework.views import APIView

from scoring import policy
from scoring.api import etags, idempotency
from scoring.api.auth import AUTHENTICATION_CLASSES, actor
from scoring.api.parsers import JSONParser
from scoring.api.schema import ApiSchema
from scoring.api.throttling import ActorThrottle, AnonThrottle, LinkThrottle
from scoring.kinds import KINDS, kind_for
from scoring.models import ResultContainer, Round, Tournament


class WritesNeedCredentials(BasePermission):
    """Reads are open to everyone; a write needs a request that one of the authentication
    classes accepted (401 otherwise). What the actor may then do is the policy's decision
    (:mod:`scoring.policy`, checked by the result sheet), never this class's."""

    def has_permission(self, request, view) -> bool:
        return request.method in SAFE_METHODS or request.successful_authenticator is not None


def conditional(request, response, finalize):
    """``ETag``/304 and the caching headers of an API answer (``finalize``: DRF's own
    ``finalize_response`` of the view)."""
    if request.method in SAFE_METHODS and isinstance(response, Response) and response.status_code == 200:
        etag = response.headers.get("ETag") or etags.of_data(response.data, getattr(request, "accepted_media_type", ""))
        if etags.matches(request, etag):
            response = etags.not_modified(etag)
        else:
            response["ETag"] = etag
    response = finalize(response)
    if request.method in SAFE_METHODS:
        response.setdefault("Cache-Control", "no-cache")
    patch_vary_headers(response, ("Accept-Language", "Authorization", "Cookie"))
    return response


class ApiView(APIView):
    """Base of every API endpoint: JSON in (size- and depth-limited) and out, the API's
    authentication (an actor, :mod:`scoring.api.auth`), throttling, and on reads an ``ETag``
    with ``304 Not Modified`` for a matching ``If-None-Match`` (:mod:`scoring.api.etags`; a view
    may set its own cheaper ``ETag`` header first). Writes take an ``Idempotency-Key``
    (:mod:`scoring.api.idempotency`) unless the view sets :attr:`idempotent_writes` to False."""

    authentication_classes = AUTHENTICATION_CLASSES
    permission_classes = [WritesNeedCredentials]
    parser_classes = [JSONParser]
    renderer_classes = [JSONRenderer]
    throttle_classes = [AnonThrottle, ActorThrottle, LinkThrottle]
    schema = ApiSchema()
    #: Whether this view's writes take an ``Idempotency-Key`` (False for views that store nothing).
    idempotent_writes = True

    def actor(self):
        return actor(self.request)

    def initial(self, request, *args, **kwargs):
        """DRF's checks (authentication, permissions, throttling); then, for a write, the handler
        is wrapped by :func:`scoring.api.idempotency.idempotent` (DRF looks it up afterwards)."""
        super().initial(request, *args, **kwargs)
        name = request.method.lower()
        if self.idempotent_writes and request.method not in SAFE_METHODS and hasattr(self, name):
            setattr(self, name, idempotency.idempotent(getattr(self, name)))

    def finalize_response(self, request, response, *args, **kwargs):
        return conditional(request, response, lambda r: super(ApiView, self).finalize_response(request, r, *args, **kwargs))


class NoSuchEndpoint(ApiView):
    """Every address under ``/api/`` that no endpoint matches (a malformed id, a trailing slash,
    an unknown name), for every method: the API's JSON 404 (``not_found``), with ``DEBUG`` on or
    off, instead of Django's HTML page. It reads no credentials and touches no database.

    Only what Django's ``APPEND_SLASH`` did before this view caught everything is kept: a ``GET``
    of ``/api/v1``, ``/api/schema`` or ``/api/docs`` is redirected to the address with the slash."""

    authentication_classes = []
    permission_classes = []
    throttle_classes = []
    schema = None

    def get(self, request, *args, **kwargs):
        if not request.path_info.endswith("/"):
            try:
                match = resolve(request.path_info + "/")
            except Resolver404:
                match = None
            if match is not None and match.url_name != "no-such-endpoint":
                return HttpResponsePermanentRedirect(request.get_full_path(force_append_slash=True))
        raise Http404

    def http_method_not_allowed(self, request, *args, **kwargs):
        raise Http404

    options = http_method_not_allowed


# --------------------------------------------------------------------------- lookups


def tournament_or_404(slug: str) -> Tournament:
    return get_object_or_404(Tournament, slug=slug)


def visible_round(actor, tournament: Tournament, number: int) -> Round:
    """Round ``number`` if the actor may see it (drafts: organisers only), else 404."""
    rnd = get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=number)
    if not policy.round_visible(actor, rnd):
        raise Http404
    return rnd


def visible_result(actor, tournament: Tournament, key: str, pk: int) -> ResultContainer:
    """The match or table ``pk`` of ``tournament`` (``key``: the kind's key, ``match`` or
    ``table``, :mod:`scoring.kinds`; the tournament's own kind) if its round is visible to the
    actor, else 404."""
    kind = KINDS.get(key)
    if kind is None or kind is not kind_for(tournament.adapter):
        raise Http404
    container = get_object_or_404(kind.queryset(), pk=pk, round__tournament=tournament)
    if not policy.round_visible(actor, container.round):
        raise Http404
    return container


class SchemaView(SpectacularAPIView):
    """The OpenAPI schema (drf-spectacular), with the same ``ETag``/304 as every read."""

    def finalize_response(self, request, response, *args, **kwargs):
        return conditional(request, response, lambda r: super(SchemaView, self).finalize_response(request, r, *args, **kwargs))
