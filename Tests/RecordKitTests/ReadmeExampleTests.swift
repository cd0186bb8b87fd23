import Foundation
import RecordKit
import Testing

/// The README's example, verbatim apart from the file location, so the documentation stays true.
@Suite struct ReadmeExampleTests {
    @Test func theReadmeExampleRunsAsDocumented() throws {
        let file = TemporaryDatabase()
        let schema = try CKDBParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE Lists (name STRING QUERYABLE SORTABLE);
                RECORD TYPE Items (name STRING QUERYABLE SORTABLE, list REFERENCE QUERYABLE);
            """)
        let db = try RecordDatabase(path: file.path, bootstrap: schema)

        try db.modify([
            .create(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries")])),
            .create(
                Record(
                    "Items", recordName: "I1",
                    fields: [
                        "name": .string("Milk"),
                        "list": .reference(Reference("L1", action: .deleteSelf)),
                    ])),
            .create(
                Record(
                    "Items", recordName: "I2",
                    fields: [
                        "name": .string("Bread"),
                        "list": .reference(Reference("L1", action: .deleteSelf)),
                    ])),
        ])

        let items = try db.records(
            matching: Query(
                "Items",
                predicate: try PredicateParser.parse("list == 'L1'"),
                sort: [SortDescriptor("name")]
            ))
        #expect(items.map { $0["name"] } == [.string("Bread"), .string("Milk")])
        let built = try db.records(matching: Query("Items", predicate: PredicateField("list") == "L1", sort: [SortDescriptor("name")]))
        #expect(built == items)

        try db.addField(FieldDefinition("number", .int64, flags: [.queryable, .sortable]), to: "Items")
        try db.update(recordType: "Items", recordName: "I1", fields: ["number": .int64(2)])

        let removed = try db.delete(recordName: "L1")
        #expect(removed.first == "L1")
        #expect(Set(removed) == ["L1", "I1", "I2"])
    }
}
