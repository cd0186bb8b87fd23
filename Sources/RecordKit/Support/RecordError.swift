/// The one error type of RecordKit.
///
/// Every failure carries a stable ``Code`` (CloudKit's names, listed in the README), a message that
/// says what was wrong, a finer ``Reason`` and a structured ``Remedy`` where they help, plus the
/// record type, field and recordName involved. The message carries no advice for a particular
/// edge (a REPL command, an HTTP header): each edge renders the remedy its own way. Render it for people with ``description``; match it in code with
/// ``code``:
///
/// ```swift
/// do { try db.save(item) }
/// catch let error as RecordError where error.code == .serverRecordChanged { … }
/// ```
public struct RecordError: Error, Sendable, CustomStringConvertible {
    /// Stable error codes, named as CloudKit names them.
    public enum Code: String, Sendable, Codable, CaseIterable {
        case invalidArguments
        case unknownItem
        case serverRecordChanged
        case referenceViolation
        case schemaViolation
        case transactionConflict
        case limitExceeded
        /// The record type's grants do not let the caller do this (``AccessPolicy``).
        case permissionFailure
        case internalError
    }

    /// What kind of failure this is.
    public var code: Code
    /// What was wrong, and what to do about it, as one or two sentences.
    public var message: String
    /// The record type involved, if any.
    public var recordType: String?
    /// The field involved, if any.
    public var field: String?
    /// The recordName involved, if any.
    public var recordName: String?
    /// Where in a source text (schema file, predicate) the problem is, if it came from text.
    public var location: SourceLocation?
    /// The underlying error (for example a SQLite error), kept whole.
    public var underlyingError: (any Error & Sendable)?
    /// What went wrong, finer than ``code``; `nil` when the code says it all.
    public var reason: Reason?
    /// What to do about it, when something can be done; ``message`` does not say it.
    public var remedy: Remedy?

    public init(
        _ code: Code,
        _ message: String,
        recordType: String? = nil,
        field: String? = nil,
        recordName: String? = nil,
        location: SourceLocation? = nil,
        underlyingError: (any Error & Sendable)? = nil,
        reason: Reason? = nil,
        remedy: Remedy? = nil
    ) {
        self.code = code
        self.message = message
        self.recordType = recordType
        self.field = field
        self.recordName = recordName
        self.location = location
        self.underlyingError = underlyingError
        self.reason = reason
        self.remedy = remedy
    }

    /// `code: message`, the form the REPL prints after `error: `.
    public var description: String {
        if let location {
            return "\(code.rawValue): \(location): \(message)"
        }
        return "\(code.rawValue): \(message)"
    }
}

/// A position in a source text, 1-based, with the offending line for a caret excerpt.
public struct SourceLocation: Sendable, Hashable, Codable, CustomStringConvertible {
    public var line: Int
    public var column: Int
    /// The full text of the line the position is on.
    public var lineText: String
    /// The file the text came from, when it came from one.
    public var file: String?

    public init(line: Int, column: Int, lineText: String = "") {
        self.line = line
        self.column = column
        self.lineText = lineText
    }

    /// The line and a caret under the column, for error output.
    public var excerpt: String {
        let prefix = String(repeating: " ", count: max(0, column - 1))
        return "\(lineText)\n\(prefix)^"
    }

    /// `LINE:COLUMN`, after `FILE:` when the text came from a file.
    public var description: String { (file.map { "\($0):" } ?? "") + "\(line):\(column)" }

    /// The location of the UTF-8 offset `offset` in `text`.
    public init(offset: String.Index, in text: String) {
        var line = 1
        var lineStart = text.startIndex
        var index = text.startIndex
        while index < offset && index < text.endIndex {
            if text[index].isNewline {
                line += 1
                lineStart = text.index(after: index)
            }
            index = text.index(after: index)
        }
        let lineEnd = text[lineStart...].firstIndex(where: \.isNewline) ?? text.endIndex
        self.init(
            line: line,
            column: text.distance(from: lineStart, to: offset) + 1,
            lineText: String(text[lineStart..<lineEnd])
        )
    }
}
