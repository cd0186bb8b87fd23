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
    # The request and the answer's data as stored, each as JSON (not a string of JSON).
    assert shown.json()["request"] == {"document": body["query"], "variables": {}}
    assert shown.json()["response"] == first.json()["data"]


def test_a_forgotten_key_runs_anew(client, server):
    key = str(uuid.uuid4())
    assert create_list(client, key, "Forget", f"L-{uuid.uuid4()}").status_code == 200
    assert client.delete(server.database_url() + f"/transactions/{key}").status_code == 204
    again = create_list(client, key, "Forget", f"L-{uuid.uuid4()}")
    assert "idempotent-replayed" not in again.headers


def test_an_int64_variable_past_2_to_the_53_is_written_exactly_and_told_apart_on_a_retry(client, server):
    # A record type with an INT64 field, added just in time by a CloudKit write in development.
    create = {"operations": [{"operationType": "create", "record": {"recordType": "Counters", "fields": {"count": {"value": 1}}}}]}
    assert client.post(f"{server.database_url()}/records/modify", json=create).status_code == 200
    key, exact = str(uuid.uuid4()), 2**53 + 1  # a double holds 2^53, not 2^53 + 1
    body = {"query": "mutation($c: Int64!) { createCounters(fields: {count: $c}) { count } }", "variables": {"c": exact}}
    first = client.post("/graphql", json=body, headers={"Idempotency-Key": key})
    assert first.json() == {"data": {"createCounters": {"count": exact}}}
    body["variables"]["c"] = exact - 1
    other = client.post("/graphql", json=body, headers={"Idempotency-Key": key})
    assert other.status_code == 422, other.text
