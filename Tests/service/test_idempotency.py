"""Writes under an Idempotency-Key over the wire: stored with the writes, replayed byte for byte."""

import uuid


def create_list(client, key, name, record_name):
    body = {"query": "mutation($r: ID!, $n: String!) { createLists(recordName: $r, fields: {name: $n}) { recordName name changeTag } }",
            "variables": {"r": record_name, "n": name}}
    return client.post("/graphql", json=body, headers={"Idempotency-Key": key})


def test_a_retry_is_replayed_byte_for_byte_and_applies_once(client):
    key, record = str(uuid.uuid4()), f"L-{uuid.uuid4()}"
    first = create_list(client, key, "Once", record)
    assert first.status_code == 200
    assert "idempotent-replayed" not in first.headers
    retry = create_list(client, key, "Once", record)
    assert retry.status_code == 200
    assert retry.headers["idempotent-replayed"] == "true"
    assert retry.content == first.content
    count = client.post("/graphql", json={"query": "query($r: ID!) { ListsAggregate(where: {recordName: {eq: $r}}) { count } }",
                                         "variables": {"r": record}})
    assert count.json() == {"data": {"ListsAggregate": {"count": 1}}}


def test_the_same_key_with_another_request_is_unprocessable(client):
    key = str(uuid.uuid4())
    assert create_list(client, key, "First", f"L-{uuid.uuid4()}").status_code == 200
    other = create_list(client, key, "Second", f"L-{uuid.uuid4()}")
    assert other.status_code == 422
    assert other.json()["errors"][0]["extensions"]["code"] == "transactionConflict"
    assert "data" not in other.json()  # a request error: it did not run


def test_transaction_directive_ids_are_kept_too(client, server):
    tid = str(uuid.uuid4())
    body = {"query": f'mutation @transaction(id: "{tid}") {{ createLists(fields: {{name: "Directive"}}) {{ recordName }} }}'}
    first = client.post("/graphql", json=body)
    retry = client.post("/graphql", json=body)
    assert retry.headers["idempotent-replayed"] == "true"
    assert retry.content == first.content
    shown = client.get(server.database_url() + f"/transactions/{tid}")
    assert shown.status_code == 200
    assert shown.json()["id"] == tid


def test_a_forgotten_key_runs_anew(client, server):
    key = str(uuid.uuid4())
    assert create_list(client, key, "Forget", f"L-{uuid.uuid4()}").status_code == 200
    assert client.delete(server.database_url() + f"/transactions/{key}").status_code == 204
    again = create_list(client, key, "Forget", f"L-{uuid.uuid4()}")
    assert "idempotent-replayed" not in again.headers
