"""Queries and mutations through the `gql` client, an independent GraphQL client."""

import uuid

import pytest
from gql import Client, GraphQLRequest, gql
from gql.transport.exceptions import TransportQueryError
from gql.transport.httpx import HTTPXTransport


@pytest.fixture()
def gql_client(server, admin_token):
    transport = HTTPXTransport(url=f"{server.url}/graphql", headers={"Authorization": f"Bearer {admin_token}"}, timeout=30)
    with Client(transport=transport, fetch_schema_from_transport=True) as session:
        yield session


def test_a_list_and_its_items_round_trip(gql_client):
    list_name = f"L-{uuid.uuid4()}"
    created = gql_client.execute(GraphQLRequest(
        "mutation($r: ID!, $n: String!) { createLists(recordName: $r, fields: {name: $n}) { recordName name } }",
        variable_values={"r": list_name, "n": "Groceries"},
    ))
    assert created == {"createLists": {"recordName": list_name, "name": "Groceries"}}
    gql_client.execute(GraphQLRequest(
        """mutation($l: ID!) {
             a: createItems(fields: {name: "Milk", list: {recordName: $l, action: DELETE_SELF}}) { name }
             b: createItems(fields: {name: "Bread", list: {recordName: $l, action: DELETE_SELF}}) { name }
           }""",
        variable_values={"l": list_name},
    ))
    items = gql_client.execute(GraphQLRequest(
        "query($l: ID!) { Items(where: {list: {eq: $l}}, sort: [{name: ASC}]) { name list { name } } }",
        variable_values={"l": list_name},
    ))
    assert items == {"Items": [
        {"name": "Bread", "list": {"name": "Groceries"}},
        {"name": "Milk", "list": {"name": "Groceries"}},
    ]}
    deleted = gql_client.execute(GraphQLRequest("mutation($l: ID!) { deleteLists(recordName: $l) { deleted } }", variable_values={"l": list_name}))
    assert len(deleted["deleteLists"]["deleted"]) == 3


def test_the_schema_is_introspected_by_the_client(gql_client):
    gql_client.execute(gql("{ __typename }"))
    schema = gql_client.client.schema
    assert schema.get_type("Lists") is not None
    assert "createItems" in schema.mutation_type.fields


def test_a_field_error_reaches_the_client_with_its_code(gql_client):
    with pytest.raises(TransportQueryError) as raised:
        gql_client.execute(gql('mutation { updateLists(recordName: "nowhere", fields: {name: "x"}) { name } }'))
    assert raised.value.errors[0]["extensions"]["code"] == "unknownItem"
