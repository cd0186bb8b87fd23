import Foundation
import HTTPTypes
import HummingbirdTesting
import RecordKit
import TestSupport
import Testing

@testable import RecordService

/// Custom zones through CloudKit Web Services: created and deleted with `zones/modify`, listed,
/// looked up and followed with `zones/changes`; records, queries, lookups and change feeds per
/// zone; deleting a zone deletes its records.
@Suite struct CloudKitZoneTests {
    static let database = CloudKitRouteTests.database
    static let work = #"{"zoneName": "Work"}"#

    static func post(_ client: some TestClientProtocol, _ path: String, _ token: String, _ body: String) async throws -> JSONValue {
        let response = try await client.send(.post, database + path, token: token, json: body)
        #expect(response.status == .ok, "\(path): \(response.text)")
        return try CloudKitRouteTests.json(response)
    }

    static func createWork(_ client: some TestClientProtocol, _ token: String) async throws -> JSONValue {
        try await post(client, "zones/modify", token, #"{"operations": [{"operationType": "create", "zone": {"zoneID": \#(work)}}]}"#)
    }

    @Test func aCustomZoneHoldsItsOwnRecordsUnderTheSameNames() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let created = try await Self.createWork(client, token)
            #expect(created["zones"]?.arrayValue?.first?["zoneID"]?["zoneName"] == .string("Work"))
            let listed = try await Self.post(client, "zones/list", token, "{}")
            #expect(listed["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("_defaultZone"), .string("Work")])
            _ = try await Self.post(client, "records/modify", token, CloudKitRouteTests.seed)
            let inWork = CloudKitRouteTests.modify(CloudKitRouteTests.create("Lists", "L1", #"{"name": {"value": "Office"}}"#))
                .replacingOccurrences(of: #"{"atomic": true, "#, with: #"{"zoneID": \#(Self.work), "atomic": true, "#)
            let saved = try await Self.post(client, "records/modify", token, inWork)
            #expect(saved["records"]?.arrayValue?.first?["zoneID"]?["zoneName"] == .string("Work"))
            let query = #"{"zoneID": \#(Self.work), "query": {"recordType": "Lists"}}"#
            let workLists = try await Self.post(client, "records/query", token, query)
            #expect(workLists["records"]?.arrayValue?.map { $0["fields"]?["name"]?["value"] } == [.string("Office")])
            let defaultLists = try await Self.post(client, "records/query", token, #"{"query": {"recordType": "Lists"}}"#)
            #expect(defaultLists["records"]?.arrayValue?.map { $0["fields"]?["name"]?["value"] } == [.string("Groceries")])
            let lookup = try await Self.post(
                client, "records/lookup", token, #"{"zoneID": \#(Self.work), "records": [{"recordName": "L1"}, {"recordName": "I1"}]}"#)
            #expect(lookup["records"]?.arrayValue?.map { $0["serverErrorCode"] } == [nil, .string("NOT_FOUND")])
            let changes = try await Self.post(client, "records/changes", token, #"{"zoneID": \#(Self.work)}"#)
            #expect(changes["records"]?.arrayValue?.map { $0["recordName"] } == [.string("L1")])
            #expect(changes["zoneID"]?["zoneName"] == .string("Work"))
            // A token of one zone is not one of another.
            guard case .string(let workToken)? = changes["syncToken"] else { Issue.record("no syncToken"); return }
            let crossed = try await client.send(.post, Self.database + "records/changes", token: token, json: #"{"syncToken": "\#(workToken)"}"#)
            try CloudKitRouteTests.expectError(crossed, .badRequest, "BAD_REQUEST")
        }
    }

    @Test func deletingAZoneDeletesItsRecords() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            _ = try await Self.createWork(client, token)
            let inWork = #"{"zoneID": \#(Self.work), "operations": [\#(CloudKitRouteTests.create("Lists", "L1", #"{"name": {"value": "Office"}}"#))]}"#
            _ = try await Self.post(client, "records/modify", token, inWork)
            guard case .string(let workToken)? = try await Self.post(client, "records/changes", token, #"{"zoneID": \#(Self.work)}"#)["syncToken"] else {
                Issue.record("no syncToken")
                return
            }
            let deleted = try await Self.post(
                client, "zones/modify", token, #"{"operations": [{"operationType": "delete", "zone": {"zoneID": \#(Self.work)}}]}"#)
            #expect(deleted["zones"]?.arrayValue?.first?["deleted"] == .bool(true))
            let gone = try await client.send(
                .post, Self.database + "records/query", token: token, json: #"{"zoneID": \#(Self.work), "query": {"recordType": "Lists"}}"#)
            try CloudKitRouteTests.expectError(gone, .notFound, "ZONE_NOT_FOUND")
            let lookup = try await Self.post(client, "zones/lookup", token, #"{"zones": [\#(Self.work), {"zoneName": "_defaultZone"}]}"#)
            #expect(lookup["zones"]?.arrayValue?.map { $0["serverErrorCode"] } == [.string("ZONE_NOT_FOUND"), nil])
            _ = try await Self.createWork(client, token)
            let again = try await Self.post(client, "records/query", token, #"{"zoneID": \#(Self.work), "query": {"recordType": "Lists"}}"#)
            #expect(again["records"]?.arrayValue?.isEmpty == true)
            // The token of the zone deleted has expired in the zone made again under its name.
            let stale = try await client.send(
                .post, Self.database + "records/changes", token: token, json: #"{"zoneID": \#(Self.work), "syncToken": "\#(workToken)"}"#)
            try CloudKitRouteTests.expectError(stale, .gone, "CHANGE_TOKEN_EXPIRED")
            let again2 = try await Self.post(
                client, "zones/modify", token, #"{"operations": [{"operationType": "delete", "zone": {"zoneID": {"zoneName": "_defaultZone"}}}]}"#)
            #expect(again2["zones"]?.arrayValue?.first?["serverErrorCode"] == .string("BAD_REQUEST"))
        }
    }

    /// A zone of the public database holds every user's records: only its owner (an admin)
    /// creates or deletes one; a user manages the zones of their private database.
    @Test func onlyTheDatabasesOwnerCreatesAndDeletesItsZones() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        let ann = try fixture.token(for: .user("ann"), label: "ann")
        try await fixture.test { client in
            _ = try await Self.createWork(client, token)
            let annsList = #"{"zoneID": \#(Self.work), "operations": [\#(CloudKitRouteTests.create("Lists", "A1", #"{"name": {"value": "Ann's"}}"#))]}"#
            #expect(try await client.send(.post, Self.database + "records/modify", token: ann, json: annsList).status == .ok)
            for operation in ["create", "delete"] {
                let zones = #"{"operations": [{"operationType": "\#(operation)", "zone": {"zoneID": {"zoneName": "Work"}}}]}"#
                let refused = try await client.send(.post, Self.database + "zones/modify", token: ann, json: zones)
                try CloudKitRouteTests.expectError(refused, .forbidden, "ACCESS_DENIED")
            }
            let kept = try await Self.post(client, "records/query", token, #"{"zoneID": \#(Self.work), "query": {"recordType": "Lists"}}"#)
            #expect(kept["records"]?.arrayValue?.count == 1)
            let privateDatabase = CloudKitChangesTests.privateDatabase
            for operation in ["create", "delete"] {
                let zones = #"{"operations": [{"operationType": "\#(operation)", "zone": {"zoneID": {"zoneName": "Work"}}}]}"#
                let answer = try await client.send(.post, privateDatabase + "zones/modify", token: ann, json: zones)
                #expect(answer.status == .ok && !answer.text.contains("serverErrorCode"), "\(answer.text)")
            }
        }
    }

    @Test func zoneChangesNameTheZonesCreatedChangedAndDeletedAfterTheToken() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            _ = try await Self.createWork(client, token)
            let all = try await Self.post(client, "zones/changes", token, "{}")
            #expect(all["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("_defaultZone"), .string("Work")])
            guard case .string(let first)? = all["syncToken"] else { Issue.record("no syncToken"); return }
            #expect(try await Self.post(client, "zones/changes", token, #"{"syncToken": "\#(first)"}"#)["zones"]?.arrayValue?.isEmpty == true)
            let inWork = #"{"zoneID": \#(Self.work), "operations": [\#(CloudKitRouteTests.create("Lists", "L1", #"{"name": {"value": "Office"}}"#))]}"#
            _ = try await Self.post(client, "records/modify", token, inWork)
            let changed = try await Self.post(client, "zones/changes", token, #"{"syncToken": "\#(first)"}"#)
            #expect(changed["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("Work")])
            _ = try await Self.post(client, "zones/modify", token, #"{"operations": [{"operationType": "delete", "zone": {"zoneID": \#(Self.work)}}]}"#)
            let removed = try await Self.post(client, "zones/changes", token, #"{"syncToken": "\#(first)"}"#)
            #expect(removed["zones"]?.arrayValue?.map { $0["deleted"] } == [.bool(true)])
            // Made again under its name: named once, as it is now, not also as deleted after it.
            _ = try await Self.createWork(client, token)
            let remade = try await Self.post(client, "zones/changes", token, #"{"syncToken": "\#(first)"}"#)
            #expect(remade["zones"]?.arrayValue?.map { $0["zoneID"]?["zoneName"] } == [.string("Work")])
            #expect(remade["zones"]?.arrayValue?.first?["deleted"] == nil)
        }
    }

    /// A zones/changes token is its database's: another database's (here production's, and
    /// another user's private one) has expired there, rather than reading as every zone of the
    /// token deleted.
    @Test func aZoneChangesTokenOfAnotherDatabaseHasExpiredThere() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        let ann = try fixture.token(for: .user("ann"), label: "ann")
        let bob = try fixture.token(for: .user("bob"), label: "bob")
        try await fixture.test { client in
            _ = try await Self.createWork(client, token)
            guard case .string(let syncToken)? = try await Self.post(client, "zones/changes", token, "{}")["syncToken"] else {
                Issue.record("no syncToken")
                return
            }
            let body = #"{"syncToken": "\#(syncToken)"}"#
            #expect(try await Self.post(client, "zones/changes", token, body)["zones"]?.arrayValue?.isEmpty == true)
            let production = try await client.send(.post, CloudKitRouteTests.production + "zones/changes", token: token, json: body)
            try CloudKitRouteTests.expectError(production, .gone, "CHANGE_TOKEN_EXPIRED")
            let privateDatabase = CloudKitChangesTests.privateDatabase
            let zones = #"{"operations": [{"operationType": "create", "zone": {"zoneID": \#(Self.work)}}]}"#
            #expect(try await client.send(.post, privateDatabase + "zones/modify", token: ann, json: zones).status == .ok)
            let anns = try CloudKitRouteTests.json(try await client.send(.post, privateDatabase + "zones/changes", token: ann, json: "{}"))
            let crossed = try await client.send(
                .post, privateDatabase + "zones/changes", token: bob, json: #"{"syncToken": \#(anns["syncToken"]?.serialized ?? "null")}"#)
            try CloudKitRouteTests.expectError(crossed, .gone, "CHANGE_TOKEN_EXPIRED")
        }
    }

    /// A reference points into its record's zone: one naming another zone is refused, not
    /// pointed at the record of that name in this zone.
    @Test func aReferenceNamingAnotherZoneIsRefused() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            _ = try await Self.createWork(client, token)
            _ = try await Self.post(client, "records/modify", token, CloudKitRouteTests.seed)
            func item(zone: String) -> String {
                let fields = #"{"name": {"value": "Pen"}, "list": {"value": {"recordName": "L1", "action": "NONE", "zoneID": {"zoneName": "\#(zone)"}}}}"#
                return #"{"zoneID": \#(Self.work), "operations": [\#(CloudKitRouteTests.create("Items", "W1", fields))]}"#
            }
            let refused = try await client.send(.post, Self.database + "records/modify", token: token, json: item(zone: "_defaultZone"))
            #expect(try CloudKitRouteTests.operationCodes(refused) == ["BAD_REQUEST"])
            #expect(refused.text.contains("zone"), "\(refused.text)")
            #expect(try await client.send(.post, Self.database + "records/modify", token: token, json: item(zone: "Work")).status == .ok)
        }
    }

    /// `zoneWide` reads every zone: their records in the query's order, each with its zone,
    /// paged with continuation markers that keep each zone's position — a zone created between
    /// pages is read from its start. A `zoneID` overrides it, as CloudKit says.
    @Test func aZoneWideQueryReadsEveryZoneInTheQuerysOrder() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            _ = try await Self.post(client, "records/modify", token, CloudKitRouteTests.seed)
            var seen: [String] = []
            func page(after marker: String?, limit: Int = 2) async throws -> String? {
                let after = marker.map { #", "continuationMarker": "\#($0)""# } ?? ""
                let body = #"{"zoneWide": true, "resultsLimit": \#(limit)\#(after), "query": {"recordType": "Items", "sortBy": [{"fieldName": "name"}]}}"#
                let page = try await Self.post(client, "records/query", token, body)
                for record in page["records"]?.arrayValue ?? [] {
                    seen.append("\(record["zoneID"]?["zoneName"]?.stringValue ?? "?")/\(record["fields"]?["name"]?["value"]?.stringValue ?? "?")")
                }
                return page["continuationMarker"]?.stringValue
            }
            // The default zone alone: Apples, and a marker (Milk is to come).
            var marker = try await page(after: nil, limit: 1)
            _ = try await Self.createWork(client, token)
            let items = [("W1", "Binder"), ("W2", "Pens"), ("I1", "Coffee"), ("W3", "Zinc"), ("W4", "Aardvark")].map { name, title in
                CloudKitRouteTests.create("Items", name, #"{"name": {"value": "\#(title)"}}"#)
            }
            _ = try await Self.post(client, "records/modify", token, #"{"zoneID": \#(Self.work), "operations": [\#(items.joined(separator: ", "))]}"#)
            while let next = marker, seen.count < 10 { marker = try await page(after: next) }
            // Work, created after the first page, is read from its start: Aardvark comes after Apples.
            #expect(seen == ["_defaultZone/Apples", "Work/Aardvark", "Work/Binder", "Work/Coffee", "_defaultZone/Milk", "Work/Pens", "Work/Zinc"])
            seen = []
            marker = try await page(after: nil)
            while let next = marker, seen.count < 10 { marker = try await page(after: next) }
            #expect(seen == ["Work/Aardvark", "_defaultZone/Apples", "Work/Binder", "Work/Coffee", "_defaultZone/Milk", "Work/Pens", "Work/Zinc"])
            let inWork = #"{"zoneWide": true, "zoneID": \#(Self.work), "query": {"recordType": "Lists"}}"#
            #expect(try await Self.post(client, "records/query", token, inWork)["records"]?.arrayValue?.count == 0)
            let foreign = #"{"zoneWide": true, "continuationMarker": "bm90LWEtbWFya2Vy", "query": {"recordType": "Items"}}"#
            try CloudKitRouteTests.expectError(
                try await client.send(.post, Self.database + "records/query", token: token, json: foreign), .badRequest, "BAD_REQUEST")
            let malformed = try await client.send(
                .post, Self.database + "records/query", token: token, json: #"{"zoneWide": 1, "query": {"recordType": "Lists"}}"#)
            try CloudKitRouteTests.expectError(malformed, .badRequest, "BAD_REQUEST")
        }
    }

    @Test func anUnknownZoneIsZoneNotFoundEverywhere() async throws {
        let fixture = try ServiceFixture()
        let token = fixture.adminToken
        try await fixture.test { client in
            let elsewhere = #"{"zoneName": "Elsewhere"}"#
            for (path, body) in [
                ("records/query", #"{"zoneID": \#(elsewhere), "query": {"recordType": "Lists"}}"#),
                ("records/lookup", #"{"zoneID": \#(elsewhere), "records": [{"recordName": "L1"}]}"#),
                ("records/modify", #"{"zoneID": \#(elsewhere), "operations": [\#(CloudKitRouteTests.create("Lists", "L1", "{}"))]}"#),
                ("records/changes", #"{"zoneID": \#(elsewhere)}"#),
            ] {
                let answer = try await client.send(.post, Self.database + path, token: token, json: body)
                try CloudKitRouteTests.expectError(answer, .notFound, "ZONE_NOT_FOUND")
                #expect(try CloudKitRouteTests.json(answer)["reason"] == .string("there is no zone named 'Elsewhere'; create it with zones/modify"))
            }
        }
    }

    /// A zone deleted after a zone-wide query listed the zones, before it read that zone's page,
    /// is left out of the page (as the next page leaves it out), not an error naming a zone the
    /// client never asked for; so is one created again under its name since (another zone, not
    /// the one whose position the cursor holds).
    @Test func aZoneDeletedAfterTheListingIsLeftOutOfAZoneWideQuery() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("zones-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let database = try RecordDatabase(path: folder.appendingPathComponent("shop.sqlite").path, bootstrap: .shopping)
        try database.createZone("Work")
        let listed = try database.zones()
        try database.deleteZone("Work")
        let work = try #require(listed.first { $0.name == "Work" })
        let home = try #require(listed.first { $0.name == RecordZone.defaultName })
        #expect(try CloudKitController.database(of: work, in: database) == nil)
        #expect(try CloudKitController.database(of: home, in: database) != nil)
        // Created again under its name: another zone, still not the one listed.
        let again = try database.createZone("Work")
        #expect(try CloudKitController.database(of: work, in: database) == nil)
        #expect(try CloudKitController.database(of: again, in: database) != nil)
    }
}
