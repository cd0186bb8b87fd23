/// Tracks whether a GraphQL document typed over several lines is complete: its braces balance,
/// counting only braces outside strings (`"…"`, `"""…"""`) and `#` comments.
struct GraphQLBalance {
    /// Open braces not yet closed.
    private(set) var depth = 0
    /// Whether a `{` has been seen (`query Name` alone is not complete yet).
    private(set) var hasOpened = false
    /// Inside a `"""` block string, which may span lines.
    private var inBlockString = false

    /// The document is complete: it opened a brace and closed every one (or closed too many,
    /// which GraphQL's parser then reports).
    var isComplete: Bool { hasOpened && depth <= 0 && !inBlockString }

    /// Takes in one more line of the document.
    mutating func scan(_ line: String) {
        let characters = Array(line)
        var index = 0
        var inString = false
        while index < characters.count {
            let character = characters[index]
            if inBlockString {
                if starts(characters, at: index, with: "\"\"\"") {
                    inBlockString = false
                    index += 3
                } else {
                    index += character == "\\" ? 2 : 1
                }
                continue
            }
            if inString {
                if character == "\\" {
                    index += 2
                    continue
                }
                if character == "\"" { inString = false }
                index += 1
                continue
            }
            switch character {
            case "#":
                return
            case "\"":
                if starts(characters, at: index, with: "\"\"\"") {
                    inBlockString = true
                    index += 3
                    continue
                }
                inString = true
            case "{":
                depth += 1
                hasOpened = true
            case "}":
                depth -= 1
            default:
                break
            }
            index += 1
        }
    }

    private func starts(_ characters: [Character], at index: Int, with prefix: String) -> Bool {
        let prefix = Array(prefix)
        guard index + prefix.count <= characters.count else { return false }
        return Array(characters[index..<index + prefix.count]) == prefix
    }
}
