"""Check-in racing the draw of the next round (issue 23 acceptance: "check-in vs draw"), on
PostgreSQL: released together by a barrier (:func:`tests.race.race`), each in its own thread and
database connection, :data:`TRIES` times per race.

Both the check-in (:func:`scoring.participants.checkins.set_checkin`) and the draw
(:func:`scoring.draw.pairing.pair_next_round`, :func:`scoring.draw.seating.seat_round`) lock the
tournament row first, so they never interleave. The invariant, checked after every try: an
entrant is drawn if and only if it was checked in when the draw read the list:

- an entrant's tap that arrives first is drawn; one that arrives after the draw is refused with
  "Round 1 is already drawn: ask the organiser." and the entrant is not drawn;
- an organiser's untick that arrives first leaves the entrant out; one that arrives after the
  draw is kept for the draft (``drawn``), which then names the entrant as not present.
"""
from __future__ import annotations

import os
from collections import Counter

import pytest
from django.utils import translation

from scoring.draw import pairing, seating
from scoring.errors import NotAllowed
from scoring.models import CheckIn, EntrantLink, Round, Tournament
from scoring.participants import checkins, links
from scoring.policy import EntrantActor
from tests.factories import PlayerFactory, TeamFactory, TournamentFactory, staff
from tests.race import race

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]

#: Tries per race: at least 50, more with RACE_TRIES=N for a longer run.
TRIES = max(50, int(os.environ.get("RACE_TRIES", "50")))


def reload(obj):
    return type(obj).objects.get(pk=obj.pk)


def english(op):
    """``op`` run in English (a racing thread does not share the caller's active language)."""
    def run():
        with translation.override("en"):
            return op()
    return run


def drawn(rnd: Round) -> set[int]:
    return {x for m in rnd.matches.all() for x in (m.team_ns_id, m.team_ew_id) if x}


def _tap_try() -> str:
    t = TournamentFactory(checkin_required=True)
    teams = [TeamFactory(tournament=t) for _ in range(5)]
    org = staff(t, referees=0)["organiser"]
    for team in teams[:4]:
        checkins.set_checkin(t, org, team.pk)
    late = teams[4]
    link_id = links.link_for(late).pk

    def tap():
        actor = EntrantActor(EntrantLink.objects.select_related("tournament", "team").get(pk=link_id))
        return checkins.set_checkin(reload(t), actor, late.pk, round_number=1)

    tapped, draw = race(english(tap), lambda: pairing.pair_next_round(reload(t), reload(org)))
    assert draw.ok, draw.error
    rnd = Round.objects.get(tournament=t, number=1)
    if tapped.ok:
        assert late.pk in drawn(rnd), "checked in before the draw but not paired"
        return "tap first"
    assert isinstance(tapped.error, NotAllowed) and str(tapped.error) == "Round 1 is already drawn: ask the organiser."
    assert late.pk not in drawn(rnd), "refused after the draw but paired"
    assert not CheckIn.objects.filter(team=late).exists()
    return "draw first"


def _untick_try() -> str:
    t = TournamentFactory(checkin_required=True)
    teams = [TeamFactory(tournament=t) for _ in range(4)]
    people = staff(t, referees=0, organisers=2)
    first, second = people["organisers"]
    for team in teams:
        checkins.set_checkin(t, first, team.pk)
    leaving = teams[0]
    untick, draw = race(lambda: checkins.set_checkin(reload(t), reload(first), leaving.pk, False, round_number=1),
                        lambda: pairing.pair_next_round(reload(t), reload(second)))
    assert untick.ok and draw.ok, (untick.error, draw.error)
    rnd = Round.objects.get(tournament=t, number=1)
    if untick.value.drawn:
        assert leaving.pk in drawn(rnd), "checked in when the draw read the list but not paired"
        assert "not_present" in [code for code, _ in pairing.draft_problems(rnd)]
        return "draw first"
    assert leaving.pk not in drawn(rnd), "unticked before the draw but paired"
    return "untick first"


def _seat_try() -> str:
    t = TournamentFactory(game="sichuan", checkin_required=True)
    players = [PlayerFactory(tournament=t) for _ in range(8)]
    org = staff(t, referees=0)["organiser"]
    for p in players[:4]:
        checkins.set_checkin(t, org, p.pk)
    # Four more tap at the same moment as the seating: all four in, or none (a table of four).
    link_ids = [links.link_for(p).pk for p in players[4:]]

    def tap(i: int):
        def go():
            actor = EntrantActor(EntrantLink.objects.select_related("tournament", "player").get(pk=link_ids[i]))
            return checkins.set_checkin(reload(t), actor, players[4 + i].pk, round_number=1)
        return go

    outcomes = race(*(english(tap(i)) for i in range(4)), english(lambda: seating.seat_round(reload(t), reload(org))))
    *taps, seat = outcomes
    in_before = {players[4 + i].pk for i, o in enumerate(taps) if o.ok}
    if seat.ok:
        seated = set(seat.value.round.tables.values_list("seats__player_id", flat=True))
        assert seated == {p.pk for p in players[:4]} | in_before
    else:  # 5..7 present when the seating read the list: not tables of four, nothing drawn (later taps count)
        assert not Round.objects.filter(tournament=t).exists()
        assert isinstance(seat.error, NotAllowed) and "substitute" in str(seat.error), seat.error
        return "refused"
    for o in taps:
        assert o.ok or "already drawn" in str(o.error)
    return f"{len(in_before)} in"


@pytest.mark.parametrize("one_try", [_tap_try, _untick_try, _seat_try], ids=["tap", "untick", "seat"])
def test_check_in_racing_the_draw(one_try):
    seen = Counter(one_try() for _ in range(TRIES))
    assert sum(seen.values()) == TRIES
    print(dict(seen))
    assert Tournament.objects.count() >= TRIES
