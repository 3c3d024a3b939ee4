"""The event stream of a tournament (issue 25 item 2, ``scoring.live.events``) and
:func:`scoring.live.push.publish`: a page following its tournament receives what is published
for that tournament and nothing of another, the stream starts with ``retry:`` and beats, it ends
when the client goes away, and a publish never raises (nobody listening, Redis down).

The consumer runs in asgiref's :class:`~asgiref.testing.ApplicationCommunicator` on the
in-process channel layer; the last test goes through Redis when the suite has one (``REDIS_URL``)."""
from __future__ import annotations

import json
import logging
import time

import pytest
from asgiref.sync import async_to_sync, sync_to_async
from asgiref.testing import ApplicationCommunicator
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from django.urls import path

from scoring.live import push
from scoring.live.events import TournamentEvents
from tests.factories import TournamentFactory

# transaction=True: the consumer reads the tournament through channels.db.database_sync_to_async, which
# closes old connections around the call (on PostgreSQL that would close the test's open transaction).
pytestmark = pytest.mark.django_db(transaction=True)

APP = URLRouter([path("events/<slug:slug>/", TournamentEvents.as_asgi())])
IN_MEMORY = {"default": {"BACKEND": "channels.layers.InMemoryChannelLayer"}}


@pytest.fixture(autouse=True)
def _in_memory_layer(settings):
    settings.CHANNEL_LAYERS = IN_MEMORY
    settings.LIVE_RETRY_MS = 5000
    settings.LIVE_HEARTBEAT_SECONDS = 20


def stream(slug: str, query: bytes = b"") -> ApplicationCommunicator:
    scope = {"type": "http", "http_version": "1.1", "method": "GET", "path": f"/events/{slug}/",
             "raw_path": f"/events/{slug}/".encode(), "query_string": query, "headers": [(b"accept", b"text/event-stream")]}
    return ApplicationCommunicator(APP, scope)


async def opened(slug: str, query: bytes = b""):
    """A stream of ``slug`` opened: (communicator, response start, first body)."""
    comm = stream(slug, query)
    await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
    start = await comm.receive_output(2)
    first = await comm.receive_output(2)
    return comm, start, first


def joined_groups(layer, tournament_id: int) -> set[str]:
    """The in-process layer's groups of tournament ``tournament_id`` that some stream is in."""
    prefix = push.group_name(tournament_id).split(".")
    return {g for g, members in layer.groups.items() if members and g.split(".")[:2] == prefix}


def data_of(message: dict) -> dict:
    """The JSON data of one server-sent event in a body message."""
    body = message["body"].decode()
    assert body.startswith("data: ") and body.endswith("\n\n"), body
    return json.loads(body[len("data: "):])


def test_a_page_receives_its_tournaments_events_and_not_another_ones():
    ours, other = TournamentFactory(slug="ours"), TournamentFactory(slug="other")

    async def scenario():
        comm, start, first = await opened("ours")
        assert start["status"] == 200
        assert dict(start["headers"])[b"Content-Type"] == b"text/event-stream; charset=utf-8"
        assert first == {"type": "http.response.body", "body": b"retry: 5000\n\n", "more_body": True}
        await sync_to_async(push.publish)(other.pk, ["standings"], {"standings": 9})
        assert await comm.receive_nothing(0.2)
        await sync_to_async(push.publish)(ours.pk, ["standings", "result:7", "standings"], {"standings": 3})
        message = await comm.receive_output(2)
        assert message["more_body"] is True
        assert data_of(message) == {"topics": ["result:7", "standings"], "versions": {"standings": 3}}
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(2)

    async_to_sync(scenario)()


def test_a_stream_asking_for_topics_gets_only_the_events_naming_one():
    t = TournamentFactory(slug="topics")

    async def scenario():
        comm, _start, _first = await opened("topics", b"topics=standings+result%3A*")
        await sync_to_async(push.publish)(t.pk, ["round:1", "board:3"], {})
        assert await comm.receive_nothing(0.2)  # neither the standings nor a result
        await sync_to_async(push.publish)(t.pk, ["result:12", "round:1"], {})
        assert data_of(await comm.receive_output(2))["topics"] == ["result:12", "round:1"]  # result:* matches
        await sync_to_async(push.publish)(t.pk, ["standings"], {"standings": 4})
        assert data_of(await comm.receive_output(2)) == {"topics": ["standings"], "versions": {"standings": 4}}
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(2)

    async_to_sync(scenario)()


def test_a_stream_with_a_delay_sends_at_most_one_event_per_delay_merging_the_others():
    t = TournamentFactory(slug="delay")
    delay = 1.5  # long enough that a busy machine's publishes fit well inside it

    async def scenario():
        comm, _start, _first = await opened("delay", b"topics=standings+round%3A1&delay=1.5")
        began = time.monotonic()  # before the first event, so before its delay starts
        await sync_to_async(push.publish)(t.pk, ["standings"], {"standings": 1})
        assert data_of(await comm.receive_output(2)) == {"topics": ["standings"], "versions": {"standings": 1}}
        # Within the delay: held, then one event with both topics and the highest versions. The next
        # message is that merged event, and it comes only once the delay has passed.
        await sync_to_async(push.publish)(t.pk, ["standings"], {"standings": 2, "tournament": 5})
        await sync_to_async(push.publish)(t.pk, ["round:1", "result:3"], {"standings": 3})
        await sync_to_async(push.publish)(t.pk, ["result:4"], {"standings": 9})  # not asked for: not merged
        merged = await comm.receive_output(delay + 2)
        assert time.monotonic() - began >= delay
        assert data_of(merged) == {"topics": ["result:3", "round:1", "standings"],
                                   "versions": {"standings": 3, "tournament": 5}}
        # A delay with nothing held closes the window: the next event goes at once.
        assert await comm.receive_nothing(delay + 0.3)
        await sync_to_async(push.publish)(t.pk, ["standings"], {"standings": 10})
        quick = time.monotonic()
        assert data_of(await comm.receive_output(2))["versions"] == {"standings": 10}
        assert time.monotonic() - quick < delay / 2
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(2)

    async_to_sync(scenario)()


def test_a_stream_joins_the_groups_of_its_topics_and_gets_an_event_once():
    t = TournamentFactory(slug="groups")
    layer = get_channel_layer()

    async def scenario():
        comm, _start, _first = await opened("groups", b"topics=standings+tournament+result%3A*")
        assert joined_groups(layer, t.pk) == {push.group_name(t.pk, "standings"), push.group_name(t.pk, "tournament"),
                          push.group_name(t.pk, "result:*")}
        # An event naming two of the stream's topics reaches it through two groups: sent once.
        await sync_to_async(push.publish)(t.pk, ["standings", "tournament"], {"standings": 2})
        assert data_of(await comm.receive_output(2))["topics"] == ["standings", "tournament"]
        assert await comm.receive_nothing(0.3)
        await sync_to_async(push.publish)(t.pk, ["result:8", "board:1"], {})
        assert data_of(await comm.receive_output(2))["topics"] == ["board:1", "result:8"]
        await sync_to_async(push.publish)(t.pk, ["board:1", "round:1"], {})  # none of its topics
        assert await comm.receive_nothing(0.3)
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(2)
        assert joined_groups(layer, t.pk) == set()

    async_to_sync(scenario)()


def test_a_stream_asking_for_another_prefix_follows_the_tournament_and_filters():
    t = TournamentFactory(slug="prefix")
    layer = get_channel_layer()

    async def scenario():
        comm, _start, _first = await opened("prefix", b"topics=res*")
        assert joined_groups(layer, t.pk) == {push.group_name(t.pk)}
        await sync_to_async(push.publish)(t.pk, ["round:1"], {})
        assert await comm.receive_nothing(0.2)
        await sync_to_async(push.publish)(t.pk, ["result:5"], {})
        assert data_of(await comm.receive_output(2))["topics"] == ["result:5"]
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(2)

    async_to_sync(scenario)()


def test_the_groups_of_an_event_and_of_a_stream():
    from scoring.live.events import requested_topics, stream_groups

    assert push.event_groups(3, ["result:12", "standings", "result:12", "a b"]) == [
        "live.t3", "live.t3.result.12", "live.t3.result._all", "live.t3.standings"]
    assert stream_groups(3, requested_topics(b"")) == ["live.t3"]
    assert stream_groups(3, requested_topics(b"topics=round%3A1+result%3A*")) == ["live.t3.round.1", "live.t3.result._all"]
    assert stream_groups(3, requested_topics(b"topics=standings+x%2Fy")) == ["live.t3"]  # no group for x/y
    with pytest.raises(ValueError):
        push.group_name(3, "a.b")


def test_a_channel_layer_that_cannot_be_reached_is_a_503_with_one_log_line(monkeypatch, caplog):
    TournamentFactory(slug="nolayer")
    layer = get_channel_layer()

    async def refused(*args, **kwargs):
        raise ConnectionError("Error 111 connecting to 127.0.0.1:6379. Connection refused.")

    monkeypatch.setattr(layer, "group_add", refused)

    async def scenario():
        comm = stream("nolayer", b"topics=standings&delay=30")
        await comm.send_input({"type": "http.request", "body": b"", "more_body": False})
        start = await comm.receive_output(2)
        assert start["status"] == 503 and dict(start["headers"])[b"Retry-After"] == b"60"
        await comm.receive_output(2)  # the empty body
        await comm.wait(2)  # the consumer stopped

    with caplog.at_level(logging.WARNING, logger="scoring.live.events"):
        async_to_sync(scenario)()
    assert [r.message for r in caplog.records if r.name == "scoring.live.events"] == [
        "event stream refused, the channel layer is unavailable: ConnectionError('Error 111 connecting to 127.0.0.1:6379. "
        "Connection refused.')"]


@pytest.mark.parametrize(("query", "delay"), [
    (b"", 0.0), (b"delay=20", 20.0), (b"delay=2.5&topics=x", 2.5), (b"delay=-3", 0.0), (b"delay=abc", 0.0),
    (b"delay=nan", 0.0), (b"delay=100000", 300.0), (b"delay=inf", 300.0),
])
def test_requested_delay(query, delay):
    from scoring.live.events import requested_delay

    assert requested_delay(query) == delay


@pytest.mark.parametrize(("query", "topics", "sent"), [
    (b"", ["round:1"], True),                                  # no topics asked: every event
    (b"topics=", ["round:1"], True),
    (b"topics=standings,tournament", ["tournament"], True),    # commas work as spaces
    (b"topics=standings%20tournament", ["round:1"], False),
    (b"topics=round%3A1", ["round:10"], False),                # exact, not a prefix
    (b"topics=round%3A*", ["round:10"], True),
    (b"topics=result%3A*&topics=hall", ["hall"], True),        # repeated parameter
    (b"topics=" + b"+".join(b"round%%3A%d" % i for i in range(60)), ["standings"], True),  # over 50: every event
])
def test_requested_topics_decide_what_a_stream_is_sent(query, topics, sent):
    from scoring.live.events import requested_topics, wanted

    assert wanted(topics, requested_topics(query)) is sent


def test_the_stream_beats_and_says_when_to_retry(settings):
    TournamentFactory(slug="beat")
    settings.LIVE_HEARTBEAT_SECONDS = 0.05
    settings.LIVE_RETRY_MS = 1500

    async def scenario():
        comm, _start, first = await opened("beat")
        assert first["body"] == b"retry: 1500\n\n"
        beats = [await comm.receive_output(1) for _ in range(2)]
        assert [b["body"] for b in beats] == [b": beat\n\n", b": beat\n\n"]
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(2)

    async_to_sync(scenario)()


def test_leaving_ends_the_stream_and_leaves_the_group():
    t = TournamentFactory(slug="leave")
    layer = get_channel_layer()

    async def scenario():
        comm, _start, _first = await opened("leave")
        assert layer.groups.get(push.group_name(t.pk))
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(2)  # the consumer stopped
        assert not layer.groups.get(push.group_name(t.pk))

    async_to_sync(scenario)()


def test_an_unknown_tournament_is_404_and_the_stream_ends():
    async def scenario():
        comm = stream("nothing-here")
        await comm.send_input({"type": "http.request", "body": b""})
        start = await comm.receive_output(2)
        body = await comm.receive_output(2)
        assert start["status"] == 404 and body["more_body"] is False
        await comm.wait(2)

    async_to_sync(scenario)()


def test_publish_with_nobody_listening_or_nothing_changed_does_nothing():
    t = TournamentFactory()
    assert push.publish(t.pk, ["standings"], {"standings": 1}) is None
    assert push.publish(t.pk, []) is None


def test_publish_with_redis_down_returns_at_once_and_logs(settings, caplog):
    """A Redis that is not there (a closed port): publish returns without waiting and without
    raising; the failure is logged by the background sender within its timeout."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [{"address": "redis://127.0.0.1:1/0", "socket_connect_timeout": 1}]}}}
    t = TournamentFactory()
    get_channel_layer()  # the layer built (its modules imported) before the clock starts
    with caplog.at_level(logging.WARNING, logger="scoring.live.push"):
        began = time.monotonic()
        push.publish(t.pk, ["standings"], {"standings": 1})
        assert time.monotonic() - began < 0.5
        deadline = time.monotonic() + push.SEND_TIMEOUT + 3
        while not caplog.records and time.monotonic() < deadline:
            time.sleep(0.05)
    assert [r.getMessage().startswith("live push not sent") for r in caplog.records] == [True]


def test_publish_never_raises_even_when_the_layer_does(monkeypatch, caplog):
    def broken(alias="default"):
        raise RuntimeError("misconfigured layer")

    monkeypatch.setattr(push, "get_channel_layer", broken)
    with caplog.at_level(logging.WARNING, logger="scoring.live.push"):
        push.publish(1, ["standings"])
    assert "misconfigured layer" in caplog.text


@pytest.mark.django_db(transaction=True)
def test_through_redis_a_publish_of_a_web_process_reaches_the_stream(settings):
    """With Redis (``REDIS_URL``, as in production): publish from sync code goes through the
    background sender and Redis pub/sub to the consumer."""
    if not settings.REDIS_URL:
        pytest.skip("REDIS_URL is not set")
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
                                           "CONFIG": {"hosts": [{"address": settings.REDIS_URL}],
                                                      "prefix": f"nskt-live-test-{time.time_ns()}"}}}
    t = TournamentFactory(slug="redis")

    async def scenario():
        comm, _start, _first = await opened("redis")
        for attempt in range(20):  # the subscription reaches Redis shortly after the group join
            await sync_to_async(push.publish, thread_sensitive=False)(t.pk, ["hall"], {"hall": attempt})
            try:
                message = await comm.receive_output(0.25)
                break
            except TimeoutError:
                continue
        else:
            pytest.fail("no event through Redis")
        assert data_of(message)["topics"] == ["hall"]
        await comm.send_input({"type": "http.disconnect"})
        await comm.wait(2)

    async_to_sync(scenario)()
