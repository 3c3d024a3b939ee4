"""Numbers in query parameters (``?round=3``, ``?rows=20``), read the same strict way by the pages
and the API: a plain ASCII whole number of at most six digits, nothing else (no sign, no spaces,
no ``"²"`` or other Unicode digits, no ``"3.0"``). What a view does with a value that is not one
is its own decision: the pages fall back to their default (:func:`scoring.web.views.public.int_param`),
the API answers 400 (``scoring.api.views.reads``)."""
from __future__ import annotations

#: Longest number read (a larger one is refused rather than converted).
MAX_DIGITS = 6


def plain_int(raw: str | None) -> int | None:
    """``raw`` as an int when it is a plain ASCII whole number of at most :data:`MAX_DIGITS`
    digits (``"3"``, ``"007"``), else ``None`` (``""``, ``"-1"``, ``"x"``, ``"²"``, ``"1.0"``)."""
    raw = raw or ""
    if not (raw.isascii() and raw.isdigit() and len(raw) <= MAX_DIGITS):
        return None
    return int(raw)
