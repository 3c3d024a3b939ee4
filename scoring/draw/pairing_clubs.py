"""Club avoidance for a pairing (pure; no Django): teams of one club (``Team.affiliation``) are
not paired against each other when a swap of opponents avoids it, never at the cost of a rematch
and never changing who floats (issue 23 item 8; docs/tournaments.md "Club avoidance").

The pairing is made first without looking at clubs (:mod:`scoring.draw.pairing_core`); then
every table whose two teams share a club is repaired by swapping opponents with another table
*of the same kind*: the same two score groups (or, in round 1, any table, since everyone has 0
match points). For tables ``(a, b)`` and ``(c, d)`` (``a``, ``c`` the better-ranked) the swaps
tried are ``(a, d), (c, b)`` and, when all four have the same match points, ``(a, c), (b, d)``.
So every team meets an opponent from the same score group as without club avoidance: the score
groups, the floats (who floats, and how far), the bye and the number of rematches (none) stay
exactly the same. A swap is taken only when neither new pair has met before and the number of
same-club tables goes down; the tables nearest to the clash are tried first (one below, one
above, two below, ...). Repeated until no swap removes a clash, so it ends (the count only
falls). A clash that no such swap removes stays, and the caller says so in the pairing note.

This is a local search: it never makes a pairing worse on rematches or floats, and removes every
clash a single swap of two tables can remove; a clash that only a rotation of three or more
tables would remove may stay (rare with real club sizes; ``tests/draw/test_pairing_clubs.py``).
"""
from __future__ import annotations

from collections.abc import Callable, Mapping


def same_club(club: Mapping, a, b) -> bool:
    """True when ``a`` and ``b`` both have a club (non-empty, compared case- and
    space-insensitively by the caller's normalisation) and it is the same one."""
    ca = club.get(a) or ""
    return bool(ca) and ca == (club.get(b) or "")


def normalise(club: str | None) -> str:
    """The club name as compared: trimmed, inner spaces collapsed, case-folded (``"HMC  Utrecht "``
    and ``"hmc utrecht"`` are one club)."""
    return " ".join((club or "").split()).casefold()


def _nearest(i: int, n: int):
    for step in range(1, n):
        for j in (i + step, i - step):
            if 0 <= j < n:
                yield j


def avoid_clubs(
    pairs: list[tuple],
    *,
    group: Mapping,
    rank: Mapping,
    club: Mapping,
    met: Callable[[object, object], bool],
) -> tuple[list[tuple], set]:
    """Repair same-club tables by swapping opponents (see the module doc).

    ``pairs``: the tables as ``(better, worse)`` id pairs (no bye), in table order; ``group``: id
    -> score-group index (0 = the most match points); ``rank``: id -> position (0 = best);
    ``club``: id -> normalised club (``""``: none); ``met(a, b)``: True when the two have played
    each other. Returns ``(pairs, moved)``: the pairs in the same table slots, each oriented
    better-ranked first, and the ids of the teams that got another opponent."""
    pairs = [tuple(p) for p in pairs]
    before = {t: p for p in pairs for t in p}
    n = len(pairs)
    changed = True
    while changed:
        changed = False
        for i in range(n):
            a, b = pairs[i]
            if not same_club(club, a, b):
                continue
            for j in _nearest(i, n):
                c, d = pairs[j]
                if group[a] != group[c] or group[b] != group[d]:
                    continue
                options = [((a, d), (c, b))]
                if group[a] == group[b]:
                    options.append(((a, c), (b, d)))
                old = 1 + same_club(club, c, d)
                swapped = False
                for p, q in options:
                    if met(*p) or met(*q):
                        continue
                    if same_club(club, *p) + same_club(club, *q) < old:
                        pairs[i] = tuple(sorted(p, key=rank.__getitem__))
                        pairs[j] = tuple(sorted(q, key=rank.__getitem__))
                        changed = swapped = True
                        break
                if swapped:
                    break
    moved = {t for p in pairs for t in p if set(before[t]) != set(p)}
    return pairs, moved


def clashes(pairs, club: Mapping) -> int:
    """How many of ``pairs`` (``(a, b)``; ``b`` may be ``None``) put two teams of one club together."""
    return sum(1 for a, b in pairs if b is not None and same_club(club, a, b))
