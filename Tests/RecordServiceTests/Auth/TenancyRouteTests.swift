import Crypto
import Foundation
import HTTPTypes
import HummingbirdTesting
import NIOCore
import RecordKit
import Testing

@testable import RecordService

/// Private databases, grants and signed requests through the routes: the engine's access
/// policy reached from each credential.
@Suite("Tenancy")
struct TenancyRouteTests {
    static let container = ServiceConfiguration.defaultContainer
    static let publicDatabase = "/database/1/\(container)/development/public/"
    static let privateDatabase = "/database/1/\(container)/development/private/"

    static func createList(_ name: String, _ title: String) -> String {
        #"{"operations": [{"operationType": "create", "record": {"recordType": "Lists", "recordName": "\#(name)", "fields": {"name": {"value": "\#(title)"}}}}]}"#
    }

    static let queryLists = #"{"query": {"recordType": "Lists"}}"#

    @Test func eachUserReachesOnlyTheirOwnPrivateDatabase() async throws {
        let fixture = try ServiceFixture()
        let ann = try fixture.token(for: .user("ann"), label: "ann")
        let bob = try fixture.token(for: .user("bob"), label: "bob")
        let api = try fixture.token(for: .world, label: "api")
        try await fixture.test { client in
            let created = try await client.send(.post, Self.privateDatabase + "records/modify", token: ann, json: Self.createList("A1", "ann secret"))
            #expect(created.status == .ok, "\(created.text)")
            let anns = try await client.send(.post, Self.privateDatabase + "records/query", token: ann, json: Self.queryLists)
            #expect(anns.text.contains("ann secret"))
            let bobs = try await client.send(.post, Self.privateDatabase + "records/query", token: bob, json: Self.queryLists)
            #expect(bobs.status == .ok)
            #expect(!bobs.text.contains("ann secret"))
            let lookup = try await client.send(.post, Self.privateDatabase + "records/lookup", token: bob, json: #"{"records": [{"recordName": "A1"}]}"#)
            #expect(lookup.text.contains("NOT_FOUND") && !lookup.text.contains("ann secret"))
            let graphQL = try await client.send(.post, Self.privateDatabase + "graphql", token: bob, json: #"{"query": "{ Lists { name } }"}"#)
            #expect(!graphQL.text.contains("ann secret"))
            for token in [api, fixture.adminToken] {
                let refused = try await client.send(.post, Self.privateDatabase + "records/query", token: token, json: Self.queryLists)
                #expect(refused.status == .notFound)
            }
            let publicLists = try await client.send(.post, Self.publicDatabase + "records/query", token: fixture.adminToken, json: Self.queryLists)
            #expect(!publicLists.text.contains("ann secret"))
        }
    }

    @Test func grantsFilterReadsAndRefuseWritesThroughBothAPIs() async throws {
        let fixture = try ServiceFixture()
        let ann = try fixture.token(for: .user("ann"), label: "ann")
        let bob = try fixture.token(for: .user("bob"), label: "bob")
        let api = try fixture.token(for: .world, label: "api")
        let database = try await fixture.state.databases.database(.developmentPublic).database
        try database.importSchema(
            ckdb: """
                DEFINE SCHEMA
                    RECORD TYPE Diaries (
                        title           STRING QUERYABLE,
                        GRANT READ, WRITE TO "_creator",
                        GRANT CREATE TO "_icloud"
                    );
                """)
        try await fixture.test { client in
            let create =
                #"{"operations": [{"operationType": "create", "record": {"recordType": "Diaries", "recordName": "D1", "fields": {"title": {"value": "dear diary"}}}}]}"#
            let created = try await client.send(.post, Self.publicDatabase + "records/modify", token: ann, json: create)
            #expect(created.status == .ok, "\(created.text)")
            #expect(created.text.contains(#""userRecordName":"\#(CloudKitUser.recordName(of: .user("ann")))""#))
            let query = #"{"query": {"recordType": "Diaries"}}"#
            #expect(try await client.send(.post, Self.publicDatabase + "records/query", token: ann, json: query).text.contains("dear diary"))
            for token in [bob, api] {
                let filtered = try await client.send(.post, Self.publicDatabase + "records/query", token: token, json: query)
                #expect(filtered.status == .ok)
                #expect(!filtered.text.contains("dear diary"))
                let graphQL = try await client.send(.post, "/graphql", token: token, json: #"{"query": "{ Diaries { title } DiariesAggregate { count } }"}"#)
                #expect(graphQL.text.contains(#""Diaries":[]"#) && graphQL.text.contains(#""count":0"#), "\(graphQL.text)")
            }
            let update =
                #"{"operations": [{"operationType": "forceUpdate", "record": {"recordType": "Diaries", "recordName": "D1", "fields": {"title": {"value": "bob was here"}}}}]}"#
            // A record bob may not read is, to him, not there: NOT_FOUND in its place, as for
            // update, not saying that it exists.
            let refused = try await client.send(.post, Self.publicDatabase + "records/modify", token: bob, json: update)
            #expect(try CloudKitRouteTests.operationCodes(refused) == ["NOT_FOUND"])
            #expect(!refused.text.contains("exists"), "\(refused.text)")
            let mutation = try await client.send(
                .post, "/graphql", token: bob, json: #"{"query": "mutation { deleteDiaries(recordName: \"D1\") { deleted } }"}"#)
            #expect(mutation.text.contains("errors"))
            let still = try await client.send(.post, Self.publicDatabase + "records/query", token: fixture.adminToken, json: query)
            #expect(still.text.contains("dear diary"))
        }
    }

    @Test func anAPITokenReadsButIdentifiesNoUser() async throws {
        let fixture = try ServiceFixture()
        let api = try fixture.token(for: .world, label: "api")
        try await fixture.test { client in
            let current = try await client.send(.get, Self.publicDatabase + "users/current", token: api)
            #expect(current.status == .misdirectedRequest)
            #expect(current.text.contains("AUTHENTICATION_REQUIRED"))
            let write = try await client.send(.post, Self.publicDatabase + "records/modify", token: api, json: Self.createList("L9", "x"))
            #expect(write.status == .forbidden)
        }
    }

    @Test func discoverListsOnlyUsersWhoAllowedIt() async throws {
        let fixture = try ServiceFixture()
        try fixture.state.users.add(try UserName("ann"), password: "ann's password", discoverable: true)
        try fixture.state.users.add(try UserName("bob"), password: "bob's password")
        let bob = try fixture.token(for: .user("bob"), label: "bob")
        try await fixture.test { client in
            let found = try await client.send(.get, Self.publicDatabase + "users/discover", token: bob)
            #expect(found.status == .ok)
            #expect(found.text.contains(CloudKitUser.recordName(of: .user("ann"))))
            #expect(!found.text.contains(CloudKitUser.recordName(of: .user("bob"))))
        }
    }
}

/// Server-to-server requests, signed as CloudKit signs them.
@Suite("Server-to-server keys")
struct ServerKeyRouteTests {
    static let path = "/database/1/\(ServiceConfiguration.defaultContainer)/development/public/records/query"
    static let body = #"{"query": {"recordType": "Lists"}}"#

    static func date(_ offset: TimeInterval = 0) -> String {
        ISO8601DateFormatter().string(from: Date().addingTimeInterval(offset))
    }

    static func headers(key: P256.Signing.PrivateKey, keyID: String = "backend", date: String, body: String, path: String) throws -> HTTPFields {
        let hash = Data(SHA256.hash(data: Data(body.utf8))).base64EncodedString()
        let signature = try key.signature(for: Data("\(date):\(hash):\(path)".utf8))
        return [
            .cloudKitKeyID: keyID, .cloudKitDate: date, .cloudKitSignature: signature.derRepresentation.base64EncodedString(),
            .contentType: "application/json",
        ]
    }

    @Test func aRequestSignedWithARegisteredKeyIsServed() async throws {
        let fixture = try ServiceFixture()
        let key = P256.Signing.PrivateKey()
        try fixture.state.keys.add(keyID: "backend", pem: key.publicKey.pemRepresentation)
        let raw = key.rawRepresentation
        try await fixture.test { client in
            let key = try P256.Signing.PrivateKey(rawRepresentation: raw)
            let headers = try Self.headers(key: key, date: Self.date(), body: Self.body, path: Self.path)
            let answer = try await client.execute(uri: Self.path, method: .post, headers: headers, body: ByteBuffer(string: Self.body))
            #expect(answer.status == .ok, "\(String(buffer: answer.body))")
        }
    }

    @Test func aRemovedKeyIsRefusedFromTheNextRequestOn() async throws {
        let fixture = try ServiceFixture()
        let key = P256.Signing.PrivateKey()
        try fixture.state.keys.add(keyID: "backend", pem: key.publicKey.pemRepresentation)
        try fixture.state.keys.add(keyID: "other", pem: P256.Signing.PrivateKey().publicKey.pemRepresentation)
        #expect(try fixture.state.keys.keyIDs() == ["backend", "other"])
        let raw = key.rawRepresentation
        try await fixture.test { client in
            let key = try P256.Signing.PrivateKey(rawRepresentation: raw)
            let signed = { try Self.headers(key: key, date: Self.date(), body: Self.body, path: Self.path) }
            #expect(try await client.execute(uri: Self.path, method: .post, headers: signed(), body: ByteBuffer(string: Self.body)).status == .ok)
            try fixture.state.keys.remove(keyID: "backend")
            #expect(try await client.execute(uri: Self.path, method: .post, headers: signed(), body: ByteBuffer(string: Self.body)).status == .unauthorized)
        }
        #expect(try fixture.state.keys.keyIDs() == ["other"])
        #expect(throws: RecordError.self) { try fixture.state.keys.remove(keyID: "backend") }
    }

    @Test func tamperedOrStaleSignaturesAreRefused() async throws {
        let fixture = try ServiceFixture()
        let key = P256.Signing.PrivateKey()
        try fixture.state.keys.add(keyID: "backend", pem: key.publicKey.pemRepresentation)
        let raw = key.rawRepresentation
        try await fixture.test { client in
            let key = try P256.Signing.PrivateKey(rawRepresentation: raw)
            let cases: [(String, HTTPFields, String, String)] = [
                (
                    "another body", try Self.headers(key: key, date: Self.date(), body: Self.body, path: Self.path), #"{"query": {"recordType": "Items"}}"#,
                    Self.path
                ),
                ("another path", try Self.headers(key: key, date: Self.date(), body: Self.body, path: "/other"), Self.body, Self.path),
                ("an old date", try Self.headers(key: key, date: Self.date(-600), body: Self.body, path: Self.path), Self.body, Self.path),
                ("a future date", try Self.headers(key: key, date: Self.date(600), body: Self.body, path: Self.path), Self.body, Self.path),
                ("another key", try Self.headers(key: P256.Signing.PrivateKey(), date: Self.date(), body: Self.body, path: Self.path), Self.body, Self.path),
                ("an unknown key ID", try Self.headers(key: key, keyID: "nobody", date: Self.date(), body: Self.body, path: Self.path), Self.body, Self.path),
            ]
            for (label, headers, body, path) in cases {
                let answer = try await client.execute(uri: path, method: .post, headers: headers, body: ByteBuffer(string: body))
                #expect(answer.status == .unauthorized, "\(label)")
                #expect(String(buffer: answer.body).contains("AUTHENTICATION_FAILED"), "\(label)")
            }
        }
    }

    @Test func anEmptyBodyMayBeSignedWithAnEmptyHash() throws {
        let key = P256.Signing.PrivateKey()
        let date = Self.date()
        let path = "/database/1/iCloud.shop/development/public/users/current"
        let signature = try key.signature(for: Data("\(date)::\(path)".utf8)).derRepresentation.base64EncodedString()
        let signed = ServerSignature(keyID: "k", date: date, signature: signature)
        #expect(throws: Never.self) { try signed.verify(with: key.publicKey, body: Data(), path: path) }
        #expect(throws: ServerSignature.Refusal.wrongSignature) { try signed.verify(with: key.publicKey, body: Data("x".utf8), path: path) }
    }
}
