import Foundation
import RecordKit
import Testing

/// Lines read from a descriptor: split at `\n` wherever reads end, the last line without one,
/// and a line past the limit refused instead of gathered (`shop < /dev/zero` filled memory).
@Suite struct LineReaderTests {
    /// The lines a reader of at most `maximumLength` bytes a line gives for `input`, written to a
    /// pipe by another thread in pieces of `piece` bytes.
    private static func lines(of input: [UInt8], piece: Int, maximumLength: Int) -> [LineReader.Line] {
        let pipe = Pipe()
        let writer = pipe.fileHandleForWriting
        Thread {
            var offset = 0
            while offset < input.count {
                let end = min(offset + piece, input.count)
                writer.write(Data(input[offset..<end]))
                offset = end
            }
            try? writer.close()
        }.start()
        let reader = LineReader(descriptor: pipe.fileHandleForReading.fileDescriptor, maximumLength: maximumLength)
        var lines: [LineReader.Line] = []
        while true {
            let line = reader.next()
            lines.append(line)
            if line != .line(Array(line.bytes)) { break }
        }
        return lines
    }

    @Test(arguments: [1, 3, 100_000])
    func linesAreSplitWhereverTheReadsEnd(piece: Int) {
        let text = "list add A\nlists\r\n\n" + String(repeating: "x", count: 70_000) + "\nlast without an end"
        let lines = Self.lines(of: Array(text.utf8), piece: piece, maximumLength: 100_000)
        let expected = ["list add A", "lists\r", "", String(repeating: "x", count: 70_000), "last without an end"].map { LineReader.Line.line(Array($0.utf8)) }
        #expect(lines == expected + [.end])
    }

    @Test func aLineOfTheLimitIsReadAndOneByteMoreIsRefused() {
        let limit = 1000
        let fits = Self.lines(of: Array((String(repeating: "a", count: limit) + "\nnext\n").utf8), piece: 4096, maximumLength: limit)
        #expect(fits == [.line(Array(repeating: UInt8(ascii: "a"), count: limit)), .line(Array("next".utf8)), .end])
        let tooLong = Self.lines(of: Array((String(repeating: "a", count: limit + 1) + "\nnext\n").utf8), piece: 4096, maximumLength: limit)
        #expect(tooLong == [.tooLong])
    }
}

extension LineReader.Line {
    /// The line's bytes; none for the end or a refusal.
    fileprivate var bytes: [UInt8] {
        if case .line(let bytes) = self { return bytes }
        return []
    }
}
