import Foundation
import Testing

@testable import ShopCLI

/// The help text is documentation: snapshotted so that every change to it is a visible diff.
@Suite struct HelpTests {
    @Test func helpListsEveryCommandOnOneLine() async throws {
        let sandbox = Sandbox()
        let run = await shop(["--db", sandbox.database, "-e", "help"])
        #expect(run.status == 0)
        try Snapshot.check(run.output, named: "help")
        for command in [
            "lists", "list add", "list rename", "list delete", "items", "item add", "item set", "item delete",
            "count", "import", "export", "schema ", "schema export", "schema import", "schema history", "schema add-field", "schema add-type",
            "schema graphql", "transactions", "transaction show", "transaction delete", "explain", "source", "help", "quit",
        ] {
            #expect(run.output.contains("\n  \(command)"), "help does not list \(command)")
        }
    }

    @Test(arguments: [
        ["help", "item", "add"], ["help", "items"], ["help", "schema", "add-field"], ["items", "--help"],
        ["help", "count"], ["help", "import"], ["help", "export"],
    ])
    func helpForACommandShowsItsUsageAndAnExample(_ words: [String]) async throws {
        let sandbox = Sandbox()
        let run = await shop(["--db", sandbox.database, "-e", words.joined(separator: " ")])
        #expect(run.status == 0)
        #expect(run.output.contains("USAGE: "))
        #expect(run.output.contains("Example:"))
        if words.first == "help" {
            try Snapshot.check(run.output, named: words.joined(separator: "-"))
        }
    }

    @Test func shopHelpDescribesTheCommandLine() async throws {
        let run = await shop(["--help"])
        #expect(run.status == 0)
        try Snapshot.check(run.output, named: "shop-help")
    }
}

/// Every help page, snapshotted, without the parser's glitches; `help graphql` is true.
@Suite struct HelpPagesTests {
    @Test func everyHelpPageIsSnapshottedAndReadsRight() async throws {
        let sandbox = Sandbox()
        var pages = ""
        let names = ShopCommands.configuration.subcommands.flatMap { parent in
            [ShopCommands.name(of: parent)] + parent.configuration.subcommands.map { "\(ShopCommands.name(of: parent)) \(ShopCommands.name(of: $0))" }
        }
        for words in names {
            let run = await shop(["--db", sandbox.database, "-e", "help \(words)"])
            #expect(run.status == 0, "help \(words): \(run.errors)")
            #expect(!run.output.contains("' help"), "help \(words) has the stray space")
            #expect(run.output.split(separator: "\n").allSatisfy { $0.count <= HelpCommand.columns }, "help \(words) is wider than \(HelpCommand.columns)")
            pages += "=== help \(words)\n" + run.output
        }
        try Snapshot.check(pages, named: "help-every-command")
    }

    @Test func helpGraphQLDescribesTheLanguageAndItsExamplesRun() async throws {
        let sandbox = Sandbox()
        let help = await shop(["--db", sandbox.database, "-e", "help graphql"])
        #expect(help.status == 0)
        try Snapshot.check(help.output, named: "help-graphql")
        #expect(help.output.split(separator: "\n").allSatisfy { $0.count <= HelpCommand.columns })
        for topic in ["QUERIES", "FILTERS", "PREDICATE", "SORT", "PAGES", "MUTATIONS", "@transaction", "EXAMPLES"] {
            #expect(help.output.contains(topic))
        }
        let examples = help.output.components(separatedBy: "EXAMPLES\n")[1].split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let setUp =
            #"mutation { createLists(recordName: "L1", fields: {name: "Groceries"}) { name } createItems(recordName: "I1", fields: {name: "Milk", list: {recordName: "L1"}}) { name } }"#
        let run = await shop(
            ["--db", sandbox.database, "-e", "schema add-field Items number INT64 QUERYABLE SORTABLE", "-e", setUp] + examples.flatMap { ["-e", $0] })
        #expect(run.status == 0, "\(run.errors)")
    }
}
