import Testing
@testable import ShopCLI

/// The help text is documentation: snapshotted so that every change to it is a visible diff.
@Suite struct HelpTests {
    @Test func helpListsEveryCommandOnOneLine() async throws {
        let sandbox = Sandbox()
        let run = await shop(["--db", sandbox.database, "-e", "help"])
        #expect(run.status == 0)
        try Snapshot.check(run.output, named: "help")
        for command in ["lists", "list add", "list rename", "list delete", "items", "item add", "item set", "item delete",
                        "count", "import", "export", "schema ", "schema export", "schema import", "schema history", "schema add-field", "schema add-type",
                        "schema graphql", "transactions", "transaction show", "transaction delete", "explain", "source", "help", "quit"] {
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
