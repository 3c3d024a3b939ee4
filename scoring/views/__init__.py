"""Views, one module per area: ``public`` (read-only pages), and further modules added per feature
(results entry, organiser pages, rules check, four-player tables). Views stay thin: the work is in
``scoring.services`` and the engines."""
