"""Build the benchmark tournament: a Tai Pan tournament (NSKT rules, target 800) of ``--teams``
teams after ``--rounds`` Swiss rounds, every match played hand by hand and confirmed.

Run: ``.venv/bin/python benchmarks/build_tournament.py [--teams 1000] [--rounds 9] [--seed 2026]``
(the benchmarks call :func:`open_tournament`, which builds it on first use).

Everything goes through the project's own code: each round is paired by the Swiss pairing
(:func:`scoring.draw.pairing_core.pair_round`) on the standings' own ranking
(:func:`scoring.standings.tiebreaks.rank_teams`, NSKT tie-breaks) of the rounds before; each
hand is a seeded random hand summary (card points in fives, about one Tai Pan call in ten, a
double victory in sixteen) scored by the Tai Pan engine, hands are added until a team reaches the
target with the higher total (a match still open after 12 hands ends at the time limit); the
whole tournament is then created by the JSON import (:func:`scoring.io.tournament_json.import_tournament`),
which checks every hand with the engine and computes every match again (the confirming referee,
a member in the file, gets an account without a password first: an import creates none).

The SQLite database is kept in ``var/bench/`` and reused while its name (size, rounds, seed and
:data:`VERSION`) matches; delete the file to build it again.
"""
from __future__ import annotations

import argparse
import random
import time

from _common import VAR, django_setup

#: Bump when the generated data changes, so stale databases are not reused.
VERSION = 2
#: The referee who confirmed every match (an account is created for it: an import never creates
#: accounts and keeps a confirmation only by a member).
REFEREE = "bench-referee"
TARGET = 800
MAX_HANDS = 12
SEATS = ("N", "E", "S", "W")
TEAM_OF = {"N": "NS", "S": "NS", "E": "EW", "W": "EW"}


def db_path(teams: int, rounds: int, seed: int):
    return VAR / f"tournament-{teams}t-{rounds}r-s{seed}-v{VERSION}.sqlite3"


def slug(teams: int, rounds: int, seed: int) -> str:
    return f"bench-{teams}-{rounds}-{seed}"


def random_hand(rng: random.Random) -> dict:
    """A hand summary as a score sheet records it."""
    calls = {}
    if rng.random() < 0.1:
        calls[rng.choice(SEATS)] = "tai_pan"
    first_out = rng.choice(SEATS)
    if rng.random() < 1 / 16:
        return {"calls": calls, "first_out": first_out, "double_victory": TEAM_OF[first_out], "card_points": None}
    ns = 5 * rng.randint(-5, 25)
    return {"calls": calls, "first_out": first_out, "double_victory": None, "card_points": {"NS": ns, "EW": 100 - ns}}


def play_match(rng: random.Random, score) -> tuple[list[dict], int, int, bool]:
    """Hands until the target decides (or :data:`MAX_HANDS`): ``(hands, total NS, total EW, finished)``."""
    hands, ns, ew = [], 0, 0
    while len(hands) < MAX_HANDS:
        hand = random_hand(rng)
        out = score(hand)
        hands.append(hand)
        ns += out["NS"]["total"]
        ew += out["EW"]["total"]
        if max(ns, ew) >= TARGET and ns != ew:
            return hands, ns, ew, True
    return hands, ns, ew, False


def generate(teams: int, rounds: int, seed: int) -> dict:
    """The tournament as the JSON import reads it."""
    import engines
    from scoring.draw.pairing_core import Entrant, pair_round
    from scoring.standings.tiebreaks import NSKT_DEFAULT, Context, Game, TeamResults, rank_teams

    rng = random.Random(seed)
    names = {i: f"Team {i:04d}" for i in range(1, teams + 1)}
    results = {i: TeamResults(i, []) for i in names}
    opponents: dict[int, set[int]] = {i: set() for i in names}
    byes: set[int] = set()

    def score(hand: dict) -> dict:
        return engines.run("taipan", "score", hand)

    out_rounds = []
    for number in range(1, rounds + 1):
        ranking = [tid for _rank, tid, _values in rank_teams(Context(results), NSKT_DEFAULT)]
        entrants = [Entrant(i, names[i], results[i].match_points, frozenset(opponents[i]), i in byes) for i in ranking]
        matches = []
        for table in pair_round(entrants, number, seed=seed + number):
            ns, ew = table.ns, table.ew
            if ew is None:
                byes.add(ns)
                results[ns].games.append(Game(number, None, 0, 0, 2, "win"))
                matches.append({"table": table.table, "ns": names[ns], "ew": None, "hands": [], "ended": None,
                                "confirmed_by": None})
                continue
            opponents[ns].add(ew)
            opponents[ew].add(ns)
            hands, tns, tew, finished = play_match(rng, score)
            if tns == tew:
                pns = pew = 1
            else:
                pns, pew = (2, 0) if tns > tew else (0, 2)
            results[ns].games.append(Game(number, ew, tns, tew, pns, "win" if pns == 2 else "draw" if pns == 1 else "loss"))
            results[ew].games.append(Game(number, ns, tew, tns, pew, "win" if pew == 2 else "draw" if pew == 1 else "loss"))
            matches.append({"table": table.table, "ns": names[ns], "ew": names[ew], "hands": hands,
                            "ended": "target" if finished else "time", "confirmed_by": REFEREE})
        out_rounds.append({"number": number, "status": "closed", "seed": seed + number, "matches": matches})
    clubs = [f"Club {c:02d}" for c in range(1, 41)]
    return {
        "name": f"Benchmark {teams} teams", "slug": slug(teams, rounds, seed), "game": "taipan", "rules": "nskt",
        "status": "running", "seed": seed, "members": [{"username": REFEREE, "role": "referee"}],
        "teams": [{"name": names[i], "players": [f"Player {i:04d}a", f"Player {i:04d}b"],
                   "affiliation": clubs[i % len(clubs)], "seed": i} for i in names],
        "rounds": out_rounds,
    }


def open_tournament(teams: int = 1000, rounds: int = 9, seed: int = 2026, *, quiet: bool = False):
    """Set up Django on the benchmark database and return the tournament, building it first if
    the database does not hold it yet."""
    path = db_path(teams, rounds, seed)
    django_setup(path)
    from scoring.io.tournament_json import import_tournament
    from scoring.models import Tournament

    found = Tournament.objects.filter(slug=slug(teams, rounds, seed)).first()
    if found is not None:
        return found
    start = time.perf_counter()
    if not quiet:
        print(f"building the benchmark tournament ({teams} teams, {rounds} rounds) in {path} ...", flush=True)
    data = generate(teams, rounds, seed)
    from django.contrib.auth import get_user_model

    user, created = get_user_model().objects.get_or_create(username=REFEREE)
    if created:  # active (an import adds no inactive member) but without a password: nobody logs in as it
        user.set_unusable_password()
        user.save(update_fields=["password"])
    t = import_tournament(data)
    if not quiet:
        print(f"... built in {time.perf_counter() - start:.0f} s", flush=True)
    return t


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--teams", type=int, default=1000)
    parser.add_argument("--rounds", type=int, default=9)
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    t = open_tournament(args.teams, args.rounds, args.seed)
    from scoring.models import Hand, Match

    matches = Match.objects.filter(round__tournament=t)
    print(f"{t.name}: {t.teams.count()} teams, {t.rounds.count()} rounds, {matches.count()} matches, "
          f"{Hand.objects.filter(match__round__tournament=t).count()} hands, "
          f"{matches.filter(status=Match.Status.CONFIRMED).count()} confirmed")


if __name__ == "__main__":
    main()
