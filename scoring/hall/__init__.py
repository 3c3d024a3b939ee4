"""Running the hall during a round (docs/hall.md): the round clock and announcements, time's up
for every unfinished table, referee zones and claimed tables, and the progress board. Above
:mod:`scoring.draw` and :mod:`scoring.results` in the layers (pyproject.toml): the hall uses the
round lifecycle and the result services, never the other way round (the draw tells the hall
about published and started rounds through :mod:`scoring.draw.signals`)."""
