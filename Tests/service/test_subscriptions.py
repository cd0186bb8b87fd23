"""Live queries on the release `shop serve`: GraphQL subscriptions over WebSocket
(graphql-transport-ws, through the `gql` client and raw `websockets`) and over server-sent events
(GraphQL over SSE, through `httpx`).

Each subscriber watches the items of one list while commits arrive through GraphQL, CloudKit Web
Services and a separate `shop` process writing the server's data file: after every commit the
subscriber must get the new result, once, in commit order, within a second; a batch that rolls
back must never show. 200 subscribers at once are served, a subscriber sees only what its
grants let it read, and the protocol's refusals close the WebSocket with its codes.
"""

import asyncio
import json
import pathlib
import queue
import re
import signal
import socket
import subprocess
import tempfile
import threading
import time

import httpx
import pytest
import websockets
from gql import Client, gql
from gql.transport.websockets import WebsocketsTransport

from conftest import SHOP, Server, add_user, create_token, shop

# Diaries are readable only by their creator.
DIARIES = """
DEFINE SCHEMA
    RECORD TYPE Diaries (
        title           STRING QUERYABLE SORTABLE,
        GRANT READ, WRITE TO "_creator",
        GRANT CREATE TO "_icloud"
    );
"""
SUBPROTOCOL = "graphql-transport-ws"
WITHIN = 1.0  # seconds from a commit to its event


def items_of(list_name):
    return 'subscription { Items(where: {list: {eq: "%s"}}, sort: [{name: ASC}]) { name } }' % list_name


class World:
    """A service on a data folder of its own, with an admin token and two users' tokens."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        self.file = self.folder / "shop.sqlite"
        schema = self.folder / "diaries.ckdb"
        schema.write_text(DIARIES)
        subprocess.run([SHOP, "--db", str(self.file), "-e", f"schema import {schema}"], check=True, capture_output=True, timeout=60)
        for name in ("ann", "bob"):
            add_user(self.folder, name, f"{name}-password-1234")
        self.tokens = {"admin": create_token(self.folder, "--admin", label="admin")}
        for name in ("ann", "bob"):
            self.tokens[name] = create_token(self.folder, "--user", name, label=name)
        self.server = Server(self.folder)
        self.ws_url = self.server.url.replace("http://", "ws://") + "/graphql"

    def graphql(self, query, who="admin"):
        answer = httpx.post(f"{self.server.url}/graphql", json={"query": query}, timeout=30,
                            headers={"Authorization": f"Bearer {self.tokens[who]}"})
        return answer.json()

    def modify(self, *operations, atomic=True):
        return httpx.post(f"{self.server.database_url()}/records/modify", json={"operations": list(operations), "atomic": atomic},
                          headers={"Authorization": f"Bearer {self.tokens['admin']}"}, timeout=30)

    def shop_process(self, command):
        """Runs `command` in a separate `shop` process on the server's data file."""
        subprocess.run([SHOP, "--db", str(self.file), "-e", command], check=True, capture_output=True, text=True, timeout=60)


@pytest.fixture(scope="module")
def world():
    with tempfile.TemporaryDirectory(prefix="shop-live-") as folder:
        running = World(folder)
        try:
            yield running
        finally:
            assert running.server.stop() == 0


def new_list(world, record_name, name):
    created = world.graphql('mutation { createLists(recordName: "%s", fields: {name: "%s"}) { name } }' % (record_name, name))
    assert "errors" not in created, created


def create_item(list_record, name):
    return 'mutation { createItems(fields: {name: "%s", list: {recordName: "%s", action: DELETE_SELF}}) { name } }' % (name, list_record)


def scenario(world, list_record, list_name):
    """The commits of the ordering tests, each with the items the list holds after it (None for
    a batch that must roll back and change nothing)."""
    names = []

    def expect(*, add=(), remove=()):
        for name in add:
            names.append(name)
        for name in remove:
            names.remove(name)
        return sorted(names)

    def item_record(name):
        found = world.graphql('{ Items(where: {name: {eq: "%s"}, list: {eq: "%s"}}) { recordName } }' % (name, list_record))
        return found["data"]["Items"][0]["recordName"]

    steps = [
        (lambda: world.graphql(create_item(list_record, "a01")), lambda: expect(add=["a01"])),
        (lambda: world.shop_process(f"item add {list_name} a02"), lambda: expect(add=["a02"])),
        (lambda: world.modify({"operationType": "create", "record": {"recordType": "Items", "fields": {
            "name": {"value": "a03"}, "list": {"value": {"recordName": list_record, "action": "DELETE_SELF"}}}}}),
         lambda: expect(add=["a03"])),
        # Two items of one name in one list break UNIQUE (list, name): the whole batch rolls back.
        (lambda: world.graphql('mutation { a: createItems(fields: {name: "ghost", list: {recordName: "%s", action: DELETE_SELF}}) { name }'
                               ' b: createItems(fields: {name: "a01", list: {recordName: "%s", action: DELETE_SELF}}) { name } }'
                               % (list_record, list_record)), None),
        (lambda: world.modify(
            {"operationType": "create", "record": {"recordType": "Items", "fields": {
                "name": {"value": "ghost2"}, "list": {"value": {"recordName": list_record, "action": "DELETE_SELF"}}}}},
            {"operationType": "update", "record": {"recordType": "Items", "recordName": "missing-record", "fields": {}}}), None),
        (lambda: world.shop_process(f"item add {list_name} a04"), lambda: expect(add=["a04"])),
        (lambda: world.graphql('mutation { deleteItems(recordName: "%s") { deleted } }' % item_record("a02")), lambda: expect(remove=["a02"])),
        (lambda: world.graphql('mutation { updateItems(recordName: "%s", fields: {name: "a05"}) { name } }' % item_record("a01")),
         lambda: expect(remove=["a01"], add=["a05"])),
        (lambda: world.shop_process(f"item add {list_name} a06"), lambda: expect(add=["a06"])),
    ]
    return steps


def check_scenario(world, list_record, list_name, next_event):
    """Runs the scenario; `next_event(timeout)` is the subscriber's next result (a list of names),
    or raises queue.Empty. Every commit's result arrives once, in order, within WITHIN seconds;
    a rolled-back batch gives nothing."""
    seen = []
    for commit, expected in scenario(world, list_record, list_name):
        commit()
        committed = time.monotonic()
        if expected is None:
            with pytest.raises(queue.Empty):
                extra = next_event(0.5)
                seen.append(extra)
            continue
        names = next_event(WITHIN + 0.5)
        assert time.monotonic() - committed < WITHIN
        assert names == expected(), f"after {len(seen)} events: {seen}"
        seen.append(names)
    with pytest.raises(queue.Empty):
        next_event(0.5)
    assert not any("ghost" in name for names in seen for name in names)


def names_of(result):
    return [item["name"] for item in result["Items"]]


def test_gql_over_websocket_gets_every_commit_once_in_order_within_a_second(world):
    new_list(world, "WS", "WebsocketList")
    events = queue.Queue()
    started = threading.Event()
    stop = threading.Event()

    async def subscribe():
        transport = WebsocketsTransport(url=world.ws_url, init_payload={"Authorization": f"Bearer {world.tokens['admin']}"},
                                        subprotocols=[WebsocketsTransport.GRAPHQLWS_SUBPROTOCOL])
        async with Client(transport=transport) as session:
            async for result in session.subscribe(gql(items_of("WS"))):
                events.put(names_of(result))
                started.set()
                if stop.is_set():
                    return

    thread = threading.Thread(target=lambda: asyncio.run(subscribe()), daemon=True)
    thread.start()
    assert events.get(timeout=10) == []
    check_scenario(world, "WS", "WebsocketList", lambda timeout: events.get(timeout=timeout))
    stop.set()
    world.graphql(create_item("WS", "zz-last"))  # wakes the loop so it sees `stop`
    thread.join(timeout=10)


class EventStream:
    """A GraphQL-over-SSE request read on a thread of its own: its events in a queue."""

    def __init__(self, world, query, who="admin"):
        self.events = queue.Queue()
        self.response = None
        self.opened = threading.Event()
        self.thread = threading.Thread(target=self._read, args=(world, query, who), daemon=True)
        self.thread.start()
        assert self.opened.wait(10)

    def _read(self, world, query, who):
        headers = {"Authorization": f"Bearer {world.tokens[who]}", "Accept": "text/event-stream"}
        with httpx.Client(timeout=httpx.Timeout(30)) as client:
            with client.stream("POST", f"{world.server.url}/graphql", json={"query": query}, headers=headers) as response:
                self.response = response
                self.opened.set()
                name, data = None, []
                try:
                    for line in response.iter_lines():
                        if line == "":
                            if name or data:
                                self.events.put((name or "message", "\n".join(data)))
                            name, data = None, []
                        elif not line.startswith(":"):
                            field, _, value = line.partition(":")
                            value = value[1:] if value.startswith(" ") else value
                            if field == "event":
                                name = value
                            elif field == "data":
                                data.append(value)
                except httpx.HTTPError:
                    pass

    def next(self, timeout):
        return self.events.get(timeout=timeout)

    def close(self):
        self.response.close()


def test_sse_gets_every_commit_once_in_order_within_a_second(world):
    new_list(world, "SSE", "EventList")
    stream = EventStream(world, items_of("SSE"))
    assert stream.response.status_code == 200
    assert stream.response.headers["content-type"].startswith("text/event-stream")

    def next_event(timeout):
        name, data = stream.next(timeout)
        assert name == "next"
        return names_of(json.loads(data)["data"])

    assert next_event(10) == []
    check_scenario(world, "SSE", "EventList", next_event)
    stream.close()


def test_an_event_stream_counts_as_an_active_request_until_it_ends(world):
    def active_posts():
        metrics = httpx.get(f"{world.server.url}/metrics", timeout=30, headers={"Authorization": f"Bearer {world.tokens['admin']}"})
        assert metrics.status_code == 200
        found = re.search(r'^http_server_active_requests\{http_request_method="POST"\} ([0-9.]+)$', metrics.text, re.MULTILINE)
        return float(found.group(1)) if found else 0.0

    def settles_at_none(seconds=30):
        # The server notices a closed stream at its next write, a pulse at the latest (every 5
        # seconds): a stream an earlier test closed may still count for a moment.
        deadline = time.monotonic() + seconds
        while active_posts() != 0 and time.monotonic() < deadline:
            time.sleep(0.2)
        return active_posts() == 0

    assert settles_at_none(), "a POST is still counted active with no stream open"
    stream = EventStream(world, "subscription { Lists(sort: [{name: ASC}]) { name } }")
    assert stream.next(10)[0] == "next"
    assert active_posts() == 1
    stream.close()
    assert settles_at_none()


def test_a_query_over_sse_is_one_result_then_complete(world):
    stream = EventStream(world, "{ Lists(where: {name: {eq: \"nothing-here\"}}) { name } }")
    assert stream.next(10) == ("next", '{"data":{"Lists":[]}}')
    assert stream.next(10) == ("complete", "")


def test_a_subscription_without_a_stream_is_told_how_to_ask_for_one(world):
    answer = httpx.post(f"{world.server.url}/graphql", json={"query": items_of("SSE")}, timeout=30,
                        headers={"Authorization": f"Bearer {world.tokens['admin']}"})
    assert answer.status_code == 422
    assert "text/event-stream" in answer.json()["errors"][0]["message"]


def test_a_subscriber_sees_only_what_its_grants_let_it_read(world):
    stream = EventStream(world, "subscription { Diaries(sort: [{title: ASC}]) { title } }", who="ann")
    ws_events = queue.Queue()

    async def over_websocket():
        async with websockets.connect(world.ws_url, subprotocols=[SUBPROTOCOL]) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {world.tokens['ann']}"}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "d", "type": "subscribe", "payload": {"query": "subscription { Diaries { title } }"}}))
            while True:
                message = json.loads(await ws.recv())
                ws_events.put(message)
                if any(d["title"] == "ann's last" for d in message["payload"]["data"]["Diaries"]):
                    return

    thread = threading.Thread(target=lambda: asyncio.run(over_websocket()), daemon=True)
    thread.start()

    def titles(data):
        return [diary["title"] for diary in json.loads(data)["data"]["Diaries"]]

    assert titles(stream.next(10)[1]) == []
    assert ws_events.get(timeout=10)["payload"]["data"]["Diaries"] == []
    assert "errors" not in world.graphql('mutation { createDiaries(fields: {title: "bob secret"}) { title } }', who="bob")
    with pytest.raises(queue.Empty):
        stream.next(0.7)
    assert "errors" not in world.graphql('mutation { createDiaries(fields: {title: "ann\'s last"}) { title } }', who="ann")
    assert titles(stream.next(WITHIN + 0.5)[1]) == ["ann's last"]
    thread.join(timeout=10)
    seen = [ws_events.get_nowait() for _ in range(ws_events.qsize())]
    assert [[d["title"] for d in m["payload"]["data"]["Diaries"]] for m in seen] == [["ann's last"]]
    stream.close()


def test_200_concurrent_websocket_subscribers_are_served(world):
    new_list(world, "MANY", "ManyList")
    count = 200

    async def subscriber(index, ready, results):
        async with websockets.connect(world.ws_url, subprotocols=[SUBPROTOCOL], open_timeout=30) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {world.tokens['admin']}"}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(json.dumps({"id": f"s{index}", "type": "subscribe", "payload": {"query": items_of("MANY")}}))
            first = json.loads(await ws.recv())
            assert first["type"] == "next" and first["payload"]["data"]["Items"] == []
            ready.append(index)
            second = json.loads(await asyncio.wait_for(ws.recv(), timeout=20))
            results[index] = (time.monotonic(), second["payload"]["data"]["Items"])

    async def everyone():
        ready, results = [], {}
        tasks = [asyncio.create_task(subscriber(index, ready, results)) for index in range(count)]
        deadline = time.monotonic() + 60
        while len(ready) < count and time.monotonic() < deadline:
            failed = [task for task in tasks if task.done() and task.exception()]
            assert not failed, failed[0].exception()
            await asyncio.sleep(0.05)
        assert len(ready) == count
        committed = await asyncio.to_thread(world.graphql, create_item("MANY", "for everyone"))
        assert "errors" not in committed
        start = time.monotonic()
        await asyncio.gather(*tasks)
        return start, results

    start, results = asyncio.run(everyone())
    assert len(results) == count
    assert all(items == [{"name": "for everyone"}] for _, items in results.values())
    assert max(at for at, _ in results.values()) - start < 10


async def close_code(messages, headers=None, subprotocols=(SUBPROTOCOL,), world=None, wait=5):
    """The close code the server answers `messages` with."""
    async with websockets.connect(world.ws_url, subprotocols=list(subprotocols) or None, additional_headers=headers) as ws:
        for message in messages:
            await ws.send(json.dumps(message))
        try:
            while True:
                await asyncio.wait_for(ws.recv(), timeout=wait)
        except websockets.ConnectionClosed:
            pass
        return ws.close_code


def test_the_protocol_close_codes(world):
    admin = {"Authorization": f"Bearer {world.tokens['admin']}"}
    subscribe = {"id": "1", "type": "subscribe", "payload": {"query": items_of("WS")}}
    cases = [
        ([{"type": "connection_init", "payload": {"Authorization": "Bearer " + "0" * 64}}], {}, 4403),
        ([{"type": "connection_init"}], {}, 4403),
        ([subscribe], {}, 4401),
        ([{"type": "connection_init", "payload": admin}, {"type": "connection_init", "payload": admin}], {}, 4429),
        ([{"type": "connection_init", "payload": admin}, subscribe, subscribe], {}, 4409),
        ([{"type": "connection_init", "payload": admin}, {"type": "nonsense"}], {}, 4400),
        ([], {}, 4408),
    ]
    for messages, extra, expected in cases:
        assert asyncio.run(close_code(messages, world=world)) == expected, messages
    # The token may come in the upgrade's Authorization header instead.
    assert asyncio.run(close_code([{"type": "connection_init"}, {"type": "nonsense"}], headers=admin, world=world)) == 4400
    assert asyncio.run(close_code([], subprotocols=(), world=world)) == 4406


def test_a_revoked_tokens_subscriptions_get_nothing_more_and_end(world):
    add_user(world.folder, "carl", "carl-password-1234")
    world.tokens["carl"] = create_token(world.folder, "--user", "carl", label="carl")
    new_list(world, "REV", "Revoked")
    stream = EventStream(world, items_of("REV"), who="carl")
    assert names_of(json.loads(stream.next(10)[1])["data"]) == []

    async def over_websocket():
        async with websockets.connect(world.ws_url, subprotocols=[SUBPROTOCOL]) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {world.tokens['carl']}"}}))
            assert json.loads(await ws.recv())["type"] == "connection_ack"
            await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": items_of("REV")}}))
            assert json.loads(await ws.recv())["payload"]["data"] == {"Items": []}
            await asyncio.to_thread(shop, "token", "revoke", "carl", data=world.folder)
            await asyncio.sleep(1.5)  # a token checked moments ago is trusted for a second
            assert "errors" not in await asyncio.to_thread(world.graphql, create_item("REV", "after the revocation"))
            messages = []
            try:
                while True:
                    messages.append(await asyncio.wait_for(ws.recv(), timeout=10))
            except websockets.ConnectionClosed:
                pass
            return ws.close_code, messages

    code, messages = asyncio.run(over_websocket())
    assert code == 4403 and messages == [], (code, messages)
    # The event stream, open all along, gets an error in place of the commit, and ends.
    name, data = stream.next(10)
    assert name == "error" and "revoked" in data, (name, data)
    with pytest.raises(queue.Empty):
        stream.next(2)
    stream.close()


def test_a_subscriber_that_stops_reading_gets_an_error_and_is_closed(world):
    """A client that reads nothing while results pile up (large ones, past the socket buffers) is
    disconnected, its results never queued without bound."""
    new_list(world, "SLOW", "SlowList")
    body = json.dumps({"query": "subscription { Items(where: {list: {eq: \"SLOW\"}}) { name } }"}).encode()
    host, port = world.server.url.removeprefix("http://").split(":")
    connection = socket.socket()
    connection.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
    connection.connect((host, int(port)))
    connection.sendall(b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAccept: text/event-stream\r\n"
                       b"Authorization: Bearer " + world.tokens["admin"].encode() + b"\r\nContent-Length: "
                       + str(len(body)).encode() + b"\r\n\r\n" + body)
    filler = "x" * 20000
    for index in range(60):
        world.graphql(create_item("SLOW", f"{index:03d}{filler}"))
    connection.settimeout(30)
    received = b""
    while chunk := connection.recv(1 << 20):
        received += chunk
    connection.close()
    # The server closed the connection (recv reached its end, no timeout) without completing the
    # stream: with the error event when the client read it in time, else just closed.
    assert b"event: complete" not in received
    assert b"event: error" not in received or b"limitExceeded" in received


def test_watch_through_the_server_prints_each_change_until_ctrl_c(world):
    new_list(world, "WATCH", "WatchList")
    document = 'watch { Items(where: {list: {eq: "WATCH"}}, sort: [{name: ASC}]) { name } }'
    process = subprocess.Popen([SHOP, "--server", world.server.url, "--token", world.tokens["admin"], "--json", "-e", document],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        lines = queue.Queue()
        threading.Thread(target=lambda: [lines.put(line) for line in process.stdout], daemon=True).start()
        assert lines.get(timeout=20) == '{"data":{"Items":[]}}\n'
        world.shop_process("item add WatchList Milk")
        committed = time.monotonic()
        assert lines.get(timeout=5) == '{"data":{"Items":[{"name":"Milk"}]}}\n'
        assert time.monotonic() - committed < WITHIN
        process.send_signal(signal.SIGINT)
        assert process.wait(timeout=10) == 130
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


def test_a_watch_the_server_ends_as_it_stops_is_an_error_saying_so(tmp_path):
    """A live query has no end of its own: the server completing it as it stops is reported, and
    the watch exits 1, rather than ending quietly as if it had been asked to."""
    with tempfile.TemporaryDirectory(prefix="shop-serve-") as folder:
        token = create_token(folder, "--admin", label="admin")
        server = Server(folder, extra=["--port", "0"])
        document = 'watch { Lists(where: {name: {eq: "W"}}) { name } }'
        process = subprocess.Popen([SHOP, "--server", server.url, "--token", token, "--json", "-e", document],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
        try:
            assert process.stdout.readline() == '{"data":{"Lists":[]}}\n'
            assert server.stop(signal.SIGTERM) == 0
            assert process.wait(timeout=20) == 1
            ended = f"the server at {server.url} ended the watch (it is stopping or restarting)"
            assert ended in process.stderr.read()
            # With --json the failure is a document on standard output too, as for any command.
            assert ended in json.loads(process.stdout.readline())["errors"][0]["message"]
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def test_a_server_stopping_closes_each_websocket_with_1001_going_away(tmp_path):
    """1001 tells a client the server went away (connect again later), where 1000 says the
    conversation is over."""
    with tempfile.TemporaryDirectory(prefix="shop-serve-") as folder:
        token = create_token(folder, "--admin", label="admin")
        server = Server(folder, extra=["--port", "0"])
        url = server.url.replace("http://", "ws://") + "/graphql"

        async def stop_while_subscribed():
            async with websockets.connect(url, subprotocols=[SUBPROTOCOL]) as ws:
                await ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {token}"}}))
                assert json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"] == "connection_ack"
                await ws.send(json.dumps({"id": "1", "type": "subscribe", "payload": {"query": "subscription { Lists { name } }"}}))
                assert json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"] == "next"
                stopping = asyncio.get_running_loop().run_in_executor(None, server.stop, signal.SIGTERM)
                try:
                    while True:
                        await asyncio.wait_for(ws.recv(), timeout=15)
                except websockets.ConnectionClosed:
                    pass
                assert await stopping == 0
                return ws.close_code, ws.close_reason

        code, reason = asyncio.run(stop_while_subscribed())
        assert code == 1001, (code, reason)
        assert reason == "the server is shutting down"
