"""Pure helpers of the busy round (issue 25 item 4): when results are confirmed, which pushed
events a live page follows and when it refreshes on them, what a request and its answer cost on
the wire, and latency percentiles from histograms. No Django, no locust, no network, so the load
scenario (``locustfile.py``, ``phones.py``, ``loadctl.py``), ``benchmarks/bench_hall_bytes.py``
and the tests share them.

Units: times in seconds (any monotonic clock, or seconds from the start of the busy window),
sizes in bytes, latencies in milliseconds.
"""
from __future__ import annotations

import gzip
import html
import json
import math
import random
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from http import HTTPStatus

#: The busiest 10 minutes of a round: most tables finish and their results are confirmed.
BUSY_WINDOW = 600.0
#: Share of the round's tables confirmed within the busy window ("most of 150 tables").
BUSY_SHARE = 0.9

# --------------------------------------------------------------------------- confirmations


def confirmation_times(tables: int, *, share: float = BUSY_SHARE, window: float = BUSY_WINDOW, seed: int = 25) -> list[float]:
    """Seconds from the start of the busy window at which results are confirmed: ``round(share *
    tables)`` of them, one in each equal slice of ``window``, at a seeded random moment within its
    slice (so the rate is even over the window, the gaps are not). Sorted ascending, all in
    ``[0, window)``. ``ValueError`` for a negative ``tables``, a ``share`` outside 0..1 or a
    ``window`` not positive."""
    if tables < 0 or not 0 <= share <= 1 or window <= 0:
        raise ValueError("tables >= 0, 0 <= share <= 1, window > 0")
    n = round(share * tables)
    if n == 0:
        return []
    rng = random.Random(seed)
    slot = window / n
    return [slot * (i + rng.random()) for i in range(n)]


def confirmation_rate(tables: int, *, share: float = BUSY_SHARE, window: float = BUSY_WINDOW) -> float:
    """Confirmations per second in the busy window (``round(share * tables) / window``): the rate
    the load scenario keeps up for the length of its run."""
    return round(share * tables) / window


# --------------------------------------------------------------------------- pushed events

#: The least seconds between two refreshes of a page on pushed events, as the pages' regions
#: declare them (``data-live-delay``: standings 30, a round's tables 20, a match 0), for pages that
#: do not say (:func:`live_region`).
DEFAULT_DELAYS = {"standings": 30.0, "round": 20.0, "match": 0.0}


def page_topics(kind: str, round_number: int = 1, match: int | None = None) -> frozenset[str]:
    """The topics a phone's live page refreshes on, as its region declares them
    (``data-live-topics``): ``standings`` and ``tournament`` for the standings; ``round:<n>``,
    ``tournament`` and ``entrants`` for a round's tables; ``result:<id>`` and ``tournament`` for one
    match. ``ValueError`` for another ``kind``."""
    own = {"standings": {"standings", "tournament"}, "round": {f"round:{round_number}", "tournament", "entrants"},
           "match": {f"result:{match}", "tournament"}}
    if kind not in own:
        raise ValueError(f"unknown page {kind!r}")
    return frozenset(own[kind])


_LIVE_DIV_RE = re.compile(r'<div id="live"[^>]*>')
_ATTR_RE = re.compile(r'\bdata-live-(topics|delay)="([^"]*)"')


def live_region(text: str) -> tuple[frozenset[str] | None, float | None]:
    """``(topics, delay)`` the page's live region (``<div id="live" ...>``) declares in its
    ``data-live-topics`` and ``data-live-delay`` attributes; ``None`` for what it does not."""
    tag = _LIVE_DIV_RE.search(text)
    attrs = dict(_ATTR_RE.findall(tag.group(0))) if tag else {}
    topics = frozenset(html.unescape(attrs["topics"]).split()) if "topics" in attrs else None
    try:
        delay = float(attrs["delay"]) if "delay" in attrs else None
    except ValueError:
        delay = None
    return topics, delay


def topics_match(followed: Iterable[str], changed: Iterable[str]) -> bool:
    """Whether an event naming ``changed`` concerns a page following ``followed`` (a followed
    topic ending in ``*`` matches every topic it begins, as the pages' script has it)."""
    changed = set(changed)
    for topic in followed:
        if topic.endswith("*"):
            if any(c.startswith(topic[:-1]) for c in changed):
                return True
        elif topic in changed:
            return True
    return False


def event_topics(data: str) -> frozenset[str]:
    """The topics of one pushed event, from its ``data`` (JSON ``{"topics": [...], "versions":
    {...}}``); empty for data that is not such an object (a comment, a keep-alive, garbage)."""
    try:
        value = json.loads(data)
    except ValueError:
        return frozenset()
    topics = value.get("topics") if isinstance(value, dict) else None
    return frozenset(str(t) for t in topics) if isinstance(topics, list) else frozenset()


def sse_frame(payload: Mapping, event_id: int | None = None) -> bytes:
    """One server-sent event as it goes over the wire: an ``id:`` line (when given), the JSON
    ``data:`` line and the blank line that ends the event (the text/event-stream format)."""
    head = f"id: {event_id}\n" if event_id is not None else ""
    return f"{head}data: {json.dumps(payload, separators=(',', ':'))}\n\n".encode()


class Coalescer:
    """When a live page refreshes on pushed events, as the pages' script does: on a matching
    event once the last refresh is at least ``interval`` seconds old, otherwise once at the end of
    that interval, however many events came meanwhile (they fold into one refresh); either way a
    random wait of up to ``jitter`` seconds more (``static/js/live.js`` waits up to half the
    region's delay, so that a hall of phones woken by one event does not ask in the same instant).

    :meth:`event` returns when the refresh for an event is due (``now`` or later), or ``None`` if
    one is already due for an earlier event; :meth:`fired` records a refresh done at ``now``.
    """

    def __init__(self, interval: float, jitter: float = 0.0, rng: random.Random | None = None) -> None:
        if interval < 0 or jitter < 0:
            raise ValueError("interval and jitter must not be negative")
        self.interval, self.jitter, self.rng = interval, jitter, rng or random.Random(0)
        self.last: float | None = None
        self.due: float | None = None

    def event(self, now: float) -> float | None:
        if self.due is not None:
            return None
        self.due = now if self.last is None else max(now, self.last + self.interval)
        if self.jitter:
            self.due += self.rng.uniform(0, self.jitter)
        return self.due

    def fired(self, now: float) -> None:
        self.last, self.due = now, None


def refresh_times(event_times: Iterable[float], interval: float, *, until: float = math.inf) -> list[float]:
    """The moments a page refreshes, given the moments its matching events arrive (ascending),
    coalesced by :class:`Coalescer` over ``interval``; refreshes due at or after ``until`` are left
    out."""
    coalescer, out = Coalescer(interval), []
    for t in event_times:
        if coalescer.due is not None and coalescer.due <= t:
            out.append(coalescer.due)
            coalescer.fired(coalescer.due)
        coalescer.event(t)
    if coalescer.due is not None:
        out.append(coalescer.due)
    return [t for t in out if t < until]


# --------------------------------------------------------------------------- bytes on the wire


def request_wire_bytes(method: str, target: str, headers: Mapping[str, str] | Iterable[tuple[str, str]]) -> int:
    """Bytes of an HTTP/1.1 request without a body: request line, one ``Name: value`` line per
    header (CRLF each) and the blank line."""
    items = headers.items() if isinstance(headers, Mapping) else headers
    return len(f"{method} {target} HTTP/1.1\r\n".encode()) + sum(len(f"{k}: {v}\r\n".encode()) for k, v in items) + 2


def response_wire_bytes(status: int, headers: Iterable[tuple[str, str]], body: int) -> int:
    """Bytes of an HTTP/1.1 answer: status line, header lines, the blank line and ``body`` bytes
    (as sent: compressed if it was). TCP/IP and TLS framing are not counted."""
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = ""
    line = f"HTTP/1.1 {status} {reason}\r\n".encode()
    return len(line) + sum(len(f"{k}: {v}\r\n".encode()) for k, v in headers) + 2 + body


#: gzip level of the compressed figures computed without Caddy: Caddy's ``encode gzip`` default.
GZIP_LEVEL = 5


def gzip_size(body: bytes, level: int = GZIP_LEVEL) -> int:
    """Bytes of ``body`` gzip-compressed at ``level`` (what a proxy's gzip sends for it)."""
    return len(gzip.compress(body, compresslevel=level, mtime=0))


class ByteMeter:
    """Bytes sent and received per phone, by the page the phone follows. :meth:`add` one request;
    :meth:`per_minute` gives the mean per phone and minute over the phones of a page."""

    def __init__(self) -> None:
        self.sent: dict[str, Counter] = defaultdict(Counter)
        self.received: dict[str, Counter] = defaultdict(Counter)
        self.phones: dict[str, set] = defaultdict(set)

    def register(self, kind: str, phone: object) -> None:
        """Count ``phone`` among ``kind``'s phones even if it sends nothing."""
        self.phones[kind].add(phone)

    def add(self, kind: str, phone: object, sent: int, received: int) -> None:
        self.register(kind, phone)
        self.sent[kind][phone] += sent
        self.received[kind][phone] += received

    def reset(self) -> None:
        self.sent.clear()
        self.received.clear()

    def per_minute(self, kind: str, seconds: float) -> tuple[float, float, int]:
        """``(received, sent, phones)``: mean bytes received and sent per phone and minute by the
        phones following ``kind`` over ``seconds``; zeros without phones or time."""
        n = len(self.phones.get(kind, ()))
        if not n or seconds <= 0:
            return 0.0, 0.0, n
        scale = 60.0 / seconds / n
        return sum(self.received[kind].values()) * scale, sum(self.sent[kind].values()) * scale, n


# --------------------------------------------------------------------------- latency histograms


def percentile(histogram: Mapping[int | float | str, int], q: float) -> float:
    """The ``q`` quantile (0..1) of latencies given as ``{milliseconds: count}`` (keys may be
    strings, as after JSON): the smallest latency with at least ``q`` of the samples at or below
    it; 0 for an empty histogram."""
    items = sorted((float(k), int(v)) for k, v in histogram.items() if int(v) > 0)
    total = sum(v for _, v in items)
    if not total:
        return 0.0
    need, seen = q * total, 0
    for ms, count in items:
        seen += count
        if seen >= need:
            return ms
    return items[-1][0]


def merge_histograms(*histograms: Mapping[int | float | str, int]) -> dict[int, int]:
    """One ``{milliseconds: count}`` of several (keys rounded to whole milliseconds)."""
    out: Counter = Counter()
    for h in histograms:
        for k, v in h.items():
            out[round(float(k))] += int(v)
    return dict(out)


def bucket_ms(ms: float) -> int:
    """Latency bucket as locust keeps them (``StatsEntry``): whole ms below 100, then two
    significant digits (to 10 ms below 1 s, to 100 ms below 10 s, ...), so histograms of the
    locust users and of the phones merge."""
    if ms < 100:
        return round(ms)
    return int(round(ms, -(int(math.log10(ms)) - 1)))


# --------------------------------------------------------------------------- pages

_HIDDEN_VERSION_RE = re.compile(r'<input type="hidden" name="version" value="(\d+)">')
_CSRF_RE = re.compile(r'name="csrfmiddlewaretoken"\s+value="([^"]+)"')


def parse_confirm_page(text: str) -> tuple[str | None, int | None]:
    """``(csrf token, version)`` of the confirmation form, the first form of the confirm page
    (``templates/results/confirm.html``; the dispute form after it posts a version too);
    ``None`` for what the page lacks (no confirm form: already confirmed, or not allowed)."""
    csrf = _CSRF_RE.search(text)
    version = _HIDDEN_VERSION_RE.search(text)
    return (html.unescape(csrf.group(1)) if csrf else None), (int(version.group(1)) if version else None)


# --------------------------------------------------------------------------- the run's report


def phone_rows(phones: Mapping, seconds: float) -> list:
    """Latency rows (:class:`loadkit.EndpointStats`) of the phones' requests from ``phones.py``'s
    figures (``latency``, ``counts``); a request counts as failed when it had no answer or its
    status was neither 200 nor 304."""
    from loadkit import EndpointStats

    rows = []
    for name, hist in sorted((phones.get("latency") or {}).items()):
        counts = (phones.get("counts") or {}).get(name, {})
        n = sum(int(v) for v in counts.values())
        failed = sum(int(v) for k, v in counts.items() if k not in ("200", "304"))
        rows.append(EndpointStats("GET", name, n, failed, percentile(hist, 0.5), percentile(hist, 0.95),
                                  percentile(hist, 0.99), n / seconds if seconds else 0.0))
    return rows


def merged_total(locust_total: Mapping, locust_failures: int, phones: Mapping, seconds: float):
    """The ``Aggregated`` row over the locust users' requests and the phones' (histograms merged)."""
    from loadkit import EndpointStats

    hists = [locust_total, *(phones.get("latency") or {}).values()]
    merged = merge_histograms(*hists)
    n = sum(merged.values())
    failed = locust_failures + sum(r.failures for r in phone_rows(phones, seconds))
    return EndpointStats("", "Aggregated", n, failed, percentile(merged, 0.5), percentile(merged, 0.95),
                         percentile(merged, 0.99), n / seconds if seconds else 0.0)


def bytes_lines(phones: Mapping) -> list[str]:
    """One line per page the phones follow: bytes on the wire per phone and minute (KB = 1,000
    bytes), received and sent, as they went over the connection and (without a compressing proxy)
    with gzip computed on the bodies; the share of 304 among the polls or refreshes."""
    out = []
    mode, compressed = phones.get("mode"), phones.get("compressed")
    how = ("as Caddy sent them (Accept-Encoding: gzip, zstd)" if compressed
           else "as gunicorn sent them, uncompressed")
    for kind, b in sorted((phones.get("bytes") or {}).items()):
        line = (f"{kind} phones ({b.get('phones', 0)}, {mode}): {b['received'] / 1000:,.1f} KB received + "
                f"{b['sent'] / 1000:,.1f} KB sent per phone per minute {how}")
        if not compressed:
            line += f"; with gzip computed on the bodies: {b['received_gzip'] / 1000:,.1f} KB received"
        counts = Counter()
        for name, c in (phones.get("counts") or {}).items():
            if name.startswith(("phone poll ", "phone refresh ")) and name.endswith(kind):
                counts.update({k: int(v) for k, v in c.items()})
        if counts:
            line += f"; {counts.get('304', 0)} of {sum(counts.values())} {'polls' if mode == 'poll' else 'refreshes'} answered 304"
        out.append(line)
    return out
