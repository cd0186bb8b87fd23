import Foundation
import RecordKit
import Synchronization
import TestSupport
import Testing

@testable import ShopCLI

/// Ctrl-C (SIGINT) while commands run: the command is cancelled, the prompt goes on, a script
/// stops after the command running and names the last line that finished, and what finished is
/// exactly what is stored.
@Suite struct InterruptTests {
    /// A script adding lists L00001 … L0nnnn, one per line.
    static func listScript(in sandbox: Sandbox, lines: Int) throws -> String {
        try sandbox.file("lists.shop", (1...lines).map { String(format: "list add L%05d\n", $0) }.joined())
    }

    /// The lists named like the script's, in the database.
    static func scriptLists(in sandbox: Sandbox) throws -> [String] {
        let database = try RecordDatabase(path: sandbox.database, bootstrap: .shopping)
        return try database.records(matching: Query("Lists", predicate: PredicateField("name").beginsWith("L"), sort: [SortDescriptor("name")])).compactMap {
            $0["name"]?.stringValue
        }
    }

    @Test func ctrlCCancelsACommandAtThePromptAndTheREPLGoesOn() throws {
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let sandbox = Sandbox()
        let database = try RecordDatabase(path: sandbox.database, bootstrap: .shopping)
        try database.save(Record("Lists", recordName: "big", fields: ["name": .string("Big")]))
        for start in stride(from: 0, to: 100_000, by: 20_000) {
            try database.modify(
                (start..<start + 20_000).map { index in
                    .create(
                        Record(
                            "Items",
                            fields: [
                                "name": .string(String(format: "Item %06d", index)), "list": .reference(Reference("big", action: .deleteSelf)),
                            ]))
                })
        }
        let script = try Self.listScript(in: sandbox, lines: 20_000)
        let driver = ShopBinary.file("Tests/ShopCLITests/Fixtures/terminal_interrupt.py")
        let run = try ShopBinary.run("/usr/bin/env", ["python3", driver, binary, sandbox.database, sandbox.home, script], timeout: 300)
        #expect(run.status == 0, "\(run.output.suffix(3000))\n\(run.errors)")
        #expect(run.output.hasSuffix("terminal interrupt: ok\n"))
        let finished = try #require(run.output.firstMatch(of: /finished lines: (\d+)/).map { Int($0.1)! })
        #expect(finished >= 200 && finished < 20_000)
        #expect(try Self.scriptLists(in: sandbox) == (1...finished).map { String(format: "L%05d", $0) })
        #expect(try database.count(matching: Query("Items")) == 100_000)
    }

    /// SIGINT to `shop -f FILE` stops after the command running, names FILE:LINE of the last
    /// one that finished, exits 130, and leaves exactly the finished commands' writes.
    @Test func sigintStopsAScriptAfterItsCurrentCommandNamingTheLastLineThatFinished() throws {
        let sandbox = Sandbox()
        let script = try Self.listScript(in: sandbox, lines: 20_000)
        let binary = try #require(ShopBinary.path, "the shop executable is not built next to the tests; run swift build --build-tests first")
        let run = try ShopBinary.run(binary, ["--db", sandbox.database, "-f", script], timeout: 300) { child in
            let deadline = Date().addingTimeInterval(120)
            while child.isRunning, Date() < deadline, (try? Self.scriptLists(in: sandbox).count) ?? 0 < 100 {
                Thread.sleep(forTimeInterval: 0.02)
            }
            child.send(SIGINT)
        }
        #expect(run.status == 130, "\(run.errors)")
        let match = try #require(run.errors.firstMatch(of: /interrupted \(Ctrl-C\): (.*):(\d+) is the last command that finished/), "\(run.errors)")
        #expect(String(match.1) == script)
        let finished = Int(match.2)!
        #expect(finished >= 100 && finished < 20_000)
        #expect(try Self.scriptLists(in: sandbox) == (1...finished).map { String(format: "L%05d", $0) })
    }

    /// An interruption requested before a script's next line stops it there (the runner's check,
    /// without a signal).
    @Test func aRequestedInterruptionStopsAScriptBeforeItsNextLine() async throws {
        let sandbox = Sandbox()
        let (console, captured) = Console.capturing()
        let interruption = Interruption()
        let session = ShopSession(database: try RecordDatabase(path: sandbox.database, bootstrap: .shopping), console: console, interruption: interruption)
        var pending = ["list add A", "list add B", "list add C"][...]
        let lines = AnySequence {
            AnyIterator { () -> String? in
                // Ctrl-C while the second command ran: requested as the third line is read.
                if pending.count == 1 { interruption.request() }
                return pending.popFirst()
            }
        }
        let result = await ScriptRunner.run(lines: lines, name: "three.shop", in: session)
        #expect(result.interrupted)
        #expect(captured.errors == "interrupted (Ctrl-C): three.shop:2 is the last command that finished\n")
        #expect(try await session.store.lists().map(\.name) == ["A", "B"])
    }

    /// A watch runs until Ctrl-C, so the Ctrl-C that ends it in a script leaves the command
    /// before it as the last that finished, and the script stops there.
    @Test func aWatchEndedByCtrlCIsNotTheLastCommandThatFinished() async throws {
        let sandbox = Sandbox()
        let (console, captured) = Console.capturing()
        let interruption = Interruption()
        let session = ShopSession(database: try RecordDatabase(path: sandbox.database, bootstrap: .shopping), console: console, interruption: interruption)
        let stopper = Task {
            try await Task.sleep(for: .milliseconds(500))
            interruption.request()
        }
        let lines = ["list add A", "watch { Lists(sort: [{name: ASC}]) { name } }", "list add C"]
        let result = await ScriptRunner.run(lines: lines, name: "watch.shop", in: session)
        try await stopper.value
        #expect(result.interrupted)
        #expect(captured.errors == "interrupted (Ctrl-C): watch.shop:1 is the last command that finished\n")
        #expect(try await session.store.lists().map(\.name) == ["A"])
    }

    /// A command that finished as Ctrl-C came still says what it did (its write is stored), so
    /// the output of an interrupted script names every command that finished; a long answer
    /// stops printing at its next piece.
    @Test func aCommandFinishedAsCtrlCCameStillPrintsItsLineButALongAnswerStops() async throws {
        let sandbox = Sandbox()
        let (console, captured) = Console.capturing()
        let interruption = Interruption()
        let session = ShopSession(database: try RecordDatabase(path: sandbox.database, bootstrap: .shopping), console: console, interruption: interruption)
        interruption.request()
        session.show(.message("added list B", [:]))
        session.display((1...(ShopSession.linesPerWrite * 3)).map { "line \($0)" }.joined(separator: "\n"))
        #expect(captured.output == "added list B\n")
    }

    /// Work that no flag check can stop (waiting for a server's answer) registers how to cancel
    /// it: an interruption requested while it runs, or before it began, cancels it once it is
    /// registered; one requested after it ended does not.
    @Test func anInterruptionCancelsTheWorkRunningAndNoWorkAfterIt() async throws {
        let interruption = Interruption()
        let cancelled = Mutex(0)
        let during = await interruption.cancelling({ cancelled.withLock { $0 += 1 } }) { () async -> Int in
            interruption.request()
            return cancelled.withLock { $0 }
        }
        #expect(during == 1)
        interruption.request()
        #expect(cancelled.withLock { $0 } == 1)

        let before = await interruption.cancelling({ cancelled.withLock { $0 += 1 } }) { () async -> Int in cancelled.withLock { $0 } }
        #expect(before == 2)
        interruption.reset()
        let afterReset = await interruption.cancelling({ cancelled.withLock { $0 += 1 } }) { () async -> Int in cancelled.withLock { $0 } }
        #expect(afterReset == 2)
    }
}
