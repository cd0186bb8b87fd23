"""Faults: bad requests get a clear 4xx and the server keeps answering; idle connections do not
stop it; killed mid-write, it loses and duplicates nothing."""

import json
import random
import signal
import socket
import threading
import time
import uuid

import httpx

from conftest import Server


def raw(server, data, read=True):
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(data)
        if not read:
            return b""
        connection.shutdown(socket.SHUT_WR)
        chunks = []
        while chunk := connection.recv(65536):
            chunks.append(chunk)
        return b"".join(chunks)


def status_of(response):
    return int(response.split(b" ", 2)[1])


def assert_still_answering(server):
    assert httpx.get(f"{server.url}/health", timeout=10).status_code == 200


def test_a_malformed_request_is_a_bad_request(server):
    assert status_of(raw(server, b"NOT HTTP AT ALL\r\n\r\n")) == 400
    assert_still_answering(server)


def test_a_truncated_body_is_a_bad_request(server, admin_token):
    body = b'{"query": "{ Lists { na'
    request = (b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Authorization: Bearer " + admin_token.encode() + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    assert status_of(raw(server, request)) == 400
    assert_still_answering(server)


def test_an_oversized_body_is_refused_before_it_is_sent(server, admin_token):
    request = (b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Authorization: Bearer " + admin_token.encode() + b"\r\nContent-Length: 104857600\r\n\r\n{")
    response = raw(server, request)
    assert status_of(response) == 413
    assert b"QUOTA_EXCEEDED" in response
    assert_still_answering(server)


def test_a_trickled_request_is_answered_and_does_not_block_others(server, admin_token):
    body = json.dumps({"query": "{ __typename }"}).encode()
    request = (b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nConnection: close\r\n"
               b"Authorization: Bearer " + admin_token.encode() + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n" + body)
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        for index in range(0, len(request), 8):
            connection.sendall(request[index:index + 8])
            time.sleep(0.02)
            if index == 64:
                assert_still_answering(server)
        response = connection.recv(65536)
    assert status_of(response) == 200


def test_500_idle_connections_do_not_stop_health(server):
    host, port = server.url.removeprefix("http://").split(":")
    idle = [socket.create_connection((host, int(port)), timeout=10) for _ in range(500)]
    try:
        started = time.monotonic()
        assert_still_answering(server)
        assert time.monotonic() - started < 2
    finally:
        for connection in idle:
            connection.close()


def test_killed_20_times_under_4_writers_every_write_lands_once(fresh_server):
    data, token = fresh_server.data, fresh_server.token
    port = int(fresh_server.url.rsplit(":", 1)[1])
    state = {"server": fresh_server}
    done = threading.Event()
    writes_per_client = 15
    names = [[f"K{client}-{index}-{uuid.uuid4().hex[:8]}" for index in range(writes_per_client)] for client in range(4)]

    def write(record_names):
        with httpx.Client(timeout=5) as client:
            for name in record_names:
                body = {"query": "mutation($r: ID!, $n: String!) { createLists(recordName: $r, fields: {name: $n}) { recordName } }",
                        "variables": {"r": name, "n": name}}
                while True:
                    try:
                        response = client.post(f"http://127.0.0.1:{port}/graphql", json=body,
                                               headers={"Authorization": f"Bearer {token}", "Idempotency-Key": name})
                        if response.status_code == 200:
                            assert "errors" not in response.json(), response.text
                            break
                        assert response.status_code == 409, response.text
                    except httpx.TransportError:
                        pass
                    time.sleep(0.05)

    writers = [threading.Thread(target=write, args=(names[client],)) for client in range(4)]
    for writer in writers:
        writer.start()
    for _ in range(20):
        time.sleep(random.uniform(0.05, 0.3))
        state["server"].stop(signal.SIGKILL)
        state["server"] = Server(data, extra=["--port", str(port)])
    for writer in writers:
        writer.join(timeout=120)
        assert not writer.is_alive()
    done.set()
    response = httpx.post(f"http://127.0.0.1:{port}/graphql", json={"query": "{ Lists(limit: 1000) { recordName } }"},
                          headers={"Authorization": f"Bearer {token}"})
    stored = [record["recordName"] for record in response.json()["data"]["Lists"]]
    assert sorted(stored) == sorted(name for client in names for name in client)
    state["server"].stop(signal.SIGKILL)
