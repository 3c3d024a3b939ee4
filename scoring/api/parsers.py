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

#: Largest request body (bytes): a whole Tai Pan match replay fits many times over.
MAX_BYTES = 64 * 1024
#: Deepest nesting of objects and arrays in a request body.
MAX_DEPTH = 32


class TooLarge(APIException):
    """A request body over :data:`MAX_BYTES` (413)."""

    status_code = status.HTTP_413_REQUEST_ENTITY_TOO_LARGE
    default_code = "too_large"


def depth(value: Any) -> int:
    """How deeply ``value`` nests objects and arrays (a scalar: 0, ``[]``: 1), without recursion."""
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        deepest = max(deepest, level)
        if deepest > MAX_DEPTH:
            return deepest
        stack.extend((child, level + 1) for child in children)
    return deepest


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
    if depth(data) > MAX_DEPTH:
        raise ParseError(_("The JSON is nested deeper than %(depth)s levels.") % {"depth": MAX_DEPTH})
    return data


class JSONParser(BaseParser):
    """``application/json`` with the limits above."""

    media_type = "application/json"

    def parse(self, stream, media_type=None, parser_context=None):
        request = (parser_context or {}).get("request")
        length = request.META.get("CONTENT_LENGTH") if request is not None else None
        return loads(read_limited(stream, length))
