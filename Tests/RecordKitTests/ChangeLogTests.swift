import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// The change log (`_changes`), which the engine writes itself in the transaction of each change.
@Suite struct ChangeLogTests {
    @Test func everyKindOfWriteLogsOneEntryWithTheStoredChangeTag() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let list = try db.save(Shopping.list("L1", "Groceries"))
        let item = try db.modify([.create(Shopping.item("I1", "Milk", in: "L1"))]).results[0].record
        let replaced = try db.modify([.save(Shopping.list("L1", "Food"))]).results[0].record
        let updated = try db.update(recordType: "Items", recordName: "I1", fields: ["name": .string("Oat milk")])
        try db.delete(recordName: "L1")
        let log = try db.changes()
        #expect(
            log.map { "\($0.kind.rawValue) \($0.recordType) \($0.recordName) \($0.changeTag ?? "-")" } == [
                "saved Lists L1 \(list.changeTag ?? "")",
                "saved Items I1 \(item?.changeTag ?? "")",
                "saved Lists L1 \(replaced?.changeTag ?? "")",
                "saved Items I1 \(updated.changeTag ?? "")",
                "deleted Lists L1 -",
                "deleted Items I1 -",
            ])
        #expect(log[3].at == updated.modifiedAt)
        #expect(log.allSatisfy { abs($0.at.timeIntervalSinceNow) < 60 })
    }

    @Test(arguments: ["quote\"d", "back\\slash", "single'quote/slash", "line\u{2028}separator", "family 👩‍👩‍👧", "é unicode ✓", "[\"json\", 1]"])
    func recordNamesThatNeedEscapingInJSONAreLoggedExactly(recordName: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list(recordName, "Groceries"))
        try db.delete(recordName: recordName)
        #expect(try db.changes().map(\.recordName) == [recordName, recordName])
    }

    @Test func aBatchLogsItsChangesInTheOrderItMadeThem() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.modify([.create(Shopping.list("L1", "Groceries"))] + (0..<300).map { .create(Shopping.item("I\($0)", "Item \($0)", in: "L1")) })
        let log = try db.changes(limit: 1000)
        #expect(log.map(\.recordName) == ["L1"] + (0..<300).map { "I\($0)" })
        #expect(log.map(\.sequence) == log.map(\.sequence).sorted())
    }

    @Test func aFailedBatchLogsNothing() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        #expect { try db.modify([.create(Shopping.item("I1", "Milk", in: "L1")), .create(Shopping.item("I2", "Tea", in: "nowhere"))]) } throws: {
            ($0 as? RecordError)?.code == .referenceViolation
        }
        #expect(try db.changes().map(\.recordName) == ["L1"])
    }

    /// Version 1 of the storage logged changes with triggers; opening such a file drops them, so
    /// each change is logged once, by the engine.
    @Test func aDatabaseFromTheTriggerLoggingVersionLogsEachChangeOnce() throws {
        let file = TemporaryDatabase()
        try file.open().save(Shopping.list("L1", "Groceries"))
        try file.executeSQL(
            """
            CREATE TRIGGER "_log(Items:insert)" AFTER INSERT ON "Items" BEGIN \
            INSERT INTO _changes(recordType, recordName, kind, changeTag, at) VALUES ('Items', NEW._recordName, 'saved', NEW._changeTag, NEW._modifiedAt); END;
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v2%';
            """)
        let reopened = try file.open()
        try reopened.save(Shopping.item("I1", "Milk", in: "L1"))
        #expect(try reopened.changes().map(\.recordName) == ["L1", "I1"])
        #expect(try file.fetchStrings("SELECT name FROM sqlite_schema WHERE type = 'trigger' AND name GLOB '_log(*)'").isEmpty)
    }

    /// Version 2 numbered the log with AUTOINCREMENT; opening such a file keeps every entry and
    /// numbers new ones after them.
    @Test func aDatabaseFromTheAutoincrementVersionKeepsItsLogAndItsOrder() throws {
        let file = TemporaryDatabase()
        try file.open().save(Shopping.list("L1", "Groceries"))
        try file.executeSQL(
            """
            CREATE TABLE _changes_v2 (seq INTEGER PRIMARY KEY AUTOINCREMENT, recordType TEXT NOT NULL, recordName TEXT NOT NULL, \
            kind TEXT NOT NULL CHECK (kind IN ('saved', 'deleted')), changeTag TEXT, at INTEGER NOT NULL);
            INSERT INTO _changes_v2 SELECT seq, recordType, recordName, kind, changeTag, at FROM _changes;
            INSERT INTO _changes_v2(seq, recordType, recordName, kind, changeTag, at) VALUES (41, 'Lists', 'gone', 'deleted', NULL, 0);
            DROP TABLE _changes;
            ALTER TABLE _changes_v2 RENAME TO _changes;
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v3%' OR identifier LIKE 'v7%';
            """)
        let reopened = try file.open()
        try reopened.save(Shopping.item("I1", "Milk", in: "L1"))
        let log = try reopened.changes()
        #expect(log.map(\.recordName) == ["L1", "gone", "I1"])
        #expect(log.map(\.sequence) == [1, 41, 42])
        #expect(try file.fetchStrings("SELECT sql FROM sqlite_schema WHERE name = '_changes'").allSatisfy { !$0.contains("AUTOINCREMENT") })
    }

    /// Version 6 kept no creators of deleted records; opening such a file adds the column, its
    /// old deletions (of unknown creators) stay, and new ones carry their creator.
    @Test func aDatabaseFromBeforeDeletionCreatorsLogsThemFromThenOn() throws {
        let file = TemporaryDatabase()
        let database = try file.open()
        try database.save(Shopping.list("L1", "Groceries"))
        try database.delete(recordName: "L1")
        try file.executeSQL(
            """
            ALTER TABLE _changes DROP COLUMN createdBy;
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v7%';
            """)
        let reopened = try file.open()
        _ = try reopened.write(access: .privateDatabase(of: "_ann")) { try $0.apply(.create(Shopping.list("L2", "Tools"))) }
        try reopened.delete(recordName: "L2")
        #expect(try reopened.changes().map(\.recordName) == ["L1", "L1", "L2", "L2"])
        #expect(try file.fetchStrings("SELECT coalesce(createdBy, '-') FROM _changes WHERE kind = 'deleted' ORDER BY seq") == ["-", "_ann"])
    }

    /// Version 5 had no log identity; opening such a file gives it one, which its new tokens
    /// carry, and the tokens it issued before (without one) still serve.
    @Test func aDatabaseFromBeforeLogIdentitiesGetsOneAndItsOldTokensStillServe() throws {
        let file = TemporaryDatabase()
        try file.open().save(Shopping.list("L1", "Groceries"))
        let identity = try file.fetchStrings("SELECT value FROM _meta WHERE key = 'changeLogIdentity'")
        #expect(identity.count == 1 && identity[0].count == 16)
        try file.executeSQL(
            """
            DELETE FROM _meta WHERE key = 'changeLogIdentity';
            DELETE FROM grdb_migrations WHERE identifier LIKE 'v6%';
            """)
        let reopened = try file.open()
        try reopened.save(Shopping.list("L2", "Tools"))
        let renewed = try file.fetchStrings("SELECT value FROM _meta WHERE key = 'changeLogIdentity'")
        #expect(renewed.count == 1 && renewed != identity)
        #expect(try reopened.changePage(ChangeFeedRequest(after: nil, limit: 10)).next.log == renewed.first)
        #expect(try reopened.changePage(ChangeFeedRequest(after: ChangeToken(sequence: 1), limit: 10)).entries.map(\.recordName) == ["L2"])
    }
}
