import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// `// references T` declares the record type a REFERENCE field points at.
@Suite struct ReferencedTypeTests {
    @Test func theAnnotationIsReadAndPrintedBack() throws {
        let text = """
            DEFINE SCHEMA
                RECORD TYPE Lists (name STRING);
                RECORD TYPE Items (
                    list   REFERENCE QUERYABLE, // references Lists
                    owners LIST<REFERENCE>      // references Lists
                );
            """
        let schema = try CKDBParser.parse(text)
        let items = try #require(schema.recordType(named: "Items"))
        #expect(items.field(named: "list")?.referencedType == "Lists")
        #expect(items.field(named: "owners")?.referencedType == "Lists")
        #expect(CKDBPrinter.print(schema).contains("REFERENCE QUERYABLE, // references Lists\n"))
        #expect(try CKDBParser.parse(CKDBPrinter.print(schema)) == schema)
        #expect(try Schema.shopping.recordType(named: "Items")?.field(named: "list")?.referencedType == "Lists")
    }

    @Test(arguments: [
        ("DEFINE SCHEMA RECORD TYPE Items (\n    name STRING // references Lists\n);", 2, "applies to REFERENCE fields"),
        ("DEFINE SCHEMA RECORD TYPE Items (\n    list REFERENCE // references Li;sts\n);", 2, "is not a record type name"),
    ])
    func misplacedOrMalformedAnnotationsAreLocatedErrors(text: String, line: Int, message: String) throws {
        let error = try #require(throws: RecordError.self) { try CKDBParser.parse(text) }
        #expect(error.location?.line == line)
        #expect(error.message.contains(message))
    }

    @Test func aReferenceToAnUnknownTypeIsASchemaViolation() throws {
        #expect {
            try RecordDatabase.inMemory(bootstrap: try CKDBParser.parse("DEFINE SCHEMA RECORD TYPE Items (list REFERENCE // references Nope\n);"))
        } throws: { ($0 as? RecordError)?.code == .schemaViolation && "\($0)".contains("'Nope'") }
    }

    @Test func declaringATargetIsAdditiveButChangingItIsNot() throws {
        let db = try RecordDatabase.inMemory(
            bootstrap: try CKDBParser.parse(
                """
                DEFINE SCHEMA RECORD TYPE Lists (name STRING); RECORD TYPE Items (list REFERENCE);
                """))
        let applied = try db.importSchema(ckdb: "DEFINE SCHEMA RECORD TYPE Items (list REFERENCE // references Lists\n);")
        #expect(applied.map(\.description) == ["declare Items.list references Lists"])
        #expect(try db.importSchema(ckdb: "DEFINE SCHEMA RECORD TYPE Items (list REFERENCE);").isEmpty, "leaving it out keeps it")
        #expect {
            try db.importSchema(ckdb: "DEFINE SCHEMA RECORD TYPE Items (list REFERENCE // references Items\n);")
        } throws: { "\($0)".contains("change Items.list from referencing Lists to referencing Items") }
    }

    /// Notes whose untyped `about` and `also` point at a Tags record, a Lists record and a
    /// record that does not exist.
    static func notes() throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(
            bootstrap: try CKDBParser.parse(
                """
                DEFINE SCHEMA
                    RECORD TYPE Lists (name STRING);
                    RECORD TYPE Tags (label STRING);
                    RECORD TYPE Notes (about REFERENCE, also LIST<REFERENCE>);
                """))
        let tag = Value.reference(Reference("T1", action: .none))
        let list = Value.reference(Reference("L1", action: .none))
        let nowhere = Value.reference(Reference("nowhere", action: .none))
        try db.modify([
            .create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")])),
            .create(Record("Tags", recordName: "T1", fields: ["label": .string("red")])),
            .create(Record("Notes", recordName: "N1", fields: ["about": tag, "also": .list([list, tag])])),
            .create(Record("Notes", recordName: "N2", fields: ["about": list, "also": .list([list, nowhere])])),
            .create(Record("Notes", recordName: "N3", fields: ["about": nowhere])),
        ])
        return db
    }

    @Test func declaringATargetOverReferencesToAnotherTypeNamesThemAndAppliesNothing() throws {
        let db = try Self.notes()
        let before = try db.contentDump()
        let schema = try db.schema
        let history = try db.schemaHistory().count
        #expect {
            try db.importSchema(ckdb: "DEFINE SCHEMA RECORD TYPE Notes (about REFERENCE // references Lists\n);")
        } throws: { error in
            SchemaRuleTests.isSchemaViolation(
                error, mentioning: ["cannot declare Notes.about references Lists", "'N1' references 'T1', a Tags record", "then try again"])
                && !"\(error)".contains("'N2'") && !"\(error)".contains("'N3'") && (error as? RecordError)?.recordName == "N1"
        }
        #expect {
            try db.applySchemaChanges([.addReferencedType(recordType: "Notes", field: "also", "Lists")])
        } throws: { SchemaRuleTests.isSchemaViolation($0, mentioning: ["cannot declare Notes.also references Lists", "'N1' references 'T1'"]) }
        #expect(try db.schema == schema)
        #expect(try db.schemaHistory().count == history)
        #expect(try db.contentDump() == before)
        #expect {
            try db.importSchema(ckdb: "DEFINE SCHEMA RECORD TYPE Notes (about REFERENCE // references Tags\n);")
        } throws: { SchemaRuleTests.isSchemaViolation($0, mentioning: ["'N2' references 'L1', a Lists record"]) }
    }

    @Test func aTargetIsDeclaredOnceTheReferencesPointAtIt() throws {
        let db = try Self.notes()
        try db.update(
            recordType: "Notes", recordName: "N1",
            fields: ["about": .reference(Reference("L1", action: .none)), "also": .list([.reference(Reference("L1", action: .none))])])
        let applied = try db.importSchema(
            ckdb: "DEFINE SCHEMA RECORD TYPE Notes (about REFERENCE, // references Lists\n also LIST<REFERENCE> // references Lists\n);")
        #expect(applied.map(\.description) == ["declare Notes.about references Lists", "declare Notes.also references Lists"])
    }

    @Test func aReferenceToARecordOfAnotherTypeIsRefused() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.save(Shopping.item("I1", "Milk", in: "L1"))
        let before = try db.contentDump()
        for action in Reference.Action.allCases {
            #expect {
                try db.save(Shopping.item("I2", "Eggs", in: "I1", action: action))
            } throws: { error in
                (error as? RecordError)?.code == .referenceViolation && "\(error)".contains("'I1' is a Items record")
            }
        }
        #expect(try db.contentDump() == before)
        try db.save(Shopping.item("I3", "Dangling is fine", in: "nowhere", action: .none))
    }
}
