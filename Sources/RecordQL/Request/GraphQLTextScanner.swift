/// Reads GraphQL text the way GraphQL's lexer splits it, without parsing it: which brackets are
/// open outside strings (`"…"`, `"""…"""`) and `#` comments. Text may come in pieces (the lines
/// of a document typed over several lines); the state carries over.
///
/// The REPL asks it whether a document is complete (its braces balance); the engine asks it,
/// before parsing, how deeply a document nests and whether it ends inside a `\u` escape
/// (``DocumentLimits``).
public struct GraphQLTextScanner: Sendable {
    /// A position in the text scanned so far, 1-based: where a response's error points.
    public typealias Position = GraphQLResponseError.Location

    /// Open `{` not yet closed.
    public private(set) var braceDepth = 0
    /// Whether a `{` has been seen (`query Name` alone is not complete yet).
    public private(set) var hasOpenedBrace = false
    /// Where `{`, `[` and `(` first nested deeper than the depth limit, if they did.
    public private(set) var tooDeep: Position?
    /// Where a `\u` escape starts that the text ends inside of, if it does.
    public private(set) var unfinishedEscape: Position?

    private let depthLimit: Int?
    private var nesting = 0
    private var inString = false
    private var inBlockString = false
    private var inComment = false
    private var line = 1
    private var column = 0

    /// A scanner noting where nesting first goes past `depthLimit`, when one is given.
    public init(depthLimit: Int? = nil) {
        self.depthLimit = depthLimit
    }

    /// The document is complete: it opened a brace and closed every one (or closed too many,
    /// which GraphQL's parser then reports), and no block string is open.
    public var isComplete: Bool { hasOpenedBrace && braceDepth <= 0 && !inBlockString }

    /// Takes in the next piece of text.
    public mutating func scan(_ text: String) {
        let bytes = Array(text.utf8)
        unfinishedEscape = nil
        var index = 0
        while index < bytes.count {
            let byte = bytes[index]
            column += 1
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 0
                inComment = false
                inString = false
                index += 1
                continue
            }
            if inComment {
                index += 1
                continue
            }
            if inBlockString {
                if Self.isTripleQuote(bytes, at: index) {
                    inBlockString = false
                    index += 3
                    column += 2
                } else if byte == UInt8(ascii: "\\"), Self.isTripleQuote(bytes, at: index + 1) {
                    index += 4
                    column += 3
                } else {
                    index += 1
                }
                continue
            }
            if inString {
                if byte == UInt8(ascii: "\\") {
                    if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "u"), index + 5 >= bytes.count {
                        unfinishedEscape = Position(line: line, column: column)
                    }
                    index += 2
                    column += 1
                    continue
                }
                if byte == UInt8(ascii: "\"") { inString = false }
                index += 1
                continue
            }
            switch byte {
            case UInt8(ascii: "#"):
                inComment = true
            case UInt8(ascii: "\""):
                if Self.isTripleQuote(bytes, at: index) {
                    inBlockString = true
                    index += 3
                    column += 2
                    continue
                }
                inString = true
            case UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "("):
                if byte == UInt8(ascii: "{") {
                    braceDepth += 1
                    hasOpenedBrace = true
                }
                nesting += 1
                if let depthLimit, nesting > depthLimit, tooDeep == nil {
                    tooDeep = Position(line: line, column: column)
                }
            case UInt8(ascii: "}"), UInt8(ascii: "]"), UInt8(ascii: ")"):
                if byte == UInt8(ascii: "}") { braceDepth -= 1 }
                nesting -= 1
            default:
                break
            }
            index += 1
        }
    }

    private static func isTripleQuote(_ bytes: [UInt8], at start: Int) -> Bool {
        start + 2 < bytes.count && bytes[start...start + 2].allSatisfy { $0 == UInt8(ascii: "\"") }
    }
}
