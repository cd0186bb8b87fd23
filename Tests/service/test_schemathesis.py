"""schemathesis against /openapi.yaml for two minutes with an admin token and half a minute each with
a user's and an API token (`Scripts/fuzz serve SECONDS` for longer): no 5xx, every response as
described; and every operation describing its 5xx."""

import json
import os
import pathlib
import subprocess
import sys

import httpx
import pytest
import yaml

from conftest import CONTAINER, add_user, create_token, own_server, upload_urls, uploaded_asset

CHECKS = ",".join([
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
])

# GraphQL documents the generated requests carry half the time, so that the fuzzing reaches the
# executor (queries, filters, pages, aggregates, mutations and the change feed) and not only the
# parser: a random string is hardly ever a document.
DOCUMENTS = [
    "{ Lists(sort: [{name: ASC}], limit: 5) { recordName name Items(sort: [{name: ASC}]) { name } } }",
    '{ Items(where: {name: {beginsWith: "M"}}, sort: [{name: DESC}], limit: 3) { recordName name list { name } } }',
    "{ Items(predicate: \"name BEGINSWITH[c] 'm'\") { name } }",
    "{ ItemsPage(limit: 2) { records { name } cursor } ListsAggregate { count } }",
    "{ changes(limit: 5) { changes { recordName } syncToken moreComing } }",
    "{ __schema { queryType { name } } }",
    'mutation { createLists(recordName: "fuzz-list", fields: {name: "Fuzz"}) { recordName name } }',
    'mutation { createItems(fields: {name: "Milk", list: {recordName: "fuzz-list", action: DELETE_SELF}}) { name list { name } } }',
    'mutation { updateLists(recordName: "fuzz-list", fields: {name: "Fuzzier"}) { name } }',
    'mutation { deleteLists(recordName: "fuzz-list") { deleted } }',
]


def config(folder: pathlib.Path, checksum: str, upload_tokens: list) -> pathlib.Path:
    """A schemathesis.toml sending the server's own container (any other is a 404, which stops a
    request before the API it is for), drawing GraphQL documents from ``DOCUMENTS``, record
    types to query from the schema's, the checksum of a stored asset to download and upload
    tokens the server handed out (a random checksum is never stored and a random token never
    issued, so downloads and uploads would only ever be 404s)."""
    documents = ", ".join(json.dumps(document) for document in DOCUMENTS)
    text = f"""
[parameters]
"path.container" = {json.dumps(CONTAINER)}

[dictionaries.graphql]
values = [{documents}]

[dictionaries.recordTypes]
values = ["Items", "Lists"]

[[operations]]
include-operation-id-regex = "^(graphql|databaseGraphql)(Get|Post)$"
parameters = {{ "body.query" = {{ dictionary = "graphql", probability = 0.5 }}, "query.query" = {{ dictionary = "graphql", probability = 0.5 }} }}

[[operations]]
include-operation-id = ["cloudKitQuery"]
parameters = {{ "body.query.recordType" = {{ dictionary = "recordTypes", probability = 0.5 }} }}

[dictionaries.checksums]
values = [{json.dumps(checksum)}]

[[operations]]
include-operation-id = ["cloudKitAssetDownload"]
parameters = {{ "path.checksum" = {{ dictionary = "checksums", probability = 0.5 }} }}

[dictionaries.uploadTokens]
values = [{", ".join(json.dumps(token) for token in upload_tokens)}]

[[operations]]
include-operation-id = ["cloudKitAssetUpload"]
parameters = {{ "path.token" = {{ dictionary = "uploadTokens", probability = 0.5 }} }}
"""
    path = folder / "schemathesis.toml"
    path.write_text(text)
    return path


def test_the_graphql_documents_the_fuzzing_draws_from_are_answered(server, admin_token):
    """Each document of the dictionary runs (in order: the mutations build on each other), so the
    fuzzing draws working requests."""
    for document in DOCUMENTS:
        answer = httpx.post(f"{server.url}/graphql", json={"query": document}, headers={"Authorization": f"Bearer {admin_token}"})
        assert answer.status_code == 200, (document, answer.text)
        assert "errors" not in answer.json(), (document, answer.text)


def asset_parameters(server, upload_tokens=40):
    """What the run draws for the asset endpoints, made in the development public database with
    the owner's token: the checksum of an asset uploaded, saved in a record and downloadable, and
    `upload_tokens` upload tokens (each good for one upload of a Photos record's image)."""
    with httpx.Client(headers={"Authorization": f"Bearer {server.token}"}) as client:
        database = server.database_url()
        receipt = uploaded_asset(client, database, "Photos", "image", b"fuzz asset " * 64, record_name="fuzz-photo")
        record = {"recordType": "Photos", "recordName": "fuzz-photo", "fields": {"image": {"value": receipt}}}
        saved = client.post(f"{database}/records/modify", json={"operations": [{"operationType": "create", "record": record}]})
        assert saved.status_code == 200, saved.text
        assert client.get(saved.json()["records"][0]["fields"]["image"]["value"]["downloadURL"]).status_code == 200
        urls = upload_urls(client, database, [{"recordType": "Photos", "fieldName": "image"}] * upload_tokens)
        return receipt["fileChecksum"], [url.rsplit("/", 1)[1] for url in urls]


def credential(kind, server):
    """A token of `kind` for `server`: the owner's (its admin token), a user's, or a reader's (API)."""
    if kind == "admin":
        return server.token
    if kind == "user":
        add_user(server.data, "fuzz", "fuzz-password-8d1e")
        return create_token(server.data, "--user", "fuzz", label="fuzz")
    return create_token(server.data, "--api", label="reader")


# The owner's run has the time given; a user's (grants, the private database) and a reader's
# (every write refused) a quarter of it each.
@pytest.mark.parametrize("kind, share", [("admin", 1), ("user", 4), ("api", 4)])
def test_every_response_matches_the_openapi_description(kind, share, tmp_path):
    schemathesis = pathlib.Path(sys.executable).with_name("schemathesis")
    seconds = max(1, int(os.environ.get("SHOP_SCHEMATHESIS_SECONDS", "120")) // share)
    with own_server() as server:
        token = credential(kind, server)
        settings = config(tmp_path, *asset_parameters(server))
        result = subprocess.run(
            [str(schemathesis), "--config-file", str(settings), "run", f"{server.url}/openapi.yaml",
             "-H", f"Authorization: Bearer {token}", "--max-time", str(seconds), "--checks", CHECKS, "--request-timeout", "10"],
            capture_output=True, text=True, timeout=seconds + 120,
        )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]
    # Seen with `pytest -s` (Scripts/fuzz serve): how many requests were made, and the warnings.
    print(result.stdout[result.stdout.find("=== SUMMARY"):] if "=== SUMMARY" in result.stdout else result.stdout[-3000:])


def test_every_operation_describes_the_server_failures_it_may_answer(server):
    """A 500 or 503 is rare but real (a failure of the service's own, a credential that could not
    be checked): every operation says what its body is then, in its API's error shape."""
    description = yaml.safe_load(httpx.get(f"{server.url}/openapi.yaml").text)
    failures = description["components"]["responses"]
    for path, item in description["paths"].items():
        for method, operation in item.items():
            if method == "parameters":
                continue
            failure = operation["responses"].get("5XX")
            assert failure is not None, f"{method.upper()} {path} describes no 5XX response"
            shape = "GraphQLServerFailure" if path.endswith(("/graphql", "/explain")) else "ServerFailure"
            assert failure == {"$ref": f"#/components/responses/{shape}"}, f"{method.upper()} {path}: {failure}"
    assert "CloudKitError" in str(failures["ServerFailure"]) and "GraphQLResponse" in str(failures["GraphQLServerFailure"])
