"""Conditional reads: every read endpoint answers with an ``ETag`` and returns ``304 Not
Modified`` (no body) when the request's ``If-None-Match`` names it.

Where the state is cheaper to read than the answer, the tag is computed first and a matching
request costs no more than that: the standings from
:func:`scoring.standings.cache.state_key` (the key the standings cache uses), a match or table
from its ``version`` (raised by every write through the result sheet) and the names of its sides.
Every other read is tagged with a digest of its body. Tags are weak (``W/"..."``) and include
the response's language, since messages and labels are translated.
"""
from __future__ import annotations

import hashlib
import json
from typing import Any

from django.utils.translation import get_language
from rest_framework import status
from rest_framework.response import Response


def make(*parts: Any) -> str:
    """A weak ETag for ``parts`` (plain values) and the active language."""
    text = json.dumps([get_language(), *parts], sort_keys=True, default=str, separators=(",", ":"))
    return f'W/"{hashlib.sha256(text.encode()).hexdigest()[:32]}"'


def of_data(data: Any, media_type: str = "") -> str:
    """A weak ETag of a response body (before rendering) in ``media_type`` (the schema is served
    as YAML and as JSON)."""
    return make("body", media_type, data)


def _opaque(tag: str) -> str:
    tag = tag.strip()
    return tag[2:] if tag.startswith("W/") else tag


def matches(request, etag: str) -> bool:
    """True when the request's ``If-None-Match`` names ``etag`` (weak comparison) or is ``*``."""
    header = request.META.get("HTTP_IF_NONE_MATCH", "")
    if not header:
        return False
    if header.strip() == "*":
        return True
    wanted = _opaque(etag)
    return any(_opaque(part) == wanted for part in header.split(","))


def not_modified(etag: str) -> Response:
    """``304 Not Modified`` carrying ``etag``."""
    return Response(status=status.HTTP_304_NOT_MODIFIED, headers={"ETag": etag})
