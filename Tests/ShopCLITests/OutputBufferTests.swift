import Foundation
import Synchronization
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
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = ["--db", sandbox.database]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = output
        try process.run()
        defer {
            try? input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
        let exchanges = [
            ("list add A", "added list A\n"),
            ("lists", "list  items\nA         0\n"),
            ("list add A", "<stdin>:3: error: schemaViolation: there is already a list named 'A'; list names are unique, choose another one\n"),
        ]
        for (line, answer) in exchanges {
            try input.fileHandleForWriting.write(contentsOf: Data((line + "\n").utf8))
            #expect(try Self.read(answer.utf8.count, from: output.fileHandleForReading, within: 10) == answer, "\(line)")
        }
    }

    /// `count` bytes from `handle`, or what came before `seconds` passed.
    private static func read(_ count: Int, from handle: FileHandle, within seconds: Double) throws -> String {
        var bytes = Data()
        let deadline = Date().addingTimeInterval(seconds)
        while bytes.count < count, Date() < deadline {
            var descriptor = pollfd(fd: handle.fileDescriptor, events: Int16(POLLIN), revents: 0)
            guard poll(&descriptor, 1, 100) > 0 else { continue }
            guard let piece = try handle.read(upToCount: count - bytes.count), !piece.isEmpty else { break }
            bytes.append(piece)
        }
        return String(decoding: bytes, as: UTF8.self)
    }
}
