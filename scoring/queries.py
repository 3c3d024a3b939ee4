"""Queries whose SQL is compiled once per process and run again with other values.

The polled public pages read the state of their data (``scoring.standings.cache.state_key``,
``scoring.web.conditional.result_state``) on every poll, also when the answer is a ``304 Not
Modified``. Those reads are one aggregate query each, and building and compiling that query with
the ORM costs several times what the database needs to answer it. :class:`CompiledQuery` builds a
queryset once per database vendor and *shape* (whatever changes the SQL itself, e.g. whether a
tournament uses blind confirmation), with placeholder values for the parameters that change from
call to call (a tournament or result id), keeps the SQL and its parameter list, and runs it with
the real values through a database cursor.

The rows come back as the database driver gives them, without the ORM's conversions (a
``datetime`` on PostgreSQL, text on SQLite): good for digests and comparisons within one
database, not for display.
"""
from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence

from django.db import DEFAULT_DB_ALIAS, connections
from django.db.models import QuerySet

#: Placeholder values for the varying parameters while the SQL is compiled: positive and small
#: enough for every integer field (the ORM compiles a comparison with a value outside a field's
#: range to "no rows"), and no constant the compiled queries hold.
_PLACEHOLDERS = (30_011, 30_013, 30_017, 30_019)


class CompiledQuery:
    """``build(*values, *shape)`` returns the queryset for the given varying ``values`` (ids) and
    ``shape`` (plain hashable values that change the SQL); ``rows(values, shape)`` runs it and
    returns ``list[tuple]`` of raw column values in the queryset's select order.

    ``values``: up to four integers, each used where the queryset would compare with it (they
    must appear in the SQL as parameters, not inlined). Raises ``ValueError`` when a value does
    not reach the compiled parameters (the queryset folded it into the SQL text)."""

    def __init__(self, build: Callable[..., QuerySet]):
        self.build = build
        self._compiled: dict[tuple, tuple[str, tuple, tuple[int | None, ...]]] = {}

    def _compile(self, vendor: str, count: int, shape: tuple) -> tuple[str, tuple, tuple[int | None, ...]]:
        key = (vendor, count, shape)
        compiled = self._compiled.get(key)
        if compiled is None:
            placeholders = _PLACEHOLDERS[:count]
            sql, params = self.build(*placeholders, *shape).query.sql_with_params()
            slots = tuple(placeholders.index(p) if isinstance(p, int) and p in placeholders else None for p in params)
            if not all(i in slots for i in range(count)):
                raise ValueError("a varying value does not appear among the query's parameters")
            compiled = self._compiled[key] = (sql, tuple(params), slots)
        return compiled

    def rows(self, values: Sequence[int], shape: tuple[Hashable, ...] = (), using: str = DEFAULT_DB_ALIAS) -> list[tuple]:
        connection = connections[using]
        sql, params, slots = self._compile(connection.vendor, len(values), tuple(shape))
        actual = [p if slot is None else values[slot] for p, slot in zip(params, slots, strict=True)]
        with connection.cursor() as cursor:
            cursor.execute(sql, actual)
            return cursor.fetchall()
