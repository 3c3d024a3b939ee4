"""A draft round can be paired again, and its pairing reasons survive hand edits (issue 11 item
9): a table keeps the reason it was drawn with while the same two teams sit at it; only tables
changed by hand say "Edited by hand", and a reverted edit gets the drawn reasons back."""
import pytest

from scoring.draw import pairing
from scoring.errors import NotAllowed
from scoring.models import Round
from scoring.policy import SYSTEM
from tests.factories import TeamFactory, TournamentFactory, named_teams, staff

pytestmark = pytest.mark.django_db

EDITED = "Edited by hand"


def reasons(rnd):
    return [(m.team_ns_id, m.team_ew_id, m.pairing_reason["template"]) for m in rnd.matches.order_by("table")]


@pytest.fixture
def draft():
    t = TournamentFactory(seed=11)
    named_teams(t, ["A", "B", "C", "D", "E", "F"])
    return pairing.pair_next_round(t, SYSTEM, method="random")


def test_an_edit_keeps_the_reasons_of_unchanged_tables(draft):
    before = reasons(draft)
    (a, b, r1), (c, d, r2), (e, f, r3) = before
    assert r1 == r2 == r3 == "Round 1: random draw (seed {seed})"
    pairing.set_draft_pairing(draft, [(a, c), (b, d), (e, f)], SYSTEM)
    after = reasons(draft)
    assert after[0][2] == after[1][2] == EDITED
    assert after[2] == (e, f, r3)  # the same two teams: the drawn reason stays
    # swapping the teams' seats at a table is not a change of pair
    pairing.set_draft_pairing(draft, [(c, a), (b, d), (f, e)], SYSTEM)
    assert reasons(draft)[2] == (f, e, r3)


def test_a_reverted_edit_gets_the_drawn_reasons_back(draft):
    before = reasons(draft)
    (a, b, _), (c, d, _), (e, f, _) = before
    pairing.set_draft_pairing(draft, [(a, d), (c, b), (e, f)], SYSTEM)
    pairing.set_draft_pairing(draft, [(a, c), (b, d), (e, f)], SYSTEM)  # edited again
    pairing.set_draft_pairing(draft, [(a, b), (c, d), (e, f)], SYSTEM)  # back to the draw
    assert reasons(draft) == before
    assert all(m.pairing_reason_text() != EDITED for m in draft.matches.all())


def test_pair_again_replaces_the_draft_with_the_chosen_method(draft):
    t = draft.tournament
    for i, team in enumerate(t.teams.order_by("name"), start=1):
        team.seed = i
        team.save()
    rnd = pairing.repair_draft(draft, SYSTEM, method="seeded")
    assert rnd.pk == draft.pk and rnd.status == Round.Status.DRAFT
    names = [(m.team_ns.name, m.team_ew.name) for m in rnd.matches.order_by("table")]
    assert names == [("A", "D"), ("B", "E"), ("C", "F")]  # seeds: 1 v 4, 2 v 5, 3 v 6
    assert {m.pairing_reason["template"] for m in rnd.matches.all()} == {"Round 1: by seed numbers"}
    assert t.rounds.count() == 1


def test_pair_again_takes_a_late_entry_and_keeps_the_seed(draft):
    t = draft.tournament
    first = reasons(draft)
    again = pairing.repair_draft(draft, SYSTEM, method="random")
    assert reasons(again) == first  # the same teams, the round's seed: the same draw
    TeamFactory(tournament=t, name="G")
    TeamFactory(tournament=t, name="H")
    again = pairing.repair_draft(draft, SYSTEM, method="random")
    assert again.matches.count() == 4


def test_only_an_organiser_pairs_again_and_only_a_draft(draft):
    from django.core.exceptions import PermissionDenied

    people = staff(draft.tournament)
    with pytest.raises(PermissionDenied):
        pairing.repair_draft(draft, people["referee"], method="random")
    assert pairing.repair_draft(draft, people["organiser"], method="random").matches.count() == 3
    Round.objects.filter(pk=draft.pk).update(status=Round.Status.PUBLISHED)
    draft.refresh_from_db()
    with pytest.raises(NotAllowed):
        pairing.repair_draft(draft, SYSTEM, method="random")
