import Foundation
import Testing

/// The REPL at a real pseudo-terminal: Fixtures/terminal_story.py drives the built `shop` with
/// Python's pexpect (installed by Scripts/test): the prompt, commands, tab completion of a list
/// name, history recalled with the up arrow (a GraphQL document of several lines as one entry;
/// also in the next run, from ~/.shop_history), Ctrl-C abandoning a line, the continuation
/// prompt of GraphQL, Ctrl-D and quit leaving with status 0, also a Ctrl-D typed while a
/// command runs.
@Suite struct TerminalTests {
    @Test func theStoryTypedAtAPseudoTerminal() throws {
        guard let binary = ShopBinary.path else {
            Issue.record("the shop executable is not built next to the tests; run swift build --build-tests first")
            return
        }
        let sandbox = Sandbox()
        let driver = ShopBinary.file("Tests/ShopCLITests/Fixtures/terminal_story.py")
        let run = try ShopBinary.run("/usr/bin/env", ["python3", driver, binary, sandbox.database, sandbox.home], timeout: 180)
        #expect(run.status == 0, "\(run.output)\n\(run.errors)")
        #expect(run.output.hasSuffix("terminal story: ok\n"))
        #expect(try sandbox.contents().hasPrefix("list Corner shop\nDEFINE SCHEMA"))
    }
}
