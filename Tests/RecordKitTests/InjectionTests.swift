import Foundation
import TestSupport
import Testing

@testable import RecordKit

/// Hostile identifiers and predicate strings are rejected or matched literally — never executed.
@Suite struct InjectionTests {
    static let hostile = [
        "Items\"; DROP TABLE Items; --",
        "name; DELETE FROM Lists",
        "x' OR '1'='1",
        "--comment",
        "/* c */",
        "a\"b",
        "name\u{0}",
        "Ｉtems",
    ]

    @Test(arguments: hostile)
    func hostileRecordTypeAndFieldNamesAreRejectedBeforeAnySQL(name: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        let before = try db.contentDump()
        #expect(throws: RecordError.self) { try db.addRecordType(RecordType(name)) }
        #expect(throws: RecordError.self) { try db.addField(FieldDefinition(name, .string), to: "Items") }
        #expect(throws: RecordError.self) { try db.save(Record(name, recordName: "r")) }
        #expect(throws: RecordError.self) { try db.save(Record("Lists", recordName: "L2", fields: [name: .string("x")])) }
        #expect(throws: RecordError.self) { try db.records(matching: Query(name)) }
        #expect(throws: RecordError.self) { try db.records(matching: Query("Lists", sort: [SortDescriptor(name)])) }
        #expect(throws: RecordError.self) { try db.records(matching: Query("Lists", predicate: .isNull(key: name))) }
        #expect(try db.contentDump() == before)
    }

    @Test(arguments: hostile + ["'; DROP TABLE Lists; --", "%", "_", "*", "?", "[a]", "\\"])
    func hostileValuesAreStoredAndMatchedLiterally(value: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        if value.utf8.contains(0) {
            #expect { try db.save(Shopping.list("L1", value)) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
            #expect { try db.records(matching: Query("Lists", predicate: PredicateField("name") == .string(value))) } throws: {
                ($0 as? RecordError)?.code == .invalidArguments
            }
            #expect(try db.count("Lists") == 0)
            return
        }
        try db.save(Shopping.list("L1", value))
        try db.save(Shopping.list("L2", "plain"))
        #expect(try db.fetch(recordName: "L1")?["name"] == .string(value))
        if value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) {
            #expect { try db.save(Shopping.list(value, "as a recordName")) } throws: { ($0 as? RecordError)?.code == .invalidArguments }
        } else {
            try db.save(Shopping.list(value, "as a recordName"))
            #expect(try db.fetch(recordName: value)?["name"] == .string("as a recordName"))
        }
        let literal = Predicate.Literal.string(value)
        for predicate in [
            PredicateField("name") == literal,
            PredicateField("name").beginsWith(value),
            PredicateField("name").contains(literal),
            PredicateField("name").isIn([literal]),
        ] {
            #expect(try db.records(matching: Query("Lists", predicate: predicate)).recordNames == ["L1"], "\(predicate)")
        }
        #expect(try db.records(matching: Query("Lists", predicate: PredicateField("name") == literal)).count == 1)
    }

    /// SQL keywords are valid names: they are always quoted, so they work as plain names.
    @Test(arguments: ["SELECT", "DROP", "TABLE", "WHERE", "sqlite_master", "rowid"])
    func sqlKeywordsAreOrdinaryNames(name: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.addField(FieldDefinition(name, .string, flags: [.queryable, .sortable]), to: "Lists")
        try db.save(Record("Lists", recordName: "L1", fields: ["name": .string("Groceries"), name: .string("x")]))
        let query = Query("Lists", predicate: PredicateField(name) == "x", sort: [SortDescriptor(name)])
        #expect(try db.records(matching: query).recordNames == ["L1"])
        if !name.lowercased().hasPrefix("sqlite_") {
            try db.addRecordType(RecordType(name, fields: [FieldDefinition("name", .string)]))
            try db.save(Record(name, recordName: "r1", fields: ["name": .string("y")]))
            #expect(try db.fetch(recordName: "r1")?.recordType == name)
        }
    }

    @Test func recordTypesNamedLikeSQLiteInternalsAreRejectedClearly() throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        #expect {
            try db.addRecordType(RecordType("sqlite_stat1"))
        } throws: { ($0 as? RecordError)?.code == .invalidArguments && "\($0)".contains("sqlite_") }
    }

    @Test(arguments: [
        "name == 'x'; DROP TABLE Lists; --",
        "name == 'x' -- AND 1",
        "name == x'00'",
        "name == 'a' OR 1=1",
        "name); DROP TABLE Lists; --",
        "name == \"\\\"; DROP TABLE Lists; --\"",
    ])
    func hostilePredicateTextIsRejectedOrMatchedLiterally(text: String) throws {
        let db = try RecordDatabase.inMemory(bootstrap: .shopping)
        try db.save(Shopping.list("L1", "Groceries"))
        switch Result(catching: { () throws(RecordError) in try PredicateParser.parse(text) }) {
        case .success(let predicate):
            let outcome = Result(catching: { () throws(RecordError) in try db.records(matching: Query("Lists", predicate: predicate)) })
            switch outcome {
            case .success(let records): #expect(records.isEmpty)
            case .failure(let error): #expect([.invalidArguments, .schemaViolation].contains(error.code))
            }
        case .failure(let error):
            #expect([.invalidArguments, .schemaViolation].contains(error.code))
        }
        #expect(try db.count("Lists") == 1)
        #expect(try db.schema.recordTypes.count == 2)
    }
}
