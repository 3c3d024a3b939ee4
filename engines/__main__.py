"""Command line (docs/engines/index.md):

- ``python -m engines [--max-bytes N] GAME COMMAND [FILE]`` reads one JSON object from FILE (or
  stdin when FILE is absent or ``-``) and prints one JSON object. Exit 0: done. Exit 1: the input
  breaks the rules; stdout is ``{"errors": [{"field", "message"}]}`` with at most the first 50
  violations, plus ``"more_errors": N`` when N more were found (:data:`engines.errors.LIMIT`).
  Exit 2: unreadable JSON, an input over the size limit, or an unknown game or command (message
  on stderr).
- The input is limited as the API limits a request body: at most :data:`MAX_INPUT_BYTES` bytes
  (64 KiB) and :data:`MAX_DEPTH` levels of nesting; ``--max-bytes N`` allows N bytes instead
  (``--max-bytes 0``: no size limit), for a trusted file that is larger.
- ``python -m engines --list`` prints the registered games (:data:`engines.GAMES`, in registration
  order), one JSON object per line: ``{"game", "commands", "presets", "default_preset"}``, the
  command and preset names sorted, the same fields as ``GET /api/v1/engines`` without the label. A
  registered game whose engine package is not installed is left out, as the API leaves it out.
  Exit 0.

Any other arguments: a usage line on stderr, exit 2. Messages are English (the web layer
translates the same violations, docs/engines/index.md).
"""
from __future__ import annotations

import json
import sys
from typing import Any

import engines
from engines import RuleViolation, UnknownCommand, run
from engines.limits import MAX_DEPTH, MAX_INPUT_BYTES, too_deep

USAGE = "usage: python -m engines [--max-bytes N] GAME COMMAND [FILE]\n       python -m engines --list"


class InputRefused(ValueError):
    """An input over the size or nesting limit (exit 2)."""


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


def read_input(source: str, max_bytes: int) -> Any:
    """The decoded JSON of ``source`` (a path, or ``-`` for stdin), at most ``max_bytes`` bytes
    (0: any size). Raises :class:`InputRefused` over the limits, ``OSError``/``ValueError``
    when it cannot be read or decoded."""
    if source == "-":
        stream = sys.stdin.buffer
        raw = stream.read(max_bytes + 1) if max_bytes else stream.read()
    else:
        with open(source, "rb") as stream:
            raw = stream.read(max_bytes + 1) if max_bytes else stream.read()
    if max_bytes and len(raw) > max_bytes:
        raise InputRefused(f"the input is larger than {max_bytes:,} bytes (the API's limit too); "
                           "give --max-bytes N to read up to N bytes, 0 for no limit")
    data = json.loads(raw.decode("utf-8"))
    if too_deep(data):
        raise InputRefused(f"the input nests objects and arrays more than {MAX_DEPTH} levels deep")
    return data


def main(argv: list[str] | None = None) -> int:
    """Run the CLI with ``argv`` (default ``sys.argv[1:]``); return the exit status."""
    args = list(sys.argv[1:] if argv is None else argv)
    if args == ["--list"]:
        for game in games():
            print(json.dumps(game, ensure_ascii=False))
        return 0
    max_bytes = MAX_INPUT_BYTES
    if args[:1] == ["--max-bytes"]:
        value = args[1] if len(args) > 1 else ""
        if not value.isascii() or not value.isdigit():
            print(USAGE, file=sys.stderr)
            return 2
        max_bytes, args = int(value), args[2:]
    if len(args) not in (2, 3) or any(a.startswith("--") for a in args):
        print(USAGE, file=sys.stderr)
        return 2
    game, command = args[0], args[1]
    source = args[2] if len(args) == 3 else "-"
    try:
        data = read_input(source, max_bytes)
    except InputRefused as exc:
        print(f"input refused: {exc}", file=sys.stderr)
        return 2
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
