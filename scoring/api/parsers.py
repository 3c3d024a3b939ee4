"""The API's one request parser: JSON of at most :data:`MAX_BYTES` bytes and :data:`MAX_DEPTH`
levels of nesting, refused with a clear error before anything else runs (413 for the size, 400
for the rest)."""
from __future__ import annotations

import json
from typing import Any

from django.utils.translation import gettext as _
from rest_framework import status
from rest_framework.exceptions import APIException, ParseError
from rest_framework.parsers import BaseParser

from scoring.games.commands import MAX_DEPTH, too_deep
from scoring.games.commands import MAX_INPUT_BYTES as MAX_BYTES

# MAX_BYTES (largest request body) and MAX_DEPTH (deepest nesting) are the engines' command-line
# limits (engines.limits), so an engine input the API takes is one the CLI takes.


class TooLarge(APIException):
    """A request body over :data:`MAX_BYTES` (413)."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def read_limited(stream, content_length: Any) -> bytes:
    """At most :data:`MAX_BYTES` of ``stream``; :class:`TooLarge` when the declared length or the
    body itself is over the limit."""
    try:
        declared = int(content_length or 0)
    except (TypeError, ValueError):
        declared = 0
    if declared > MAX_BYTES:
        raise TooLarge(_("The request body is larger than %(limit)s bytes.") % {"limit": MAX_BYTES})
    data = stream.read(MAX_BYTES + 1) if stream is not None else b""
    if len(data) > MAX_BYTES:
        raise TooLarge(_("The request body is larger than %(limit)s bytes.") % {"limit": MAX_BYTES})
    return data


def loads(raw: bytes) -> Any:
    """Decode a JSON body, refusing invalid UTF-8 or JSON, constants such as ``NaN``, and nesting
    deeper than :data:`MAX_DEPTH` (:class:`ParseError`)."""
    try:
        text = raw.decode("utf-8")
    except UnicodeDecodeError:
        raise ParseError(_("The request body is not UTF-8 text.")) from None

    def constant(name):
        raise ValueError(name)

    try:
        data = json.loads(text, parse_constant=constant)
    except RecursionError:
        raise ParseError(_("The JSON is nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH}) from None
    except ValueError as exc:
        raise ParseError(_("The request body is not valid JSON: %(error)s") % {"error": exc}) from None
    if too_deep(data):
        raise ParseError(_("The JSON is nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH})
    return data


class JSONParser(BaseParser):
    """``application/json`` with the limits above."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        return loads(read_limited(stream, length))
