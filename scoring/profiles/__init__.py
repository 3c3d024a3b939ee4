"""A person's public profile across tournaments (issue 26 item 2, docs/players.md "Player
profiles"): every tournament entered, every match or table played, and the statistics per game
(the game adapter's :meth:`~scoring.games.base.GameAdapter.player_statistics`). The profile page
and the REST API read the same :func:`scoring.profiles.load.profile`."""
