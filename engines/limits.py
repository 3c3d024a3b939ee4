"""Input limits shared by the command line and the REST API (issue 22 item 7): the largest input
(:data:`MAX_INPUT_BYTES`, 64 KiB) and the deepest nesting of objects and arrays
(:data:`MAX_DEPTH`), with the one check of that nesting (:func:`too_deep`). The API reads them
through :mod:`scoring.games.commands` (only the games registry talks to the engines)."""
from __future__ import annotations

from typing import Any

#: The largest input read (bytes): a whole Tai Pan match replay fits many times over.
MAX_INPUT_BYTES = 64 * 1024
#: The deepest nesting of objects and arrays read.
MAX_DEPTH = 32


def too_deep(value: Any, limit: int = MAX_DEPTH) -> bool:
    """True when ``value`` nests objects and arrays more than ``limit`` levels deep (a scalar: 0
    levels, ``[]``: 1), without recursion."""
    stack = [(value, 1)]
    while stack:
        item, level = stack.pop()
        if isinstance(item, dict):
            children = item.values()
        elif isinstance(item, list):
            children = item
        else:
            continue
        if level > limit:
            return True
        stack.extend((child, level + 1) for child in children)
    return False
