import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// The rules a schema declares about values (`NOT EMPTY`, `UNIQUE (…)`): declared in CKDB,
/// kept by the engine on every write, and checked against stored records before they are added.
@Suite struct SchemaRuleTests {
    /// A shopping database with lists L1 "Groceries" and L2 "Hardware", and item I1 "Milk" in L1.
    static func shop() throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.modify([
            .create(Shopping.list("L1", "Groceries")),
            .create(Shopping.list("L2", "Hardware")),
            .create(Shopping.item("I1", "Milk", in: "L1")),
        ])
        return db
    }

    static func isSchemaViolation(_ error: any Error, mentioning parts: [String]) -> Bool {
        guard let error = error as? RecordError, error.code == .schemaViolation else { return false }
        return parts.allSatisfy { error.message.contains($0) }
    }

    @Test func aSecondListWithTheSameNameIsRefusedAndTheBatchChangesNothing() throws {
        let db = try Self.shop()
        let before = try db.contentDump()
        #expect {
            try db.modify([.create(Shopping.list("L3", "Party")), .create(Shopping.list("L4", "Groceries"))])
        } throws: { Self.isSchemaViolation($0, mentioning: ["Lists record 'L1'", "name 'Groceries'", "UNIQUE (name)"]) }
        #expect(try db.contentDump() == before)
    }

    @Test func itemNamesAreUniqueWithinTheirListOnly() throws {
        let db = try Self.shop()
        #expect {
            try db.create(Shopping.item("I2", "Milk", in: "L1"))
        } throws: { Self.isSchemaViolation($0, mentioning: ["Items record 'I1'", "name 'Milk'", "UNIQUE (list, name)"]) }
        try db.create(Shopping.item("I3", "Milk", in: "L2"))
        #expect(try db.records(matching: Query("Items")).count == 2)
    }

    @Test func updatesAndReplacementsCannotMakeADuplicate() throws {
        let db = try Self.shop()
        try db.create(Shopping.item("I2", "Bread", in: "L1"))
        #expect {
            try db.update(recordType: "Items", recordName: "I2", fields: ["name": .string("Milk")])
        } throws: { Self.isSchemaViolation($0, mentioning: ["'I1'", "UNIQUE (list, name)"]) }
        #expect {
            try db.save(Shopping.list("L2", "Groceries"))
        } throws: { Self.isSchemaViolation($0, mentioning: ["'L1'", "UNIQUE (name)"]) }
        // Moving an item into a list that has one of that name is refused too.
        try db.create(Shopping.item("I3", "Milk", in: "L2"))
        #expect {
            try db.update(recordType: "Items", recordName: "I3", fields: ["list": .reference(Reference("L1", action: .deleteSelf))])
        } throws: { Self.isSchemaViolation($0, mentioning: ["'I1'"]) }
        #expect(try db.fetch(recordName: "I2")?["name"] == .string("Bread"))
        #expect(try db.fetch(recordName: "I3")?["list"] == .reference(Reference("L2", action: .deleteSelf)))
    }

    @Test func aRecordMayKeepItsOwnValues() throws {
        let db = try Self.shop()
        let list = try #require(try db.fetch(recordName: "L1"))
        try db.save(list)
        try db.update(recordType: "Lists", recordName: "L1", fields: ["name": .string("Groceries")])
    }

    @Test func emptyOrAbsentNotEmptyFieldsAreRefused() throws {
        let db = try Self.shop()
        let before = try db.contentDump()
        #expect {
            try db.create(Shopping.list("L3", ""))
        } throws: { Self.isSchemaViolation($0, mentioning: ["Lists.name is NOT EMPTY"]) }
        #expect {
            try db.create(Record("Lists", recordName: "L3"))
        } throws: { Self.isSchemaViolation($0, mentioning: ["Lists.name is NOT EMPTY"]) }
        #expect {
            try db.create(Record("Items", recordName: "I9", fields: ["name": .string("")]))
        } throws: { Self.isSchemaViolation($0, mentioning: ["Items.name is NOT EMPTY"]) }
        #expect {
            try db.update(recordType: "Lists", recordName: "L1", fields: ["name": nil])
        } throws: { Self.isSchemaViolation($0, mentioning: ["cannot be removed"]) }
        #expect(try db.contentDump() == before)
    }

    @Test func addingAUniqueRuleOverDuplicatesNamesThemAndAppliesNothing() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Shopping.schemaWithoutRules)
        try db.modify([
            .create(Shopping.list("L1", "Party")), .create(Shopping.list("L2", "Party")), .create(Shopping.list("L3", "Work")),
        ])
        #expect {
            try db.updateSchema(to: try Schema.shopping)
        } throws: { Self.isSchemaViolation($0, mentioning: ["cannot add UNIQUE (name) to Lists", "name 'Party' (L1, L2)"]) }
        #expect(try db.schema == Shopping.schemaWithoutRules)
        try db.update(recordType: "Lists", recordName: "L2", fields: ["name": .string("Party 2")])
        try db.updateSchema(to: try Schema.shopping)
        #expect(try db.schema == Schema.shopping)
        #expect(throws: RecordError.self) { try db.create(Shopping.list("L4", "Work")) }
    }

    @Test func addingNotEmptyOverMissingValuesNamesTheRecords() throws {
        let db = try Self.shop()
        try db.addField(FieldDefinition("shop", .string), to: "Lists")
        try db.update(recordType: "Lists", recordName: "L1", fields: ["shop": .string("Aldi")])
        var target = try db.schema
        var lists = try #require(target.recordType(named: "Lists"))
        lists.fields[lists.fields.firstIndex { $0.name == "shop" }!].isRequired = true
        target.upsert(lists)
        #expect {
            try db.updateSchema(to: target)
        } throws: { Self.isSchemaViolation($0, mentioning: ["cannot declare Lists.shop NOT EMPTY", "'L2' has no value"]) }
        #expect {
            try db.addField(FieldDefinition("owner", .string, isRequired: true), to: "Lists")
        } throws: { Self.isSchemaViolation($0, mentioning: ["'L1', 'L2' have no value"]) }
    }

    @Test func rulesAreDeclaredInCKDBAndPrintBack() throws {
        let text = """
            DEFINE SCHEMA
                RECORD TYPE Tags (
                    unique          STRING,
                    "label"         STRING QUERYABLE NOT EMPTY,
                    owner           REFERENCE,
                    UNIQUE (owner, label),
                    UNIQUE (unique),
                    GRANT READ TO "_world"
                );
            """
        let schema = try CKDBParser.parse(text)
        let tags = try #require(schema.recordType(named: "Tags"))
        #expect(tags.uniqueConstraints == [UniqueConstraint(["owner", "label"]), UniqueConstraint(["unique"])])
        #expect(tags.field(named: "label")?.isRequired == true)
        #expect(tags.field(named: "unique")?.isRequired == false)
        let printed = CKDBPrinter.print(schema)
        #expect(printed.contains("        label           STRING QUERYABLE NOT EMPTY,\n"))
        #expect(printed.contains("        UNIQUE (owner, label),\n        UNIQUE (unique),\n        GRANT READ TO \"_world\"\n"))
        #expect(try CKDBParser.parse(printed) == schema)
    }

    @Test(arguments: [
        ("RECORD TYPE T ( a STRING, UNIQUE (b) );", "T has no field 'b' for UNIQUE (b)"),
        (
            "RECORD TYPE T ( a LIST<STRING>, UNIQUE (a) );",
            "UNIQUE (a) takes only STRING, INT64, DOUBLE, NUMBER, TIMESTAMP or REFERENCE fields that are not encrypted"
        ),
        ("RECORD TYPE T ( a STRING, UNIQUE (a, a) );", "names 'a' twice"),
        ("RECORD TYPE T ( a STRING, b INT64, UNIQUE (a, b), UNIQUE (b, a) );", "declares UNIQUE (b, a) twice"),
        ("RECORD TYPE T ( \"___recordID\" REFERENCE NOT EMPTY );", "can't be declared NOT EMPTY"),
        ("RECORD TYPE T ( a STRING NOT NULL );", "expected EMPTY after NOT"),
    ])
    func malformedRulesAreLocatedErrors(body: String, message: String) {
        #expect {
            try CKDBParser.parse("DEFINE SCHEMA\n" + body)
        } throws: { error in
            guard let error = error as? RecordError else { return false }
            return error.code == .invalidArguments && error.message.contains(message) && error.location?.line == 2
        }
    }

    /// Schemas stored before the rules existed have no `isRequired` or `uniqueConstraints` keys.
    @Test func schemasStoredBeforeRulesExistedStillDecode() throws {
        let stored = #"{"name":"Lists","fields":[{"name":"name","type":{"string":{}},"flags":3,"isEncrypted":false}],"grants":[]}"#
        let type = try JSONDecoder().decode(RecordType.self, from: Data(stored.utf8))
        #expect(type.uniqueConstraints.isEmpty)
        #expect(type.fields.first?.isRequired == false)
    }
}
