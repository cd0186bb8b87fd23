import Foundation
import HummingbirdTesting
import RecordKit
import RecordQL
import Testing

@testable import RecordService

/// `POST …/explain`: the engine's plans for admin tokens, the same text the engine gives in
/// process; refused for every other principal, since a plan shows tables and indexes.
@Suite("Explain")
struct ExplainRouteTests {
    static let path = "/database/1/\(ServiceConfiguration.defaultContainer)/development/public/explain"

    @Test func aGraphQLQueryIsAnsweredWithTheEnginesPlan() async throws {
        let fixture = try ServiceFixture()
        let document = #"{ Items(predicate: "name BEGINSWITH 'M'") { name } }"#
        try await fixture.test { client in
            let response = try await client.send(.post, Self.path, token: fixture.adminToken, json: "{\"query\":" + JSONText.string(document) + "}")
            #expect(response.status == .ok, "\(response.text)")
            let database = try await fixture.state.databases.database(DatabaseAddress(environment: .development, scope: .public))
            let expected = try await database.graphQL.explain(document)
            #expect(response.text == "{\"plan\":" + JSONText.string(expected) + "}")
            #expect(expected.contains("SELECT"))
        }
    }

    @Test func aRecordQueryIsAnsweredWithItsSQLAndSQLitesPlan() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let body = #"{"recordType":"Items","predicate":"list == 'L1'","sort":[{"field":"name","ascending":false}],"limit":5}"#
            let response = try await client.send(.post, Self.path, token: fixture.adminToken, json: body)
            #expect(response.status == .ok, "\(response.text)")
            let database = try await fixture.state.databases.database(DatabaseAddress(environment: .development, scope: .public))
            let expected = try database.database.explain(
                Query("Items", predicate: try PredicateParser.parse("list == 'L1'"), sort: [SortDescriptor("name", ascending: false)], limit: 5))
            let json = try #require(try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])
            #expect(json["sql"] as? String == expected.sql)
            #expect(json["plan"] as? [String] == expected.plan)
        }
    }

    @Test func onlyAnAdminTokenMayAsk() async throws {
        let fixture = try ServiceFixture()
        let user = try fixture.token(for: .user("ann"), label: "ann")
        try await fixture.test { client in
            let response = try await client.send(.post, Self.path, token: user, json: #"{"query":"{ Items { name } }"}"#)
            #expect(response.status == .forbidden)
            #expect(response.text.contains("needs an admin token"))
            #expect(!response.text.contains("SELECT"))
            let anonymous = try await client.send(.post, Self.path, token: nil, json: #"{"query":"{ Items { name } }"}"#)
            #expect(anonymous.status == .unauthorized)
        }
    }

    @Test func aQueryThatCannotBeExplainedIsAnErrorLocatedInTheDocument() async throws {
        let fixture = try ServiceFixture()
        try await fixture.test { client in
            let response = try await client.send(.post, Self.path, token: fixture.adminToken, json: #"{"query":"{\n  Items { colour } }"}"#)
            #expect(response.status == .badRequest)
            let errors = try #require(
                (try JSONSerialization.jsonObject(with: Data(response.text.utf8)) as? [String: Any])?["errors"] as? [[String: Any]])
            #expect((errors.first?["message"] as? String)?.contains("colour") == true, "\(response.text)")
            #expect((errors.first?["locations"] as? [[String: Int]])?.first?["line"] == 2)
            #expect((errors.first?["extensions"] as? [String: Any])?["code"] as? String == "schemaViolation", "\(response.text)")
            let malformed = try await client.send(.post, Self.path, token: fixture.adminToken, json: #"{"recordtype":"Items"}"#)
            #expect(malformed.status == .badRequest)
            #expect(malformed.text.contains("the body must be a JSON object"))
        }
    }
}
