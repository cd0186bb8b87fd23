"""A slow query holds up only itself: while one runs for seconds on the development database,
`/health`, a query on the production database and another query on the same database answer at
once (no database work runs on the event loop; each database has its own connections). The
server's read timeout is 1 s: it bounds reading a request, not answering it."""

import math
import threading
import time

import httpx
import pytest

from conftest import own_server

LENGTH = 1_000_000
"""Each list's name: a million 'a's and a number (the largest value is 1 MiB)."""
LISTS = 4
SLOW_QUERY = "query($needle: String!) { Lists(where: {name: {contains: $needle}}) { recordName } }"


def post(client, url, query, variables=None):
    started = time.monotonic()
    response = client.post(url, json={"query": query, "variables": variables or {}})
    assert response.status_code == 200, response.text
    assert "errors" not in response.json(), response.text
    return response.json(), time.monotonic() - started


def needle_for(seconds, client, url):
    """A needle 'aaa…ab' that no name contains and that takes about `seconds` to look for: SQLite
    compares it at each of a name's million positions, so the time grows with its length. Measured
    with a short needle first, then scaled (the cost is LISTS × (LENGTH − n) × n byte compares)."""
    probe = 2_000
    post(client, url, SLOW_QUERY, {"needle": "a" * probe + "b"})  # warm: pages cached, plan compiled
    _, elapsed = post(client, url, SLOW_QUERY, {"needle": "a" * probe + "b"})
    cost = (LENGTH - probe) * probe * seconds / max(elapsed, 0.001)
    cost = min(cost, LENGTH * LENGTH / 4 * 0.99)
    length = int((LENGTH - math.sqrt(LENGTH * LENGTH - 4 * cost)) / 2)
    return "a" * max(length, probe) + "b"


@pytest.fixture()
def impatient_server():
    with own_server("--read-timeout", "1s") as running:
        yield running


def test_a_slow_query_does_not_delay_health_or_another_database(impatient_server):
    server = impatient_server
    headers = {"Authorization": f"Bearer {server.token}"}
    development = f"{server.url}/graphql"
    production = f"{server.database_url('production')}/graphql"
    with httpx.Client(headers=headers, timeout=120) as client:
        for index in range(LISTS):
            name = "a" * (LENGTH - 4) + f"{index:04d}"
            post(client, development, "mutation($n: String!) { createLists(fields: {name: $n}) { recordName } }", {"n": name})
        post(client, development, 'mutation { createLists(fields: {name: "Groceries"}) { recordName } }')
        post(client, production, 'mutation { createLists(fields: {name: "Hardware"}) { recordName } }')
        needle = needle_for(3.0, client, development)

    slow = {}

    def run_slow_query():
        with httpx.Client(headers=headers, timeout=120) as client:
            slow["response"], slow["seconds"] = post(client, development, SLOW_QUERY, {"needle": needle})
        slow["finished"] = time.monotonic()

    runner = threading.Thread(target=run_slow_query)
    runner.start()
    time.sleep(0.5)
    answers = {}
    with httpx.Client(headers=headers, timeout=30) as client:
        for _ in range(3):
            before = time.monotonic()
            assert client.get(f"{server.url}/health").status_code == 200
            answers.setdefault("health", []).append(time.monotonic() - before)
            body, seconds = post(client, production, "{ Lists { name } }")
            assert body["data"]["Lists"] == [{"name": "Hardware"}]
            answers.setdefault("production", []).append(seconds)
            body, seconds = post(client, development, '{ Lists(where: {name: {eq: "Groceries"}}) { name } }')
            assert body["data"]["Lists"] == [{"name": "Groceries"}]
            answers.setdefault("same database", []).append(seconds)
    answered = time.monotonic()
    runner.join(timeout=120)

    assert slow["response"]["data"]["Lists"] == []
    # The slow query really held its database for seconds, and everything else was answered
    # while it ran, each in well under a second.
    assert slow["seconds"] >= 2.0, f"the slow query took only {slow['seconds']:.2f} s"
    assert answered < slow["finished"], "the other requests waited for the slow query"
    for what, times in answers.items():
        assert max(times) < 1.0, f"{what} took {max(times):.2f} s while a query ran for {slow['seconds']:.2f} s"
    print(f"slow query {slow['seconds']:.2f} s; meanwhile "
          + ", ".join(f"{what} {max(times) * 1000:.0f} ms" for what, times in answers.items()))
