"""Faults: bad requests get a clear 4xx and the server keeps answering; idle connections do not
stop it; killed mid-write, it loses and duplicates nothing."""

import json
import random
import re
import select
import signal
import socket
import sqlite3
import threading
import time
import uuid

import httpx
import pytest

from conftest import Server, audit, own_server, shop


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


def reason_of(response):
    return json.loads(response.partition(b"\r\n\r\n")[2])["reason"]


def test_a_malformed_request_is_a_bad_request_saying_what_a_request_looks_like(server):
    response = raw(server, b"NOT HTTP AT ALL\r\n\r\n")
    assert status_of(response) == 400
    assert reason_of(response).startswith("the request is not HTTP/1.1 (invalid HTTP method); send a request line (METHOD PATH HTTP/1.1)")
    assert_still_answering(server)


def test_a_client_that_hangs_up_in_the_middle_of_its_headers_is_no_request_in_the_log():
    with own_server() as running:
        host, port = running.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(b"GET /health HTTP/1.1\r\nHo")
        assert_still_answering(running)
        running.stop()
        log = (running.data / "serve.log").read_text()
    assert [line for line in log.splitlines() if "msg=request" in line and "path=/health" not in line] == [], log
    assert "level=error" not in log, log


def test_a_refused_malformed_request_is_one_info_line_in_the_log_not_an_error():
    with own_server() as running:
        response = raw(running, b"NOT HTTP AT ALL\r\n\r\n")
        assert_still_answering(running)
        running.stop()
        log = (running.data / "serve.log").read_text()
    refusals = [line for line in log.splitlines() if "status=400" in line]
    assert len(refusals) == 1, log
    assert "level=info" in refusals[0] and "msg=request" in refusals[0] and 'unreadable="invalid HTTP method"' in refusals[0]
    assert "level=error" not in log, log
    # The answer, its error and the log line name one request id.
    request_id = re.search(rb"\r\nX-Request-ID: ([0-9a-f-]{36})\r\n", response, re.IGNORECASE).group(1).decode()
    assert f"request_id={request_id}" in refusals[0]
    assert json.loads(response.split(b"\r\n\r\n", 1)[1])["uuid"] == request_id


def split_answers(data):
    """The HTTP answers in `data`, each (status, headers as lowercase bytes, body), by Content-Length."""
    answers = []
    while data:
        head, _, rest = data.partition(b"\r\n\r\n")
        length = int(re.search(rb"\r\ncontent-length: (\d+)", head, re.IGNORECASE).group(1))
        answers.append((status_of(head), head.lower(), rest[:length]))
        data = rest[length:]
    return answers


def test_a_later_request_head_that_is_not_http_is_answered_like_the_first_and_logged():
    with own_server() as running:
        host, port = running.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
            first = connection.recv(65536)
            connection.sendall(b"NOT HTTP AT ALL\r\n\r\n")
            connection.shutdown(socket.SHUT_WR)
            chunks = []
            while chunk := connection.recv(65536):
                chunks.append(chunk)
        assert status_of(first) == 200
        [(status, head, body)] = split_answers(b"".join(chunks))
        assert status == 400 and b"\r\nconnection: close" in head
        error = json.loads(body)
        assert error["serverErrorCode"] == "BAD_REQUEST"
        assert error["reason"].startswith("the request is not HTTP/1.1 (invalid HTTP method); send a request line")
        assert_still_answering(running)
        running.stop()
        log = (running.data / "serve.log").read_text()
    refusals = [line for line in log.splitlines() if "status=400" in line]
    assert len(refusals) == 1 and f"request_id={error['uuid']}" in refusals[0], log
    assert "level=error" not in log, log


def test_a_pipelined_head_that_is_not_http_is_answered_after_the_requests_before_it(server):
    oversized = b"GET /health HTTP/1.1\r\nX-Padding: " + b"a" * (90 * 1024) + b"\r\n\r\n"
    for bad, status, reason in [(b"NOT HTTP AT ALL\r\n\r\n", 400, "(invalid HTTP method)"), (oversized, 431, "headers pass 80 KiB")]:
        request = b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n"
        answers = split_answers(raw(server, request + request + bad))
        assert [status for status, _, _ in answers] == [200, 200, status]
        assert [json.loads(body).get("status") for _, _, body in answers[:2]] == ["ok", "ok"]
        assert reason in json.loads(answers[2][2])["reason"]
    assert_still_answering(server)


def test_a_malformed_header_line_is_a_bad_request_naming_it(server):
    response = raw(server, b"GET /health HTTP/1.1\r\nHost: x\r\nNo colon here\r\n\r\n")
    assert status_of(response) == 400
    assert b"BAD_REQUEST" in response and "(invalid character in header)" in reason_of(response)
    assert_still_answering(server)


def test_a_malformed_chunked_body_is_a_bad_request_naming_it(server, admin_token):
    request = (b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer "
               + admin_token.encode() + b"\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n")
    response = raw(server, request)
    assert status_of(response) == 400
    error = json.loads(response.partition(b"\r\n\r\n")[2])["errors"][0]
    assert error["extensions"]["code"] == "BAD_REQUEST"
    assert "(invalid character in chunk size header)" in error["message"]
    assert_still_answering(server)


def test_a_client_that_hangs_up_in_the_middle_of_a_body_is_logged_as_a_client_error():
    with own_server() as running:
        head, body = padded_graphql_request(running, 4 * 1024)
        head = head.replace(b"\r\n\r\n", b"\r\nX-Request-ID: gone-1\r\n\r\n")
        host, port = running.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(head + body[:1024])
            time.sleep(0.2)
        assert_still_answering(running)
        deadline = time.monotonic() + 5
        while "request_id=gone-1" not in (running.data / "serve.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        running.stop()
        log = (running.data / "serve.log").read_text()
    lines = [line for line in log.splitlines() if "request_id=gone-1" in line]
    assert len(lines) == 1 and "status=400" in lines[0], log


def expecting_continue(server, path, token, body, declared=None):
    """A connection that sent a POST head with `Expect: 100-continue` and no body yet, and what came back first."""
    host, port = server.url.removeprefix("http://").split(":")
    connection = socket.create_connection((host, int(port)), timeout=10)
    connection.sendall(f"POST {path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer {token}\r\nContent-Type: application/json\r\n"
                       f"Content-Length: {declared or len(body)}\r\nExpect: 100-continue\r\n\r\n".encode())
    return connection, connection.recv(65536)


def read_to_close(connection):
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks)


@pytest.mark.parametrize("path, body, key", [
    ("/graphql", b'{"query": "{ __typename }"}', "data"),
    ("/database/1/iCloud.shop/development/public/records/query", b'{"query": {"recordType": "Lists"}}', "records"),
])
def test_a_body_expecting_100_continue_is_asked_for_at_once_and_answered(server, admin_token, path, body, key):
    connection, first = expecting_continue(server, path, admin_token, body)
    with connection:
        # Without the 100 the client would wait (curl: a second) before sending the body.
        assert first == b"HTTP/1.1 100 Continue\r\n\r\n"
        connection.sendall(body)
        connection.shutdown(socket.SHUT_WR)
        [(status, head, answer)] = split_answers(read_to_close(connection))
    assert status == 200 and key in json.loads(answer)
    assert b"\r\nconnection: close" not in head


def test_a_request_refused_before_its_body_is_read_gets_no_100_and_its_connection_closes(server, admin_token):
    for token, declared, status in [("not-a-token", None, 401), (admin_token, 100 * 1024 * 1024, 413)]:
        connection, first = expecting_continue(server, "/graphql", token, b'{"query": "{ __typename }"}', declared)
        with connection:
            rest = read_to_close(connection)  # the server closes: the body it refused is never sent
        [(answered, head, _)] = split_answers(first + rest)
        assert answered == status and b"\r\nconnection: close" in head
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


def test_an_oversized_chunked_body_is_refused_once_past_the_limit(server, admin_token):
    head = (b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nTransfer-Encoding: chunked\r\n"
            b"Authorization: Bearer " + admin_token.encode() + b"\r\n\r\n")
    chunk = b"x" * (1 << 20)
    chunks = b"".join(b"%x\r\n" % len(chunk) + chunk + b"\r\n" for _ in range(9)) + b"0\r\n\r\n"
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        try:
            connection.sendall(head + chunks)
        except (BrokenPipeError, ConnectionResetError):
            pass  # the server answered and closed before reading it all
        response = connection.recv(65536)
        head, _, body = response.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length:")))
        while len(body) < length and (chunk := connection.recv(65536)):
            body += chunk
        response = head + b"\r\n\r\n" + body
    assert status_of(response) == 413
    assert b"QUOTA_EXCEEDED" in response
    assert_still_answering(server)


def test_oversized_headers_are_refused_with_431(server):
    request = b"GET /health HTTP/1.1\r\nHost: x\r\nX-Padding: " + b"p" * (100 * 1024) + b"\r\n\r\n"
    response = raw(server, request)
    assert status_of(response) == 431
    assert reason_of(response).startswith("the request's headers pass 80 KiB; send fewer or shorter headers")
    assert_still_answering(server)


@pytest.fixture(scope="module")
def impatient_server():
    """A server that waits 1 s for a request's headers, then 1 s for its body."""
    with own_server("--read-timeout", "1s") as running:
        yield running


def trickle(server, request):
    """Sends `request` a byte every 0.1 s until the server answers, on a new connection."""
    host, port = server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        return trickle_on(connection, request)


def trickle_on(connection, data, interval=0.1):
    """Sends `data` a byte every `interval` seconds until the server answers; returns the answer
    (read to the end: the server closes the connection) and the seconds it took."""
    started = time.monotonic()
    for byte in data:
        if select.select([connection], [], [], interval)[0]:
            break
        try:
            connection.sendall(bytes([byte]))
        except (BrokenPipeError, ConnectionResetError):
            break
    chunks = []
    while chunk := connection.recv(65536):
        chunks.append(chunk)
    return b"".join(chunks), time.monotonic() - started


def split_response(response):
    head, _, body = response.partition(b"\r\n\r\n")
    lines = head.decode().split("\r\n")
    headers = {name.lower(): value.strip() for name, _, value in (line.partition(":") for line in lines[1:])}
    return int(lines[0].split(" ")[1]), headers, json.loads(body)


def test_trickled_headers_get_408_and_the_connection_closes(impatient_server):
    request = b"GET /health HTTP/1.1\r\nHost: x\r\nUser-Agent: a-very-slow-client\r\n\r\n"
    response, seconds = trickle(impatient_server, request)
    status, headers, body = split_response(response)
    assert status == 408
    assert headers["connection"] == "close"
    assert body["serverErrorCode"] == "BAD_REQUEST"
    assert "headers did not arrive within 1 s" in body["reason"]
    assert 0.9 < seconds < 3
    assert_still_answering(impatient_server)


def test_trickled_headers_are_logged_as_the_408_they_got_and_an_idle_connection_is_not():
    with own_server("--read-timeout", "1s") as running:
        response, _ = trickle(running, b"GET /health HTTP/1.1\r\nHost: x\r\nUser-Agent: a-very-slow-client\r\n\r\n")
        status, headers, body = split_response(response)
        host, port = running.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as idle:
            assert status_of(read_answer(idle)) == 408
        running.stop()
        log = (running.data / "serve.log").read_text()
    assert status == 408 and body["uuid"] == headers["x-request-id"]
    refusals = [line for line in log.splitlines() if "msg=request" in line]
    assert len(refusals) == 1 and "status=408" in refusals[0], log
    assert f"request_id={headers['x-request-id']}" in refusals[0]
    assert 'unreadable="the request\'s headers did not arrive within 1 s;' in refusals[0]


def test_a_trickled_graphql_body_gets_408_in_graphql_shape_and_writes_nothing(impatient_server):
    body = json.dumps({"query": 'mutation { createLists(fields: {name: "Trickled"}) { recordName } }'}).encode()
    request = (b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
               b"Authorization: Bearer " + impatient_server.token.encode() + b"\r\nContent-Length: " + str(len(body)).encode()
               + b"\r\n\r\n")
    host, port = impatient_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)  # the headers at once, then the body a byte at a time
        response, seconds = trickle_on(connection, body)
    status, headers, answer = split_response(response)
    assert status == 408
    assert headers["content-type"].startswith("application/graphql-response+json")
    assert "body did not arrive within 1 s" in answer["errors"][0]["message"]
    assert 0.9 < seconds < 3
    lists = httpx.post(f"{impatient_server.url}/graphql", json={"query": "{ Lists { name } }"},
                       headers={"Authorization": f"Bearer {impatient_server.token}"}, timeout=10).json()["data"]["Lists"]
    assert lists == []
    assert_still_answering(impatient_server)


def test_a_trickled_cloudkit_body_gets_408_in_cloudkit_shape(impatient_server):
    body = json.dumps({"operations": [{"operationType": "create", "record": {"recordType": "Lists", "fields": {"name": {"value": "T"}}}}]}).encode()
    request = (b"POST " + impatient_server.database_url().removeprefix(impatient_server.url).encode() + b"/records/modify HTTP/1.1\r\n"
               b"Host: x\r\nContent-Type: application/json\r\nAuthorization: Bearer " + impatient_server.token.encode()
               + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    host, port = impatient_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(request)
        response, _ = trickle_on(connection, body)
    status, headers, answer = split_response(response)
    assert status == 408
    assert headers["content-type"] == "application/json"
    assert answer["serverErrorCode"] == "BAD_REQUEST" and "body did not arrive" in answer["reason"]
    assert_still_answering(impatient_server)


def padded_graphql_request(server, size):
    """A POST /graphql of `{ Lists { name } }` padded (in `extensions`) to `size` bytes: its head and its body."""
    body = json.dumps({"query": "{ Lists { name } }", "extensions": {"pad": ""}}).encode()
    body = body.replace(b'"pad": ""', b'"pad": "' + b"p" * (size - len(body)) + b'"')
    head = (b"POST /graphql HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nAuthorization: Bearer "
            + server.token.encode() + b"\r\nContent-Length: " + str(len(body)).encode() + b"\r\n\r\n")
    return head, body


def read_answer(connection):
    """The server's answer: its head, then the body its Content-Length gives (or up to the close)."""
    data = b""
    while True:
        head, separator, body = data.partition(b"\r\n\r\n")
        length = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head) if separator else None
        if length and len(body) >= int(length.group(1)):
            return data
        if not (chunk := connection.recv(65536)):
            return data
        data += chunk


def test_a_slow_but_steady_body_gets_more_time_the_longer_it_is(impatient_server):
    """192 KiB sent steadily over about 2.4 s, past the 1 s read timeout: a body is given the
    timeout and a second for each 64 KiB it declares (an asset's upload over a slow link)."""
    head, body = padded_graphql_request(impatient_server, 192 * 1024)
    host, port = impatient_server.url.removeprefix("http://").split(":")
    started = time.monotonic()
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head)
        for start in range(0, len(body), 8 * 1024):
            time.sleep(0.1)
            connection.sendall(body[start:start + 8 * 1024])
        status, _, answer = split_response(read_answer(connection))
    assert time.monotonic() - started > 2
    assert status == 200, answer
    assert answer == {"data": {"Lists": answer["data"]["Lists"]}}
    assert_still_answering(impatient_server)


def test_a_body_that_stops_arriving_is_answered_and_logged_under_one_request_id():
    with own_server("--read-timeout", "1s") as running:
        head, body = padded_graphql_request(running, 4 * 1024)
        host, port = running.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(head + body[:1024])  # no X-Request-ID: the server gives it one
            status, headers, _ = split_response(read_answer(connection))
        deadline = time.monotonic() + 5
        while "status=408" not in (running.data / "serve.log").read_text() and time.monotonic() < deadline:
            time.sleep(0.05)
        running.stop()
        log = (running.data / "serve.log").read_text()
    assert status == 408
    lines = [line for line in log.splitlines() if "status=408" in line]
    assert len(lines) == 1 and "path=/graphql" in lines[0], log
    assert f"request_id={headers['x-request-id']}" in lines[0], log


def test_a_body_that_stops_arriving_gets_408_a_read_timeout_after_its_last_part(impatient_server):
    head, body = padded_graphql_request(impatient_server, 192 * 1024)
    host, port = impatient_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head + body[:16 * 1024])
        started = time.monotonic()
        status, headers, answer = split_response(read_answer(connection))
        seconds = time.monotonic() - started
    assert status == 408
    assert headers["connection"] == "close"
    assert "body stopped arriving: nothing of it came for 1 s" in answer["errors"][0]["message"]
    assert 0.9 < seconds < 2.5
    assert_still_answering(impatient_server)


def test_a_request_whose_body_stops_arriving_is_logged_as_the_408_it_was_answered():
    with own_server("--read-timeout", "1s") as running:
        head, body = padded_graphql_request(running, 4 * 1024)
        head = head.replace(b"\r\n\r\n", b"\r\nX-Request-ID: stalled-1\r\n\r\n")
        host, port = running.url.removeprefix("http://").split(":")
        with socket.create_connection((host, int(port)), timeout=10) as connection:
            connection.sendall(head + body[:1024])
            status, headers, _ = split_response(read_answer(connection))
        assert status == 408 and headers["x-request-id"] == "stalled-1"
        assert_still_answering(running)
        running.stop()
        log = (running.data / "serve.log").read_text()
    lines = [line for line in log.splitlines() if "request_id=stalled-1" in line]
    assert len(lines) == 1 and "status=408" in lines[0], log


def test_a_body_too_slow_for_its_length_gets_408_saying_how_long_it_had(impatient_server):
    """Steady parts, each within the timeout of the last, still end at the body's allowance:
    1 s and 1 s for each 64 KiB of 128 KiB, 3 s in all."""
    head, body = padded_graphql_request(impatient_server, 128 * 1024)
    host, port = impatient_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(head)
        started = time.monotonic()
        response, _ = trickle_on(connection, body, interval=0.5)
        seconds = time.monotonic() - started
    status, _, answer = split_response(response)
    assert status == 408
    assert "body did not arrive within 3 s (1 s, and 1 s for each 64 KiB of its length)" in answer["errors"][0]["message"]
    assert 2.9 < seconds < 5
    assert_still_answering(impatient_server)


def test_idle_connections_are_closed_after_the_read_timeout(impatient_server):
    host, port = impatient_server.url.removeprefix("http://").split(":")
    idle = [socket.create_connection((host, int(port)), timeout=10) for _ in range(50)]
    try:
        time.sleep(1.5)
        for connection in idle:
            response = b""
            while chunk := connection.recv(65536):
                response += chunk
            assert status_of(response) == 408
    finally:
        for connection in idle:
            connection.close()
    assert_still_answering(impatient_server)


def test_a_kept_alive_connection_left_idle_is_closed_without_an_unasked_for_answer(impatient_server):
    # A 408 there would be read by a client reusing the connection as the answer to its next
    # request (URLSession did just that): an idle kept-alive connection just closes.
    host, port = impatient_server.url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=10) as connection:
        connection.sendall(b"GET /health HTTP/1.1\r\nHost: x\r\n\r\n")
        answered = b""
        while b"\r\n\r\n" not in answered:
            answered += connection.recv(65536)
        assert status_of(answered) == 200
        head, _, body = answered.partition(b"\r\n\r\n")
        length = int(next(line.split(b":")[1] for line in head.split(b"\r\n") if line.lower().startswith(b"content-length")))
        while len(body) < length:
            body += connection.recv(65536)
        time.sleep(1.5)
        rest = b""
        while chunk := connection.recv(65536):
            rest += chunk
        assert rest == b""
    assert_still_answering(impatient_server)


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


WRITE = """mutation($l: ID!, $n: String!, $a: ID!, $b: ID!, $gone: [ID!]!) {
  createLists(recordName: $l, fields: {name: $n}) { recordName }
  a: createItems(recordName: $a, fields: {name: "a", list: {recordName: $l, action: DELETE_SELF}}) { recordName }
  b: createItems(recordName: $b, fields: {name: "b", list: {recordName: $l, action: DELETE_SELF}}) { recordName }
  deleteManyLists(recordNames: $gone) { deleted }
}"""


def test_killed_20_times_under_4_writers_every_write_lands_once(fresh_server):
    """Four clients write (a list and two items referencing it with DELETE_SELF, and every fifth
    write deletes one of the client's earlier lists, cascading to its items), each write under an
    Idempotency-Key, retried until answered, while the server is SIGKILLed 20 times. After every
    kill the database file passes the audit; at the end every write is there exactly once."""
    data, token = fresh_server.data, fresh_server.token
    port = int(fresh_server.url.rsplit(":", 1)[1])
    state = {"server": fresh_server, "retries": 0}
    writes_per_client = 15
    names = [[f"K{client}-{index}-{uuid.uuid4().hex[:8]}" for index in range(writes_per_client)] for client in range(4)]
    gone = {names[client][index - 2] for client in range(4) for index in range(writes_per_client) if index % 5 == 4}

    def write(record_names):
        with httpx.Client(timeout=5) as client:
            for index, name in enumerate(record_names):
                variables = {"l": name, "n": name, "a": f"{name}-a", "b": f"{name}-b",
                             "gone": [record_names[index - 2]] if index % 5 == 4 else []}
                while True:
                    try:
                        response = client.post(f"http://127.0.0.1:{port}/graphql", json={"query": WRITE, "variables": variables},
                                               headers={"Authorization": f"Bearer {token}", "Idempotency-Key": name})
                        if response.status_code == 200:
                            assert "errors" not in response.json(), response.text
                            break
                        assert response.status_code == 409, response.text
                    except httpx.TransportError:
                        pass
                    state["retries"] += 1
                    time.sleep(0.05)

    writers = [threading.Thread(target=write, args=(names[client],)) for client in range(4)]
    for writer in writers:
        writer.start()
    for _ in range(20):
        time.sleep(random.uniform(0.05, 0.3))
        state["server"].stop(signal.SIGKILL)
        assert audit(str(data / "shop.sqlite")) == []
        state["server"] = Server(data, extra=["--port", str(port)])
    for writer in writers:
        writer.join(timeout=120)
        assert not writer.is_alive()
    response = httpx.post(f"http://127.0.0.1:{port}/graphql",
                          json={"query": "{ Lists(limit: 1000) { recordName Items(limit: 10) { recordName } } }"},
                          headers={"Authorization": f"Bearer {token}"})
    stored = {record["recordName"]: sorted(item["recordName"] for item in record["Items"]) for record in response.json()["data"]["Lists"]}
    expected = {name: [f"{name}-a", f"{name}-b"] for client in names for name in client if name not in gone}
    assert stored == expected
    state["server"].stop(signal.SIGKILL)
    assert audit(str(data / "shop.sqlite")) == []
    print(f"20 kills, {sum(map(len, names))} writes, {len(gone)} cascading deletes, {state['retries']} retries; every audit clean")


def test_the_audit_finds_what_it_looks_for(fresh_server):
    """The audit the kill test relies on is not blind: on a copy of a database with a list and
    its item, a list row deleted behind the engine's back and a change tag altered are found."""
    variables = {"l": "L1", "n": "Groceries", "a": "I1", "b": "I2", "gone": []}
    response = httpx.post(f"{fresh_server.url}/graphql", json={"query": WRITE, "variables": variables},
                          headers={"Authorization": f"Bearer {fresh_server.token}"}, timeout=10)
    assert "errors" not in response.json(), response.text
    fresh_server.stop(signal.SIGTERM)
    path = str(fresh_server.data / "shop.sqlite")
    assert audit(path) == []
    with sqlite3.connect(path) as db:
        db.execute('DELETE FROM "Lists" WHERE "_recordName" = \'L1\'')
        db.execute('UPDATE "Items" SET "_changeTag" = \'tampered\' WHERE "_recordName" = \'I2\'')
    problems = audit(path)
    assert "Items 'I1' survives its deleted parent 'L1' (list)" in problems
    assert any(problem.startswith("Items 'I2' has tag tampered") for problem in problems)
    assert "Lists 'L1' is gone but its last logged change is saved, not a deletion" in problems


def test_a_port_in_use_is_named_with_what_to_do(tmp_path):
    taken = socket.socket()
    taken.bind(("127.0.0.1", 0))
    taken.listen()
    port = taken.getsockname()[1]
    try:
        run = shop("serve", "--host", "127.0.0.1", "--port", str(port), data=tmp_path, check=False)
    finally:
        taken.close()
    assert run.returncode == 1
    assert run.stderr == (
        f"error: invalidArguments: cannot listen on 127.0.0.1:{port}: another program (another shop serve?) listens there; "
        "stop it, or choose another --port (0 picks a free one)\n"
    )
