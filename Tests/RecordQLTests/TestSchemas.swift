import Foundation
import RecordKit
import TestSupport

/// The schemas the tests generate GraphQL for.
enum TestSchemas {
    /// The shopping schema with `number INT64` added to Items, as `schema add-field` does.
    static func shoppingWithNumber() throws -> Schema {
        try Schema.shopping.applying([.addField(recordType: "Items", FieldDefinition("number", .int64, flags: [.queryable, .sortable]))])
    }

    /// One record type with a field of every type CKDB has.
    static func everyFieldType() throws -> Schema {
        try CKDBParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE Everything (
                    text        STRING QUERYABLE SEARCHABLE SORTABLE,
                    count       INT64,
                    ratio       DOUBLE,
                    amount      NUMBER,
                    whole       NUMBER PREFERRED AS INT64,
                    fraction    NUMBER PREFERRED AS DOUBLE,
                    at          TIMESTAMP,
                    blob        BYTES,
                    place       LOCATION,
                    file        ASSET,
                    owner       REFERENCE,
                    tags        LIST<STRING>,
                    counts      LIST<INT64>,
                    ratios      LIST<DOUBLE>,
                    wholes      LIST<NUMBER PREFERRED AS INT64>,
                    times       LIST<TIMESTAMP>,
                    blobs       LIST<BYTES>,
                    places      LIST<LOCATION>,
                    files       LIST<ASSET>,
                    owners      LIST<REFERENCE>,
                    secret      ENCRYPTED STRING
                );
            """
        )
    }

    /// Items with every kind of filterable field, for the filter translator and executor tests.
    static func catalog() throws -> Schema {
        try CKDBParser.parse(
            """
            DEFINE SCHEMA
                RECORD TYPE Items (
                    name        STRING QUERYABLE SEARCHABLE SORTABLE,
                    list        REFERENCE QUERYABLE, // references Lists
                    number      INT64 QUERYABLE SORTABLE,
                    price       DOUBLE QUERYABLE SORTABLE,
                    due         TIMESTAMP QUERYABLE SORTABLE,
                    photo       BYTES,
                    place       LOCATION QUERYABLE,
                    manual      ASSET,
                    tags        LIST<STRING> QUERYABLE,
                    related     LIST<REFERENCE> QUERYABLE, // references Items
                    owner       REFERENCE
                );
                RECORD TYPE Lists (
                    name        STRING QUERYABLE SEARCHABLE SORTABLE
                );
            """
        )
    }

    /// The real CloudKit schemas RecordKit's tests parse, by file name.
    static func realFixtures() throws -> [(name: String, schema: Schema)] {
        let tests = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent().deletingLastPathComponent()
        let directory = tests.appendingPathComponent("RecordKitTests/Fixtures/ckdb")
        let files = try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".ckdb") }.sorted()
        return try files.map { file in
            let text = try String(contentsOf: directory.appendingPathComponent(file), encoding: .utf8)
            return (file, try CKDBParser.parse(text))
        }
    }
}
