public import RecordKit

/// One entry of a response's `errors` list, in GraphQL's shape:
/// `{"message","locations":[{"line","column"}],"path":[…],"extensions":{"code":…}}`.
///
/// `code` is one of RecordKit's error codes (CloudKit's names, listed in the README): syntax and validation errors are
/// `invalidArguments`, unknown types and fields `schemaViolation`, and failures of the
/// engine keep the code of their ``RecordError``.
public struct GraphQLResponseError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A position in the request document, 1-based.
    public struct Location: Sendable, Hashable {
        public var line: Int
        public var column: Int

        public init(line: Int, column: Int) {
            self.line = line
            self.column = column
        }
    }

    /// One step of the path from the response root to the field that failed.
    public enum PathElement: Sendable, Hashable {
        case key(String)
        case index(Int)
    }

    /// What was wrong.
    public var message: String
    /// The stable code of the failure (CloudKit's names, listed in the README).
    public var code: RecordError.Code
    /// Where in the document the problem is; empty when it concerns the request as a whole.
    public var locations: [Location]
    /// The response keys (aliases) leading to the failing field; empty before execution.
    public var path: [PathElement]
    /// What went wrong, finer than ``code``, when the engine said (``RecordError/reason``).
    public var reason: RecordError.Reason?
    /// What to do about it, for the edge to word (``RecordError/remedy``); not in ``json``.
    public var remedy: RecordError.Remedy?

    /// An error with `code` and `message`, located in the document and the response.
    public init(
        _ code: RecordError.Code, _ message: String, locations: [Location] = [], path: [PathElement] = [],
        reason: RecordError.Reason? = nil, remedy: RecordError.Remedy? = nil
    ) {
        self.code = code
        self.message = message
        self.locations = locations
        self.path = path
        self.reason = reason
        self.remedy = remedy
    }

    /// `code: message`, the form the REPL prints after `error: `; the first location, if any,
    /// comes before the message as `line:column:`.
    public var description: String {
        guard let location = locations.first else { return "\(code.rawValue): \(message)" }
        return "\(code.rawValue): \(location.line):\(location.column): \(message)"
    }

    /// The reasons a client acts on by code, so `extensions` carries them besides the code: an
    /// expired change token means fetching the changes again from the start.
    static let reasonsInExtensions: Set<RecordError.Reason> = [.changeTokenExpired]

    /// The error as compact JSON, keys in GraphQL's order.
    var json: String {
        var text = "{\"message\":" + JSONWriter.string(message)
        if !locations.isEmpty {
            text += ",\"locations\":[" + locations.map { "{\"line\":\($0.line),\"column\":\($0.column)}" }.joined(separator: ",") + "]"
        }
        if !path.isEmpty {
            text += ",\"path\":[" + path.map(\.json).joined(separator: ",") + "]"
        }
        text += ",\"extensions\":{\"code\":" + JSONWriter.string(code.rawValue)
        if let reason, Self.reasonsInExtensions.contains(reason) {
            text += ",\"reason\":" + JSONWriter.string(reason.rawValue)
        }
        return text + "}}"
    }
}

extension GraphQLResponseError.PathElement {
    var json: String {
        switch self {
        case .key(let key): JSONWriter.string(key)
        case .index(let index): String(index)
        }
    }
}
