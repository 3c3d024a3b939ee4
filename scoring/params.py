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
    return whole_number(raw or "", max_digits=MAX_DIGITS)


def whole_number(text: str, *, signed: bool = False, max_digits: int = 12) -> int | None:
    """``text`` as an int when it is written with the ASCII digits 0-9 only (at most
    ``max_digits``; with ``signed`` an optional ``-`` before them), else ``None``: no Unicode
    digits, spaces inside, fractions or exponents. The one strict reader of typed whole numbers
    (query parameters, CSV and form fields, re-typed totals)."""
    digits = text[1:] if signed and text.startswith("-") else text
    if not (digits.isascii() and digits.isdigit() and len(digits) <= max_digits):
        return None
    return int(text)


class IdConverter:
    """The URL path converter ``<id:pk>`` (registered in :meth:`scoring.apps.ScoringConfig.ready`):
    a database id or number in a path, 1 to 18 ASCII digits, as an int. Django's ``<int:>`` takes
    any number of digits, and a number beyond a 64-bit integer then fails in the database
    (SQLite raises ``OverflowError``: a 500) instead of being "not found"; this one does not match
    it, so the answer is 404."""

    regex = "[0-9]{1,18}"

    def to_python(self, value: str) -> int:
        return int(value)

    def to_url(self, value) -> str:
        return str(int(value))
