"""The cost of a 304 at 100 and at 3,000 teams (issue 25 item 4). Run:
``.venv/bin/python benchmarks/bench_conditional.py [--small 100] [--large 3000] [--rounds 6] [--repeat 7]``

Two Tai Pan fields in one SQLite file under ``var/bench/`` (built with ``bulk_create`` on first
use, a few seconds): ``--small`` and ``--large`` teams, ``--rounds`` - 1 rounds played and
confirmed, the last one in progress with every match being played. For each field, an anonymous
phone polls three pages that have not changed (``GET`` with ``If-None-Match``, answered 304,
nothing rendered): the standings, the last round's page and one of its match pages, through the
test client (middleware and all). Each figure is printed next to the same poll answered by the
state of before issue 25 (kept below: it aggregated the round's matches, the entrants and the
standings' rounds on every poll), measured interleaved in the same run, then the ratio of the
large field's 304 to the small field's (target <= 1.5x: the state counters,
:mod:`scoring.live.state`, are read by primary key whatever the field's size).
"""
from __future__ import annotations

import argparse
import inspect
import sys
import types

from _common import VAR, compare, django_setup, figure_table, report

OLD_URLS = "bench_conditional_old_urls"


# --------------------------------------------------------------------------- the state before issue 25


def _old_round_query(tournament_id: int, number: int, related: str):
    """The round page's state query before issue 25: the round's results' count, version sum and
    last change, the entrants' count and last change, the played rounds' count and last number."""
    from django.db.models import Count, Max, OuterRef, Subquery, Sum

    from scoring.models import Round
    from scoring.standings.cache import ENTRANT_FIELDS, entrant_state

    played = Round.objects.exclude(status=Round.Status.DRAFT)
    return (Round.objects.filter(tournament_id=tournament_id, number=number).order_by()
            .annotate(n=Count(related), v=Sum(f"{related}__version"), t=Max(f"{related}__updated_at"),
                      **entrant_state("tournament"),
                      rounds=Subquery(played.filter(tournament=OuterRef("tournament")).order_by().values("tournament")
                                      .annotate(x=Count("pk")).values("x")[:1]),
                      last=Subquery(played.filter(tournament=OuterRef("tournament")).order_by().values("tournament")
                                    .annotate(x=Max("number")).values("x")[:1]))
            .values_list("pk", "status", "n", "v", "t", *ENTRANT_FIELDS, "rounds", "last")[:1])


def _old_result_query(pk: int, tournament_id: int, key: str):
    """The result page's state query before issue 25: the result's row and its sides' last change."""
    from scoring.kinds import KINDS

    kind = KINDS[key]
    sides = kind.side_aggregates["result"]
    return (kind.container_model.objects.filter(pk=pk, round__tournament_id=tournament_id).annotate(**sides)
            .order_by().values_list("version", "updated_at", "status", "ended", "round__number", "round__status", *sides)[:1])


def old_states():
    """The three page states of before issue 25, as ``conditional`` takes them."""
    from scoring.kinds import kind_for
    from scoring.models import Round
    from scoring.queries import CompiledQuery
    from scoring.standings import standings_key
    from scoring.web.views.public import int_param

    round_query, result_query = CompiledQuery(_old_round_query), CompiledQuery(_old_result_query)

    def round_state(request, tournament, number):
        rows = round_query.rows([tournament.pk, int(number)], (kind_for(tournament.adapter).round_related,))
        return None if not rows or rows[0][1] == Round.Status.DRAFT else list(rows[0])

    def result_state(request, tournament, pk, *, kind):
        rows = result_query.rows([int(pk), tournament.pk], (kind.key,))
        return None if not rows or rows[0][5] == Round.Status.DRAFT else list(rows[0])

    def standings_state(request, tournament):
        return standings_key(tournament, through_round=int_param(request, "round", None, low=1, high=999))

    return standings_state, round_state, result_state


def install_old_urls() -> None:
    """A URLconf serving the three pages under ``/old/`` with the old states (the project's URLs
    stay, for the links the pages render)."""
    from django.urls import include, path
    from django.views.decorators.http import require_safe

    from scoring.kinds import MATCHES
    from scoring.web.conditional import conditional
    from scoring.web.decorators import tournament_view
    from scoring.web.views import public, results

    standings_state, round_state, result_state = old_states()

    def old(view, state):
        return require_safe(tournament_view()(conditional(state)(inspect.unwrap(view))))

    module = types.ModuleType(OLD_URLS)
    module.urlpatterns = [
        path("old/t/<slug:slug>/standings/", old(public.standings, standings_state)),
        path("old/t/<slug:slug>/round/<int:number>/", old(public.round_page, round_state)),
        path(f"old/t/<slug:slug>/{MATCHES.key}/<int:pk>/", old(results.detail, result_state), {"kind": MATCHES}),
        path("", include("nskt.urls")),
    ]
    sys.modules[OLD_URLS] = module


# --------------------------------------------------------------------------- the fields


def build(teams: int, rounds: int):
    """The field of ``teams`` teams (made on first use): ``rounds - 1`` confirmed rounds, the last
    in progress with every match being played."""
    from django.db import transaction

    from scoring.live import state
    from scoring.models import Match, Player, Round, Team, Tournament
    from scoring.participants import persons
    from tests.factories import circle_pairs

    slug = f"bench-304-{teams}"
    found = Tournament.objects.filter(slug=slug).first()
    if found is not None:
        return found
    with transaction.atomic():
        t = Tournament.objects.create(name=f"304 bench {teams}", slug=slug, game="taipan", status=Tournament.Status.RUNNING)
        players = Player.objects.bulk_create(persons.attach([Player(tournament=t, name=f"Player {i:05d}") for i in range(2 * teams)]), batch_size=500)
        field = Team.objects.bulk_create([Team(tournament=t, name=f"Team {i:05d}", first_player=players[2 * i],
                                               second_player=players[2 * i + 1], seed=i + 1) for i in range(teams)], batch_size=500)
        made = Round.objects.bulk_create([Round(tournament=t, number=r + 1, status=Round.Status.CLOSED) for r in range(rounds)])
        Round.objects.filter(pk=made[-1].pk).update(status=Round.Status.IN_PROGRESS)
        Match.objects.bulk_create([
            Match(round=rnd, table=table, team_ns=field[a], team_ew=field[b],
                  status=Match.Status.PLAYING if r == rounds - 1 else Match.Status.CONFIRMED,
                  total_ns=300, total_ew=200, points_ns=2, points_ew=0, version=3)
            for r, rnd in enumerate(made) for table, (a, b) in enumerate(circle_pairs(teams, r), start=1)], batch_size=500)
        state.bump(t.pk, *state.EVERYTHING, *(state.round_topic(r + 1) for r in range(rounds)))
    return t


def pages(t, rounds: int) -> dict[str, str]:
    """The three polled pages' paths."""
    from django.urls import reverse

    from scoring.models import Match

    match = Match.objects.filter(round__tournament=t, round__number=rounds).order_by("table").first()
    return {"standings": reverse("scoring:standings", args=[t.slug]),
            f"round {rounds}'s page": reverse("scoring:round_pairings", args=[t.slug, rounds]),
            "a match page": reverse("scoring:match_detail", args=[t.slug, match.pk])}


def poll(client, url: str):
    """A function polling ``url`` with the ETag of its first answer (asserting 304)."""
    etag = client.get(url)["ETag"]

    def again():
        response = client.get(url, HTTP_IF_NONE_MATCH=etag)
        assert response.status_code == 304, (url, response.status_code)

    return again


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--small", type=int, default=100)
    parser.add_argument("--large", type=int, default=3000)
    parser.add_argument("--rounds", type=int, default=6)
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    django_setup(VAR / "conditional.sqlite3")
    from django.test import Client, override_settings

    install_old_urls()
    client = Client()
    fields = {n: build(n, args.rounds) for n in (args.small, args.large)}
    print(f"304 polls at {args.small} and {args.large} teams, {args.rounds} rounds (CPU time, best of {args.repeat}, interleaved)")
    table = figure_table("conditional")
    ours: dict = {}
    for teams, t in fields.items():
        for label, url in pages(t, args.rounds).items():
            new = poll(client, url)
            with override_settings(ROOT_URLCONF=OLD_URLS):
                old = poll(client, "/old" + url)

                def before(old=old):
                    with override_settings(ROOT_URLCONF=OLD_URLS):
                        old()

            ours[teams, label], base = compare(new, before, args.repeat)
            report(f"304 of {label} at {teams:,} teams", ours[teams, label], base, "the aggregating state of before",
                   table=table)
    for label in pages(fields[args.small], args.rounds):
        report(f"304 of {label}: {args.large:,} teams against {args.small:,}", ours[args.large, label],
               ours[args.small, label], f"the same at {args.small:,} teams", target=1.5, table=table)
    table.print()


if __name__ == "__main__":
    main()
