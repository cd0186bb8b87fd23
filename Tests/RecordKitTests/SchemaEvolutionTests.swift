import Foundation
import TestSupport
import Testing

@testable import RecordKit

@Suite struct SchemaEvolutionTests {
    @Test func aNewDatabaseGetsItsBootstrapSchema() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let schema = try db.schema
        #expect(schema.recordTypes.map(\.name) == ["Items", "Lists"])
        #expect(schema.recordType(named: "Items")?.field(named: "list")?.type == .reference)
        #expect(schema.recordType(named: "Lists")?.field(named: "name")?.flags == [.queryable, .sortable, .searchable])
        #expect(try db.schemaHistory().map(\.change) == ["add record type Items", "add record type Lists"])
    }

    @Test(arguments: [
        ("Lists", "cannot add record type Lists: it already exists", RecordError.Remedy.addFieldsTo(recordType: "Lists")),
        ("lists", "cannot add record type lists: it differs only in case from Lists", nil),
    ])
    func addingATypeThatExistsSaysWhetherItIsTheSameName(name: String, message: String, remedy: RecordError.Remedy?) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        #expect { try db.addRecordType(RecordType(name)) } throws: {
            let error = $0 as? RecordError
            return error?.code == .schemaViolation && error?.message == message && error?.remedy == remedy
        }
    }

    /// Without a bootstrap a new database has no record types; as long as it has none, the
    /// next open that gives a bootstrap applies it.
    @Test func aNewDatabaseWithoutABootstrapHasNoRecordTypesUntilAnOpenGivesOne() throws {
        let file = TemporaryDatabase()
        #expect(try RecordDatabase(path: file.path).schema.recordTypes.isEmpty)
        #expect(try RecordDatabase.inMemory().schema.recordTypes.isEmpty)
        #expect(try file.open(bootstrap: .shopping).schema == Schema.shopping)
        #expect(try RecordDatabase(path: file.path).schema == Schema.shopping)
    }

    /// A bootstrap schema that cannot be applied is refused before the file is made, so a later
    /// open does not find a migrated file without a schema (and give it another bootstrap).
    @Test func aBootstrapSchemaThatCannotBeAppliedLeavesNoFile() throws {
        let file = TemporaryDatabase()
        #expect { try file.open(bootstrap: Schema(recordTypes: [RecordType("sqlite_things")])) } throws: {
            ($0 as? RecordError)?.code == .invalidArguments
        }
        #expect(!FileManager.default.fileExists(atPath: file.path))
    }

    @Test func addingAFieldDoesNotRewriteExistingRows() throws {
        let file = TemporaryDatabase()
        let db = try file.open()
        try db.save(Shopping.list("L1", "Groceries"))
        try db.modify((0..<5000).map { .create(Shopping.item("I\($0)", "Item \($0) with a name long enough to fill pages", in: "L1")) })
        let pagesBefore = try db.pageCount()
        try db.addField(FieldDefinition("number", .int64), to: "Items")
        let pagesAfter = try db.pageCount()
        #expect(pagesBefore > 100)
        #expect(pagesAfter - pagesBefore <= 2, "only the schema pages change, no row is rewritten")
        #expect(try db.fetch(recordName: "I42")?["number"] == nil)
    }

    @Test func importMergesWhatTheFileAddsAndKeepsWhatItLeavesOut() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let applied = try db.importSchema(
            ckdb: """
                DEFINE SCHEMA
                    RECORD TYPE Items (
                        number INT64 QUERYABLE SORTABLE,
                        name   STRING QUERYABLE SORTABLE SEARCHABLE
                    );
                    RECORD TYPE Stores (
                        name STRING QUERYABLE
                    );
                """)
        #expect(
            applied.map(\.description) == [
                "add field Items.number INT64 QUERYABLE SORTABLE",
                "add SEARCHABLE to Items.name",
                "add record type Stores",
            ])
        let schema = try db.schema
        #expect(schema.recordType(named: "Items")?.userFields.map(\.name) == ["name", "list", "number"])
        #expect(schema.recordType(named: "Lists") != nil)
        try db.save(Record("Stores", recordName: "S1", fields: ["name": .string("Corner shop")]))
        #expect(try db.importSchema(ckdb: "DEFINE SCHEMA RECORD TYPE Stores (name STRING QUERYABLE);").isEmpty)
    }

    @Test(arguments: [
        ("DEFINE SCHEMA RECORD TYPE Items (list STRING);", "change Items.list from REFERENCE to STRING"),
        ("DEFINE SCHEMA RECORD TYPE Items (name LIST<STRING>);", "change Items.name from STRING to LIST<STRING>"),
        ("DEFINE SCHEMA RECORD TYPE Items (name ENCRYPTED STRING);", "encrypt Items.name"),
    ])
    func retypingAFieldIsRejectedNamingTheChangeAndAppliesNothing(file: String, change: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let before = try db.contentDump()
        let combined = file.replacingOccurrences(of: "DEFINE SCHEMA", with: "DEFINE SCHEMA RECORD TYPE Extra (x INT64);")
        #expect {
            try db.importSchema(ckdb: combined)
        } throws: { error in
            (error as? RecordError)?.code == .schemaViolation && "\(error)".contains(change)
        }
        #expect(try db.contentDump() == before)
        #expect(try db.schema.recordType(named: "Extra") == nil)
    }

    /// Custom roles are declared with CREATE ROLE: a grant naming one that is not (a misspelling)
    /// is refused, in a new record type and on an existing one, and nothing is applied.
    @Test func aGrantToAnUndeclaredRoleIsRefusedAndAppliesNothing() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        #expect {
            try db.importSchema(ckdb: "DEFINE SCHEMA CREATE ROLE Editor; RECORD TYPE Notes ( text STRING, GRANT READ, WRITE TO Edtor );")
        } throws: {
            ($0 as? RecordError)?.message
                == #"Notes grants READ, WRITE to 'Edtor', which is not a role: declare it with CREATE ROLE Edtor; or grant to one of the system roles "_world", "_icloud" and "_creator""#
        }
        #expect(try db.schema.recordType(named: "Notes") == nil && db.schema.roles.isEmpty)
        #expect(throws: RecordError.self) { try db.importSchema(ckdb: "DEFINE SCHEMA RECORD TYPE Lists ( GRANT READ TO Auditor );") }
        #expect(try db.schema.recordType(named: "Lists")?.grants.isEmpty == true)

        _ = try db.importSchema(ckdb: "DEFINE SCHEMA CREATE ROLE Editor; RECORD TYPE Notes ( text STRING, GRANT READ, WRITE TO editor );")
        #expect(try db.schema.recordType(named: "Notes")?.grants == [Grant([.read, .write], to: "editor")])
    }

    @Test func removingATypeOrFieldInExactModeIsRejected() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        var target = try db.schema
        target.upsert(RecordType("Lists", fields: []))
        #expect {
            try db.updateSchema(to: target, mode: .exact)
        } throws: { "\($0)".contains("remove field Lists.name") }
        #expect {
            try db.updateSchema(to: Schema(), mode: .exact)
        } throws: { "\($0)".contains("remove record type") }
        #expect(try db.schema.recordTypes.count == 2)
    }

    /// One refusal names all a target schema would take away, not only the first, and the
    /// additions it also holds are not applied.
    @Test func everyChangeThatIsNotAdditiveIsNamedInOneRefusal() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let target = Schema(recordTypes: [RecordType("Lists", fields: []), RecordType("Stores", fields: [FieldDefinition("name", .string)])])
        #expect {
            try db.updateSchema(to: target, mode: .exact)
        } throws: { error in
            let error = error as? RecordError
            return error?.code == .schemaViolation && error?.recordType == "Lists"
                && error?.message == "cannot remove field Lists.name, remove UNIQUE (name) from Lists or remove record type Items: "
                    + "schema evolution is additive "
                    + "(new record types, fields and index flags only); nothing was applied"
        }
        #expect(try db.schema == Schema.shopping)
    }

    @Test(arguments: ["number", "Name", "_hidden", "1abc", "a b", "x\"; DROP TABLE Items; --", ""])
    func invalidOrClashingFieldNamesAreRejected(name: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition("number", .int64), to: "Items")
        let before = try db.contentDump()
        #expect(throws: RecordError.self) {
            try db.addField(FieldDefinition(name, .string), to: "Items")
        }
        #expect(try db.contentDump() == before)
    }

    @Test func everyAppliedChangeIsKeptInTheHistoryWithItsTime() throws {
        let start = Date().addingTimeInterval(-1)
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition("number", .int64), to: "Items")
        try db.addIndexFlags(.sortable, to: "number", of: "Items")
        let history = try db.schemaHistory()
        #expect(history.suffix(2).map(\.change) == ["add field Items.number INT64", "add SORTABLE to Items.number"])
        #expect(history.allSatisfy { $0.appliedAt >= start })
        #expect(history.map(\.version) == history.map(\.version).sorted())
    }

    @Test func aSchemaChangeMadeByAnotherConnectionIsSeen() throws {
        let file = TemporaryDatabase()
        let first = try file.open()
        let second = try file.open()
        _ = try first.schema
        try second.addField(FieldDefinition("number", .int64), to: "Items")
        #expect(try first.schema.recordType(named: "Items")?.field(named: "number") != nil)
    }
}

@Suite struct CloudKitSystemTypeTests {
    /// Real exports of apps that share records hold `RECORD TYPE "cloudkit.share"`: it imports,
    /// round-trips through export, and refuses records with a clear message.
    @Test func aRealExportWithCloudKitShareImportsAndExportsBack() throws {
        let text = try CKDBFixtures.text("real-boxed-Done-and-done.ckdb")
        let db = try RecordDatabase.inMemory(bootstrap: Schema())
        try db.importSchema(ckdb: text)
        let schema = try db.schema
        #expect(schema.recordType(named: "cloudkit.share")?.field(named: "cloudkit.title")?.type == .string)
        #expect(try CKDBParser.parse(CKDBPrinter.print(schema)) == CKDBParser.parse(text))
        #expect {
            try db.save(Record("cloudkit.share", recordName: "s1"))
        } throws: { ($0 as? RecordError)?.code == .schemaViolation && "\($0)".contains("CloudKit's own record types") }
        try db.save(Record("CD_TodoItem", recordName: "t1", fields: ["CD_id": .string("x")]))
        #expect(try db.fetch(recordName: "t1") != nil)
    }
}
