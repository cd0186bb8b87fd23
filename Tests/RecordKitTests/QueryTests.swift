import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// Query behaviour as data: (predicate text, expected recordNames in recordName order).
@Suite struct QueryTests {
    static let people: RecordType = RecordType(
        "People",
        fields: [
            FieldDefinition("name", .string, flags: [.queryable, .sortable, .searchable]),
            FieldDefinition("age", .int64, flags: [.queryable, .sortable]),
            FieldDefinition("score", .double, flags: .queryable),
            FieldDefinition("born", .timestamp, flags: .queryable),
            FieldDefinition("tags", .list(.string), flags: .queryable),
            FieldDefinition("friends", .list(.reference)),
            FieldDefinition("home", .location),
            FieldDefinition("bio", .string, flags: .searchable),
        ])

    static func database() throws -> RecordDatabase {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [people]))
        func person(
            _ id: String, _ name: String, _ age: Int64?, _ score: Double, _ born: String, _ tags: [String], home: Location, bio: String
        ) -> RecordOperation {
            var fields: [String: Value] = [
                "name": .string(name), "score": .double(score), "born": .timestamp(Timestamp.parse(born) ?? Date()),
                "tags": .list(tags.map(Value.string)), "home": .location(home), "bio": .string(bio),
            ]
            fields["age"] = age.map(Value.int64)
            return .create(Record("People", recordName: id, fields: fields))
        }
        try db.modify([
            person(
                "p1", "Ana", 31, 4.5, "1994-03-01T00:00:00Z", ["admin", "staff"], home: Location(latitude: 48.8566, longitude: 2.3522),
                bio: "Loves fresh bread and cheese"),
            person("p2", "bob", 25, 3.0, "2000-07-15T12:00:00Z", ["staff"], home: Location(latitude: 48.86, longitude: 2.35), bio: "Cycles to the market"),
            person("p3", "Éva", nil, 5.0, "1988-11-30T00:00:00Z", [], home: Location(latitude: 51.5074, longitude: -0.1278), bio: "Bakes bread every morning"),
            person(
                "p4", "ÉVA", 42, 1.5, "1983-01-01T00:00:00Z", ["guest"], home: Location(latitude: 40.7128, longitude: -74.006), bio: "Coffee, then more coffee"),
            person(
                "p5", "O'Brien; DROP TABLE People; --", 25, 2.5, "1999-12-31T23:59:59Z", ["x'y"], home: Location(latitude: 0, longitude: 0),
                bio: "Quotes 'everything'"),
        ])
        try db.update(recordType: "People", recordName: "p2", fields: ["friends": .list([.reference(Reference("p1")), .reference(Reference("p3"))])])
        return db
    }

    static let cases: [(String, [String])] = [
        ("TRUEPREDICATE", ["p1", "p2", "p3", "p4", "p5"]),
        ("age == 25", ["p2", "p5"]),
        ("age = 25", ["p2", "p5"]),
        ("age != 25", ["p1", "p3", "p4"]),
        ("age < 31", ["p2", "p5"]),
        ("age <= 31", ["p1", "p2", "p5"]),
        ("age > 30", ["p1", "p4"]),
        ("age >= 42", ["p4"]),
        ("NOT (age >= 30)", ["p2", "p3", "p5"]),
        ("age BETWEEN {25, 31}", ["p1", "p2", "p5"]),
        ("age IN {31, 42}", ["p1", "p4"]),
        ("age == nil", ["p3"]),
        ("age != nil", ["p1", "p2", "p4", "p5"]),
        ("score > 2.5 AND score < 5", ["p1", "p2"]),
        ("score >= 4 OR age == 25", ["p1", "p2", "p3", "p5"]),
        ("name == 'Ana'", ["p1"]),
        ("name ==[c] 'éva'", ["p3", "p4"]),
        ("name == 'éva'", []),
        ("name BEGINSWITH 'É'", ["p3", "p4"]),
        ("name BEGINSWITH[c] 'B'", ["p2"]),
        ("name BEGINSWITH 'O*'", []),
        ("name CONTAINS 'DROP'", ["p5"]),
        ("name CONTAINS[c] 'drop table'", ["p5"]),
        ("name == \"O'Brien; DROP TABLE People; --\"", ["p5"]),
        ("name IN {'Ana', 'bob'}", ["p1", "p2"]),
        ("name IN[c] {'ana', 'BOB'}", ["p1", "p2"]),
        ("tags CONTAINS 'staff'", ["p1", "p2"]),
        ("tags CONTAINS[c] 'ADMIN'", ["p1"]),
        ("tags CONTAINS \"x'y\"", ["p5"]),
        ("NOT (tags CONTAINS 'staff')", ["p3", "p4", "p5"]),
        ("tags BEGINSWITH 'st'", ["p1", "p2"]),
        ("tags BEGINSWITH[c] 'AD'", ["p1"]),
        ("NOT (tags BEGINSWITH 'st')", ["p3", "p4", "p5"]),
        ("friends CONTAINS 'p3'", ["p2"]),
        ("born < '1990-01-01T00:00:00Z'", ["p3", "p4"]),
        ("born BETWEEN {'1990-01-01', '2000-01-01'}", ["p1", "p5"]),
        ("recordName IN {'p2', 'p4'}", ["p2", "p4"]),
        ("recordName BEGINSWITH 'p'", ["p1", "p2", "p3", "p4", "p5"]),
        ("distanceToLocation:fromLocation:(home, <48.8566, 2.3522>) < 5", ["p1", "p2"]),
        ("distanceToLocation:fromLocation:(home, <48.8566, 2.3522>) < 400", ["p1", "p2", "p3"]),
        ("self CONTAINS 'bread'", ["p1", "p3"]),
        ("self CONTAINS 'fresh bread'", ["p1"]),
        ("self CONTAINS 'coffee' OR age == 25", ["p2", "p4", "p5"]),
        ("NOT self CONTAINS 'bread'", ["p2", "p4", "p5"]),
        ("(age == 25 OR age == 42) AND NOT name BEGINSWITH 'O'", ["p2", "p4"]),
    ]

    @Test func everyOperatorSelectsTheExpectedRecords() throws {
        let db = try Self.database()
        for (text, expected) in Self.cases {
            let predicate = try PredicateParser.parse(text)
            let found = try db.records(matching: Query("People", predicate: predicate)).recordNames
            #expect(found == expected, "\(text)")
        }
    }

    @Test func sortingUsesEveryKeyThenRecordName() throws {
        let db = try Self.database()
        let byAge = try db.records(matching: Query("People", sort: [SortDescriptor("age")])).recordNames
        #expect(byAge == ["p3", "p2", "p5", "p1", "p4"], "absent first ascending, ties by recordName")
        let byAgeDescending = try db.records(matching: Query("People", sort: [SortDescriptor("age", ascending: false)])).recordNames
        #expect(byAgeDescending == ["p4", "p1", "p5", "p2", "p3"])
        let twoKeys = try db.records(matching: Query("People", sort: [SortDescriptor("age"), SortDescriptor("score", ascending: false)], limit: 3))
        #expect(twoKeys.recordNames == ["p3", "p2", "p5"])
    }

    @Test(arguments: [
        ("nope == 1", RecordError.Code.schemaViolation),
        ("age == 'x'", .schemaViolation),
        ("name > 3", .schemaViolation),
        ("tags == 'a'", .schemaViolation),
        ("home == 'x'", .schemaViolation),
        ("age ==[c] 3", .invalidArguments),
        ("age BEGINSWITH '3'", .schemaViolation),
        ("born > 'yesterday'", .invalidArguments),
        ("self CONTAINS '!!'", .invalidArguments),
    ])
    func badPredicatesSayWhatIsWrong(text: String, code: RecordError.Code) throws {
        let db = try Self.database()
        #expect {
            try db.records(matching: Query("People", predicate: try PredicateParser.parse(text)))
        } throws: { ($0 as? RecordError)?.code == code }
    }

    @Test func countingUsesThePredicateAndTheLimit() throws {
        let db = try Self.database()
        #expect(try db.count(matching: Query("People")) == 5)
        #expect(try db.count(matching: Query("People", predicate: try PredicateParser.parse("age == 25 OR tags CONTAINS 'guest'"))) == 3)
        #expect(try db.count(matching: Query("People", limit: 2)) == 2)
        #expect(try db.count(matching: Query("People", predicate: PredicateField("name") == "nobody")) == 0)
    }

    @Test func anUnknownFieldSaysHowToAddIt() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        #expect {
            try db.records(matching: Query("Items", predicate: try PredicateParser.parse("number >= 2")))
        } throws: {
            ($0 as? RecordError)?.remedy == .addField(recordType: "Items", field: "number", type: nil) && ($0 as? RecordError)?.reason == .unknownField
        }
    }

    @Test func sortingByAFieldWithoutAnOrderSaysWhatCanBeSorted() throws {
        let db = try Self.database()
        #expect {
            try db.records(matching: Query("People", sort: [SortDescriptor("home")]))
        } throws: {
            ($0 as? RecordError)?.message
                == "People.home is LOCATION, which cannot be sorted; sort by a STRING, INT64, DOUBLE, NUMBER, TIMESTAMP or REFERENCE field"
        }
    }

    @Test func theStructuredBuilderAndTheParserAgree() throws {
        let db = try Self.database()
        let built = (PredicateField("age") >= 25 && !PredicateField("name").beginsWith("O")) || PredicateField("tags").contains("guest")
        let parsed = try PredicateParser.parse("(age >= 25 AND NOT name BEGINSWITH 'O') OR tags CONTAINS 'guest'")
        #expect(try db.records(matching: Query("People", predicate: built)) == db.records(matching: Query("People", predicate: parsed)))
    }

    @Test func iteratingAWholeResultStreamsEveryRecord() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Shopping.schemaWithoutRules)
        try db.save(Shopping.list("L1", "Groceries"))
        try db.modify((0..<3000).map { .create(Shopping.item(String(format: "I%05d", $0), "Item \($0 % 7)", in: "L1")) })
        var seen = 0
        var previous: (String, String)?
        try db.forEachRecord(matching: Shopping.itemsOf("L1")) { record in
            let key = (record["name"]?.stringValue ?? "", record.recordName)
            if let previous { #expect(previous < key) }
            previous = key
            seen += 1
        }
        #expect(seen == 3000)
    }
}
