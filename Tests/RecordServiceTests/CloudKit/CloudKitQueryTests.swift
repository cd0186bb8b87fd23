import Foundation
import RecordKit
import Testing

@testable import RecordService

/// `filterBy` and `sortBy` as data: (filter dictionaries, expected recordNames), run through the
/// engine on a small People table.
@Suite struct CloudKitQueryTests {
    static let people = RecordType(
        "People",
        fields: [
            FieldDefinition("name", .string, flags: [.queryable, .sortable, .searchable]),
            FieldDefinition("age", .int64, flags: [.queryable, .sortable]),
            FieldDefinition("born", .timestamp, flags: .queryable),
            FieldDefinition("tags", .list(.string), flags: .queryable),
            FieldDefinition("friends", .list(.reference)),
            FieldDefinition("home", .location),
            FieldDefinition("bio", .string, flags: .searchable),
        ])

    static func database() throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [people]))
        func person(_ id: String, _ name: String, _ age: Int64?, _ born: Int64, _ tags: [String], _ home: Location, _ bio: String) -> RecordOperation {
            var fields: [String: Value] = [
                "name": .string(name), "born": .timestamp(Timestamp.date(milliseconds: born)),
                "tags": .list(tags.map(Value.string)), "home": .location(home), "bio": .string(bio),
            ]
            fields["age"] = age.map(Value.int64)
            return .create(Record("People", recordName: id, fields: fields))
        }
        try db.modify([
            person("p1", "Ana", 31, 1000, ["admin", "staff"], Location(latitude: 48.8566, longitude: 2.3522), "Loves fresh bread"),
            person("p2", "bob", 25, 2000, ["staff"], Location(latitude: 48.86, longitude: 2.35), "Cycles to the market"),
            person("p3", "Éva", nil, 3000, [], Location(latitude: 51.5074, longitude: -0.1278), "Bakes bread every morning"),
            person("p4", "Evan", 42, 4000, ["guest"], Location(latitude: 40.7128, longitude: -74.006), "Coffee then coffee"),
        ])
        try db.update(recordType: "People", recordName: "p2", fields: ["friends": .list([.reference(Reference("p1")), .reference(Reference("p3"))])])
        return db
    }

    static func query(_ body: String, in db: RecordDatabase) throws -> [String] {
        let request = try CloudKitQueryRequest(try JSONValue.parse(Data(body.utf8)), schema: try db.schema)
        return try db.page(request.query, after: request.continuationMarker).records.map(\.recordName)
    }

    static func filtered(_ filters: String, sortBy: String = "[]", in db: RecordDatabase) throws -> [String] {
        try query(#"{"query": {"recordType": "People", "filterBy": \#(filters), "sortBy": \#(sortBy)}}"#, in: db)
    }

    static let cases: [(String, [String])] = [
        (#"[]"#, ["p1", "p2", "p3", "p4"]),
        (#"[{"comparator": "EQUALS", "fieldName": "age", "fieldValue": {"value": 25}}]"#, ["p2"]),
        (#"[{"comparator": "NOT_EQUALS", "fieldName": "age", "fieldValue": {"value": 25}}]"#, ["p1", "p3", "p4"]),
        (#"[{"comparator": "LESS_THAN", "fieldName": "age", "fieldValue": {"value": 31}}]"#, ["p2"]),
        (#"[{"comparator": "LESS_THAN_OR_EQUALS", "fieldName": "age", "fieldValue": {"value": 31}}]"#, ["p1", "p2"]),
        (#"[{"comparator": "GREATER_THAN", "fieldName": "age", "fieldValue": {"value": 31}}]"#, ["p4"]),
        (#"[{"comparator": "GREATER_THAN_OR_EQUALS", "fieldName": "age", "fieldValue": {"value": 31}}]"#, ["p1", "p4"]),
        (#"[{"comparator": "GREATER_THAN", "fieldName": "born", "fieldValue": {"value": 2500.5}}]"#, ["p3", "p4"]),
        (#"[{"comparator": "IN", "fieldName": "age", "fieldValue": {"value": [25, 42], "type": "INT64_LIST"}}]"#, ["p2", "p4"]),
        (#"[{"comparator": "NOT_IN", "fieldName": "name", "fieldValue": {"value": ["Ana", "bob"]}}]"#, ["p3", "p4"]),
        (#"[{"comparator": "BEGINS_WITH", "fieldName": "name", "fieldValue": {"value": "Ev"}}]"#, ["p4"]),
        (#"[{"comparator": "NOT_BEGINS_WITH", "fieldName": "name", "fieldValue": {"value": "Ev"}}]"#, ["p1", "p2", "p3"]),
        (#"[{"comparator": "LIST_CONTAINS", "fieldName": "tags", "fieldValue": {"value": "staff"}}]"#, ["p1", "p2"]),
        (#"[{"comparator": "NOT_LIST_CONTAINS", "fieldName": "tags", "fieldValue": {"value": "staff"}}]"#, ["p3", "p4"]),
        (#"[{"comparator": "LIST_CONTAINS_ANY", "fieldName": "tags", "fieldValue": {"value": ["admin", "guest"]}}]"#, ["p1", "p4"]),
        (#"[{"comparator": "NOT_LIST_CONTAINS_ANY", "fieldName": "tags", "fieldValue": {"value": ["admin", "guest"]}}]"#, ["p2", "p3"]),
        (#"[{"comparator": "LIST_CONTAINS_ALL", "fieldName": "tags", "fieldValue": {"value": ["admin", "staff"]}}]"#, ["p1"]),
        (#"[{"comparator": "NOT_LIST_CONTAINS_ALL", "fieldName": "tags", "fieldValue": {"value": ["admin", "staff"]}}]"#, ["p2", "p3", "p4"]),
        (#"[{"comparator": "LIST_MEMBER_BEGINS_WITH", "fieldName": "tags", "fieldValue": {"value": "st"}}]"#, ["p1", "p2"]),
        (#"[{"comparator": "NOT_LIST_MEMBER_BEGINS_WITH", "fieldName": "tags", "fieldValue": {"value": "st"}}]"#, ["p3", "p4"]),
        (#"[{"comparator": "LIST_CONTAINS", "fieldName": "friends", "fieldValue": {"value": {"recordName": "p3"}}}]"#, ["p2"]),
        (
            #"[{"comparator": "NEAR", "fieldName": "home", "fieldValue": {"value": {"latitude": 48.8566, "longitude": 2.3522}}, "distance": 5000}]"#,
            ["p1", "p2"]
        ),
        (#"[{"comparator": "CONTAINS_ALL_TOKENS", "fieldName": "allTokens", "fieldValue": {"value": "fresh bread"}}]"#, ["p1"]),
        (#"[{"comparator": "CONTAINS_ANY_TOKENS", "fieldName": "allTokens", "fieldValue": {"value": "fresh coffee"}}]"#, ["p1", "p4"]),
        (#"[{"comparator": "CONTAINS_ALL_TOKENS", "fieldName": "bio", "fieldValue": {"value": "bread"}}]"#, ["p1", "p3"]),
        (#"[{"comparator": "EQUALS", "fieldName": "___recordID", "fieldValue": {"value": {"recordName": "p3"}}}]"#, ["p3"]),
        (
            #"[{"comparator": "GREATER_THAN", "fieldName": "age", "fieldValue": {"value": 20}}, {"comparator": "LIST_CONTAINS", "fieldName": "tags", "fieldValue": {"value": "staff"}}]"#,
            ["p1", "p2"]
        ),
    ]

    @Test func everyComparatorSelectsTheExpectedRecords() throws {
        let db = try Self.database()
        for (filters, expected) in Self.cases {
            #expect(try Self.filtered(filters, in: db) == expected, "\(filters)")
        }
    }

    @Test func everyCloudKitComparatorIsTranslated() {
        let tested = Set(Self.cases.compactMap { $0.0.firstMatch(of: /"comparator": "([A-Z_]+)"/).map { String($0.1) } })
        #expect(tested == Set(CloudKitFilter.Comparator.allCases.map(\.rawValue)))
    }

    @Test func sortByOrdersAndBreaksTiesByRecordName() throws {
        let db = try Self.database()
        #expect(try Self.filtered("[]", sortBy: #"[{"fieldName": "age", "ascending": false}]"#, in: db) == ["p4", "p1", "p2", "p3"])
        #expect(try Self.filtered("[]", sortBy: #"[{"fieldName": "name"}]"#, in: db) == ["p1", "p4", "p2", "p3"])
        #expect(try Self.filtered("[]", sortBy: #"[{"fieldName": "___createTime", "ascending": false}, {"fieldName": "___recordID"}]"#, in: db).count == 4)
    }

    @Test func resultsLimitPagesWithContinuationMarkers() throws {
        let db = try Self.database()
        var seen: [String] = []
        var marker: String?
        repeat {
            let body =
                #"{"query": {"recordType": "People", "sortBy": [{"fieldName": "name"}]}, "resultsLimit": 3"#
                + (marker.map { #", "continuationMarker": \#(JSONText.string($0))"# } ?? "") + "}"
            let request = try CloudKitQueryRequest(try JSONValue.parse(Data(body.utf8)), schema: try db.schema)
            let page = try db.page(request.query, after: request.continuationMarker)
            seen += page.records.map(\.recordName)
            marker = page.cursor
        } while marker != nil
        #expect(seen == ["p1", "p4", "p2", "p3"])
    }

    @Test(arguments: [
        (#"{"query": {}}"#, "recordType"),
        (#"{"query": {"recordType": "Nope"}}"#, "no record type \"Nope\""),
        (#"{"query": {"recordType": "People", "filterBy": [{"comparator": "LIKE", "fieldName": "name", "fieldValue": {"value": "a"}}]}}"#, "not a comparator"),
        (
            #"{"query": {"recordType": "People", "filterBy": [{"comparator": "EQUALS", "fieldName": "nope", "fieldValue": {"value": "a"}}]}}"#,
            "no field \"nope\""
        ),
        (
            #"{"query": {"recordType": "People", "filterBy": [{"comparator": "EQUALS", "fieldName": "age", "fieldValue": {"value": "old"}}]}}"#,
            "query.filterBy[0].fieldValue is INT64"
        ),
        (
            #"{"query": {"recordType": "People", "filterBy": [{"comparator": "LIST_CONTAINS", "fieldName": "age", "fieldValue": {"value": 1}}]}}"#,
            "applies to LIST fields"
        ),
        (
            #"{"query": {"recordType": "People", "filterBy": [{"comparator": "NEAR", "fieldName": "home", "fieldValue": {"value": {"latitude": 1, "longitude": 1}}}]}}"#,
            "distance"
        ),
        (
            #"{"query": {"recordType": "People", "filterBy": [{"comparator": "NEAR", "fieldName": "name", "fieldValue": {"value": {"latitude": 1, "longitude": 1}}, "distance": 5}]}}"#,
            "query.filterBy[0]: NEAR applies to LOCATION fields; People.name is STRING"
        ),
        (
            #"{"query": {"recordType": "People", "sortBy": [{"fieldName": "home"}]}}"#,
            "People.home is LOCATION, which has no order; sort by a STRING, INT64, DOUBLE, NUMBER, TIMESTAMP or REFERENCE field"
        ),
        (#"{"query": {"recordType": "People", "sortBy": [{"fieldName": "home", "relativeLocation": {"latitude": 1, "longitude": 1}}]}}"#, "relativeLocation"),
        (#"{"query": {"recordType": "People"}, "resultsLimit": 0}"#, "resultsLimit"),
        (#"{"query": {"recordType": "People"}, "desiredKeys": "name"}"#, "desiredKeys"),
    ])
    func badQueriesAreBadRequestsSayingWhatIsWrong(body: String, reason: String) throws {
        let db = try Self.database()
        #expect {
            try Self.query(body, in: db)
        } throws: { error in
            guard let error = error as? CloudKitError else { return false }
            return error.code == .badRequest && error.reason.contains(reason)
        }
    }
}
