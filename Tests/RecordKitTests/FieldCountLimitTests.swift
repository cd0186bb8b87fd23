import Foundation
import RecordKit
import Testing

/// A record type holds at most `Limits.maximumFieldsPerType` fields: past it a schema change is
/// refused naming the limit, instead of failing in SQLite as a query "too complex to compile".
@Suite struct FieldCountLimitTests {
    static func ckdb(fields: Int) -> String {
        "DEFINE SCHEMA\nRECORD TYPE Wide (\n" + (1...fields).map { "    f\($0) INT64" }.joined(separator: ",\n") + "\n);\n"
    }

    @Test func aTypeWithOneFieldTooManyIsRefusedNamingTheLimitAndNothingIsApplied() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        #expect {
            try db.importSchema(ckdb: Self.ckdb(fields: Limits.maximumFieldsPerType + 1))
        } throws: { error in
            let error = try #require(error as? RecordError)
            return error.code == .limitExceeded && error.message.hasPrefix("Wide would have 1001 fields; a record type holds at most 1000")
        }
        #expect(try db.schema.recordType(named: "Wide") == nil)
    }

    @Test func addingAFieldPastTheLimitIsRefused() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.importSchema(ckdb: Self.ckdb(fields: Limits.maximumFieldsPerType))
        #expect(try db.schema.recordType(named: "Wide")?.userFields.count == Limits.maximumFieldsPerType)
        #expect(throws: RecordError.self) { try db.addField(FieldDefinition("extra", .int64), to: "Wide") }
    }
}
