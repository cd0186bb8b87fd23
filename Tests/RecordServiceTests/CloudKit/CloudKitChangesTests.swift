import Foundation
import HTTPTypes
import HummingbirdTesting
import Logging
import RecordKit
import TestSupport
import Testing

@testable import RecordService

/// `records/changes`, `zones/changes` and GraphQL's `changes` field, in process: replicas kept
/// only from pages end equal to the database, expired tokens are refused, rebuilt from the start.
@Suite struct CloudKitChangesTests {
    static let database = CloudKitRouteTests.database

    /// A copy of the database kept from change pages: recordName to (recordType, changeTag).
    struct Replica {
        var records: [String: String] = [:]
        var token: String?
    }

    /// Every record of `database` as recordName to "recordType changeTag".
    static func contents(of database: RecordDatabase) throws -> [String: String] {
        let records = try database.records(matching: Query("Lists")) + database.records(matching: Query("Items"))
        return Dictionary(uniqueKeysWithValues: records.map { ($0.recordName, "\($0.recordType) \($0.changeTag ?? "")") })
    }

    /// Pages `replica` with `records/changes` (`resultsLimit` `limit`) until none is coming.
    static func syncCloudKit(_ replica: inout Replica, limit: Int, client: some TestClientProtocol, token: String) async throws {
        while true {
            var body = #"{"zoneID": {"zoneName": "_defaultZone"}, "resultsLimit": \#(limit)"#
            if let syncToken = replica.token { body += #", "syncToken": "\#(syncToken)""# }
            let response = try await client.send(.post, database + "records/changes", token: token, json: body + "}")
            #expect(response.status == .ok, "\(response.text)")
            let page = try CloudKitRouteTests.json(response)
            let records = page["records"]?.arrayValue ?? []
            #expect(records.count <= limit)
            for record in records {
                guard case .string(let name)? = record["recordName"], case .string(let type)? = record["recordType"] else {
                    Issue.record("a change without recordName or recordType: \(record.serialized)")
                    return
                }
                if record["deleted"] == .bool(true) {
                    replica.records[name] = nil
                } else if case .string(let tag)? = record["recordChangeTag"] {
                    replica.records[name] = "\(type) \(tag)"
                }
            }
            guard case .string(let next)? = page["syncToken"], case .bool(let more)? = page["moreComing"] else {
                Issue.record("no syncToken or moreComing: \(response.text)")
                return
            }
            replica.token = next
            if !more { return }
        }
    }

    /// Pages `replica` with GraphQL's `changes(since:, limit:)` until none is coming.
    static func syncGraphQL(_ replica: inout Replica, limit: Int, client: some TestClientProtocol, token: String) async throws {
        while true {
            let since = replica.token.map { #"since: \"\#($0)\", "# } ?? ""
            let query =
                #"{"query": "{ changes(\#(since)limit: \#(limit)) { changes { recordName recordType deleted record { changeTag } } syncToken moreComing } }"}"#
            let response = try await client.send(.post, "/graphql", token: token, json: query)
            let page = try CloudKitRouteTests.json(response)["data"]?["changes"]
            guard let page, case .string(let next)? = page["syncToken"], case .bool(let more)? = page["moreComing"] else {
                Issue.record("no page: \(response.text)")
                return
            }
            for change in page["changes"]?.arrayValue ?? [] {
                guard case .string(let name)? = change["recordName"], case .string(let type)? = change["recordType"] else { continue }
                if change["deleted"] == .bool(true) {
                    replica.records[name] = nil
                } else if case .string(let tag)? = change["record"]?["changeTag"] {
                    replica.records[name] = "\(type) \(tag)"
                }
            }
            replica.token = next
            if !more { return }
        }
    }

    /// One random batch of CloudKit operations over the lists and items believed to exist.
    static func randomBatch(lists: inout [String], items: inout [String], counter: inout Int, random: inout SplitMix64) -> String {
        var operations: [String] = []
        // One operation per record in a request; a list deleted ends the batch (its items go too).
        var touched = Set<String>()
        batch: for _ in 0..<Int.random(in: 1...5, using: &random) {
            counter += 1
            let untouchedItems = items.filter { !touched.contains($0) }
            switch Int.random(in: 0..<10, using: &random) {
            case 2...4 where !lists.isEmpty:
                let list = lists.randomElement(using: &random)!
                operations.append(
                    CloudKitRouteTests.create(
                        "Items", "I\(counter)",
                        #"{"name": {"value": "Item \#(counter)"}, "list": {"value": {"recordName": "\#(list)", "action": "DELETE_SELF"}}}"#))
                items.append("I\(counter)")
                touched.insert("I\(counter)")
            case 5...6 where !untouchedItems.isEmpty:
                let item = untouchedItems.randomElement(using: &random)!
                touched.insert(item)
                operations.append(
                    #"{"operationType": "forceUpdate", "record": {"recordType": "Items", "recordName": "\#(item)", "fields": {"name": {"value": "Item \#(counter)"}}}}"#
                )
            case 7 where !untouchedItems.isEmpty:
                let item = untouchedItems.randomElement(using: &random)!
                items.removeAll { $0 == item }
                operations.append(#"{"operationType": "forceDelete", "record": {"recordName": "\#(item)"}}"#)
            case 8 where lists.count > 3 && operations.isEmpty:
                // A cascade: the list's items go with it.
                let list = lists.remove(at: Int.random(in: 0..<lists.count, using: &random))
                operations.append(#"{"operationType": "forceDelete", "record": {"recordName": "\#(list)"}}"#)
                break batch
            default:
                operations.append(CloudKitRouteTests.create("Lists", "L\(counter)", #"{"name": {"value": "List \#(counter)"}}"#))
                lists.append("L\(counter)")
            }
        }
        return #"{"atomic": false, "operations": [\#(operations.joined(separator: ", "))]}"#
    }

    /// 600 random creates, updates, deletes and cascades through `records/modify`; replicas
    /// of both APIs syncing at random moments with small pages, and new ones starting from no
    /// token, end equal to the database.
    @Test func replicasKeptFromChangePagesEndEqualToTheDatabase() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        let database = try await fixture.state.databases.database(DatabaseAddress(environment: .development, scope: .public)).database
        try await fixture.test { client in
            var random = SplitMix64(state: 14)
            var cloudKit = [Replica()]
            var graphQL = [Replica()]
            var lists: [String] = []
            var items: [String] = []
            var counter = 0
            while counter < 600 {
                let batch = Self.randomBatch(lists: &lists, items: &items, counter: &counter, random: &random)
                let response = try await client.send(.post, Self.database + "records/modify", token: token, json: batch)
                #expect(response.status == .ok, "\(response.text)")
                let existing = try Self.contents(of: database)
                items.removeAll { existing[$0] == nil }
                switch Int.random(in: 0..<12, using: &random) {
                case 0:
                    let index = Int.random(in: 0..<cloudKit.count, using: &random)
                    try await Self.syncCloudKit(&cloudKit[index], limit: Int.random(in: 1...9, using: &random), client: client, token: token)
                case 1:
                    let index = Int.random(in: 0..<graphQL.count, using: &random)
                    try await Self.syncGraphQL(&graphQL[index], limit: Int.random(in: 1...9, using: &random), client: client, token: token)
                case 2 where counter % 5 == 0:
                    cloudKit.append(Replica())
                    graphQL.append(Replica())
                default:
                    break
                }
            }
            let current = try Self.contents(of: database)
            #expect(current.count > 50)
            for var replica in cloudKit {
                try await Self.syncCloudKit(&replica, limit: 7, client: client, token: token)
                #expect(replica.records == current)
            }
            for var replica in graphQL {
                try await Self.syncGraphQL(&replica, limit: 7, client: client, token: token)
                #expect(replica.records == current)
            }
        }
    }

    @Test func aPrunedTokenIsChangeTokenExpiredAndAFetchFromTheStartRebuilds() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        let database = try await fixture.state.databases.database(DatabaseAddress(environment: .development, scope: .public)).database
        try await fixture.test { client in
            try await client.send(.post, Self.database + "records/modify", token: token, json: CloudKitRouteTests.seed)
            var replica = Replica()
            try await Self.syncCloudKit(&replica, limit: 2, client: client, token: token)
            let old = try #require(replica.token)
            try await client.send(
                .post, Self.database + "records/modify", token: token,
                json: #"{"operations": [{"operationType": "forceDelete", "record": {"recordName": "L1"}}]}"#)
            try await client.send(
                .post, Self.database + "records/modify", token: token,
                json: CloudKitRouteTests.modify(CloudKitRouteTests.create("Lists", "L2", #"{"name": {"value": "Tools"}}"#)))
            try database.pruneChanges(through: .max)
            let expired = try await client.send(.post, Self.database + "records/changes", token: token, json: #"{"syncToken": "\#(old)"}"#)
            try CloudKitRouteTests.expectError(expired, .gone, "CHANGE_TOKEN_EXPIRED")
            let graphQL = try await client.send(.post, "/graphql", token: token, json: #"{"query": "{ changes(since: \"\#(old)\") { syncToken } }"}"#)
            #expect(
                graphQL.text.contains(#""extensions":{"code":"invalidArguments","reason":"changeTokenExpired","remedy":{"kind":"fetchChangesFromStart"}}"#),
                "\(graphQL.text)")
            var rebuilt = Replica()
            try await Self.syncCloudKit(&rebuilt, limit: 1, client: client, token: token)
            #expect(rebuilt.records == (try Self.contents(of: database)))
            #expect(rebuilt.records.keys.sorted() == ["L2"])
        }
    }

    @Test func deletionsCarryTheirRecordTypeAndDesiredKeysAndTypesNarrowThePage() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            try await client.send(.post, Self.database + "records/modify", token: token, json: CloudKitRouteTests.seed)
            let items = try CloudKitRouteTests.json(
                try await client.send(
                    .post, Self.database + "records/changes", token: token, json: #"{"desiredRecordTypes": ["Items"], "desiredKeys": ["name"]}"#))
            let records = items["records"]?.arrayValue ?? []
            #expect(records.map { $0["recordName"] } == [.string("I1"), .string("I2")])
            #expect(records.allSatisfy { $0["fields"]?["list"] == nil && $0["fields"]?["name"] != nil })
            guard case .string(let syncToken)? = items["syncToken"] else { Issue.record("no syncToken"); return }
            try await client.send(
                .post, Self.database + "records/modify", token: token,
                json: #"{"operations": [{"operationType": "forceDelete", "record": {"recordName": "L1"}}]}"#)
            let deletions = try CloudKitRouteTests.json(
                try await client.send(.post, Self.database + "records/changes", token: token, json: #"{"syncToken": "\#(syncToken)"}"#))
            #expect(
                deletions["records"]?.serialized
                    == #"[{"deleted":true,"recordName":"L1","recordType":"Lists","zoneID":{"ownerRecordName":"__defaultOwner__","zoneName":"_defaultZone"}},{"deleted":true,"recordName":"I2","recordType":"Items","zoneID":{"ownerRecordName":"__defaultOwner__","zoneName":"_defaultZone"}},{"deleted":true,"recordName":"I1","recordType":"Items","zoneID":{"ownerRecordName":"__defaultOwner__","zoneName":"_defaultZone"}}]"#
            )
            #expect(deletions["zoneID"]?["zoneName"] == .string("_defaultZone"))
        }
    }

    @Test func badRequestsAreRefusedWithCloudKitsCodes() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let cases: [(String, HTTPResponse.Status, String)] = [
                (#"{"syncToken": "not-a-token"}"#, .badRequest, "BAD_REQUEST"),
                (#"{"syncToken": 7}"#, .badRequest, "BAD_REQUEST"),
                (#"{"resultsLimit": 0}"#, .badRequest, "BAD_REQUEST"),
                (#"{"desiredRecordTypes": "Items"}"#, .badRequest, "BAD_REQUEST"),
                (#"{"zoneID": {"zoneName": "Elsewhere"}}"#, .notFound, "ZONE_NOT_FOUND"),
            ]
            for (body, status, code) in cases {
                try CloudKitRouteTests.expectError(try await client.send(.post, Self.database + "records/changes", token: token, json: body), status, code)
            }
            #expect(try await client.send(.post, Self.database + "records/changes", token: nil, json: "{}").status == .unauthorized)
        }
    }

    @Test func zoneChangesNameTheDefaultZoneUntilNothingChanged() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            try await client.send(.post, Self.database + "records/modify", token: token, json: CloudKitRouteTests.seed)
            let all = try CloudKitRouteTests.json(try await client.send(.post, Self.database + "zones/changes", token: token, json: "{}"))
            #expect(all["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("_defaultZone")])
            guard case .string(let syncToken)? = all["syncToken"] else { Issue.record("no syncToken"); return }
            let none = try CloudKitRouteTests.json(
                try await client.send(.post, Self.database + "zones/changes", token: token, json: #"{"syncToken": "\#(syncToken)"}"#))
            #expect(none["zones"]?.arrayValue?.isEmpty == true)
            #expect(none["moreComing"] == .bool(false))
            try await client.send(
                .post, Self.database + "records/modify", token: token,
                json: #"{"operations": [{"operationType": "forceDelete", "record": {"recordName": "I1"}}]}"#)
            let changed = try CloudKitRouteTests.json(
                try await client.send(.post, Self.database + "zones/changes", token: token, json: #"{"syncToken": "\#(syncToken)"}"#))
            #expect(changed["zones"]?.arrayValue?.count == 1)
        }
    }

    static let privateDatabase = "/database/1/iCloud.shop/development/private/"
    static let work = #"{"zoneName": "Work"}"#

    /// The `syncToken` of the `records/changes` page `body` asks for in `database`.
    static func syncToken(_ client: some TestClientProtocol, _ database: String, token: String, _ body: String) async throws -> String {
        let page = try CloudKitRouteTests.json(try await client.send(.post, database + "records/changes", token: token, json: body))
        guard case .string(let syncToken)? = page["syncToken"] else { throw RecordError(.internalError, "no syncToken in \(page.serialized)") }
        return syncToken
    }

    @Test func aChangedRecordIsWhatLookupReturnsForItAuthorsIncluded() async throws {
        let fixture = try ServiceFixture()
        let ann = try fixture.token(for: .user("ann"), label: "ann")
        try await fixture.test { client in
            try await client.send(.post, Self.privateDatabase + "records/modify", token: ann, json: CloudKitRouteTests.seed)
            let changes = try CloudKitRouteTests.json(try await client.send(.post, Self.privateDatabase + "records/changes", token: ann, json: "{}"))
            let lookup = try CloudKitRouteTests.json(
                try await client.send(
                    .post, Self.privateDatabase + "records/lookup", token: ann,
                    json: #"{"records": [{"recordName": "L1"}, {"recordName": "I1"}, {"recordName": "I2"}]}"#))
            let changed = changes["records"]?.arrayValue ?? []
            #expect(changed.count == 3)
            for record in lookup["records"]?.arrayValue ?? [] {
                #expect(record["created"]?["userRecordName"] != nil)
                #expect(changed.contains(record), "\(record.serialized) is not in \(changes.serialized)")
            }
        }
    }

    @Test func theRetentionPrunesPrivateDatabasesAndTheirCustomZones() async throws {
        let fixture = try ServiceFixture()
        let ann = try fixture.token(for: .user("ann"), label: "ann")
        try await fixture.test { client in
            try await client.send(
                .post, Self.privateDatabase + "zones/modify", token: ann,
                json: #"{"operations": [{"operationType": "create", "zone": {"zoneID": \#(Self.work)}}]}"#)
            var old: [String: String] = [:]
            for zone in [#"{"zoneName": "_defaultZone"}"#, Self.work] {
                let modify = Self.privateDatabase + "records/modify"
                try await client.send(
                    .post, modify, token: ann,
                    json: #"{"zoneID": \#(zone), "operations": [\#(CloudKitRouteTests.create("Lists", "L1", #"{"name": {"value": "Groceries"}}"#))]}"#)
                old[zone] = try await Self.syncToken(client, Self.privateDatabase, token: ann, #"{"zoneID": \#(zone)}"#)
                try await client.send(
                    .post, modify, token: ann, json: #"{"zoneID": \#(zone), "operations": [{"operationType": "forceDelete", "record": {"recordName": "L1"}}]}"#)
                try await client.send(
                    .post, modify, token: ann,
                    json: #"{"zoneID": \#(zone), "operations": [\#(CloudKitRouteTests.create("Lists", "L2", #"{"name": {"value": "Tools"}}"#))]}"#)
            }
            await RetentionChore.changeLog(state: fixture.state, logger: Logger(label: "test")).removeKept(before: Date().addingTimeInterval(3600))
            for (zone, token) in old {
                let expired = try await client.send(
                    .post, Self.privateDatabase + "records/changes", token: ann, json: #"{"zoneID": \#(zone), "syncToken": "\#(token)"}"#)
                try CloudKitRouteTests.expectError(expired, .gone, "CHANGE_TOKEN_EXPIRED")
            }
        }
    }

    @Test func aTokenOfAnotherDatabaseExpiresAndGraphQLRefusesACustomZonesToken() async throws {
        let fixture = try ServiceFixture()
        let ann = try fixture.token(for: .user("ann"), label: "ann")
        try await fixture.test { client in
            try await client.send(.post, Self.database + "records/modify", token: ann, json: CloudKitRouteTests.seed)
            try await client.send(
                .post, Self.privateDatabase + "records/modify", token: ann,
                json: CloudKitRouteTests.modify(CloudKitRouteTests.create("Lists", "P1", #"{"name": {"value": "Mine"}}"#)))
            // The private feed's token names a position the public log has too.
            let privateToken = try await Self.syncToken(client, Self.privateDatabase, token: ann, "{}")
            let crossed = try await client.send(.post, Self.database + "records/changes", token: ann, json: #"{"syncToken": "\#(privateToken)"}"#)
            try CloudKitRouteTests.expectError(crossed, .gone, "CHANGE_TOKEN_EXPIRED")

            try await client.send(
                .post, Self.privateDatabase + "zones/modify", token: ann,
                json: #"{"operations": [{"operationType": "create", "zone": {"zoneID": \#(Self.work)}}]}"#)
            let workToken = try await Self.syncToken(client, Self.privateDatabase, token: ann, #"{"zoneID": \#(Self.work)}"#)
            let graphQL = try await client.send(
                .post, Self.privateDatabase + "graphql", token: ann, json: #"{"query": "{ changes(since: \"\#(workToken)\") { syncToken } }"}"#)
            #expect(graphQL.text.contains(#""code":"invalidArguments""#) && graphQL.text.contains("custom zone"), "\(graphQL.text)")
            #expect(graphQL.text.contains(#""data":null"#), "\(graphQL.text)")
        }
    }
}
