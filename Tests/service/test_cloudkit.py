"""CloudKit Web Services against the release `shop serve`, driven as its clients drive it.

Every request body is raw CloudKit JSON shaped as MistKit and CloudKit JS send it: pretty-printed,
keys sorted, field values untagged (typed by the schema), timestamps in milliseconds.
"""

import json
import uuid

import httpx
import pytest

from conftest import CONTAINER, create_token, shop


def body(document):
    """A request body as MistKit encodes it: pretty-printed with sorted keys."""
    return json.dumps(document, indent=2, sort_keys=True)


def post(client, server, endpoint, document, environment="development", headers=None):
    return client.post(
        f"{server.database_url(environment)}/{endpoint}",
        content=body(document),
        headers={"Content-Type": "application/json", **(headers or {})},
    )


def modify(client, server, *operations, atomic=None, environment="development", headers=None):
    document = {"operations": list(operations)}
    if atomic is not None:
        document["atomic"] = atomic
    return post(client, server, "records/modify", document, environment, headers)


def create(record_type, record_name, **fields):
    return {"operationType": "create", "record": {"recordType": record_type, "recordName": record_name, "fields": {k: {"value": v} for k, v in fields.items()}}}


def unique(prefix):
    return f"{prefix}-{uuid.uuid4().hex[:8]}"


def expect_error(response, status, code):
    assert response.status_code == status, response.text
    assert response.headers["content-type"].startswith("application/json")
    error = response.json()
    assert error["serverErrorCode"] == code
    assert error["reason"]
    assert error["uuid"]
    return error


def expect_failed_operations(response, *codes):
    """CloudKit answers a records/modify whose operations failed with 200 and each failure in
    its operation's place: `codes` is each operation's serverErrorCode, None for one applied."""
    assert response.status_code == 200, response.text
    records = response.json()["records"]
    assert [r.get("serverErrorCode") for r in records] == list(codes), response.text
    assert all(r["reason"] and r["recordName"] for r in records if "serverErrorCode" in r)
    return records


def no_nulls(value):
    if isinstance(value, dict):
        return all(v is not None and no_nulls(v) for v in value.values())
    if isinstance(value, list):
        return all(v is not None and no_nulls(v) for v in value)
    return value is not None


@pytest.fixture()
def grocery_list(client, server):
    """A list with three items, by recordName."""
    list_name, items = unique("L"), [unique("I") for _ in range(3)]
    response = modify(
        client, server,
        create("Lists", list_name, name=unique("Groceries")),
        *[
            create("Items", item, name=title, list={"recordName": list_name, "action": "DELETE_SELF"})
            for item, title in zip(items, ["Milk", "Apples", "Bread"])
        ],
    )
    assert response.status_code == 200, response.text
    return list_name, items


# records/query


def test_query_filters_by_reference_sorts_and_pages_with_continuation_markers(client, server, grocery_list):
    list_name, _ = grocery_list
    query = {
        "query": {
            "recordType": "Items",
            "filterBy": [{"comparator": "EQUALS", "fieldName": "list", "fieldValue": {"value": {"recordName": list_name, "action": "NONE"}}}],
            "sortBy": [{"fieldName": "name", "ascending": True}],
        },
        "resultsLimit": 2,
        "zoneID": {"zoneName": "_defaultZone"},
    }
    first = post(client, server, "records/query", query)
    assert first.status_code == 200, first.text
    assert first.headers["content-type"] == "application/json"
    page = first.json()
    assert [r["fields"]["name"]["value"] for r in page["records"]] == ["Apples", "Bread"]
    assert no_nulls(page)
    record = page["records"][0]
    assert record["recordType"] == "Items"
    assert record["fields"]["name"]["type"] == "STRING"
    assert record["fields"]["list"] == {"type": "REFERENCE", "value": {"recordName": list_name, "action": "DELETE_SELF"}}
    assert isinstance(record["created"]["timestamp"], int) and record["recordChangeTag"]
    second = post(client, server, "records/query", {**query, "continuationMarker": page["continuationMarker"]}).json()
    assert [r["fields"]["name"]["value"] for r in second["records"]] == ["Milk"]
    assert "continuationMarker" not in second
    other = {**query, "query": {**query["query"], "sortBy": [{"fieldName": "name", "ascending": False}]}}
    refused = post(client, server, "records/query", {**other, "continuationMarker": page["continuationMarker"]})
    assert refused.status_code == 400 and refused.json()["serverErrorCode"] == "BAD_REQUEST"
    assert refused.json()["reason"].startswith("continuationMarker is not one this query returned")


def test_query_desired_keys_and_comparators(client, server, grocery_list):
    list_name, _ = grocery_list
    query = {
        "desiredKeys": ["name"],
        "query": {
            "recordType": "Items",
            "filterBy": [
                {"comparator": "EQUALS", "fieldName": "list", "fieldValue": {"value": {"recordName": list_name}}},
                {"comparator": "IN", "fieldName": "name", "fieldValue": {"type": "STRING_LIST", "value": ["Milk", "Bread"]}},
                {"comparator": "NOT_BEGINS_WITH", "fieldName": "name", "fieldValue": {"value": "B"}},
            ],
        },
    }
    records = post(client, server, "records/query", query).json()["records"]
    assert [r["fields"] for r in records] == [{"name": {"type": "STRING", "value": "Milk"}}]


def test_query_errors(client, server):
    expect_error(post(client, server, "records/query", {"query": {"recordType": "Nope"}}), 400, "BAD_REQUEST")
    expect_error(post(client, server, "records/query", {"query": {"recordType": "Items", "filterBy": [
        {"comparator": "EQUALS", "fieldName": "name", "fieldValue": {"value": 3}}]}}), 400, "BAD_REQUEST")
    expect_error(post(client, server, "records/query", {"query": {"recordType": "Items"}, "zoneID": {"zoneName": "Photos"}}), 404, "ZONE_NOT_FOUND")
    bad_json = client.post(f"{server.database_url()}/records/query", content="{not json", headers={"Content-Type": "application/json"})
    expect_error(bad_json, 400, "BAD_REQUEST")


# records/modify


def test_every_operation_type_with_change_tags(client, server):
    name = unique("L")
    created = modify(client, server, create("Lists", name, name=unique("Hardware"))).json()["records"][0]
    assert created["recordName"] == name and created["recordType"] == "Lists"
    tag = created["recordChangeTag"]

    updated = modify(client, server, {"operationType": "update", "record": {
        "recordName": name, "recordChangeTag": tag, "fields": {"name": {"value": unique("Tools")}}}}).json()["records"][0]
    assert updated["fields"]["name"]["value"].startswith("Tools") and updated["recordChangeTag"] != tag
    stale = modify(client, server, {"operationType": "update", "record": {
        "recordName": name, "recordChangeTag": tag, "fields": {"name": {"value": unique("Lost")}}}})
    expect_failed_operations(stale, "CONFLICT")

    forced = modify(client, server, {"operationType": "forceUpdate", "record": {
        "recordType": "Lists", "recordName": name, "fields": {"name": {"value": unique("Forced")}}}}).json()["records"][0]
    replaced = modify(client, server, {"operationType": "replace", "record": {
        "recordType": "Lists", "recordName": name, "recordChangeTag": forced["recordChangeTag"], "fields": {"name": {"value": name}}}}).json()["records"][0]
    assert replaced["fields"] == {"name": {"type": "STRING", "value": name}}
    expect_failed_operations(modify(client, server, {"operationType": "replace", "record": {
        "recordType": "Lists", "recordName": name, "recordChangeTag": forced["recordChangeTag"], "fields": {"name": {"value": unique("Stale")}}}}), "CONFLICT")
    force_replaced = modify(client, server, {"operationType": "forceReplace", "record": {
        "recordType": "Lists", "recordName": name, "fields": {"name": {"value": "Again " + name}}}}).json()["records"][0]
    assert force_replaced["fields"]["name"]["value"] == "Again " + name

    expect_failed_operations(modify(client, server, {"operationType": "delete", "record": {"recordName": name, "recordChangeTag": tag}}), "CONFLICT")
    deleted = modify(client, server, {"operationType": "delete", "record": {
        "recordName": name, "recordChangeTag": force_replaced["recordChangeTag"]}}).json()["records"][0]
    assert deleted == {"recordName": name, "recordType": "Lists", "deleted": True, "zoneID": {"zoneName": "_defaultZone", "ownerRecordName": "__defaultOwner__"}}
    expect_failed_operations(modify(client, server, {"operationType": "forceDelete", "record": {"recordName": name}}), "NOT_FOUND")

    other = unique("L")
    modify(client, server, {"operationType": "forceReplace", "record": {"recordType": "Lists", "recordName": other, "fields": {"name": {"value": unique("Other")}}}})
    gone = modify(client, server, {"operationType": "forceDelete", "record": {"recordName": other, "recordChangeTag": "stale"}}).json()
    assert gone["records"][0]["recordType"] == "Lists"


def test_create_of_an_existing_name_is_exists_and_a_missing_target_is_validating_reference_error(client, server, grocery_list):
    list_name, _ = grocery_list
    expect_failed_operations(modify(client, server, create("Lists", list_name, name=unique("Again"))), "EXISTS")
    ghost = create("Items", unique("I"), name="Ghost", list={"recordName": unique("missing"), "action": "DELETE_SELF"})
    expect_failed_operations(modify(client, server, ghost), "VALIDATING_REFERENCE_ERROR")


def test_an_atomic_batch_is_all_or_nothing_and_answers_atomic_error_for_the_others(client, server, grocery_list):
    list_name, _ = grocery_list
    fresh, kept = unique("L"), unique("L")
    modify(client, server, create("Lists", kept, name=unique("Kept")))
    response = modify(client, server, create("Lists", fresh, name=unique("New")), create("Lists", list_name, name=unique("Dup")),
                      {"operationType": "forceDelete", "record": {"recordName": kept}})
    spared, failed, undeleted = expect_failed_operations(response, "ATOMIC_ERROR", "EXISTS", "ATOMIC_ERROR")
    assert spared["recordName"] == fresh and spared["recordType"] == "Lists"
    assert spared["reason"].startswith(f'not applied: operations[1] ("{list_name}") failed and the batch is atomic')
    assert failed["recordName"] == list_name and failed["recordType"] == "Lists"
    # A deletion names no type; its result names the record's all the same.
    assert undeleted["recordName"] == kept and undeleted["recordType"] == "Lists"
    assert "uuid" not in response.json() and no_nulls(response.json())
    lookup = post(client, server, "records/lookup", {"records": [{"recordName": fresh}, {"recordName": kept}]}).json()
    assert lookup["records"][0]["serverErrorCode"] == "NOT_FOUND"
    assert lookup["records"][1]["recordType"] == "Lists" and "serverErrorCode" not in lookup["records"][1]


def test_a_non_atomic_batch_reports_failures_in_place(client, server, grocery_list):
    list_name, _ = grocery_list
    fresh = unique("L")
    response = modify(client, server, create("Lists", fresh, name=unique("New")), create("Lists", list_name, name=unique("Dup")), atomic=False)
    assert response.status_code == 200, response.text
    first, second = response.json()["records"]
    assert first["recordName"] == fresh and "serverErrorCode" not in first
    assert second["recordName"] == list_name and second["recordType"] == "Lists"
    assert second["serverErrorCode"] == "EXISTS" and second["reason"]


def test_deleting_a_list_deletes_its_items(client, server, grocery_list):
    list_name, items = grocery_list
    response = modify(client, server, {"operationType": "forceDelete", "record": {"recordName": list_name}})
    assert response.json()["records"] == [{"recordName": list_name, "recordType": "Lists", "deleted": True, "zoneID": {"zoneName": "_defaultZone", "ownerRecordName": "__defaultOwner__"}}]
    found = post(client, server, "records/lookup", {"records": [{"recordName": name} for name in items]}).json()["records"]
    assert [r["serverErrorCode"] for r in found] == ["NOT_FOUND"] * 3


def test_modify_with_an_idempotency_key_is_replayed_and_a_reused_key_conflicts(client, server):
    key = str(uuid.uuid4())
    operation = create("Lists", unique("L"), name=unique("Once"))
    first = modify(client, server, operation, headers={"Idempotency-Key": key})
    again = modify(client, server, operation, headers={"Idempotency-Key": key})
    assert first.status_code == again.status_code == 200
    assert again.headers["idempotent-replayed"] == "true"
    assert again.content == first.content
    other = modify(client, server, create("Lists", unique("L"), name=unique("Other")), headers={"Idempotency-Key": key})
    expect_error(other, 409, "CONFLICT")


# records/lookup, zones, users


def test_lookup_returns_records_and_not_found_in_place(client, server, grocery_list):
    list_name, items = grocery_list
    response = post(client, server, "records/lookup", {"records": [{"recordName": items[0]}, {"recordName": "nope"}], "desiredKeys": ["name"]})
    found, missing = response.json()["records"]
    assert found["recordName"] == items[0] and set(found["fields"]) == {"name"}
    assert missing["recordName"] == "nope" and missing["serverErrorCode"] == "NOT_FOUND"


def test_a_lookup_entry_may_ask_for_fields_of_its_own(client, server, grocery_list):
    """CloudKit's lookup record dictionary takes desiredKeys beside recordName: that record's
    fields, in place of the request's."""
    list_name, items = grocery_list
    response = post(client, server, "records/lookup", {"desiredKeys": ["name"], "records": [
        {"recordName": items[0], "desiredKeys": ["list"]}, {"recordName": items[1]}, {"recordName": items[2], "desiredKeys": []}]})
    assert response.status_code == 200, response.text
    own, shared, none = response.json()["records"]
    assert set(own["fields"]) == {"list"} and own["fields"]["list"]["value"]["recordName"] == list_name
    assert set(shared["fields"]) == {"name"}
    assert none["fields"] == {} and none["recordType"] == "Items"
    refused = post(client, server, "records/lookup", {"records": [{"recordName": items[0], "desiredKeys": "name"}]})
    expect_error(refused, 400, "BAD_REQUEST")
    assert "records[0].desiredKeys must be an array of field names" in refused.json()["reason"]


def test_numbers_as_strings_come_and_go_as_strings_as_mistkit_asks(client, server, grocery_list):
    """MistKit sends numbersAsStrings: true with every query and modify and reads each value as a
    string; an INT64 past 2^53 then reaches a JavaScript client exactly too."""
    _, items = grocery_list
    big = "9007199254740993"
    saved = post(client, server, "records/modify", {"numbersAsStrings": True, "operations": [{"operationType": "forceUpdate", "record": {
        "recordType": "Items", "recordName": items[0], "fields": {"stock": {"value": big, "type": "INT64"}}}}]})
    assert saved.status_code == 200, saved.text
    assert saved.json()["records"][0]["fields"]["stock"] == {"type": "INT64", "value": big}
    query = {"numbersAsStrings": True, "query": {"recordType": "Items", "filterBy": [
        {"comparator": "EQUALS", "fieldName": "stock", "fieldValue": {"value": big}}]}}
    found = post(client, server, "records/query", query).json()["records"]
    assert [r["recordName"] for r in found] == [items[0]] and found[0]["fields"]["stock"]["value"] == big
    looked_up = post(client, server, "records/lookup", {"numbersAsStrings": True, "records": [{"recordName": items[0]}]}).json()
    assert looked_up["records"][0]["fields"]["stock"]["value"] == big
    plain = post(client, server, "records/lookup", {"records": [{"recordName": items[0]}]}).json()
    assert plain["records"][0]["fields"]["stock"]["value"] == int(big)
    expect_error(post(client, server, "records/query", {"numbersAsStrings": 1, "query": {"recordType": "Items"}}), 400, "BAD_REQUEST")


def test_a_location_keeps_everything_a_cllocation_sends(client, server):
    """CloudKit JS and MistKit send a location as a CLLocation's dictionary; every member comes
    back as sent, from CloudKit's endpoints and from GraphQL (its timestamp as ISO-8601 there)."""
    name = unique("spot")
    sent = {"latitude": 48.8584, "longitude": 2.2945, "altitude": 330.5, "horizontalAccuracy": 5.0, "verticalAccuracy": 2.5,
            "speed": 0.0, "course": 359.75, "timestamp": 1795253100123}
    saved = modify(client, server, {"operationType": "create", "record": {"recordType": "Sights", "recordName": name, "fields": {
        "spot": {"value": sent, "type": "LOCATION"}}}})
    assert saved.status_code == 200, saved.text
    assert saved.json()["records"][0]["fields"]["spot"] == {"type": "LOCATION", "value": sent}
    looked_up = post(client, server, "records/lookup", {"records": [{"recordName": name}]}).json()["records"][0]
    assert looked_up["fields"]["spot"]["value"] == sent
    answered = client.post(f"{server.url}/graphql", json={"query": f'{{ Sights(where: {{recordName: {{eq: "{name}"}}}}) '
                                                            "{ spot { latitude altitude speed course timestamp } } }"})
    assert answered.json() == {"data": {"Sights": [{"spot": {"latitude": 48.8584, "altitude": 330.5, "speed": 0.0, "course": 359.75,
                                                             "timestamp": "2026-11-21T09:25:00.123Z"}}]}}
    refused = modify(client, server, {"operationType": "create", "record": {"recordType": "Sights", "recordName": unique("spot"), "fields": {
        "spot": {"value": {"latitude": 1, "longitude": 2, "altitude": "high"}, "type": "LOCATION"}}}})
    failed, = expect_failed_operations(refused, "BAD_REQUEST")
    assert "altitude must be a finite number" in failed["reason"]


def test_zones_list_and_lookup(client, server):
    zones = client.get(f"{server.database_url()}/zones/list")
    assert zones.status_code == 200
    assert zones.json()["zones"][0]["zoneID"]["zoneName"] == "_defaultZone"
    looked = post(client, server, "zones/lookup", {"zones": [{"zoneName": "_defaultZone"}, {"zoneName": "Photos"}]}).json()["zones"]
    assert looked[0]["zoneID"]["zoneName"] == "_defaultZone"
    assert looked[1]["serverErrorCode"] == "ZONE_NOT_FOUND"


def test_a_zone_wide_query_reads_every_zone_in_order_with_markers(client, server):
    """CloudKit JS's performQuery with zoneWide: every zone's records, merged in the query's
    order, each naming its zone; continuationMarker pages keep each zone's place."""
    prefix = unique("zw")
    home, work = unique("Home"), unique("Work")
    created = post(client, server, "zones/modify", {"operations": [
        {"operationType": "create", "zone": {"zoneID": {"zoneName": zone}}} for zone in (home, work)]})
    assert created.status_code == 200, created.text
    for zone, titles in ((None, ["b", "e"]), (home, ["a", "d", "f"]), (work, ["c"])):
        document = {"operations": [create("Lists", unique("L"), name=f"{prefix} {title}") for title in titles]}
        if zone:
            document["zoneID"] = {"zoneName": zone}
        assert post(client, server, "records/modify", document).status_code == 200
    query = {"zoneWide": True, "resultsLimit": 2, "query": {"recordType": "Lists", "filterBy": [
        {"comparator": "BEGINS_WITH", "fieldName": "name", "fieldValue": {"value": prefix}}], "sortBy": [{"fieldName": "name", "ascending": True}]}}
    seen, pages = [], 0
    while True:
        response = post(client, server, "records/query", query)
        assert response.status_code == 200, response.text
        pages += 1
        seen += [(r["zoneID"]["zoneName"], r["fields"]["name"]["value"][-1]) for r in response.json()["records"]]
        if "continuationMarker" not in response.json() or pages > 5:
            break
        query["continuationMarker"] = response.json()["continuationMarker"]
    assert seen == [(home, "a"), ("_defaultZone", "b"), (work, "c"), (home, "d"), ("_defaultZone", "e"), (home, "f")]
    assert pages == 3
    query["continuationMarker"] = "bm90LWEtbWFya2Vy"
    expect_error(post(client, server, "records/query", query), 400, "BAD_REQUEST")


def test_users_current_names_the_caller(client, server):
    response = client.get(f"{server.database_url()}/users/current")
    assert response.status_code == 200
    # The admin token acts as the owner, whom CloudKit names __defaultOwner__.
    assert response.json()["userRecordName"] == "__defaultOwner__"


# assets


def test_upload_urls_carry_the_host_asked_for_and_a_host_that_is_not_one_is_refused(client, server):
    ask = {"tokens": [{"recordType": "Photos", "fieldName": "image"}]}
    named = client.post(f"{server.database_url()}/assets/upload", json=ask, headers={"Host": "shop.example:8443"})
    assert named.status_code == 200, named.text
    assert named.json()["tokens"][0]["url"].startswith("http://shop.example:8443/database/1/")
    for host in ("a b", "127.0.0.1:99999", "evil/path", "x@y"):
        refused = client.post(f"{server.database_url()}/assets/upload", json=ask, headers={"Host": host})
        assert refused.status_code == 400, (host, refused.text)
        assert refused.json()["serverErrorCode"] == "BAD_REQUEST"
        assert "the Host header must be HOST or HOST:PORT" in refused.json()["reason"]


def test_an_uploaded_asset_is_saved_in_a_record_and_downloaded(client, server):
    photo = unique("P")
    tokens = post(client, server, "assets/upload", {"tokens": [{"recordType": "Photos", "fieldName": "image", "recordName": photo}]})
    assert tokens.status_code == 200, tokens.text
    url = tokens.json()["tokens"][0]["url"]
    content = b"\x89PNG not really" * 100
    uploaded = client.post(url, content=content, headers={"Content-Type": "application/octet-stream"})
    assert uploaded.status_code == 200, uploaded.text
    single = uploaded.json()["singleFile"]
    assert single["size"] == len(content)
    saved = modify(client, server, {"operationType": "create", "record": {"recordType": "Photos", "recordName": photo, "fields": {"image": {"value": single}}}})
    assert saved.status_code == 200, saved.text
    image = saved.json()["records"][0]["fields"]["image"]
    assert image["type"] == "ASSETID" and image["value"]["size"] == len(content)
    downloaded = client.get(image["value"]["downloadURL"])
    assert downloaded.status_code == 200 and downloaded.content == content
    expect_error(client.post(url, content=b"again"), 404, "NOT_FOUND")


# environments


def test_production_refuses_unknown_fields_until_the_schema_is_deployed(client, server, data_folder):
    field = "note" + uuid.uuid4().hex[:6]
    name = unique("L")
    operation = {"operationType": "create", "record": {"recordType": "Lists", "recordName": name, "fields": {"name": {"value": name}, field: {"value": "x"}}}}
    refused = expect_error(modify(client, server, operation, environment="production"), 400, "BAD_REQUEST")
    assert f"Lists.{field}" in refused["reason"]
    assert modify(client, server, operation).status_code == 200  # development adds the field
    deployed = shop("schema", "deploy", data=data_folder)
    assert f"Lists.{field}" in deployed.stdout
    accepted = modify(client, server, operation, environment="production")
    assert accepted.status_code == 200, accepted.text
    assert accepted.json()["records"][0]["fields"][field] == {"type": "STRING", "value": "x"}


# credentials and paths


def test_credentials_and_paths(server, admin_token, data_folder):
    url = f"{server.database_url()}/records/query"
    query = body({"query": {"recordType": "Lists"}})
    expect_error(httpx.post(url, content=query), 401, "AUTHENTICATION_FAILED")
    api = create_token(data_folder, "--api")
    assert httpx.post(url, content=query, headers={"Authorization": f"Bearer {api}"}).status_code == 200
    writes = body({"operations": [create("Lists", unique("L"), name=unique("No"))]})
    expect_error(httpx.post(f"{server.database_url()}/records/modify", content=writes, headers={"Authorization": f"Bearer {api}"}), 403, "ACCESS_DENIED")
    other = f"{server.database_url(container='iCloud.other')}/records/query"
    expect_error(httpx.post(other, content=query, headers={"Authorization": f"Bearer {admin_token}"}), 404, "NOT_FOUND")
    huge = body({"operations": [create("Lists", unique("L"), name="x" * (64 << 20))]})
    expect_error(httpx.post(f"{server.database_url()}/records/modify", content=huge, headers={"Authorization": f"Bearer {admin_token}"}, timeout=60), 413, "QUOTA_EXCEEDED")
