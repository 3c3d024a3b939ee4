"""Translation marker for engine messages, framework-free.

``_("text")`` returns the text unchanged; it only marks the string so that Django's
``makemessages`` collects it into ``locale/``. The web layer translates a
:class:`engines.errors.Violation` with ``gettext(v.template).format(**v.params)``.
"""


def _(text: str) -> str:
    """Mark ``text`` as translatable and return it unchanged."""
    return text
