import ArgumentParser
import Foundation
import RecordKit

/// `source FILE`
struct SourceCommand: ShopCommand {
    static let configuration = CommandConfiguration(
        commandName: "source",
        abstract: "Run the commands of a script file.",
        discussion: "Errors name the file and line.\nExample:\n  source Scripts/examples/groceries.shop"
    )

    /// How deeply scripts may source scripts.
    static let maximumDepth = 16

    @Argument(help: "The script file.")
    var file: String

    func run(in session: ShopSession) async throws(RecordError) -> CommandOutcome {
        guard session.sourceDepth < Self.maximumDepth else {
            throw RecordError(.limitExceeded, "scripts are sourced more than \(Self.maximumDepth) deep; does \(file) source itself?")
        }
        let text = try SourceFile.read(file)
        session.sourceDepth += 1
        defer { session.sourceDepth -= 1 }
        let result = await ScriptRunner.run(lines: text.lines, name: file, in: session)
        if result.quit { return .quit }
        return result.failures > 0 ? .failedAndReported : .proceed
    }
}

/// Reading files named in commands.
enum SourceFile {
    /// The most bytes read of one file (a script, a schema, an import): past it the file is
    /// refused, so that a file with no end (`/dev/zero`) fails at once instead of filling memory.
    /// An import is one batch of at most 200,000 records (``Limits/maximumBatchOperations``),
    /// which in CSV or JSON Lines is well below it.
    static let maximumBytes = 256 << 20

    /// The text of `path`, or `invalidArguments` saying why it cannot be read.
    static func read(_ path: String) throws(RecordError) -> String {
        let data = try contents(path)
        guard let text = String(data: data, encoding: .utf8) else {
            throw RecordError(.invalidArguments, "cannot read \(path): it is not UTF-8 text")
        }
        return text
    }

    /// The bytes of `path`, read to its end (a pipe such as `/dev/stdin` too), or
    /// `invalidArguments` saying why it cannot be read (`limitExceeded` past ``maximumBytes``).
    static func contents(_ path: String, maximumBytes: Int = maximumBytes) throws(RecordError) -> Data {
        try FileContents.read(path, maximumBytes: maximumBytes, remedy: "; split it into files of at most \(FileContents.size(maximumBytes))")
    }
}

extension String {
    /// The lines of the text, without their line ends (`\n` or `\r\n`; a final one ends the last
    /// line). Split by Unicode scalar: `\r\n` is a single `Character`, which a split on the
    /// `Character` `\n` would not see.
    var lines: [String] {
        var lines = unicodeScalars.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            String(String.UnicodeScalarView(line.last == "\r" ? line.dropLast() : line))
        }
        if lines.last == "" { lines.removeLast() }
        return lines
    }
}
