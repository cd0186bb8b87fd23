import Foundation
import TestSupport
import Testing

@testable import RecordKit

@Suite struct ValueTests {
    static let everything = RecordType(
        "Everything",
        fields: [
            FieldDefinition("s", .string), FieldDefinition("i", .int64), FieldDefinition("d", .double),
            FieldDefinition("n", .number(preferred: nil)), FieldDefinition("t", .timestamp), FieldDefinition("b", .bytes),
            FieldDefinition("r", .reference), FieldDefinition("a", .asset), FieldDefinition("l", .location),
            FieldDefinition("ls", .list(.string)), FieldDefinition("li", .list(.int64)), FieldDefinition("ld", .list(.double)),
            FieldDefinition("lt", .list(.timestamp)), FieldDefinition("lb", .list(.bytes)), FieldDefinition("lr", .list(.reference)),
            FieldDefinition("ll", .list(.location)), FieldDefinition("la", .list(.asset)),
        ])

    @Test func everyFieldTypeRoundTrips() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [Self.everything]))
        let date = Date(timeIntervalSince1970: 1_763_717_100.123)
        let content = Data("hello asset".utf8)
        let fields: [String: Value] = [
            "s": .string("héllo 𝄞 \"quoted\" \n"), "i": .int64(.max), "d": .double(-0.5), "n": .int64(7),
            "t": .timestamp(date), "b": .bytes(Data([0, 1, 2, 255])), "r": .reference(Reference("elsewhere")),
            "a": .asset(Asset(content: content)), "l": .location(Location(latitude: -33.8688, longitude: 151.2093)),
            "ls": .list([.string("a"), .string("\u{1}b")]), "li": .list([.int64(.min), .int64(0)]),
            "ld": .list([.double(1.25), .double(-3)]), "lt": .list([.timestamp(date)]), "lb": .list([.bytes(Data([9]))]),
            "lr": .list([.reference(Reference("x", action: .none))]), "ll": .list([.location(Location(latitude: 1, longitude: 2))]),
            "la": .list([.asset(Asset(content: content))]),
        ]
        let saved = try db.save(Record("Everything", recordName: "e1", fields: fields))
        let fetched = try #require(try db.fetch(recordName: "e1"))
        #expect(fetched.fields == saved.fields)
        #expect(fetched.fields == fields)
        #expect(fetched.changeTag == saved.changeTag)
        guard case .asset(let asset)? = fetched["a"] else { Issue.record("no asset"); return }
        #expect(asset.size == content.count)
        #expect(try db.assetContent(sha256: asset.sha256) == content)
    }

    @Test(arguments: [
        ("i", Value.string("2"), "Everything.i is INT64 but the value given is STRING '2'"),
        ("s", .int64(2), "Everything.s is STRING but the value given is INT64 '2'"),
        ("r", .string("L1"), "Everything.r is REFERENCE but the value given is STRING"),
        ("ls", .list([.int64(1)]), "element 0 is INT64"),
        ("l", .location(Location(latitude: 91, longitude: 0)), "is not a location"),
        ("d", .double(.nan), "nan cannot be stored"),
        ("d", .double(-.infinity), "-inf cannot be stored"),
        ("nope", .int64(1), "Everything has no field 'nope'"),
    ])
    func valuesOfTheWrongTypeAreRejectedNamingFieldExpectedAndGiven(field: String, value: Value, message: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [Self.everything]))
        #expect {
            try db.save(Record("Everything", recordName: "e1", fields: [field: value]))
        } throws: { error in
            guard let error = error as? RecordError else { return false }
            return [.schemaViolation, .invalidArguments].contains(error.code) && error.message.contains(message) && error.field == field
        }
        #expect(try db.fetch(recordName: "e1") == nil)
    }

    @Test(arguments: ["", String(repeating: "x", count: 256), "a\nb"])
    func invalidRecordNamesAreRejected(name: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        #expect { try db.save(Shopping.list(name, "x")) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
    }

    @Test func bytesListsMatchContainsByValueOrBase64() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [Self.everything]))
        try db.save(Record("Everything", recordName: "e1", fields: ["lb": .list([.bytes(Data([1, 2, 3])), .bytes(Data([9]))])]))
        for predicate in [PredicateField("lb").contains(.value(.bytes(Data([1, 2, 3])))), try PredicateParser.parse("lb CONTAINS 'AQID'")] {
            #expect(try db.records(matching: Query("Everything", predicate: predicate)).recordNames == ["e1"])
        }
        #expect(try db.records(matching: Query("Everything", predicate: PredicateField("lb").contains(.value(.bytes(Data([1])))))).isEmpty)
    }

    @Test func aGeneratedRecordNameIsAUUID() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let saved = try db.save(Record("Lists", fields: ["name": .string("x")]))
        #expect(UUID(uuidString: saved.recordName) != nil)
    }

    @Test func updatingWithNilRemovesAValue() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition("note", .string), to: "Lists")
        try db.save(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries"), "note": .string("weekly")]))
        let updated = try db.update(recordType: "Lists", recordName: "L1", fields: ["note": nil])
        #expect(updated["note"] == nil)
        #expect(updated.createdAt != nil && updated.modifiedAt != nil)
    }
}

/// The limits of ``Limits``, tested at the boundary: the largest accepted value is stored, one
/// byte more is `limitExceeded` and changes nothing.
@Suite struct LimitTests {
    @Test func valuesAreLimitedAtTheBoundary() throws {
        let db = try RecordDatabase.inMemory(bootstrap: Schema(recordTypes: [ValueTests.everything]))
        let largest = String(repeating: "x", count: Limits.maximumValueBytes)
        try db.save(
            Record(
                "Everything", recordName: "ok",
                fields: [
                    "s": .string(largest), "b": .bytes(Data(count: Limits.maximumValueBytes)),
                ]))
        #expect(try db.fetch(recordName: "ok")?["s"] == .string(largest))
        for (field, value) in [
            ("s", Value.string(largest + "y")),
            ("b", .bytes(Data(count: Limits.maximumValueBytes + 1))),
            ("ls", .list([.string(largest)])),
        ] {
            #expect {
                try db.save(Record("Everything", recordName: "too-big", fields: [field: value]))
            } throws: { ($0 as? RecordError)?.code == .limitExceeded && "\($0)".contains("ASSET") }
        }
        #expect(try db.fetch(recordName: "too-big") == nil)
    }

    @Test func batchesAreLimitedAtTheBoundary() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let tooMany = [RecordOperation](repeating: .delete(recordName: "x"), count: Limits.maximumBatchOperations + 1)
        #expect { try db.modify(tooMany) } throws: { ($0 as? RecordError)?.code == .limitExceeded }
        // At the limit the batch is accepted and runs: its first delete fails on the missing record.
        let atTheLimit = [RecordOperation](repeating: .delete(recordName: "x"), count: Limits.maximumBatchOperations)
        #expect { try db.modify(atTheLimit) } throws: { ($0 as? RecordError)?.code == .unknownItem }
    }

    @Test func inListsAreLimitedAtTheBoundary() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        let values = (0...Limits.maximumInListCount).map { Predicate.Literal.string("n\($0)") }
        #expect(try db.records(matching: Query("Lists", predicate: PredicateField("name").isIn(Array(values.dropLast())))).isEmpty)
        #expect {
            try db.records(matching: Query("Lists", predicate: PredicateField("name").isIn(values)))
        } throws: { ($0 as? RecordError)?.code == .limitExceeded }
    }
}
