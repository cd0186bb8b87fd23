import Foundation
import Testing

@testable import ShopCLI

/// `shop -1` / `--single-transaction`: every -e and -f in one transaction, as psql's `-1`.
@Suite struct SingleTransactionTests {
    @Test func aFailingScriptIsRolledBackWhole() async throws {
        let sandbox = Sandbox()
        let setup = await shop(["--db", sandbox.database, "-e", "list add Groceries"])
        try #require(setup.status == 0)
        let before = try sandbox.contents()
        let script = try sandbox.file(
            "story.shop",
            """
            list add Party
            item add Party Cake
            schema add-field Items number INT64
            mutation { createLists(fields: {name: "Work"}) { name } }
            items Nowhere
            list add Never
            """)
        let run = await shop(["--db", sandbox.database, "-1", "-f", script])
        #expect(run.status == 1)
        #expect(run.errors.contains("\(script):5: error: unknownItem: there is no list named 'Nowhere'"), "\(run.errors)")
        #expect(run.errors.hasSuffix("rolled back: -1 runs every -e and -f as one transaction, and it did not finish; nothing was applied\n"))
        #expect(try sandbox.contents() == before)
    }

    @Test func aSucceedingRunCommitsAndEachCommandSeesTheOnesBefore() async throws {
        let sandbox = Sandbox()
        let run = await shop([
            "--db", sandbox.database, "--single-transaction", "-e", "list add Party", "-e", "item add Party Cake",
            "-e", "schema add-field Items number INT64", "-e", "item set Party Cake number=3", "-e", "items Party",
        ])
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.contains("Cake"), "\(run.output)")
        #expect(try sandbox.contents().contains("Cake"))
        let again = await shop(["--db", sandbox.database, "-e", "items Party"])
        #expect(again.output.contains("3"), "\(again.output)")
    }

    @Test func keepGoingStillRollsBackWhenACommandFailed() async throws {
        let sandbox = Sandbox()
        let before = try sandbox.contents()
        let run = await shop(["--db", sandbox.database, "-1", "--keep-going", "-e", "list add A", "-e", "lsts", "-e", "list add B"])
        #expect(run.status == 1)
        #expect(try sandbox.contents() == before)
    }

    @Test func singleTransactionNeedsCommandsAndDbNeedsAPath() async {
        let bare = await shop(["-1"])
        #expect(bare.status == 1)
        #expect(bare.errors.hasPrefix("error: invalidArguments: -1 (--single-transaction) runs the -e commands and -f files"), "\(bare.errors)")
        let empty = await shop(["--db", "", "-e", "lists"])
        #expect(empty.status == 1)
        #expect(empty.errors.hasPrefix("error: invalidArguments: --db '' names no file"), "\(empty.errors)")
    }
}
