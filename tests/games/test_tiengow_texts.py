"""Tien Gow texts of the adapter and its entry form: one translatable sentence per summary and
carried state (word order is the translation's), and tile names that follow the engine's table and
the Dutch catalogue (the rule text's names, the Tien Gow rule text "Opstelling")."""
from django.utils import translation

from engines.tiengow.names import TILE_NAMES
from scoring.games import registry
from scoring.games.tiengow import adapter as tiengow_adapter
from scoring.games.tiengow.forms import TIENGOW_NAME_MSGIDS, tiengow_tile_names


def test_tiengow_summary_is_one_translatable_text(monkeypatch):
    adapter = registry.get("tiengow")
    with translation.override("en"):
        assert adapter.summary({"mode": "settle", "banker": 0, "columns": [2, 3, 3, 0]}) == "banker 1 · columns 2/3/3/0"
    seen = []
    monkeypatch.setattr(tiengow_adapter, "_t", lambda text: seen.append(text) or "translated: " + text)
    assert adapter.summary({"mode": "settle", "banker": 2, "columns": [8, 0, 0, 0]}) == "translated: banker 3 · columns 8/0/0/0"
    assert seen == ["banker {banker} · columns {columns}"]
    seen.clear()
    assert adapter.state_text({"banker": 1}) == "translated: Banker: seat 2"
    assert seen == ["Banker: seat {seat}"]


def test_tiengow_tile_names_follow_the_engine_and_the_catalogue():
    names = tiengow_tile_names()
    assert set(names) == set(TILE_NAMES)  # all 21 tile kinds
    for english, _dutch in TILE_NAMES.values():
        assert english in TIENGOW_NAME_MSGIDS  # every English name is a marked msgid
    with translation.override("en"):
        assert str(names["6-6"]) == "Heaven" and str(names["1-5"]) == "Big Head Six"
    with translation.override("nl"):
        for code, (english, dutch) in TILE_NAMES.items():
            # once the Dutch catalogue has the names they are those of the rule text
            assert str(names[code]) in (english, dutch), code
