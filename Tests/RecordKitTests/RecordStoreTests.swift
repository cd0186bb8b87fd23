import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// `RecordDatabase` as a `RecordStore`: whole units of work, planned against a schema version.
@Suite struct RecordStoreTests {
    let store: any RecordStore
    let db: RecordDatabase

    init() throws {
        db = try RecordDatabase.inMemory(bootstrap: .shopping)
        store = db
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.item("I1", "Milk", in: "L1"))
    }

    @Test func aReadAtAnOldSchemaVersionRunsNothingAndReturnsTheCurrentSchema() async throws {
        let planned = try await store.schema()
        try db.addField(FieldDefinition("number", .int64), to: "Items")
        guard case .schemaChanged(let current) = try await store.read([.records(Query("Items"))], atSchemaVersion: planned.version) else {
            Issue.record("the read ran on a schema that moved")
            return
        }
        #expect(current.version == planned.version + 1)
        #expect(current.schema.recordType(named: "Items")?.field(named: "number") != nil)
    }

    @Test func eachReadSucceedsOrFailsOnItsOwn() async throws {
        guard
            case .completed(let results) = try await store.read(
                [.lookup(recordNames: ["I1", "nope"]), .records(Query("Nope"))], atSchemaVersion: nil
            )
        else { throw RecordError(.internalError, "no schema version was asked for") }
        #expect(try results[0].get() == .records([try #require(try db.fetch(recordName: "I1"))]))
        #expect(throws: RecordError.self) { try results[1].get() }
    }

    @Test func aBatchIsAtomicAndNamesTheWriteThatFailed() async throws {
        await #expect {
            _ = try await store.modify(
                [RecordWrite(.create(Shopping.list("L2", "Hardware"))), RecordWrite(.delete(recordName: "L2"), recordType: "Items")],
                atSchemaVersion: nil, transaction: nil, response: { _ in Data() }
            )
        } throws: { ($0 as? OperationFailure)?.index == 1 && ($0 as? OperationFailure)?.error.code == .unknownItem }
        #expect(try db.fetch(recordName: "L2") == nil, "the create rolled back with the failed delete")
    }

    @Test func aDeleteOfARecordAnEarlierCascadeRemovedIsSkippedWhenAsked() async throws {
        let writes = [RecordWrite(.delete(recordName: "L1")), RecordWrite(.delete(recordName: "I1"), skipsIfAlreadyDeleted: true)]
        let outcome = try await store.modify(writes, atSchemaVersion: nil, transaction: nil, response: { _ in Data() })
        #expect(outcome == .applied([.deleted(["L1", "I1"]), .deleted([])], response: Data()))
    }

    @Test func aRetryWithTheSameTransactionReturnsTheStoredResponseAndAppliesNothing() async throws {
        let key = try TransactionRequest(id: "T1", request: ["create L2"])
        let writes = [RecordWrite(.create(Shopping.list("L2", "Hardware")))]
        let first = try await store.modify(writes, atSchemaVersion: nil, transaction: key, response: { Data("\($0.count) saved".utf8) })
        #expect(first == .applied([.saved(try #require(try db.fetch(recordName: "L2")), json: nil)], response: Data("1 saved".utf8)))
        let retry = try await store.modify(writes, atSchemaVersion: nil, transaction: key, response: { _ in Data("ran again".utf8) })
        #expect(retry == .replayed(response: Data("1 saved".utf8)))
        await #expect {
            _ = try await store.modify(
                writes, atSchemaVersion: nil, transaction: try TransactionRequest(id: "T1", request: ["other"]), response: { _ in Data() })
        } throws: { ($0 as? RecordError)?.code == .transactionConflict }
    }

    @Test func theResponseClosuresOwnErrorRollsTheBatchBackAndComesOutUnchanged() async throws {
        struct TooLarge: Error, Equatable {}
        await #expect(throws: TooLarge()) {
            _ = try await store.modify([RecordWrite(.create(Shopping.list("L2", "Hardware")))], atSchemaVersion: nil, transaction: nil) { _ in
                throw TooLarge()
            }
        }
        #expect(try db.fetch(recordName: "L2") == nil)
    }
}
