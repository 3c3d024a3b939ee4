"""The engine commands over HTTP: ``POST /api/v1/engines/{game}/{command}`` takes the same JSON
object as ``python -m engines GAME COMMAND`` reads and answers with the same JSON it prints:
200 with the output; 400 ``invalid`` with the CLI's ``"errors": [{"field", "message"}]`` where
the CLI exits 1 (the input breaks the rules), in the API's error shape (``code`` added), each
message in the request's language (``Accept-Language``: Dutch or English; the CLI prints
English), at most the first 50 with ``"more_errors": N`` for the rest as the CLI prints it; an
answer's ``reason`` (Tai Pan ``play``, Tien Gow ``check``) is in that language too; 404
``not_found`` where it exits 2 for an unknown game or command; 400 ``parse_error`` for a body
that is not a JSON object (empty, not JSON, an array or a scalar); 415
``unsupported_media_type`` for a body that is not ``application/json``, as on every other
endpoint.

Public and stateless (no credentials are read, so no CSRF either), and limited: a body of at
most 64 KiB nested at most 32 levels deep (:mod:`scoring.api.parsers`), and a rate per client
address (:class:`scoring.api.throttling.EngineThrottle`)."""
from __future__ import annotations

from django.utils.translation import gettext
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.exceptions import ParseError, UnsupportedMediaType
from rest_framework.response import Response

from scoring.api.errors import body, error
from scoring.api.parsers import loads, read_limited
from scoring.api.serializers import EngineGameSerializer, ErrorSerializer
from scoring.api.throttling import EngineThrottle
from scoring.api.views.base import ApiView
from scoring.api.views.reads import read_schema
from scoring.games import all_games
from scoring.games import commands as engine_commands
from scoring.games.base import Violation
from scoring.games.entry import violation_message


class EngineListView(ApiView):
    """``/api/v1/engines``: every game with its engine's commands and rules presets."""

    authentication_classes = []
    permission_classes = []

    @read_schema(EngineGameSerializer(many=True), tags=["engines"], summary="The games and their engine commands")
    def get(self, request):
        data = []
        for adapter in all_games():
            try:
                names = engine_commands.commands(adapter.key)
            except engine_commands.NoSuchCommand:
                continue
            data.append({"game": adapter.key, "label": str(adapter.label), "commands": names,
                         "presets": sorted(adapter.presets()), "default_preset": adapter.default_preset()})
        return Response(EngineGameSerializer(data, many=True).data)


class EngineCommandView(ApiView):
    """``POST /api/v1/engines/{game}/{command}``."""

    idempotent_writes = False  # a computation: nothing is stored, a retry computes again

    authentication_classes = []
    permission_classes = []
    throttle_classes = [EngineThrottle]

    @extend_schema(
        tags=["engines"], summary="Run an engine command (the same JSON as the command line)",
        description="The body is the command's JSON input, as `python -m engines GAME COMMAND` reads it on stdin; "
                    "the answer is what the command line prints. Rule violations: 400 `invalid` with the command "
                    "line's `errors` (the engine's field paths; messages in the request's language, "
                    "`Accept-Language: nl` or `en`), at most 50, and `more_errors` counting the rest. Any unknown "
                    "or misspelt field is refused on its path. A body that is not a JSON object: "
                    "400 `parse_error`; not `application/json`: 415. At most 64 KiB, 32 levels of nesting; "
                    "rate-limited per client address (429 with `Retry-After`).",
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT,
                   400: OpenApiResponse(ErrorSerializer, description="Not a JSON object (`parse_error`), or the input "
                                                                      "breaks the rules (`invalid`)."),
                   404: OpenApiResponse(ErrorSerializer, description="Unknown game or command."),
                   413: OpenApiResponse(ErrorSerializer, description="Body over 64 KiB."),
                   415: OpenApiResponse(ErrorSerializer, description="A body that is not `application/json`."),
                   429: OpenApiResponse(ErrorSerializer, description="Too many requests.")},
        examples=[OpenApiExample("Tai Pan: score one hand", request_only=True,
                                 value={"calls": {"N": "tai_pan"}, "first_out": "N", "double_victory": None,
                                        "card_points": {"NS": 75, "EW": 25}})],
    )
    def post(self, request, game, command):
        # The body is read here rather than through ``request.data``, which takes an empty body
        # for ``{}``; the media type is checked as DRF's parsing does on every other endpoint.
        raw = read_limited(request.stream, request.META.get("CONTENT_LENGTH"))
        if not raw.strip():
            raise ParseError(_("The request body must be a JSON object."))
        if request.negotiator.select_parser(request, self.get_parsers()) is None:
            raise UnsupportedMediaType(request.content_type)
        data = loads(raw)
        if not isinstance(data, dict):
            raise ParseError(_("The request body must be a JSON object."))
        try:
            output = engine_commands.run(game, command, data)
        except engine_commands.NoSuchCommand:
            return Response(body("not_found", [error("", not_found_message(game, command))]),
                            status=status.HTTP_404_NOT_FOUND)
        except engine_commands.RuleViolation as exc:
            return Response(invalid(exc), status=status.HTTP_400_BAD_REQUEST)
        return Response(translated(output))



def not_found_message(game: str, command: str) -> str:
    """The translated 404 message for an unknown ``game``, or an unknown ``command`` of a known
    game, naming what there is (the CLI says the same in English)."""
    try:
        known = engine_commands.commands(game)
    except engine_commands.NoSuchCommand:
        games = []
        for adapter in all_games():
            try:
                engine_commands.commands(adapter.key)
            except engine_commands.NoSuchCommand:
                continue
            games.append(adapter.key)
        return _("There is no game %(game)s with a rule engine; the games are: %(known)s.") % {
            "game": repr(game), "known": ", ".join(games)}
    return _("The rule engine of %(game)s has no command %(command)s; its commands are: %(known)s.") % {
        "game": game, "command": repr(command), "known": ", ".join(known)}


def invalid(exc: engine_commands.RuleViolation) -> dict:
    """The 400 ``invalid`` answer of a rule violation: the command line's error object with each
    message translated into the active language (:func:`scoring.games.entry.violation_message`)."""
    answer: dict = {"code": "invalid", "errors": [{"field": v.field, "message": violation_message(v)} for v in exc.violations]}
    if exc.more:
        answer["more_errors"] = exc.more
    return answer


def translated(output: dict) -> dict:
    """``output`` with its ``reason`` in the active language: rendered from ``reason_template``
    and ``reason_params`` when the engine gives them (Tai Pan ``play``), else the reason text
    looked up as a message (Tien Gow ``check``); the English text when the catalogue has none."""
    reason = output.get("reason")
    if not isinstance(reason, str):
        return output
    template = output.get("reason_template")
    if isinstance(template, str):
        text = violation_message(Violation("reason", template, output.get("reason_params") or {}))
    else:
        text = gettext(reason)
    return {**output, "reason": text}
