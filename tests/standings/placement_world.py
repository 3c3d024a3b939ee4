"""A small four-player tournament with placement points for the standings and page tests."""
from scoring.models import Round, Table, TableSeat
from tests.factories import PlayerFactory, RoundFactory, TableFactory, TournamentFactory


def seat_table(rnd, number, players, totals, status=Table.Status.FINISHED):
    table = TableFactory(round=rnd, number=number, players=players)
    Table.objects.filter(pk=table.pk).update(status=status)
    for seat, total in enumerate(totals):
        TableSeat.objects.filter(table=table, seat=seat).update(total=total)
    return table


def ema_eight():
    """Eight players, two rounds of two tables (EMA table points 4/2/1/0, ties share).

    Round 1: table 1 A 30, B 10, C -15, D -25 -> A 4, B 2, C 1, D 0;
             table 2 E 10, F 10, G -5, H -15 -> E 3, F 3 (shared first), G 1, H 0.
    Round 2: table 1 A -20, E 40, B -10, F -10 -> E 4, B 1.5, F 1.5 (shared second), A 0;
             table 2 C 5, G 5, D -5, H -5 -> C 3, G 3, D 0.5, H 0.5.
    Placement points: E 7, A 4, C 4, F 4.5, G 4, B 3.5, D 0.5, H 0.5.
    Totals: E 50, A 10, C -10, F 0, G 0, B 0, D -30, H -20."""
    t = TournamentFactory(game="sichuan", placement={"preset": "ema"})
    p = {n: PlayerFactory(tournament=t, name=n) for n in "ABCDEFGH"}
    r1 = RoundFactory(tournament=t, number=1, status=Round.Status.CLOSED)
    r2 = RoundFactory(tournament=t, number=2, status=Round.Status.CLOSED)
    seat_table(r1, 1, [p[n] for n in "ABCD"], [30, 10, -15, -25])
    seat_table(r1, 2, [p[n] for n in "EFGH"], [10, 10, -5, -15])
    seat_table(r2, 1, [p[n] for n in "AEBF"], [-20, 40, -10, -10])
    seat_table(r2, 2, [p[n] for n in "CGDH"], [5, 5, -5, -5])
    return t, p
