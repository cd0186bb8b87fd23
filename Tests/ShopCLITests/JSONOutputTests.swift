import Foundation
import RecordKit
import RecordQL
import TestSupport
import Testing

@testable import ShopCLI

/// `--json` prints the query-language engine's response, byte for byte, one line per document.
@Suite struct JSONOutputTests {
    static let query = "{ Lists(sort: [{name: ASC}]) { name Items(sort: [{name: ASC}]) { name } } }"

    @Test func jsonOutputIsTheEngineResponseByteForByte() async throws {
        let sandbox = Sandbox()
        let story = await shop(["--db", sandbox.database, "-f", StoryTests.script])
        try #require(story.status == 0)
        let expected = await RecordQLEngine(database: try RecordDatabase(path: sandbox.database, bootstrap: .shopping)).execute(Self.query).json
        guard let run = try ShopBinary.shop(["--db", sandbox.database, "--json", "-e", Self.query]) else { return }
        #expect(run.status == 0)
        #expect(run.output == expected + "\n")
        #expect(run.output.contains("Milk"))
    }

    @Test func aQueryOverSeveralLinesIsOneDocument() async throws {
        let sandbox = Sandbox()
        let document = "query Lists {\n  Lists {\n    name # a comment with a { brace\n    title: name\n  }\n}"
        let script = try sandbox.file("q.graphql", "list add Groceries\n" + document + "\n")
        let run = await shop(["--db", sandbox.database, "--json", "-f", script])
        #expect(run.status == 0, "\(run.errors)")
        let response = await RecordQLEngine(database: try RecordDatabase(path: sandbox.database, bootstrap: .shopping)).execute(document).json
        #expect(run.output == #"{"message":"added list Groceries","list":"Groceries"}"# + "\n" + response + "\n")
    }

    @Test func aFailingQueryPrintsItsResponseAndFails() async throws {
        let sandbox = Sandbox()
        let query = "{ Nope { name } }"
        let expected = await RecordQLEngine(database: try RecordDatabase(path: sandbox.database, bootstrap: .shopping)).execute(query).json
        let run = await shop(["--db", sandbox.database, "--json", "-e", query])
        #expect(run.status == 1)
        #expect(run.output == expected + "\n")
        #expect(run.errors.hasPrefix("error: "))
    }

    @Test func tablesAreTheDefault() async throws {
        let sandbox = Sandbox()
        _ = await shop(["--db", sandbox.database, "-e", "list add Groceries"])
        let expected = ResponseTable.render(
            await RecordQLEngine(database: try RecordDatabase(path: sandbox.database, bootstrap: .shopping)).execute(Self.query))
        let run = await shop(["--db", sandbox.database, "-e", Self.query])
        #expect(run.status == 0)
        #expect(run.output == (expected.hasSuffix("\n") ? expected : expected + "\n"))
    }
}
