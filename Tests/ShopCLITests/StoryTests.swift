import Foundation
import RecordKit
import TestSupport
import Testing

@testable import ShopCLI

/// The brief's story (Scripts/examples/groceries.shop) run every way shop reads commands.
@Suite struct StoryTests {
    static let script = ShopBinary.file("Scripts/examples/groceries.shop")

    /// The script's commands, one per line, without comments and blank lines.
    static func commands() throws -> [String] {
        try String(contentsOfFile: script, encoding: .utf8).split(separator: "\n").map(String.init)
            .filter { !$0.trimmingWhitespace.isEmpty && !$0.hasPrefix("#") }
    }

    /// What the story leaves in the database.
    static let expectedLists = """
        list Groceries
          item Apples number=6
          item Bread number=unset
          item Milk number=2

        """

    @Test func theStoryGivesTheSameResultsThroughDashEAScriptFileAndAPipe() throws {
        let viaCommands = Sandbox(), viaFile = Sandbox(), viaPipe = Sandbox()
        let commands = try Self.commands()
        let runs = [
            try ShopBinary.shop(["--db", viaCommands.database] + commands.flatMap { ["-e", $0] }),
            try ShopBinary.shop(["--db", viaFile.database, "-f", Self.script]),
            try ShopBinary.shop(["--db", viaPipe.database], input: String(contentsOfFile: Self.script, encoding: .utf8)),
        ].compactMap { $0 }
        try #require(runs.count == 3)
        for run in runs {
            #expect(run.status == 0)
            #expect(run.errors == "")
            #expect(run.output == runs[0].output)
        }
        try Snapshot.check(runs[0].output, named: "groceries-story")
        let contents = try viaCommands.contents()
        #expect(contents.hasPrefix(Self.expectedLists))
        #expect(contents.contains("number          INT64 QUERYABLE SORTABLE"))
        #expect(try viaFile.contents() == contents)
        #expect(try viaPipe.contents() == contents)
    }

    @Test func theStoryRunsInProcessToo() async throws {
        let sandbox = Sandbox()
        let run = await shop(["--db", sandbox.database, "-f", Self.script])
        #expect(run.status == 0, "\(run.errors)")
        #expect(try sandbox.contents().hasPrefix(Self.expectedLists))
    }

    @Test func dashEAndDashFRunInTheOrderGiven() async throws {
        let sandbox = Sandbox()
        let file = try sandbox.file("add.shop", "list add Second\n")
        let run = await shop(["--db", sandbox.database, "-e", "list add First", "-f", file, "-e", "lists", "-e", "list delete First"])
        #expect(run.status == 0, "\(run.errors)")
        #expect(
            run.output == """
                added list First
                added list Second
                list    items
                First       0
                Second      0
                deleted list First and its 0 items

                """)
    }

    @Test func theSchemaEvolutionExampleRuns() async throws {
        let sandbox = Sandbox()
        let run = await shop(["--db", sandbox.database, "-f", ShopBinary.file("Scripts/examples/schema-evolution.shop")])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("added field Items.store REFERENCE(Stores) QUERYABLE"))
        #expect(try sandbox.contents().contains("store           REFERENCE QUERYABLE, // references Stores"))
    }

    @Test func theGraphQLExampleRunsAfterTheStory() async throws {
        let sandbox = Sandbox()
        let story = await shop(["--db", sandbox.database, "-f", Self.script])
        #expect(story.status == 0)
        let queries = await shop(["--db", sandbox.database, "--json", "-f", ShopBinary.file("Scripts/examples/queries.graphql")])
        #expect(queries.status == 0, "\(queries.errors)")
        let lines = queries.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.allSatisfy { $0.hasPrefix("{\"data\":") && $0.contains("Milk") })
    }

    @Test func startingAndPlainCommandsDoNotBuildTheGraphQLSchema() async throws {
        let sandbox = Sandbox()
        let (console, _) = Console.capturing()
        let session = ShopSession(database: try RecordDatabase(path: sandbox.database, bootstrap: .shopping), console: console)
        let result = await ScriptRunner.run(lines: ["list add Groceries", "item add Groceries Milk", "lists", "items Groceries"], name: nil, in: session)
        #expect(result.failures == 0)
        #expect(!session.hasQueryEngine)
        _ = await ScriptRunner.run(lines: ["{ Lists { name } }"], name: nil, in: session)
        #expect(session.hasQueryEngine)
    }
}
