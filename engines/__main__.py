"""Command line: ``python -m engines GAME COMMAND [FILE]`` (docs/engines/index.md).

Reads one JSON object from FILE (or stdin when FILE is absent or ``-``) and prints one JSON object.
Exit 0: done. Exit 1: the input breaks the rules; stdout is ``{"errors": [{"field", "message"}]}``.
Exit 2: unreadable JSON, or an unknown game or command (message on stderr).
"""
from __future__ import annotations

import json
import sys

from engines import RuleViolation, UnknownCommand, run


def main(argv: list[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    args = sys.argv[1:] if argv is None else argv
    if len(args) not in (2, 3):
        print("usage: python -m engines GAME COMMAND [FILE]", file=sys.stderr)
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
