import Foundation
import Testing

@testable import RecordKit

/// Writing CKDB in cktool's canonical layout, and reading back exactly what was written.
struct CKDBPrinterTests {
    /// The bootstrap schema, parsed then printed (a snapshot: a layout change shows here).
    @Test func bootstrapSchemaPrintsAsPinned() throws {
        let text = try String(contentsOf: CKDBFixtures.bootstrapSchema, encoding: .utf8)
        #expect(
            CKDBPrinter.print(try CKDBParser.parse(text)) == """
                DEFINE SCHEMA

                    RECORD TYPE Items (
                        name            STRING QUERYABLE SORTABLE NOT EMPTY,
                        list            REFERENCE QUERYABLE, // references Lists
                        UNIQUE (list, name)
                    );

                    RECORD TYPE Lists (
                        name            STRING QUERYABLE SEARCHABLE SORTABLE NOT EMPTY,
                        UNIQUE (name)
                    );

                """)
    }

    @Test func printedSchemasParseBackToThemselves() throws {
        for seed in UInt64(0)..<500 {
            var generator = SchemaGenerator(seed: seed)
            let schema = generator.schema()
            let printed = CKDBPrinter.print(schema)
            let reparsed = try CKDBParser.parse(printed)
            #expect(reparsed == schema, "seed \(seed):\n\(printed)")
            #expect(CKDBPrinter.print(reparsed) == printed, "seed \(seed)")
        }
    }

    @Test func rolesComeFirstThenTypesByNameWithGrantsLast() {
        let schema = Schema(
            roles: ["Moderator", "Editor"],
            recordTypes: [
                RecordType(
                    "Posts", fields: [FieldDefinition("title", .string, flags: [.sortable, .queryable])],
                    grants: [Grant([.read], to: "_world"), Grant([.create, .write], to: "Moderator")]),
                RecordType("Empty"),
                RecordType("Audit", grants: [Grant([.read], to: "Editor")]),
            ]
        )
        #expect(
            CKDBPrinter.print(schema) == """
                DEFINE SCHEMA

                    CREATE ROLE Moderator;
                    CREATE ROLE Editor;

                    RECORD TYPE Audit (
                        GRANT READ TO Editor
                    );

                    RECORD TYPE Empty (
                    );

                    RECORD TYPE Posts (
                        title           STRING QUERYABLE SORTABLE,
                        GRANT READ TO "_world",
                        GRANT CREATE, WRITE TO Moderator
                    );

                """)
    }

    /// One column per record type: one space past the longest name, at least 16 wide.
    @Test func fieldNamesArePaddedToOneColumnPerRecordType() {
        let schema = Schema(recordTypes: [
            RecordType("A", fields: [FieldDefinition("x", .int64), FieldDefinition("___etag", .string)]),
            RecordType(
                "B",
                fields: [
                    FieldDefinition("sixteenCharsLong", .string),
                    FieldDefinition("estimatedReadingTimeMinutes", .int64, flags: .queryable),
                ]),
        ])
        #expect(
            CKDBPrinter.print(schema) == """
                DEFINE SCHEMA

                    RECORD TYPE A (
                        x               INT64,
                        "___etag"       STRING
                    );

                    RECORD TYPE B (
                        sixteenCharsLong            STRING,
                        estimatedReadingTimeMinutes INT64 QUERYABLE
                    );

                """)
    }

    @Test(arguments: [
        ("___recordID", "\"___recordID\""), ("from", "\"from\""), ("TO", "\"TO\""), ("Grant", "\"Grant\""),
        ("schema", "\"schema\""), ("queryable", "\"queryable\""), ("cloudkit.share", "\"cloudkit.share\""),
        ("type", "type"), ("role", "role"), ("list", "list"), ("timestamp", "timestamp"), ("name", "name"),
        ("order", "order"), ("Users", "Users"), ("_creator", "\"_creator\""),
    ])
    func namesAreQuotedOnlyWhenTheyMustBe(name: String, spelled: String) {
        #expect(CKDBPrinter.spelled(name) == spelled)
    }

    @Test func encryptedFieldsPrintTheKeywordNextToTheElementType() {
        #expect(FieldDefinition("a", .string, isEncrypted: true).ckdbType == "ENCRYPTED STRING")
        #expect(FieldDefinition("b", .list(.bytes), isEncrypted: true).ckdbType == "LIST<ENCRYPTED BYTES>")
        #expect(FieldDefinition("c", .number(preferred: .double)).ckdbType == "NUMBER PREFERRED AS DOUBLE")
        #expect(FieldDefinition("d", .list(.location)).ckdbType == "LIST<LOCATION>")
    }

    @Test func anEmptySchemaPrintsOnlyTheHeader() throws {
        #expect(CKDBPrinter.print(Schema()) == "DEFINE SCHEMA\n")
        #expect(try CKDBParser.parse(CKDBPrinter.print(Schema())) == Schema())
    }

    /// cktool quotes `from` and `to`; a schema using them prints back the way cktool wrote it.
    @Test func keywordNamesFromRealExportsStayQuoted() throws {
        let schema = try CKDBParser.parse(CKDBFixtures.text("real-leewchaha-pangsai-ios.ckdb"))
        let printed = CKDBPrinter.print(schema)
        #expect(printed.contains("        \"from\"          STRING,\n"))
        #expect(printed.contains("        \"to\"            STRING QUERYABLE,\n"))
    }
}
