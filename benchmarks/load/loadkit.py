"""Pure helpers of the load scenario (issue 5 item 6): hand records the referees post, parsing of
the referee's entry page, the lost/duplicated hand check and the latency table. No Django, no
locust imports, so the locustfile, ``loadctl.py`` and the tests share them.

Hand records follow docs/engines/taipan.md (the hand record) and the NSKT rules (docs/engines/taipan.md): a
failed Tai Pan call costs the caller's team 100 (``failed_call: caller_team_loses``), so the two
hands of each pair below cancel out and a match never reaches the 800 target during a run.
"""
from __future__ import annotations

import csv
import html
import json
import re
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import urlsplit

#: Card points NS of the first hand of pair ``p`` (cycled); the second hand mirrors them. All are
#: multiples of 5 with both teams in -25..125 (docs/engines/taipan.md validation).
CARD_POINTS_CYCLE = (50, 25, 75, 0, 100, 40, 60, 35, 65, 10, 90, 55, 45, 20, 80, 30, 70, 5, 95, 15, 85)


def hand_record(index: int) -> dict[str, Any]:
    """The hand record for the ``index``-th hand (0-based) of a match in the scenario.

    Even ``index``: N calls Tai Pan, E goes out first, card points NS ``x`` / EW ``100 - x``
    (NS scores ``x - 100``, EW ``100 - x``). Odd ``index``: E calls Tai Pan, N goes out first,
    card points mirrored (NS ``100 - x``, EW ``x - 100``). Each pair sums to 0:0, so the running
    totals stay within -100..100 and the match never finishes (NSKT target 800).
    """
    x = CARD_POINTS_CYCLE[(index // 2) % len(CARD_POINTS_CYCLE)]
    if index % 2 == 0:
        return {"calls": {"N": "tai_pan"}, "first_out": "E", "double_victory": None, "card_points": {"NS": x, "EW": 100 - x}}
    return {"calls": {"E": "tai_pan"}, "first_out": "N", "double_victory": None, "card_points": {"NS": 100 - x, "EW": x}}


def form_data(record: dict[str, Any], version: int, csrf_token: str, *, type_ew: bool = False) -> dict[str, str]:
    """POST body of the Tai Pan entry form (``scoring.games.taipan.forms.HandForm``, unprefixed
    fields) for ``record``: calls per seat, first out, double victory, card points NS (EW only
    when ``type_ew``; the form derives 100 - NS otherwise), the hidden ``version`` and the CSRF
    token."""
    calls = record.get("calls") or {}
    cp = record.get("card_points") or {}
    data = {
        "csrfmiddlewaretoken": csrf_token,
        "version": str(version),
        "first_out": record.get("first_out") or "",
        "double_victory": record.get("double_victory") or "",
        "card_points_ns": "" if cp.get("NS") is None else str(cp["NS"]),
        "card_points_ew": str(cp["EW"]) if type_ew and cp.get("EW") is not None else "",
    }
    for seat in "NESW":
        data[f"call_{seat.lower()}"] = calls.get(seat) or ""
    return data


_CSRF_RE = re.compile(r'name="csrfmiddlewaretoken"\s+value="([^"]+)"')
#: The entry form of the referee's entry page (``templates/results/enter.html``); the page's other
#: forms (end at the time limit, resume, reopen) post a ``version`` too.
_ENTRY_FORM_RE = re.compile(r'<form\b[^>]*\bid="entry-form"[^>]*>(.*?)</form>', re.S)
_VERSION_RE = re.compile(r'<input[^>]*\bname="version"[^>]*>')
_VALUE_RE = re.compile(r'\bvalue="(\d+)"')
_HAND_ROW_RE = re.compile(r'<tr id="record-(\d+)"')


@dataclass
class MatchPage:
    """What a referee needs from the entry page: the CSRF token, the hidden ``version`` of the
    entry form (``None`` when the page has no entry form: the match is finished or confirmed)
    and the hand numbers shown."""

    csrf_token: str | None
    version: int | None
    hand_numbers: list[int]

    @property
    def can_add(self) -> bool:
        return self.version is not None and self.csrf_token is not None

    @property
    def next_number(self) -> int:
        """Number the next hand gets (``scoring.results.sheet.add_record``: max number + 1)."""
        return (max(self.hand_numbers) if self.hand_numbers else 0) + 1


def parse_match_page(text: str) -> MatchPage:
    """Parse the referee's entry page (``match_enter``: ``templates/results/enter.html``): the
    CSRF token, the ``version`` of its entry form (``id="entry-form"``) and the numbers of the
    record rows (``id="record-N"``)."""
    csrf = _CSRF_RE.search(text)
    version = None
    form = _ENTRY_FORM_RE.search(text)
    tag = _VERSION_RE.search(form.group(1)) if form else None
    if tag:
        value = _VALUE_RE.search(tag.group(0))
        version = int(value.group(1)) if value else None
    numbers = [int(n) for n in _HAND_ROW_RE.findall(text)]
    return MatchPage(html.unescape(csrf.group(1)) if csrf else None, version, numbers)


def submission_kind(status: int, location: str, enter_url: str) -> str:
    """What the answer to a hand submission to ``enter_url`` means: ``"ack"`` (302 back to the
    entry page at the new row, ``enter_url#record-N``: stored), ``"stale"`` (409: another referee
    saved first, nothing stored), ``"uncertain"`` (no answer or 5xx: maybe stored) or
    ``"refused"`` (anything else, e.g. 400 with the errors or a redirect to the login page:
    nothing stored)."""
    target = urlsplit(location or "")
    if status == 302 and target.path == enter_url and target.fragment.startswith("record-"):
        return "ack"
    if status == 409:
        return "stale"
    if status == 0 or status >= 500:
        return "uncertain"
    return "refused"


def csrf_from_page(text: str) -> str | None:
    """The CSRF token of the first form of a page (login page)."""
    found = _CSRF_RE.search(text)
    return html.unescape(found.group(1)) if found else None


def normalise_record(record: dict[str, Any]) -> dict[str, Any]:
    """The comparable part of a stored or posted hand record."""
    cp = record.get("card_points")
    return {
        "calls": dict(record.get("calls") or {}),
        "first_out": record.get("first_out") or None,
        "double_victory": record.get("double_victory") or None,
        "card_points": {"NS": int(cp["NS"]), "EW": int(cp["EW"])} if cp else None,
    }


@dataclass
class Verdict:
    """Result of :func:`verify_hands`. ``lost``: acknowledged hands missing from the database (or
    stored with another record); ``duplicated``: stored hands no acknowledgement or uncertain
    submission accounts for (a hand saved twice or saved although refused); ``gaps``: matches
    whose hand numbers are not exactly 1..n; ``uncertain``: submissions without a definite answer
    (network error, timeout, 5xx) - such a hand may or may not be stored."""

    acknowledged: int = 0
    stored: int = 0
    uncertain: int = 0
    lost: int = 0
    duplicated: int = 0
    gaps: int = 0
    details: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return self.lost == 0 and self.duplicated == 0 and self.gaps == 0


def verify_hands(acks: Iterable[dict], stored: dict[int, list[tuple[int, dict]]], uncertain: Iterable[dict] = ()) -> Verdict:
    """Check every acknowledged hand against the database.

    ``acks``: ``{"match": pk, "number": n, "record": {...}}`` for every submission the server
    acknowledged (302 back to the entry page); ``n`` is the number the hand must have (the page the
    referee posted from showed hands 1..n-1 at the posted ``version``, and the version check
    guarantees nothing changed in between). ``stored``: match pk -> ``[(number, record)]`` from
    the database. ``uncertain``: ``{"match": pk, ...}`` submissions without a definite answer.
    """
    verdict = Verdict()
    acks_by_match: dict[int, list[dict]] = defaultdict(list)
    for ack in acks:
        acks_by_match[int(ack["match"])].append(ack)
    unsure = Counter(int(u["match"]) for u in uncertain)
    verdict.uncertain = sum(unsure.values())
    for match_pk in sorted(set(acks_by_match) | set(stored) | set(unsure)):
        rows = stored.get(match_pk, [])
        verdict.stored += len(rows)
        numbers = [n for n, _ in rows]
        if sorted(numbers) != list(range(1, len(numbers) + 1)):
            verdict.gaps += 1
            verdict.details.append(f"match {match_pk}: hand numbers {sorted(numbers)} are not 1..{len(numbers)}")
        by_number: dict[int, list[dict]] = defaultdict(list)
        for number, record in rows:
            by_number[number].append(normalise_record(record))
        matched: set[int] = set()
        seen_acks: set[int] = set()
        for ack in acks_by_match.get(match_pk, []):
            verdict.acknowledged += 1
            number = int(ack["number"])
            want = normalise_record(ack["record"])
            if number in seen_acks:
                verdict.details.append(f"match {match_pk}: hand {number} acknowledged twice")
                verdict.duplicated += 1
                continue
            seen_acks.add(number)
            if want in by_number.get(number, []):
                matched.add(number)
            else:
                verdict.lost += 1
                verdict.details.append(f"match {match_pk}: acknowledged hand {number} {want} not stored as such")
        extra = len(rows) - len(matched)
        excess = max(0, extra - unsure.get(match_pk, 0))
        if excess:
            verdict.duplicated += excess
            verdict.details.append(
                f"match {match_pk}: {len(rows)} stored, {len(matched)} acknowledged, {unsure.get(match_pk, 0)} uncertain"
            )
    return verdict


# --------------------------------------------------------------------------- latency table

PERCENTILE_COLUMNS = ("50%", "95%", "99%")


@dataclass
class EndpointStats:
    """One row of locust's ``*_stats.csv``: method, name, counts and latency percentiles (ms)."""

    method: str
    name: str
    requests: int
    failures: int
    p50: float
    p95: float
    p99: float
    rps: float


def _num(value: str) -> float:
    try:
        return float(value)
    except (TypeError, ValueError):
        return 0.0


def read_stats_csv(path: str | Path) -> list[EndpointStats]:
    """Rows of locust's ``PREFIX_stats.csv`` (the ``Aggregated`` row last)."""
    out = []
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            out.append(
                EndpointStats(
                    method=row.get("Type") or "",
                    name=row.get("Name") or "",
                    requests=int(_num(row.get("Request Count", "0"))),
                    failures=int(_num(row.get("Failure Count", "0"))),
                    p50=_num(row.get("50%", "0")),
                    p95=_num(row.get("95%", "0")),
                    p99=_num(row.get("99%", "0")),
                    rps=_num(row.get("Requests/s", "0")),
                )
            )
    return out


def stats_table(rows: list[EndpointStats]) -> str:
    """A Markdown table: endpoint, requests, failures, req/s, p50/p95/p99 in ms."""
    lines = [
        "| endpoint | requests | errors | req/s | p50 ms | p95 ms | p99 ms |",
        "|---|---:|---:|---:|---:|---:|---:|",
    ]
    for r in rows:
        if r.requests == 0 and r.name != "Aggregated":
            continue
        label = r.name if r.name == "Aggregated" else f"{r.method} {r.name}"
        lines.append(f"| {label} | {r.requests} | {r.failures} | {r.rps:.1f} | {r.p50:.0f} | {r.p95:.0f} | {r.p99:.0f} |")
    return "\n".join(lines)


_URL_RE = re.compile(r"'https?://[^']*'")


def read_failures_csv(path: str | Path) -> Counter:
    """Occurrences by ``(method, name, error)`` from locust's ``*_failures.csv``; the URL inside
    an error text (``RetriesExceeded('http://.../match/41/', ...)``) is dropped so the same error
    on different pages of one endpoint counts together. Missing file: empty."""
    out: Counter = Counter()
    p = Path(path)
    if not p.exists():
        return out
    with open(p, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(fh):
            error = _URL_RE.sub("URL", row.get("Error") or "")
            out[(row.get("Method") or "", row.get("Name") or "", error)] += int(_num(row.get("Occurrences", "0")))
    return out


# --------------------------------------------------------------------------- phones polling live pages

#: The self-updating public pages a phone in the hall keeps open (each phone picks one): the
#: standings, the current round's tables (pairings) or one match. Each polls its own URL with htmx
#: (``hx-get`` + ``hx-trigger="every Ns"`` + ``hx-select="#live"`` on ``<div id="live">``:
#: ``templates/standings/standings.html``, ``templates/rounds/round.html``,
#: ``templates/results/detail.html``).
PHONE_PAGES = ("standings", "round", "match")

#: The request names of a page's first load and of its polls in locust's statistics.
PAGE_NAMES = {"standings": "standings/", "round": "round/<n>/ (pairings)", "match": "match/<pk>/"}
POLL_NAMES = {kind: f"poll {name} (htmx)" for kind, name in PAGE_NAMES.items()}


def parse_page_weights(text: str) -> dict[str, float]:
    """``LOAD_PHONE_PAGES`` (``"standings:1,round:1,match:1"``) as ``{page: weight}``; a page
    left out gets no phone. Unknown pages, negative weights or all zero: ``ValueError``."""
    weights: dict[str, float] = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, weight = part.partition(":")
        name = name.strip()
        if name not in PHONE_PAGES:
            raise ValueError(f"unknown page {name!r} (one of {', '.join(PHONE_PAGES)})")
        weights[name] = float(weight) if weight.strip() else 1.0
        if weights[name] < 0:
            raise ValueError(f"negative weight for {name!r}")
    if not weights or sum(weights.values()) <= 0:
        raise ValueError("no page to poll")
    return weights


def page_url(kind: str, slug: str, round_number: int, match: int) -> str:
    """The URL of a phone's page (what its htmx poll gets too: ``request.get_full_path`` /
    ``request.path``)."""
    return {
        "standings": f"/t/{slug}/standings/",
        "round": f"/t/{slug}/round/{round_number}/",
        "match": f"/t/{slug}/match/{match}/",
    }[kind]


_HX_HEADERS_RE = re.compile(r"""hx-headers='(\{[^']*\})'""")


def hx_headers_from_page(text: str) -> dict[str, str]:
    """The headers the page's ``<body hx-headers='{...}'>`` adds to every htmx request
    (``templates/base.html``: the CSRF token); empty when the page has none."""
    found = _HX_HEADERS_RE.search(text)
    if not found:
        return {}
    try:
        value = json.loads(html.unescape(found.group(1)))
    except ValueError:
        return {}
    return {str(k): str(v) for k, v in value.items()} if isinstance(value, dict) else {}


@dataclass
class LivePage:
    """One phone's view of a polled page, as the browser and htmx keep it: the URL, the ETag of
    the last full answer (the browser's HTTP cache entry, which it revalidates with
    ``If-None-Match``) and the headers of the page's ``hx-headers``."""

    url: str
    etag: str | None = None
    extra: dict[str, str] = field(default_factory=dict)

    def poll_headers(self, host: str = "") -> dict[str, str]:
        """The headers of one htmx poll (htmx 2: ``HX-Request``, ``HX-Current-URL``, and the
        ``id`` of the triggering and target element, ``live``) plus ``If-None-Match`` with the
        ETag of the last full answer, if it had one."""
        headers = {**self.extra, "HX-Request": "true", "HX-Trigger": "live", "HX-Target": "live",
                   "HX-Current-URL": f"{host}{self.url}"}
        if self.etag:
            headers["If-None-Match"] = self.etag
        return headers

    def answered(self, status: int, etag: str | None, text: str | None = None) -> str:
        """Take one answer (first load or poll) into account, as the browser does: a 200 replaces
        the cached page (its ETag, or none), a 304 keeps it (with the ETag sent). Returns the
        outcome: ``"304"``, ``"200"`` or ``"error"`` (anything else; the cached page is kept)."""
        if status == 304:
            if etag:
                self.etag = etag
            return "304"
        if status == 200:
            self.etag = etag or None
            if text:
                self.extra = hx_headers_from_page(text) or self.extra
            return "200"
        return "error"


class PollTimer:
    """When one phone polls: every ``interval`` seconds from the moment its page loaded, as htmx's
    ``every 10s`` trigger does (it sets its next timeout when it fires, whatever the answer time),
    so each phone keeps the phase it arrived with.

    Locust's ``constant_pacing`` counts from the moment the user was spawned, so a phone's
    random arrival delay is taken off its first wait and every phone falls back into step with
    its spawn batch: with 50 users spawned per second, 100 phones polled in the same instant once
    a second (a burst no hall of phones opened at random moments makes), and the polls' latency
    was the time the server took to drain each burst (p50 ~90 ms for a 5 ms answer).

    ``start(now)`` when the page has loaded; ``wait(now)`` returns the seconds to sleep before the
    next poll (0 when it is overdue) and advances the timer by one interval. Times in seconds
    from any monotonic clock.
    """

    def __init__(self, interval: float) -> None:
        if interval <= 0:
            raise ValueError("interval must be positive")
        self.interval = interval
        self.next_at: float | None = None

    def start(self, now: float) -> None:
        self.next_at = now

    def wait(self, now: float) -> float:
        if self.next_at is None:
            self.next_at = now
        self.next_at += self.interval
        if self.next_at < now:
            # Overdue by more than a whole interval (a very slow answer): htmx fires once, late,
            # and keeps its period from then on; it does not fire the missed polls in a row.
            self.next_at = now
        return max(0.0, self.next_at - now)


class PollCounter:
    """How the polls of each page were answered (``"304"``, ``"200"``, ``"error"``)."""

    def __init__(self) -> None:
        self.counts: dict[str, Counter] = defaultdict(Counter)

    def add(self, page: str, outcome: str) -> None:
        self.counts[page][outcome] += 1

    def reset(self) -> None:
        self.counts.clear()

    def as_dict(self) -> dict[str, dict[str, int]]:
        return {page: dict(c) for page, c in sorted(self.counts.items())}


def poll_summary(counts: dict[str, dict[str, int]]) -> list[tuple[str, int, int, float]]:
    """``[(page, polls, answered 304, share 304 in %)]`` per page and ``"all"`` last, from
    :meth:`PollCounter.as_dict`."""
    rows, total, total_304 = [], 0, 0
    for page, c in sorted(counts.items()):
        n, n304 = sum(c.values()), c.get("304", 0)
        total, total_304 = total + n, total_304 + n304
        rows.append((page, n, n304, 100.0 * n304 / n if n else 0.0))
    rows.append(("all", total, total_304, 100.0 * total_304 / total if total else 0.0))
    return rows
