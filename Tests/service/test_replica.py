"""Copies kept only from the change feed end equal to the server, on the release `shop serve`.

A seeded random workload of 5,000 operations — creates, updates (renames, items moved to
another list), deletes, cascades (a list deleted with its DELETE_SELF items), names deleted and
created again (as either type), atomic batches that fail and must leave no trace, non-atomic
ones whose failed operations must not show — runs in batches through `records/modify` in two
zones of a user's private database: `_defaultZone` and a custom zone made with `zones/modify`. Replicas apply nothing but the pages of `records/changes`
(raw httpx, CloudKit's JSON as MistKit sends it) with a small `resultsLimit`, so that every sync
crosses many pages: one from no token kept in step during the run (a few pages after each
batch, often stopping while `moreComing`), one started from no token in the middle of the run,
and copies of the live one taken at random moments (state and token) that catch up only at
the end. The same through GraphQL's `changes(since:, limit:)` on the default zone. At the end
every copy must equal the server's records as `records/query` (and GraphQL's `…Page` fields)
return them, and the server must equal the workload's own model.

Expiry: with a short `--change-retention` the service prunes the log (of public and private
databases and their custom zones); an old token then gets 410 `CHANGE_TOKEN_EXPIRED` (GraphQL:
`extensions.reason` `changeTokenExpired`), a fetch without a token rebuilds the copy, and after a
restart the token of the end of the log still follows on: sequence numbers never start again.
A fetch from no token after pruning pages through what the pruning kept. A token is good only
for the zone and database that issued it.
"""

import copy
import json
import pathlib
import random
import tempfile
import time

import httpx
import pytest

from conftest import Server, add_user, create_token

OPERATIONS = 5000
PAGE = 7
SEED = 20261126
WORK = "Work"
ZONES = ("_defaultZone", WORK)
GRAPHQL_SELECTION = """
    ... on Lists { recordName changeTag name modifiedAt }
    ... on Items { recordName changeTag name modifiedAt list { recordName } }
"""


def body(document):
    """A request body as MistKit encodes it: pretty-printed with sorted keys."""
    return json.dumps(document, indent=2, sort_keys=True)


class Service:
    """A `shop serve` on a data folder of its own, with the user ann and her token."""

    def __init__(self, folder, extra=()):
        self.folder = pathlib.Path(folder)
        add_user(self.folder, "ann", "ann-password-3c9a")
        self.token = create_token(self.folder, "--user", "ann", label="ann")
        self.admin = create_token(self.folder, "--admin", label="admin")
        self.extra = list(extra)
        self.start()

    def start(self):
        self.server = Server(self.folder, ["--port", "0", *self.extra])
        self.http = httpx.Client(headers={"Authorization": f"Bearer {self.token}"}, timeout=60)

    def stop(self):
        self.http.close()
        return self.server.stop()

    def url(self, database="private"):
        return self.server.database_url(database=database)

    def post(self, endpoint, document, database="private"):
        return self.http.post(f"{self.url(database)}/{endpoint}", content=body(document),
                              headers={"Content-Type": "application/json"})

    def graphql(self, query, variables=None, database="private"):
        response = self.http.post(f"{self.url(database)}/graphql", json={"query": query, "variables": variables or {}})
        assert response.status_code == 200, response.text
        return response.json()


@pytest.fixture(scope="module")
def service():
    with tempfile.TemporaryDirectory(prefix="shop-replica-") as folder:
        running = Service(folder)
        try:
            created = running.post("zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": WORK}}}]})
            assert created.status_code == 200 and "serverErrorCode" not in created.json()["zones"][0], created.text
            yield running
        finally:
            assert running.stop() == 0


# The workload


class Model:
    """What the server should hold, per zone: lists (name → title) and items (name → (title, list))."""

    def __init__(self):
        self.lists = {zone: {} for zone in ZONES}
        self.items = {zone: {} for zone in ZONES}
        self.deleted = {zone: [] for zone in ZONES}

    def names(self, zone):
        return set(self.lists[zone]) | set(self.items[zone])

    def copy(self):
        other = Model()
        for zone in ZONES:
            other.lists[zone], other.items[zone], other.deleted[zone] = dict(self.lists[zone]), dict(self.items[zone]), list(self.deleted[zone])
        return other


def field(value):
    return {"value": value}


def reference(list_name):
    return field({"recordName": list_name, "action": "DELETE_SELF"})


class Workload:
    """Random batches of `records/modify` operations, each valid against the model as it stands
    after the operations before it in the same batch."""

    def __init__(self, seed):
        self.random = random.Random(seed)
        self.model = Model()
        self.counter = 0

    def fresh(self, prefix):
        self.counter += 1
        return f"{prefix}{self.counter}"

    def operation(self, zone, model, touched):
        """One operation on a record no earlier operation of the batch names (`touched`)."""
        rnd, lists, items = self.random, model.lists[zone], model.items[zone]
        free_lists = sorted(set(lists) - touched)
        free_items = sorted(set(items) - touched)
        roll = rnd.random()
        if roll < 0.05:
            # A name deleted before, created again, as a list or an item.
            names = [name for name in model.deleted[zone] if name not in touched and name not in model.names(zone)]
            if names:
                return self.create(zone, model, rnd.choice(names), as_item=bool(lists) and rnd.random() < 0.5)
        if roll < 0.20 or not lists:
            return self.create(zone, model, self.fresh("L"), as_item=False)
        if roll < 0.55:
            return self.create(zone, model, self.fresh("I"), as_item=True)
        if roll < 0.80 and free_lists + free_items:
            name = rnd.choice(free_lists + free_items)
            title = self.fresh("renamed ")
            if name in lists:
                lists[name] = title
                return {"operationType": rnd.choice(["forceUpdate", "forceReplace"]),
                        "record": {"recordType": "Lists", "recordName": name, "fields": {"name": field(title)}}}
            owner = rnd.choice(sorted(lists)) if rnd.random() < 0.3 else items[name][1]
            items[name] = (title, owner)
            return {"operationType": "forceUpdate",
                    "record": {"recordType": "Items", "recordName": name, "fields": {"name": field(title), "list": reference(owner)}}}
        if roll < 0.92 and free_items:
            name = rnd.choice(free_items)
            del items[name]
            model.deleted[zone].append(name)
            return {"operationType": "forceDelete", "record": {"recordName": name}}
        if not free_lists:
            return self.create(zone, model, self.fresh("L"), as_item=False)
        # A list with its items: the cascade.
        name = rnd.choice(free_lists)
        del lists[name]
        model.deleted[zone].append(name)
        for item, (_, owner) in list(items.items()):
            if owner == name:
                del items[item]
                model.deleted[zone].append(item)
        return {"operationType": "forceDelete", "record": {"recordName": name}}

    def create(self, zone, model, name, as_item):
        title = self.fresh("title ")
        if as_item:
            owner = self.random.choice(sorted(model.lists[zone]))
            model.items[zone][name] = (title, owner)
            fields = {"name": field(title), "list": reference(owner)}
        else:
            model.lists[zone][name] = title
            fields = {"name": field(title)}
        return {"operationType": "create", "record": {"recordType": "Items" if as_item else "Lists", "recordName": name, "fields": fields}}

    def batch(self, zone, size):
        """`size` operations in `zone` and the model after them (the current one is untouched)."""
        model, touched, operations = self.model.copy(), set(), []
        for _ in range(size):
            operations.append(self.operation(zone, model, touched))
            touched.add(operations[-1]["record"]["recordName"])
        return operations, model


# Replicas


class CloudKitReplica:
    """A copy of a database's zones kept only from `records/changes` pages."""

    def __init__(self, database="private"):
        self.database = database
        self.records = {zone: {} for zone in ZONES}
        self.tokens = {zone: None for zone in ZONES}
        self.pages = 0

    def page(self, service, zone):
        """Applies one page; returns whether more are coming."""
        document = {"zoneID": {"zoneName": zone}, "resultsLimit": PAGE}
        if self.tokens.get(zone) is not None:
            document["syncToken"] = self.tokens[zone]
        records = self.records.setdefault(zone, {})
        response = service.post("records/changes", document, self.database)
        assert response.status_code == 200, response.text
        answer = response.json()
        assert answer["zoneID"]["zoneName"] == zone
        assert len(answer["records"]) <= PAGE
        for record in answer["records"]:
            assert record["zoneID"]["zoneName"] == zone
            if record.get("deleted"):
                assert set(record) == {"recordName", "recordType", "deleted", "zoneID"}, record
                assert record["recordType"] in ("Lists", "Items")
                records.pop(record["recordName"], None)
            else:
                records[record["recordName"]] = record
        self.tokens[zone] = answer["syncToken"]
        self.pages += 1
        return answer["moreComing"]

    def sync(self, service, pages=None, zones=ZONES):
        """Applies pages of each zone until none are coming (or `pages` of each were applied)."""
        for zone in zones:
            count = 0
            while self.page(service, zone):
                count += 1
                if pages is not None and count >= pages:
                    break


class GraphQLReplica:
    """A copy of the default zone kept only from GraphQL's `changes` pages."""

    QUERY = "query ($since: String) { changes(since: $since, limit: %d) { changes { recordName recordType deleted record { %s } } syncToken moreComing } }" % (PAGE, GRAPHQL_SELECTION)

    def __init__(self):
        self.records = {}
        self.token = None

    def page(self, service):
        answer = service.graphql(self.QUERY, {"since": self.token})
        assert "errors" not in answer, answer
        page = answer["data"]["changes"]
        assert len(page["changes"]) <= PAGE
        for change in page["changes"]:
            if change["deleted"]:
                assert change["record"] is None
                self.records.pop(change["recordName"], None)
            else:
                assert change["record"]["recordName"] == change["recordName"]
                self.records[change["recordName"]] = (change["recordType"], change["record"])
        self.token = page["syncToken"]
        return page["moreComing"]

    def sync(self, service, pages=None):
        count = 0
        while self.page(service):
            count += 1
            if pages is not None and count >= pages:
                break


# What the server holds


def server_records(service, zone, database="private"):
    """Every record of `zone` as `records/query` returns it, by recordName."""
    records = {}
    for record_type in ("Lists", "Items"):
        marker = None
        while True:
            document = {"zoneID": {"zoneName": zone}, "query": {"recordType": record_type}, "resultsLimit": 200}
            if marker:
                document["continuationMarker"] = marker
            response = service.post("records/query", document, database)
            assert response.status_code == 200, response.text
            answer = response.json()
            for record in answer["records"]:
                records[record["recordName"]] = record
            marker = answer.get("continuationMarker")
            if not marker:
                break
    return records


def graphql_records(service):
    """Every record of the default zone through GraphQL's `…Page` fields, as the replica keeps them."""
    records = {}
    selections = {"Lists": "recordName changeTag name modifiedAt", "Items": "recordName changeTag name modifiedAt list { recordName }"}
    for record_type, selection in selections.items():
        cursor = None
        while True:
            query = "query ($after: String) { page: %sPage(limit: 500, after: $after) { records { %s } cursor } }" % (record_type, selection)
            answer = service.graphql(query, {"after": cursor})
            assert "errors" not in answer, answer
            for record in answer["data"]["page"]["records"]:
                records[record["recordName"]] = (record_type, record)
            cursor = answer["data"]["page"]["cursor"]
            if cursor is None:
                break
    return records


def model_view(model, zone, records):
    """The server's records of `zone` reduced to what the model knows."""
    lists = {name: r["fields"]["name"]["value"] for name, r in records.items() if r["recordType"] == "Lists"}
    items = {name: (r["fields"]["name"]["value"], r["fields"]["list"]["value"]["recordName"])
             for name, r in records.items() if r["recordType"] == "Items"}
    return lists == model.lists[zone] and items == model.items[zone]


def test_replicas_kept_from_change_pages_end_equal_to_the_server(service):
    started = time.monotonic()
    workload = Workload(SEED)
    rnd = random.Random(SEED + 1)
    live, live_graphql = CloudKitReplica(), GraphQLReplica()
    forks, graphql_forks = [], []
    moments = sorted(rnd.sample(range(OPERATIONS), 3))  # when copies of the live replicas are taken
    late, late_graphql = None, None
    applied = failed = partial = 0
    while applied < OPERATIONS:
        zone = rnd.choice(ZONES)
        operations, model = workload.batch(zone, min(rnd.randint(1, 60), OPERATIONS - applied))
        kind = rnd.choices(["atomic", "doomed", "partial"], [0.85, 0.05, 0.10])[0]
        document = {"zoneID": {"zoneName": zone}, "operations": operations}
        if kind == "doomed":
            # An atomic batch whose last operation fails: none of it may show.
            operations.append(doomed(workload))
        elif kind == "partial":
            # A non-atomic batch with failing operations among the others: only those fail.
            for _ in range(rnd.randint(1, 3)):
                operations.insert(rnd.randint(0, len(operations)), doomed(workload))
            document["atomic"] = False
        response = service.post("records/modify", document)
        if kind == "doomed":
            # Answered in place, as CloudKit does: the failed operation's error, ATOMIC_ERROR for the rest.
            assert response.status_code == 200, response.text
            codes = [r.get("serverErrorCode") for r in response.json()["records"]]
            assert codes == ["ATOMIC_ERROR"] * (len(operations) - 1) + ["VALIDATING_REFERENCE_ERROR"], response.text
            failed += 1
        else:
            assert response.status_code == 200, response.text
            results = response.json()["records"]
            refused = [r["recordName"] for r in results if "serverErrorCode" in r]
            assert refused == [o["record"]["recordName"] for o in operations if o["record"]["recordName"].startswith("doomed")], response.text
            partial += bool(refused)
            workload.model = model
            applied += len(operations) - len(refused)
        # The live copies follow a few pages behind; copies of them are taken at random moments.
        live.sync(service, pages=rnd.randint(1, 4))
        live_graphql.sync(service, pages=rnd.randint(1, 4))
        while moments and applied >= moments[0]:
            moments.pop(0)
            forks.append(copy.deepcopy(live))
            graphql_forks.append(copy.deepcopy(live_graphql))
        if late is None and applied >= OPERATIONS // 2:
            late, late_graphql = CloudKitReplica(), GraphQLReplica()
            late.sync(service)
            late_graphql.sync(service)
    assert len(forks) == 3 and failed >= 1 and partial >= 1
    fresh, fresh_graphql = CloudKitReplica(), GraphQLReplica()
    replicas = [live, late, fresh, *forks]
    for replica in replicas:
        replica.sync(service)
    for replica in [live_graphql, late_graphql, fresh_graphql, *graphql_forks]:
        replica.sync(service)

    for zone in ZONES:
        truth = server_records(service, zone)
        assert model_view(workload.model, zone, truth), f"the server's {zone} differs from the workload's model"
        assert len(truth) > 100
        for index, replica in enumerate(replicas):
            assert replica.records[zone] == truth, f"replica {index} differs in {zone}: " + describe(replica.records[zone], truth)
    truth = graphql_records(service)
    for index, replica in enumerate([live_graphql, late_graphql, fresh_graphql, *graphql_forks]):
        assert replica.records == truth, f"GraphQL replica {index} differs: " + describe(replica.records, truth)
    assert live.pages > 500  # the small resultsLimit made the syncs cross many pages
    assert time.monotonic() - started < 120


def test_a_token_serves_only_the_zone_and_database_that_issued_it(service):
    # Zones of their own, so that the workload of the other test stays alone in its zones.
    side, other = "Side", "Other"
    zones = [{"operationType": "create", "zone": {"zoneID": {"zoneName": name}}} for name in (side, other)]
    assert service.post("zones/modify", {"operations": zones}).status_code == 200
    batch(service, "_defaultZone", lists_and_items("pub", lists=2, items=2), "public")
    batch(service, side, lists_and_items("side", lists=2, items=2))
    batch(service, other, lists_and_items("other", lists=1, items=1))
    tokens = {}
    for database, zone in [("private", side), ("private", other), ("public", "_defaultZone")]:
        replica = CloudKitReplica(database)
        replica.sync(service, zones=[zone])
        tokens[(database, zone)] = replica.tokens[zone]
    # Each position exists in the others' logs too: read there, the answer would be wrong.
    batch(service, "_defaultZone", lists_and_items("own", lists=3, items=3))
    expect_expired(service, "_defaultZone", tokens[("public", "_defaultZone")], "private")
    crossed = service.post("records/changes", {"zoneID": {"zoneName": side}, "syncToken": tokens[("private", other)]})
    assert crossed.status_code == 400 and crossed.json()["serverErrorCode"] == "BAD_REQUEST", crossed.text
    # GraphQL reads the default zone: a custom zone's token is refused as an argument (a field
    # error, 200 with data null), one of another database as expired.
    query = {"query": "query ($t: String) { changes(since: $t) { syncToken } }"}
    refused = service.http.post(f"{service.url()}/graphql", json={**query, "variables": {"t": tokens[("private", side)]}})
    assert refused.status_code == 200 and refused.json()["data"] is None, refused.text
    assert refused.json()["errors"][0]["extensions"]["code"] == "invalidArguments", refused.text
    expired = service.graphql(query["query"], {"t": tokens[("public", "_defaultZone")]})
    assert expired["data"] is None and expired["errors"][0]["extensions"]["reason"] == "changeTokenExpired", expired


def doomed(workload):
    """A create that fails: its item references a list that does not exist."""
    return {"operationType": "create", "record": {"recordType": "Items", "recordName": workload.fresh("doomed"),
                                                  "fields": {"name": field("doomed"), "list": reference(workload.fresh("missing"))}}}


def describe(copy_records, truth):
    missing = sorted(set(truth) - set(copy_records))[:5]
    extra = sorted(set(copy_records) - set(truth))[:5]
    changed = sorted(name for name in set(truth) & set(copy_records) if truth[name] != copy_records[name])[:3]
    detail = [(truth[name], copy_records[name]) for name in changed[:1]]
    return f"missing {missing}, extra {extra}, changed {changed} {detail}"


# Expiry


def expect_expired(service, zone, token, database="private"):
    response = service.post("records/changes", {"zoneID": {"zoneName": zone}, "syncToken": token, "resultsLimit": PAGE}, database)
    assert response.status_code == 410, response.text
    error = response.json()
    assert error["serverErrorCode"] == "CHANGE_TOKEN_EXPIRED" and error["reason"] and error["uuid"]


def batch(service, zone, operations, database="private"):
    response = service.post("records/modify", {"zoneID": {"zoneName": zone}, "operations": operations}, database)
    assert response.status_code == 200, response.text


def lists_and_items(prefix, lists=3, items=4):
    operations = []
    for number in range(lists):
        operations.append({"operationType": "create", "record": {"recordType": "Lists", "recordName": f"{prefix}L{number}", "fields": {"name": field(f"{prefix} list {number}")}}})
        for item in range(items):
            operations.append({"operationType": "create", "record": {"recordType": "Items", "recordName": f"{prefix}L{number}I{item}",
                                                                      "fields": {"name": field(f"item {item}"), "list": reference(f"{prefix}L{number}")}}})
    return operations


def wait_until_expired(service, zone, token, database="private", seconds=15):
    """Waits for the retention to prune past `token` (the service prunes every second here)."""
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        document = {"zoneID": {"zoneName": zone}, "syncToken": token, "resultsLimit": PAGE}
        if service.post("records/changes", document, database).status_code == 410:
            return
        time.sleep(0.25)
    pytest.fail(f"the token of {database}/{zone} did not expire within {seconds} s")


def test_a_pruned_token_expires_a_fetch_from_no_token_rebuilds_and_sequences_never_restart():
    with tempfile.TemporaryDirectory(prefix="shop-expiry-") as folder:
        service = Service(folder, ["--change-retention", "1s"])
        try:
            service.post("zones/modify", {"operations": [{"operationType": "create", "zone": {"zoneID": {"zoneName": WORK}}}]})
            old = {}
            for database, zone in [("private", "_defaultZone"), ("private", WORK), ("public", "_defaultZone")]:
                prefix = f"{database[:3]}{zone[:2]}"
                batch(service, zone, lists_and_items(prefix), database)
                replica = CloudKitReplica(database)
                replica.sync(service, zones=[zone])
                old[(database, zone)] = (replica, dict(replica.records[zone]))
                # Deletions (a cascade among them) after the token: what an old token would miss.
                batch(service, zone, [{"operationType": "forceDelete", "record": {"recordName": f"{prefix}L0"}},
                                      {"operationType": "forceDelete", "record": {"recordName": f"{prefix}L1I2"}},
                                      *lists_and_items(prefix + "x", lists=1, items=2)], database)
            answer = service.graphql("{ changes(limit: 1000) { syncToken } }", database="public")
            graphql_token = answer["data"]["changes"]["syncToken"]
            batch(service, "_defaultZone", [{"operationType": "forceDelete", "record": {"recordName": "pub_dL1"}}], "public")

            for (database, zone), (replica, _) in old.items():
                wait_until_expired(service, zone, replica.tokens[zone], database)
                expect_expired(service, zone, replica.tokens[zone], database)
            expired = service.graphql('query ($t: String) { changes(since: $t) { syncToken } }', {"t": graphql_token}, database="public")
            assert expired["data"] is None
            assert expired["errors"][0]["extensions"]["reason"] == "changeTokenExpired", expired
            assert expired["errors"][0]["extensions"]["remedy"] == {"kind": "fetchChangesFromStart"}

            # A fetch from no token rebuilds each copy: nothing deleted comes back.
            ends = {}
            for (database, zone), (replica, before) in old.items():
                rebuilt = CloudKitReplica(database)
                rebuilt.sync(service, zones=[zone])
                truth = server_records(service, zone, database)
                assert rebuilt.records[zone] == truth
                assert set(before) - set(truth), "the deletions after the old token are gone from the rebuilt copy"
                ends[(database, zone)] = rebuilt
            fresh_graphql = {}
            token = None
            while True:
                page = service.graphql("query ($t: String) { changes(since: $t, limit: 5) { changes { recordName deleted } syncToken moreComing } }",
                                       {"t": token}, database="public")["data"]["changes"]
                for change in page["changes"]:
                    if change["deleted"]:
                        fresh_graphql.pop(change["recordName"], None)
                    else:
                        fresh_graphql[change["recordName"]] = True
                token = page["syncToken"]
                if not page["moreComing"]:
                    break
            assert set(fresh_graphql) == set(server_records(service, "_defaultZone", "public"))
        finally:
            assert service.stop() == 0

        # Restarted without the short retention: the floor is in the files, the old tokens stay
        # expired, and the end-of-log tokens follow on with the next writes (no sequence restarts).
        service.extra = []
        service.start()
        try:
            for (database, zone), (replica, _) in old.items():
                expect_expired(service, zone, replica.tokens[zone], database)
            for (database, zone), rebuilt in ends.items():
                prefix = f"new{database[:3]}{zone[:2]}"
                batch(service, zone, lists_and_items(prefix, lists=1, items=1), database)
                document = {"zoneID": {"zoneName": zone}, "syncToken": rebuilt.tokens[zone], "resultsLimit": 200}
                response = service.post("records/changes", document, database)
                assert response.status_code == 200, response.text
                assert sorted(r["recordName"] for r in response.json()["records"]) == [f"{prefix}L0", f"{prefix}L0I0"]
                rebuilt.sync(service, zones=[zone])
                assert rebuilt.records[zone] == server_records(service, zone, database)
        finally:
            assert service.stop() == 0
