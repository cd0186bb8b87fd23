"""GraphQL over HTTP, row by row, with raw httpx requests.

Tests are named after graphql-http's audit ids where one exists; the status codes asserted are
the 2026 draft's as the service applies them (422 for validation, variables and an unknown
operation under application/graphql-response+json).
"""

import json

import httpx
import pytest

GQL = "application/graphql-response+json"
QUERY = {"query": "{ __typename }"}


def post(client, body=None, accept=GQL, content_type="application/json", raw=None, **headers):
    request_headers = {"accept": accept} if accept is not None else {}
    if content_type is not None:
        request_headers["content-type"] = content_type
    request_headers.update(headers)
    content = raw if raw is not None else (json.dumps(body) if body is not None else None)
    return client.post("/graphql", content=content, headers=request_headers)


def assert_errors_without_data(response):
    body = response.json()
    assert "data" not in body
    assert body["errors"] and body["errors"][0]["message"]


# Media types

def test_22EB_accepts_graphql_response_json_and_matches_the_content_type(client):
    response = post(client, QUERY)
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(GQL)


def test_4655_accepts_application_json_and_matches_the_content_type(client):
    response = post(client, QUERY, accept="application/json")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith("application/json")


def test_47DE_accepts_any_and_uses_graphql_response_json(client):
    response = post(client, QUERY, accept="*/*")
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(GQL)


def test_80D8_assumes_graphql_response_json_when_accept_is_missing(client):
    response = client.get("/graphql", params=QUERY, headers={"accept": ""})
    assert response.status_code == 200
    assert response.headers["content-type"].startswith(GQL)


def test_82A3_responds_in_utf8(client):
    response = post(client, QUERY)
    assert "charset=utf-8" in response.headers["content-type"]
    response.content.decode("utf-8")


def test_BF61_accepts_a_utf8_request(client):
    assert post(client, QUERY, content_type="application/json; charset=utf-8").status_code == 200


def test_78D5_assumes_utf8_when_the_request_names_no_charset(client):
    assert post(client, {"query": '{ Lists(where: {name: {eq: "Żółw"}}) { name } }'}).status_code == 200


def test_a_request_charset_other_than_utf8_is_unsupported(client):
    assert post(client, QUERY, content_type="application/json; charset=latin1").status_code == 415


def test_an_accept_the_service_cannot_meet_is_not_acceptable(client):
    assert post(client, QUERY, accept="text/html").status_code == 406


# Requests

def test_2C94_accepts_post(client):
    assert post(client, QUERY).status_code == 200


def test_5A70_accepts_get_with_url_encoded_parameters(client):
    response = client.get("/graphql", params=QUERY, headers={"accept": GQL})
    assert response.status_code == 200
    assert response.json() == {"data": {"__typename": "Query"}}


def test_9C48_a_mutation_over_get_is_not_allowed(client):
    response = client.get("/graphql", params={"query": 'mutation { deleteLists(recordName: "x") { deleted } }'}, headers={"accept": GQL})
    assert response.status_code == 405
    assert response.headers["allow"] == "POST"


def test_a_method_other_than_get_and_post_is_not_allowed(client):
    # The draft: a server MAY answer other methods with 405; HTTP (RFC 9110) then names the
    # methods the path takes in Allow.
    for method in ("PUT", "PATCH", "DELETE"):
        response = client.request(method, "/graphql", headers={"accept": GQL})
        assert response.status_code == 405, method
        assert response.headers["allow"] == "GET, HEAD, POST"
        assert "does not take " + method in response.json()["errors"][0]["message"]


def test_9ABE_a_post_without_content_type_is_a_client_error(client):
    response = client.post("/graphql", headers={"accept": GQL})
    assert response.status_code == 415


def test_03D4_accepts_application_json_posts(client):
    assert post(client, QUERY).status_code == 200


def test_7267_a_post_requires_a_body(client):
    response = post(client, raw=b"")
    assert response.status_code == 400
    assert_errors_without_data(response)


# Parameters

def test_6610_a_missing_query_is_a_bad_request(client):
    assert post(client, {"notquery": "{ __typename }"}).status_code == 400


def test_3715_a_missing_query_is_200_with_errors_under_application_json(client):
    response = post(client, {"notquery": "{ __typename }"}, accept="application/json")
    assert response.status_code == 200
    assert "errors" in response.json()


@pytest.mark.parametrize("index,invalid", list(enumerate([{"obj": "ect"}, 0, False, ["array"]])))
def test_4F5x_a_query_that_is_not_a_string_is_a_bad_request(client, index, invalid):
    assert post(client, {"query": invalid}).status_code == 400


@pytest.mark.parametrize("index,invalid", list(enumerate([{"obj": "ect"}, 0, False, ["array"]])))
def test_9FEx_a_query_that_is_not_a_string_is_200_with_errors_under_application_json(client, index, invalid):
    response = post(client, {"query": invalid}, accept="application/json")
    assert response.status_code == 200
    assert "errors" in response.json()


def test_34A2_13EE_a_string_query_runs(client):
    response = post(client, QUERY)
    assert response.status_code == 200
    assert "errors" not in response.json()


@pytest.mark.parametrize("index,invalid", list(enumerate([{"obj": "ect"}, 0, False, ["array"]])))
def test_E3Ex_an_operation_name_that_is_not_a_string_is_a_bad_request(client, index, invalid):
    assert post(client, {"query": "{ __typename }", "operationName": invalid}).status_code == 400


def test_8161_B8B3_a_string_operation_name_selects_the_operation(client):
    response = post(client, {"query": "query Query { __typename }", "operationName": "Query"})
    assert response.status_code == 200
    assert response.json() == {"data": {"__typename": "Query"}}


@pytest.mark.parametrize("parameter", ["variables", "operationName", "extensions"])
def test_94Bx_0220_null_parameters_are_allowed(client, parameter):
    response = post(client, {"query": "{ __typename }", parameter: None})
    assert response.status_code == 200
    assert "errors" not in response.json()


@pytest.mark.parametrize("index,invalid", list(enumerate(["string", 0, False, ["array"]])))
def test_69Bx_variables_that_are_not_a_map_are_a_bad_request(client, index, invalid):
    assert post(client, {"query": "{ __typename }", "variables": invalid}).status_code == 400


@pytest.mark.parametrize("index,invalid", list(enumerate(["string", 0, False, ["array"]])))
def test_F05x_variables_that_are_not_a_map_are_200_with_errors_under_application_json(client, index, invalid):
    response = post(client, {"query": "{ __typename }", "variables": invalid}, accept="application/json")
    assert response.status_code == 200
    assert "errors" in response.json()


def test_2EA1_28B9_a_map_of_variables_is_used(client):
    response = post(client, {"query": "query($n: Int) { Lists(limit: $n) { name } }", "variables": {"n": 1}})
    assert response.status_code == 200
    assert "errors" not in response.json()


def test_D6D5_6A70_get_takes_variables_as_url_encoded_json(client):
    params = {"query": "query($n: Int) { Lists(limit: $n) { name } }", "variables": json.dumps({"n": 1})}
    response = client.get("/graphql", params=params, headers={"accept": GQL})
    assert response.status_code == 200
    assert "errors" not in response.json()


@pytest.mark.parametrize("index,invalid", list(enumerate(["string", 0, False, ["array"]])))
def test_904x_extensions_that_are_not_a_map_are_a_bad_request(client, index, invalid):
    assert post(client, {"query": "{ __typename }", "extensions": invalid}).status_code == 400


def test_428F_1B7A_a_map_of_extensions_is_allowed(client):
    response = post(client, {"query": "{ __typename }", "extensions": {"some": "value"}})
    assert response.status_code == 200
    assert "errors" not in response.json()


# Responses under application/json (the legacy type): request errors are 200 with errors

@pytest.mark.parametrize("audit,body", [
    ("D477", '{ "not a JSON'),
    ("F5AF", json.dumps({"qeury": "{ __typename }"})),
    ("572B", json.dumps({"query": "{"})),
    ("FDE2", json.dumps({"query": "{ 8f31403dfe404bccbb0e835f2629c6a7 }"})),
])
def test_application_json_request_errors_are_200(client, audit, body):
    response = post(client, raw=body, accept="application/json")
    assert response.status_code == 200, audit
    assert "errors" in response.json()


# Responses under application/graphql-response+json

def test_60AA_2163_a_body_that_is_not_json_is_a_bad_request(client):
    response = post(client, raw='{ "not a JSON')
    assert response.status_code == 400
    assert_errors_without_data(response)


def test_3E36_17C5_34D6_invalid_parameters_are_a_bad_request_without_data(client):
    response = post(client, {"qeury": "{ __typename }"})
    assert response.status_code == 400
    assert_errors_without_data(response)


def test_865D_556A_D586_a_document_that_does_not_parse_is_a_bad_request_without_data(client):
    response = post(client, {"query": "{"})
    assert response.status_code == 400
    assert_errors_without_data(response)


def test_51FE_5E5B_the_audits_document_is_a_client_error_without_data(client):
    # A name cannot start with a digit: GraphQL's lexer refuses it, so this is a parse failure.
    response = post(client, {"query": "{ 8f31403dfe404bccbb0e835f2629c6a7 }"})
    assert response.status_code == 400
    assert_errors_without_data(response)


def test_a_document_failing_validation_is_unprocessable_without_data(client):
    response = post(client, {"query": "{ f8f31403dfe404bccbb0e835f2629c6a7 }"})
    assert response.status_code == 422
    assert_errors_without_data(response)


def test_fields_that_cannot_merge_are_unprocessable_without_data(client):
    response = post(client, {"query": "{ Lists { name name: recordName } }"})
    assert response.status_code == 422
    assert_errors_without_data(response)
    assert "names two different fields" in response.json()["errors"][0]["message"]


def test_variables_that_do_not_fit_are_unprocessable(client):
    response = post(client, {"query": "query($n: Int!) { Lists(limit: $n) { name } }", "variables": {"n": "many"}})
    assert response.status_code == 422
    assert_errors_without_data(response)


def test_an_unknown_operation_is_unprocessable(client):
    response = post(client, {"query": "query A { __typename }", "operationName": "B"})
    assert response.status_code == 422
    assert_errors_without_data(response)


def test_EE52_a_field_error_is_200_with_errors(client):
    response = post(client, {"query": 'mutation { updateLists(recordName: "nowhere", fields: {name: "x"}) { name } }'})
    assert response.status_code == 200
    body = response.json()
    assert body["data"] is None
    assert body["errors"][0]["extensions"]["code"] == "unknownItem"


# Credentials

def test_BC58_no_credential_is_unauthorized(server):
    response = httpx.post(f"{server.url}/graphql", json=QUERY)
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


def test_BC58_an_unknown_token_is_unauthorized(server):
    response = httpx.post(f"{server.url}/graphql", json=QUERY, headers={"authorization": "Bearer " + "0" * 64})
    assert response.status_code == 401


def test_BC58_an_api_token_may_read_but_not_write(server, data_folder):
    from conftest import create_token
    token = create_token(data_folder, "--api", label="pytest-api")
    headers = {"authorization": f"Bearer {token}"}
    assert httpx.post(f"{server.url}/graphql", json=QUERY, headers=headers).status_code == 200
    mutation = {"query": 'mutation { createLists(fields: {name: "x"}) { name } }'}
    assert httpx.post(f"{server.url}/graphql", json=mutation, headers=headers).status_code == 403


def test_another_container_is_not_found(server, client):
    response = client.post(server.database_url(container="iCloud.other") + "/graphql", json=QUERY)
    assert response.status_code == 404
