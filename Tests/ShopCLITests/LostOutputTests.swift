import Foundation
import RecordKit
import TestSupport
import Testing

@testable import ShopCLI

/// Standard output that cannot be written — a full disk (`/dev/full`), a closed descriptor —
/// ends `shop` with status 1 and an error naming why, never a crash (Foundation's
/// `FileHandle.write` stopped the process); the run stops before its next command (before the
/// first, for a descriptor closed from the start), and under `-1` nothing is applied.
@Suite struct LostOutputTests {
    private static let fullDisk =
        "error: limitExceeded: cannot write to standard output: No space left on device; what shop printed from then on is lost: send the output where it can be written (free space, or another file)\n"

    /// Runs the built `shop` with `arguments` through `sh`, standard output redirected by
    /// `redirection` (e.g. `> /dev/full`).
    private static func shop(_ arguments: [String], _ redirection: String) throws -> ProcessRun? {
        guard let binary = ShopBinary.path else {
            Issue.record("the shop executable is not built next to the tests; run swift build --build-tests first")
            return nil
        }
        return try ShopBinary.run("/bin/sh", ["-c", "exec \"$0\" \"$@\" \(redirection)", binary] + arguments, timeout: 30)
    }

    @Test func outputToAFullDiskFailsWithAnErrorInsteadOfACrash() throws {
        let sandbox = Sandbox()
        let run = try #require(try Self.shop(["--db", sandbox.database, "-e", "list add Groceries", "-e", "lists"], "> /dev/full"))
        #expect(run.status == 1)
        #expect(run.errors == Self.fullDisk)
        let help = try #require(try Self.shop(["--help"], "> /dev/full"))
        #expect(help.status == 1)
        #expect(help.errors == Self.fullDisk)
    }

    @Test func aWatchWhoseOutputCannotBeWrittenEnds() throws {
        let sandbox = Sandbox()
        let run = try #require(try Self.shop(["--db", sandbox.database, "-e", "watch { Lists { name } }"], "> /dev/full"))
        #expect(run.status == 1)
        #expect(run.errors == Self.fullDisk)
    }

    @Test func aClosedStandardOutputFailsBeforeAnyCommandAndNoFileTakesItsNumber() throws {
        let sandbox = Sandbox()
        let run = try #require(try Self.shop(["--db", sandbox.database, "-e", "list add Groceries", "-e", "lists"], ">&-"))
        #expect(run.status == 1)
        #expect(
            run.errors
                == "error: internalError: cannot write to standard output: Bad file descriptor; what shop printed from then on is lost: send the output where it can be written (free space, or another file)\n"
        )
        // Known before the first command: nothing runs, and nothing is written into a file that
        // took descriptor 1 (the database opens whole).
        #expect(try sandbox.contents().hasPrefix("\nDEFINE SCHEMA"))
    }

    @Test func aScriptStopsBeforeTheCommandAfterOutputWasLost() throws {
        let sandbox = Sandbox()
        // The failing command's error flushes the output held back, which cannot be written.
        let script = try sandbox.file("script.shop", "list add A\nlists\nlist rename Missing B\nlist add C\n")
        let run = try #require(try Self.shop(["--db", sandbox.database, "--keep-going", "-f", script], "> /dev/full"))
        #expect(run.status == 1)
        #expect(run.errors.hasSuffix("\(script):3: " + Self.fullDisk), "\(run.errors)")
        #expect(try sandbox.contents().hasPrefix("list A\nDEFINE SCHEMA"))
    }

    @Test func underOneTransactionOutputThatCannotBeWrittenAppliesNothing() throws {
        let sandbox = Sandbox()
        let run = try #require(try Self.shop(["--db", sandbox.database, "-1", "-e", "list add Groceries", "-e", "lists"], "> /dev/full"))
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("rolled back: -1 runs every -e and -f as one transaction"))
        #expect(run.errors.hasSuffix(Self.fullDisk))
        #expect(try sandbox.contents().hasPrefix("\nDEFINE SCHEMA"))
    }
}
