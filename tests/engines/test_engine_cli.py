"""The engines' command-line contract (docs/engines/index.md): exit codes for bad JSON and unknown names,
and ``--list``, the registered games."""
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _run(*args, stdin=""):
    return subprocess.run([sys.executable, "-m", "engines", *args], input=stdin, capture_output=True, text=True, cwd=ROOT)


def test_unknown_game_exits_2():
    assert _run("chess", "score", stdin="{}").returncode == 2


def test_unreadable_json_exits_2():
    assert _run("taipan", "score", stdin="{not json").returncode == 2


def test_usage_exits_2():
    assert _run("taipan").returncode == 2
    for args in (["--list", "taipan"], ["taipan", "--list"], ["--games"]):
        proc = _run(*args)
        assert proc.returncode == 2 and proc.stdout == "" and "python -m engines --list" in proc.stderr, args


def test_list_prints_one_json_object_per_registered_game():
    """``python -m engines --list``: the games of ``engines.GAMES`` in registration order, one JSON
    object a line, with their sorted command and preset names and the default preset."""
    import json

    import engines

    proc = _run("--list")
    assert proc.returncode == 0 and proc.stderr == ""
    listed = [json.loads(line) for line in proc.stdout.splitlines()]
    assert listed == [{"game": g, "commands": sorted(engines.commands(g)), "presets": sorted(engines.presets(g)),
                       "default_preset": engines.default_preset(g)} for g in engines.GAMES]
    assert len(listed) >= 4


def test_list_leaves_out_a_registered_game_without_its_engine_package():
    import engines
    from engines import __main__ as cli

    engines.register("ghost", "engines.ghost_not_installed")
    try:
        assert "ghost" in engines.GAMES and "ghost" not in [g["game"] for g in cli.games()]
        assert [g["game"] for g in cli.games()] == [g for g in engines.GAMES if g != "ghost"]
    finally:
        engines.unregister("ghost")


def test_deeply_nested_json_is_unreadable_not_a_crash():
    proc = _run("taipan", "score", stdin="[" * 100000)
    assert proc.returncode == 2
    assert "Traceback" not in proc.stderr


def test_non_string_preset_is_a_violation_for_every_game():
    import json

    import engines

    assert len(engines.GAMES) >= 4
    for game in engines.GAMES:  # the games the command line knows (engines/__init__.py registers them)
        for command in sorted(engines.commands(game)):
            for preset in (["nskt"], {}, 3, None):
                proc = _run(game, command, stdin=json.dumps({"rules": {"preset": preset}}))
                assert proc.returncode == 1, (game, command, preset, proc.stderr[-300:])
                errors = json.loads(proc.stdout)["errors"]
                assert errors and all(e["field"] and e["message"] for e in errors)


def test_unhashable_values_in_lists_are_violations_not_crashes():
    """Found by fuzzing: a list or object where a name is expected must be a violation (exit 1)."""
    import json

    hand = {"round_wind": "E", "dealer": "E", "streak": 0, "seat": "S", "flowers": [], "melds": [],
            "concealed": "123m 456m 789m 234p 567s 99s", "win": {"tile": "9s", "how": "self"}}
    for bad in ([[]], [{}], [["heavenly_hand"]]):
        proc = _run("taiwanese", "score", stdin=json.dumps({**hand, "flags": bad}))
        assert proc.returncode == 1, proc.stderr[-300:]
        assert json.loads(proc.stdout)["errors"][0]["field"] == "flags[0]"


def test_messages_with_a_literal_brace_show_it_once_on_the_command_line_and_in_python():
    """The example object in these messages is written ``{{...}}`` in its template (a format string):
    the message shows one brace, on the command line and through ``engines.run``."""
    import json

    import engines
    from engines.errors import RuleViolation

    cases = [("sichuan", "score-hand", "win", 'Say how the hand was won: {"tile": "5p", "how": "discard"}.'),
             ("taiwanese", "score", "win", 'Give the win as an object such as {"tile": "5p", "how": "self"}.')]
    for game, command, field, message in cases:
        data = {"concealed": ["1m", "1m"], "win": "5p"}
        proc = _run(game, command, stdin=json.dumps(data))
        assert proc.returncode == 1, proc.stderr
        assert {"field": field, "message": message} in json.loads(proc.stdout)["errors"]
        try:
            engines.run(game, command, data)
        except RuleViolation as exc:
            assert message in [v.message for v in exc.violations]
            assert "{{" not in exc.to_json().__repr__()
        else:
            raise AssertionError("no violation")


def test_a_template_that_does_not_format_is_shown_as_written():
    from engines.errors import Violation

    assert Violation("x", "Unknown {name}.").message == "Unknown {name}."  # no params given
    assert Violation("x", "Unknown {name}.", {"name": "y"}).message == "Unknown y."
    assert Violation("x", "An object {{}}.").message == "An object {}."
