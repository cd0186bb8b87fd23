import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// The change feed (``ChangePage``): pages after a token that bring a copy to the current state,
/// and the floor that keeps the log bounded.
@Suite struct ChangeFeedTests {
    /// A copy of the database kept only from change pages.
    struct Replica {
        var records: [String: Record] = [:]
        var token: ChangeToken?

        /// Applies pages of `limit` until none is coming; returns how many pages it took.
        @discardableResult
        mutating func sync(from db: RecordDatabase, limit: Int) throws -> Int {
            var pages = 0
            while true {
                let page = try db.changePage(ChangeFeedRequest(after: token, limit: limit))
                pages += 1
                #expect(page.entries.count <= limit)
                for entry in page.entries {
                    switch entry {
                    case .saved(let record, _): records[record.recordName] = record
                    case .deleted(let recordName, _): records[recordName] = nil
                    }
                }
                token = page.next
                if !page.moreComing { return pages }
            }
        }
    }

    /// Every record of the database, by recordName.
    static func contents(of db: RecordDatabase) throws -> [String: Record] {
        let records = try db.records(matching: Query("Lists")) + db.records(matching: Query("Items"))
        return Dictionary(uniqueKeysWithValues: records.map { ($0.recordName, $0) })
    }

    @Test func aFetchWithoutTokenNamesEveryRecordOnceAsItIsNow() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.item("I1", "Milk", in: "L1"))
        let renamed = try db.update(recordType: "Lists", recordName: "L1", fields: ["name": .string("Food")])
        try db.save(Shopping.list("L2", "Hardware"))
        try db.delete(recordName: "L2")
        let page = try db.changePage(ChangeFeedRequest(after: nil, limit: 100))
        #expect(page.entries.map(\.recordName) == ["I1", "L1", "L2"])
        guard case .saved(let list, _) = page.entries[1] else {
            Issue.record("L1 should be saved")
            return
        }
        #expect(list.changeTag == renamed.changeTag)
        #expect(list.fields["name"] == .string("Food"))
        #expect(page.entries[2] == .deleted(recordName: "L2", recordType: "Lists"))
        #expect(!page.moreComing)
        #expect(try db.changePage(ChangeFeedRequest(after: page.next, limit: 100)).entries.isEmpty)
    }

    @Test func aCascadeComesAsTombstonesWithTheirRecordTypes() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.modify([.create(Shopping.list("L1", "Groceries")), .create(Shopping.item("I1", "Milk", in: "L1"))])
        let token = try db.changePage(ChangeFeedRequest(after: nil, limit: 100)).next
        try db.delete(recordName: "L1")
        let page = try db.changePage(ChangeFeedRequest(after: token, limit: 100))
        #expect(page.entries == [.deleted(recordName: "L1", recordType: "Lists"), .deleted(recordName: "I1", recordType: "Items")])
    }

    @Test func desiredRecordTypesLeaveTheOthersOutAndTheTokenStillReachesTheEnd() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.modify([.create(Shopping.list("L1", "Groceries")), .create(Shopping.item("I1", "Milk", in: "L1")), .create(Shopping.list("L2", "Tools"))])
        let page = try db.changePage(ChangeFeedRequest(after: nil, limit: 100, recordTypes: ["Items"]))
        #expect(page.entries.map(\.recordName) == ["I1"])
        #expect(page.next == (try db.read { try $0.changeLogEnd() }))
    }

    @Test func aTokenThatIsNotOneIsRefusedAndARoundTripKeepsTheSequence() throws {
        #expect(try ChangeToken(text: ChangeToken(sequence: 42).text) == ChangeToken(sequence: 42))
        #expect(try ChangeToken(text: ChangeToken(sequence: 42, zone: 7).text) == ChangeToken(sequence: 42, zone: 7))
        for text in ["", "abc", "42", ChangeToken(sequence: 1).text + "x", String(repeating: "A", count: 200)] {
            #expect { try ChangeToken(text: text) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
        }
    }

    @Test func aLimitBelowOneIsRefused() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        #expect { try db.changePage(ChangeFeedRequest(after: nil, limit: 0)) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
    }

    /// 2,000 random creates, updates, deletes and cascades in batches; replicas syncing at random
    /// moments with small pages (and new ones starting from no token) end equal to the database.
    @Test func replicasApplyingOnlyPagesEndEqualToTheDatabase() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        var random = SplitMix64(state: 14)
        var replicas = [Replica()]
        var lists: [String] = []
        var items: [String] = []
        var counter = 0
        for _ in 0..<500 {
            var operations: [RecordOperation] = []
            // A list deleted ends the batch: its items go with it.
            batch: for _ in 0..<Int.random(in: 1...6, using: &random) {
                counter += 1
                switch Int.random(in: 0..<10, using: &random) {
                case 0...1:
                    operations.append(.create(Shopping.list("L\(counter)", "List \(counter)")))
                    lists.append("L\(counter)")
                case 2...4 where !lists.isEmpty:
                    let list = lists.randomElement(using: &random)!
                    operations.append(.create(Shopping.item("I\(counter)", "Item \(counter)", in: list)))
                    items.append("I\(counter)")
                case 5...6 where !items.isEmpty:
                    operations.append(
                        .update(recordType: "Items", recordName: items.randomElement(using: &random)!, fields: ["name": .string("Item \(counter)")]))
                case 7 where !lists.isEmpty:
                    operations.append(
                        .update(recordType: "Lists", recordName: lists.randomElement(using: &random)!, fields: ["name": .string("List \(counter)")]))
                case 8 where !items.isEmpty:
                    operations.append(.delete(recordName: items.remove(at: Int.random(in: 0..<items.count, using: &random))))
                case 9 where lists.count > 3:
                    // A cascade: the list's items go with it.
                    let list = lists.remove(at: Int.random(in: 0..<lists.count, using: &random))
                    operations.append(.delete(recordName: list))
                    break batch
                default:
                    operations.append(.create(Shopping.list("L\(counter)", "List \(counter)")))
                    lists.append("L\(counter)")
                }
            }
            try db.modify(operations)
            let existing = Set(try Self.contents(of: db).keys)
            items.removeAll { !existing.contains($0) }
            if Int.random(in: 0..<10, using: &random) == 0 {
                let index = Int.random(in: 0..<replicas.count, using: &random)
                try replicas[index].sync(from: db, limit: Int.random(in: 1...9, using: &random))
            }
            if Int.random(in: 0..<60, using: &random) == 0 { replicas.append(Replica()) }
        }
        let current = try Self.contents(of: db)
        #expect(current.count > 100)
        for var replica in replicas {
            let pages = try replica.sync(from: db, limit: 7)
            #expect(pages >= 1)
            #expect(replica.records == current)
        }
    }

    @Test func aTokenBelowTheFloorExpiresAndAFetchFromTheStartRebuilds() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        var replica = Replica()
        try db.modify([.create(Shopping.list("L1", "Groceries")), .create(Shopping.item("I1", "Milk", in: "L1")), .create(Shopping.list("L2", "Tools"))])
        try replica.sync(from: db, limit: 2)
        let old = try #require(replica.token)
        try db.delete(recordName: "L1")
        try db.update(recordType: "Lists", recordName: "L2", fields: ["name": .string("Hardware")])
        try db.save(Shopping.list("L3", "Garden"))
        let end = try db.read { try $0.changeLogEnd() }
        let removed = try db.pruneChanges(through: end.sequence - 1)
        #expect(removed >= 3)
        #expect(try db.changeLogFloor() == end.sequence - 1)
        #expect { try db.changePage(ChangeFeedRequest(after: old, limit: 10)) } throws: {
            let error = $0 as? RecordError
            return error?.reason == .changeTokenExpired && error?.remedy == .fetchChangesFromStart
        }
        var rebuilt = Replica()
        try rebuilt.sync(from: db, limit: 1)
        #expect(rebuilt.records == (try Self.contents(of: db)))
        #expect(try db.changePage(ChangeFeedRequest(after: end, limit: 10)).entries.isEmpty)
    }

    @Test func sequenceNumbersNeverRestartAfterPruning() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.delete(recordName: "L1")
        let end = try db.read { try $0.changeLogEnd() }
        try db.pruneChanges(through: .max)
        // The last entry stays, so the next change is numbered after it.
        try db.save(Shopping.list("L2", "Tools"))
        let page = try db.changePage(ChangeFeedRequest(after: end, limit: 10))
        #expect(page.entries.map(\.recordName) == ["L2"])
        #expect(page.next.sequence > end.sequence)
        #expect(try db.changes().map(\.sequence).allSatisfy { $0 >= end.sequence })
    }

    @Test func aTokenPastTheEndOfTheLogExpires() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        #expect { try db.changePage(ChangeFeedRequest(after: ChangeToken(sequence: 99), limit: 10)) } throws: {
            ($0 as? RecordError)?.reason == .changeTokenExpired
        }
    }

    @Test func pruningByAgeKeepsTheRecentChangesAndTheLastSaveOfEveryRecord() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.list("L2", "Tools"))
        try db.delete(recordName: "L2")
        #expect(try db.pruneChanges(olderThan: Date().addingTimeInterval(-3600)) == 0)
        #expect(try db.pruneChanges(olderThan: Date().addingTimeInterval(3600)) == 1)
        #expect(try db.changes().map { "\($0.kind.rawValue) \($0.recordName)" } == ["saved L1", "deleted L2"])
    }

    @Test func aTokenOfAnotherDatabaseOrZoneIsRefusedAsExpiredAndItsOwnTextServes() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        for name in ["L1", "L2", "L3"] { try db.save(Shopping.list(name, name)) }
        let other = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try other.save(Shopping.list("O1", "Other"))
        let work = try db.zone(try db.createZone("Work").name).database
        try work.save(Shopping.list("W1", "Work"))
        for (foreign, from) in [
            (try other.changePage(ChangeFeedRequest(after: nil, limit: 10)).next, "another database"),
            (try work.changePage(ChangeFeedRequest(after: nil, limit: 10)).next, "a custom zone"),
        ] {
            // Its position exists in this log too: read there, it would skip L1 silently.
            #expect(foreign.sequence < (try db.read { try $0.changeLogEnd() }).sequence, "\(from)")
            #expect("\(from)") { try db.changePage(ChangeFeedRequest(after: try ChangeToken(text: foreign.text), limit: 10)) } throws: {
                ($0 as? RecordError)?.reason == .changeTokenExpired && ($0 as? RecordError)?.remedy == .fetchChangesFromStart
            }
        }
        let own = try db.changePage(ChangeFeedRequest(after: nil, limit: 1)).next
        #expect(own.log != nil)
        #expect(try ChangeToken(text: own.text) == own)
        #expect(try db.changePage(ChangeFeedRequest(after: ChangeToken(text: own.text), limit: 10)).entries.map(\.recordName) == ["L2", "L3"])
    }

    @Test func pruningEveryZoneRaisesTheFloorOfTheDefaultAndEachCustomZone() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        try db.save(Shopping.list("D1", "Default"))
        let work = try db.zone(try db.createZone("Work").name).database
        try work.save(Shopping.list("W1", "Groceries"))
        let old = try work.changePage(ChangeFeedRequest(after: nil, limit: 10)).next
        try work.delete(recordName: "W1")
        try work.save(Shopping.list("W2", "Tools"))
        #expect(try db.pruneChangesInEveryZone(olderThan: Date().addingTimeInterval(-3600)) == 0)
        #expect(try db.pruneChangesInEveryZone(olderThan: Date().addingTimeInterval(3600)) == 2)
        #expect(try work.changeLogFloor() == 3)
        #expect(try db.changeLogFloor() == 1)
        #expect { try work.changePage(ChangeFeedRequest(after: old, limit: 10)) } throws: { ($0 as? RecordError)?.reason == .changeTokenExpired }
        var rebuilt = Replica()
        try rebuilt.sync(from: work, limit: 1)
        #expect(rebuilt.records.keys.sorted() == ["W2"])
    }

    @Test func aFetchFromTheStartAfterPruningPagesThroughWhatStaysBelowTheFloor() throws {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping)
        for number in 0..<10 { try db.save(Shopping.list("L\(number)", "List \(number)")) }
        try db.delete(recordName: "L3")
        try db.pruneChanges(through: .max)
        var replica = Replica()
        #expect(try replica.sync(from: db, limit: 2) == 5)
        #expect(replica.records == (try Self.contents(of: db)))

        // One that began before the floor moved again cannot go on: L0's deletion was pruned.
        let first = try db.changePage(ChangeFeedRequest(after: nil, limit: 2))
        #expect(first.entries.map(\.recordName) == ["L0", "L1"] && first.next.floor != nil)
        #expect(try db.changePage(ChangeFeedRequest(after: ChangeToken(text: first.next.text), limit: 2)).entries.map(\.recordName) == ["L2", "L4"])
        try db.delete(recordName: "L0")
        try db.save(Shopping.list("L10", "List 10"))
        try db.pruneChanges(through: .max)
        #expect { try db.changePage(ChangeFeedRequest(after: first.next, limit: 2)) } throws: {
            ($0 as? RecordError)?.reason == .changeTokenExpired
        }
    }
}
