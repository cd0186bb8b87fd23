"""gzip both ways: answers compressed for a client that accepts it, as httpx, browsers and
CloudKit JS ask (the same JSON in a fraction of the bytes; a client that does not ask gets them
as before), and request bodies sent gzipped read as the JSON they hold, within the size limit."""

import gzip
import json
import uuid

MODIFY = "/database/1/iCloud.shop/development/public/records/modify"
QUERY = "/database/1/iCloud.shop/development/public/records/query"


def test_a_page_of_records_is_gzipped_for_a_client_that_accepts_it_and_reads_the_same(client):
    prefix = f"Compressed {uuid.uuid4().hex[:8]}"
    creates = [{"operationType": "create", "record": {"recordType": "Lists", "fields": {"name": {"value": f"{prefix} {i:02}"}}}}
               for i in range(40)]
    assert client.post(MODIFY, json={"operations": creates}).status_code == 200
    query = {"query": {"recordType": "Lists", "filterBy": [{"fieldName": "name", "comparator": "BEGINS_WITH",
                                                            "fieldValue": {"value": prefix}}],
                       "sortBy": [{"fieldName": "name"}]}}
    zipped = client.post(QUERY, json=query, headers={"Accept-Encoding": "gzip"})
    plain = client.post(QUERY, json=query, headers={"Accept-Encoding": "identity"})
    assert zipped.status_code == plain.status_code == 200
    assert zipped.headers["content-encoding"] == "gzip" and "content-encoding" not in plain.headers
    assert "accept-encoding" in zipped.headers["vary"].lower() and "accept-encoding" in plain.headers["vary"].lower()
    assert int(zipped.headers["content-length"]) == zipped.num_bytes_downloaded
    assert zipped.num_bytes_downloaded * 3 < plain.num_bytes_downloaded
    assert zipped.json() == plain.json() and len(plain.json()["records"]) == 40


def test_a_client_that_asks_nothing_or_refuses_gzip_gets_the_answer_as_it_is(client):
    schema = client.get("/openapi.yaml", headers={"Accept-Encoding": "gzip;q=0, identity"})
    assert schema.status_code == 200 and "content-encoding" not in schema.headers
    assert int(schema.headers["content-length"]) == len(schema.content) and schema.text.startswith("openapi:")
    zipped = client.get("/openapi.yaml", headers={"Accept-Encoding": "br;q=1, gzip;q=0.5"})
    assert zipped.headers["content-encoding"] == "gzip" and zipped.text == schema.text


def test_a_gzipped_request_body_is_read_as_the_json_it_holds_and_one_that_inflates_past_the_limit_is_refused(client):
    name = f"Zipped {uuid.uuid4().hex[:8]}"
    batch = {"operations": [{"operationType": "create", "record": {"recordType": "Lists", "fields": {"name": {"value": name}}}}]}
    sent = client.post(MODIFY, content=gzip.compress(json.dumps(batch).encode()),
                       headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert sent.status_code == 200, sent.text
    found = client.post("/graphql", content=gzip.compress(json.dumps({"query": f'{{ Lists(where: {{name: {{eq: "{name}"}}}}) {{ name }} }}'}).encode()),
                        headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert found.json() == {"data": {"Lists": [{"name": name}]}}
    # 9 MiB of JSON in 9 KB of gzip: past the 8 MiB a request may carry, refused before it fills memory.
    inflating = gzip.compress(b'{"query": "' + b" " * (9 * 1024 * 1024) + b'{ __typename }"}')
    refused = client.post("/graphql", content=inflating, headers={"Content-Type": "application/json", "Content-Encoding": "gzip"})
    assert refused.status_code == 413 and "once decompressed" in refused.json()["errors"][0]["message"]
    other = client.post(QUERY, content=b"{}", headers={"Content-Type": "application/json", "Content-Encoding": "br"})
    assert other.status_code == 415 and other.headers["accept-encoding"] == "gzip"
    assert "Content-Encoding 'br'" in other.json()["reason"]
