import Foundation
import HummingbirdTesting
import Testing

@testable import RecordService

/// GraphQL over HTTP, row by row of the draft as the service applies it.
@Suite("GraphQL over HTTP")
struct GraphQLRouteTests {
    static let createList = #"{"query":"mutation { createLists(recordName: \"L1\", fields: {name: \"Groceries\"}) { recordName name } }"}"#
    static let listNames = #"{"query":"{ Lists { name } }"}"#

    @Test func aQueryAnswersWithTheGraphQLResponseMediaType() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            try await client.send(.post, "/graphql", token: fixture.adminToken, json: Self.createList)
            let response = try await client.send(.post, "/graphql", token: fixture.adminToken, json: Self.listNames)
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/graphql-response+json; charset=utf-8")
            #expect(response.text == #"{"data":{"Lists":[{"name":"Groceries"}]}}"#)
        }
    }

    /// An error's `extensions` carry the engine's code, reason and remedy (an object, worded by
    /// no one: no REPL command in it).
    @Test func anErrorsExtensionsCarryTheCodeReasonAndRemedy() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/graphql", token: fixture.adminToken, json: #"{"query":"{ Items { title } }"}"#)
            let body = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any], "\(response.text)")
            let error = try #require((body["errors"] as? [[String: Any]])?.first, "\(response.text)")
            let extensions = try #require(error["extensions"] as? [String: Any], "\(response.text)")
            #expect(extensions["code"] as? String == "schemaViolation")
            #expect(extensions["reason"] as? String == "unknownField")
            #expect(extensions["remedy"] as? [String: String] == ["kind": "addField", "recordType": "Items", "field": "title"])
            #expect(!response.text.contains("schema add-field"))
        }
    }

    @Test func theDatabasePathServesTheSameDevelopmentDatabase() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            try await client.send(.post, "/graphql", token: fixture.adminToken, json: Self.createList)
            let response = try await client.send(
                .post, "/database/1/\(ServiceConfiguration.defaultContainer)/development/public/graphql", token: fixture.adminToken, json: Self.listNames
            )
            #expect(response.text == #"{"data":{"Lists":[{"name":"Groceries"}]}}"#)
            let production = try await client.send(
                .post, "/database/1/\(ServiceConfiguration.defaultContainer)/production/public/graphql", token: fixture.adminToken, json: Self.listNames
            )
            #expect(production.text == #"{"data":{"Lists":[]}}"#)
        }
    }

    @Test func anotherContainerIsNotFound() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/database/1/iCloud.other/development/public/graphql", token: fixture.adminToken, json: Self.listNames)
            #expect(response.status == .notFound)
            #expect(response.text.contains("iCloud.other"))
        }
    }

    @Test func aRequestWithoutACredentialIsUnauthorized() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/graphql", token: nil, json: Self.listNames)
            #expect(response.status == .unauthorized)
            #expect(response.headers[.wwwAuthenticate] == "Bearer")
            #expect(response.text.contains("shop token create"))
        }
    }

    @Test func anUnknownOrRevokedTokenIsUnauthorized() async throws {
        let fixture = try ServiceFixture()
        let token = try fixture.token(for: .admin, label: "soon-revoked")
        try fixture.state.tokens.revoke(label: "soon-revoked")
        try await fixture.test { client in
            let revoked = try await client.send(.post, "/graphql", token: token, json: Self.listNames)
            #expect(revoked.status == .unauthorized)
            let malformed = try await client.send(.post, "/graphql", token: "not-a-token", json: Self.listNames)
            #expect(malformed.status == .unauthorized)
        }
    }

    @Test func aTokenRevokedWhileInUseIsUnauthorizedOnTheNextRequest() async throws {
        let fixture = try ServiceFixture()
        let token = try fixture.token(for: .admin, label: "in-use")
        try await fixture.test { client in
            let before = try await client.send(.post, "/graphql", token: token, json: Self.listNames)
            #expect(before.status == .ok)
            try fixture.state.tokens.revoke(label: "in-use")
            let after = try await client.send(.post, "/graphql", token: token, json: Self.listNames)
            #expect(after.status == .unauthorized)
        }
    }

    @Test func aTokenRevokedByAnotherProcessStopsWorkingWithinASecond() async throws {
        let fixture = try ServiceFixture()
        let token = try fixture.token(for: .admin, label: "revoked-elsewhere")
        try await fixture.test { client in
            let before = try await client.send(.post, "/graphql", token: token, json: Self.listNames)
            #expect(before.status == .ok)
            // `shop token revoke` run beside the service: its own store of the same folder.
            try TokenStore(folder: fixture.state.configuration.data).revoke(label: "revoked-elsewhere")
            try await Task.sleep(for: PrincipalCache.lifetime + .milliseconds(100))
            let after = try await client.send(.post, "/graphql", token: token, json: Self.listNames)
            #expect(after.status == .unauthorized)
        }
    }

    @Test func theCloudKitQueryParameterTokenIsACredential() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.get, "/graphql?query=%7B%20Lists%20%7B%20name%20%7D%20%7D&ckAPIToken=\(fixture.adminToken)", token: nil)
            #expect(response.status == .ok)
            #expect(response.text == #"{"data":{"Lists":[]}}"#)
        }
    }

    @Test func aGetQueryStringIsFormEncoded() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            // `+` is a space and `%2B` a plus in application/x-www-form-urlencoded.
            let response = try await client.send(
                .get, "/graphql?query=%7B+Lists(predicate%3A+%22name+%3D%3D+'a%2Bb'%22)+%7B+name+%7D+%7D", token: fixture.adminToken)
            #expect(response.status == .ok)
            #expect(response.text == #"{"data":{"Lists":[]}}"#)
        }
    }

    @Test func anAPITokenMayQueryButNotMutate() async throws {
        let fixture = try ServiceFixture()
        let api = try fixture.token(for: .world, label: "web")
        try await fixture.test { client in
            let query = try await client.send(.post, "/graphql", token: api, json: Self.listNames)
            #expect(query.status == .ok)
            let mutation = try await client.send(.post, "/graphql", token: api, json: Self.createList)
            #expect(mutation.status == .forbidden)
            #expect(mutation.text.contains("ACCESS_DENIED"))
        }
    }

    @Test(arguments: [
        (#"{"query": "{ Lists { name } "#, "a body that is not JSON"),
        (#"{"qeury": "{ Lists { name } }"}"#, "no query parameter"),
        (#"{"query": 5}"#, "a query that is not a string"),
        (#"{"query": "{ Lists { name } }", "variables": "x"}"#, "variables that are not an object"),
        (#"{"query": "{ Lists { name } }", "extensions": []}"#, "extensions that are not an object"),
        (#"{"query": "{ Lists { name "}"#, "a document that does not parse"),
    ])
    func aMalformedRequestIsABadRequest(body: String, what: String) async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/graphql", token: fixture.adminToken, json: body)
            #expect(response.status == .badRequest, "\(what)")
            #expect(response.text.hasPrefix(#"{"errors":[{"message":"#), "\(what)")
        }
    }

    @Test(arguments: [
        (#"{"query": "{ Lists { price } }"}"#, "a field the type does not have"),
        (#"{"query": "query A { Lists { name } }", "operationName": "B"}"#, "an operation the document does not have"),
        (#"{"query": "query A { Lists { name } } query B { Items { name } }"}"#, "several operations and no name"),
        (#"{"query": "query($n: Int!) { Lists(limit: $n) { name } }", "variables": {"n": "x"}}"#, "a variable of the wrong type"),
        (#"{"query": "{ Lists { name name: recordName } }"}"#, "two fields under one response key"),
    ])
    func aDocumentThatCannotRunIsUnprocessable(body: String, what: String) async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/graphql", token: fixture.adminToken, json: body)
            #expect(response.status == .unprocessableContent, "\(what)")
            #expect(!response.text.contains(#""data""#), "\(what)")
        }
    }

    /// A request that fails once its operation is being planned (a limit below 0, a predicate
    /// that does not parse) answers `"data": null` with its field errors: 200, as the draft asks
    /// of a response holding `data`.
    @Test(arguments: [#"{"query": "{ Lists(limit: -1) { name } }"}"#, #"{"query": "{ Lists(predicate: \"name >\") { name } }"}"#])
    func aFieldErrorBeforeAnythingRanIs200WithNullData(body: String) async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/graphql", token: fixture.adminToken, json: body)
            #expect(response.status == .ok, "\(response.text)")
            #expect(response.text.hasPrefix(#"{"data":null,"errors":["#), "\(response.text)")
        }
    }

    @Test func aClientAcceptingOnlyJSONGets200ForRequestErrors() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/graphql", token: fixture.adminToken, headers: [.accept: "application/json"], json: #"{"query": "{ Lists { price } }"}"#
            )
            #expect(response.status == .ok)
            #expect(response.headers[.contentType] == "application/json; charset=utf-8")
            #expect(response.text.contains("price"))
        }
    }

    @Test func aMutationOverGetIsNotAllowed() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .get, "/graphql?query=mutation%20%7B%20deleteLists(recordName%3A%20%22L1%22)%20%7B%20deleted%20%7D%20%7D", token: fixture.adminToken)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "POST")
        }
    }

    @Test func aBodyOfAnotherMediaTypeIsUnsupported() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/graphql", token: fixture.adminToken, headers: [.contentType: "text/plain"], json: Self.listNames)
            #expect(response.status == .unsupportedMediaType)
        }
    }

    @Test func anAcceptTheServiceCannotMeetIsNotAcceptable() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, "/graphql", token: fixture.adminToken, headers: [.accept: "text/html"], json: Self.listNames)
            #expect(response.status == .notAcceptable)
        }
    }

    @Test func aFieldErrorIsA200WithErrors() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/graphql", token: fixture.adminToken,
                json: #"{"query":"mutation { updateLists(recordName: \"missing\", fields: {name: \"x\"}) { name } }"}"#
            )
            #expect(response.status == .ok)
            #expect(response.text.hasPrefix(#"{"data":null,"errors":"#))
            #expect(response.text.contains("unknownItem"))
        }
    }

    @Test func aBodyOverTheLimitIsRefusedBeforeItIsRead() async throws {
        let fixture = try ServiceFixture { $0.maximumBodySize = 64 }
        try await fixture.test { client in
            let response = try await client.send(
                .post, "/graphql", token: fixture.adminToken,
                json: #"{"query":"{ Lists { name } }", "variables": {"pad": "\#(String(repeating: "x", count: 100))"}}"#)
            #expect(response.status == .contentTooLarge)
        }
    }
}
