"""Tenancy on the release `shop serve`: users and logins, grants, private databases and
server-to-server signatures, through GraphQL and CloudKit Web Services alike.

Two users (ann, bob) and an API-only client try, through every endpoint, to read, list, count,
change and delete each other's private records and the public records the grants deny them;
every response is searched for the secret values planted in those records. The grants table is
generated from the record types' GRANT lines and checked through both APIs. Afterwards the data
folder and the service's log are searched for every token and password used.
"""

import base64
import datetime
import hashlib
import json
import pathlib
import subprocess
import tempfile
import time

import httpx
import pytest
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec

from conftest import CONTAINER, SHOP, Server, add_user, create_token, shop, uploaded_asset

PASSWORDS = {"ann": "ann-password-5d1e", "bob": "bob-password-9c2f"}

# Each record type's GRANT lines, and what they allow: the oracle of the grants table.
SCHEMA = """
DEFINE SCHEMA
    RECORD TYPE Archive (
        title           STRING QUERYABLE SORTABLE,
        GRANT READ TO "_world"
    );
    RECORD TYPE Diaries (
        title           STRING QUERYABLE SORTABLE,
        scan            ASSET,
        GRANT READ, WRITE TO "_creator",
        GRANT CREATE TO "_icloud"
    );
    RECORD TYPE Members (
        title           STRING QUERYABLE SORTABLE,
        GRANT READ TO "_icloud",
        GRANT CREATE, WRITE TO "_icloud"
    );
    RECORD TYPE Notes (
        title           STRING QUERYABLE SORTABLE
    );
"""
GRANTS = {
    "Archive": {"READ": {"_world"}, "CREATE": set(), "WRITE": set()},
    "Diaries": {"READ": {"_creator"}, "CREATE": {"_icloud"}, "WRITE": {"_creator"}},
    "Members": {"READ": {"_icloud"}, "CREATE": {"_icloud"}, "WRITE": {"_icloud"}},
    "Notes": {"READ": {"_world"}, "CREATE": {"_icloud"}, "WRITE": {"_creator"}},  # CloudKit's default
}


def allowed(record_type, role, operation, own):
    """Whether `role` ("user" or "api") may do `operation` to a record (its own when `own`)."""
    grants = GRANTS[record_type]
    held = {"_world"} if role == "api" else {"_world", "_icloud"} | ({"_creator"} if own else set())
    if operation == "read":
        return bool(held & (grants["READ"] | grants["WRITE"]))
    if role == "api":
        return False  # _world never writes
    if operation == "create":
        return bool(held & grants["CREATE"] & {"_world", "_icloud"})
    return bool(held & grants["WRITE"])


class Tenancy:
    """A running service with users ann and bob (logged in), an API token, an admin token and
    a server-to-server key, and records planted with secret values."""

    def __init__(self, folder):
        self.folder = pathlib.Path(folder)
        schema = self.folder / "grants.ckdb"
        schema.write_text(SCHEMA)
        subprocess.run([SHOP, "--db", str(self.folder / "shop.sqlite"), "-e", f"schema import {schema}"], check=True, capture_output=True, timeout=60)
        for name, password in PASSWORDS.items():
            add_user(self.folder, name, password)
        self.admin = create_token(self.folder, "--admin", label="admin")
        self.api = create_token(self.folder, "--api", label="api")
        self.key = ec.generate_private_key(ec.SECP256R1())
        pem = self.folder / "backend.pem"
        pem.write_bytes(self.key.public_key().public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo))
        shop("key", "add", "backend-1", str(pem), data=self.folder)
        self.server = Server(self.folder)
        self.tokens = {"admin": self.admin, "api": self.api}
        for name, password in PASSWORDS.items():
            answer = httpx.post(f"{self.server.url}/auth/login", json={"user": name, "password": password}, timeout=30)
            assert answer.status_code == 200, answer.text
            self.tokens[name] = answer.json()["ckWebAuthToken"]
        self.secrets = {}

    def url(self, database="public"):
        return self.server.database_url(database=database)

    def client(self, who):
        return httpx.Client(headers={"Authorization": f"Bearer {self.tokens[who]}"}, timeout=30)


@pytest.fixture(scope="module")
def tenancy():
    with tempfile.TemporaryDirectory(prefix="shop-tenancy-") as folder:
        world = Tenancy(folder)
        try:
            yield world
        finally:
            world.server.stop()
        # No token or password anywhere in the data folder or the service's log.
        used = list(world.tokens.values()) + list(PASSWORDS.values())
        for path in pathlib.Path(folder).rglob("*"):
            if path.is_file() and path.suffix != ".pem":
                content = path.read_bytes()
                for secret in used:
                    assert secret.encode() not in content, f"{secret[:6]}… found in {path.name}"


def modify(client, url, *operations):
    return client.post(f"{url}/records/modify", json={"operations": list(operations)})


def failures(response):
    """The serverErrorCode of each operation of a records/modify answer (None where it applied):
    CloudKit answers failed operations in their places, the response 200."""
    assert response.status_code == 200, response.text
    return [record.get("serverErrorCode") for record in response.json()["records"]]


def applied(response):
    """Whether a records/modify request applied every operation it carried."""
    return response.status_code == 200 and not any(failures(response))


def create(record_type, record_name, **fields):
    return {"operationType": "create", "record": {"recordType": record_type, "recordName": record_name,
                                                   "fields": {key: {"value": value} for key, value in fields.items()}}}


@pytest.fixture(scope="module")
def planted(tenancy):
    """Secret values where others may not read them: each user's private database, ann's diary
    (READ _creator), a Members record (READ _icloud: not the API client's)."""
    secrets = {
        "ann-private": "SECRET-ann-private-71c3",
        "bob-private": "SECRET-bob-private-0e8a",
        "ann-diary": "SECRET-ann-diary-44f0",
        "members": "SECRET-members-9b7d",
    }
    with tenancy.client("ann") as ann, tenancy.client("bob") as bob, tenancy.client("admin") as admin:
        assert applied(modify(ann, tenancy.url("private"), create("Lists", "AP", name=secrets["ann-private"])))
        assert applied(modify(bob, tenancy.url("private"), create("Lists", "BP", name=secrets["bob-private"])))
        uploaded = uploaded_asset(ann, tenancy.url(), "Diaries", "scan", secrets["ann-diary"].encode())
        answer = modify(ann, tenancy.url(), {"operationType": "create", "record": {
            "recordType": "Diaries", "recordName": "D1",
            "fields": {"title": {"value": secrets["ann-diary"]}, "scan": {"value": uploaded}}}})
        assert applied(answer), answer.text
        assert applied(modify(admin, tenancy.url(), create("Members", "M1", title=secrets["members"])))
    tenancy.asset = hashlib.sha256(secrets["ann-diary"].encode()).hexdigest()
    return secrets


def attempts(url, names, types):
    """Every way in to read, list, count, change or delete the records `names` of `types` at
    `url`: (method, path, JSON body) triples."""
    tries = []
    for record_type in types:
        tries.append(("POST", "records/query", {"query": {"recordType": record_type}}))
        tries.append(("POST", "records/query", {"query": {"recordType": record_type, "filterBy": [
            {"comparator": "EQUALS", "fieldName": "___recordID", "fieldValue": {"value": {"recordName": names[0]}}}]}}))
        field = "name" if record_type == "Lists" else "title"
        tries.append(("POST", "records/query", {"query": {"recordType": record_type, "filterBy": [
            {"comparator": "BEGINS_WITH", "fieldName": field, "fieldValue": {"value": "SECRET"}}]}}))
        tries.append(("POST", "graphql", {"query": f"{{ {record_type} {{ recordName {field} }} }}"}))
        tries.append(("POST", "graphql", {"query": f"{{ {record_type}Aggregate {{ count }} }}"}))
        tries.append(("POST", "graphql", {"query": f"{{ {record_type}Page(limit: 5) {{ records {{ {field} }} cursor }} }}"}))
        tries.append(("POST", "graphql", {"query": f"{{ {record_type}(predicate: \"{field} BEGINSWITH 'SECRET'\") {{ {field} }} }}"}))
        for name in names:
            tries.append(("POST", "graphql", {"query": f"mutation {{ update{record_type}(recordName: \"{name}\", fields: {{{field}: \"pwned\"}}) {{ {field} }} }}"}))
            tries.append(("POST", "graphql", {"query": f"mutation {{ delete{record_type}(recordName: \"{name}\") {{ deleted }} }}"}))
            for operation in ("update", "forceUpdate", "replace", "forceReplace"):
                tries.append(("POST", "records/modify", {"operations": [{"operationType": operation, "record": {
                    "recordType": record_type, "recordName": name, "fields": {field: {"value": "pwned"}}}}]}))
            for operation in ("delete", "forceDelete"):
                tries.append(("POST", "records/modify", {"operations": [{"operationType": operation, "record": {"recordName": name}}]}))
        tries.append(("SSE", "graphql", {"query": f"subscription {{ {record_type} {{ recordName {field} }} }}"}))
        tries.append(("POST", "records/changes", {"desiredRecordTypes": [record_type]}))
        tries.append(("POST", "graphql", {"query": f"{{ changes(recordTypes: [\"{record_type}\"]) {{ changes {{ recordName record {{ ... on {record_type} {{ {field} }} }} }} }} }}"}))
    tries.append(("POST", "records/lookup", {"records": [{"recordName": name} for name in names]}))
    tries.append(("POST", "records/changes", {}))
    tries.append(("POST", "graphql", {"query": "{ changes(limit: 500) { changes { recordName recordType deleted } syncToken } }"}))
    tries.append(("POST", "zones/changes", {}))
    tries.append(("POST", "graphql", {"query": "{ __schema { types { name } } }"}))
    tries.append(("GET", "transactions", None))
    tries.append(("GET", "zones/list", None))
    return tries


def first_event(client, url, body):
    """The first event of a GraphQL subscription over server-sent events (its first result, or
    its refusal), read as text; the stream is closed after it."""
    with client.stream("POST", url, json=body, headers={"Accept": "text/event-stream"}) as response:
        if not response.headers.get("content-type", "").startswith("text/event-stream"):
            return response.read().decode()
        text = ""
        for chunk in response.iter_text():
            text += chunk
            if "\n\n" in text:
                break
        return text


def run_attempts(tenancy, who, url, tries, secrets):
    refused = 0
    with tenancy.client(who) as client:
        for method, path, body in tries:
            if method == "SSE":
                text = first_event(client, f"{url}/{path}", body)
            elif body is not None:
                text = client.request(method, f"{url}/{path}", json=body).text
            else:
                text = client.request(method, f"{url}/{path}").text
            for secret in secrets:
                assert secret not in text, f"{who} {method} {path} {body}: leaked"
            refused += 1
    return refused


def test_users_and_the_api_client_cannot_reach_what_is_not_theirs(tenancy, planted):
    count = 0
    private = tenancy.url("private")
    # Bob and the API client at ann's private records (through their own private path: the path
    # never names another user's database) and at the public records the grants deny them.
    count += run_attempts(tenancy, "bob", private, attempts(private, ["AP"], ["Lists"]), [planted["ann-private"]])
    count += run_attempts(tenancy, "ann", private, attempts(private, ["BP"], ["Lists"]), [planted["bob-private"]])
    count += run_attempts(tenancy, "bob", tenancy.url(), attempts(tenancy.url(), ["D1"], ["Diaries"]), [planted["ann-diary"]])
    count += run_attempts(tenancy, "api", tenancy.url(), attempts(tenancy.url(), ["D1", "M1"], ["Diaries", "Members"]),
                          [planted["ann-diary"], planted["members"]])
    count += run_attempts(tenancy, "api", private, attempts(private, ["AP", "BP"], ["Lists"]), [planted["ann-private"], planted["bob-private"]])
    # Assets: only through a record the caller may read.
    for who in ("bob", "api"):
        with tenancy.client(who) as client:
            response = client.get(f"{tenancy.url()}/assets/download/{tenancy.asset}")
            assert response.status_code == 404 and planted["ann-diary"] not in response.text
            count += 1
    assert count >= 100
    # Nothing changed: the owners still see their secrets, intact.
    with tenancy.client("ann") as ann:
        assert planted["ann-private"] in ann.post(f"{private}/records/query", json={"query": {"recordType": "Lists"}}).text
        assert planted["ann-diary"] in ann.post(f"{tenancy.url()}/records/query", json={"query": {"recordType": "Diaries"}}).text
        assert ann.get(f"{tenancy.url()}/assets/download/{tenancy.asset}").content == planted["ann-diary"].encode()
    with tenancy.client("bob") as bob:
        assert planted["bob-private"] in bob.post(f"{private}/records/query", json={"query": {"recordType": "Lists"}}).text
    with tenancy.client("admin") as admin:
        assert planted["members"] in admin.post(f"{tenancy.url()}/records/query", json={"query": {"recordType": "Members"}}).text


GRANT_CASES = [
    (record_type, who, operation, api)
    for record_type in GRANTS
    for who in ("ann", "bob", "api")
    for operation in ("read", "create", "update", "delete")
    for api in ("cloudkit", "graphql")
]


@pytest.mark.parametrize("record_type,who,operation,api", GRANT_CASES)
def test_the_grants_table(tenancy, record_type, who, operation, api):
    """Each record type × role × operation through both APIs, against ann's record of the type
    (made by the admin, then claimed by ann writing in her name where the grants let her, else
    left as the owner's)."""
    name = f"G-{record_type}-{who}-{operation}-{api}"
    with tenancy.client("admin") as admin:
        assert applied(modify(admin, tenancy.url(), create(record_type, name, title="row")))
    own = False  # the record is the owner's: no user is its creator
    role = "api" if who == "api" else "user"
    with tenancy.client(who) as client:
        if operation == "read":
            if api == "cloudkit":
                text = client.post(f"{tenancy.url()}/records/lookup", json={"records": [{"recordName": name}]}).text
            else:
                text = client.post(f"{tenancy.url()}/graphql", json={"query": f"{{ {record_type}(predicate: \"recordName == '{name}'\") {{ recordName }} }}"}).text
            assert (name in text and "NOT_FOUND" not in text) == allowed(record_type, role, "read", own), text
            return
        if operation == "create":
            new = name + "-new"
            if api == "cloudkit":
                ok = applied(modify(client, tenancy.url(), create(record_type, new, title="x")))
            else:
                answer = client.post(f"{tenancy.url()}/graphql", json={"query": f"mutation {{ create{record_type}(recordName: \"{new}\", fields: {{title: \"x\"}}) {{ recordName }} }}"})
                ok = answer.status_code == 200 and "errors" not in answer.json()
            assert ok == allowed(record_type, role, "create", own)
            return
        if api == "cloudkit":
            operation_type = "forceUpdate" if operation == "update" else "forceDelete"
            record = {"recordType": record_type, "recordName": name, "fields": {"title": {"value": "changed"}}}
            ok = applied(modify(client, tenancy.url(), {"operationType": operation_type, "record": record}))
        else:
            mutation = (f"mutation {{ update{record_type}(recordName: \"{name}\", fields: {{title: \"changed\"}}) {{ title }} }}"
                        if operation == "update" else f"mutation {{ delete{record_type}(recordName: \"{name}\") {{ deleted }} }}")
            answer = client.post(f"{tenancy.url()}/graphql", json={"query": mutation})
            ok = answer.status_code == 200 and "errors" not in answer.json()
        # forceUpdate of an unreadable record would create; a refusal is what counts.
        assert ok == allowed(record_type, role, "update" if operation == "update" else "delete", own), name
    with tenancy.client("admin") as admin:
        text = admin.post(f"{tenancy.url()}/records/lookup", json={"records": [{"recordName": name}]}).text
        if not allowed(record_type, role, operation, own):
            assert '"row"' in text, f"{name} changed: {text}"


def test_a_users_own_records_are_theirs_by_the_creator_grant(tenancy):
    with tenancy.client("ann") as ann, tenancy.client("bob") as bob:
        assert applied(modify(ann, tenancy.url(), create("Notes", "N-ann", title="mine")))
        record = ann.post(f"{tenancy.url()}/records/lookup", json={"records": [{"recordName": "N-ann"}]}).json()["records"][0]
        assert record["created"]["userRecordName"] == record["modified"]["userRecordName"]
        assert record["created"]["userRecordName"] == ann.get(f"{tenancy.url()}/users/current").json()["userRecordName"]
        change = {"operationType": "forceUpdate", "record": {"recordType": "Notes", "recordName": "N-ann", "fields": {"title": {"value": "x"}}}}
        assert failures(modify(bob, tenancy.url(), change)) == ["ACCESS_DENIED"]
        assert applied(modify(ann, tenancy.url(), change))
        mine = ann.post(f"{tenancy.url()}/records/query", json={"query": {"recordType": "Notes", "filterBy": [
            {"comparator": "EQUALS", "fieldName": "___createdBy", "fieldValue": {"value": {"recordName": record["created"]["userRecordName"]}}}]}}).json()
        # Ann's records only (the grants table before made some of hers too), N-ann among them.
        assert "N-ann" in [r["recordName"] for r in mine["records"]]
        assert {r["created"]["userRecordName"] for r in mine["records"]} == {record["created"]["userRecordName"]}
        everyone = ann.post(f"{tenancy.url()}/records/query", json={"query": {"recordType": "Notes"}}).json()["records"]
        assert len(everyone) > len(mine["records"])


# Server-to-server signatures, as MistKit and CloudKit's documentation make them.

def signed_headers(key, key_id, date, body, path, empty_hash=False):
    digest = "" if empty_hash else base64.b64encode(hashlib.sha256(body).digest()).decode()
    message = f"{date}:{digest}:{path}".encode()
    signature = base64.b64encode(key.sign(message, ec.ECDSA(hashes.SHA256()))).decode()
    return {"X-Apple-CloudKit-Request-KeyID": key_id, "X-Apple-CloudKit-Request-ISO8601Date": date,
            "X-Apple-CloudKit-Request-SignatureV1": signature, "Content-Type": "application/json"}


def now(offset=0):
    moment = datetime.datetime.now(datetime.timezone.utc) + datetime.timedelta(seconds=offset)
    return moment.strftime("%Y-%m-%dT%H:%M:%SZ")


def test_signed_requests_are_verified(tenancy):
    path = f"/database/1/{CONTAINER}/development/public/records/query"
    body = json.dumps({"query": {"recordType": "Members"}}).encode()
    url = tenancy.server.url + path
    golden = httpx.post(url, content=body, headers=signed_headers(tenancy.key, "backend-1", now(), body, path), timeout=30)
    assert golden.status_code == 200 and "M1" in golden.text  # the owner reads everything
    empty_path = f"/database/1/{CONTAINER}/development/public/zones/list"
    for empty_hash in (False, True):
        answer = httpx.get(tenancy.server.url + empty_path, headers=signed_headers(tenancy.key, "backend-1", now(), b"", empty_path, empty_hash), timeout=30)
        assert answer.status_code == 200, answer.text
    other_key = ec.generate_private_key(ec.SECP256R1())
    old = now(-3600)
    replayed = signed_headers(tenancy.key, "backend-1", old, body, path)
    tampered = [
        ("body", signed_headers(tenancy.key, "backend-1", now(), b'{"query": {"recordType": "Lists"}}', path), body),
        ("path", signed_headers(tenancy.key, "backend-1", now(), body, "/database/1/other"), body),
        ("date", {**signed_headers(tenancy.key, "backend-1", now(), body, path), "X-Apple-CloudKit-Request-ISO8601Date": now(-1)}, body),
        ("key", signed_headers(other_key, "backend-1", now(), body, path), body),
        ("key id", signed_headers(tenancy.key, "backend-2", now(), body, path), body),
        ("old date replayed", replayed, body),
        ("future date", signed_headers(tenancy.key, "backend-1", now(3600), body, path), body),
    ]
    for label, headers, sent in tampered:
        answer = httpx.post(url, content=sent, headers=headers, timeout=30)
        assert answer.status_code == 401, label
        assert answer.json()["serverErrorCode"] == "AUTHENTICATION_FAILED", label


def test_login_brute_force_is_bounded_by_the_rate_limit():
    with tempfile.TemporaryDirectory(prefix="shop-login-") as folder:
        add_user(folder, "carol", "carol-password-1")
        server = Server(folder)
        try:
            statuses = []
            started = time.monotonic()
            for guess in range(40):
                answer = httpx.post(f"{server.url}/auth/login", json={"user": "carol", "password": f"guess-{guess}"}, timeout=30)
                statuses.append(answer.status_code)
            assert statuses.count(401) == 5
            assert statuses.count(429) == 35
            assert time.monotonic() - started < 60
            # Even the right password waits for the window now.
            right = httpx.post(f"{server.url}/auth/login", json={"user": "carol", "password": "carol-password-1"}, timeout=30)
            assert right.status_code == 429 and int(right.headers["Retry-After"]) >= 1
            assert right.json()["retryAfter"] == int(right.headers["Retry-After"])  # CloudKit's error dictionary says it too
        finally:
            server.stop()
        log = (pathlib.Path(folder) / "serve.log").read_text()
        assert "carol-password-1" not in log and "guess-" not in log


def test_a_token_that_cannot_be_printed_is_not_kept():
    with tempfile.TemporaryDirectory(prefix="shop-token-") as folder:
        # Standard output on a full disk, or closed: the token nobody saw is revoked, exit 1.
        with open("/dev/full", "w") as full:
            run = subprocess.run([SHOP, "token", "create", "--admin", "--label", "lost", "--data", folder],
                                 stdout=full, stderr=subprocess.PIPE, text=True, timeout=60)
        assert run.returncode == 1
        assert run.stderr == ("error: limitExceeded: cannot write to standard output: No space left on device; "
                              "the token could not be shown, so it was not kept; create one again with standard output on a terminal or a file\n")
        closed = subprocess.run(["/bin/sh", "-c", 'exec "$0" token create --api --label closed --data "$1" >&-', SHOP, folder],
                                capture_output=True, text=True, timeout=60)
        assert closed.returncode == 1
        assert "cannot write to standard output: Bad file descriptor" in closed.stderr
        listed = shop("token", "list", data=folder).stdout
        assert "lost" not in listed and "closed" not in listed
        assert create_token(folder, "--admin", label="shown")
        assert "shown" in shop("token", "list", data=folder).stdout


def test_a_password_past_its_line_limit_is_refused_and_no_user_is_added():
    with tempfile.TemporaryDirectory(prefix="shop-user-") as folder:
        # Piped input with no line end (/dev/zero) was gathered until memory ran out.
        endless = subprocess.run(["/bin/sh", "-c", 'exec "$0" user add ann --data "$1" < /dev/zero', SHOP, folder],
                                 capture_output=True, text=True, timeout=60)
        refusal = ("error: limitExceeded: the password's line is longer than 4 KiB (or has no end); nothing was added; "
                   "give the password on a line of its own, at most 72 bytes\n")
        assert (endless.returncode, endless.stderr) == (1, refusal)
        too_long = shop("user", "add", "ann", data=folder, check=False, input="x" * 5000 + "\n")
        assert (too_long.returncode, too_long.stderr) == (1, refusal)
        # Past bcrypt's 72 bytes but within the line: the user store names its own limit.
        past_bcrypt = shop("user", "add", "ann", data=folder, check=False, input="x" * 100 + "\n")
        assert past_bcrypt.returncode == 1 and "at most 72 bytes" in past_bcrypt.stderr
        # Nothing was added: the name is free, and a password ending in \r\n is read without the \r.
        add_user(folder, "ann", "correct horse\r")
        server = Server(folder)
        try:
            answer = httpx.post(f"{server.url}/auth/login", json={"user": "ann", "password": "correct horse"}, timeout=30)
            assert answer.status_code == 200, answer.text
        finally:
            server.stop()
