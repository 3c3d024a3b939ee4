"""Two organisers acting on the draw at the same moment (issue 23 item 9: a script and a person, or
two people, drawing and publishing through the API and the pages), on PostgreSQL: released
together by a barrier (:func:`tests.race.race`), :data:`TRIES` times per race. Invariants checked
after every try:

- two draws of the next round make exactly one draft round in which every team sits once (the
  tournament's lock: the second sees the draft and is refused);
- a publish and a "draw again" of the same draft never leave a published round that was paired
  after its publication: either the draft was drawn again first and then published (both
  acknowledged), or it was published first and drawing it again is refused; the published round
  pairs every team exactly once.
"""
from __future__ import annotations

import os

import pytest
from django.conf import settings
from django.db import connection
from django.utils import translation
from django.utils.translation import gettext

from scoring.draw import pairing, rounds
from scoring.errors import NotAllowed
from scoring.models import Match, Round, Team, Tournament
from tests.factories import TeamFactory, TournamentFactory, staff
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Tries per race (more with RACE_TRIES=N).
TRIES = max(30, int(os.environ.get("RACE_TRIES", "30")))


@pytest.fixture(autouse=True)
def _postgres_only():
    if connection.vendor != "postgresql":
        pytest.skip("race tests need PostgreSQL (row locks)")


def site_language(message: str, **params) -> str:
    """``message`` as the services word it in the threads of a race (the site's language)."""
    with translation.override(settings.LANGUAGE_CODE):
        return gettext(message).format(**{k: str(v) for k, v in params.items()})


def reload(obj):
    return type(obj).objects.get(pk=obj.pk)


def world() -> tuple[Tournament, list, list[Team]]:
    t = TournamentFactory()
    people = staff(t, organisers=2, referees=0)
    teams = [TeamFactory(tournament=t, name=f"T{i}", affiliation="Asopos" if i % 3 == 0 else "") for i in range(8)]
    return t, people["organisers"], teams


def seated_once(rnd: Round, teams: list[Team]) -> bool:
    seen = [x for m in Match.objects.filter(round=rnd) for x in (m.team_ns_id, m.team_ew_id) if x is not None]
    return sorted(seen) == sorted(t.pk for t in teams)


def _two_draws() -> None:
    t, (a, b), teams = world()
    outcomes = race(lambda: pairing.pair_next_round(reload(t), reload(a), method="random", seed=1),
                    lambda: pairing.pair_next_round(reload(t), reload(b), method="fold"))
    assert sum(o.ok for o in outcomes) == 1, [o.error for o in outcomes]
    refused = next(o.error for o in outcomes if not o.ok)
    assert isinstance(refused, NotAllowed) and str(refused) == site_language(
        "Round {number} is still a draft: publish or edit it first.", number=1)
    assert list(Round.objects.filter(tournament=t).values_list("number", "status")) == [(1, Round.Status.DRAFT)]
    assert seated_once(Round.objects.get(tournament=t), teams)


def test_two_draws_of_the_next_round_make_one_draft():
    for _ in range(TRIES):
        _two_draws()


def _publish_and_draw_again() -> None:
    t, (a, b), teams = world()
    draft = pairing.pair_next_round(t, a, method="seeded")
    outcomes = race(lambda: rounds.publish_round(reload(draft), reload(a)),
                    lambda: pairing.repair_draft(reload(draft), reload(b), method="random", seed=9))
    published, redrawn = outcomes
    rnd = reload(draft)
    assert published.ok, published.error  # a complete draft is always publishable
    assert rnd.status == Round.Status.PUBLISHED and seated_once(rnd, teams)
    if not redrawn.ok:
        assert isinstance(redrawn.error, NotAllowed) and str(redrawn.error) == site_language(
            "Only a draft round can be paired again; round {number} is {status}.", number=1,
            status=Round.Status.PUBLISHED.label)
        assert rnd.seed == draft.seed  # the seeded draw stayed
    else:
        assert rnd.seed == 9  # drawn again first, then published


def test_publish_and_draw_again_never_change_a_published_round():
    for _ in range(TRIES):
        _publish_and_draw_again()
