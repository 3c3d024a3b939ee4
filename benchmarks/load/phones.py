"""The phones in the hall (issue 25 item 4): ``LOAD_PHONES`` phones, each keeping one live page
open, in one asyncio process (httpx; httpx-sse for the event streams), started by
``run_load.sh`` next to locust (whose greenlets could not hold 2,000 streams on 2 cores).

- ``LOAD_MODE=poll`` (today): each phone polls its page's live region every ``LOAD_PHONE_WAIT``
  seconds from the moment its page loaded (:class:`loadkit.PollTimer`), as htmx does, with the
  htmx headers and ``If-None-Match`` (:class:`loadkit.LivePage`).
- ``LOAD_MODE=push``: each phone holds one server-sent events connection to the tournament's
  ``/events/<slug>/`` (at ``LOAD_EVENTS_BASE``, default ``LOAD_BASE_URL``) and refreshes its region (the same conditional GET) when an event's topics
  match the ones its page's live region declares (``data-live-topics``; else
  :func:`hallkit.page_topics`), at most once every ``data-live-delay`` seconds (standings 30, round
  20, match 0; ``LOAD_PUSH_COALESCE`` overrides) as the pages' script coalesces
  (:class:`hallkit.Coalescer`); it never polls. A
  dropped stream is opened again after 1-3 s.

Each phone first loads its whole page (at a random moment within ``LOAD_ARRIVAL`` seconds).
Which page: ``LOAD_PHONE_PAGES`` weights (standings, round 1's tables, one match of any table);
a standings phone follows one team (random) and adds ``LOAD_PHONE_VIEW`` to its URL (``{team}``
replaced by the team's pk; empty: the standings as they are).

Bytes on the wire are counted per phone (:class:`hallkit.ByteMeter`): request line and headers
sent; status line, headers and the body as it came over the connection (``num_bytes_downloaded``:
compressed when the server compressed it). ``LOAD_COMPRESSED=1``: the phones send
``Accept-Encoding: gzip, zstd`` (through Caddy); otherwise they ask for no encoding and a second
figure computes gzip on each body (:func:`hallkit.gzip_size`, events uncompressed).

The measured part starts when ``LOAD_MEASURE_MARK`` appears (locust writes it) and lasts
``LOAD_MEASURE`` seconds; then ``LOAD_PHONES_OUT`` gets the figures (JSON: ``mode``, ``phones``
per page, ``seconds``, ``bytes`` per page ``{received, sent, received_gzip, phones}`` in bytes per
phone and minute, ``latency`` ``{name: {ms: count}}``, ``counts`` ``{name: {status: n}}``,
``events``, ``errors``, ``cpu``) and the process exits. ``LOAD_PHONES_READY`` is written once
every phone has loaded its page and polled once or opened its stream.
"""
from __future__ import annotations

import asyncio
import json
import os
import random
import resource
import ssl
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path
from urllib.parse import quote

import httpx
from httpx_sse import SSEError, aconnect_sse

sys.path.insert(0, str(Path(__file__).resolve().parent))
import hallkit  # noqa: E402
import loadkit  # noqa: E402


class Config:
    """The environment, read once."""

    def __init__(self, env=os.environ) -> None:
        self.mode = env.get("LOAD_MODE", "poll")
        if self.mode not in ("poll", "push"):
            raise SystemExit(f"LOAD_MODE={self.mode!r}: poll or push")
        self.phones = int(env.get("LOAD_PHONES", "1000"))
        self.wait = float(env.get("LOAD_PHONE_WAIT", "10"))
        self.pages = loadkit.parse_page_weights(env.get("LOAD_PHONE_PAGES", "standings:1,round:1,match:1"))
        coalesce = env.get("LOAD_PUSH_COALESCE", "")
        self.coalesce = float(coalesce) if coalesce else None
        self.base = env.get("LOAD_BASE_URL", "http://127.0.0.1:8765").rstrip("/")
        self.events_base = env.get("LOAD_EVENTS_BASE", "").rstrip("/") or self.base
        self.events_url = ""
        self.compressed = env.get("LOAD_COMPRESSED", "0") == "1"
        self.arrival = float(env.get("LOAD_ARRIVAL", str(max(self.wait, self.phones / 50))))
        self.view = env.get("LOAD_PHONE_VIEW", "")
        self.ready_file = env.get("LOAD_PHONES_READY", "")
        self.mark = env.get("LOAD_MEASURE_MARK", "")
        self.measure = float(env.get("LOAD_MEASURE", "60"))
        self.out = env.get("LOAD_PHONES_OUT", "phones.json")
        self.give_up = float(env.get("LOAD_WARMUP_MAX", "120")) + 120


class Hall:
    """Every phone's figures, reset when the measured part starts."""

    def __init__(self, cfg: Config, client: httpx.AsyncClient) -> None:
        self.cfg, self.client = cfg, client
        self.ssl = ssl.create_default_context()  # one context for every phone's client (https runs)
        self.ssl.check_hostname, self.ssl.verify_mode = False, ssl.CERT_NONE
        self.meter, self.gz = hallkit.ByteMeter(), hallkit.ByteMeter()
        self.latency: dict[str, Counter] = defaultdict(Counter)
        self.counts: dict[str, Counter] = defaultdict(Counter)
        self.events = self.errors = self.dropped = 0
        self.error_kinds: Counter = Counter()  # "<request name>: <exception type>" -> count
        self.ready: set[int] = set()
        self.done = asyncio.Event()
        self._gzip_sizes: dict[tuple, int] = {}
        self.headers = {"Accept-Encoding": "gzip, zstd" if cfg.compressed else "identity"}

    def reset(self) -> None:
        self.meter.reset()
        self.gz.reset()
        self.latency.clear()
        self.counts.clear()
        self.error_kinds.clear()
        self.events = self.errors = self.dropped = 0

    def mark_ready(self, index: int) -> None:
        self.ready.add(index)
        if len(self.ready) == self.cfg.phones and self.cfg.ready_file:
            Path(self.cfg.ready_file).write_text(f"{len(self.ready)}\n", encoding="utf-8")

    def _gzip(self, resp: httpx.Response, body: bytes) -> int:
        key = (resp.headers.get("ETag"), len(body), hash(body[:256]), hash(body[-256:]))
        if key not in self._gzip_sizes:
            self._gzip_sizes[key] = hallkit.gzip_size(body)
        return self._gzip_sizes[key]

    def account(self, index: int, kind: str, name: str, resp: httpx.Response | None, body: bytes, started: float) -> None:
        """Count one answered request (``resp`` ``None``: no answer)."""
        if resp is None:
            self.counts[name]["error"] += 1
            self.errors += 1
            return
        self.latency[name][hallkit.bucket_ms(1000 * (time.perf_counter() - started))] += 1
        self.counts[name][str(resp.status_code)] += 1
        req = resp.request
        sent = hallkit.request_wire_bytes(req.method, req.url.raw_path.decode(), [(k.decode(), v.decode()) for k, v in req.headers.raw])
        headers = [(k.decode(), v.decode()) for k, v in resp.headers.raw]
        received = hallkit.response_wire_bytes(resp.status_code, headers, resp.num_bytes_downloaded)
        self.meter.add(kind, index, sent, received)
        gz = received if self.cfg.compressed or not body else hallkit.response_wire_bytes(
            resp.status_code, [*headers, ("Content-Encoding", "gzip")], self._gzip(resp, body))
        self.gz.add(kind, index, sent, gz)

    async def get(self, index: int, kind: str, page: loadkit.LivePage, name: str, *, full: bool = False,
                  client: httpx.AsyncClient | None = None) -> str:
        """The whole page (``full``) or one conditional GET of its live region through ``client``
        (the phone's own; default the hall's); returns the body of a 200 (else "")."""
        headers = {**self.headers, **({} if full else page.poll_headers(self.cfg.base))}
        started = time.perf_counter()
        try:
            resp = await (client or self.client).get(self.cfg.base + page.url, headers=headers)
        except httpx.HTTPError as exc:
            self.error_kinds[f"{name}: {type(exc).__name__}"] += 1
            self.account(index, kind, name, None, b"", started)
            return ""
        body = resp.content
        self.account(index, kind, name, resp, body, started)
        text = body.decode(errors="replace") if resp.status_code == 200 else ""
        page.answered(resp.status_code, resp.headers.get("ETag"), text or None)
        return text


async def poll(hall: Hall, index: int, kind: str, page: loadkit.LivePage, client: httpx.AsyncClient | None = None) -> None:
    """Today's phone: a conditional GET every ``LOAD_PHONE_WAIT`` seconds."""
    loop = asyncio.get_running_loop()
    timer = loadkit.PollTimer(hall.cfg.wait)
    timer.start(loop.time())
    while not hall.done.is_set():
        await asyncio.sleep(timer.wait(loop.time()))
        await hall.get(index, kind, page, f"phone poll {kind}", client=client)
        hall.mark_ready(index)


async def follow(hall: Hall, index: int, kind: str, page: loadkit.LivePage, topics: frozenset[str], delay: float,
                 client: httpx.AsyncClient | None = None) -> None:
    """The pushed phone: one event stream, a refresh on each event naming one of ``topics``, at
    most one every ``delay`` seconds."""
    loop = asyncio.get_running_loop()
    coalescer = hallkit.Coalescer(delay, jitter=delay / 2, rng=random.Random(index))
    # As static/js/live.js asks: only the events naming the page's topics are sent, at most one
    # per the region's delay (merged on the server).
    url = f"{hall.cfg.events_url}?topics={quote(' '.join(sorted(topics)))}" + (f"&delay={delay:g}" if delay > 0 else "")

    in_flight = False

    async def refresh_at(due: float) -> None:
        nonlocal in_flight
        await asyncio.sleep(max(0.0, due - loop.time()))
        coalescer.fired(loop.time())
        if in_flight:  # htmx's default (hx-sync "drop"): no second request while one is in flight
            hall.dropped += 1
            return
        in_flight = True
        try:
            await hall.get(index, kind, page, f"phone refresh {kind}", client=client)
        finally:
            in_flight = False

    while not hall.done.is_set():
        started = time.perf_counter()
        try:
            async with aconnect_sse(client or hall.client, "GET", url, headers=hall.headers,
                                    timeout=httpx.Timeout(10.0, read=None)) as source:
                resp = source.response
                hall.account(index, kind, "phone events (connect)", resp, b"", started)
                if resp.status_code != 200:
                    raise httpx.HTTPStatusError("no event stream", request=resp.request, response=resp)
                hall.mark_ready(index)
                seen = resp.num_bytes_downloaded
                async for event in source.aiter_sse():
                    got, seen = resp.num_bytes_downloaded - seen, resp.num_bytes_downloaded
                    hall.meter.add(kind, index, 0, got)
                    hall.gz.add(kind, index, 0, got)
                    hall.events += 1
                    if hallkit.topics_match(topics, hallkit.event_topics(event.data)):
                        due = coalescer.event(loop.time())
                        if due is not None:
                            asyncio.ensure_future(refresh_at(due))
        except (httpx.HTTPError, SSEError) as exc:
            hall.errors += 1
            status = f" {exc.response.status_code}" if isinstance(exc, httpx.HTTPStatusError) else ""
            hall.error_kinds[f"phone events: {type(exc).__name__}{status}"] += 1
        if not hall.done.is_set():
            await asyncio.sleep(random.uniform(1, 3))


async def phone(hall: Hall, index: int, kind: str, url: str, topics: frozenset[str]) -> None:
    """One phone: it arrives, loads its page, then polls it or follows its events, with its own
    connections as a real phone has (one client each: httpx's shared pool scans all its
    connections on every request, which at 2,000 phones made the load generator, not the server,
    the bottleneck)."""
    await asyncio.sleep(random.uniform(0, hall.cfg.arrival))
    async with httpx.AsyncClient(limits=httpx.Limits(max_connections=4, max_keepalive_connections=2),
                                 timeout=httpx.Timeout(30.0), verify=hall.ssl) as client:
        await _phone(hall, index, kind, url, topics, client)


async def _phone(hall: Hall, index: int, kind: str, url: str, topics: frozenset[str], client: httpx.AsyncClient) -> None:
    page = loadkit.LivePage(url)
    hall.meter.register(kind, index)
    hall.gz.register(kind, index)
    text = await hall.get(index, kind, page, f"phone load {kind}", full=True, client=client)
    if hall.cfg.mode == "poll":
        await poll(hall, index, kind, page, client)
        return
    # The topics and delay the page's live region declares (data-live-topics, data-live-delay).
    declared, delay = hallkit.live_region(text)
    if hall.cfg.coalesce is not None:
        delay = hall.cfg.coalesce
    await follow(hall, index, kind, page, declared or topics, hallkit.DEFAULT_DELAYS[kind] if delay is None else delay,
                 client)


def assign(cfg: Config, plan: dict, rng: random.Random) -> list[tuple[str, str, frozenset[str]]]:
    """``[(page kind, URL, topics)]`` of every phone."""
    kinds = list(cfg.pages)
    matches = plan.get("all_matches") or plan["matches"]
    out = []
    for _ in range(cfg.phones):
        kind = rng.choices(kinds, weights=[cfg.pages[k] for k in kinds])[0]
        match = rng.choice(matches)
        url = loadkit.page_url(kind, plan["slug"], plan.get("round", 1), match)
        if kind == "standings" and cfg.view:
            url += cfg.view.replace("{team}", str(rng.choice(plan["teams"])))
        out.append((kind, url, hallkit.page_topics(kind, plan.get("round", 1), match)))
    return out


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


async def measure(hall: Hall, assigned: list) -> None:
    """Wait for the mark, reset, measure, write the figures, stop every phone."""
    cfg, start = hall.cfg, time.monotonic()
    while cfg.mark and not Path(cfg.mark).exists() and time.monotonic() - start < cfg.give_up:
        await asyncio.sleep(0.2)
    hall.reset()
    cpu0, t0 = cpu_seconds(), time.monotonic()
    await asyncio.sleep(cfg.measure)
    seconds = time.monotonic() - t0
    kinds = Counter(kind for kind, _url, _topics in assigned)
    data = {
        "mode": cfg.mode, "phones": dict(kinds), "seconds": round(seconds, 1), "compressed": cfg.compressed,
        "coalesce": cfg.coalesce, "wait": cfg.wait, "view": cfg.view, "ready": len(hall.ready),
        "bytes": {k: dict(zip(("received", "sent", "phones"), hall.meter.per_minute(k, seconds), strict=True))
                  | {"received_gzip": hall.gz.per_minute(k, seconds)[0]} for k in kinds},
        "latency": {n: dict(h) for n, h in hall.latency.items()},
        "counts": {n: dict(c) for n, c in hall.counts.items()},
        "events": hall.events, "errors": hall.errors, "error_kinds": dict(hall.error_kinds), "dropped": hall.dropped, "cpu": round(cpu_seconds() - cpu0, 2),
    }
    Path(cfg.out).write_text(json.dumps(data), encoding="utf-8")
    hall.done.set()


async def main() -> None:
    cfg = Config()
    plan = json.loads(Path(os.environ["LOAD_PLAN"]).read_text(encoding="utf-8"))
    cfg.events_url = f"{cfg.events_base}/events/{plan['slug']}/"
    assigned = assign(cfg, plan, random.Random(int(os.environ.get("LOAD_SEED", "25"))))
    limits = httpx.Limits(max_connections=None, max_keepalive_connections=256)
    async with httpx.AsyncClient(limits=limits, timeout=httpx.Timeout(30.0), verify=False) as client:
        hall = Hall(cfg, client)
        tasks = [asyncio.ensure_future(phone(hall, i, *a)) for i, a in enumerate(assigned)]
        await measure(hall, assigned)
        for t in tasks:
            t.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)


if __name__ == "__main__":
    try:  # uvloop (a requirement of the events process) when there: a cheaper event loop for 2,000 phones
        import uvloop
    except ImportError:
        asyncio.run(main())
    else:
        uvloop.run(main())
