"""The tournament JSON keeps player entry and a confirmation by a side through its private link
(issue 15): export -> import -> export gives the same text (the slug aside); the links themselves
are never exported, and the imported tournament makes new ones."""
from __future__ import annotations

import json

import pytest

from scoring.io.tournament_json import ImportRefused, dumps, export_tournament, import_tournament
from scoring.models import Confirmation, EntrantLink
from scoring.participants import links
from scoring.results import sheet
from tests.factories import GRAND_DOUBLE_VICTORY_NS, SICHUAN_SELF_DRAW

pytestmark = pytest.mark.django_db


def _played(world):
    m = world.match
    for record in (GRAND_DOUBLE_VICTORY_NS, GRAND_DOUBLE_VICTORY_NS):
        sheet.add_record(m, record, world.actor("Alpha"), expected_version=m.version)
    sheet.confirm(m, world.actor("Bravo"), expected_version=m.version)
    t = world.table
    sheet.add_record(t, SICHUAN_SELF_DRAW, world.actor("Ann"), expected_version=t.version)
    sheet.end_at_time(t, world.actor("Ann"), expected_version=t.version, reason="time")
    sheet.confirm(t, world.actor("Cas"), expected_version=t.version)


def test_a_confirmation_through_a_link_survives_export_and_import(world):
    _played(world)
    for t, side, kind in ((world.tp, "Bravo", "matches"), (world.sc, "Cas", "tables")):
        data = export_tournament(t)
        assert data["player_entry"] is True
        (result,) = [c for c in data["rounds"][0][kind] if c.get("confirmed_via")]
        assert result["confirmed_via"] == side and result["confirmed_by"] is None
        text = dumps(data)
        for name in world.links:
            assert world.token(name) not in text
        copy = import_tournament(json.loads(text), slug=f"{t.slug}-copy")
        assert copy.player_entry
        confirmation = Confirmation.objects.get(**{f"{ {'matches': 'match', 'tables': 'table'}[kind]}__round__tournament": copy})
        assert confirmation.confirmed_by is None and confirmation.via_entrant == side
        assert confirmation.via_link.entrant.name == side and confirmation.via_link.tournament_id == copy.pk
        again = export_tournament(copy)
        assert dumps({**again, "slug": t.slug}) == text
    # The copies' links are new ones: the original tokens open nothing there.
    copied = EntrantLink.objects.filter(tournament__slug__endswith="-copy")
    assert copied.exists() and all(links.resolve(world.token(n)).tournament.slug in ("tp", "sc") for n in ("Bravo", "Cas"))


def test_a_file_naming_a_side_that_is_not_at_the_table_is_refused(world):
    _played(world)
    data = export_tournament(world.tp)
    result = next(c for c in data["rounds"][0]["matches"] if c.get("confirmed_via"))
    result["confirmed_via"] = "Charlie"
    with pytest.raises(ImportRefused) as refused:
        import_tournament(data, slug="tp-bad")
    assert any("confirmed_via" in path and "does not play at this table" in message for path, message in refused.value.errors)
    result["confirmed_via"], result["confirmed_by"] = "Bravo", "organiser"
    with pytest.raises(ImportRefused) as refused:
        import_tournament(data, slug="tp-bad")
    assert any("not both" in message for _path, message in refused.value.errors)


def test_tournaments_without_player_entry_export_as_before(db):
    from tests.factories import TournamentFactory

    assert "player_entry" not in export_tournament(TournamentFactory())
