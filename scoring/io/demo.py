"""The demo tournament (issue 2 item 10): ``manage.py load_demo``.

"NSKT demo" (slug ``nskt-demo``): 16 teams of Dutch student associations, NSKT rules (target 800),
three played rounds whose matches replay the real hand results of
``scoring/data/taipan-hands-real.json`` in order, cycling as needed. Each real hand (calls and
NS/EW totals) becomes a hand record through the engine's ``check-totals`` (its first
explanation: first out, double victory, card points). The real hands were scored under standard
rules, which score a single hand exactly as NSKT does. Every match runs to 800, is entered by the
referee and confirmed by the organiser; the rounds are closed and round 4 is paired and published.
"""
from __future__ import annotations

import itertools
import json
from dataclasses import dataclass
from pathlib import Path

from django.contrib.auth import get_user_model
from django.db import transaction

from scoring.draw import pairing, rounds
from scoring.games import registry
from scoring.io.tournament_json import delete_tournament
from scoring.models import Match, Membership, Team, Tournament
from scoring.participants import persons
from scoring.policy import SYSTEM
from scoring.results import sheet

DEMO_SLUG = "nskt-demo"
DEMO_NAME = "NSKT demo"
HANDS_FILE = Path(__file__).resolve().parent.parent / "data" / "taipan-hands-real.json"
PLAYED_ROUNDS = 3

#: Demo logins (development only; printed by the command).
LOGINS = (("organiser", "nskt-organiser-demo", Membership.Role.ORGANISER),
          ("referee", "nskt-referee-demo", Membership.Role.REFEREE))

# (team name, affiliation, player 1, player 2): two teams per association
TEAMS = [
    ("Draken", "Asopos (Leiden)", "Anna de Vries", "Bram Jansen"),
    ("Feniksen", "Asopos (Leiden)", "Carmen Bakker", "Daan Visser"),
    ("Jade", "Augustinus (Amsterdam)", "Eva Smit", "Floris Meijer"),
    ("Pagodes", "Augustinus (Amsterdam)", "Gijs de Boer", "Hanna Mulder"),
    ("Zwaarden", "Vindicat (Groningen)", "Iris de Groot", "Joris Bos"),
    ("Sterren", "Vindicat (Groningen)", "Kim Vos", "Lars Peters"),
    ("Mahjongers", "Virgiel (Delft)", "Lotte Hendriks", "Milan van Dijk"),
    ("Bommen", "Virgiel (Delft)", "Noor Dekker", "Olivier Brouwer"),
    ("Straatjes", "Veritas (Utrecht)", "Puck de Wit", "Quinten Dijkstra"),
    ("Trappen", "Veritas (Utrecht)", "Roos Smits", "Sem de Graaf"),
    ("Hondjes", "Carolus Magnus (Nijmegen)", "Tess van der Meer", "Ruben Kok"),
    ("Wensen", "Carolus Magnus (Nijmegen)", "Vera Jacobs", "Wout de Haan"),
    ("Grand Slam", "Tragos (Nijmegen)", "Yara Vermeulen", "Xander van den Berg"),
    ("Dubbel Uit", "Ceres (Wageningen)", "Zoe Schouten", "Thijs van Leeuwen"),
    ("Slagen", "Ceres (Wageningen)", "Sanne Willems", "Niels Hoekstra"),
    ("Kaartjes", "Tragos (Nijmegen)", "Fleur Koster", "Jesse Prins"),
]


@dataclass
class DemoResult:
    """What :func:`load_demo` did: the tournament, whether it was created now, and the logins
    ``[(username, password, role)]``."""

    tournament: Tournament
    created: bool
    logins: list[tuple[str, str, str]]


def real_hand_records() -> list[dict]:
    """Every real hand of the data file as a hand record (engine ``score`` input), through
    ``check-totals`` (first explanation). Raises ``RuleViolation`` if a hand is inconsistent."""
    data = json.loads(HANDS_FILE.read_text(encoding="utf-8"))
    taipan = registry.get("taipan")
    return [taipan.record_from_totals(hand.get("calls") or {}, hand["totals"]) for hand in data["hands"]]


def _users():
    User = get_user_model()
    users = {}
    for username, password, _role in LOGINS:
        user, created = User.objects.get_or_create(username=username)
        if created or not user.has_usable_password():
            user.set_password(password)
        # Organisers are staff: they may create tournaments (issue 2 item 9); not superusers.
        user.is_staff = _role == Membership.Role.ORGANISER
        user.save()
        users[username] = user
    return users


def load_demo(*, if_empty: bool = False) -> DemoResult:
    """Build the demo tournament (see the module doc) and the ``organiser``/``referee`` users
    with their memberships. With ``if_empty`` an existing demo is left alone (logins still
    returned); without it an existing demo is deleted and built again."""
    users = _users()
    logins = [(u, p, r) for u, p, r in LOGINS]
    existing = Tournament.objects.filter(slug=DEMO_SLUG).first()
    if existing and if_empty:
        _memberships(existing, users)
        return DemoResult(existing, False, logins)
    with transaction.atomic():
        if existing:
            delete_tournament(existing)
        t = Tournament.objects.create(name=DEMO_NAME, slug=DEMO_SLUG, rules={"preset": "nskt"}, seed=2024,
                                      tiebreaks=["point_difference", "buchholz", "points_scored", "head_to_head"],
                                      venue="Utrecht")
        for name, club, p1, p2 in TEAMS:
            first = persons.create_player(t, p1, affiliation=club)
            second = persons.create_player(t, p2, affiliation=club)
            Team.objects.create(tournament=t, name=name, affiliation=club, first_player=first, second_player=second)
        _memberships(t, users)
        hands = itertools.cycle(real_hand_records())
        referee, organiser = users["referee"], users["organiser"]
        for _ in range(PLAYED_ROUNDS):
            rnd = pairing.pair_next_round(t, SYSTEM)
            rounds.publish_round(rnd, SYSTEM)
            rounds.start_round(rnd, SYSTEM)
            for match in rnd.matches.exclude(team_ew=None).order_by("table"):
                while match.status != Match.Status.FINISHED:
                    sheet.add_record(match, next(hands), referee, expected_version=match.version)
                sheet.confirm(match, organiser, expected_version=match.version)
            rounds.close_round(rnd, SYSTEM)
        rounds.publish_round(pairing.pair_next_round(t, SYSTEM), SYSTEM)
    t.refresh_from_db()
    return DemoResult(t, True, logins)


def _memberships(t: Tournament, users: dict) -> None:
    for username, _password, role in LOGINS:
        Membership.objects.get_or_create(tournament=t, user=users[username], defaults={"role": role})
