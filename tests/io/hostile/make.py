"""Writes the hostile tournament files of this folder (issue 12 item 3), each derived from a real
export (each game's ``tests/games/<game>/export.json``, checked and, with ``REFRESH_EXPORTS=1``, written by
``tests/io/test_tournament_json.py::test_base_files_are_real_exports`` from the played tournaments of
``tests/io/played.py``). Every file must be refused by
``manage.py import_tournament``: exit status 1, every problem with its JSON path, no traceback,
nothing created. Run ``python tests/io/hostile/make.py`` after changing a base file; the test
``test_hostile_files_are_up_to_date`` checks the folder matches.

The first 27 are the kinds issue 12 lists (tracebacks and invalid files imported on main), then
more Tai Pan ones, then four-player ones (``fp-``)."""
from __future__ import annotations

import copy
import json
import sys
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
GAMES = HERE.parents[1] / "games"


def base(game: str = "taipan") -> dict:
    """The export of ``game``'s played tournament (its test kit's ``export.json``)."""
    return json.loads((GAMES / game / "export.json").read_text(encoding="utf-8"))


def text(data) -> str:
    return json.dumps(data, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def mutate(game: str, change: Callable[[dict], object]) -> str:
    data = copy.deepcopy(base(game))
    change(data)
    return text(data)


def setitem(path: list, value) -> Callable[[dict], None]:
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        target[path[-1]] = value
    return change


def delitem(path: list) -> Callable[[dict], None]:
    def change(data):
        target = data
        for key in path[:-1]:
            target = target[key]
        del target[path[-1]]
    return change


def both(*changes) -> Callable[[dict], None]:
    def change(data):
        for c in changes:
            c(data)
    return change


def _duplicate_round(data):
    data["rounds"].append(copy.deepcopy(data["rounds"][1]))


def _team_twice(data):
    # Team 0 also at a second table of round 2 (against Team 1)
    data["rounds"][1]["matches"].append({"table": 2, "ns": "Team 1", "ew": "Team 0", "hands": [], "ended": None,
                                         "pairing_note": "", "confirmed_by": None})


def _deep_text() -> str:
    return '{"name": "x", "slug": "x", "rules": ' + "[" * 100_000 + "]" * 100_000 + "}\n"


TAIPAN: dict[str, Callable[[], str]] = {
    # -- ended in a traceback on main (12)
    "01-deep-nesting.json": _deep_text,
    "02-huge-seed.json": lambda: mutate("taipan", setitem(["seed"], 10**40)),
    "03-non-numeric-seed.json": lambda: mutate("taipan", setitem(["seed"], "seven")),
    "04-round-number-one-as-text.json": lambda: mutate("taipan", setitem(["rounds", 0, "number"], "one")),
    "05-negative-round-number.json": lambda: mutate("taipan", setitem(["rounds", 1, "number"], -2)),
    "06-duplicate-round.json": lambda: mutate("taipan", _duplicate_round),
    "07-teams-as-a-string.json": lambda: mutate("taipan", setitem(["teams"], "Team 0, Team 1, Team 2")),
    "08-team-without-a-name.json": lambda: mutate("taipan", delitem(["teams", 1, "name"])),
    "09-team-name-null.json": lambda: mutate("taipan", setitem(["teams", 1, "name"], None)),
    "10-invalid-date.json": lambda: mutate("taipan", setitem(["starts_on"], "2024-02-30")),
    "11-negative-table.json": lambda: mutate("taipan", setitem(["rounds", 0, "matches", 0, "table"], -1)),
    "12-negative-joined-round.json": lambda: mutate("taipan", setitem(["teams", 0, "joined_round"], -3)),
    # -- imported on main although invalid (8)
    "13-team-plays-itself.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "ew"], "Team 2")),
    "14-team-twice-in-a-round.json": lambda: mutate("taipan", _team_twice),
    "15-game-chess.json": lambda: mutate("taipan", setitem(["game"], "chess")),
    "16-bogus-tournament-status.json": lambda: mutate("taipan", setitem(["status"], "exploded")),
    "17-bogus-round-status.json": lambda: mutate("taipan", setitem(["rounds", 0, "status"], "whatever")),
    "18-bogus-tiebreaks.json": lambda: mutate("taipan", setitem(["tiebreaks"], ["buchholz", "coin_toss"])),
    "19-slug-path-traversal.json": lambda: mutate("taipan", setitem(["slug"], "../../x y")),
    "20-slug-bad-characters.json": lambda: mutate("taipan", setitem(["slug"], "bad slug!")),
    # -- confirmed_by, presets, rules (7)
    "21-unknown-preset.json": lambda: mutate("taipan", setitem(["rules"], "house-rules")),
    "22-hand-breaks-the-rules.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "hands", 0, "card_points"], {"NS": 55, "EW": 55})),
    "23-unknown-team-in-a-match.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "ew"], "Nobody")),
    "24-bye-with-hands.json": lambda: mutate("taipan", setitem(["rounds", 0, "matches", 1, "hands"], base()["rounds"][0]["matches"][0]["hands"])),
    "25-closed-round-unconfirmed.json": lambda: mutate("taipan", setitem(["rounds", 0, "matches", 0, "confirmed_by"], None)),
    "26-confirmation-of-unfinished-match.json": lambda: mutate("taipan", both(
        setitem(["rounds", 1, "matches", 0, "ended"], None), setitem(["rounds", 1, "matches", 0, "confirmed_by"], "conf"))),
    "27-confirmed-by-not-a-username.json": lambda: mutate("taipan", setitem(["rounds", 0, "matches", 0, "confirmed_by"], "root; DROP TABLE")),
    # -- more (Tai Pan)
    "28-three-players.json": lambda: mutate("taipan", setitem(["teams", 0, "players"], ["A", "B", "C"])),
    "29-nul-byte-in-a-name.json": lambda: mutate("taipan", both(setitem(["teams", 0, "name"], "Team\u00000"),
                                                               setitem(["rounds", 0, "matches", 0, "ns"], "Team\u00000"))),
    "30-zero-width-name.json": lambda: mutate("taipan", setitem(["teams", 1, "name"], "Team\u200b 0")),
    "31-case-variant-duplicate-team.json": lambda: mutate("taipan", setitem(["teams", 1, "name"], "TEAM 0")),
    "32-name-too-long.json": lambda: mutate("taipan", setitem(["teams", 0, "players", 0], "P" * 121)),
    "33-not-json.json": lambda: "this is not JSON {\n",
    "34-top-level-array.json": lambda: text([base()]),
    "35-unknown-field.json": lambda: mutate("taipan", setitem(["is_superuser"], True)),
    "36-ended-target-but-unfinished.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "ended"], "target")),
    "37-seed-as-text-number.json": lambda: mutate("taipan", setitem(["teams", 0, "seed"], "7")),
    "38-boolean-as-text.json": lambda: mutate("taipan", setitem(["blind_confirmation"], "yes")),
    "39-plays-after-withdrawal.json": lambda: mutate("taipan", setitem(["teams", 2, "withdrawn_after_round"], 1)),
    "40-hands-per-round-zero.json": lambda: mutate("taipan", both(setitem(["round_format"], "fixed_hands"), setitem(["hands_per_round"], 0))),
    "41-draft-round-not-last.json": lambda: mutate("taipan", setitem(["rounds", 0, "status"], "draft")),
    "42-registration-with-played-rounds.json": lambda: mutate("taipan", setitem(["status"], "setup")),
    "43-finished-with-open-round.json": lambda: mutate("taipan", setitem(["status"], "finished")),
    "44-huge-table-number.json": lambda: mutate("taipan", setitem(["rounds", 0, "matches", 0, "table"], 2**31)),
    "45-hand-is-not-an-object.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "hands"], ["800:0"])),
    "46-players-in-a-taipan-file.json": lambda: mutate("taipan", setitem(["players"], [{"name": "X"}])),
    "47-rules-override-out-of-range.json": lambda: mutate("taipan", setitem(["rules"], {"preset": "nskt", "target": -5})),
    "48-format-version-2.json": lambda: mutate("taipan", setitem(["format"], 2)),
    "49-member-role-superuser.json": lambda: mutate("taipan", setitem(["members", 0, "role"], "superuser")),
    "50-accent-variant-duplicate-team.json": lambda: mutate("taipan", setitem(["teams", 1, "name"], "Téam 0")),
    "51-unknown-field-in-a-hand.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "hands", 0, "evil"], {"blob": "x"})),
    "52-long-string-in-a-hand.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "hands", 0, "evil"], {"blob": "x" * 10_001})),
    "53-hand-too-large.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "hands", 0, "evil"], ["x" * 1000] * 21)),
    "54-hand-nested-too-deep.json": lambda: mutate("taipan", setitem(["rounds", 1, "matches", 0, "hands", 0, "evil"], [[[[[[[[[1]]]]]]]]])),
    "55-long-string-in-the-rules.json": lambda: mutate("taipan", setitem(["rules"], {"preset": "nskt", "note": "x" * 10_001})),
}


def _seat_twice(data):
    table = data["rounds"][1]["tables"][0]
    table["seats"][1] = table["seats"][0]


def _player_twice_in_round(data):
    data["rounds"][1]["tables"][1]["seats"][0] = data["rounds"][1]["tables"][0]["seats"][0]


FOUR: dict[str, Callable[[], str]] = {
    "fp-01-sichuan-teams-instead-of-players.json": lambda: mutate("sichuan", setitem(["teams"], base()["teams"])),
    "fp-02-sichuan-three-seats.json": lambda: mutate("sichuan", setitem(["rounds", 1, "tables", 0, "seats"], ["SI 0", "SI 4", "SI 1"])),
    "fp-03-sichuan-same-player-twice-at-a-table.json": lambda: mutate("sichuan", _seat_twice),
    "fp-04-sichuan-player-twice-in-a-round.json": lambda: mutate("sichuan", _player_twice_in_round),
    "fp-05-sichuan-unknown-player.json": lambda: mutate("sichuan", setitem(["rounds", 1, "tables", 0, "seats", 2], "Ghost")),
    "fp-06-sichuan-deal-breaks-the-rules.json": lambda: mutate("sichuan", setitem(
        ["rounds", 1, "tables", 0, "deals", 0, "events", 0, "hand", "concealed"], "123m 456m 789m 123p 56p")),
    "fp-07-taiwanese-bad-seat-in-a-deal.json": lambda: mutate("taiwanese", setitem(["rounds", 1, "tables", 0, "deals", 0, "seat"], "X")),
    "fp-08-tiengow-columns-do-not-add-up.json": lambda: mutate("tiengow", setitem(["rounds", 1, "tables", 0, "deals", 0, "columns"], [9, 9, 9, 9])),
    "fp-09-tiengow-matches-instead-of-tables.json": lambda: mutate("tiengow", setitem(["rounds", 1, "matches"], [])),
    "fp-10-taiwanese-duplicate-table-number.json": lambda: mutate("taiwanese", setitem(["rounds", 1, "tables", 1, "table"], 1)),
    "fp-11-sichuan-confirmed-but-playing.json": lambda: mutate("sichuan", setitem(["rounds", 1, "tables", 0, "confirmed_by"], "conf")),
    "fp-12-tiengow-substitute-as-text.json": lambda: mutate("tiengow", setitem(["players", 8, "substitute"], "yes")),
    "fp-13-sichuan-withdrawn-player-seated.json": lambda: mutate("sichuan", setitem(["players", 4, "withdrawn_after_round"], 1)),
    "fp-14-taiwanese-closed-round-unconfirmed.json": lambda: mutate("taiwanese", setitem(["rounds", 0, "tables", 1, "confirmed_by"], None)),
    "fp-15-tiengow-deal-is-a-list.json": lambda: mutate("tiengow", setitem(["rounds", 0, "tables", 0, "deals"], [[1, 2, 3]])),
    "fp-16-sichuan-ended-time-but-no-end.json": lambda: mutate("sichuan", setitem(["rounds", 1, "tables", 1, "ended"], "target")),
    "fp-17-sichuan-unknown-field-in-a-deal.json": lambda: mutate("sichuan", setitem(["rounds", 1, "tables", 0, "deals", 0, "evil"], 1)),
    "fp-18-sichuan-unknown-field-in-a-winning-hand.json": lambda: mutate("sichuan", setitem(
        ["rounds", 1, "tables", 0, "deals", 0, "events", 0, "hand", "win", "evil"], True)),
    "fp-19-tiengow-unknown-field-in-the-last-trick.json": lambda: mutate("tiengow", setitem(
        ["rounds", 1, "tables", 0, "deals", 0, "last_trick", "evil"], "x")),
    "fp-20-taiwanese-unknown-field-in-a-deal.json": lambda: mutate("taiwanese", setitem(["rounds", 1, "tables", 0, "deals", 0, "evil"], {})),
    "fp-21-tiengow-long-string-in-a-deal.json": lambda: mutate("tiengow", setitem(["rounds", 1, "tables", 0, "deals", 0, "mode"], "x" * 10_001)),
}

FILES = {**TAIPAN, **FOUR}


def write() -> list[str]:
    """Write every hostile file; returns their names."""
    for name, make in FILES.items():
        (HERE / name).write_text(make(), encoding="utf-8")
    return list(FILES)


if __name__ == "__main__":
    names = write()
    print(f"{len(names)} hostile files written to {HERE}", file=sys.stderr)
