"""The REST API (``/api/v1/``, ``docs/api.md``): a layer above the services, like
:mod:`scoring.web`, that reads through the same services and writes through the same result
sheet and permission policy as the pages.

- :mod:`scoring.api.auth`: authentication classes and the *actor* they resolve to;
- :mod:`scoring.api.views`: public reads (tournaments, rounds, standings, results), result writes,
  the engine commands;
- :mod:`scoring.api.representation` and :mod:`scoring.api.serializers`: the data and its schema;
- :mod:`scoring.api.errors`, :mod:`scoring.api.parsers`, :mod:`scoring.api.etags`,
  :mod:`scoring.api.throttling`: one error shape, size limits, conditional reads, rate limits.
"""
