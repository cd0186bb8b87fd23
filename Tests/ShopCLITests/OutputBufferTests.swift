import Foundation
import Synchronization
import TestSupport
import Testing

@testable import ShopCLI

/// Results held back in an ``OutputBuffer`` come out, in order, before an error, before `shop`
/// waits for input, and when it exits.
@Suite struct OutputBufferTests {
    /// What a buffered console handed to standard output (`out: `) and standard error
    /// (`err: `), piece by piece, in order.
    final class Streams: Sendable {
        private let pieces = Mutex<[String]>([])
        var log: [String] { pieces.withLock { $0 } }

        func record(_ stream: String, _ data: Data) {
            pieces.withLock { $0.append("\(stream): " + String(decoding: data, as: UTF8.self)) }
        }
    }

    /// A buffered console and what it writes.
    static func bufferedConsole() -> (Console, Streams) {
        let streams = Streams()
        return (Console.buffered(output: { streams.record("out", $0) }, errors: { streams.record("err", $0) }), streams)
    }

    @Test func resultsWaitUntilFlushedAndComeOutAsOnePiece() {
        let (console, streams) = Self.bufferedConsole()
        console.print("added list A")
        console.print("added list B")
        #expect(streams.log.isEmpty)
        console.flush()
        #expect(streams.log == ["out: added list A\nadded list B\n"])
        console.flush()
        #expect(streams.log.count == 1)
    }

    @Test func anErrorComesAfterTheResultsWrittenBeforeIt() {
        let (console, streams) = Self.bufferedConsole()
        console.print("added list A")
        console.writeError("error: boom\n")
        console.print("added list B")
        console.flush()
        #expect(streams.log == ["out: added list A\n", "err: error: boom\n", "out: added list B\n"])
    }

    @Test func aFullBufferIsWrittenWithoutBeingAsked() {
        let (console, streams) = Self.bufferedConsole()
        let line = String(repeating: "x", count: 1023) + "\n"
        for _ in 0..<(OutputBuffer.capacity / line.utf8.count) {
            console.write(line)
        }
        #expect(streams.log.count == 1)
        #expect(streams.log.first?.utf8.count == "out: ".utf8.count + OutputBuffer.capacity)
    }

    @Test func shopWritesEverythingHeldBackBeforeItReturns() async {
        let sandbox = Sandbox()
        let (console, streams) = Self.bufferedConsole()
        let status = await Shop.main(
            arguments: ["--db", sandbox.database, "-e", "list add A", "-e", "list add B", "-e", "list add A"],
            environment: [:],
            console: console
        )
        #expect(status == 1)
        #expect(
            streams.log == [
                "out: added list A\nadded list B\n",
                "err: error: schemaViolation: there is already a list named 'A'; list names are unique, choose another one\n",
            ])
    }

    /// A program that sends `shop` one line at a time through a pipe and waits for each answer
    /// gets it although standard output is a pipe (buffered): shop flushes before it waits.
    @Test func aProgramFeedingLinesOneAtATimeGetsEachAnswer() throws {
        guard let binary = ShopBinary.path else {
            Issue.record("the shop executable is not built next to the tests; run swift build --build-tests first")
            return
        }
        let sandbox = Sandbox()
        let child = try ChildProcess(binary, ["--db", sandbox.database], input: .pipe, output: .mergedPipe)
        let exchanges = [
            ("list add A", "added list A\n"),
            ("lists", "list  items\nA         0\n"),
            ("list add A", "<stdin>:3: error: schemaViolation: there is already a list named 'A'; list names are unique, choose another one\n"),
        ]
        for (line, answer) in exchanges {
            try child.write(line + "\n")
            #expect(child.nextOutput(answer.utf8.count, within: 10) == answer, "\(line)")
        }
        #expect(try child.finish().status == 1)
    }
}
