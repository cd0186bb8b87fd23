import Foundation
import RecordKit
import TestSupport
import Testing

@testable import RecordService

/// The seven operation types with CloudKit's change-tag rules, atomic and not, applied to the
/// shopping schema (without its NOT EMPTY rules, so records may lack a name).
@Suite struct CloudKitModificationTests {
    /// The `records` the service answers `body` with, as `records/modify` gets them: an atomic
    /// batch's failure answered in place (``CloudKitModification/refusal``,
    /// ``CloudKitModification/atomicResults(failingWith:)``), the request's own thrown.
    static func modify(_ body: String, in db: RecordDatabase) throws -> [JSONValue] {
        let request = try CloudKitModifyRequest(try JSONValue.parse(Data(body.utf8)))
        let stored = try db.fetch(recordNames: request.untypedRecordNames)
        let modification = try CloudKitModification(
            request, schema: try db.schema, storedTypes: Dictionary(uniqueKeysWithValues: stored.map { ($0.recordName, $0.recordType) }),
            zone: "_defaultZone", uploads: { _ in nil }, assetURL: { _ in "" }
        )
        if let refusal = modification.refusal { return refusal }
        do {
            // Saved records come back as written JSON text: read as a client reads them.
            return try db.write { try modification.apply(in: $0) }.map { try JSONValue.parse(Data($0.serialized.utf8)) }
        } catch let error as RecordError {
            guard let results = modification.atomicResults(failingWith: error) else { throw modification.failure(error) }
            return results
        }
    }

    static func operation(_ type: String, _ record: String) -> String {
        #"{"operationType": "\#(type)", "record": \#(record)}"#
    }

    static func batch(_ operations: [String], atomic: Bool = true) -> String {
        #"{"atomic": \#(atomic), "operations": [\#(operations.joined(separator: ", "))]}"#
    }

    static func seeded() throws -> (RecordDatabase, tag: String) {
        let db = try RecordDatabase.inMemory(bootstrap: try Schema.shopping.withoutRules)
        let list = try db.create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")]))
        try db.create(Record("Items", recordName: "I1", fields: ["name": .string("Milk"), "list": .reference(Reference("L1", action: .deleteSelf))]))
        return (db, list.changeTag!)
    }

    /// Expects one operation of the atomic `body` to fail with `code`, in its place, and every
    /// other to be `ATOMIC_ERROR`.
    static func expectFailure(
        _ code: CloudKitError.Code, _ body: String, in db: RecordDatabase, sourceLocation: Testing.SourceLocation = #_sourceLocation
    )
        throws
    {
        let codes = try modify(body, in: db).map { $0["serverErrorCode"] }
        #expect(codes.filter { $0 == .string(code.rawValue) }.count == 1, "\(codes)", sourceLocation: sourceLocation)
        #expect(codes.allSatisfy { $0 == .string(code.rawValue) || $0 == .string("ATOMIC_ERROR") }, "\(codes)", sourceLocation: sourceLocation)
    }

    @Test func createMakesARecordAndGeneratesANameWhenNoneIsGiven() throws {
        let (db, _) = try Self.seeded()
        let results = try Self.modify(
            Self.batch([
                Self.operation("create", #"{"recordType": "Lists", "recordName": "L2", "fields": {"name": {"value": "Hardware"}}}"#),
                Self.operation("create", #"{"recordType": "Lists", "fields": {"name": {"value": "Unnamed"}}}"#),
            ]), in: db)
        #expect(results[0]["recordName"] == .string("L2"))
        #expect(results[0]["recordChangeTag"] != nil)
        #expect(results[0]["fields"]?["name"]?["value"] == .string("Hardware"))
        guard case .string(let generated)? = results[1]["recordName"] else { Issue.record("no name"); return }
        #expect(try db.fetch(recordName: generated)?["name"] == .string("Unnamed"))
    }

    @Test func creatingAnExistingNameIsExists() throws {
        let (db, _) = try Self.seeded()
        try Self.expectFailure(.exists, Self.batch([Self.operation("create", #"{"recordType": "Lists", "recordName": "L1"}"#)]), in: db)
        try Self.expectFailure(.exists, Self.batch([Self.operation("create", #"{"recordType": "Items", "recordName": "L1"}"#)]), in: db)
    }

    @Test func updateChangesOnlyTheGivenFieldsWhenTheTagMatches() throws {
        let (db, tag) = try Self.seeded()
        try db.addField(FieldDefinition("number", .int64), to: "Items")
        let item = try db.fetch(recordName: "I1")!
        let results = try Self.modify(
            Self.batch([
                Self.operation("update", #"{"recordName": "I1", "recordChangeTag": "\#(item.changeTag!)", "fields": {"number": {"value": 2}}}"#)
            ]), in: db)
        #expect(results[0]["recordType"] == .string("Items"))
        let stored = try db.fetch(recordName: "I1")!
        #expect(stored["number"] == .int64(2))
        #expect(stored["name"] == .string("Milk"))
        try Self.expectFailure(
            .conflict, Self.batch([Self.operation("update", #"{"recordName": "L1", "recordChangeTag": "stale", "fields": {"name": {"value": "x"}}}"#)]), in: db)
        try Self.expectFailure(.notFound, Self.batch([Self.operation("update", #"{"recordName": "nope", "recordChangeTag": "\#(tag)"}"#)]), in: db)
        // An update without the tag it is based on is a malformed request, refused as a whole.
        #expect {
            try Self.modify(Self.batch([Self.operation("update", #"{"recordName": "L1", "fields": {}}"#)]), in: db)
        } throws: { ($0 as? CloudKitError)?.code == .badRequest }
    }

    @Test func aNullFieldValueRemovesTheField() throws {
        let (db, _) = try Self.seeded()
        _ = try Self.modify(
            Self.batch([Self.operation("forceUpdate", #"{"recordType": "Items", "recordName": "I1", "fields": {"name": {"value": null}}}"#)]), in: db)
        #expect(try db.fetch(recordName: "I1")?["name"] == nil)
    }

    @Test func forceUpdateIgnoresTheTagAndCreatesAMissingRecord() throws {
        let (db, _) = try Self.seeded()
        _ = try Self.modify(
            Self.batch([
                Self.operation(
                    "forceUpdate", #"{"recordType": "Lists", "recordName": "L1", "recordChangeTag": "stale", "fields": {"name": {"value": "Food"}}}"#),
                Self.operation("forceUpdate", #"{"recordType": "Lists", "recordName": "L9", "fields": {"name": {"value": "New"}}}"#),
            ]), in: db)
        #expect(try db.fetch(recordNames: ["L1", "L9"]).map { $0["name"] } == [.string("Food"), .string("New")])
    }

    @Test func replaceRemovesTheFieldsLeftOut() throws {
        let (db, _) = try Self.seeded()
        let item = try db.fetch(recordName: "I1")!
        _ = try Self.modify(
            Self.batch([
                Self.operation(
                    "replace",
                    #"{"recordType": "Items", "recordName": "I1", "recordChangeTag": "\#(item.changeTag!)", "fields": {"name": {"value": "Oat milk"}}}"#)
            ]), in: db)
        let stored = try db.fetch(recordName: "I1")!
        #expect(stored.fields == ["name": .string("Oat milk")])
        try Self.expectFailure(
            .conflict, Self.batch([Self.operation("replace", #"{"recordType": "Items", "recordName": "I1", "recordChangeTag": "\#(item.changeTag!)"}"#)]),
            in: db)
        try Self.expectFailure(
            .notFound, Self.batch([Self.operation("replace", #"{"recordType": "Items", "recordName": "I9", "recordChangeTag": "x"}"#)]), in: db)
    }

    @Test func forceReplaceIgnoresTheTagAndCreatesAMissingRecord() throws {
        let (db, _) = try Self.seeded()
        _ = try Self.modify(
            Self.batch([
                Self.operation(
                    "forceReplace", #"{"recordType": "Lists", "recordName": "L1", "recordChangeTag": "stale", "fields": {"name": {"value": "Food"}}}"#),
                Self.operation("forceReplace", #"{"recordType": "Lists", "recordName": "L9", "fields": {}}"#),
            ]), in: db)
        #expect(try db.fetch(recordName: "L1")?["name"] == .string("Food"))
        #expect(try db.fetch(recordName: "L9") != nil)
    }

    @Test func deleteChecksTheTagAndCascadesAndNamesTheType() throws {
        let (db, tag) = try Self.seeded()
        try Self.expectFailure(.conflict, Self.batch([Self.operation("delete", #"{"recordName": "L1", "recordChangeTag": "stale"}"#)]), in: db)
        let results = try Self.modify(Self.batch([Self.operation("delete", #"{"recordName": "L1", "recordChangeTag": "\#(tag)"}"#)]), in: db)
        #expect(results[0].serialized == #"{"deleted":true,"recordName":"L1","recordType":"Lists"}"#)
        #expect(try db.fetch(recordNames: ["L1", "I1"]).isEmpty)
        try Self.expectFailure(.notFound, Self.batch([Self.operation("delete", #"{"recordName": "L1"}"#)]), in: db)
    }

    @Test func forceDeleteIgnoresTheTag() throws {
        let (db, _) = try Self.seeded()
        let results = try Self.modify(Self.batch([Self.operation("forceDelete", #"{"recordName": "I1", "recordChangeTag": "stale"}"#)]), in: db)
        #expect(results[0]["recordType"] == .string("Items"))
        #expect(try db.fetch(recordName: "I1") == nil)
    }

    /// As CloudKit answers: the failed operation's error in its place, `ATOMIC_ERROR` naming it in
    /// every other's, and nothing applied.
    @Test func anAtomicBatchWithAFailureChangesNothingAndAnswersEachOperation() throws {
        let (db, _) = try Self.seeded()
        let results = try Self.modify(
            Self.batch([
                Self.operation("create", #"{"recordType": "Lists", "recordName": "L2", "fields": {"name": {"value": "Hardware"}}}"#),
                Self.operation(
                    "create", #"{"recordType": "Items", "recordName": "I2", "fields": {"list": {"value": {"recordName": "ghost", "action": "DELETE_SELF"}}}}"#),
                Self.operation("forceDelete", #"{"recordName": "I1"}"#),
            ]), in: db)
        #expect(results.map { $0["serverErrorCode"] } == [.string("ATOMIC_ERROR"), .string("VALIDATING_REFERENCE_ERROR"), .string("ATOMIC_ERROR")])
        #expect(results.map { $0["recordName"] } == [.string("L2"), .string("I2"), .string("I1")])
        #expect(results.map { $0["recordType"] } == [.string("Lists"), .string("Items"), nil])
        #expect(results[0]["reason"]?.stringValue?.hasPrefix(#"not applied: operations[1] ("I2") failed and the batch is atomic"#) == true)
        #expect(try db.fetch(recordName: "L2") == nil)
        #expect(try db.fetch(recordName: "I1") != nil)
    }

    /// Values that cannot be written refuse an atomic batch before its transaction opens: each
    /// such operation's error in its place (all of them, not only the first), `ATOMIC_ERROR` in
    /// the others'.
    @Test func anAtomicBatchWithValuesThatCannotBeWrittenAnswersEveryOne() throws {
        let (db, _) = try Self.seeded()
        let results = try Self.modify(
            Self.batch([
                Self.operation("create", #"{"recordType": "Lists", "recordName": "L2", "fields": {"name": {"value": 5}}}"#),
                Self.operation("create", #"{"recordType": "Lists", "recordName": "L3", "fields": {"name": {"value": "Garden"}}}"#),
                Self.operation("create", #"{"recordType": "Lists", "recordName": "L4", "fields": {"nope": {"value": 1}}}"#),
            ]), in: db)
        #expect(results.map { $0["serverErrorCode"] } == [.string("BAD_REQUEST"), .string("ATOMIC_ERROR"), .string("BAD_REQUEST")])
        #expect(results[0]["reason"]?.stringValue?.hasPrefix("operations[0]: Lists.name is STRING") == true)
        #expect(results[2]["reason"]?.stringValue?.contains(#"no field "nope""#) == true)
        #expect(results[1]["reason"]?.stringValue?.hasPrefix(#"not applied: operations[0] ("L2"), operations[2] ("L4") failed"#) == true)
        #expect(try db.fetch(recordNames: ["L2", "L3", "L4"]).isEmpty)
    }

    /// A failure of the database — full, read-only, failing — or of the request is not the
    /// operation's: the request's, answered as a whole; a failure of the record is in its place.
    @Test func onlyAFailureOfTheRecordIsAnsweredInTheOperationsPlace() throws {
        let (db, _) = try Self.seeded()
        let request = try CloudKitModifyRequest(
            try JSONValue.parse(Data(Self.batch([Self.operation("create", #"{"recordType": "Lists", "recordName": "L2"}"#)]).utf8)))
        let modification = try CloudKitModification(
            request, schema: try db.schema, storedTypes: [:], zone: "_defaultZone", uploads: { _ in nil }, assetURL: { _ in "" })
        #expect(modification.atomicResults(failingWith: RecordError(.limitExceeded, "full", recordName: "L2", reason: .diskFull)) == nil)
        #expect(modification.atomicResults(failingWith: RecordError(.invalidArguments, "read-only", recordName: "L2", reason: .readOnly)) == nil)
        #expect(modification.atomicResults(failingWith: RecordError(.internalError, "busy", recordName: "L2", reason: .busy)) == nil)
        #expect(modification.atomicResults(failingWith: RecordError(.serverRecordChanged, "taken", recordName: "L9")) == nil)
        let taken = modification.atomicResults(failingWith: RecordError(.serverRecordChanged, "taken", recordName: "L2"))
        #expect(taken?.map { $0["serverErrorCode"] } == [.string("EXISTS")])
    }

    @Test func aNonAtomicBatchReportsEachFailureInItsPlace() throws {
        let (db, _) = try Self.seeded()
        let results = try Self.modify(
            Self.batch(
                [
                    Self.operation("create", #"{"recordType": "Lists", "recordName": "L2", "fields": {"name": {"value": "Hardware"}}}"#),
                    Self.operation("create", #"{"recordType": "Lists", "recordName": "L1"}"#),
                    Self.operation("update", #"{"recordName": "I1", "recordChangeTag": "stale", "fields": {"name": {"value": "x"}}}"#),
                    Self.operation("forceUpdate", #"{"recordType": "Lists", "recordName": "L3", "fields": {"name": {"value": "Garden"}}}"#),
                ], atomic: false), in: db)
        #expect(results.map { $0["serverErrorCode"] } == [nil, .string("EXISTS"), .string("CONFLICT"), nil])
        #expect(results[1]["recordName"] == .string("L1"))
        #expect(results[1]["recordType"] == .string("Lists"))
        #expect(results[1]["reason"] != nil)
        #expect(results[2]["recordType"] == .string("Items"))
        #expect(try db.fetch(recordNames: ["L2", "L3"]).map { $0["name"] } == [.string("Hardware"), .string("Garden")])
        #expect(try db.fetch(recordName: "I1")?["name"] == .string("Milk"))
    }

    /// A value of the wrong type or a field the type lacks is that operation's failure: in its
    /// place in a non-atomic batch, named by its operation in an atomic one.
    @Test func aValueThatCannotBeWrittenFailsItsOperationAlone() throws {
        let (db, _) = try Self.seeded()
        let operations = [
            Self.operation("create", #"{"recordType": "Lists", "recordName": "L2", "fields": {"name": {"value": 5}}}"#),
            Self.operation("create", #"{"recordType": "Lists", "recordName": "L3", "fields": {"name": {"value": "Garden"}}}"#),
        ]
        let results = try Self.modify(Self.batch(operations, atomic: false), in: db)
        #expect(results.map { $0["serverErrorCode"] } == [.string("BAD_REQUEST"), nil])
        #expect(results[0]["recordName"] == .string("L2") && results[0]["recordType"] == .string("Lists"))
        #expect(try db.fetch(recordNames: ["L2", "L3"]).map(\.recordName) == ["L3"])
        #expect(try Self.modify(Self.batch(operations), in: db).map { $0["serverErrorCode"] } == [.string("BAD_REQUEST"), .string("ATOMIC_ERROR")])
    }

    @Test(arguments: [
        (#"{"operations": [{"operationType": "upsert", "record": {"recordName": "x"}}]}"#, "not an operation type"),
        (#"{"operations": [{"operationType": "create", "record": {"recordName": "x"}}]}"#, "recordType"),
        (#"{"operations": [{"operationType": "forceDelete", "record": {}}]}"#, "recordName"),
        (
            #"{"operations": [{"operationType": "create", "record": {"recordType": "Lists", "recordName": "a"}}, {"operationType": "forceDelete", "record": {"recordName": "a"}}]}"#,
            "one operation per record"
        ),
        (#"{"atomic": "yes", "operations": []}"#, "atomic"),
        (#"{}"#, "operations array"),
    ])
    func malformedRequestsAreBadRequests(body: String, reason: String) throws {
        let (db, _) = try Self.seeded()
        #expect {
            try Self.modify(body, in: db)
        } throws: { error in
            guard let error = error as? CloudKitError else { return false }
            return error.code == .badRequest && error.reason.contains(reason)
        }
    }

    @Test func newTypesAndFieldsAreTypedFromTheirValues() throws {
        let request = try CloudKitModifyRequest(
            try JSONValue.parse(
                Data(
                    Self.batch([
                        Self.operation(
                            "create",
                            #"{"recordType": "Stores", "recordName": "S1", "fields": {"name": {"value": "Corner"}, "where": {"value": {"latitude": 1, "longitude": 2}}}}"#
                        ),
                        Self.operation(
                            "forceUpdate", #"{"recordType": "Items", "recordName": "I1", "fields": {"number": {"value": 3}, "name": {"value": "Milk"}}}"#),
                        Self.operation(
                            "update", #"{"recordName": "L1", "recordChangeTag": "t", "fields": {"due": {"value": 1700000000000, "type": "TIMESTAMP"}}}"#),
                    ]).utf8)))
        let additions = try CloudKitSchemaGrowth.additions(for: request.operations, storedTypes: ["L1": "Lists"], schema: try Schema.shopping)
        #expect(
            additions.map(\.description) == [
                "add record type Stores", "add field Items.number INT64", "add field Lists.due TIMESTAMP",
            ])
        guard case .addRecordType(let stores) = additions[0] else { Issue.record("no type"); return }
        #expect(stores.fields.map(\.type) == [.string, .location])
        #expect(CloudKitSchemaGrowth.refusal(additions)?.reason.contains("production has no record type Stores") == true)
        #expect(CloudKitSchemaGrowth.refusal([]) == nil)
    }
}
