"""schemathesis against /openapi.yaml for two minutes: no 5xx, every response as described; and every
operation describing its 5xx."""

import os
import pathlib
import subprocess
import sys

import httpx
import yaml

CHECKS = ",".join([
    "not_a_server_error",
    "status_code_conformance",
    "content_type_conformance",
    "response_headers_conformance",
    "response_schema_conformance",
])


def test_every_response_matches_the_openapi_description(server, admin_token):
    schemathesis = pathlib.Path(sys.executable).with_name("schemathesis")
    seconds = os.environ.get("SHOP_SCHEMATHESIS_SECONDS", "120")
    result = subprocess.run(
        [str(schemathesis), "run", f"{server.url}/openapi.yaml", "-H", f"Authorization: Bearer {admin_token}",
         "--max-time", seconds, "--checks", CHECKS, "--request-timeout", "10"],
        capture_output=True, text=True, timeout=int(seconds) + 120,
    )
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-2000:]


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
