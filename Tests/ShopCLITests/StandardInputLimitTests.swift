import Foundation
import Testing

@testable import ShopCLI

/// Standard input is read a line at a time up to a limit: input with no line end
/// (`shop < /dev/zero`, which filled memory) is refused at the limit.
@Suite struct StandardInputLimitTests {
    @Test func inputWithNoLineEndIsRefusedAtTheLimitByShop() throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let sandbox = Sandbox()
        let run = try ShopBinary.run("/bin/sh", ["-c", "exec \"$0\" --db \"$1\" < /dev/zero", binary, sandbox.database])
        #expect(run.status == 1)
        #expect(
            run.errors == "<stdin>:1: error: limitExceeded: line 1 of standard input is longer than 16 MiB (or has no end); nothing from that line on was run\n"
        )
    }
}
