"""Stones, the test suite's fifth game (docs/architecture.md, "Adding a game").

A real game added by the documented checklist, kept in the tests: an engine package
(:mod:`tests.games.stones.engine`, framework-free), an adapter (:mod:`tests.games.stones.adapter`),
its docs page (``stones.md`` here, where a real game's would be ``docs/engines/stones.md``) and its
test kit (:mod:`tests.games.stones.kit`, whose ``registered()`` stands in for the two registration
lines of a real game).
"""
