"""Command line (docs/engines/index.md):

- ``python -m engines GAME COMMAND [FILE]`` reads one JSON object from FILE (or stdin when FILE is
  absent or ``-``) and prints one JSON object. Exit 0: done. Exit 1: the input breaks the rules;
  stdout is ``{"errors": [{"field", "message"}]}``. Exit 2: unreadable JSON, or an unknown game or
  command (message on stderr).
- ``python -m engines --list`` prints the registered games (:data:`engines.GAMES`, in registration
  order), one JSON object per line: ``{"game", "commands", "presets", "default_preset"}``, the
  command and preset names sorted, the same fields as ``GET /api/v1/engines`` without the label. A
  registered game whose engine package is not installed is left out, as the API leaves it out.
  Exit 0.

Any other arguments: a usage line on stderr, exit 2.
"""
from __future__ import annotations

import json
import sys

import engines
from engines import RuleViolation, UnknownCommand, run

USAGE = "usage: python -m engines GAME COMMAND [FILE]\n       python -m engines --list"


def games() -> list[dict]:
    """What ``--list`` prints: one dict per registered game whose engine is installed, in
    registration order."""
    listed = []
    for game in engines.games():
        try:
            names = sorted(engines.commands(game))
        except UnknownCommand:  # registered, engine package not installed
            continue
        listed.append({"game": game, "commands": names, "presets": sorted(engines.presets(game)),
                       "default_preset": engines.default_preset(game)})
    return listed


def main(argv: list[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if args == ["--list"]:
        for game in games():
            print(json.dumps(game, ensure_ascii=False))
        return 0
    if len(args) not in (2, 3) or any(a.startswith("--") for a in args):
        print(USAGE, file=sys.stderr)
        return 2
    game, command = args[0], args[1]
    source = args[2] if len(args) == 3 else "-"
    try:
        text = sys.stdin.read() if source == "-" else open(source, encoding="utf-8").read()
        data = json.loads(text)
    except (OSError, ValueError, RecursionError) as exc:
        print(f"cannot read JSON input: {type(exc).__name__}: {exc}", file=sys.stderr)
        return 2
    try:
        result = run(game, command, data)
    except UnknownCommand as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except RuleViolation as exc:
        print(json.dumps(exc.to_json(), ensure_ascii=False))
        return 1
    print(json.dumps(result, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
