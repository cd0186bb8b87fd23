import Foundation
import GraphQL
import RecordKit
import RecordQL
import TestSupport
import Testing

@testable import ShopCLI

/// Hostile strings as field values, recordNames, predicates and identifiers, through the engine,
/// the query language and the REPL: each is rejected with a clear error or stored and read back
/// byte for byte, and data never alters the schema (values are bound, identifiers
/// validated against the schema).
@Suite("Hostile input")
struct HostileInputTests {
    struct Hostile: CustomTestStringConvertible, Sendable {
        var testDescription: String
        var text: String

        init(_ name: String, _ text: String) {
            testDescription = name
            self.text = text
        }

        /// The text holds a line end, which ends a REPL line.
        var breaksLines: Bool { text.unicodeScalars.contains { "\n\r\u{2028}\u{2029}\u{85}\u{0B}\u{0C}".unicodeScalars.contains($0) } }
    }

    static let strings: [Hostile] = [
        Hostile("single quote", "'"),
        Hostile("double quote", "\""),
        Hostile("two single quotes", "''"),
        Hostile("SQL drop after a quote", "'; DROP TABLE Items; --"),
        Hostile("SQL drop after a double quote", "\"; DROP TABLE Lists; --"),
        Hostile("Bobby Tables", "Robert'); DROP TABLE Students;--"),
        Hostile("tautology", "x' OR '1'='1"),
        Hostile("numeric tautology", "1 OR 1=1"),
        Hostile("union select", "' UNION SELECT sql FROM sqlite_master --"),
        Hostile("attach", "'; ATTACH DATABASE '/tmp/pwned.sqlite' AS pwned; --"),
        Hostile("pragma", "'; PRAGMA writable_schema = ON; --"),
        Hostile("internal table name", "_meta"),
        Hostile("sqlite_master", "sqlite_master"),
        Hostile("SQL comment", "--"),
        Hostile("block comment", "/* */"),
        Hostile("SQL function", "json_object('a', 1)"),
        Hostile("concatenation", "' || sqlite_version() || '"),
        Hostile("LIKE wildcards", "%_%"),
        Hostile("GLOB wildcards", "*?[a-z]"),
        Hostile("positional parameter", "?1"),
        Hostile("named parameters", ":name @name $name"),
        Hostile("backslash", "\\"),
        Hostile("escaped quote", "\\'"),
        Hostile("NUL alone", "\u{0}"),
        Hostile("NUL inside", "Milk\u{0}; DROP TABLE Items"),
        Hostile("newline", "Oat\nmilk"),
        Hostile("carriage return", "Oat\rmilk"),
        Hostile("CRLF", "Oat\r\nmilk"),
        Hostile("tab", "Oat\tmilk"),
        Hostile("bell and escape", "\u{7}\u{1B}[31mred"),
        Hostile("DEL", "\u{7F}"),
        Hostile("empty", ""),
        Hostile("spaces only", "   "),
        Hostile("leading and trailing spaces", "  Milk  "),
        Hostile("zero-width space", "Mi\u{200B}lk"),
        Hostile("right-to-left override", "\u{202E}klim"),
        Hostile("byte order mark", "\u{FEFF}Milk"),
        Hostile("line separator", "Oat\u{2028}milk"),
        Hostile("Cyrillic confusable", "Іtems"),
        Hostile("fullwidth confusable", "Ｉｔｅｍｓ"),
        Hostile("Greek question mark", "name\u{37E} DROP"),
        Hostile("composed é", "caf\u{E9}"),
        Hostile("decomposed é", "cafe\u{301}"),
        Hostile("lone combining mark", "\u{301}"),
        Hostile("emoji (4-byte UTF-8)", "🥛"),
        Hostile("mathematical letters (4-byte)", "𝕄𝕚𝕝𝕜"),
        Hostile("flag (two scalars)", "🇫🇷"),
        Hostile("family (ZWJ sequence)", "👨‍👩‍👧‍👦"),
        Hostile("last scalar", "\u{10FFFF}"),
        Hostile("replacement character", "\u{FFFD}"),
        Hostile("shell substitution", "$(rm -rf /)"),
        Hostile("backticks", "`id`"),
        Hostile("HTML", "<script>alert(1)</script>"),
        Hostile("GraphQL braces", "} mutation { deleteLists(recordName: \"L1\") { deleted } }"),
        Hostile("REPL comment", "# not a comment"),
        Hostile("predicate keywords", "TRUEPREDICATE OR name != nil"),
        Hostile("NULL", "NULL"),
        Hostile("256 bytes", String(repeating: "x", count: 256)),
        Hostile("1 MiB (the largest value)", String(repeating: "m", count: Limits.maximumValueBytes)),
        Hostile("10 MB", String(repeating: "🥛", count: 2_500_000)),
    ]

    // MARK: Values

    @Test(arguments: strings)
    func asAValueItIsStoredAndReadBackExactlyOrRejected(_ hostile: Hostile) async throws {
        let sandbox = Sandbox()
        // Without the shopping schema's rules: the engine, then GraphQL twice, store the same name.
        let database = try RecordDatabase(path: sandbox.database, bootstrap: try Schema.shopping.withoutRules)
        let schema = try database.schema.ckdb
        let text = hostile.text

        // The engine.
        let engine = Outcome { try database.save(Record("Lists", recordName: "E", fields: ["name": .string(text)])) }
        if engine.stored {
            #expect(try database.fetch(recordName: "E")?["name"]?.stringValue?.utf8.elementsEqual(text.utf8) == true)
            #expect(try database.records(matching: Query("Lists", predicate: PredicateField("name") == .string(text))).map(\.recordName) == ["E"])
        }
        if text.utf8.contains(0) { #expect(engine.code == .invalidArguments) }
        if text.utf8.count > Limits.maximumValueBytes { #expect(engine.code == .limitExceeded) }

        // The query language, with the value as a variable and as a literal in the document.
        let ql = RecordQLEngine(database: database)
        for (recordName, document, variables) in [
            ("V", #"mutation($v: String) { createLists(recordName: "V", fields: {name: $v}) { name } }"#, ["v": Map.string(text)]),
            ("D", #"mutation { createLists(recordName: "D", fields: {name: \#(Self.graphQLString(text))}) { name } }"#, [:]),
        ] {
            let response = await ql.execute(document, variables: variables)
            if engine.stored && document.utf8.count <= 1 << 20 {
                #expect(response.isSuccess, "\(response.json.prefix(300))")
                let found = await ql.execute(
                    #"query($v: String) { Lists(where: {name: {eq: $v}}, sort: [{name: ASC}]) { recordName name } }"#, variables: ["v": .string(text)])
                let names = try Self.names(in: found.json)
                #expect(names.contains { $0.recordName == recordName && $0.name.utf8.elementsEqual(text.utf8) }, "\(found.json.prefix(300))")
            } else {
                Self.expectClearFailure(response.errors.map { ($0.code, $0.message) }.first, hostile)
            }
        }

        // The REPL, on a database of its own: `list add` with the name quoted as the REPL
        // quotes it.
        let repl = Sandbox()
        // A word starting with '-' is an option unless `--` ends the options first.
        let run = await shop(["--db", repl.database, "-e", "list add " + (text.hasPrefix("-") ? "-- " : "") + LineTokenizer.quote(text)])
        if run.status == 0 {
            let lists = try RecordDatabase(path: repl.database, bootstrap: .shopping).records(matching: Query("Lists"))
            #expect(
                lists.count == 1 && lists[0]["name"]?.stringValue?.utf8.elementsEqual(text.utf8) == true,
                "the REPL stored something else than \(hostile.testDescription)")
        } else {
            #expect(run.errors.hasPrefix("error: ") && !run.errors.contains("internalError"), "\(run.errors.prefix(300))")
            #expect(
                !engine.stored || hostile.breaksLines || text.trimmingWhitespace.isEmpty, "the REPL refused what the engine stores: \(run.errors.prefix(300))")
        }
        #expect(try database.schema.ckdb == schema)
        #expect(try DatabaseAudit.problems(at: sandbox.database).isEmpty)
    }

    // MARK: recordNames

    @Test(arguments: strings)
    func asARecordNameItNamesExactlyOneRecordOrIsRejected(_ hostile: Hostile) async throws {
        let database = try RecordDatabase.inMemory(bootstrap: .shopping)
        let text = hostile.text
        let engine = Outcome { try database.save(Record("Lists", recordName: text, fields: ["name": .string("Groceries")])) }
        if engine.stored {
            #expect(try database.fetch(recordName: text)?.recordName.utf8.elementsEqual(text.utf8) == true)
            try database.save(Record("Items", recordName: "I", fields: ["name": .string("Milk"), "list": .reference(Reference(text, action: .deleteSelf))]))
            #expect(try database.delete(recordName: text).count == 2, "the cascade follows the exact recordName")
        } else {
            #expect(engine.code == .invalidArguments, "\(engine)")
        }
        let ql = RecordQLEngine(database: database)
        let response = await ql.execute(
            #"mutation($n: ID) { createLists(recordName: $n, fields: {name: "x"}) { recordName } }"#, variables: ["n": .string(text)])
        if engine.stored {
            #expect(response.isSuccess, "\(response.json.prefix(300))")
            #expect(try database.fetch(recordName: text) != nil)
        } else {
            Self.expectClearFailure(response.errors.map { ($0.code, $0.message) }.first, hostile)
        }
    }

    /// Canonically equivalent names are equal Swift strings but different recordNames: a
    /// DELETE_SELF reference to the decomposed name of a record saved under the composed one
    /// points at nothing, even in the same batch.
    @Test func canonicallyEquivalentRecordNamesAreDifferentRecords() throws {
        let database = try RecordDatabase.inMemory(bootstrap: .shopping)
        let composed = "caf\u{E9}", decomposed = "cafe\u{301}"
        #expect(composed == decomposed && !composed.utf8.elementsEqual(decomposed.utf8))
        #expect {
            try database.modify([
                .create(Record("Lists", recordName: composed, fields: ["name": .string("Café")])),
                .create(Record("Items", recordName: "I", fields: ["name": .string("Milk"), "list": .reference(Reference(decomposed, action: .deleteSelf))])),
            ])
        } throws: { ($0 as? RecordError)?.code == .referenceViolation }
        #expect(try database.fetch(recordName: composed) == nil)
        try database.save(Record("Lists", recordName: composed, fields: ["name": .string("Café")]))
        try database.save(Record("Lists", recordName: decomposed, fields: ["name": .string("Cafe\u{301}")]))
        #expect(try database.fetch(recordName: decomposed)?["name"] == .string("Cafe\u{301}"))
        #expect(try database.delete(recordName: composed).elementsEqual([composed]) { $0.utf8.elementsEqual($1.utf8) })
        #expect(try database.fetch(recordName: decomposed) != nil)
    }

    // MARK: Predicates

    @Test(arguments: strings)
    func asAPredicateItFailsCleanlyOrRunsAndChangesNothing(_ hostile: Hostile) async throws {
        let sandbox = Sandbox()
        #expect(await shop(["--db", sandbox.database, "-e", "list add Groceries", "-e", "item add Groceries Milk"]).status == 0)
        let database = try RecordDatabase(path: sandbox.database, bootstrap: .shopping)
        let before = try sandbox.contents()
        let text = hostile.text
        do {
            _ = try database.records(matching: Query("Items", predicate: try PredicateParser.parse(text)))
        } catch {
            #expect(error.code == .invalidArguments || error.code == .limitExceeded || error.code == .schemaViolation, "\(error)")
        }
        let response = await RecordQLEngine(database: database).execute("query($p: String) { Items(predicate: $p) { name } }", variables: ["p": .string(text)])
        #expect(!response.json.contains("internalError"), "\(response.json.prefix(300))")
        let run = await shop(["--db", sandbox.database, "-e", "items Groceries --where " + LineTokenizer.quote(text)])
        #expect(run.status == 0 || (run.errors.hasPrefix("error: ") && !run.errors.contains("internalError")), "\(run.errors.prefix(300))")
        #expect(try sandbox.contents() == before)
    }

    // MARK: Identifiers

    @Test(arguments: strings)
    func asAFieldNameItIsRejectedUnlessItIsAName(_ hostile: Hostile) async throws {
        let sandbox = Sandbox()
        let database = try RecordDatabase(path: sandbox.database, bootstrap: .shopping)
        let before = try database.schema
        let text = hostile.text
        let isName = Identifier.isValid(text) && !text.hasPrefix("_")
        let run = await shop(["--db", sandbox.database, "-e", "schema add-field Items " + LineTokenizer.quote(text) + " STRING"])
        let after = try database.schema
        if isName {
            #expect(run.status == 0, "\(run.errors.prefix(300))")
            #expect(try after == before.applying([.addField(recordType: "Items", FieldDefinition(text, .string))]))
        } else {
            #expect(run.status == 1 && run.errors.hasPrefix("error: invalidArguments: "), "\(run.errors.prefix(300))")
            #expect(after == before)
            #expect(throws: RecordError.self) { try database.addRecordType(RecordType(text)) }
        }
        let response = await RecordQLEngine(database: database).execute("{ Lists { \(text.prefix(1000)) } }")
        #expect(!response.json.contains("internalError"), "\(response.json.prefix(300))")
        #expect(try database.schema == after)
    }

    // MARK: Script files

    @Test func aScriptWithWindowsLineEndsRunsLineByLine() async throws {
        let sandbox = Sandbox()
        let script = try sandbox.file("crlf.shop", "list add Groceries\r\nitem add Groceries Milk\r\n# a comment\r\nlists\r\n")
        let run = await shop(["--db", sandbox.database, "-f", script])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try sandbox.contents().hasPrefix("list Groceries\n  item Milk number=unset\n"))
    }

    // MARK: Helpers

    /// What a save did: stored, or failed with a code.
    struct Outcome: CustomStringConvertible {
        var code: RecordError.Code?
        var message = ""
        var stored: Bool { code == nil }
        var description: String { code.map { "\($0): \(message.prefix(200))" } ?? "stored" }

        init(_ body: () throws -> Void) {
            do {
                try body()
            } catch let error as RecordError {
                code = error.code
                message = error.message
            } catch {
                code = .internalError
                message = "\(error)"
            }
        }
    }

    static func expectClearFailure(_ failure: (RecordError.Code, String)?, _ hostile: Hostile, sourceLocation: Testing.SourceLocation = #_sourceLocation) {
        guard let (code, message) = failure else {
            Issue.record("\(hostile.testDescription) was accepted by one layer and refused by another", sourceLocation: sourceLocation)
            return
        }
        #expect(code != .internalError && !message.isEmpty, "\(code): \(message.prefix(300))", sourceLocation: sourceLocation)
    }

    /// `text` as a GraphQL string literal: a JSON string literal is one (same escapes).
    static func graphQLString(_ text: String) -> String {
        JSONText.string(text)
    }

    /// The recordNames and names in a `{"data":{"Lists":[…]}}` response. (Decoded with
    /// `JSONDecoder`: Foundation's `JSONSerialization` on Linux drops U+FEFF from strings.)
    static func names(in json: String) throws -> [(recordName: String, name: String)] {
        struct Response: Decodable {
            struct Data: Decodable { var Lists: [List] }
            struct List: Decodable { var recordName: String; var name: String }
            var data: Data
        }
        return try JSONDecoder().decode(Response.self, from: Data(json.utf8)).data.Lists.map { ($0.recordName, $0.name) }
    }
}
