"""factory-boy factories for the test suite: users, tournaments, memberships, entrants, rounds,
matches and tables, plus a few builders for whole situations (a published Tai Pan round, a seated
four-player round). Tests build exactly what they need from these instead of per-file builders.

Statuses are protected (explicit states): factories create objects in their initial state and
move them with the models' transitions (``round(status=...)`` walks the round there).
"""
from __future__ import annotations

import factory
from django.contrib.auth import get_user_model

from scoring.draw import rounds
from scoring.draw.lifecycle import containers
from scoring.models import Match, Membership, Person, Player, Round, Table, TableSeat, Team, Tournament
from scoring.participants import persons
from scoring.results import sheet

PASSWORD = "pw-Secret-123"

#: Record of a plain Tai Pan hand: NS 75, EW 25 card points, N out first, no calls.
PLAIN_HAND = {"calls": {}, "first_out": "N", "double_victory": None, "card_points": {"NS": 75, "EW": 25}}
#: A Tai Pan hand with N's Tai Pan made (+100) and NS out first: NS 175, EW 25.
TAI_PAN_HAND = {"calls": {"N": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 75, "EW": 25}}
#: A double victory of NS: NS 200, EW 0.
DOUBLE_VICTORY_NS = {"calls": {}, "first_out": "N", "double_victory": "NS", "card_points": None}
#: N calls Grand Tai Pan and NS win a double victory: NS 400, EW 0 (two of them reach the target 800).
GRAND_DOUBLE_VICTORY_NS = {"calls": {"N": "grand_tai_pan"}, "first_out": "N", "double_victory": "NS", "card_points": None}
#: A Sichuan self-drawn win by East: all chows, one pair, no fan items -> base 1, each other player
#: pays 1 + 1 for the self-draw (docs/engines/sichuan.md): East +6, the others -2 each.
SICHUAN_SELF_DRAW = {"events": [{"type": "win", "player": "E", "hand": {
    "void": "s", "melds": [], "concealed": "123m 456m 789m 123p 55p",
    "win": {"tile": "5p", "how": "self", "after_kong": False, "last_tile": False}}}], "exhaustion": None}
#: A first record of each kind of result (``"match"``: Tai Pan, ``"table"``: Sichuan) and the
#: scores per side it gives.
RECORDS = {"match": (PLAIN_HAND, [75, 25]), "table": (SICHUAN_SELF_DRAW, [6, -2, -2, -2])}


class UserFactory(factory.django.DjangoModelFactory):
    """A user with the password :data:`PASSWORD`."""

    class Meta:
        model = get_user_model()
        django_get_or_create = ("username",)
        skip_postgeneration_save = True

    username = factory.Sequence(lambda n: f"user{n}")
    password = factory.PostGenerationMethodCall("set_password", PASSWORD)

    @factory.post_generation
    def saved(obj, create, extracted, **kwargs):  # noqa: N805 - factory-boy hook
        if create:
            obj.save()


class TournamentFactory(factory.django.DjangoModelFactory):
    """A tournament (Tai Pan, NSKT rules, target format unless told otherwise)."""

    class Meta:
        model = Tournament
        django_get_or_create = ("slug",)

    name = factory.Sequence(lambda n: f"Tournament {n}")
    slug = factory.Sequence(lambda n: f"t{n}")
    game = "taipan"
    rules = factory.LazyAttribute(lambda o: "nskt" if o.game == "taipan" else {})


class MembershipFactory(factory.django.DjangoModelFactory):
    """A user's role in a tournament (referee unless told otherwise)."""

    class Meta:
        model = Membership

    tournament = factory.SubFactory(TournamentFactory)
    user = factory.SubFactory(UserFactory)
    role = Membership.Role.REFEREE


class PersonFactory(factory.django.DjangoModelFactory):
    """A person across tournaments (issue 26)."""

    class Meta:
        model = Person

    name = factory.Sequence(lambda n: f"Person {n}")


class PlayerFactory(factory.django.DjangoModelFactory):
    """A player of a tournament, linked to its person as registration does
    (:func:`scoring.participants.persons.attach`: by ``federation_number``, else a new person);
    ``person=someone`` enters that person."""

    class Meta:
        model = Player

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Player {n}")

    @classmethod
    def _create(cls, model_class, *args, **kwargs):
        player = model_class(*args, **kwargs)
        if player.person_id is None:
            persons.attach([player])
        player.save()
        return player


class TeamFactory(factory.django.DjangoModelFactory):
    """A Tai Pan team of two new players."""

    class Meta:
        model = Team

    tournament = factory.SubFactory(TournamentFactory)
    name = factory.Sequence(lambda n: f"Team {n}")
    first_player = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))
    second_player = factory.SubFactory(PlayerFactory, tournament=factory.SelfAttribute("..tournament"))


def move_round(rnd: Round, status: str) -> Round:
    """Walk ``rnd`` from draft to ``status`` through its transitions (no checks of its tables)."""
    order = [Round.Status.DRAFT, Round.Status.PUBLISHED, Round.Status.IN_PROGRESS, Round.Status.CLOSED]
    steps = {Round.Status.PUBLISHED: rnd.publish, Round.Status.IN_PROGRESS: rnd.start, Round.Status.CLOSED: rnd.close}
    for target in order[order.index(rnd.status) + 1: order.index(status) + 1]:
        steps[target]()
    rnd.save(update_fields=["status"])
    if status != Round.Status.DRAFT and rnd.tournament.status == Tournament.Status.SETUP:
        rnd.tournament.start()
        rnd.tournament.save(update_fields=["status"])
    return rnd


class RoundFactory(factory.django.DjangoModelFactory):
    """A round, created as a draft and moved to ``status`` (default published)."""

    class Meta:
        model = Round
        skip_postgeneration_save = True

    tournament = factory.SubFactory(TournamentFactory)
    number = factory.Sequence(lambda n: n + 1)

    @factory.post_generation
    def status(obj, create, extracted, **kwargs):  # noqa: N805 - factory-boy hook
        if create:
            move_round(obj, extracted or Round.Status.PUBLISHED)


class MatchFactory(factory.django.DjangoModelFactory):
    """A Tai Pan match between two new teams of the round's tournament (``team_ew=None``: a bye)."""

    class Meta:
        model = Match

    round = factory.SubFactory(RoundFactory)
    table = factory.Sequence(lambda n: n + 1)
    team_ns = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..round.tournament"))
    team_ew = factory.SubFactory(TeamFactory, tournament=factory.SelfAttribute("..round.tournament"))


class TableFactory(factory.django.DjangoModelFactory):
    """A four-player table with four new players seated 0..3 (``players=[...]`` seats those)."""

    class Meta:
        model = Table
        skip_postgeneration_save = True

    round = factory.SubFactory(RoundFactory, tournament=factory.SubFactory(TournamentFactory, game="sichuan"))
    number = factory.Sequence(lambda n: n + 1)
    state = factory.LazyAttribute(lambda o: o.round.tournament.adapter.initial_state())

    @factory.post_generation
    def players(obj, create, extracted, **kwargs):  # noqa: N805 - factory-boy hook
        if not create:
            return
        players = list(extracted) if extracted else [PlayerFactory(tournament=obj.round.tournament) for _ in range(4)]
        TableSeat.objects.bulk_create(TableSeat(table=obj, seat=i, player=p) for i, p in enumerate(players))


def organiser_of(*tournaments: Tournament, **user_fields):
    """A new user (``user_fields`` for :class:`UserFactory`) who organises every one of
    ``tournaments``."""
    user = UserFactory(**user_fields)
    for t in tournaments:
        MembershipFactory(tournament=t, user=user, role=Membership.Role.ORGANISER)
    return user


def staff(tournament: Tournament, *, referees: int = 2, organisers: int = 1) -> dict:
    """Members of ``tournament``: ``{"organiser": user, "referees": [users], "outsider": user}``
    (the outsider has no role in it)."""
    organiser_users = [MembershipFactory(tournament=tournament, role=Membership.Role.ORGANISER).user for _ in range(organisers)]
    referee_users = [MembershipFactory(tournament=tournament).user for _ in range(referees)]
    return {"organiser": organiser_users[0] if organiser_users else None, "organisers": organiser_users,
            "referees": referee_users, "referee": referee_users[0] if referee_users else None,
            "outsider": UserFactory()}


def taipan_round(*, tables: int = 1, status: str = Round.Status.PUBLISHED, **tournament_kwargs) -> tuple[Round, list[Match]]:
    """A Tai Pan tournament with one round of ``tables`` matches (two new teams each)."""
    tournament = TournamentFactory(**tournament_kwargs)
    rnd = RoundFactory(tournament=tournament, number=1, status=status)
    return rnd, [MatchFactory(round=rnd, table=i) for i in range(1, tables + 1)]


def table_round(game: str = "sichuan", *, tables: int = 1, status: str = Round.Status.PUBLISHED,
                names: list[str] | None = None, **tournament_kwargs) -> tuple[Round, list[Table]]:
    """A four-player tournament of ``game`` with one round of ``tables`` seated tables (``names``:
    the players seated 0..3 at table 1)."""
    tournament = TournamentFactory(game=game, **tournament_kwargs)
    rnd = RoundFactory(tournament=tournament, number=1, status=status)
    named = [PlayerFactory(tournament=tournament, name=n) for n in names] if names else None
    return rnd, [TableFactory(round=rnd, number=i, players=named if i == 1 else None) for i in range(1, tables + 1)]


def one_result(kind: str = "match", *, status: str = Round.Status.PUBLISHED, **tournament_kwargs) -> tuple[Match | Table, dict]:
    """A result of either kind (``"match"``: a Tai Pan match, ``"table"``: a Sichuan table) in round
    1, and its tournament's :func:`staff` (three referees). Records: :data:`RECORDS`."""
    if kind == "match":
        rnd, (container,) = taipan_round(status=status, **tournament_kwargs)
    else:
        rnd, (container,) = table_round("sichuan", status=status, **tournament_kwargs)
    return container, staff(rnd.tournament, referees=3)


def named_teams(tournament: Tournament, names: list[str]) -> list[Team]:
    """Teams of ``tournament`` called ``names``, the players of team X called "X A" and "X B"."""
    return [TeamFactory(tournament=tournament, name=n, first_player__name=f"{n} A", second_player__name=f"{n} B") for n in names]


def closed_round(tournament: Tournament, pairs: list[tuple[Team, Team]], *, referee, confirmer, organiser,
                 number: int = 1, bye: Team | None = None) -> Round:
    """Round ``number`` of a Tai Pan tournament, played and closed: at each table of ``pairs``
    (team NS, team EW) NS wins 800:0 (two hands :data:`GRAND_DOUBLE_VICTORY_NS` entered by
    ``referee``, confirmed by ``confirmer``); ``bye``: a team with the bye (the last table)."""
    rnd = RoundFactory(tournament=tournament, number=number)
    for table, (ns, ew) in enumerate(pairs, start=1):
        match = MatchFactory(round=rnd, table=table, team_ns=ns, team_ew=ew)
        for _ in range(2):
            sheet.add_record(match, GRAND_DOUBLE_VICTORY_NS, referee)
        sheet.confirm(match, confirmer)
    if bye is not None:
        sheet.recompute(MatchFactory(round=rnd, table=len(pairs) + 1, team_ns=bye, team_ew=None))
    return rounds.close_round(rnd, organiser)


# --------------------------------------------------------------------------- results through the sheet


#: One deal per four-player game with its net result per seat, worked out from the rules
#: (engine defaults):
#: - Sichuan: East self-draws all chows and a pair, no fan items: base 1, every other player
#:   pays 1 + 1 for the self-draw -> E +6, S/W/N -2 (docs/engines/sichuan.md, case S02).
#: - Taiwanese: South self-draws a half flush with a dragon pung (4 + 1 + 1 self-drawn = 6 tai,
#:   base 3 + 2 per tai = 15 from W and N, East as dealer pays 2 more) -> E -17, S +47,
#:   W -15, N -15 (case T01).
#: - Tien Gow: banker seat 1 settles columns 2/3/3/0, the second player takes the last trick
#:   with an ordinary group -> [-4, 10, -1, -5], the bank passes to seat 2 (case S-01).
DEALS = {
    "sichuan": ({"events": [{"type": "win", "player": "E", "hand": {
        "void": "s", "melds": [], "concealed": "123m 456m 789m 123p 55p",
        "win": {"tile": "5p", "how": "self", "after_kong": False, "last_tile": False}}}], "exhaustion": None},
        [6, -2, -2, -2]),
    "taiwanese": ({"seat": "S", "flowers": [], "melds": ["pung 555z claimed"], "concealed": "123p 456p 789p 222p 99p",
                   "win": {"tile": "6p", "how": "self"}, "flags": []},
                  [-17, 47, -15, -15]),
    "tiengow": ({"mode": "settle", "columns": [2, 3, 3, 0], "last_trick": {"winner": 1, "group": "ordinary"}, "immediate": []},
                [-4, 10, -1, -5]),
}


def play(container, records, referee, *, end_reason: str = "", confirmer=None):
    """Enter ``records`` on a match or table through the result sheet as ``referee``; end it at
    the time limit with ``end_reason`` when still unfinished; confirm it by ``confirmer`` (another
    person) when given. Returns ``container`` (refreshed)."""
    for record in records:
        sheet.add_record(container, record, referee, expected_version=container.version)
    if end_reason and container.status != container.Status.FINISHED:
        sheet.end_at_time(container, referee, expected_version=container.version, reason=end_reason)
    if confirmer is not None:
        sheet.confirm(container, confirmer, expected_version=container.version)
    return container


def confirm_round(rnd: Round, referee, confirmer) -> Round:
    """Play and confirm every open result of ``rnd`` (byes need nothing) through the result sheet:
    its game's test kit's ``finishing`` records (tests/games/kits.py): a Tai Pan match gets two
    :data:`GRAND_DOUBLE_VICTORY_NS` hands (NS wins 800 : 0), a four-player table its game's deal
    of :data:`DEALS` and is ended at the time limit; each is
    confirmed by ``confirmer``. The round is left open (close it with
    :func:`scoring.draw.rounds.close_round`)."""
    from tests.games.kits import kit

    records = kit(rnd.tournament.game).finishing
    for container in containers(rnd).order_by("pk"):
        if getattr(container, "is_bye", False) or container.status == container.Status.CONFIRMED:
            continue
        play(container, [] if container.status == container.Status.FINISHED else records, referee,
             end_reason="time limit", confirmer=confirmer)
    return rnd


def finish_result(container, actor=None):
    """Finish ``container`` through the result sheet (:func:`play`, entered by ``actor``, default
    the trusted :data:`scoring.policy.SYSTEM`): a Tai Pan match by four double victories of NS
    (800 : 0, the NSKT target), a four-player table by :data:`SICHUAN_SELF_DRAW` ended at the
    time limit."""
    from scoring.policy import SYSTEM

    records = [DOUBLE_VICTORY_NS] * 4 if isinstance(container, Match) else [SICHUAN_SELF_DRAW]
    return play(container, records, actor or SYSTEM, end_reason="time")


def confirm_result(container, confirmer, actor=None):
    """Finish ``container`` (:func:`finish_result`) and confirm it as ``confirmer`` (a member who
    entered nothing)."""
    from scoring.policy import SYSTEM

    records = [DOUBLE_VICTORY_NS] * 4 if isinstance(container, Match) else [SICHUAN_SELF_DRAW]
    return play(container, records, actor or SYSTEM, end_reason="time", confirmer=confirmer)


def form_data(*forms) -> dict:
    """The POST data a browser sends for unbound Django ``forms`` (or formsets, with their
    management form) as rendered with their initial values: unchecked boxes left out."""
    from django import forms as django_forms
    from django.forms.formsets import BaseFormSet

    data: dict = {}
    for form in forms:
        if isinstance(form, BaseFormSet):
            data.update(form_data(form.management_form, *form.forms))
            continue
        for bound in form:
            value = bound.value()
            if isinstance(bound.field, django_forms.BooleanField):
                if value:
                    data[bound.html_name] = "on"
                continue
            if value is None:
                value = ""
            elif hasattr(value, "isoformat"):
                value = value.isoformat()
            data[bound.html_name] = list(value) if isinstance(value, (list, tuple)) else value
    return data


def entry_data(container, record: dict, **extra) -> dict:
    """POST data of the referee's entry form (the container's game) holding ``record``, with the
    container's current ``version``; ``extra`` added (``reason=...``)."""
    from django.forms.formsets import BaseFormSet

    outer = container.round.tournament.adapter.entry(initial=record, settings=container.round.tournament)
    entry = getattr(outer, "active", outer)  # quick or full entry (scoring.games.quick): the part the record opens in
    formsets = [v for v in vars(entry).values() if isinstance(v, BaseFormSet)]
    in_formsets = {id(f) for fs in formsets for f in fs.forms}
    data = form_data(*formsets, *[f for f in entry.forms if id(f) not in in_formsets])
    if getattr(outer, "mode_form", None) is not None:
        data["entrymode"] = outer.mode
    data["version"] = container.version
    data.update(extra)
    return data


def circle_pairs(n: int, r: int) -> list[tuple[int, int]]:
    """Round ``r`` (0-based) of the circle method for ``n`` (even) entrants: index pairs, no
    pair twice while ``r < n - 1``."""
    rest = list(range(1, n))
    rest = rest[r % (n - 1):] + rest[: r % (n - 1)]
    order = [0, *rest]
    return [(order[i], order[n - 1 - i]) for i in range(n // 2)]


def played_taipan_tournament(n_teams: int, n_rounds: int, *, status: str = Round.Status.CLOSED,
                             totals: tuple[int, int] = (800, 300), **tournament_kwargs) -> Tournament:
    """A Tai Pan tournament (NSKT) with ``n_teams`` teams ``Team 000``... (players ``Player 000``...,
    affiliation ``SV``, seeds 1..n) and ``n_rounds`` rounds in ``status`` paired by the circle
    method (:func:`circle_pairs`), every match confirmed with NS ``totals[0]`` : EW ``totals[1]``
    (the NS team wins, match points 2 : 0) and the pairing reason "Same score group (0 match
    points)". Built with ``bulk_create`` (a few queries whatever the size): for pages and
    standings of large tournaments; the matches have no hands."""
    t = TournamentFactory(**tournament_kwargs)
    if status != Round.Status.DRAFT and t.status == Tournament.Status.SETUP:
        Tournament.objects.filter(pk=t.pk).update(status=Tournament.Status.RUNNING)
        t.refresh_from_db()
    players = Player.objects.bulk_create(persons.attach([Player(tournament=t, name=f"Player {i:03d}") for i in range(2 * n_teams)]))
    teams = Team.objects.bulk_create([
        Team(tournament=t, name=f"Team {i:03d}", affiliation="SV", first_player=players[2 * i],
             second_player=players[2 * i + 1], seed=i + 1) for i in range(n_teams)])
    rounds = Round.objects.bulk_create([Round(tournament=t, number=r + 1, status=status) for r in range(n_rounds)])
    ns_total, ew_total = totals
    Match.objects.bulk_create([
        Match(round=rnd, table=table, team_ns=teams[a], team_ew=teams[b], status=Match.Status.CONFIRMED,
              total_ns=ns_total, total_ew=ew_total, points_ns=2, points_ew=0, winner=teams[a], ended=Match.Ended.TARGET,
              pairing_note="Same score group (0 match points)",
              pairing_reason={"template": "Same score group ({points} match points)", "params": {"points": 0}})
        for r, rnd in enumerate(rounds) for table, (a, b) in enumerate(circle_pairs(n_teams, r), start=1)])
    return t


def round_of_teams(tournament: Tournament, number: int = 1, status: str = Round.Status.DRAFT) -> Round:
    """Round ``number`` of ``tournament`` in ``status`` pairing its teams in name order (1st - 2nd
    at table 1, 3rd - 4th at table 2, ...; an odd last team is left out), no results."""
    rnd = RoundFactory(tournament=tournament, number=number, status=status)
    teams = list(tournament.teams.order_by("name"))
    for i in range(0, len(teams) - 1, 2):
        MatchFactory(round=rnd, table=i // 2 + 1, team_ns=teams[i], team_ew=teams[i + 1])
    return rnd
