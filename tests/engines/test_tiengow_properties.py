"""Property tests (hypothesis) for Tien Gow: random legal deals played by the random player of
``engines.tiengow.simulate`` (random hands from the 32 tiles, random legal plays) always give eight
columns and zero-sum payments, and the ``deal`` command derives exactly the generator's result;
records with a tile played twice or a wrong number of tiles are rejected (docs/engines/tiengow.md)."""
import copy
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engines import run
from engines.errors import RuleViolation
from engines.tiengow.simulate import random_deal

SETTINGS = settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])

deals = st.builds(
    lambda seed, banker, p, keep: random_deal(random.Random(seed), banker=banker, beat_probability=p, keep=keep),
    st.integers(0, 2**32 - 1), st.integers(0, 3), st.floats(0.0, 1.0),
    # keeping 1-2 and 2-4 back makes last single tricks led with the Little Three (the catch) common
    st.sampled_from([frozenset(), frozenset({"1-2", "2-4"})]),
)


@SETTINGS
@given(deals)
def test_random_legal_deal_is_derived_exactly(sim):
    out = run("tiengow", "deal", sim.record)
    assert sum(out["columns"]) == 8
    assert out["columns"] == sim.columns
    assert [t["winner"] for t in out["tricks"]] == sim.winners
    assert out["next_banker"] == sim.next_banker == sim.winners[-1]
    # leaders chain: banker first, then each trick's winner
    assert [t["leader"] for t in out["tricks"]] == [sim.record["banker"], *sim.winners[:-1]]
    assert sum(out["net"]) == 0
    assert sum(out["immediate_net"]) == 0 and sum(out["final"]["net"]) == 0
    # the generator settles at settlement level; the deal must give the same payments
    expected = run("tiengow", "settle", sim.settle_input)
    assert out["net"] == expected["net"]
    assert out["final"] == expected["final"]
    assert [(e["winner"], e["group"]) for e in out["immediate"]] == [(e["winner"], e["group"]) for e in expected["immediate"]]
    # and the deal's own settlement-level summary settles the same
    assert run("tiengow", "settle", out["settlement"])["net"] == out["net"]


@SETTINGS
@given(deals)
def test_record_without_hands_gives_the_same_result(sim):
    record = copy.deepcopy(sim.record)
    del record["hands"]
    assert run("tiengow", "deal", record)["net"] == run("tiengow", "deal", sim.record)["net"]


@SETTINGS
@given(deals, st.data(), st.booleans())
def test_a_tile_played_twice_is_rejected(sim, data, with_hands):
    record = copy.deepcopy(sim.record)
    if not with_hands:
        del record["hands"]
    slots = [(i, j, k) for i, t in enumerate(record["tricks"]) for j, p in enumerate(t["plays"]) for k in range(len(p["tiles"]))]
    target = data.draw(st.sampled_from(slots))
    ti, tj, tk = target
    old = record["tricks"][ti]["plays"][tj]["tiles"][tk]
    sources = [s for s in slots if record["tricks"][s[0]]["plays"][s[1]]["tiles"][s[2]] != old]
    si, sj, sk = data.draw(st.sampled_from(sources))
    record["tricks"][ti]["plays"][tj]["tiles"][tk] = record["tricks"][si]["plays"][sj]["tiles"][sk]
    try:
        run("tiengow", "deal", record)
    except RuleViolation as exc:
        assert any(".tiles" in v.field or v.field.endswith("face_up") for v in exc.violations), exc
    else:
        raise AssertionError("a record with a tile played twice was accepted")


@SETTINGS
@given(deals, st.data())
def test_a_wrong_number_of_tiles_is_rejected(sim, data):
    record = copy.deepcopy(sim.record)
    i = data.draw(st.integers(0, len(record["tricks"]) - 1))
    j = data.draw(st.integers(1, 3))
    play = record["tricks"][i]["plays"][j]
    if len(play["tiles"]) > 1 and data.draw(st.booleans()):
        play["tiles"].pop()
    else:
        play["tiles"].append(data.draw(st.sampled_from(["6-6", "1-2", "4-5", "2-2"])))
    try:
        run("tiengow", "deal", record)
    except RuleViolation as exc:
        assert any(v.field.startswith(f"tricks[{i}].plays[{j}].tiles") for v in exc.violations), exc
    else:
        raise AssertionError("a record with a wrong number of tiles was accepted")


@settings(max_examples=200, deadline=None)
@given(st.lists(st.integers(0, 8), min_size=3, max_size=3).map(sorted), st.integers(0, 3), st.data())
def test_settlement_is_zero_sum_and_losers_below_four_pay(cuts, banker, data):
    columns = [cuts[0], cuts[1] - cuts[0], cuts[2] - cuts[1], 8 - cuts[2]]  # any four counts summing to 8
    winner = data.draw(st.sampled_from([s for s in range(4) if columns[s] >= 1]))
    out = run("tiengow", "settle", {"banker": banker, "columns": columns,
                                    "last_trick": {"winner": winner, "group": "ordinary"}, "immediate": []})
    assert sum(out["net"]) == 0
    for seat in range(4):
        if seat == winner:
            continue
        factor = 2 if banker in (seat, winner) else 1
        factor *= 2 if columns[winner] == 8 else 1
        expected = -(5 if columns[seat] == 0 else 4 - columns[seat]) * factor if columns[seat] < 4 else (columns[seat] - 4) * factor
        assert out["net"][seat] == expected
    assert out["next_banker"] == winner
