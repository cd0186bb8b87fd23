import Foundation
import Testing

/// `--json`: every command prints one JSON document on one line, errors included; the shapes
/// are snapshotted (`Fixtures/snapshots/json-every-command.txt`, generated names and times
/// replaced by placeholders), so that a change to them is a visible diff.
@Suite struct CommandJSONTests {
    static let commands = [
        "list add Groceries", "list add 'Corner shop'", "list rename 'Corner shop' Bakery",
        "item add Groceries Milk", "item add Bakery Bread",
        "schema add-field Items number INT64 QUERYABLE SORTABLE", "item set Groceries Milk number=2",
        "lists", "items Groceries", "items Groceries --where 'number > 5'", "item show Groceries Milk",
        "schema", "schema history", "schema add-type Stores", "schema export", "schema import SCHEMA",
        "explain items Groceries --sort number desc", "transactions",
        #"mutation @transaction(id: "t1") { createLists(recordName: "L9", fields: {name: "Party"}) { recordName name } }"#,
        "transactions", "transaction show t1", "transaction delete t1",
        "{ Lists(sort: [{name: ASC}]) { name Items { name number } } }",
        "item delete Bakery Bread", "list delete Bakery", "help quit", "item show Groceries Nope",
    ]

    /// `text` with recordNames, times and change tags replaced by placeholders.
    static func normalized(_ text: String) -> String {
        let patterns = [
            ("[0-9A-F]{8}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{4}-[0-9A-F]{12}", "<uuid>"),
            (#"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z"#, "<time>"),
            (#""changeTag":"[^"]+""#, #""changeTag":"<tag>""#),
        ]
        return patterns.reduce(text) { text, pattern in
            text.replacingOccurrences(of: pattern.0, with: pattern.1, options: .regularExpression)
        }
    }

    @Test func everyCommandPrintsOneJSONDocumentPerLine() async throws {
        let sandbox = Sandbox()
        let schemaFile = try sandbox.file("extra.ckdb", "DEFINE SCHEMA\n    RECORD TYPE Stores (\n        city STRING QUERYABLE\n    );\n")
        let commands = Self.commands.map { $0.replacingOccurrences(of: "SCHEMA", with: schemaFile) }
        let run = await shop(["--db", sandbox.database, "--json", "--keep-going"] + commands.flatMap { ["-e", $0] })
        #expect(run.status == 1, "the last command fails on purpose")
        let lines = run.output.split(separator: "\n").map(String.init)
        #expect(lines.count == commands.count)
        for line in lines {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8), options: [.fragmentsAllowed])) != nil, "not one JSON document: \(line)")
        }
        let transcript = zip(Self.commands, lines).map { "> \($0)\n\($1)\n" }.joined()
        try Snapshot.check(Self.normalized(transcript.replacingOccurrences(of: sandbox.folder.path, with: "SANDBOX")), named: "json-every-command")
    }
}
