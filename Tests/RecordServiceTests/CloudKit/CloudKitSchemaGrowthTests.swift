import Foundation
import HTTPTypes
import HummingbirdTesting
import RecordKit
import Testing

@testable import RecordService

/// CloudKit's just-in-time schema in `development`: what a write adds to the schema lands with
/// the write, in its transaction, so a request or an operation that fails adds nothing — in the
/// default zone and in a custom zone, whose additions then reach the database's schema.
@Suite struct CloudKitSchemaGrowthTests {
    static let database = CloudKitRouteTests.database
    static let create = CloudKitRouteTests.create

    /// Whether the schema lets `type` be queried by `field` (a type or field it lacks is a 400).
    static func knows(
        _ client: some TestClientProtocol, _ token: String, _ type: String, field: String = "name", zone: String = "_defaultZone"
    )
        async throws -> Bool
    {
        let query = #"{"zoneID": {"zoneName": "\#(zone)"}, "query": {"recordType": "\#(type)", "sortBy": [{"fieldName": "\#(field)"}]}}"#
        let answer = try await client.send(.post, database + "records/query", token: token, json: query)
        #expect(answer.status == .ok || answer.status == .badRequest, "\(answer.text)")
        return answer.status == .ok
    }

    @Test func anAtomicBatchThatFailsAddsNoTypeAndNoField() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            _ = try await client.send(.post, Self.database + "records/modify", token: token, json: CloudKitRouteTests.seed)
            let failing = CloudKitRouteTests.modify(
                Self.create("Ghosts", "G1", #"{"haunts": {"value": 3}}"#),
                Self.create("Lists", "L9", #"{"name": {"value": "Spare"}, "color": {"value": "red"}}"#),
                // L1 exists: the batch fails here, after both additions were typed.
                Self.create("Lists", "L1", #"{"name": {"value": "Again"}}"#))
            let refused = try await client.send(.post, Self.database + "records/modify", token: token, json: failing)
            #expect(try CloudKitRouteTests.operationCodes(refused) == ["ATOMIC_ERROR", "ATOMIC_ERROR", "EXISTS"])
            #expect(try await !Self.knows(client, token, "Ghosts", field: "haunts"))
            #expect(try await !Self.knows(client, token, "Lists", field: "color"))
            // The same additions in a batch that succeeds are there at once.
            let working = CloudKitRouteTests.modify(
                Self.create("Ghosts", "G1", #"{"haunts": {"value": 3}}"#),
                Self.create("Lists", "L9", #"{"name": {"value": "Spare"}, "color": {"value": "red"}}"#))
            let saved = try await client.send(.post, Self.database + "records/modify", token: token, json: working)
            #expect(saved.status == .ok, "\(saved.text)")
            #expect(try await Self.knows(client, token, "Ghosts", field: "haunts"))
            #expect(try await Self.knows(client, token, "Lists", field: "color"))
        }
    }

    @Test func aNonAtomicOperationThatFailsAddsNothingWhileTheOthersAddTheirs() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            _ = try await client.send(.post, Self.database + "records/modify", token: token, json: CloudKitRouteTests.seed)
            let batch = CloudKitRouteTests.modify(
                // A new type whose two operations each name a field of their own: the one that
                // fails (the name I1 is taken) adds neither its field nor, alone, the type.
                Self.create("Lists", "L1", #"{"name": {"value": "Again"}, "color": {"value": "red"}}"#),
                Self.create("Shelves", "S1", #"{"aisle": {"value": 4}}"#),
                Self.create("Shelves", "I1", #"{"height": {"value": 1.5}}"#),
                Self.create("Lists", "L2", #"{"name": {"value": "Hardware"}, "store": {"value": "Corner"}}"#),
                atomic: false)
            let answer = try await client.send(.post, Self.database + "records/modify", token: token, json: batch)
            #expect(answer.status == .ok, "\(answer.text)")
            let results = try CloudKitRouteTests.json(answer)["records"]?.arrayValue ?? []
            #expect(results.map { $0["serverErrorCode"] } == [.string("EXISTS"), nil, .string("EXISTS"), nil])
            #expect(try await !Self.knows(client, token, "Lists", field: "color"))
            #expect(try await Self.knows(client, token, "Lists", field: "store"))
            #expect(try await Self.knows(client, token, "Shelves", field: "aisle"))
            #expect(try await !Self.knows(client, token, "Shelves", field: "height"))
        }
    }

    @Test func aCustomZoneGrowsTheSchemaOnlyWithAWriteThatSucceeds() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            _ = try await CloudKitZoneTests.createWork(client, token)
            func inWork(_ operations: String...) -> String {
                #"{"zoneID": \#(CloudKitZoneTests.work), "operations": [\#(operations.joined(separator: ", "))]}"#
            }
            _ = try await CloudKitZoneTests.post(client, "records/modify", token, inWork(Self.create("Lists", "W0", #"{"name": {"value": "Desk"}}"#)))
            let failing = inWork(
                Self.create("Lists", "W1", #"{"name": {"value": "Office"}, "floor": {"value": 2}}"#),
                Self.create("Lists", "W0", #"{"name": {"value": "Twice"}}"#))
            let refused = try await client.send(.post, Self.database + "records/modify", token: token, json: failing)
            #expect(try CloudKitRouteTests.operationCodes(refused) == ["ATOMIC_ERROR", "EXISTS"])
            #expect(try await !Self.knows(client, token, "Lists", field: "floor", zone: "Work"))
            #expect(try await !Self.knows(client, token, "Lists", field: "floor"))
            let saved = try await client.send(
                .post, Self.database + "records/modify", token: token,
                json: inWork(Self.create("Lists", "W1", #"{"name": {"value": "Office"}, "floor": {"value": 2}}"#)))
            #expect(saved.status == .ok, "\(saved.text)")
            // The field is the database's now: the default zone, which no write of it reached, has it.
            #expect(try await Self.knows(client, token, "Lists", field: "floor", zone: "Work"))
            #expect(try await Self.knows(client, token, "Lists", field: "floor"))
        }
    }
}
