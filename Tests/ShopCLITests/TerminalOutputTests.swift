import Foundation
import Testing

/// Colour and the pager belong to a person at a terminal: at a pseudo-terminal headers and
/// `error:` are coloured and long output goes through `$PAGER`; `NO_COLOR` removes the colour,
/// `--no-pager` the pager, and in a pipe there is neither.
@Suite struct TerminalOutputTests {
    static let escape = "\u{1B}["

    /// A database with `count` lists, so that `lists` prints `count` + 1 lines.
    private func database(lists count: Int) async throws -> Sandbox {
        let sandbox = Sandbox()
        let run = await shop(["--db", sandbox.database] + (1...count).flatMap { ["-e", "list add L\($0)"] })
        try #require(run.status == 0)
        return sandbox
    }

    private func binary() throws -> String {
        try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
    }

    @Test func headersAndErrorsAreColouredAtATerminal() async throws {
        let sandbox = try await database(lists: 2)
        let run = try ShopBinary.onTerminal(try binary(), ["--db", sandbox.database, "--keep-going", "-e", "lists", "-e", "items Nope"])
        #expect(run.status == 1)
        #expect(run.text.contains("\(Self.escape)1mlist  items\(Self.escape)0m"), "\(run.text)")
        #expect(run.text.contains("\(Self.escape)1;31merror:\(Self.escape)0m unknownItem"), "\(run.text)")
    }

    @Test func noColorRemovesTheColour() async throws {
        let sandbox = try await database(lists: 2)
        let run = try ShopBinary.onTerminal(
            try binary(), ["--db", sandbox.database, "--keep-going", "-e", "lists", "-e", "items Nope"], environment: ["NO_COLOR": "1"])
        #expect(run.text.contains("list  items\nL1 "), "\(run.text)")
        #expect(run.text.contains("error: unknownItem"))
        #expect(!run.text.contains(Self.escape))
    }

    @Test func longOutputGoesThroughThePagerAtATerminal() async throws {
        let sandbox = try await database(lists: 30)
        let pager = ["PAGER": "sed 's/^/paged: /'"]
        let paged = try ShopBinary.onTerminal(try binary(), ["--db", sandbox.database, "-e", "lists"], environment: pager)
        #expect(paged.text.contains("paged: L30 "), "\(paged.text)")
        let short = try ShopBinary.onTerminal(try binary(), ["--db", sandbox.database, "-e", "items L1"], environment: pager)
        #expect(short.text == "no items in L1\n")
        let unpaged = try ShopBinary.onTerminal(try binary(), ["--db", sandbox.database, "--no-pager", "-e", "lists"], environment: pager)
        #expect(!unpaged.text.contains("paged:"))
        #expect(unpaged.text.contains("\nL30 "))
    }

    /// A pager that reads its keys from the terminal, as less does, at a real pseudo-terminal
    /// (Fixtures/terminal_pager.py, pexpect): it runs in the terminal's foreground process group
    /// (Foundation's `Process` put it in a group of its own, where it was stopped and shop waited
    /// for ever); a Ctrl-C it takes as its own key cancels nothing, one that ends it cancels the
    /// command.
    @Test func aPagerThatReadsTheTerminalGetsItsKeys() async throws {
        let sandbox = try await database(lists: 30)
        let driver = ShopBinary.file("Tests/ShopCLITests/Fixtures/terminal_pager.py")
        let run = try ShopBinary.run("/usr/bin/env", ["python3", driver, try binary(), sandbox.database, sandbox.home], timeout: 120)
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.hasSuffix("terminal pager: ok\n"))
    }

    @Test func aPipeGetsNeitherColourNorPager() async throws {
        let sandbox = try await database(lists: 30)
        let run = try #require(
            try ShopBinary.shop(
                ["--db", sandbox.database, "--keep-going", "-e", "lists", "-e", "items Nope"],
                environment: ["PAGER": "sed 's/^/paged: /'", "TERM": "xterm"]
            ))
        #expect(run.output.hasPrefix("list  items\nL1 "))
        #expect(!run.output.contains("paged:"))
        #expect(!(run.output + run.errors).contains(Self.escape))
        #expect(run.errors.hasPrefix("error: unknownItem"))
    }
}
