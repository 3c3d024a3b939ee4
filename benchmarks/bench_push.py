"""Pushed live pages (issue 25 item 2): the events process holding 2,000 open event streams.

Starts the events process as production runs it (``uvicorn nskt.asgi:application``, one process,
DEBUG off, Redis pub/sub as the channel layer) on an SQLite file with one tournament, opens
``PUSH_CONNECTIONS`` (2,000) server-sent event streams of that tournament from this process
(aiohttp, asyncio), publishes ``PUSH_EVENTS`` events with :func:`scoring.live.push.publish` (as
a web process does after a commit: through Redis) one every ``PUSH_GAP`` seconds, and prints:
the streams held to the end, the server's resident memory before the streams and with them (per
stream), the server's CPU time per event, and the time from a publish to the LAST stream receiving it (p50 / p95 over the events)
and to every stream (p95 over all deliveries). The baseline, measured in the same run and the
same way: ``PUSH_BASELINE`` (100) streams. Wall-clock times (what a phone waits); the client
and the server share the machine's two cores, so the latency includes this process reading
2,000 streams.

Needs Redis: ``PUSH_REDIS_URL`` (default ``redis://127.0.0.1:6379/0``; pub/sub ignores the
database, the channel prefix is this run's own). Raises this process's open-files limit to
its hard limit when lower than the streams need.
"""
from __future__ import annotations

import asyncio
import json
import os
import resource
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

from _common import ROOT, VAR, Table

REDIS = os.environ.get("PUSH_REDIS_URL", "redis://127.0.0.1:6379/0")
CONNECTIONS = int(os.environ.get("PUSH_CONNECTIONS", "2000"))
BASELINE = int(os.environ.get("PUSH_BASELINE", "100"))
EVENTS = int(os.environ.get("PUSH_EVENTS", "15"))
GAP = float(os.environ.get("PUSH_GAP", "1"))
DB = VAR / "push.sqlite3"
SLUG = "push-bench"
PREFIX = f"nskt-bench-{os.getpid()}"


def environment() -> dict:
    """The events process's (and this process's) settings: production mode on the SQLite file."""
    return {**os.environ, "DJANGO_SETTINGS_MODULE": "nskt.settings", "DEBUG": "0", "SECRET_KEY": "bench-" + "x" * 50,
            "DATABASE_URL": f"sqlite:///{DB}", "REDIS_URL": REDIS, "LIVE_CHANNEL_PREFIX": PREFIX,
            "ALLOWED_HOSTS": "127.0.0.1"}


def setup() -> int:
    """Django in this process (for publish) on the benchmark file with one tournament; its id."""
    os.environ.update(environment())
    DB.parent.mkdir(parents=True, exist_ok=True)
    import django

    django.setup()
    from django.core.management import call_command

    call_command("migrate", verbosity=0)
    from scoring.models import Tournament

    t, _ = Tournament.objects.get_or_create(slug=SLUG, defaults={"name": "Push benchmark", "game": "taipan", "rules": "nskt"})
    return t.pk


def raise_files_limit(need: int) -> None:
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft < need:
        resource.setrlimit(resource.RLIMIT_NOFILE, (min(hard, max(need, soft)), hard))


def rss_mb(pid: int) -> float:
    """Resident memory of process ``pid`` in MB (``/proc``)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def cpu_seconds(pid: int) -> float:
    """User plus system CPU seconds process ``pid`` has used (``/proc``)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def start_server() -> tuple[subprocess.Popen, str]:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    proc = subprocess.Popen([sys.executable, "-m", "uvicorn", "nskt.asgi:application", "--host", "127.0.0.1",
                             "--port", str(port), "--loop", os.environ.get("PUSH_LOOP", "auto"), "--no-access-log", "--log-level", "warning", "--lifespan", "off"],
                            cwd=ROOT, env=environment())
    deadline = time.monotonic() + 60
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                break
        except OSError:
            if proc.poll() is not None or time.monotonic() > deadline:
                raise RuntimeError("uvicorn did not start") from None
            time.sleep(0.2)
    return proc, f"http://127.0.0.1:{port}/events/{SLUG}/"


class Streams:
    """``n`` open event streams; ``arrivals[event number]`` the times each received it."""

    def __init__(self, url: str, n: int):
        self.url, self.n = url, n
        self.ready = 0
        self.alive = 0
        self.arrivals: dict[int, list[float]] = {}
        self.all_ready = asyncio.Event()

    async def one(self, session, gate: asyncio.Semaphore) -> None:
        async with gate:
            resp = await session.get(self.url, timeout=None)
            assert resp.status == 200, resp.status
            line = await resp.content.readline()
            assert line.startswith(b"retry:"), line
        self.ready += 1
        self.alive += 1
        if self.ready == self.n:
            self.all_ready.set()
        try:
            async for line in resp.content:
                if line.startswith(b"data: "):
                    seq = json.loads(line[6:])["versions"]["bench"]
                    self.arrivals.setdefault(seq, []).append(time.perf_counter())
        except (asyncio.CancelledError, Exception):
            pass
        finally:
            self.alive -= 1
            resp.release()


async def measure(url: str, n: int, pid: int, tournament_id: int) -> dict:
    """Open ``n`` streams, publish :data:`EVENTS` events, close; the figures."""
    import aiohttp

    from scoring.live.push import publish

    before = rss_mb(pid)
    streams = Streams(url, n)
    gate = asyncio.Semaphore(200)  # phones arrive in waves, not all in one instant
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(limit=0, force_close=True)) as session:
        tasks = [asyncio.ensure_future(streams.one(session, gate)) for _ in range(n)]
        await asyncio.wait_for(streams.all_ready.wait(), 300)
        await asyncio.sleep(1)
        held = rss_mb(pid)
        sent: dict[int, float] = {}
        cpu_before = cpu_seconds(pid)
        for seq in range(EVENTS):
            sent[seq] = time.perf_counter()
            publish(tournament_id, ["standings"], {"bench": seq})
            await asyncio.sleep(GAP)
        deadline = time.monotonic() + 20
        while sum(len(v) for v in streams.arrivals.values()) < n * EVENTS and time.monotonic() < deadline:
            await asyncio.sleep(0.1)
        # the server's CPU for the events (and the streams' heartbeats meanwhile), per event
        cpu_event = (cpu_seconds(pid) - cpu_before) / EVENTS
        alive = streams.alive
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
    last = [max(streams.arrivals[s]) - sent[s] for s in sent if len(streams.arrivals.get(s, [])) == n]
    every = sorted(t - sent[s] for s in sent for t in streams.arrivals.get(s, []))
    delivered = sum(len(v) for v in streams.arrivals.values())
    return {"held": alive, "cpu": cpu_event, "before": before, "with": held, "per": (held - before) * 1024 / n,
            "last50": statistics.median(last) if last else float("nan"),
            "last95": quantile(last, 0.95), "every95": quantile(every, 0.95),
            "complete": len(last), "delivered": delivered, "expected": n * EVENTS}


def quantile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.1f} ms"


def main() -> None:
    raise_files_limit(CONNECTIONS * 2 + 200)
    tournament_id = setup()
    results = {}
    for n in (BASELINE, CONNECTIONS):  # a fresh server for each, so memory starts from the same point
        proc, url = start_server()
        try:
            results[n] = asyncio.run(measure(url, n, proc.pid, tournament_id))
        finally:
            proc.terminate()
            proc.wait(30)
    base, ours = results[BASELINE], results[CONNECTIONS]
    table = Table("push", ["figure", f"{CONNECTIONS:,} streams", f"baseline: {BASELINE:,} streams", "ratio"])
    rows = [
        ("streams held to the end", f"{ours['held']:,} of {CONNECTIONS:,}", f"{base['held']:,} of {BASELINE:,}", ""),
        ("events delivered within 20 s of the last publish", f"{ours['delivered']:,} of {ours['expected']:,}", f"{base['delivered']:,} of {base['expected']:,}", ""),
        ("server memory, no streams", f"{ours['before']:.0f} MB", f"{base['before']:.0f} MB", ""),
        ("server memory, streams open", f"{ours['with']:.0f} MB", f"{base['with']:.0f} MB", ""),
        ("memory per stream", f"{ours['per']:.1f} KB", f"{base['per']:.1f} KB", f"{ours['per'] / base['per']:.2f}x"),
        ("server CPU per event", ms(ours["cpu"]), ms(base["cpu"]), f"{ours['cpu'] / base['cpu']:.2f}x"),
        ("publish to last stream, p50", ms(ours["last50"]), ms(base["last50"]), f"{ours['last50'] / base['last50']:.2f}x"),
        ("publish to last stream, p95", ms(ours["last95"]), ms(base["last95"]), f"{ours['last95'] / base['last95']:.2f}x"),
        ("publish to each stream, p95", ms(ours["every95"]), ms(base["every95"]), f"{ours['every95'] / base['every95']:.2f}x"),
    ]
    for row in rows:
        print(f"{row[0]}: {row[1]} | baseline ({BASELINE} streams): {row[2]}" + (f" | ratio {row[3]}" if row[3] else ""))
        table.row(*row)
    print(f"({EVENTS} events {GAP:g} s apart; one uvicorn process; Redis pub/sub; wall-clock times)")
    table.print()


if __name__ == "__main__":
    main()
