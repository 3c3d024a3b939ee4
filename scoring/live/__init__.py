"""What changed in a tournament, for the pages that follow it live.

- :mod:`scoring.live.state`: the tournament's state counters, bumped in the transaction of every
  change a page shows, read in O(1) by the conditional GETs (a 304 costs the same at 100 and at
  3,000 teams).
- :mod:`scoring.live.push`: the counters' changes sent to the open pages (server-sent events),
  once the transaction that made them has committed.

Topics name what changed: ``tournament`` (the tournament's own fields, its rounds published or
closed: every page), ``standings`` (what the standings show), ``round:<number>`` (a round's page:
its tables and their state), ``result:<id>`` (one match or table: its hands and state), ``hall``
(clock, announcements, check-in, zones, the progress board) and ``entrants`` (names, teams,
check-in shown on the link pages); ``board:<number>`` (a round's progress board: anything in the
round, a hand in a table being played too; published with the ``result:<id>`` of that table).
"""
