import Foundation
import HummingbirdTesting
import RecordKit
import Testing

@testable import RecordService

/// One schema per environment, shared by the public database and every user's private one, as
/// CloudKit has one per container and environment.
@Suite("One schema per environment")
struct EnvironmentSchemaTests {
    static func database(_ environment: String, _ scope: String) -> String {
        "/database/1/\(ServiceConfiguration.defaultContainer)/\(environment)/\(scope)/"
    }

    static func createTask(_ name: String, title: String) -> String {
        #"{"operations": [{"operationType": "create", "record": {"recordType": "Tasks", "recordName": "\#(name)", "fields": {"title": {"value": "\#(title)"}, "due": {"value": 1700000000000}}}}]}"#
    }

    @Test func aSchemaImportedIntoDevelopmentRulesEveryUsersPrivateDatabase() async throws {
        let fixture = try ServiceFixture()
        try fixture.state.users.add(try UserName("alice"), password: "alice's password")
        let alice = try fixture.token(for: .user("alice"), label: "alice")
        let ckdb = "DEFINE SCHEMA\\nRECORD TYPE Tasks ( title STRING QUERYABLE, due TIMESTAMP, UNIQUE (title) );\\n"
        try await fixture.test { client in
            let imported = try await client.send(
                .post, Self.database("development", "public") + "schema", token: fixture.adminToken, json: #"{"ckdb": "\#(ckdb)"}"#)
            #expect(imported.status == .ok, "\(imported.text)")
            let first = try await client.send(
                .post, Self.database("development", "private") + "records/modify", token: alice, json: Self.createTask("T1", title: "same"))
            #expect(first.status == .ok, "\(first.text)")
            // Typed as declared (not just in time from the value), and under the declared rule.
            #expect(first.text.contains(#""due":{"type":"TIMESTAMP""#), "\(first.text)")
            let second = try await client.send(
                .post, Self.database("development", "private") + "records/modify", token: alice, json: Self.createTask("T2", title: "same"))
            #expect(second.text.contains("UNIQUE (title)"), "\(second.text)")
        }
    }

    @Test func aTypeAPrivateDatabaseAddsJustInTimeIsTheEnvironmentsAndDeploysToEveryProductionDatabase() async throws {
        let fixture = try ServiceFixture()
        try fixture.state.users.add(try UserName("alice"), password: "alice's password")
        let alice = try fixture.token(for: .user("alice"), label: "alice")
        let note = #"{"operations": [{"operationType": "create", "record": {"recordType": "Notes", "recordName": "N1", "fields": {"text": {"value": "hi"}}}}]}"#
        try await fixture.test { client in
            let added = try await client.send(.post, Self.database("development", "private") + "records/modify", token: alice, json: note)
            #expect(added.status == .ok, "\(added.text)")
            let development = try await client.send(.get, Self.database("development", "public") + "schema", token: fixture.adminToken)
            #expect(development.text.contains("RECORD TYPE Notes"), "\(development.text)")
            let folder = fixture.state.configuration.data
            _ = try await SchemaDeployment.deploy(
                from: try folder.openPublicDatabase(.development), to: try folder.openPublicDatabase(.production))
            let deployed = try await client.send(.post, Self.database("production", "private") + "records/modify", token: alice, json: note)
            #expect(deployed.status == .ok, "\(deployed.text)")
        }
    }

    /// A change a private database cannot take (here a NOT EMPTY rule its records break) is left
    /// out for it alone: the field itself, and every later change, still reach it.
    @Test func aRuleAPrivateDatabasesRecordsBreakDoesNotHoldBackTheRest() async throws {
        let fixture = try ServiceFixture()
        try fixture.state.users.add(try UserName("alice"), password: "alice's password")
        let alice = try fixture.token(for: .user("alice"), label: "alice")
        let note = #"{"operations": [{"operationType": "create", "record": {"recordType": "Notes", "recordName": "N1", "fields": {"text": {"value": "hi"}}}}]}"#
        let ckdb = "DEFINE SCHEMA\\nRECORD TYPE Notes ( text STRING, req STRING NOT EMPTY );\\nRECORD TYPE Later ( x STRING NOT EMPTY );\\n"
        try await fixture.test { client in
            #expect(try await client.send(.post, Self.database("development", "private") + "records/modify", token: alice, json: note).status == .ok)
            let imported = try await client.send(
                .post, Self.database("development", "public") + "schema", token: fixture.adminToken, json: #"{"ckdb": "\#(ckdb)"}"#)
            #expect(imported.status == .ok, "\(imported.text)")
            let own = try await client.send(.get, Self.database("development", "private") + "schema", token: alice)
            // The field without its rule: Alice's N1 has no req.
            #expect(own.text.contains(/req +STRING\\n/), "\(own.text)")
            #expect(own.text.contains("RECORD TYPE Later"), "\(own.text)")
            let later = #"{"operations": [{"operationType": "create", "record": {"recordType": "Later", "recordName": "L1", "fields": {"y": {"value": 1}}}}]}"#
            let refused = try await client.send(.post, Self.database("development", "private") + "records/modify", token: alice, json: later)
            #expect(refused.text.contains("Later.x is NOT EMPTY"), "\(refused.text)")
        }
    }
}
