"""Calls from web pages: a browser's preflight and the CORS headers on answers, as a page using
CloudKit JS or a GraphQL client would meet them (httpx sending what the browser sends)."""

import asyncio
import json

import httpx
import pytest
import websockets

from conftest import own_server

PAGE = "https://app.example"
RECORDS_QUERY = "/database/1/iCloud.shop/development/public/records/query"


def preflight(url, origin, method="POST", headers="authorization, content-type"):
    return httpx.request("OPTIONS", url, headers={
        "Origin": origin, "Access-Control-Request-Method": method, "Access-Control-Request-Headers": headers})


def test_a_page_of_any_origin_may_call_graphql_and_cloudkit_with_its_token(server, admin_token):
    for path in ["/graphql", RECORDS_QUERY]:
        asked = preflight(server.url + path, PAGE, headers="authorization, content-type, idempotency-key")
        assert asked.status_code == 204
        assert asked.headers["access-control-allow-origin"] == "*"
        allowed = {name.strip() for name in asked.headers["access-control-allow-headers"].split(",")}
        assert {"authorization", "content-type", "idempotency-key"} <= allowed
        assert "POST" in asked.headers["access-control-allow-methods"]
    answered = httpx.post(server.url + RECORDS_QUERY, json={"query": {"recordType": "Lists"}},
                          headers={"Origin": PAGE, "Authorization": f"Bearer {admin_token}"})
    assert answered.status_code == 200 and answered.headers["access-control-allow-origin"] == "*"
    exposed = {name.strip() for name in answered.headers["access-control-expose-headers"].split(",")}
    assert {"x-request-id", "idempotent-replayed"} <= exposed
    refused = httpx.post(server.url + "/graphql", json={"query": "{ __typename }"}, headers={"Origin": PAGE})
    assert refused.status_code == 401 and refused.headers["access-control-allow-origin"] == "*"


def test_only_the_origins_given_get_answers_their_pages_may_read():
    with own_server("--allow-origin", PAGE, "--allow-origin", "http://localhost:3000") as running:
        for origin in [PAGE, "http://localhost:3000"]:
            asked = preflight(running.url + "/graphql", origin)
            assert asked.status_code == 204 and asked.headers["access-control-allow-origin"] == origin
        other = preflight(running.url + "/graphql", "https://elsewhere.example")
        assert other.status_code == 405 and "access-control-allow-origin" not in other.headers
        answered = httpx.post(running.url + "/graphql", json={"query": "{ __typename }"},
                              headers={"Origin": "https://elsewhere.example", "Authorization": f"Bearer {running.token}"})
        assert answered.status_code == 200 and "access-control-allow-origin" not in answered.headers


def test_a_page_of_an_origin_not_listed_may_not_open_a_graphql_websocket():
    """Browsers apply no CORS to WebSockets, so the service checks the page's Origin itself."""
    async def open_from(url, origin):
        async with websockets.connect(url, origin=origin, subprotocols=["graphql-transport-ws"]) as ws:
            await ws.send(json.dumps({"type": "connection_init", "payload": {"Authorization": f"Bearer {running.token}"}}))
            return json.loads(await asyncio.wait_for(ws.recv(), timeout=10))["type"]

    with own_server("--allow-origin", PAGE) as running:
        url = running.url.replace("http://", "ws://") + "/graphql"
        assert asyncio.run(open_from(url, PAGE)) == "connection_ack"
        with pytest.raises(websockets.exceptions.InvalidStatus) as refused:
            asyncio.run(open_from(url, "https://elsewhere.example"))
        response = refused.value.response
        assert response.status_code == 403
        assert b"ACCESS_DENIED" in response.body and b"--allow-origin https://elsewhere.example" in response.body
        # A client that is not a page sends no Origin and is not affected.
        assert asyncio.run(open_from(url, None)) == "connection_ack"
        log = (running.data / "serve.log").read_text()
        assert "status=403" in log and "level=error" not in log
